UNIT_TESTS += test_curves
test_curves_SRCS := hostsim/tests/test_curves.c $(RVMESS_LIB_SRCS)
test_curves_LIBS := -lm
