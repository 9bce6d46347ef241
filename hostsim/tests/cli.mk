# Unit tests of the rvmess CLI library (hostsim/cli/).
UNIT_TESTS += test_log test_lat test_config
test_log_SRCS    := hostsim/tests/test_log.c $(RVMESS_LIB_SRCS)
test_log_LIBS    := -lm
test_lat_SRCS    := hostsim/tests/test_lat.c $(RVMESS_LIB_SRCS)
test_lat_LIBS    := -lm
test_config_SRCS := hostsim/tests/test_config.c $(RVMESS_LIB_SRCS)
test_config_LIBS := -lm
UNIT_TESTS += test_summary test_compare
test_summary_SRCS := hostsim/tests/test_summary.c $(RVMESS_LIB_SRCS)
test_summary_LIBS := -lm
test_compare_SRCS := hostsim/tests/test_compare.c $(RVMESS_LIB_SRCS)
test_compare_LIBS := -lm
UNIT_TESTS += test_integ
test_integ_SRCS := hostsim/tests/test_integ.c $(RVMESS_LIB_SRCS)
test_integ_LIBS := -lm
# The option tables of the rvmess commands (hostsim/cli/opts.c).
UNIT_TESTS += test_opts
test_opts_SRCS := hostsim/tests/test_opts.c hostsim/cli/opts.c hostsim/cli/util.c
test_opts_LIBS := -lm
