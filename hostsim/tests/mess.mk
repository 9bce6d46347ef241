# messsim: loader, interpolation, controller, API (hostsim/mess/)
UNIT_TESTS += test_messsim
test_messsim_SRCS := hostsim/tests/test_messsim.c $(MESS_LIB_SRCS)
test_messsim_LIBS := -lm
