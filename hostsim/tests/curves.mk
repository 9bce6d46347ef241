UNIT_TESTS += test_curves
test_curves_SRCS := hostsim/tests/test_curves.c hostsim/cli/curves.c hostsim/cli/svg.c hostsim/cli/out.c hostsim/cli/util.c
test_curves_LIBS := -lm
