# Fuzz targets of the input formats (docs/fuzzing.md): hostsim/fuzz/fuzz_<t>.c
# for t in FUZZ_TARGETS, each with its seed corpus in hostsim/fuzz/corpus/<t>/.
#
#   build/fuzz/replay/fuzz_<t>   gcc + ASan/UBSan with replay.c's main():
#                                built by unit-bins, run on the corpus by
#                                ci/tests/fuzz.sh (so by `make test`)
#   build/fuzz/bin/fuzz_<t>      clang + libFuzzer + ASan/UBSan: `make fuzz`
#
# Sources follow the unit tests' lists (test_sim_elf, test_fdt, test_sim_opts), so a
# refactor that keeps those tests linking keeps these linking too.

FUZZ_TARGETS := log curves config elf fdt simcfg manifest merge capture
FUZZ_TIME    ?= 60
FUZZ_ARGS    ?=
FUZZ_CC      ?= clang
FZ           := $(BUILD)/fuzz

fuzz_log_SRCS    := hostsim/fuzz/fuzz_log.c $(RVMESS_LIB_SRCS)
fuzz_curves_SRCS := hostsim/fuzz/fuzz_curves.c $(RVMESS_LIB_SRCS)
fuzz_config_SRCS := hostsim/fuzz/fuzz_config.c $(RVMESS_LIB_SRCS)
fuzz_elf_SRCS    := hostsim/fuzz/fuzz_elf.c $(RVMESS_LIB_SRCS) \
                    $(filter-out hostsim/tests/%,$(test_sim_elf_SRCS))
fuzz_fdt_SRCS    := hostsim/fuzz/fuzz_fdt.c $(filter-out hostsim/tests/%,$(test_fdt_SRCS))
fuzz_simcfg_SRCS := hostsim/fuzz/fuzz_simcfg.c $(filter-out hostsim/tests/%,$(test_sim_opts_SRCS))
fuzz_manifest_SRCS := hostsim/fuzz/fuzz_manifest.c $(RVMESS_LIB_SRCS)
fuzz_merge_SRCS  := hostsim/fuzz/fuzz_merge.c $(RVMESS_LIB_SRCS)
fuzz_capture_SRCS := hostsim/fuzz/fuzz_capture.c $(RVMESS_LIB_SRCS)
FUZZ_LIBS        := -lfdt -lm

# The image `rvmess config` patches in the config target: virt.elf's config
# section alone (a 2 KB ELF, the block exactly as the firmware builds it).
FUZZ_CFG_IMAGE   := $(FZ)/cfg-image.elf
FUZZ_CFG_SECTION := $(shell sed -n 's/^\#define RVM_CFG_SECTION *"\(.*\)".*/\1/p' firmware/include/rvmess/*.h)
$(FUZZ_CFG_IMAGE): $(BUILD)/images/virt.elf
	@mkdir -p $(dir $@)
	$(call say,OBJCOPY,$@)$(TOBJCOPY) -S -j $(FUZZ_CFG_SECTION) $< $@

# the FDT reader's UART driver table (platform/common/uart.c), as test_fdt builds it
$(foreach d,$(FZ)/asan $(FZ)/obj,$(patsubst %.c,$(d)/%.o,$(fuzz_fdt_SRCS))): HCFLAGS += -Iplatform

# The base image of the merge and manifest targets' plans: the config
# section with the grid of hostsim/fuzz/merge-grid.cfg, the grid the merge
# seeds were run with (so their logs' cfg records are their jobs' own).
FUZZ_MERGE_BASE := $(FZ)/merge-base.elf
$(FUZZ_MERGE_BASE): $(FUZZ_CFG_IMAGE) hostsim/fuzz/merge-grid.cfg $(BUILD)/bin/rvmess
	$(call say,CONFIG,$@)$(BUILD)/bin/rvmess config $< --file hostsim/fuzz/merge-grid.cfg -o $@ >/dev/null
FUZZ_MERGE_OBJS := $(foreach t,merge manifest,$(FZ)/asan/hostsim/fuzz/fuzz_$(t).o $(FZ)/obj/hostsim/fuzz/fuzz_$(t).o)
$(FUZZ_MERGE_OBJS): HCFLAGS += -DFUZZ_MERGE_BASE='"$(FUZZ_MERGE_BASE)"'
$(FUZZ_MERGE_OBJS): $(FUZZ_MERGE_BASE)

FUZZ_CONFIG_OBJS := $(FZ)/asan/hostsim/fuzz/fuzz_config.o $(FZ)/obj/hostsim/fuzz/fuzz_config.o
$(FUZZ_CONFIG_OBJS): HCFLAGS += -DFUZZ_CFG_IMAGE='"$(FUZZ_CFG_IMAGE)"'
$(FUZZ_CONFIG_OBJS): $(FUZZ_CFG_IMAGE)

# gcc objects for the replay: the unit tests' sanitizers plus what gcc leaves
# out of -fsanitize=undefined and clang puts in (a double too large for the
# integer it is converted to), so that the replay sees what the fuzzer sees
FUZZ_REPLAY_SANFLAGS := $(SANFLAGS) -fsanitize=float-cast-overflow
$(FZ)/asan/%.o: %.c
	@mkdir -p $(dir $@)
	$(call say,CC-SAN,$@)$(CC) $(HCFLAGS) -O1 $(FUZZ_REPLAY_SANFLAGS) -c $< -o $@

# clang objects: libFuzzer's coverage plus ASan/UBSan (any UB is a crash)
FUZZ_SANFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
$(FZ)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(call say,CC-FUZZ,$@)$(FUZZ_CC) $(HCFLAGS) -O1 -fsanitize=fuzzer-no-link $(FUZZ_SANFLAGS) -c $< -o $@

define fuzz_rules
$(FZ)/replay/fuzz_$(1): $$(patsubst %.c,$(FZ)/asan/%.o,$$(fuzz_$(1)_SRCS) hostsim/fuzz/fuzz_util.c hostsim/fuzz/replay.c)
	@mkdir -p $$(dir $$@)
	$$(call say,LD-SAN,$$@)$$(CC) $(FUZZ_REPLAY_SANFLAGS) $$^ -o $$@ $(FUZZ_LIBS)
$(FZ)/bin/fuzz_$(1): $$(patsubst %.c,$(FZ)/obj/%.o,$$(fuzz_$(1)_SRCS) hostsim/fuzz/fuzz_util.c)
	@mkdir -p $$(dir $$@)
	$$(call say,LD-FUZZ,$$@)$$(FUZZ_CC) -fsanitize=fuzzer $(FUZZ_SANFLAGS) $$^ -o $$@ $(FUZZ_LIBS)
endef
$(foreach t,$(FUZZ_TARGETS),$(eval $(call fuzz_rules,$(t))))

FUZZ_REPLAY_BINS := $(foreach t,$(FUZZ_TARGETS),$(FZ)/replay/fuzz_$(t))
FUZZ_BINS        := $(foreach t,$(FUZZ_TARGETS),$(FZ)/bin/fuzz_$(t))
unit-bins: $(FUZZ_REPLAY_BINS)

.PHONY: fuzz fuzz-bins fuzz-replay
fuzz-bins: $(FUZZ_BINS)
fuzz-replay: $(FUZZ_REPLAY_BINS)

# make fuzz [FUZZ_TIME=seconds per target] [FUZZ_TARGETS="log elf"] [FUZZ_LOADER=1] [FUZZ_ARGS=...]
FUZZ_LOADER ?= 0
fuzz:
	@tools/deps.sh --fuzz
	@$(MAKE) --no-print-directory fuzz-bins fuzz-replay FUZZ_TARGETS="$(FUZZ_TARGETS)"
	@BUILD=$(BUILD) tools/fuzz.sh -t $(FUZZ_TIME) $(if $(filter 1,$(FUZZ_LOADER)),-l) $(FUZZ_TARGETS) -- $(FUZZ_ARGS)
