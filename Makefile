# rvmess: one freestanding RISC-V image per platform + the host tools.
#
#   make              build every image and the host tools
#   make run          the main job on the default target (see README)
#   make test         unit + integration tests; ends with "N passed, N failed"
#   make help         targets and variables

PLATFORMS ?= virt sbi spike cva6 openpiton
PLATFORM  ?=
BUILD     ?= build
OUT       ?= out

ifneq ($(PLATFORM),)
ifeq ($(filter $(PLATFORM),$(PLATFORMS)),)
$(error unknown PLATFORM '$(PLATFORM)'; known platforms: $(PLATFORMS) (see make help))
endif
IMAGE_PLATFORMS := $(PLATFORM)
else
IMAGE_PLATFORMS := $(PLATFORMS)
endif

# ---- quiet builds -------------------------------------------------------------
# A recipe line written as `$(call say,CC,$@)$(CC) ...` prints "  CC      file"
# and runs silently; `make V=1` prints the commands themselves instead.
V ?= 0
ifeq ($(V),1)
say =
else
say = @printf '  %-7s %s\n' '$(1)' '$(2)';
endif

# ---- cross toolchain (the image) -------------------------------------------
CROSS    ?= riscv64-unknown-elf-
TCC      := $(CROSS)gcc
TOBJCOPY := $(CROSS)objcopy
TARCH    := -march=rv64ima_zicsr_zifencei -mabi=lp64 -mcmodel=medany
TCFLAGS  := $(TARCH) -O2 -g -std=c11 -ffreestanding -nostdlib -fno-builtin \
            -fno-common -fno-pic -fno-stack-protector -fno-tree-loop-distribute-patterns \
            -Wall -Wextra -Werror -Ifirmware/include -Iplatform -MMD -MP
TASFLAGS := $(TARCH) -g -Ifirmware/include -Iplatform -MMD -MP
TLDFLAGS := $(TARCH) -nostdlib -nostartfiles -static -Wl,--gc-sections -Wl,--no-warn-rwx-segments

# ---- host toolchain ---------------------------------------------------------
CC       ?= cc
HCFLAGS  := -std=c11 -D_DEFAULT_SOURCE -O2 -g -Wall -Wextra -Werror -Ifirmware/include -Ihostsim -MMD -MP
HLDLIBS  :=
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all -fsanitize=float-cast-overflow

.DEFAULT_GOAL := all
.PHONY: all images host run test unit integration help deps clean mutate FORCE

# Fragments add to these.
IMAGES      :=
HOST_BINS   :=
UNIT_TESTS  :=

include firmware/firmware.mk
include hostsim/hostsim.mk

all: images host
images: $(IMAGES)
host: $(HOST_BINS)

deps:
	@tools/deps.sh

# The main job.  RUN_TARGET picks where it runs, RUN_CONFIG the image's
# config (a key=value file, applied to a copy of the image), STATS=1 asks
# hostsim for its statistics; each run gets its own directory
# $(OUT)/<date>-<target>/ and $(OUT)/latest points at the newest (see README).
RUN_TARGET ?= hostsim
RUN_HARTS  ?= 8
RUN_CONFIG ?= $(if $(filter hostsim,$(RUN_TARGET)),tools/configs/hostsim.cfg,)
RUN_ARGS   ?=
# hostsim's options for make run: the JEDEC-timed DDR4-3200 channel (the
# ddr memory model) and the LLC stream prefetch, tools/configs/hostsim-ddr4.sim
# (docs/memsys.md); RUN_SIM= runs hostsim's own defaults
RUN_SIM    ?= --config tools/configs/hostsim-ddr4.sim
STATS      ?= 0
# The image each target runs: hostsim and QEMU virt boot virt.elf in M-mode,
# qemu-sbi the S-mode OpenSBI payload, qemu-spike spike.elf.
RUN_PLATFORM_hostsim    := virt
RUN_PLATFORM_qemu-virt  := virt
RUN_PLATFORM_qemu-sbi   := sbi
RUN_PLATFORM_qemu-spike := spike
RUN_PLATFORM_qemu-sifive_u := virt
RUN_PLATFORM := $(RUN_PLATFORM_$(RUN_TARGET))
RUN_FOR_PLATFORM := $(firstword $(foreach t,hostsim qemu-virt qemu-sbi qemu-spike qemu-sifive_u,$(if $(filter $(PLATFORM),$(RUN_PLATFORM_$(t))),$(t))))
RUN_MISMATCH := $(and $(PLATFORM),$(RUN_PLATFORM),$(filter-out $(RUN_PLATFORM),$(PLATFORM)))
RUN_WHY := $(if $(filter hostsim,$(RUN_TARGET)), (hostsim runs M-mode images only))
RUN_MISMATCH_MSG = make run: RUN_TARGET=$(RUN_TARGET) runs $(RUN_PLATFORM).elf, not $(PLATFORM).elf$(RUN_WHY). Use: make PLATFORM=$(PLATFORM) run RUN_TARGET=$(RUN_FOR_PLATFORM)   or: make PLATFORM=$(RUN_PLATFORM) run RUN_TARGET=$(RUN_TARGET)
run: deps
	@$(if $(RUN_PLATFORM),,echo "make run: unknown RUN_TARGET '$(RUN_TARGET)' (known: hostsim qemu-virt qemu-sbi qemu-spike qemu-sifive_u)" >&2; exit 2)
	@$(if $(RUN_MISMATCH),echo "$(RUN_MISMATCH_MSG)" >&2; exit 2)
	@$(MAKE) --no-print-directory -s all PLATFORM=$(RUN_PLATFORM)
	@tools/run.sh --target $(RUN_TARGET) --harts $(RUN_HARTS) $(if $(RUN_CONFIG),--config $(RUN_CONFIG)) \
		--image $(BUILD)/images/$(RUN_PLATFORM).elf --runs $(OUT) --timeout 1800 \
		$(if $(filter 1,$(STATS)),--stats) $(if $(and $(filter hostsim,$(RUN_TARGET)),$(RUN_SIM)),--sim "$(RUN_SIM)") $(RUN_ARGS)

test: deps
	@$(MAKE) --no-print-directory all unit-bins
	@ci/test.sh

# Mutation check (not part of `make test`): tools/mutations.txt, one planted
# bug per line, each in a scratch copy; prints the kill rate and survivors.
mutate:
	@tools/mutate.sh $(MUTATE_ARGS)

help:
	@echo "rvmess make targets:"
	@echo "  make                 build images ($(IMAGE_PLATFORMS)) and host tools"
	@echo "  make PLATFORM=<p>    build only build/images/<p>.elf; platforms: $(PLATFORMS)"
	@echo "  make run             run the suites (RUN_TARGET=$(RUN_TARGET), RUN_HARTS=$(RUN_HARTS),"
	@echo "                       RUN_CONFIG=$(RUN_CONFIG)), parse the log into $(OUT)/<date>-<target>/"
	@echo "                       ($(OUT)/latest links to the newest run); STATS=1 adds hostsim's statistics"
	@echo "  make test            unit tests (plain and ASan+UBSan) and QEMU/hostsim integration tests"
	@echo "  make fuzz            fuzz each input format FUZZ_TIME=$(FUZZ_TIME) s (clang, libFuzzer;"
	@echo "                       FUZZ_TARGETS=\"$(FUZZ_TARGETS)\"); see docs/fuzzing.md"
	@echo "  make mutate          plant each bug of tools/mutations.txt in a scratch copy, run its test,"
	@echo "                       print the kill rate and the survivors (MUTATE_ARGS=\"-k ID\" for some)"
	@echo "  make deps            install missing Debian packages (root or sudo)"
	@echo "  make clean"
	@echo "           V=1 prints the build commands (quiet by default)"
	@echo "variables: PLATFORM, RUN_TARGET (hostsim qemu-virt qemu-sbi qemu-spike qemu-sifive_u), RUN_HARTS, STATS,"
	@echo "           RUN_CONFIG (image config file), RUN_SIM (hostsim options: --config tools/configs/hostsim-ddr4.sim),"
	@echo "           RUN_ARGS (more tools/run.sh options), OUT, CROSS, CC"
	@echo "           CVA6_CLK_HZ (cva6 image: core clock, timebase = clock/4; default 50000000),"
	@echo "           OPENPITON_END (openpiton image: pass, or metro for the Metro-MPI end loads)"

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
