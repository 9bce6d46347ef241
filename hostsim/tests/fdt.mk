# FDT reader unit test (firmware/lib/fdt.c built for the host), with the
# UART drivers that choose the console from what it finds.
#
# Test blobs: every hostsim/tests/data/*.dts compiled with dtc, one extra
# copy of virt-like.dts in format version 16, and the real trees QEMU builds
# for `-M virt`, `-M spike` and `-M sifive_u` (4 harts, 128 MiB), all under
# $(BUILD)/tests/data/.  The test object depends on them (not the binary:
# the link rule links all of its prerequisites), and finds them through
# FDT_TEST_DATA, compiled in.

FDT_DATA     := $(BUILD)/tests/data
FDT_DTS      := $(sort $(wildcard hostsim/tests/data/*.dts))
FDT_BLOBS    := $(patsubst hostsim/tests/data/%.dts,$(FDT_DATA)/%.dtb,$(FDT_DTS)) \
                $(FDT_DATA)/virt-like-v16.dtb \
                $(FDT_DATA)/qemu-virt.dtb $(FDT_DATA)/qemu-spike.dtb $(FDT_DATA)/qemu-sifive_u.dtb

UNIT_TESTS    += test_fdt
test_fdt_LIBS := -lfdt
test_fdt_SRCS := hostsim/tests/test_fdt.c firmware/lib/fdt.c \
                 platform/common/uart.c platform/common/ns16550.c platform/common/sifive_uart.c

$(FDT_DATA)/%.dtb: hostsim/tests/data/%.dts
	@mkdir -p $(dir $@)
	$(call say,DTC,$@)dtc -q -I dts -O dtb -o $@ $<

# a tree that /include/s another
$(FDT_DATA)/cva6-genesys2-rvmess.dtb: hostsim/tests/data/cva6-genesys2-like.dts

$(FDT_DATA)/virt-like-v16.dtb: hostsim/tests/data/virt-like.dts
	@mkdir -p $(dir $@)
	$(call say,DTC,$@)dtc -q -V 16 -I dts -O dtb -o $@ $<

# QEMU writes the blob padded to 1 MiB and exits; -m pins the memory size.
# Its "dtb dumped" notice is shown only when it fails.
$(FDT_DATA)/qemu-%.dtb:
	@mkdir -p $(dir $@)
	$(call say,DUMPDTB,$@)timeout 60 qemu-system-riscv64 -M $*,dumpdtb=$@.tmp -smp 4 -m 128M \
		-display none -serial null -monitor none </dev/null 2>$@.err || { cat $@.err >&2; exit 1; }; \
		rm -f $@.err; mv $@.tmp $@

$(HOBJ)/hostsim/tests/test_fdt.o $(HOBJ_SAN)/hostsim/tests/test_fdt.o: $(FDT_BLOBS)
$(HOBJ)/hostsim/tests/test_fdt.o $(HOBJ_SAN)/hostsim/tests/test_fdt.o: \
	HCFLAGS += -DFDT_TEST_DATA='"$(FDT_DATA)"'
# the UART driver table, built for the host
$(foreach d,$(HOBJ) $(HOBJ_SAN),$(patsubst %.c,$(d)/%.o,$(test_fdt_SRCS))): HCFLAGS += -Iplatform
