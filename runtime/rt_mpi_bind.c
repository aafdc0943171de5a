/*
 * rt_mpi_bind — binds the exported MPI symbols (rt_mpi_tramp.S) to the
 * wrappers of the program's MPI family or to MPI itself, at the first MPI
 * call (see rt_mpi_bind.h).  ABI-neutral: it includes no mpi.h, and calls
 * MPI only through MPI_Get_library_version, whose prototype every MPI
 * shares.  Families are compiled in with RT_BIND_MPICH and RT_BIND_OPENMPI.
 */
#define _GNU_SOURCE
#include "rt_mpi_bind.h"

#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "rt_core.h"
#include "rt_mpi_calls.h"

typedef void rt_mpi_fn(void);

#define RT_HIDDEN __attribute__((visibility("hidden")))

/* The slots of rt_mpi_tramp.S and the wrappers of each family (rt_mpi.c). */
#define RT_BIND_SLOTS(name, ...) extern RT_HIDDEN void *rt_slot_MPI_##name, *rt_slot_PMPI_##name;
RT_MPI_CALLS(RT_BIND_SLOTS)
RT_MPI_COMM_CALLS(RT_BIND_SLOTS)
RT_MPI_LARGE_CALLS(RT_BIND_SLOTS)
#undef RT_BIND_SLOTS

#ifdef RT_BIND_MPICH
#define RT_BIND_FAMILY_DECL(name, ...) \
	extern RT_HIDDEN rt_mpi_fn rt_mpich_MPI_##name, rt_mpich_PMPI_##name;
RT_MPI_CALLS(RT_BIND_FAMILY_DECL)
RT_MPI_COMM_CALLS(RT_BIND_FAMILY_DECL)
RT_MPI_LARGE_CALLS(RT_BIND_FAMILY_DECL)
#undef RT_BIND_FAMILY_DECL
int rt_mpich_abi_ready(void);
#define RT_BIND_MPICH_FN(sym) (&rt_mpich_##sym)
#else
#define RT_BIND_MPICH_FN(sym) NULL
#endif

#ifdef RT_BIND_OPENMPI
#define RT_BIND_FAMILY_DECL(name, ...) \
	extern RT_HIDDEN rt_mpi_fn rt_openmpi_MPI_##name, rt_openmpi_PMPI_##name;
RT_MPI_CALLS(RT_BIND_FAMILY_DECL)
RT_MPI_COMM_CALLS(RT_BIND_FAMILY_DECL)
RT_MPI_LARGE_CALLS(RT_BIND_FAMILY_DECL)
#undef RT_BIND_FAMILY_DECL
int rt_openmpi_abi_ready(void);
#define RT_BIND_OPENMPI_FN(sym) (&rt_openmpi_##sym)
#else
#define RT_BIND_OPENMPI_FN(sym) NULL
#endif

/* NONE: MPI's own functions; ABSENT: no MPI loaded yet, nothing bound. */
enum rt_mpi_family {
	RT_FAMILY_MPICH,
	RT_FAMILY_OPENMPI,
	RT_FAMILY_COUNT,
	RT_FAMILY_NONE,
	RT_FAMILY_ABSENT
};

struct rt_mpi_entry {
	const char *name; /* the exported symbol */
	const char *pmpi; /* what the wrapper calls */
	void **slot;
	rt_mpi_fn *wrapper[RT_FAMILY_COUNT];
};

#define RT_BIND_ENTRY(name, ...)                                          \
	{"MPI_" #name,                                                    \
	 "PMPI_" #name,                                                   \
	 &rt_slot_MPI_##name,                                             \
	 {RT_BIND_MPICH_FN(MPI_##name), RT_BIND_OPENMPI_FN(MPI_##name)}}, \
		{"PMPI_" #name,                                           \
		 "PMPI_" #name,                                           \
		 &rt_slot_PMPI_##name,                                    \
		 {RT_BIND_MPICH_FN(PMPI_##name), RT_BIND_OPENMPI_FN(PMPI_##name)}},

static const struct rt_mpi_entry entries[] = {RT_MPI_CALLS(RT_BIND_ENTRY) RT_MPI_COMM_CALLS(
	RT_BIND_ENTRY) RT_MPI_LARGE_CALLS(RT_BIND_ENTRY)};
#define RT_ENTRIES (sizeof(entries) / sizeof(entries[0]))

static const char *const family_names[RT_FAMILY_COUNT] = {"mpich", "openmpi"};
static int (*const family_ready[RT_FAMILY_COUNT])(void) = {
#ifdef RT_BIND_MPICH
	rt_mpich_abi_ready,
#else
	NULL,
#endif
#ifdef RT_BIND_OPENMPI
	rt_openmpi_abi_ready,
#else
	NULL,
#endif
};

static pthread_mutex_t bind_lock = PTHREAD_MUTEX_INITIALIZER;
static int bound;
static _Thread_local int binding __attribute__((tls_model("initial-exec")));

/* What a symbol the MPI library lacks does: fail, as an MPI call fails (not 0). */
static int rt_mpi_missing(void)
{
	return 16;
}

/*
 * The MPI library, when RTLD_NEXT cannot reach it: a library loaded as
 * another one's dependency with RTLD_LOCAL (mpi4py's MPI module brings
 * libmpi so) is outside the global scope.
 */
static void *mpi_handle;

/* Names of the loaded objects, NUL-separated, for find_mpi(). */
struct rt_objects {
	char names[16384];
	size_t used;
};

static int add_object(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct rt_objects *objs = arg;
	size_t len = info->dlpi_name ? strlen(info->dlpi_name) : 0;

	(void)size;
	if (len && len < sizeof(objs->names) - objs->used) {
		memcpy(objs->names + objs->used, info->dlpi_name, len + 1);
		objs->used += len + 1;
	}
	return 0;
}

/* The first loaded object, other than this library, that defines MPI. */
static void *find_mpi(void)
{
	static struct rt_objects objs;
	Dl_info self;
	size_t at;

	if (!dladdr(&mpi_handle, &self))
		return NULL;
	objs.used = 0;
	dl_iterate_phdr(add_object, &objs);
	for (at = 0; at < objs.used; at += strlen(objs.names + at) + 1) {
		const char *name = objs.names + at;
		void *h;

		if (self.dli_fname && !strcmp(name, self.dli_fname))
			continue;
		h = dlopen(name, RTLD_LAZY | RTLD_NOLOAD);
		if (!h)
			continue;
		if (dlsym(h, "PMPI_Get_library_version") && dlsym(h, "PMPI_Init"))
			return h; /* kept open: the MPI part calls into it */
		dlclose(h);
	}
	return NULL;
}

void *rt_mpi_real(const char *name)
{
	void *sym = dlsym(RTLD_NEXT, name);

	return sym || !mpi_handle ? sym : dlsym(mpi_handle, name);
}

static void *code(rt_mpi_fn *fn)
{
	void *p;

	memcpy(&p, &fn, sizeof(p));
	return p;
}

/* The library's own function for an entry, or the failing one. */
static void *real_of(const struct rt_mpi_entry *e)
{
	void *real = rt_mpi_real(e->name);

	return real ? real : code((rt_mpi_fn *)rt_mpi_missing);
}

/* The family of a version string; matches the first line of known libraries. */
static enum rt_mpi_family family_of(const char *version)
{
	if (strstr(version, "Open MPI"))
		return RT_FAMILY_OPENMPI;
	if (strstr(version, "MPICH") || strstr(version, "MVAPICH") ||
	    strstr(version, "Intel(R) MPI Library"))
		return RT_FAMILY_MPICH;
	return RT_FAMILY_NONE;
}

static void note(const char *what, const char *detail)
{
	size_t n;

	snprintf(rt.mpi_note, sizeof(rt.mpi_note), "%s: %.200s", what, detail);
	n = strcspn(rt.mpi_note, "\n");
	rt.mpi_note[n] = '\0';
}

/* Decides the family (RT_FAMILY_NONE: every slot gets MPI's own function). */
static enum rt_mpi_family choose(void)
{
	/* MPICH's MPI_MAX_LIBRARY_VERSION_STRING (8192) is the largest of all. */
	static char version[8192 + 1];
	int (*get_version)(char *, int *);
	enum rt_mpi_family family;
	void *sym;
	int len = 0;

	if (!dlsym(RTLD_NEXT, "PMPI_Get_library_version"))
		mpi_handle = find_mpi();
	sym = rt_mpi_real("PMPI_Get_library_version");
	if (!sym)
		sym = rt_mpi_real("MPI_Get_library_version");
	memcpy(&get_version, &sym, sizeof(sym));
	if (!sym) {
		/* A call before any MPI is loaded (a probe): bind at a later one. */
		mpi_handle = NULL;
		return RT_FAMILY_ABSENT;
	}
	if (get_version(version, &len) != 0) {
		note("unsupported", "MPI_Get_library_version failed");
		return RT_FAMILY_NONE;
	}
	version[len > 0 && len < (int)sizeof(version) ? len : 0] = '\0';
	family = family_of(version);
	if (family == RT_FAMILY_NONE) {
		note("unsupported", version);
	} else if (!family_ready[family]) {
		note("unsupported", version); /* a family this build left out */
		family = RT_FAMILY_NONE;
	} else if (family_ready[family]()) {
		note("unsupported", version); /* its predefined handles are missing */
		family = RT_FAMILY_NONE;
	} else if (!rt.started) {
		/*
		 * Not started (off by settings, excluded, failed start-up): the
		 * wrappers pass calls through, but MPI_Finalize's still answers
		 * the recording ranks, which would otherwise wait for this rank
		 * in vain (rt_mpijoin.h).
		 */
		note("off", rt.disabled_reason ? rt.disabled_reason : "runtime off");
	} else {
		note(family_names[family], version);
	}
	/* Its MPI calls pass through unrecorded: the process keeps a log of its own. */
	rt.mpi_unsupported = family == RT_FAMILY_NONE;
	if (family == RT_FAMILY_NONE && rt.config.debug)
		fprintf(stderr, "ioatlas: MPI calls pass through unrecorded (mpi=%s)\n",
			rt.mpi_note);
	return family;
}

/* 1 when every slot is bound, 0 when no MPI is loaded yet. */
static int bind_all(void)
{
	enum rt_mpi_family family = choose();
	size_t i;

	if (family == RT_FAMILY_ABSENT)
		return 0;
	for (i = 0; i < RT_ENTRIES; i++) {
		const struct rt_mpi_entry *e = &entries[i];
		void *to = NULL;

		/* A wrapper only where MPI has the PMPI_ function it calls. */
		if (family != RT_FAMILY_NONE && e->wrapper[family] && rt_mpi_real(e->pmpi))
			to = code(e->wrapper[family]);
		if (!to)
			to = real_of(e);
		__atomic_store_n(e->slot, to, __ATOMIC_RELEASE);
	}
	return 1;
}

void *rt_mpi_bind(void **slot)
{
	int saved_errno = errno;
	void *to = NULL;
	size_t i;

	if (binding) {
		/* MPI calling itself while it tells its version: straight to MPI. */
		for (i = 0; i < RT_ENTRIES && !to; i++)
			if (entries[i].slot == slot)
				to = real_of(&entries[i]);
		errno = saved_errno;
		return to ? to : code((rt_mpi_fn *)rt_mpi_missing);
	}
	binding = 1;
	pthread_mutex_lock(&bind_lock);
	if (!bound)
		bound = bind_all();
	pthread_mutex_unlock(&bind_lock);
	binding = 0;
	to = bound ? __atomic_load_n(slot, __ATOMIC_ACQUIRE) : code((rt_mpi_fn *)rt_mpi_missing);
	errno = saved_errno;
	return to;
}
