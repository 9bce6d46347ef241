// cva6_elf.cc: the ELF helpers CVA6's APU testharness imports, for running
// rvmess images on it under Verilator (docs/platforms.md, "CVA6 testharness").
//
// What.  CVA6's Verilator testharness (corev_apu/tb/ariane_tb.cpp and the
// RVFI tracer corev_apu/tb/rvfi_tracer.sv) calls five C functions to load a
// program into the harness's SRAM and to find its `tohost` symbol:
//
//   void read_elf(const char *path)
//       Reads the ELF file at path; forgets any file read before.
//   char get_section(long long *address, long long *len)
//       Each call gives the next loadable segment (PT_LOAD, in the file's
//       order): its physical address and its size in memory (p_memsz, so the
//       zero-filled .bss is part of it); returns 1, or 0 after the last one.
//   void read_section_void(long long address, void *buffer, uint64_t size = 0)
//       Copies the segment that starts at address into buffer: its file bytes,
//       then zeros up to its size in memory, at most size bytes (0: all of
//       it; a warning on stderr when size cuts the segment short).  Throws
//       std::invalid_argument when no segment starts at address.
//   void read_section_sv(long long address, svOpenArrayHandle buffer)
//       The same for a SystemVerilog `inout byte buffer[]`: fills the whole
//       array, zeros past the segment's end.
//   char read_symbol(const char *name, unsigned long long *address)
//       Sets *address to the value of the symbol name from the ELF's symbol
//       table and returns 0; returns 1 and leaves *address alone when the ELF
//       has no such symbol.  A global or weak definition wins over a local
//       one of the same name.
//
// read_elf stops the program (exit status 1, the reason on stderr) when the
// file cannot be read or is not a little-endian ELF with sane headers, and so
// does read_section_sv for an address where no segment starts: a harness
// that runs without its program would only run into its time-out.
//
// Why.  CVA6 takes these functions from the Spike fork inside core-v-verif
// (a large checkout and build that a plain run of the testharness does not
// otherwise need).  This file gives the same five functions from <elf.h>
// alone, so the recipe needs only riscv-isa-sim's libfesvr besides CVA6.
// It is rvmess's own code, written for this interface; it is not a copy of
// core-v-verif's.
//
// Use.  Hand it to Verilator with the testharness's sources, e.g. through
// the verilator variable of CVA6's Makefile:
//   make verilate target=cv64a6_imafdc_sv39 ...
//       verilator="verilator $RVMESS/hostsim/rtl/cva6_elf.cc"
// ci/tests/rtlrun.sh (cases cva6-elf-*) builds it with g++ -Wall -Wextra
// -Werror and the driver hostsim/rtl/cva6_elf_check.cc, and checks what it
// gives against readelf and nm on every image and on two-segment ELFs of
// both classes.
#include <elf.h>

#include <cerrno>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#if defined(__has_include)
#if __has_include(<svdpi.h>)
#include <svdpi.h>
#define CVA6_ELF_HAVE_SVDPI 1
#endif
#endif
#ifndef CVA6_ELF_HAVE_SVDPI
// The few IEEE 1800 DPI-C calls read_section_sv needs (svdpi.h when the
// simulator's include folder is on the path, as in a Verilator build).
extern "C" {
typedef void *svOpenArrayHandle;
int svLow(const svOpenArrayHandle h, int d);
int svSize(const svOpenArrayHandle h, int d);
void *svGetArrayPtr(const svOpenArrayHandle h);
void *svGetArrElemPtr1(const svOpenArrayHandle h, int indx1);
}
#endif

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "cva6_elf.cc reads ELF headers in place: it needs a little-endian host"
#endif

namespace {

struct Segment {
	uint64_t addr;   // p_paddr
	uint64_t offset; // p_offset: its bytes in the file
	uint64_t filesz; // p_filesz
	uint64_t memsz;  // p_memsz (>= filesz)
};

struct Symbol {
	uint64_t value;
	bool local;
};

std::string path;              // the file read last
std::vector<unsigned char> file;
std::vector<Segment> segments;
std::map<std::string, Symbol> symbols;
size_t next_segment;

[[noreturn]] void die(const std::string &why)
{
	std::fprintf(stderr, "cva6_elf: %s: %s\n", path.c_str(), why.c_str());
	std::exit(1);
}

bool in_file(uint64_t off, uint64_t len)
{
	return off <= file.size() && len <= file.size() - off;
}

template <typename T> T at(uint64_t off)
{
	T v;
	std::memcpy(&v, file.data() + off, sizeof v);
	return v;
}

// Program and section headers of one ELF class: Ehdr, Phdr, Shdr, Sym and
// the macro that takes a symbol's binding out of st_info.
template <typename Ehdr, typename Phdr, typename Shdr, typename Sym, unsigned char (*bind)(unsigned char)>
void load()
{
	if (!in_file(0, sizeof(Ehdr)))
		die("shorter than an ELF header");
	const Ehdr eh = at<Ehdr>(0);
	if (eh.e_phnum > 0) {
		if (eh.e_phentsize != sizeof(Phdr))
			die("unexpected program header size " + std::to_string(eh.e_phentsize));
		if (!in_file(eh.e_phoff, uint64_t(eh.e_phnum) * sizeof(Phdr)))
			die("program headers past the end of the file");
	}
	for (unsigned i = 0; i < eh.e_phnum; i++) {
		const Phdr ph = at<Phdr>(eh.e_phoff + uint64_t(i) * sizeof(Phdr));
		if (ph.p_type != PT_LOAD || ph.p_memsz == 0)
			continue;
		if (ph.p_filesz > ph.p_memsz)
			die("segment " + std::to_string(i) + " has more file bytes than memory bytes");
		if (!in_file(ph.p_offset, ph.p_filesz))
			die("segment " + std::to_string(i) + " lies past the end of the file");
		segments.push_back(Segment{uint64_t(ph.p_paddr), uint64_t(ph.p_offset), uint64_t(ph.p_filesz),
					   uint64_t(ph.p_memsz)});
	}
	if (eh.e_shnum == 0)
		return; // no section headers: no symbols
	if (eh.e_shentsize != sizeof(Shdr))
		die("unexpected section header size " + std::to_string(eh.e_shentsize));
	if (!in_file(eh.e_shoff, uint64_t(eh.e_shnum) * sizeof(Shdr)))
		die("section headers past the end of the file");
	for (unsigned i = 0; i < eh.e_shnum; i++) {
		const Shdr sh = at<Shdr>(eh.e_shoff + uint64_t(i) * sizeof(Shdr));
		if (sh.sh_type != SHT_SYMTAB)
			continue;
		if (sh.sh_link >= eh.e_shnum)
			die("symbol table " + std::to_string(i) + " names no string table");
		const Shdr st = at<Shdr>(eh.e_shoff + uint64_t(sh.sh_link) * sizeof(Shdr));
		if (!in_file(sh.sh_offset, sh.sh_size) || !in_file(st.sh_offset, st.sh_size))
			die("symbol or string table past the end of the file");
		if (sh.sh_entsize != sizeof(Sym))
			die("unexpected symbol size " + std::to_string(uint64_t(sh.sh_entsize)));
		const char *strs = reinterpret_cast<const char *>(file.data() + st.sh_offset);
		const uint64_t nstrs = st.sh_size;
		for (uint64_t s = 1; s < sh.sh_size / sizeof(Sym); s++) { // entry 0 is the null symbol
			const Sym sym = at<Sym>(sh.sh_offset + s * sizeof(Sym));
			if (sym.st_name == 0 || sym.st_shndx == SHN_UNDEF)
				continue;
			if (sym.st_name >= nstrs || !std::memchr(strs + sym.st_name, 0, nstrs - sym.st_name))
				die("a symbol name past the end of its string table");
			const bool local = bind(sym.st_info) == STB_LOCAL;
			auto it = symbols.find(strs + sym.st_name);
			if (it == symbols.end())
				symbols.emplace(strs + sym.st_name, Symbol{uint64_t(sym.st_value), local});
			else if (it->second.local && !local)
				it->second = Symbol{uint64_t(sym.st_value), local};
		}
	}
}

unsigned char bind32(unsigned char info) { return ELF32_ST_BIND(info); }
unsigned char bind64(unsigned char info) { return ELF64_ST_BIND(info); }

const Segment *segment_at(long long address)
{
	for (const Segment &s : segments)
		if (s.addr == uint64_t(address))
			return &s;
	return nullptr;
}

// The first len bytes of segment s (file bytes, then zeros) into dst.
void copy_out(const Segment &s, unsigned char *dst, uint64_t len)
{
	const uint64_t n = len < s.filesz ? len : s.filesz;
	std::memcpy(dst, file.data() + s.offset, n);
	std::memset(dst + n, 0, len - n);
}

} // namespace

extern "C" void read_elf(const char *filename)
{
	path = filename ? filename : "(null)";
	file.clear();
	segments.clear();
	symbols.clear();
	next_segment = 0;
	FILE *f = filename ? std::fopen(filename, "rb") : nullptr;
	if (!f)
		die(std::strerror(errno));
	unsigned char buf[1 << 16];
	size_t n;
	while ((n = std::fread(buf, 1, sizeof buf, f)) > 0)
		file.insert(file.end(), buf, buf + n);
	const bool bad = std::ferror(f);
	std::fclose(f);
	if (bad)
		die("read error");
	if (file.size() < EI_NIDENT || std::memcmp(file.data(), ELFMAG, SELFMAG) != 0)
		die("not an ELF file");
	if (file[EI_DATA] != ELFDATA2LSB)
		die("not a little-endian ELF file");
	if (file[EI_CLASS] == ELFCLASS64)
		load<Elf64_Ehdr, Elf64_Phdr, Elf64_Shdr, Elf64_Sym, bind64>();
	else if (file[EI_CLASS] == ELFCLASS32)
		load<Elf32_Ehdr, Elf32_Phdr, Elf32_Shdr, Elf32_Sym, bind32>();
	else
		die("neither a 32- nor a 64-bit ELF file");
}

extern "C" char get_section(long long *address, long long *len)
{
	if (next_segment >= segments.size())
		return 0;
	const Segment &s = segments[next_segment++];
	*address = (long long)s.addr;
	*len = (long long)s.memsz;
	return 1;
}

extern "C" void read_section_void(long long address, void *buffer, uint64_t size = 0)
{
	const Segment *s = segment_at(address);
	if (!s)
		throw std::invalid_argument("cva6_elf: no segment of " + path + " starts at " + std::to_string(address));
	uint64_t len = s->memsz;
	if (size != 0 && size < len) {
		std::fprintf(stderr,
			     "cva6_elf: %s: the segment at 0x%" PRIx64 " is %" PRIu64 " bytes; only the first %" PRIu64
			     " were copied\n",
			     path.c_str(), s->addr, s->memsz, size);
		len = size;
	}
	copy_out(*s, static_cast<unsigned char *>(buffer), len);
}

extern "C" void read_section_sv(long long address, const svOpenArrayHandle buffer)
{
	const Segment *s = segment_at(address);
	if (!s)
		die("read_section_sv: no segment starts at " + std::to_string(address));
	const int size = svSize(buffer, 1);
	if (size <= 0)
		return;
	const uint64_t n = uint64_t(size) < s->memsz ? uint64_t(size) : s->memsz;
	if (unsigned char *p = static_cast<unsigned char *>(svGetArrayPtr(buffer))) {
		copy_out(*s, p, n);
		std::memset(p + n, 0, uint64_t(size) - n);
		return;
	}
	// not one block of memory: element by element
	std::vector<unsigned char> tmp(n);
	copy_out(*s, tmp.data(), n);
	const int low = svLow(buffer, 1);
	for (int i = 0; i < size; i++)
		*static_cast<unsigned char *>(svGetArrElemPtr1(buffer, low + i)) = uint64_t(i) < n ? tmp[i] : 0;
}

extern "C" char read_symbol(const char *symbol_name, unsigned long long *address)
{
	auto it = symbols.find(symbol_name ? symbol_name : "");
	if (it == symbols.end())
		return 1;
	*address = it->second.value;
	return 0;
}
