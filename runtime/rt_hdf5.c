/*
 * rt_hdf5 — the HDF5 layer's wrappers and handlers (see rt_hdf5.h).
 *
 * Before a call the runtime needs only the name a dataset is opened by:
 * from the record of the file it is opened at, or else asked of HDF5 (the
 * location's file and path).  After a call that succeeded it asks what the
 * call did or made: a read's or write's selection, memory type and
 * transfer mode (every identifier is then known to be valid), a dataset's
 * extent, element size and chunks, a file's access properties.  Never
 * after a failed call: asking would clear the error stack the program is
 * about to print (every HDF5 API call starts by clearing it), while asking
 * before costs nothing the real call does not redo.  HDF5's automatic
 * error printing is off while the runtime asks, so a question that fails
 * prints nothing.
 */
#define _GNU_SOURCE
#include "rt_hdf5.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

#include "rt_core.h"
#include "rt_handles.h"
#include "rt_hdf5_calls.h"
#include "rt_posix.h"
#include "rt_records.h"
#include "rt_trace.h"

#define RT_EXPORT __attribute__((visibility("default")))

/* HDF5's values this module reads (stable since 1.8). */
#define H5_SEL_POINTS	   1
#define H5_SEL_HYPERSLABS  2
#define H5_SEL_ALL	   3
#define H5_CHUNKED	   2
#define H5_MPIO_COLLECTIVE 1
#define H5_MAX_RANK	   32
#define H5_I_DATASET	   5 /* H5I_DATASET, an identifier's type */
#define H5_P_DEFAULT	   0 /* H5P_DEFAULT: the default property list */
/* H5S_ALL is 0; 1.14's H5S_BLOCK and H5S_PLIST are 1 and 2: none is a dataspace of its own. */
#define H5_ALL		0
#define H5_PLIST	2
#define H5_SPACE_ID(id) ((id) > 2)

/* The functions the wrappers ask HDF5 with, from the library the real calls live in. */
#define RT_H5_QUERIES(Q)                                                            \
	Q(int, H5Sget_select_type, (rt_hid_t))                                      \
	Q(long long, H5Sget_select_npoints, (rt_hid_t))                             \
	Q(int, H5Sget_simple_extent_dims, (rt_hid_t, rt_hsize_t *, rt_hsize_t *))   \
	Q(int, H5Sis_regular_hyperslab, (rt_hid_t))                                 \
	Q(rt_herr_t, H5Sget_regular_hyperslab,                                      \
	  (rt_hid_t, rt_hsize_t *, rt_hsize_t *, rt_hsize_t *, rt_hsize_t *))       \
	Q(rt_herr_t, H5Sclose, (rt_hid_t))                                          \
	Q(rt_hid_t, H5Dget_space, (rt_hid_t))                                       \
	Q(rt_hid_t, H5Dget_type, (rt_hid_t))                                        \
	Q(rt_hid_t, H5Dget_create_plist, (rt_hid_t))                                \
	Q(size_t, H5Tget_size, (rt_hid_t))                                          \
	Q(rt_herr_t, H5Tclose, (rt_hid_t))                                          \
	Q(int, H5Pget_layout, (rt_hid_t))                                           \
	Q(int, H5Pget_chunk, (rt_hid_t, int, rt_hsize_t *))                         \
	Q(rt_herr_t, H5Pget_dxpl_mpio, (rt_hid_t, int *))                           \
	Q(rt_hid_t, H5Fget_access_plist, (rt_hid_t))                                \
	Q(rt_herr_t, H5Pget_all_coll_metadata_ops, (rt_hid_t, bool *))              \
	Q(rt_herr_t, H5Pget_coll_metadata_write, (rt_hid_t, bool *))                \
	Q(rt_herr_t, H5Pget_alignment, (rt_hid_t, rt_hsize_t *, rt_hsize_t *))      \
	Q(rt_herr_t, H5Pget_cache, (rt_hid_t, int *, size_t *, size_t *, double *)) \
	Q(rt_herr_t, H5Pclose, (rt_hid_t))                                          \
	Q(ssize_t, H5Iget_name, (rt_hid_t, char *, size_t))                         \
	Q(ssize_t, H5Fget_name, (rt_hid_t, char *, size_t))                         \
	Q(rt_herr_t, H5Eget_auto2, (rt_hid_t, void **, void **))                    \
	Q(rt_herr_t, H5Eset_auto2, (rt_hid_t, void *, void *))                      \
	Q(rt_herr_t, H5Eauto_is_v2, (rt_hid_t, unsigned *))                         \
	Q(rt_herr_t, H5Eget_auto1, (void **, void **))                              \
	Q(rt_herr_t, H5Eset_auto1, (void *, void *))                                \
	Q(rt_herr_t, H5get_libversion, (unsigned *, unsigned *, unsigned *))        \
	Q(int, H5Iget_type, (rt_hid_t))

#ifdef RT_STATIC
/*
 * A static link (libioatlas.a, -Wl,--wrap): each wrapper is __wrap_<name>,
 * the linker gives the real call as __real_<name>: a weak reference for
 * the calls since 1.13 (an older HDF5 has none, and a weak reference pulls
 * nothing out of an archive: they live beside calls of 1.10's, which are
 * strong references), and the queries are weak references to the
 * program's HDF5 (NULL when it lacks one).  One HDF5, the program's.
 */
#define RT_H5_SYM(name)				"__wrap_" #name
#define RT_H5_REAL_DECL(ret, name, params, ...) extern ret __real_##name params;
#define RT_H5_REAL_DECL_WEAK(ret, name, params, ...) \
	extern ret __real_##name params __attribute__((weak));
/*
 * Through a variable: the address of a function declared strong is never
 * NULL (-Waddress); the compiler then folds the test away for those.
 */
#define RT_H5_RESOLVED(name)                                     \
	__extension__({                                          \
		__typeof__(&__real_##name) rt_p = __real_##name; \
		rt_p != NULL;                                    \
	})
#define RT_H5_REAL(name)		    __real_##name
#define RT_H5_SLOT(name)		    NULL
#define RT_H5_QUERY_WEAK(ret, name, params) extern ret name params __attribute__((weak));
RT_H5_QUERIES(RT_H5_QUERY_WEAK)
#undef RT_H5_QUERY_WEAK
#else
#define RT_H5_SYM(name)				#name
#define RT_H5_REAL_DECL(ret, name, params, ...) static ret(*rt_h5_real_##name) params;
#define RT_H5_RESOLVED(name)			(rt_h5_real_##name || h5_resolve(#name, (void *)&rt_h5_real_##name))
#define RT_H5_REAL(name)			rt_h5_real_##name
/* Where a call's real definition is kept (which library: h5_layer_on()). */
#define RT_H5_SLOT(name)			((const void *)&rt_h5_real_##name)
#endif

static struct {
#define RT_H5_QUERY_SLOT(ret, name, params) ret(*name) params;
	RT_H5_QUERIES(RT_H5_QUERY_SLOT)
#undef RT_H5_QUERY_SLOT
	int state; /* 0 unresolved, 1 resolved, -1 not to be had (published with release) */
} h5q;
#define RT_H5_ASK(name) h5q.name

#ifndef RT_STATIC
/* Whether a loaded object's file name is an HDF5 library's. */
static int is_hdf5(const char *path)
{
	const char *base = path ? strrchr(path, '/') : NULL;

	base = base ? base + 1 : path;
	/* Debian's libhdf5_mpich.so, a wheel's libhdf5-1a2b3c4d.so (auditwheel's names). */
	return base && !strncmp(base, "libhdf5", 7) &&
	       (base[7] == '.' || base[7] == '_' || base[7] == '-');
}

/*
 * Set when two copies of HDF5 are loaded (two Python wheels each bundling
 * one): each caller must reach its own, so the layer stays off and every
 * call is sent to the definition its caller links (h5_for_caller()).
 */
static int h5_copies;

/* Set when HDF5 was found by walking the loaded objects (h5_next()). */
static int h5_walked;

/*
 * The next definition of name: dlsym(RTLD_NEXT) finds it when HDF5 came
 * with the program; a module loaded later with its own scope (h5py's, by
 * Python's dlopen) keeps its libhdf5 out of that search, so the loaded
 * objects named libhdf5* are asked (their link map walked, each dlopen'ed
 * without loading).  Never this library's own wrapper.
 */
static void *h5_next(const char *name)
{
	void *sym = dlsym(RTLD_NEXT, name), *found = NULL, *lib;
	struct link_map *m = NULL;
	Dl_info self, where, first;

	if (sym)
		return sym;
	lib = dlopen(NULL, RTLD_LAZY);
	if (!lib || dlinfo(lib, RTLD_DI_LINKMAP, &m) || !dladdr(&h5q, &self))
		return NULL;
	for (; m; m = m->l_next) {
		if (!is_hdf5(m->l_name) || !(lib = dlopen(m->l_name, RTLD_LAZY | RTLD_NOLOAD)))
			continue;
		sym = dlsym(lib, name);
		if (!sym || !dladdr(sym, &where) || where.dli_fbase == self.dli_fbase)
			continue;
		if (!found && dladdr(sym, &first)) {
			found = sym;
			__atomic_store_n(&h5_walked, 1, __ATOMIC_RELAXED);
		} else if (found && where.dli_fbase != first.dli_fbase)
			__atomic_store_n(&h5_copies, 1, __ATOMIC_RELEASE);
	}
	return found;
}

/*
 * Before a file opens: when HDF5 was found by walking the loaded objects,
 * a second copy may have come since (a second module loaded): walk again.
 * Every use of HDF5 starts with a file, and opens are few.
 */
static void h5_copies_check(void)
{
	int saved_errno = errno;

	if (__atomic_load_n(&h5_walked, __ATOMIC_RELAXED) &&
	    !__atomic_load_n(&h5_copies, __ATOMIC_RELAXED))
		(void)h5_next("H5Fopen");
	errno = saved_errno;
}

/* With two copies of HDF5 loaded, the definition of name the caller links, or dflt. */
static void *h5_for_caller(const char *name, const void *caller, void *dflt)
{
	Dl_info from, where, self;
	void *lib, *sym;

	if (!dladdr(caller, &from) || !from.dli_fname || !from.dli_fname[0] ||
	    !(lib = dlopen(from.dli_fname, RTLD_LAZY | RTLD_NOLOAD)))
		return dflt;
	/* A handle's dlsym searches the object and its dependencies only. */
	sym = dlsym(lib, name);
	if (!sym || !dladdr(sym, &where) || !dladdr(&h5q, &self) ||
	    where.dli_fbase == self.dli_fbase)
		return dflt;
	return sym;
}

static int h5_resolve(const char *name, void *slot)
{
	int saved_errno = errno;
	void *sym = h5_next(name);

	memcpy(slot, &sym, sizeof(sym));
	errno = saved_errno;
	return sym != NULL;
}

#else
static const int h5_copies; /* one HDF5, linked */
#define h5_copies_check() ((void)0)
#endif

/*
 * The query functions, from the library a real call was found in (slot:
 * where it is kept), once.  The layer stays off (every call passes
 * through untouched) for an HDF5 older than 1.10, whose 32-bit hid_t the
 * wrappers' types do not describe, and when the error printing cannot be
 * switched off around the runtime's questions.
 */
static int h5_layer_on(const void *slot)
{
	unsigned major = 0, minor = 0, release = 0;
	int state = __atomic_load_n(&h5q.state, __ATOMIC_ACQUIRE);
#ifndef RT_STATIC
	Dl_info where;
	void *lib, *real;

	if (__atomic_load_n(&h5_copies, __ATOMIC_ACQUIRE))
		return 0;
#endif
	if (state)
		return state > 0;
#ifdef RT_STATIC
	(void)slot;
#define RT_H5_QUERY_FIND(ret, name, params) h5q.name = name;
#else
	memcpy(&real, slot, sizeof(real));
	lib = real && dladdr(real, &where) && where.dli_fname
		      ? dlopen(where.dli_fname, RTLD_LAZY | RTLD_NOLOAD)
		      : NULL;
#define RT_H5_QUERY_FIND(ret, name, params)                 \
	{                                                   \
		void *sym = lib ? dlsym(lib, #name) : NULL; \
		memcpy(&h5q.name, &sym, sizeof(sym));       \
	}
#endif
	RT_H5_QUERIES(RT_H5_QUERY_FIND)
#undef RT_H5_QUERY_FIND
	if (h5q.H5get_libversion)
		h5q.H5get_libversion(&major, &minor, &release);
	state = (major > 1 || (major == 1 && minor >= 10)) && h5q.H5Eauto_is_v2 &&
				h5q.H5Eget_auto2 && h5q.H5Eset_auto2
			? 1
			: -1;
	__atomic_store_n(&h5q.state, state, __ATOMIC_RELEASE);
	return state > 0;
}

#ifdef RT_STATIC
RT_HDF5_CALLS_1_10(RT_H5_REAL_DECL)
RT_HDF5_CALLS_1_14(RT_H5_REAL_DECL_WEAK)
#else
RT_HDF5_CALLS(RT_H5_REAL_DECL)
#endif

/*
 * The open files and datasets by identifier (rt_handles.h): a dataset
 * keeps its file's record too.  HDF5 hands out no identifier 0.
 */

/*
 * Asking HDF5: its error printing off (through the v1 API when the program
 * set its handler with it: asking the v2 way would then fail, leaving an
 * error on the program's stack), our own calls unrecorded, errno kept.
 */
struct h5_asking {
	void *func, *data;
	int err, on, v1;
};

static void ask_begin(struct h5_asking *a, const void *real_slot)
{
	unsigned v2 = 1;

	a->err = errno;
	a->on = a->v1 = 0;
	rt_self()->inside |= RT_IN_RUNTIME;
	if (!h5_layer_on(real_slot) || RT_H5_ASK(H5Eauto_is_v2)(0, &v2) < 0)
		return;
	if (v2)
		a->on = RT_H5_ASK(H5Eget_auto2)(0, &a->func, &a->data) >= 0 &&
			RT_H5_ASK(H5Eset_auto2)(0, NULL, NULL) >= 0;
	else if (RT_H5_ASK(H5Eget_auto1) && RT_H5_ASK(H5Eset_auto1))
		a->on = a->v1 = RT_H5_ASK(H5Eget_auto1)(&a->func, &a->data) >= 0 &&
				RT_H5_ASK(H5Eset_auto1)(NULL, NULL) >= 0;
}

static void ask_end(struct h5_asking *a)
{
	if (a->on && a->v1)
		RT_H5_ASK(H5Eset_auto1)(a->func, a->data);
	else if (a->on)
		RT_H5_ASK(H5Eset_auto2)(0, a->func, a->data);
	rt_self()->inside &= ~RT_IN_RUNTIME;
	errno = a->err;
}

#define ASKABLE(a, name) ((a)->on && RT_H5_ASK(name))

/*
 * The dimensions of a dataspace as HDF5 gives them, the first the slowest
 * (and their maxima when max is not NULL); the rank, or -1.
 */
static int space_dims(struct h5_asking *a, rt_hid_t space, rt_hsize_t dims[H5_MAX_RANK],
		      rt_hsize_t *max)
{
	int n;

	if (!ASKABLE(a, H5Sget_simple_extent_dims))
		return -1;
	n = RT_H5_ASK(H5Sget_simple_extent_dims)(space, dims, max);
	return n >= 0 && n <= H5_MAX_RANK ? n : -1;
}

/*
 * A dataset's record name, "<file>:<path in the file>", from where it is
 * opened: the file's record's name when it is opened at a file the runtime
 * saw open, else the file's absolute path from its name as HDF5 holds it
 * (as given at open, taken from the current folder) and the location's
 * path.  Its length, and in *flen that of the file's part; 0 when it
 * cannot be told.
 */
static size_t dataset_name(struct h5_asking *a, const void *slot, rt_hid_t loc, const char *name,
			   char *out, size_t out_len, size_t *flen)
{
	struct rt_handle *h;
	ssize_t n = 0;
	size_t len = 0;
	int w, at_file;

	if (!name)
		return 0;
	rt_lock();
	h = rt_handle_find(rt_hdf5_handles, loc);
	at_file = h && h->rec->module == IOA_MOD_H5F && !(h->rec->flags & IOA_REC_FOLDED) &&
		  (len = strlen(h->rec->name)) + 2 < out_len;
	if (at_file)
		memcpy(out, h->rec->name, len);
	else
		len = 0;
	rt_unlock();
	if (!len) {
		ask_begin(a, slot);
		if (ASKABLE(a, H5Fget_name) && ASKABLE(a, H5Iget_name))
			n = RT_H5_ASK(H5Fget_name)(loc, out, out_len);
		/* The name as HDF5 holds it, made absolute in place (rt_abs_path copies it first).
		 */
		if (n > 0 && (size_t)n < out_len) {
			char given[PATH_MAX];

			memcpy(given, out, (size_t)n + 1);
			len = rt_abs_path(AT_FDCWD, given, out, out_len);
		}
		ask_end(a);
		if (!len || len + 2 >= out_len)
			return 0;
	}
	*flen = len;
	out[len++] = ':';
	out[len] = '\0';
	if (name[0] != '/' && !at_file) {
		ask_begin(a, slot);
		n = ASKABLE(a, H5Iget_name) ? RT_H5_ASK(H5Iget_name)(loc, out + len, out_len - len)
					    : -1;
		ask_end(a);
		if (n < 0 || (size_t)n >= out_len - len)
			return 0;
		len += (size_t)n;
	}
	w = snprintf(out + len, out_len - len, "%s%s",
		     name[0] == '/' || out[len - 1] == '/' ? "" : "/", name);
	return w >= 0 && (size_t)w < out_len - len ? len + (size_t)w : 0;
}

/* Whether the file named by path's first flen bytes is recorded (the path is left as it was). */
static int file_recorded(char *path, size_t flen)
{
	char at = path[flen];
	int yes;

	path[flen] = '\0';
	yes = rt_config_path_recorded(&rt.config, path);
	path[flen] = at;
	return yes;
}

/*
 * A call's trace event (rt_trace_layer()): the record it is on (the
 * call's own by default), its three numbers, and per dimension one event
 * of each name in dim_op before it, of three numbers each.  Only the head
 * is cleared for each call (the dimensions are 1.5 KiB): dim holds what
 * ndims and dim_op say was written.
 */
struct h5_event {
	struct rt_record *rec;
	int64_t v[3];
	int ndims;
	const char *dim_op[2];
	int64_t dim[2][H5_MAX_RANK][3];
};

static void h5_event_start(struct h5_event *ev, struct rt_record *rec)
{
	ev->rec = rec;
	ev->v[0] = ev->v[1] = ev->v[2] = 0;
	ev->ndims = 0;
	ev->dim_op[0] = ev->dim_op[1] = NULL;
}

/* A trace event's aux for a read or write: how it was made. */
#define H5_EV_COLLECTIVE 1 /* collective MPI-IO transfer */
#define H5_EV_ALL	 2 /* the whole dataset (H5S_ALL, or all selected) */
#define H5_EV_IRREGULAR	 4 /* points or an irregular hyperslab: the dimensions do not say it */

/* What a read or write moved, asked after it succeeded. */
struct h5_access {
	int64_t bytes;
	int sel;		    /* the file selection's H5_SEL_*, or 0 when unknown */
	int regular;		    /* a regular hyperslab */
	int collective;		    /* the transfer list asks for collective MPI-IO */
	int64_t key[RT_ACCESS_KEY]; /* the access as Darshan keeps it (rt_records.h) */
};

/*
 * As Darshan counts it: the selection in the file (the dataset's whole
 * extent for H5S_ALL), its points times the dataset's element size
 * (elem, from its record; the memory type's when unknown), the lengths
 * and strides of a regular hyperslab.  1.14's H5S_PLIST leaves the file
 * selection in the transfer list: then only the points, from the memory
 * space.
 */
static void access_of(struct h5_asking *a, rt_hid_t dset, rt_hid_t mtype, rt_hid_t mspace,
		      rt_hid_t fspace, rt_hid_t dxpl, int64_t elem, struct h5_access *x,
		      struct h5_event *ev)
{
	rt_hsize_t start[H5_MAX_RANK], stride[H5_MAX_RANK], count[H5_MAX_RANK], block[H5_MAX_RANK];
	rt_hid_t space = fspace == H5_ALL ? -1 : fspace;
	long long points = -1;
	int k, n, mode = 0;

	memset(x, 0, sizeof(*x));
	ev->v[2] = H5_EV_IRREGULAR;
	if (elem <= 0 && ASKABLE(a, H5Tget_size))
		elem = (int64_t)RT_H5_ASK(H5Tget_size)(mtype);
	if (fspace == H5_ALL && ASKABLE(a, H5Dget_space))
		space = RT_H5_ASK(H5Dget_space)(dset);
	if (H5_SPACE_ID(space) && ASKABLE(a, H5Sget_select_type) &&
	    ASKABLE(a, H5Sget_select_npoints)) {
		x->sel = RT_H5_ASK(H5Sget_select_type)(space);
		points = RT_H5_ASK(H5Sget_select_npoints)(space);
		n = space_dims(a, space, count, NULL);
		if (x->sel == H5_SEL_ALL || fspace == H5_ALL)
			ev->v[2] = H5_EV_ALL;
		if (x->sel == H5_SEL_HYPERSLABS && ASKABLE(a, H5Sis_regular_hyperslab) &&
		    RT_H5_ASK(H5Sis_regular_hyperslab)(space) > 0) {
			x->regular = 1;
			if (n > 0 && ASKABLE(a, H5Sget_regular_hyperslab) &&
			    RT_H5_ASK(H5Sget_regular_hyperslab)(space, start, stride, count,
								block) >= 0) {
				for (k = 0; k < n && k < 5; k++) {
					x->key[1 + k] =
						(int64_t)(count[n - 1 - k] * block[n - 1 - k]);
					x->key[6 + k] = (int64_t)stride[n - 1 - k];
				}
				ev->v[2] = 0;
				ev->ndims = n;
				ev->dim_op[0] = "H5S_hyperslab";
				ev->dim_op[1] = "H5S_block";
				for (k = 0; k < n; k++) {
					ev->dim[0][k][0] = (int64_t)start[k];
					ev->dim[0][k][1] = (int64_t)count[k];
					ev->dim[0][k][2] = (int64_t)stride[k];
					ev->dim[1][k][0] = (int64_t)block[k];
					ev->dim[1][k][1] = ev->dim[1][k][2] = 0;
				}
			}
		}
		if (fspace == H5_ALL && ASKABLE(a, H5Sclose))
			RT_H5_ASK(H5Sclose)(space);
	} else if (fspace == H5_PLIST && H5_SPACE_ID(mspace) && ASKABLE(a, H5Sget_select_npoints)) {
		points = RT_H5_ASK(H5Sget_select_npoints)(mspace);
	}
	if (points > 0 && elem > 0 && (unsigned long long)points <= (uint64_t)(INT64_MAX / elem))
		x->bytes = points * elem;
	x->key[0] = x->bytes;
	if (dxpl > 0 && ASKABLE(a, H5Pget_dxpl_mpio) &&
	    RT_H5_ASK(H5Pget_dxpl_mpio)(dxpl, &mode) >= 0)
		x->collective = mode == H5_MPIO_COLLECTIVE;
	ev->v[1] = x->bytes;
	ev->v[2] |= x->collective ? H5_EV_COLLECTIVE : 0;
}

/* Whether an object opened by H5Oopen is a dataset. */
static int is_dataset(struct h5_asking *a, rt_hid_t id)
{
	return ASKABLE(a, H5Iget_type) && RT_H5_ASK(H5Iget_type)(id) == H5_I_DATASET;
}

/*
 * A dataset's shape, asked after it opened, and with all its element size
 * and chunks (asked when it is created and at its record's first open).
 * ev: per dimension its extent, maximum and chunk (0: not chunked, or not
 * asked: a kernel creates a dataset from its create's).
 */
static void dataset_facts(struct h5_asking *a, rt_hid_t dset, int all, int64_t *c,
			  struct h5_event *ev)
{
	rt_hsize_t dims[H5_MAX_RANK], max[H5_MAX_RANK];
	rt_hid_t space, type, dcpl;
	int k, n;

	if (ASKABLE(a, H5Dget_space) && (space = RT_H5_ASK(H5Dget_space)(dset)) >= 0) {
		n = space_dims(a, space, dims, max);
		if (n >= 0) {
			int64_t points = 1;

			for (k = 0; k < n; k++)
				points = dims[k] && (uint64_t)points <= INT64_MAX / dims[k]
						 ? points * (int64_t)dims[k]
						 : (dims[k] ? INT64_MAX : 0);
			c[H5D_DATASPACE_NDIMS] = n;
			c[H5D_DATASPACE_NPOINTS] = points;
			ev->ndims = n;
			ev->dim_op[0] = "H5S_extent";
			ev->v[0] = n;
			for (k = 0; k < n; k++) {
				ev->dim[0][k][0] = (int64_t)dims[k];
				/* H5S_UNLIMITED (all ones) as -1 */
				ev->dim[0][k][1] = (int64_t)max[k];
				ev->dim[0][k][2] = 0; /* the chunk, below */
			}
		}
		if (ASKABLE(a, H5Sclose))
			RT_H5_ASK(H5Sclose)(space);
	}
	/* A copy of the creation list is dear (microseconds): once per dataset. */
	if (!all)
		return;
	if (ASKABLE(a, H5Dget_create_plist) && (dcpl = RT_H5_ASK(H5Dget_create_plist)(dset)) >= 0) {
		if (ASKABLE(a, H5Pget_layout) && ASKABLE(a, H5Pget_chunk) &&
		    RT_H5_ASK(H5Pget_layout)(dcpl) == H5_CHUNKED &&
		    (n = RT_H5_ASK(H5Pget_chunk)(dcpl, H5_MAX_RANK, dims)) > 0 && n <= H5_MAX_RANK)
			for (k = 0; k < n; k++) {
				if (k < 5)
					c[H5D_CHUNK_SIZE_D1 + k] = (int64_t)dims[n - 1 - k];
				if (n == ev->ndims)
					ev->dim[0][k][2] = (int64_t)dims[k];
			}
		if (ASKABLE(a, H5Pclose))
			RT_H5_ASK(H5Pclose)(dcpl);
	}
	if (ASKABLE(a, H5Dget_type) && (type = RT_H5_ASK(H5Dget_type)(dset)) >= 0) {
		if (ASKABLE(a, H5Tget_size))
			c[H5D_DATATYPE_SIZE] = (int64_t)RT_H5_ASK(H5Tget_size)(type);
		if (ASKABLE(a, H5Tclose))
			RT_H5_ASK(H5Tclose)(type);
	}
}

/*
 * The file-access properties in force, asked after the file opened; 1 when
 * they were.  Asked of the list the program opened it with (given), not of
 * the file's (H5Fget_access_plist): that is a copy, and copying a list of
 * the MPI-IO driver duplicates its communicator, a collective call that
 * would hold every rank until all had made it (3 ms an open on 2 ranks).
 * The file's only for H5P_DEFAULT, whose driver has no communicator.
 */
static int file_facts(struct h5_asking *a, rt_hid_t file, rt_hid_t given, int64_t *c)
{
	rt_hsize_t threshold, alignment;
	size_t slots, bytes;
	double w0;
	int mdc;
	bool on;
	rt_hid_t fapl = given;

	if (given == H5_P_DEFAULT &&
	    (!ASKABLE(a, H5Fget_access_plist) || (fapl = RT_H5_ASK(H5Fget_access_plist)(file)) < 0))
		return 0;
	if (ASKABLE(a, H5Pget_all_coll_metadata_ops) &&
	    RT_H5_ASK(H5Pget_all_coll_metadata_ops)(fapl, &on) >= 0)
		c[H5F_USE_COLL_METADATA_OPS] = on;
	if (ASKABLE(a, H5Pget_coll_metadata_write) &&
	    RT_H5_ASK(H5Pget_coll_metadata_write)(fapl, &on) >= 0)
		c[H5F_USE_COLL_METADATA_WRITE] = on;
	if (ASKABLE(a, H5Pget_alignment) &&
	    RT_H5_ASK(H5Pget_alignment)(fapl, &threshold, &alignment) >= 0) {
		c[H5F_ALIGNMENT] = (int64_t)alignment;
		c[H5F_ALIGNMENT_THRESHOLD] = (int64_t)threshold;
	}
	if (ASKABLE(a, H5Pget_cache) &&
	    RT_H5_ASK(H5Pget_cache)(fapl, &mdc, &slots, &bytes, &w0) >= 0) {
		c[H5F_CHUNK_CACHE_SLOTS] = (int64_t)slots;
		c[H5F_CHUNK_CACHE_BYTES] = (int64_t)bytes;
	}
	if (fapl != given && ASKABLE(a, H5Pclose))
		RT_H5_ASK(H5Pclose)(fapl);
	return 1;
}

/* The HDF5 call this thread is in, for the calls it makes underneath. */
static void above_set(struct rt_record *rec, struct rt_record *file)
{
	if (rec && rec->module == IOA_MOD_H5D)
		rt_self()->above = (struct rt_above){&rec->counters[H5D_MPIIO_SUBCALLS],
						     &rec->counters[H5D_POSIX_SUBCALLS],
						     file ? &file->counters[H5F_USE_MPIIO] : NULL};
	else if (rec)
		rt_self()->above = (struct rt_above){&rec->counters[H5F_MPIIO_SUBCALLS],
						     &rec->counters[H5F_POSIX_SUBCALLS],
						     &rec->counters[H5F_USE_MPIIO]};
}

static void meta_time(struct rt_record *rec, double t0, double t1)
{
	rt_add_time(&rec->fcounters[rec->module == IOA_MOD_H5F ? H5F_F_META_TIME : H5D_F_META_TIME],
		    &rec->meta_end, t0, t1);
}

/*
 * The communicators file-access lists were given (H5Pset_fapl_mpio), as
 * their trace slots: the last few lists set, which is what programs do
 * (set a list, open a file with it).  Under the lock.
 */
#define H5_FAPLS 16
static struct {
	rt_hid_t fapl;
	uint32_t slot;
} h5_fapls[H5_FAPLS];
static unsigned h5_nfapls;

static void h5_fapl_set(rt_hid_t fapl, rt_h5_mpi_handle comm)
{
	uint32_t slot;
	unsigned i;

	if (!rt_tracing)
		return;
	/* The handle's bits beyond an MPICH int's are the caller's register's. */
	slot = rt_trace_comm_find((int64_t)comm);
	if (slot == RT_TRACE_NO_COMM)
		slot = rt_trace_comm_find((int64_t)(uint32_t)comm);
	for (i = 0; i < H5_FAPLS && h5_fapls[i].fapl != fapl; i++)
		;
	if (i == H5_FAPLS)
		i = h5_nfapls++ % H5_FAPLS;
	h5_fapls[i].fapl = fapl;
	h5_fapls[i].slot = slot;
}

/* The trace slot + 1 of the communicator fapl opens files on; 0 when not known. */
static int64_t h5_fapl_comm(rt_hid_t fapl)
{
	int64_t slot = 0;
	unsigned i;

	rt_lock();
	for (i = 0; i < H5_FAPLS && fapl > 0; i++)
		if (h5_fapls[i].fapl == fapl && h5_fapls[i].slot != RT_TRACE_NO_COMM)
			slot = (int64_t)h5_fapls[i].slot + 1;
	rt_unlock();
	return slot;
}

/*
 * The shape of every wrapper: call through when the layer is off (no HDF5
 * it can read, rt_h5_layer_on()), the runtime is off or this thread is
 * already inside HDF5 (or the runtime); otherwise pre (outside the lock,
 * errno kept), find the records under the lock, make the real call with
 * the layer above marked for what it issues underneath, then post (after
 * a success only) and the handler, or the failure, under the lock.  pre
 * and post ask HDF5 inside RT_H5_ASKING.  HDF5 sets errno only when a
 * system call failed under it: a failure is recorded with that errno, or
 * 0, and the program sees the errno the call left.  A wrapper that cannot
 * find the real function returns -1.
 */
#define RT_H5_WRAP(ret, name, op, args, pre, find, post, handler)                               \
	ret r;                                                                                  \
	double t0, t1;                                                                          \
	int err, before;                                                                        \
	uint64_t mark;                                                                          \
	struct rt_record *rt_rec = NULL, *rt_file = NULL;                                       \
	struct h5_event rt_ev;                                                                  \
	if (!RT_H5_RESOLVED(name))                                                              \
		return (ret)-1;                                                                 \
	if (!h5_layer_on(RT_H5_SLOT(name)) || !rt_begin(RT_IN_HDF5))                            \
		return __atomic_load_n(&h5_copies, __ATOMIC_RELAXED) ? RT_H5_CALLERS(name) args \
								     : RT_H5_REAL(name) args;   \
	before = errno;                                                                         \
	pre;                                                                                    \
	rt_lock();                                                                              \
	find;                                                                                   \
	mark = rt_trace_mark();                                                                 \
	rt_unlock();                                                                            \
	above_set(rt_rec, rt_file);                                                             \
	rt_self()->trace_under = rt_rec ? IOA_TR_UNDER : 0;                                     \
	errno = 0;                                                                              \
	t0 = rt_now();                                                                          \
	r = RT_H5_REAL(name) args;                                                              \
	t1 = rt_now();                                                                          \
	err = errno;                                                                            \
	rt_self()->trace_under = 0;                                                             \
	rt_self()->above = (struct rt_above){NULL, NULL, NULL};                                 \
	h5_event_start(&rt_ev, rt_rec);                                                         \
	if (r >= 0 && rt_rec)                                                                   \
		post;                                                                           \
	rt_lock();                                                                              \
	if (rt_rec && r < 0)                                                                    \
		rt_record_failure(rt_rec, rt_rec->module, #name, err);                          \
	else if (rt_rec)                                                                        \
		handler;                                                                        \
	h5_trace(#op, &rt_ev, r < 0, err, t0, t1, mark);                                        \
	rt_unlock();                                                                            \
	rt_end(RT_IN_HDF5);                                                                     \
	errno = err ? err : before;                                                             \
	return r;

#ifdef RT_STATIC
#define RT_H5_CALLERS(name) RT_H5_REAL(name)
#else
/* The definition of name the calling function links, when two copies of HDF5 are loaded. */
#define RT_H5_CALLERS(name)                                                          \
	__extension__({                                                              \
		__typeof__(RT_H5_REAL(name)) rt_fn = RT_H5_REAL(name);               \
		void *rt_dflt, *rt_sym;                                              \
		memcpy(&rt_dflt, &rt_fn, sizeof(rt_dflt));                           \
		rt_sym = h5_for_caller(#name, __builtin_return_address(0), rt_dflt); \
		memcpy(&rt_fn, &rt_sym, sizeof(rt_fn));                              \
		rt_fn;                                                               \
	})
#endif

/* Asks HDF5 (stmt uses &asking) with its error printing off. */
#define RT_H5_ASKING(name, stmt)                      \
	do {                                          \
		ask_begin(&asking, RT_H5_SLOT(name)); \
		stmt;                                 \
		ask_end(&asking);                     \
	} while (0)

/*
 * H5Fcreate, H5Fopen: the file's record from the name given (without a
 * ROMIO "driver:" prefix, as MPI-IO's), its properties after.
 */
#define RT_H5_BODY_FOPEN(ret, name, args, op, path_e, flags_e, fapl_e)                      \
	char fname[PATH_MAX];                                                               \
	struct h5_asking asking;                                                            \
	size_t flen = 0;                                                                    \
	int64_t facts[H5F_NUM_INDICES] = {0};                                               \
	int asked = 0;                                                                      \
	h5_copies_check();                                                                  \
	RT_H5_WRAP(                                                                         \
		ret, name, op, args, flen = rt_mpi_file_path(path_e, fname, sizeof(fname)), \
		rt_rec = flen && rt_config_path_recorded(&rt.config, fname)                 \
				 ? rt_record_get(IOA_MOD_H5F, fname, flen)                  \
				 : NULL,                                                    \
		{                                                                           \
			RT_H5_ASKING(name, asked = file_facts(&asking, r, fapl_e, facts));  \
			rt_ev.v[0] = (int64_t)(flags_e);                                    \
			rt_ev.v[2] = h5_fapl_comm(fapl_e);                                  \
		},                                                                          \
		h5_file_open(rt_rec, r, asked ? facts : NULL, t0, t1))

/*
 * H5Pset_fapl_mpio: made whatever the runtime's state, the MPI calls it
 * makes (its copy of the communicator) traced as HDF5's, underneath, as
 * those of the calls that open the file; after a success the list's
 * communicator is remembered for the files it opens.
 */
#define RT_H5_BODY_FAPL(ret, name, args, op, fapl_e, comm_e)                         \
	ret r;                                                                       \
	int err;                                                                     \
	unsigned under;                                                              \
	if (!RT_H5_RESOLVED(name))                                                   \
		return (ret)-1;                                                      \
	rt_init(); /* rt_self(): (from a library's constructor run before ours) */   \
	under = rt_self()->trace_under;                                              \
	rt_self()->trace_under = IOA_TR_UNDER;                                       \
	r = __atomic_load_n(&h5_copies, __ATOMIC_RELAXED) ? RT_H5_CALLERS(name) args \
							  : RT_H5_REAL(name) args;   \
	rt_self()->trace_under = under;                                              \
	if (r >= 0 && h5_layer_on(RT_H5_SLOT(name)) && rt_begin(RT_IN_HDF5)) {       \
		err = errno;                                                         \
		rt_lock();                                                           \
		h5_fapl_set(fapl_e, comm_e);                                         \
		rt_unlock();                                                         \
		rt_end(RT_IN_HDF5);                                                  \
		errno = err;                                                         \
	}                                                                            \
	return r;

#define RT_H5_BODY_FFLUSH(ret, name, args, op, object_e)                                 \
	RT_H5_WRAP(ret, name, op, args, (void)0, rt_rec = h5_file_of(object_e), (void)0, \
		   (rt_rec->counters[H5F_FLUSHES]++, meta_time(rt_rec, t0, t1)))

#define RT_H5_BODY_FCLOSE(ret, name, args, op, file_e)                          \
	RT_H5_WRAP(ret, name, op, args, (void)0,                                \
		   rt_rec = h5_open_of(file_e, IOA_MOD_H5F, &rt_file), (void)0, \
		   h5_close(file_e, rt_rec, t0, t1))

/*
 * H5Dcreate*, H5Dopen*, H5Oopen: the dataset's name before; its record
 * made only when the open succeeded (a failed open, or the probe of a name
 * that is not there, counts on the file, as does the open's own I/O) and,
 * for H5Oopen (any: any kind of object), opened a dataset; its facts
 * after: the shape every time, element size and chunks when it was
 * created or is new to the runtime.
 */
#define RT_H5_BODY_DOPEN(ret, name, args, op, loc_e, name_e, created, deprecated, any)           \
	struct h5_asking asking;                                                                 \
	char dname[PATH_MAX + 256];                                                              \
	size_t dlen = 0, flen = 0;                                                               \
	int64_t facts[H5D_NUM_INDICES] = {0};                                                    \
	int all = 1, dset = !(any);                                                              \
	RT_H5_WRAP(                                                                              \
		ret, name, op, args,                                                             \
		dlen = dataset_name(&asking, RT_H5_SLOT(name), loc_e, name_e, dname,             \
				    sizeof(dname), &flen),                                       \
		(rt_file = rt_rec =                                                              \
			 dlen && file_recorded(dname, flen)                                      \
				 ? rt_record_find(IOA_MOD_H5F, rt_record_id(dname, flen))        \
				 : NULL,                                                         \
		 all = (created) || h5_dataset_new(dname, dlen)),                                \
		RT_H5_ASKING(name, (dset = dset || is_dataset(&asking, r))                       \
					   ? dataset_facts(&asking, r, all, facts, &rt_ev)       \
					   : (void)0),                                           \
		(void)(dset ? (h5_dataset_open(rt_record_get(IOA_MOD_H5D, dname, dlen), rt_file, \
					       r, facts, all, deprecated, t0, t1, &rt_ev),       \
			       1)                                                                \
			    : (rt_ev.rec = NULL, 0)))

/* H5Dread, H5Dwrite: what moved, asked after a success (every identifier then valid). */
#define RT_H5_BODY_DIO(ret, name, args, op, is_write, dset_e, mtype_e, mspace_e, fspace_e, dxpl_e) \
	struct h5_access access;                                                                   \
	struct h5_asking asking;                                                                   \
	int64_t elem = 0;                                                                          \
	RT_H5_WRAP(ret, name, op, args, (void)0,                                                   \
		   (rt_rec = h5_open_of(dset_e, IOA_MOD_H5D, &rt_file),                            \
		    elem = rt_rec ? rt_rec->counters[H5D_DATATYPE_SIZE] : 0),                      \
		   RT_H5_ASKING(name, access_of(&asking, dset_e, mtype_e, mspace_e, fspace_e,      \
						dxpl_e, elem, &access, &rt_ev)),                   \
		   h5_dataset_io(rt_rec, is_write, &access, t0, t1))

/*
 * H5Dread_multi, H5Dwrite_multi (1.14): each dataset's part is a read or
 * write of its own (h5_multi_io()).  What the call issued underneath counts
 * on the dataset when every part is of one, else on the first recorded
 * part's file.
 */
#define RT_H5_BODY_MIO(ret, name, args, op, is_write, count_e, dsets_e, mtypes_e, mspaces_e,       \
		       fspaces_e, dxpl_e)                                                          \
	struct h5_asking asking;                                                                   \
	RT_H5_WRAP(ret, name, op, args, (void)0, rt_rec = h5_multi_of(count_e, dsets_e, &rt_file), \
		   (h5_multi_io(&asking, RT_H5_SLOT(name), #op, is_write, count_e, dsets_e,        \
				mtypes_e, mspaces_e, fspaces_e, dxpl_e, t0, t1, mark),             \
		    rt_ev.rec = NULL),                                                             \
		   (void)0)

#define RT_H5_BODY_DFLUSH(ret, name, args, op, dset_e)                          \
	RT_H5_WRAP(ret, name, op, args, (void)0,                                \
		   rt_rec = h5_open_of(dset_e, IOA_MOD_H5D, &rt_file), (void)0, \
		   (rt_rec->counters[H5D_FLUSHES]++, meta_time(rt_rec, t0, t1)))

#define RT_H5_BODY_DCLOSE(ret, name, args, op, dset_e)                          \
	RT_H5_WRAP(ret, name, op, args, (void)0,                                \
		   rt_rec = h5_open_of(dset_e, IOA_MOD_H5D, &rt_file), (void)0, \
		   h5_close(dset_e, rt_rec, t0, t1))

/* H5Oclose, H5Idec_ref: a file's or dataset's identifier that goes away is closed. */
#define RT_H5_BODY_OCLOSE(ret, name, args, op, object_e, last_e)                             \
	RT_H5_WRAP(ret, name, op, args, (void)0, rt_rec = h5_open_of(object_e, 0, &rt_file), \
		   (void)0,                                                                  \
		   (void)((last_e) == 0 ? (h5_close(object_e, rt_rec, t0, t1), 1)            \
					: (rt_ev.rec = NULL, 0)))

/* The handlers, under the lock. */

/*
 * A call's trace event, after the calls it made underneath (rt_trace.h),
 * the dimensions' events first; a failure carries only its error.
 */
static void h5_trace(const char *op, const struct h5_event *ev, int failed, int err, double t0,
		     double t1, uint64_t mark)
{
	uint64_t at = t0 > 0 ? (uint64_t)t0 : 0;
	int i, k;

	if (!rt_tracing || !ev->rec)
		return;
	for (i = 0; i < 2 && !failed; i++)
		for (k = 0; ev->dim_op[i] && k < ev->ndims; k++)
			rt_trace_layer(ev->dim_op[i], ev->rec->module, ev->rec, 0, ev->dim[i][k][0],
				       ev->dim[i][k][1], ev->dim[i][k][2], 0, t0, t0, at);
	rt_trace_layer(op, ev->rec->module, ev->rec, failed ? IOA_TR_FAILED : 0,
		       failed ? 0 : ev->v[0], failed ? 0 : ev->v[1], failed ? 0 : ev->v[2],
		       failed ? err : 0, t0, t1, mark);
}

/* facts: the file-access properties asked after it opened, or NULL when they could not be. */
static void h5_file_open(struct rt_record *rec, rt_hid_t id, const int64_t *facts, double t0,
			 double t1)
{
	int64_t *c = rec->counters;
	int i;

	c[H5F_OPENS]++;
	for (i = H5F_USE_COLL_METADATA_OPS; facts && i <= H5F_CHUNK_CACHE_BYTES; i++)
		c[i] = facts[i];
	rt_set_first(&rec->fcounters[H5F_F_OPEN_START_TIMESTAMP], t0);
	rt_set_last(&rec->fcounters[H5F_F_OPEN_END_TIMESTAMP], t1);
	meta_time(rec, t0, t1);
	rt_handle_set(&rt_hdf5_handles, id, rec, rec);
}

/* The file record of any object of the file: the file itself, or one of its datasets. */
static struct rt_record *h5_file_of(rt_hid_t id)
{
	struct rt_handle *h = rt_handle_find(rt_hdf5_handles, id);

	return h ? h->file : NULL;
}

/* The record of an open file or dataset (module: which; 0 either), and its file's. */
static struct rt_record *h5_open_of(rt_hid_t id, enum ioa_module module, struct rt_record **file)
{
	struct rt_handle *h = rt_handle_find(rt_hdf5_handles, id);

	if (!h || (module && h->rec->module != module))
		return NULL;
	*file = h->file;
	return h->rec;
}

/* Whether the runtime has not seen the dataset named so opened yet. */
static int h5_dataset_new(const char *name, size_t len)
{
	struct rt_record *rec = len ? rt_record_find(IOA_MOD_H5D, rt_record_id(name, len)) : NULL;

	return !rec || !rec->counters[H5D_OPENS];
}

/* A close that succeeded: the identifier is gone (HDF5 hands out none twice since 1.10). */
static void h5_close(rt_hid_t id, struct rt_record *rec, double t0, double t1)
{
	int h5f = rec->module == IOA_MOD_H5F;
	struct rt_handle *h = rt_handle_find(rt_hdf5_handles, id);

	if (h)
		rt_handle_drop(rt_hdf5_handles, h);
	rt_set_first(
		&rec->fcounters[h5f ? H5F_F_CLOSE_START_TIMESTAMP : H5D_F_CLOSE_START_TIMESTAMP],
		t0);
	rt_set_last(&rec->fcounters[h5f ? H5F_F_CLOSE_END_TIMESTAMP : H5D_F_CLOSE_END_TIMESTAMP],
		    t1);
	meta_time(rec, t0, t1);
}

/* all: the facts include the element size and chunks (asked: created, or new to the runtime). */
static void h5_dataset_open(struct rt_record *rec, struct rt_record *file, rt_hid_t id,
			    const int64_t *facts, int all, int deprecated, double t0, double t1,
			    struct h5_event *ev)
{
	int64_t *c;
	int i;

	ev->rec = rec;
	if (!rec)
		return;
	c = rec->counters;
	c[H5D_OPENS]++;
	c[H5D_USE_DEPRECATED] |= deprecated;
	c[H5D_FILE_REC_ID] = (int64_t)file->id;
	c[H5D_DATASPACE_NDIMS] = facts[H5D_DATASPACE_NDIMS];
	c[H5D_DATASPACE_NPOINTS] = facts[H5D_DATASPACE_NPOINTS];
	if (all) {
		c[H5D_DATATYPE_SIZE] = facts[H5D_DATATYPE_SIZE];
		for (i = H5D_CHUNK_SIZE_D1; i <= H5D_CHUNK_SIZE_D5; i++)
			c[i] = facts[i];
	}
	rt_set_first(&rec->fcounters[H5D_F_OPEN_START_TIMESTAMP], t0);
	rt_set_last(&rec->fcounters[H5D_F_OPEN_END_TIMESTAMP], t1);
	meta_time(rec, t0, t1);
	rt_handle_set(&rt_hdf5_handles, id, rec, file);
	ev->v[1] = c[H5D_DATATYPE_SIZE];
}

static void h5_dataset_io(struct rt_record *rec, int is_write, const struct h5_access *x, double t0,
			  double t1)
{
	int64_t *c = rec->counters;

	c[is_write ? H5D_WRITES : H5D_READS]++;
	/* Darshan's: a whole-dataset selection (H5S_ALL) counts as neither kind. */
	if (x->sel == H5_SEL_POINTS)
		c[H5D_POINT_SELECTS]++;
	else if (x->sel == H5_SEL_HYPERSLABS)
		c[x->regular ? H5D_REGULAR_HYPERSLAB_SELECTS : H5D_IRREGULAR_HYPERSLAB_SELECTS]++;
	c[H5D_USE_MPIIO_COLLECTIVE] |= x->collective;
	rt_layer_io(rec, is_write, x->bytes, x->key, t0, t1);
}

/*
 * The record a multi-dataset call's calls underneath count on: the
 * dataset every part is of, else the first recorded part's file (*file
 * then NULL).  Under the lock.
 */
static struct rt_record *h5_multi_of(size_t count, const rt_hid_t *dsets, struct rt_record **file)
{
	struct rt_record *first = NULL, *rec, *f;
	size_t i;
	int one = 1;

	for (i = 0; dsets && i < count; i++) {
		rec = h5_open_of(dsets[i], IOA_MOD_H5D, &f);
		if (!first && rec) {
			first = rec;
			*file = f;
		}
		one = one && rec == first;
	}
	if (first && !one) {
		first = *file;
		*file = NULL;
	}
	return first;
}

/*
 * After a multi-dataset call succeeded, each part on its dataset as a read
 * or write of its own (op in the trace), with an even share of the call's
 * time; asked and recorded part by part, so no part's dimensions wait in
 * memory for the others.
 */
static void h5_multi_io(struct h5_asking *a, const void *slot, const char *op, int is_write,
			size_t count, const rt_hid_t *dsets, const rt_hid_t *mtypes,
			const rt_hid_t *mspaces, const rt_hid_t *fspaces, rt_hid_t dxpl, double t0,
			double t1, uint64_t mark)
{
	double share = count ? (t1 - t0) / (double)count : 0;
	struct rt_record *rec, *file;
	struct h5_access x;
	struct h5_event ev;
	int64_t elem;
	size_t i;

	for (i = 0; i < count; i++) {
		double s = t0 + share * (double)i, e = s + share;

		rt_lock();
		rec = h5_open_of(dsets[i], IOA_MOD_H5D, &file);
		elem = rec ? rec->counters[H5D_DATATYPE_SIZE] : 0;
		rt_unlock();
		if (!rec)
			continue;
		h5_event_start(&ev, rec);
		ask_begin(a, slot);
		access_of(a, dsets[i], mtypes[i], mspaces[i], fspaces[i], dxpl, elem, &x, &ev);
		ask_end(a);
		rt_lock();
		h5_dataset_io(rec, is_write, &x, s, e);
		/* The parts after the first follow it with no compute between. */
		h5_trace(op, &ev, 0, 0, s, e, i ? (uint64_t)s : mark);
		rt_unlock();
	}
}

#define RT_H5_DEFINE(ret, name, params, args, op, kind, ...)                \
	RT_EXPORT ret rt_h5_wrapper_##name params __asm__(RT_H5_SYM(name)); \
	RT_EXPORT ret rt_h5_wrapper_##name params                           \
	{                                                                   \
		RT_H5_BODY_##kind(ret, name, args, op, __VA_ARGS__)         \
	}
RT_HDF5_CALLS(RT_H5_DEFINE)
