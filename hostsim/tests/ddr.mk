# hostsim's ddr memory model: known-answer timings, mapping, queues
UNIT_TESTS += test_ddr
test_ddr_SRCS := hostsim/tests/test_ddr.c hostsim/sim/memsys.c hostsim/sim/cache.c $(sort $(wildcard hostsim/sim/memmodel*.c)) \
                 $(MESS_LIB_SRCS)
test_ddr_LIBS := -lm

# the ddr controller: reordering, write drains, turnarounds, look-ahead
UNIT_TESTS += test_ddrctl
test_ddrctl_SRCS := hostsim/tests/test_ddrctl.c $(test_ddr_SRCS:hostsim/tests/test_ddr.c=)
test_ddrctl_LIBS := -lm
