# The image: build/images/<platform>.elf for each platform in IMAGE_PLATFORMS.
#
# Every platform/<dir>/platform.mk defines a platform <p> (the directory is
# named for the machine: harness holds cva6, tiles openpiton): it sets
# PLAT_<p>_MODE (M or S), PLAT_<p>_LDS (link script) and PLAT_<p>_SRCS (its
# sources: its own, and the privilege-mode layer from platform/common/).  The firmware sources below are built once per
# platform, objects under build/obj/<p>/.  Every firmware/suites/*.c is
# built in: a new suite is its file and one line in suites.c's table.

FW_SRCS := firmware/start.S firmware/boot.c firmware/hart.c firmware/state.c firmware/sync.c firmware/wait.c \
           firmware/finish.c firmware/trap.c \
           firmware/record.c firmware/num.c firmware/cfg.c \
           firmware/lib/crc32.c firmware/lib/fdt.c firmware/lib/cfgcheck.c \
           $(sort $(wildcard firmware/suites/*.c)) \
           firmware/kernels/chase.S firmware/kernels/par.S firmware/kernels/mess.S firmware/kernels/litmus.S

FW_VERSION := $(shell git describe --always --dirty 2>/dev/null || echo dev)

$(foreach m,$(sort $(wildcard platform/*/platform.mk)),$(eval include $(m)))

# A platform that sets PLAT_<p>_PIE := 1 gets a position-independent image:
# linked with --emit-relocs, then tools/relocs.c checks that every address is
# PC-relative or a 64-bit word it can list, and writes the list into the
# image's .rvm_relocs table (platform/sbi/entry.S applies it at boot).  A
# relocation it cannot move fails the build.
RELOCS_TOOL := $(BUILD)/bin/rvmess-relocs
RELOCS_LDFLAGS := -Wl,--emit-relocs
$(RELOCS_TOOL): tools/relocs.c
	@mkdir -p $(dir $@)
	$(call say,CC,$@)$(CC) -std=c11 -D_DEFAULT_SOURCE -O2 -g -Wall -Wextra -Werror $< -o $@

FW_OBJ := $(BUILD)/obj

define fw_platform_rules
$(1)_FW_OBJS := $$(patsubst %,$(FW_OBJ)/$(1)/%.o,$$(FW_SRCS) $$(PLAT_$(1)_SRCS))

$(FW_OBJ)/$(1)/%.c.o: %.c
	@mkdir -p $$(dir $$@)
	$$(call say,CC,$$@)$$(TCC) $$(TCFLAGS) $$(PLAT_$(1)_CFLAGS) -Ifirmware -DRVM_VERSION='"$$(FW_VERSION)"' -c $$< -o $$@

# The platform's own build options (PLAT_<p>_CFLAGS): its objects are rebuilt
# when they change.
$(FW_OBJ)/$(1)/plat.flags: FORCE
	@mkdir -p $$(dir $$@)
	@echo '$$(PLAT_$(1)_CFLAGS)' | cmp -s - $$@ || echo '$$(PLAT_$(1)_CFLAGS)' >$$@
$$(patsubst %,$(FW_OBJ)/$(1)/%.o,$$(filter-out platform/common/%,$$(PLAT_$(1)_SRCS))): $(FW_OBJ)/$(1)/plat.flags

# The version (git describe) is in boot.c's hdr record: rebuilt when it changes
$(FW_OBJ)/$(1)/version.txt: FORCE
	@mkdir -p $$(dir $$@)
	@echo '$$(FW_VERSION)' | cmp -s - $$@ || echo '$$(FW_VERSION)' >$$@
$(FW_OBJ)/$(1)/firmware/boot.c.o: $(FW_OBJ)/$(1)/version.txt

$(FW_OBJ)/$(1)/%.S.o: %.S
	@mkdir -p $$(dir $$@)
	$$(call say,AS,$$@)$$(TCC) $$(TASFLAGS) $$(PLAT_$(1)_CFLAGS) -Iplatform/common -c $$< -o $$@

$(BUILD)/images/$(1).elf: $$($(1)_FW_OBJS) $$(PLAT_$(1)_LDS) linker/sections.ld $$(if $$(PLAT_$(1)_PIE),$(RELOCS_TOOL))
	@mkdir -p $$(dir $$@)
	$$(call say,LD,$$@)$$(TCC) $$(TLDFLAGS) $$(if $$(PLAT_$(1)_PIE),$$(RELOCS_LDFLAGS)) -Llinker -T $$(PLAT_$(1)_LDS) $$($(1)_FW_OBJS) -o $$@.tmp
	$$(if $$(PLAT_$(1)_PIE),$$(call say,RELOCS,$$@)$(RELOCS_TOOL) $$@.tmp && $$(TOBJCOPY) --remove-relocations='*' $$@.tmp && $$(TOBJCOPY) --discard-locals $$@.tmp)
	@mv $$@.tmp $$@

# The build-time check (tools/check-image.sh): layout, the platform's
# PLAT_<p>_CHECK rules (load address, size, symbols the target needs), the
# .bin and .hex beside the .elf.  A failure stops the build and names why.
$(BUILD)/images/$(1).checked: $(BUILD)/images/$(1).elf $(BUILD)/images/$(1).bin $(BUILD)/images/$(1).hex tools/check-image.sh
	$$(call say,CHECK,$(BUILD)/images/$(1).elf)CROSS=$(CROSS) tools/check-image.sh $$< $$(PLAT_$(1)_CHECK) && touch $$@

IMAGES += $(BUILD)/images/$(1).elf $(BUILD)/images/$(1).bin $(BUILD)/images/$(1).hex $(BUILD)/images/$(1).checked
endef
$(foreach p,$(IMAGE_PLATFORMS),$(eval $(call fw_platform_rules,$(p))))

# Beside each ELF, for targets that load raw memory (docs/platforms.md, "Images"):
#   <p>.bin  the loaded bytes from the lowest load address (objcopy -O binary);
#   <p>.hex  Verilog $$readmemh text: one 64-bit word per line, 16 hex digits,
#            little-endian (word i = bytes 8i..8i+7 of the .bin, byte 8i in the
#            low bits), word 0 at the load address, no @address lines; the
#            .bin is zero-padded to a multiple of 8 bytes first.
$(BUILD)/images/%.bin: $(BUILD)/images/%.elf
	$(call say,BIN,$@)$(TOBJCOPY) -O binary $< $@

$(BUILD)/images/%.hex: $(BUILD)/images/%.bin
	$(call say,HEX,$@)n=$$(( ($$(stat -c %s $<) + 7) / 8 * 8 )); \
	{ cat $<; head -c $$(( n - $$(stat -c %s $<) )) /dev/zero; } | \
	od -An -v -w8 -tx8 --endian=little | tr -d ' ' >$@.tmp && mv $@.tmp $@
