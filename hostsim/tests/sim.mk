# hostsim core tests.
#
# ISA test programs: hostsim/tests/isa/*.S -> $(BUILD)/tests/isa/*.elf,
# assembled with the cross compiler (built by `make unit-bins`, so by
# `make test`, and by `make isa-tests`).  ci/tests/hostsim.sh runs them.
ISA_SRCS := $(sort $(wildcard hostsim/tests/isa/*.S))
ISA_ELFS := $(patsubst hostsim/tests/isa/%.S,$(BUILD)/tests/isa/%.elf,$(ISA_SRCS))

$(BUILD)/tests/isa/%.elf: hostsim/tests/isa/%.S hostsim/tests/isa/test.h hostsim/tests/isa/link.ld
	@mkdir -p $(dir $@)
	$(call say,AS,$@)$(TCC) $(TARCH) -nostdlib -nostartfiles -static -Ihostsim/tests/isa \
		-T hostsim/tests/isa/link.ld -Wl,--no-warn-rwx-segments -o $@ $<

.PHONY: isa-tests
isa-tests: $(ISA_ELFS)
unit-bins: $(ISA_ELFS)

# cmocka unit tests
SIM_MEMSYS_SRCS := $(sort $(wildcard hostsim/sim/memsys.c hostsim/sim/cache.c hostsim/sim/memmodel*.c)) $(MESS_LIB_SRCS)

UNIT_TESTS += test_sim_decode
test_sim_decode_SRCS := hostsim/tests/test_sim_decode.c hostsim/sim/decode.c

UNIT_TESTS += test_sim_sched
test_sim_sched_SRCS := hostsim/tests/test_sim_sched.c

UNIT_TESTS += test_sim_mshr
test_sim_mshr_SRCS := hostsim/tests/test_sim_mshr.c

UNIT_TESTS += test_sim_elf
test_sim_elf_SRCS := hostsim/tests/test_sim_elf.c hostsim/sim/elfload.c hostsim/sim/util.c

UNIT_TESTS += test_sim_opts
test_sim_opts_SRCS := hostsim/tests/test_sim_opts.c hostsim/sim/opts.c hostsim/sim/util.c hostsim/sim/timing.c $(SIM_MEMSYS_SRCS)
test_sim_opts_LIBS := -lfdt -lm

UNIT_TESTS += test_sim_fdt
test_sim_fdt_SRCS := hostsim/tests/test_sim_fdt.c $(filter-out hostsim/sim/main.c,$(SIM_SRCS)) firmware/lib/fdt.c
test_sim_fdt_LIBS := -lfdt -lm

UNIT_TESTS += test_sim_dev
test_sim_dev_SRCS := hostsim/tests/test_sim_dev.c $(filter-out hostsim/sim/main.c,$(SIM_SRCS))
test_sim_dev_LIBS := -lfdt -lm

UNIT_TESTS += test_sim_wmem
test_sim_wmem_SRCS := hostsim/tests/test_sim_wmem.c $(filter-out hostsim/sim/main.c,$(SIM_SRCS))
test_sim_wmem_LIBS := -lfdt -lm

UNIT_TESTS += test_sim_mach
test_sim_mach_SRCS := hostsim/tests/test_sim_mach.c $(filter-out hostsim/sim/main.c,$(SIM_SRCS)) firmware/lib/fdt.c
test_sim_mach_LIBS := -lfdt -lm

UNIT_TESTS += test_sim_exec
test_sim_exec_SRCS := hostsim/tests/test_sim_exec.c $(filter-out hostsim/sim/main.c,$(SIM_SRCS))
test_sim_exec_LIBS := -lfdt -lm

UNIT_TESTS += test_sim_l1d
test_sim_l1d_SRCS := hostsim/tests/test_sim_l1d.c hostsim/sim/l1d.c
