# rvmess: one freestanding RISC-V image per platform + the host tools.
#
#   make              build every image and the host tools
#   make run          the main job on the default target (see README)
#   make test         unit + integration tests; ends with "N passed, N failed"
#   make help         targets and variables

PLATFORMS ?= virt sbi spike
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
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

.DEFAULT_GOAL := all
.PHONY: all images host run test unit integration help deps clean FORCE

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
# config (a key=value file, applied to a copy of the image); see README.
RUN_TARGET ?= hostsim
RUN_HARTS  ?= 8
RUN_CONFIG ?= $(if $(filter hostsim,$(RUN_TARGET)),tools/configs/hostsim.cfg,)
RUN_ARGS   ?=
run: deps
	@$(MAKE) --no-print-directory all
	@tools/run.sh --target $(RUN_TARGET) --harts $(RUN_HARTS) $(if $(RUN_CONFIG),--config $(RUN_CONFIG)) \
		--out $(OUT)/run --timeout 1800 $(RUN_ARGS)

test: deps
	@$(MAKE) --no-print-directory all unit-bins
	@ci/test.sh

help:
	@echo "rvmess make targets:"
	@echo "  make                 build images ($(IMAGE_PLATFORMS)) and host tools"
	@echo "  make PLATFORM=<p>    build only build/images/<p>.elf; platforms: $(PLATFORMS)"
	@echo "  make run             run the suites (RUN_TARGET=$(RUN_TARGET), RUN_HARTS=$(RUN_HARTS),"
	@echo "                       RUN_CONFIG=$(RUN_CONFIG)), parse the log into $(OUT)/run/"
	@echo "  make test            unit tests (plain and ASan+UBSan) and QEMU/hostsim integration tests"
	@echo "  make fuzz            fuzz each input format FUZZ_TIME=$(FUZZ_TIME) s (clang, libFuzzer;"
	@echo "                       FUZZ_TARGETS=\"$(FUZZ_TARGETS)\"); see docs/fuzzing.md"
	@echo "  make deps            install missing Debian packages (root or sudo)"
	@echo "  make clean"
	@echo "variables: PLATFORM, RUN_TARGET (hostsim qemu-virt qemu-sbi qemu-spike), RUN_HARTS,"
	@echo "           RUN_CONFIG (image config file), RUN_ARGS (more tools/run.sh options), OUT, CROSS, CC"

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
