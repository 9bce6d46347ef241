# Host side: the rvmess CLI, hostsim, and their unit tests.
#
# Fragments below add:
#   HOST_BINS += build/bin/<name>          with a rule to link it
#   UNIT_TESTS += <test>                   and <test>_SRCS := <sources>
# Every unit test is built twice: build/tests/<test> and, with ASan+UBSan,
# build/tests-asan/<test>.  Test sources link against cmocka.

HOBJ     := $(BUILD)/host
HOBJ_SAN := $(BUILD)/host-asan

$(HOBJ)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(HCFLAGS) -c $< -o $@

$(HOBJ_SAN)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(HCFLAGS) -O1 $(SANFLAGS) -c $< -o $@

include hostsim/cli/cli.mk
include hostsim/sim/sim.mk
include $(sort $(wildcard hostsim/tests/*.mk))
include hostsim/fuzz/fuzz.mk

define unit_test_rules
$(BUILD)/tests/$(1): $$(patsubst %.c,$(HOBJ)/%.o,$$($(1)_SRCS))
	@mkdir -p $$(dir $$@)
	$$(CC) $$^ -o $$@ -lcmocka $$(HLDLIBS) $$($(1)_LIBS)
$(BUILD)/tests-asan/$(1): $$(patsubst %.c,$(HOBJ_SAN)/%.o,$$($(1)_SRCS))
	@mkdir -p $$(dir $$@)
	$$(CC) $(SANFLAGS) $$^ -o $$@ -lcmocka $$(HLDLIBS) $$($(1)_LIBS)
endef
$(foreach t,$(UNIT_TESTS),$(eval $(call unit_test_rules,$(t))))

.PHONY: unit-bins
unit-bins: $(foreach t,$(UNIT_TESTS),$(BUILD)/tests/$(t) $(BUILD)/tests-asan/$(t))
