# hostsim, the RV64 simulator: build/bin/hostsim
#
# The core (this folder's own sources, util.c shared helpers) plus the memory system (memsys.c,
# cache.c, memmodel*.c: the timing model, owned separately).
SIM_CORE_SRCS := hostsim/sim/main.c hostsim/sim/machine.c hostsim/sim/cpu.c \
                 hostsim/sim/csr.c hostsim/sim/decode.c hostsim/sim/elfload.c hostsim/sim/fdtgen.c \
                 hostsim/sim/opts.c hostsim/sim/timing.c hostsim/sim/util.c hostsim/sim/wmem.c hostsim/sim/l1d.c hostsim/sim/mach.c \
                 $(sort $(wildcard hostsim/sim/dev*.c))
SIM_MEM_SRCS  := $(sort $(wildcard hostsim/sim/memsys.c hostsim/sim/cache.c hostsim/sim/memmodel*.c)) $(MESS_LIB_SRCS)
SIM_SRCS      := $(SIM_CORE_SRCS) $(SIM_MEM_SRCS)
SIM_LIBS      := -lfdt -lm

HOST_BINS += $(BUILD)/bin/hostsim

$(BUILD)/bin/hostsim: $(patsubst %.c,$(HOBJ)/%.o,$(SIM_SRCS))
	@mkdir -p $(dir $@)
	$(call say,LD,$@)$(CC) $^ -o $@ $(HLDLIBS) $(SIM_LIBS)
