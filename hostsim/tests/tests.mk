# Unit tests (cmocka).  Each: UNIT_TESTS += name; name_SRCS := test + code under test.
