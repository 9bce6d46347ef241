# hostsim, the RV64 simulator: build/bin/hostsim
#
# The core (this folder's own sources, util.c shared helpers) plus the memory system (memsys.c,
# cache.c, memmodel*.c: the timing model, owned separately).
SIM_CORE_SRCS := hostsim/sim/main.c hostsim/sim/machine.c hostsim/sim/cpu.c \
                 hostsim/sim/csr.c hostsim/sim/decode.c hostsim/sim/elfload.c hostsim/sim/fdtgen.c \
                 hostsim/sim/opts.c hostsim/sim/timing.c hostsim/sim/util.c hostsim/sim/wmem.c hostsim/sim/l1d.c hostsim/sim/profiles.c \
                 $(sort $(wildcard hostsim/sim/dev*.c))
SIM_MEM_SRCS  := $(sort $(wildcard hostsim/sim/memsys.c hostsim/sim/cache.c hostsim/sim/memmodel*.c)) $(MESS_LIB_SRCS)
SIM_SRCS      := $(SIM_CORE_SRCS) $(SIM_MEM_SRCS)
SIM_LIBS      := -lfdt -lm

HOST_BINS += $(BUILD)/bin/hostsim

$(BUILD)/bin/hostsim: $(patsubst %.c,$(HOBJ)/%.o,$(SIM_SRCS))
	@mkdir -p $(dir $@)
	$(call say,LD,$@)$(CC) $^ -o $@ $(HLDLIBS) $(SIM_LIBS)

# cache.h's LRU victim search takes a vector minimum (SSE4.1) when the
# build host's CPU has it (x86-64: /proc/cpuinfo), else one compare a way:
# the same victims (tests: test_memsys).  Only memsys.c searches for
# victims; test_memsys checks the search built either way.
SIM_SSE41 := $(if $(shell grep -qsw sse4_1 /proc/cpuinfo && echo y),-msse4.1)
$(HOBJ)/hostsim/sim/memsys.o $(HOBJ_SAN)/hostsim/sim/memsys.o $(HOBJ)/hostsim/tests/test_memsys.o $(HOBJ_SAN)/hostsim/tests/test_memsys.o: HCFLAGS += $(SIM_SSE41)
