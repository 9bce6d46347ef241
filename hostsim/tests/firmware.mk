# Host unit tests of the image's own C, built for the host against stubs of
# the platform layer and of firmware/hart.c:
#  test_fwcore: the record formatter (record.c), integer helpers (num.c),
#               the chain builders (suites/chain.c) and batch means (suites/batch.c);
#  test_sync:   the rendezvous and the late-hart write-off (sync.c, over
#               state.c), threads as harts;
#  test_wait:   the waits for another hart's store and the check that it
#               becomes visible (wait.c), with a modelled data cache.

UNIT_TESTS        += test_fwcore
test_fwcore_LIBS  := -lm
test_fwcore_SRCS  := hostsim/tests/test_fwcore.c firmware/record.c firmware/num.c firmware/wait.c \
                     firmware/suites/chain.c firmware/suites/batch.c firmware/lib/crc32.c

UNIT_TESTS        += test_sync
test_sync_SRCS    := hostsim/tests/test_sync.c firmware/sync.c firmware/state.c firmware/wait.c \
                     firmware/record.c firmware/num.c firmware/lib/crc32.c
test_sync_LIBS    := -lpthread

UNIT_TESTS        += test_wait
test_wait_SRCS    := hostsim/tests/test_wait.c firmware/wait.c firmware/state.c \
                     firmware/record.c firmware/num.c firmware/lib/crc32.c

FWCORE_OBJS := $(foreach d,$(HOBJ) $(HOBJ_SAN),$(patsubst %.c,$(d)/%.o,$(sort $(test_fwcore_SRCS) $(test_sync_SRCS) $(test_wait_SRCS))))
$(FWCORE_OBJS): HCFLAGS += -Iplatform -Ifirmware
