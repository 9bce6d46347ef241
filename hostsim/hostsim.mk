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
	$(call say,CC,$@)$(CC) $(HCFLAGS) -c $< -o $@

$(HOBJ_SAN)/%.o: %.c
	@mkdir -p $(dir $@)
	$(call say,CC-SAN,$@)$(CC) $(HCFLAGS) -O1 $(SANFLAGS) -c $< -o $@

# The version every host binary prints for --version: the string the image
# prints in its hdr record (FW_VERSION, firmware.mk: `git describe` of the
# checkout; RVMESS_VERSION=... overrides it), in a generated header rewritten
# only when it changes.  A source that prints it includes "rvmess_version.h"
# and is listed in VERSION_USERS.
RVMESS_VERSION ?= $(or $(FW_VERSION),$(shell git describe --always --dirty 2>/dev/null),dev)
VERSION_H   := $(BUILD)/gen/rvmess_version.h
VERSION_USERS := hostsim/sim/main.c hostsim/cli/main.c
$(VERSION_H): FORCE
	@mkdir -p $(dir $@)
	@printf '#define RVMESS_VERSION "%s"\n' '$(RVMESS_VERSION)' >$@.tmp; \
	 if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi
$(foreach s,$(VERSION_USERS),$(patsubst %.c,$(HOBJ)/%.o,$(s)) $(patsubst %.c,$(HOBJ_SAN)/%.o,$(s))): $(VERSION_H)
$(foreach s,$(VERSION_USERS),$(patsubst %.c,$(HOBJ)/%.o,$(s)) $(patsubst %.c,$(HOBJ_SAN)/%.o,$(s))): HCFLAGS += -I$(BUILD)/gen

include hostsim/mess/mess.mk
include hostsim/cli/cli.mk
include hostsim/sim/sim.mk
include $(sort $(wildcard hostsim/tests/*.mk))
include hostsim/fuzz/fuzz.mk

define unit_test_rules
$(BUILD)/tests/$(1): $$(patsubst %.c,$(HOBJ)/%.o,$$($(1)_SRCS))
	@mkdir -p $$(dir $$@)
	$$(call say,LD,$$@)$$(CC) $$^ -o $$@ -lcmocka $$(HLDLIBS) $$($(1)_LIBS)
$(BUILD)/tests-asan/$(1): $$(patsubst %.c,$(HOBJ_SAN)/%.o,$$($(1)_SRCS))
	@mkdir -p $$(dir $$@)
	$$(call say,LD-SAN,$$@)$$(CC) $(SANFLAGS) $$^ -o $$@ -lcmocka $$(HLDLIBS) $$($(1)_LIBS)
endef
$(foreach t,$(UNIT_TESTS),$(eval $(call unit_test_rules,$(t))))

.PHONY: unit-bins
unit-bins: $(foreach t,$(UNIT_TESTS),$(BUILD)/tests/$(t) $(BUILD)/tests-asan/$(t))

# The unit tests ci/test.sh expects to find (built plain and with sanitizers).
.PHONY: print-unit-tests
print-unit-tests:
	@echo $(UNIT_TESTS)
