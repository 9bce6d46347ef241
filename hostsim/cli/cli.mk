# The rvmess CLI: build/bin/rvmess
#
# The libraries (everything in hostsim/cli/ except main.c, plus the shared
# CRC-32) and the commands (hostsim/cli/cmd/, one cmd_<name>.c per rvmess
# subcommand) are listed in RVMESS_LIB_SRCS so unit tests and fuzzers can
# link them; a new command file hostsim/cli/cmd/cmd_<name>.c is picked up
# automatically (declare it and its option table in cmd/cmds.h and add it to
# main.c's list).
RVMESS_CMD_SRCS := $(sort $(wildcard hostsim/cli/cmd/*.c))
RVMESS_LIB_SRCS := $(filter-out hostsim/cli/main.c,$(sort $(wildcard hostsim/cli/*.c))) $(RVMESS_CMD_SRCS) \
                   firmware/lib/crc32.c firmware/lib/cfgcheck.c $(MESS_LIB_SRCS)
RVMESS_LIBS     := -lm

HOST_BINS += $(BUILD)/bin/rvmess

$(BUILD)/bin/rvmess: $(patsubst %.c,$(HOBJ)/%.o,hostsim/cli/main.c $(RVMESS_LIB_SRCS))
	@mkdir -p $(dir $@)
	$(call say,LD,$@)$(CC) $^ -o $@ $(HLDLIBS) $(RVMESS_LIBS)

# Synthetic valid logs for tools/bench-parse.sh and the parse scaling test.
HOST_BINS += $(BUILD)/bin/rvmess-genlog

$(BUILD)/bin/rvmess-genlog: $(patsubst %.c,$(HOBJ)/%.o,tools/genlog.c firmware/lib/crc32.c)
	@mkdir -p $(dir $@)
	$(call say,LD,$@)$(CC) $^ -o $@ $(HLDLIBS)

# Adaptive pause placement replayed on a measured family (docs/sweeps.md).
HOST_BINS += $(BUILD)/bin/rvmess-adapt-replay

$(BUILD)/bin/rvmess-adapt-replay: $(patsubst %.c,$(HOBJ)/%.o,tools/adapt-replay.c $(RVMESS_LIB_SRCS))
	@mkdir -p $(dir $@)
	$(call say,LD,$@)$(CC) $^ -o $@ $(HLDLIBS) $(RVMESS_LIBS)
