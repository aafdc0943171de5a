/*
 * rt_libs — which I/O libraries the program used (rt_libs.h).
 */
#define _GNU_SOURCE
#include "rt_libs.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ioa_logfmt.h"
#include "ioa_parse.h"

/*
 * Each library: the prefix of its shared objects' file names, and a
 * function of its API that every program using it links in (it lives in
 * the object file a static link always pulls in).
 */
static const struct io_library {
	unsigned bit;	    /* IOA_LIB_*: its name in the log (common/ioa_logfmt.h) */
	const char *soname; /* matched at the start of the file name's base */
	const char *symbol; /* defined in an executable linking it statically */
} libraries[] = {
	{IOA_LIB_HDF5, "libhdf5", "H5open"},	       {IOA_LIB_NETCDF, "libnetcdf", "nc_open"},
	{IOA_LIB_PNETCDF, "libpnetcdf", "ncmpi_open"}, {IOA_LIB_ADIOS, "libadios", "adios_open"},
	{IOA_LIB_ADIOS2, "libadios2", "adios2_open"},
};
#define NLIBS (sizeof(libraries) / sizeof(libraries[0]))

/* The file name of a loaded object, without its folder; NULL for the program itself. */
static const char *object_base(const struct dl_phdr_info *info)
{
	const char *base;

	if (!info->dlpi_name || !info->dlpi_name[0])
		return NULL;
	base = strrchr(info->dlpi_name, '/');
	return base ? base + 1 : info->dlpi_name;
}

static int by_soname(struct dl_phdr_info *info, size_t size, void *arg)
{
	unsigned *found = arg;
	const char *base = object_base(info);
	size_t i;

	(void)size;
	for (i = 0; base && i < NLIBS; i++) {
		size_t n = strlen(libraries[i].soname);

		/* "libadios" must not claim "libadios2...", nor "libhdf5" "libhdf5_hl" alone. */
		if (!strncmp(base, libraries[i].soname, n) &&
		    (base[n] == '.' || base[n] == '_' || base[n] == '-'))
			*found |= libraries[i].bit;
	}
	return 0;
}

/*
 * I/O profilers that interpose the calls the runtime does: a process keeps
 * one of them.  Their runtime libraries' file names (not their tools':
 * libdarshan-util is a reader), and why the runtime stands down.
 */
static const struct profiler {
	const char *soname; /* the start of the file name's base */
	const char *why;
} profilers[] = {
	{"libdarshan.so", "Darshan is loaded in this process: one I/O profiler at a time"},
	{"librecorder.so", "Recorder is loaded in this process: one I/O profiler at a time"},
};

static int by_profiler(struct dl_phdr_info *info, size_t size, void *arg)
{
	const char **why = arg;
	const char *base = object_base(info);
	size_t i;

	(void)size;
	for (i = 0; base && i < sizeof(profilers) / sizeof(profilers[0]); i++)
		if (!strncmp(base, profilers[i].soname, strlen(profilers[i].soname))) {
			*why = profilers[i].why;
			return 1;
		}
	return 0;
}

const char *rt_other_profiler(void)
{
	const char *why = NULL;
	int saved = errno;

	dl_iterate_phdr(by_profiler, &why);
	errno = saved;
	return why;
}

/* The symbols a symbol table section defines, checked against the libraries' names. */
static void scan_symbols(const unsigned char *map, size_t size, const Elf64_Shdr *sh,
			 const Elf64_Shdr *strsh, unsigned *found)
{
	const char *strtab;
	size_t nsyms, s, i;

	if (sh->sh_entsize != sizeof(Elf64_Sym) || sh->sh_offset > size ||
	    sh->sh_size > size - sh->sh_offset || strsh->sh_offset > size ||
	    strsh->sh_size > size - strsh->sh_offset || strsh->sh_size == 0)
		return;
	strtab = (const char *)map + strsh->sh_offset;
	nsyms = sh->sh_size / sizeof(Elf64_Sym);
	for (s = 0; s < nsyms; s++) {
		Elf64_Sym sym;
		const char *name;
		size_t room;

		memcpy(&sym, map + sh->sh_offset + s * sizeof(sym), sizeof(sym));
		if (sym.st_shndx == SHN_UNDEF || ELF64_ST_TYPE(sym.st_info) != STT_FUNC ||
		    sym.st_name >= strsh->sh_size)
			continue;
		name = strtab + sym.st_name;
		room = strsh->sh_size - sym.st_name;
		for (i = 0; i < NLIBS; i++) {
			size_t n = strlen(libraries[i].symbol);

			if (n < room && !memcmp(name, libraries[i].symbol, n + 1))
				*found |= libraries[i].bit;
		}
	}
}

/* The executable's own symbols: .symtab when it was not stripped, else .dynsym. */
static void by_symbol(unsigned *found)
{
	const unsigned char *map;
	Elf64_Ehdr eh;
	struct stat st;
	size_t size, i;
	int fd, kind;

	fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (fstat(fd, &st) || st.st_size < (off_t)sizeof(eh)) {
		close(fd);
		return;
	}
	size = (size_t)st.st_size;
	map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return;
	memcpy(&eh, map, sizeof(eh));
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shoff > size ||
	    (size - eh.e_shoff) / sizeof(Elf64_Shdr) < eh.e_shnum) {
		munmap((void *)map, size);
		return;
	}
	for (kind = 0; kind < 2; kind++) {
		int seen = 0;

		for (i = 0; i < eh.e_shnum; i++) {
			Elf64_Shdr sh, strsh;

			memcpy(&sh, map + eh.e_shoff + i * sizeof(sh), sizeof(sh));
			if (sh.sh_type != (kind == 0 ? SHT_SYMTAB : SHT_DYNSYM) ||
			    sh.sh_link >= eh.e_shnum)
				continue;
			memcpy(&strsh, map + eh.e_shoff + sh.sh_link * sizeof(strsh),
			       sizeof(strsh));
			scan_symbols(map, size, &sh, &strsh, found);
			seen = 1;
		}
		if (seen)
			break;
	}
	munmap((void *)map, size);
}

/* The notes of the program's PT_NOTE segments, as mapped; the first callback is the program. */
static int by_build_note(struct dl_phdr_info *info, size_t size, void *arg)
{
	char *hex = arg;
	int i;

	(void)size;
	for (i = 0; i < info->dlpi_phnum && !hex[0]; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		const unsigned char *p = (const unsigned char *)(info->dlpi_addr + ph->p_vaddr);
		size_t align = ph->p_align == 8 ? 8 : 4, at = 0;

		if (ph->p_type != PT_NOTE)
			continue;
		while (ph->p_memsz - at >= sizeof(ElfW(Nhdr))) {
			ElfW(Nhdr) nh;
			size_t name, desc, k;

			memcpy(&nh, p + at, sizeof(nh));
			name = (nh.n_namesz + align - 1) / align * align;
			desc = (nh.n_descsz + align - 1) / align * align;
			if (name > ph->p_memsz - at - sizeof(nh) ||
			    desc > ph->p_memsz - at - sizeof(nh) - name)
				break;
			if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
			    !memcmp(p + at + sizeof(nh), "GNU", 4) && nh.n_descsz > 0 &&
			    nh.n_descsz <= IOA_BUILD_ID_MAX / 2) {
				for (k = 0; k < nh.n_descsz; k++)
					sprintf(hex + 2 * k, "%02x", p[at + sizeof(nh) + name + k]);
				break;
			}
			at += sizeof(nh) + name + desc;
		}
	}
	return 1;
}

void rt_build_id(char *buf, size_t len)
{
	char hex[IOA_BUILD_ID_MAX + 1] = "";
	int saved = errno;

	dl_iterate_phdr(by_build_note, hex);
	snprintf(buf, len, "%s", hex);
	errno = saved;
}

void rt_io_libraries(char *buf, size_t len)
{
	unsigned found = 0;
	int saved = errno;

	dl_iterate_phdr(by_soname, &found);
	by_symbol(&found);
	ioa_format_io_libraries(found, buf, len);
	errno = saved;
}
