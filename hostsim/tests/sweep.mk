# Unit tests of the sweep plans (hostsim/cli/plan.c): manifest, merge bookkeeping, adaptive placement.
UNIT_TESTS += test_plan
test_plan_SRCS := hostsim/tests/test_plan.c $(RVMESS_LIB_SRCS)
test_plan_LIBS := -lm

# Unit tests of the estimates of RTL plans (hostsim/cli/estimate.c).
UNIT_TESTS += test_estimate
test_estimate_SRCS := hostsim/tests/test_estimate.c $(RVMESS_LIB_SRCS)
test_estimate_LIBS := -lm
