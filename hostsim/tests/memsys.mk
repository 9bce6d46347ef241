# hostsim memory system (caches, coherence, memory models, counters)
UNIT_TESTS += test_memsys
test_memsys_SRCS := hostsim/tests/test_memsys.c hostsim/sim/memsys.c hostsim/sim/cache.c $(sort $(wildcard hostsim/sim/memmodel*.c)) \
                    $(MESS_LIB_SRCS)
test_memsys_LIBS := -lm
