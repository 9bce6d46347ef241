# hostsim memory system (caches, coherence, memory models, counters)
UNIT_TESTS += test_memsys
test_memsys_SRCS := hostsim/tests/test_memsys.c hostsim/sim/memsys.c hostsim/sim/cache.c hostsim/sim/memmodel.c \
                    hostsim/sim/memmodel_ddr.c hostsim/sim/memmodel_ddrctl.c hostsim/sim/memmodel_mess.c $(MESS_LIB_SRCS)
test_memsys_LIBS := -lm
