// cva6_elf_check.cc: a driver for cva6_elf.cc outside any simulator, for
// ci/tests/rtlrun.sh (cases cva6-elf-*).  It calls the five functions as the
// CVA6 testharness does (read_elf twice, as when both the harness and its
// RVFI tracer load the program) and prints what they gave, for the test to
// compare with readelf and nm:
//
//   cva6_elf_check ELF OUTDIR [SYMBOL...]
//
//   section ADDR LEN        one line per get_section result (hex address,
//                           decimal length); OUTDIR/ADDR.void holds the LEN
//                           bytes read_section_void gave for it, OUTDIR/ADDR.sv
//                           those read_section_sv gave into an array of LEN
//                           rounded up to 8 bytes (as ariane_tb.sv sizes it)
//   sv-elementwise ADDR ok|differs
//                           the same through svGetArrElemPtr1 (an array that
//                           is not one block of memory)
//   whole ADDR ok|differs   read_section_void with size 0 (the whole
//                           segment) into a larger buffer: the same LEN
//                           bytes, and nothing written past them
//   cut ADDR ok|overrun     read_section_void with size 16: the 17th byte
//                           of the buffer left alone
//   symbol NAME VALUE|none  read_symbol for each SYMBOL (hex value)
//   badaddr throws|returned read_section_void where no segment starts
//
// The DPI-C open-array calls read_section_sv makes are served here by a
// stand-in array handle.
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

extern "C" {
typedef void *svOpenArrayHandle;
void read_elf(const char *filename);
char get_section(long long *address, long long *len);
void read_section_void(long long address, void *buffer, uint64_t size);
void read_section_sv(long long address, const svOpenArrayHandle buffer);
char read_symbol(const char *symbol_name, unsigned long long *address);
}

namespace {
struct Array { // the stand-in for a simulator's open array of bytes
	unsigned char *data;
	int size;
	bool contiguous; // svGetArrayPtr gives the block, or NULL
};
} // namespace

extern "C" int svLow(const svOpenArrayHandle, int) { return 0; }
extern "C" int svSize(const svOpenArrayHandle h, int) { return static_cast<const Array *>(h)->size; }
extern "C" void *svGetArrayPtr(const svOpenArrayHandle h)
{
	const Array *a = static_cast<const Array *>(h);
	return a->contiguous ? a->data : nullptr;
}
extern "C" void *svGetArrElemPtr1(const svOpenArrayHandle h, int i)
{
	const Array *a = static_cast<const Array *>(h);
	return i >= 0 && i < a->size ? a->data + i : nullptr;
}

static bool save(const std::string &name, const std::vector<unsigned char> &v)
{
	FILE *f = std::fopen(name.c_str(), "wb");
	if (!f || std::fwrite(v.data(), 1, v.size(), f) != v.size() || std::fclose(f) != 0) {
		std::perror(name.c_str());
		return false;
	}
	return true;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		std::fprintf(stderr, "usage: cva6_elf_check ELF OUTDIR [SYMBOL...]\n");
		return 2;
	}
	// read twice, as when both the harness and its RVFI tracer load the
	// program: the second read starts afresh
	read_elf(argv[1]);
	long long addr = 0, len = 0, first = -1;
	while (get_section(&addr, &len))
		;
	read_elf(argv[1]);
	const std::string out = argv[2];
	while (get_section(&addr, &len)) {
		char name[32];
		std::snprintf(name, sizeof name, "0x%llx", addr);
		std::printf("section %s %lld\n", name, len);
		if (first < 0)
			first = addr;
		std::vector<unsigned char> v(len, 0xa5), w(2 * size_t(len) + 64, 0xa5);
		read_section_void(addr, v.data(), uint64_t(len));
		read_section_void(addr, w.data(), 0);
		bool same = std::memcmp(w.data(), v.data(), len) == 0;
		for (size_t i = size_t(len); i < w.size(); i++)
			same = same && w[i] == 0xa5;
		std::printf("whole %s %s\n", name, same ? "ok" : "differs");
		const size_t svlen = (size_t(len) + 7) / 8 * 8;
		std::vector<unsigned char> sv(svlen, 0xa5), el(svlen, 0x5a);
		Array a{sv.data(), int(svlen), true}, e{el.data(), int(svlen), false};
		read_section_sv(addr, &a);
		read_section_sv(addr, &e);
		std::printf("sv-elementwise %s %s\n", name, el == sv ? "ok" : "differs");
		std::vector<unsigned char> c(17, 0xa5);
		read_section_void(addr, c.data(), 16);
		std::printf("cut %s %s\n", name,
			    c[16] == 0xa5 && std::memcmp(c.data(), v.data(), len < 16 ? len : 16) == 0 ? "ok" : "overrun");
		if (!save(out + "/" + name + ".void", v) || !save(out + "/" + name + ".sv", sv))
			return 1;
	}
	for (int i = 3; i < argc; i++) {
		unsigned long long value = 0xdeadbeef;
		if (read_symbol(argv[i], &value) == 0)
			std::printf("symbol %s 0x%llx\n", argv[i], value);
		else
			std::printf("symbol %s none%s\n", argv[i], value == 0xdeadbeef ? "" : " (value changed)");
	}
	try {
		unsigned char b[8];
		read_section_void(first + 1, b, sizeof b);
		std::printf("badaddr returned\n");
	} catch (const std::invalid_argument &) {
		std::printf("badaddr throws\n");
	}
	return 0;
}
