# Host unit test of the image's pure code: the record formatter (record.c),
# integer helpers (num.c) and the chain builders (suites/chain.c), built for
# the host against stubs of the platform layer (test_fwcore.c).

UNIT_TESTS        += test_fwcore
test_fwcore_SRCS  := hostsim/tests/test_fwcore.c firmware/record.c firmware/num.c \
                     firmware/suites/chain.c firmware/lib/crc32.c

FWCORE_OBJS := $(foreach d,$(HOBJ) $(HOBJ_SAN),$(patsubst %.c,$(d)/%.o,$(test_fwcore_SRCS)))
$(FWCORE_OBJS): HCFLAGS += -Iplatform -Ifirmware
