/*
 * rt_pnetcdf — the PnetCDF layer's wrappers and handlers (see rt_pnetcdf.h).
 *
 * A read or write names its variable by file and variable id: the
 * variable's record is found through the table of open handles
 * (rt_handles.h), keyed by both, or made at its first use from its name,
 * type and shape asked of PnetCDF (whether the program defined it, looked
 * it up or just knew its id).  What a call moved is reckoned after it
 * succeeded, from its start, count and stride arrays (every one of them
 * then known to be valid): the elements it covered in the file times the
 * size of the variable's type in the file (NC_INT: 4), as a netCDF file
 * holds them, whatever the type in memory; a vard call's as the size of
 * its MPI file type, asked of the MPI library.  Non-blocking calls count when they
 * are posted, their waits on the file.  PnetCDF reports failures by its
 * return value (NC_NOERR, else a negative NC_E* code): a failure is
 * recorded with that code, and errno stays as the call left it.
 */
#define _GNU_SOURCE
#include "rt_pnetcdf.h"

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "rt_core.h"
#include "rt_handles.h"
#include "rt_mpi_bind.h"
#include "rt_pnetcdf_calls.h"
#include "rt_posix.h"
#include "rt_records.h"

#define RT_EXPORT __attribute__((visibility("default")))

/* netCDF's values this module reads. */
#define NC_OK	    0
#define NC_INTERNAL (-92) /* NC_EINTERNAL: what a call returns when PnetCDF is not there */
#define NC_NAME_MAX 256	  /* NC_MAX_NAME */
#define NC_DIMS	    64	  /* variables of more dimensions are counted without bytes */
#define NC_TYPES    11	  /* NC_BYTE 1 .. NC_UINT64 11 */
static const int type_size[NC_TYPES + 1] = {0, 1, 1, 2, 4, 4, 8, 1, 2, 4, 8, 8};

/* The functions the wrappers ask PnetCDF with. */
#define RT_NC_QUERIES(Q)                                  \
	Q(int, ncmpi_inq_varname, (int, int, char *))     \
	Q(int, ncmpi_inq_vartype, (int, int, int *))      \
	Q(int, ncmpi_inq_varndims, (int, int, int *))     \
	Q(int, ncmpi_inq_vardimid, (int, int, int *))     \
	Q(int, ncmpi_inq_dimlen, (int, int, long long *)) \
	Q(int, ncmpi_inq_unlimdim, (int, int *))          \
	Q(int, ncmpi_inq_put_size, (int, long long *))    \
	Q(int, ncmpi_inq_get_size, (int, long long *))

static struct {
#define RT_NC_QUERY_SLOT(ret, name, params) ret(*name) params;
	RT_NC_QUERIES(RT_NC_QUERY_SLOT)
#undef RT_NC_QUERY_SLOT
	int state; /* 0 unresolved, 1 resolved, -1 not to be had (published with release) */
} ncq;

/* The next definition of name into *slot (errno kept); 0 when there is none. */
static int nc_resolve(const char *name, void *slot)
{
	int saved_errno = errno;
	void *sym = dlsym(RTLD_NEXT, name);

	memcpy(slot, &sym, sizeof(sym));
	errno = saved_errno;
	return sym != NULL;
}

/* The query functions, once: the layer stays off without them. */
static int nc_layer_on(void)
{
	int state = __atomic_load_n(&ncq.state, __ATOMIC_ACQUIRE);

	if (state)
		return state > 0;
	state = 1;
#define RT_NC_QUERY_FIND(ret, name, params)        \
	if (!nc_resolve(#name, (void *)&ncq.name)) \
		state = -1;
	RT_NC_QUERIES(RT_NC_QUERY_FIND)
#undef RT_NC_QUERY_FIND
	__atomic_store_n(&ncq.state, state, __ATOMIC_RELEASE);
	return state > 0;
}

/*
 * Handles' keys: a file's by its id, a variable's (varid 0 and up: never
 * NC_GLOBAL, -1, which would take the file's key) by both; none is 0.
 */
#define NC_FILE_KEY(ncid)	((int64_t)((uint64_t)(uint32_t)(ncid) + 1) << 32)
#define NC_VAR_KEY(ncid, varid) (NC_FILE_KEY(ncid) | (int64_t)((uint32_t)(varid) + 1))

/* Asking PnetCDF: our own calls unrecorded, errno kept. */
static int ask_begin(void)
{
	int saved_errno = errno;

	rt_self()->inside |= RT_IN_RUNTIME;
	return saved_errno;
}

static void ask_end(int saved_errno)
{
	rt_self()->inside &= ~RT_IN_RUNTIME;
	errno = saved_errno;
}

/*
 * A variable as PnetCDF describes it.  Its dimensions' current lengths
 * are asked only when needed (with_dims): a record variable's first
 * dimension grows with every record written.
 */
struct nc_var {
	int ndims;		 /* -1 when it could not be told */
	int size;		 /* of one element in the file; 0 unknown */
	int record;		 /* its first dimension is the unlimited one */
	int dims_known;		 /* dims holds the lengths (at most NC_DIMS of them) */
	long long dims[NC_DIMS]; /* the first the slowest-varying */
};

static void var_ask(int ncid, int varid, int with_dims, struct nc_var *v)
{
	int type = 0, ids[NC_DIMS], unlim = -1, k, saved = ask_begin();

	v->size = v->record = v->dims_known = 0;
	if (ncq.ncmpi_inq_vartype(ncid, varid, &type) == NC_OK && type > 0 && type <= NC_TYPES)
		v->size = type_size[type];
	if (ncq.ncmpi_inq_varndims(ncid, varid, &v->ndims) != NC_OK || v->ndims < 0)
		v->ndims = -1;
	if (v->ndims >= 0 && v->ndims <= NC_DIMS &&
	    ncq.ncmpi_inq_vardimid(ncid, varid, ids) == NC_OK) {
		v->record = v->ndims > 0 && ncq.ncmpi_inq_unlimdim(ncid, &unlim) == NC_OK &&
			    unlim >= 0 && ids[0] == unlim;
		v->dims_known = with_dims;
		for (k = 0; with_dims && k < v->ndims; k++)
			if (ncq.ncmpi_inq_dimlen(ncid, ids[k], &v->dims[k]) != NC_OK ||
			    v->dims[k] < 0)
				v->dims_known = 0;
	}
	ask_end(saved);
}

/* A variable's elements, or -1 when its shape is not known. */
static int64_t var_points(const struct nc_var *v)
{
	int64_t points = 1;
	int k;

	if (!v->dims_known)
		return -1;
	for (k = 0; k < v->ndims; k++)
		points = v->dims[k] && points <= INT64_MAX / v->dims[k]
				 ? points * v->dims[k]
				 : (v->dims[k] ? INT64_MAX : 0);
	return points;
}

/*
 * The record of variable varid of file ncid, and in *file its file's
 * record: from the table, or made at the variable's first use; in *v what
 * the record says of it (without the dimensions' lengths).  NULL when the
 * file is not one the runtime records or the variable cannot be named (an
 * id PnetCDF does not know, NC_GLOBAL: the call fails).  A variable past
 * the records' room shares the module's folded record, which keeps no
 * shape: its own is asked every time.
 */
static struct rt_record *nc_var_of(int ncid, int varid, struct rt_record **file, struct nc_var *v)
{
	char name[PATH_MAX + NC_NAME_MAX + 2];
	struct rt_record *rec = NULL;
	struct rt_handle *h;
	size_t len = 0;
	int saved, named;

	int folded = 0;

	*file = NULL;
	rt_lock();
	if (varid < 0) {
		if ((h = rt_handle_find(rt_pnetcdf_handles, NC_FILE_KEY(ncid))))
			*file = h->rec;
	} else if ((h = rt_handle_find(rt_pnetcdf_handles, NC_VAR_KEY(ncid, varid)))) {
		rec = h->rec;
		*file = h->file;
		folded = (rec->flags & IOA_REC_FOLDED) != 0;
		v->ndims = (int)rec->counters[PNETCDF_VAR_NDIMS];
		v->size = (int)rec->counters[PNETCDF_VAR_DATATYPE_SIZE];
		v->record = (int)rec->counters[PNETCDF_VAR_IS_RECORD_VAR];
		v->dims_known = 0;
	} else if ((h = rt_handle_find(rt_pnetcdf_handles, NC_FILE_KEY(ncid))) &&
		   (len = strlen(h->rec->name)) < PATH_MAX) {
		*file = h->rec;
		memcpy(name, h->rec->name, len);
		name[len++] = ':';
	}
	rt_unlock();
	if (folded)
		var_ask(ncid, varid, 0, v);
	if (rec || !*file || varid < 0)
		return rec;
	saved = ask_begin();
	named = ncq.ncmpi_inq_varname(ncid, varid, name + len) == NC_OK;
	ask_end(saved);
	if (!named)
		return NULL;
	name[sizeof(name) - 1] = '\0';
	var_ask(ncid, varid, 1, v);
	if (v->ndims < 0)
		return NULL;
	len += strlen(name + len);
	rt_lock();
	rec = rt_record_get(IOA_MOD_PNETCDF_VAR, name, len);
	if (!(rec->flags & IOA_REC_FOLDED)) {
		rec->counters[PNETCDF_VAR_NDIMS] = v->ndims;
		if (var_points(v) >= 0)
			rec->counters[PNETCDF_VAR_NPOINTS] = var_points(v);
		rec->counters[PNETCDF_VAR_DATATYPE_SIZE] = v->size;
		rec->counters[PNETCDF_VAR_IS_RECORD_VAR] = v->record;
		rec->counters[PNETCDF_VAR_FILE_REC_ID] = (int64_t)(*file)->id;
	}
	rt_handle_set(&rt_pnetcdf_handles, NC_VAR_KEY(ncid, varid), rec, *file);
	rt_unlock();
	return rec;
}

/* The PnetCDF call this thread is in, for the calls it makes underneath. */
static void above_set(struct rt_record *rec)
{
	if (rec && rec->module == IOA_MOD_PNETCDF_VAR)
		rt_self()->above =
			(struct rt_above){&rec->counters[PNETCDF_VAR_MPIIO_SUBCALLS],
					  &rec->counters[PNETCDF_VAR_POSIX_SUBCALLS], NULL};
	else if (rec)
		rt_self()->above =
			(struct rt_above){&rec->counters[PNETCDF_FILE_MPIIO_SUBCALLS],
					  &rec->counters[PNETCDF_FILE_POSIX_SUBCALLS], NULL};
}

static void meta_time(struct rt_record *rec, double t0, double t1)
{
	rt_add_time(&rec->fcounters[rec->module == IOA_MOD_PNETCDF_FILE ? PNETCDF_FILE_F_META_TIME
									: PNETCDF_VAR_F_META_TIME],
		    &rec->meta_end, t0, t1);
}

/* The file record of an open file id, or NULL. */
static struct rt_record *nc_file_of(int ncid)
{
	struct rt_handle *h = rt_handle_find(rt_pnetcdf_handles, NC_FILE_KEY(ncid));

	return h ? h->rec : NULL;
}

/*
 * The shape of the file and variable calls' wrappers: call through when
 * the layer is off (no PnetCDF to ask) or the runtime is off or this
 * thread is already inside PnetCDF (or the runtime); otherwise pre
 * (outside the lock), find the record under the lock, make the real call
 * with the layer above marked for what it issues underneath, then post
 * (after a success only, outside the lock), and under the lock always
 * (whatever the call did) then the handler, or the failure.
 */
#define RT_NC_WRAP(name, params, args, pre, find, post, always, handler) \
	static int(*real) params;                                        \
	struct rt_record *rt_rec = NULL;                                 \
	double t0, t1;                                                   \
	int r, err;                                                      \
	if (!real && !nc_resolve(#name, (void *)&real))                  \
		return NC_INTERNAL;                                      \
	if (!nc_layer_on() || !rt_begin(RT_IN_PNETCDF))                  \
		return real args;                                        \
	pre;                                                             \
	rt_lock();                                                       \
	find;                                                            \
	rt_unlock();                                                     \
	above_set(rt_rec);                                               \
	t0 = rt_now();                                                   \
	r = real args;                                                   \
	t1 = rt_now();                                                   \
	err = errno;                                                     \
	rt_self()->above = (struct rt_above){NULL, NULL, NULL};          \
	if (r == NC_OK && rt_rec)                                        \
		post;                                                    \
	rt_lock();                                                       \
	always;                                                          \
	if (rt_rec && r != NC_OK)                                        \
		rt_record_failure(rt_rec, rt_rec->module, #name, r);     \
	else if (rt_rec)                                                 \
		handler;                                                 \
	rt_unlock();                                                     \
	rt_end(RT_IN_PNETCDF);                                           \
	errno = err;                                                     \
	return r;

/*
 * ncmpi_create, ncmpi_open: the file's record from the name given (without
 * a ROMIO prefix).  An id PnetCDF hands out again after a close keeps
 * nothing of the old file's, recorded or not.
 */
#define RT_NC_BODY_FOPEN(name, params, args, path_e, ncidp_e, created)                       \
	char fname[PATH_MAX];                                                                \
	size_t len = 0;                                                                      \
	RT_NC_WRAP(name, params, args, len = rt_mpi_file_path(path_e, fname, sizeof(fname)), \
		   rt_rec = len && rt_config_path_recorded(&rt.config, fname)                \
				    ? rt_record_get(IOA_MOD_PNETCDF_FILE, fname, len)        \
				    : NULL,                                                  \
		   (void)0, (void)(r == NC_OK && (nc_forget(*(ncidp_e)), 1)),                \
		   nc_file_open(rt_rec, *(ncidp_e), created, t0, t1))

/*
 * ncmpi_close, ncmpi_abort: the bytes the library moved for the file (its
 * header's too), asked before; the id is gone even when the call failed.
 * It is forgotten before the call, while it is still this file's: once the
 * call returns, another thread's ncmpi_create or ncmpi_open may be handed
 * it, and its handles are then that file's.
 */
#define RT_NC_BODY_FCLOSE(name, params, args, ncid_e)                                  \
	long long moved[2] = {0, 0};                                                   \
	RT_NC_WRAP(name, params, args, nc_moved(ncid_e, moved),                        \
		   (rt_rec = nc_file_of(ncid_e), nc_forget(ncid_e)), (void)0, (void)0, \
		   nc_file_close(rt_rec, moved, t0, t1))

#define RT_NC_BODY_FMETA(name, params, args, ncid_e, counter)                                  \
	RT_NC_WRAP(name, params, args, (void)0, rt_rec = nc_file_of(ncid_e), (void)0, (void)0, \
		   nc_file_meta(rt_rec, counter, t0, t1))

/* ncmpi_def_var, ncmpi_inq_varid: the variable's record once it has an id. */
#define RT_NC_BODY_VOPEN(name, params, args, ncid_e, name_e, varidp_e)       \
	struct rt_record *var = NULL, *file = NULL;                          \
	struct nc_var v;                                                     \
	(void)(name_e);                                                      \
	RT_NC_WRAP(name, params, args, (void)0, rt_rec = nc_file_of(ncid_e), \
		   var = nc_var_of(ncid_e, *(varidp_e), &file, &v), (void)0, \
		   nc_var_open(var, t0, t1))

#define RT_NC_BODY_WAIT(name, params, args, ncid_e, collective)                                    \
	RT_NC_WRAP(name, params, args, (void)0, rt_rec = nc_file_of(ncid_e), (void)0,              \
		   (void)(r != NC_OK && rt_rec && rt_rec->counters[PNETCDF_FILE_WAIT_FAILURES]++), \
		   nc_wait(rt_rec, collective, t0, t1))

/* The handlers, under the lock. */

static void nc_file_open(struct rt_record *rec, int ncid, int created, double t0, double t1)
{
	rec->counters[created ? PNETCDF_FILE_CREATES : PNETCDF_FILE_OPENS]++;
	rt_set_first(&rec->fcounters[PNETCDF_FILE_F_OPEN_START_TIMESTAMP], t0);
	rt_set_last(&rec->fcounters[PNETCDF_FILE_F_OPEN_END_TIMESTAMP], t1);
	meta_time(rec, t0, t1);
	rt_handle_set(&rt_pnetcdf_handles, NC_FILE_KEY(ncid), rec, rec);
}

/* Forgets file id ncid and its variables' ids. */
static void nc_forget(int ncid)
{
	rt_handle_drop_range(rt_pnetcdf_handles, NC_FILE_KEY(ncid), NC_FILE_KEY(ncid) | 0xffffffff);
}

/* The bytes the library read and wrote for an open file so far (outside the lock). */
static void nc_moved(int ncid, long long moved[2])
{
	int saved;

	if (!nc_layer_on())
		return;
	saved = ask_begin();
	if (ncq.ncmpi_inq_get_size(ncid, &moved[0]) != NC_OK)
		moved[0] = 0;
	if (ncq.ncmpi_inq_put_size(ncid, &moved[1]) != NC_OK)
		moved[1] = 0;
	ask_end(saved);
}

static void nc_file_close(struct rt_record *rec, const long long moved[2], double t0, double t1)
{
	rec->counters[PNETCDF_FILE_BYTES_READ] += moved[0];
	rec->counters[PNETCDF_FILE_BYTES_WRITTEN] += moved[1];
	rt_set_first(&rec->fcounters[PNETCDF_FILE_F_CLOSE_START_TIMESTAMP], t0);
	rt_set_last(&rec->fcounters[PNETCDF_FILE_F_CLOSE_END_TIMESTAMP], t1);
	meta_time(rec, t0, t1);
}

static void nc_file_meta(struct rt_record *rec, int counter, double t0, double t1)
{
	if (counter >= 0)
		rec->counters[counter]++;
	meta_time(rec, t0, t1);
}

static void nc_var_open(struct rt_record *var, double t0, double t1)
{
	if (!var)
		return;
	var->counters[PNETCDF_VAR_OPENS]++;
	rt_set_first(&var->fcounters[PNETCDF_VAR_F_OPEN_START_TIMESTAMP], t0);
	rt_set_last(&var->fcounters[PNETCDF_VAR_F_OPEN_END_TIMESTAMP], t1);
	meta_time(var, t0, t1);
}

static void nc_wait(struct rt_record *rec, int collective, double t0, double t1)
{
	rec->counters[collective ? PNETCDF_FILE_COLL_WAITS : PNETCDF_FILE_INDEP_WAITS]++;
	rt_set_first(&rec->fcounters[PNETCDF_FILE_F_WAIT_START_TIMESTAMP], t0);
	rt_set_last(&rec->fcounters[PNETCDF_FILE_F_WAIT_END_TIMESTAMP], t1);
	rec->fcounters[PNETCDF_FILE_F_WAIT_TIME] += t1 - t0;
}

#define RT_NC_DEFINE(name, params, args, kind, ...)                \
	RT_EXPORT int rt_nc_wrapper_##name params __asm__(#name);  \
	RT_EXPORT int rt_nc_wrapper_##name params                  \
	{                                                          \
		RT_NC_BODY_##kind(name, params, args, __VA_ARGS__) \
	}
RT_NC_CALLS(RT_NC_DEFINE)

/* Reads and writes. */

enum nc_op { NC_PUT, NC_GET, NC_IPUT, NC_IGET, NC_BPUT };
enum nc_kind { NC_VAR, NC_VAR1, NC_VARA, NC_VARS, NC_VARM, NC_VARN, NC_VARD };

/* What a read or write named in the file: the arguments its kind has (NULL: not given). */
struct nc_shape {
	enum nc_kind kind;
	const long long *start, *count, *stride;
	int num;
	long long *const *starts, *const *counts;
};

static inline struct nc_shape shape_of(enum nc_kind kind, const long long *start,
				       const long long *count, const long long *stride, int num,
				       long long *const *starts, long long *const *counts)
{
	return (struct nc_shape){kind, start, count, stride, num, starts, counts};
}

/* A read or write under way. */
struct nc_io {
	struct rt_record *rec, *file;
	struct nc_var v; /* the variable, as its record says */
	double t0;
};

/*
 * The bytes of an MPI datatype (a vard call's file type), asked of the
 * MPI library with the handle as the call passed it (either ABI: see
 * rt_nc_handle); -1 when it cannot be told.
 */
static int64_t mpi_type_bytes(rt_nc_handle type)
{
	static int (*size_of)(rt_nc_handle, long long *);
	static void *ompi_null;
	static int looked;
	long long bytes = -1;
	int saved = errno;
	void *sym;

	if (!__atomic_load_n(&looked, __ATOMIC_ACQUIRE)) {
		/*
		 * Open MPI's MPI_DATATYPE_NULL is this object's address: the
		 * program's copy of it when it was copy-relocated into the
		 * executable, which the global scope finds first (the address
		 * every object then uses); MPICH's ABI's is a constant.
		 */
		ompi_null = dlsym(RTLD_DEFAULT, "ompi_mpi_datatype_null");
		if (!ompi_null)
			ompi_null = rt_mpi_real("ompi_mpi_datatype_null");
		if ((sym = rt_mpi_real("PMPI_Type_size_x")))
			memcpy(&size_of, &sym, sizeof(sym));
		__atomic_store_n(&looked, 1, __ATOMIC_RELEASE);
	}
	/*
	 * A null file type is a request for nothing (a rank with no part in a
	 * collective vard), which PnetCDF accepts; MPI would take it for an
	 * error, fatal under the default handler.
	 */
	if (ompi_null ? type == (rt_nc_handle)ompi_null : (uint32_t)type == 0x0c000000u)
		bytes = 0;
	else if (!size_of || size_of(type, &bytes) != 0)
		bytes = -1;
	errno = saved;
	return bytes;
}

/*
 * The elements a call covered and its access (rt_accesses: the bytes,
 * then per dimension from the fastest-varying the length and stride),
 * from the variable's current shape v; -1 when they cannot be told.
 */
static int64_t shape_elements(const struct nc_shape *s, const struct nc_var *v,
			      int64_t key[RT_ACCESS_KEY])
{
	int64_t n = 0, one;
	int k, j;

	memset(key, 0, RT_ACCESS_KEY * sizeof(*key));
	if (v->ndims < 0 || (s->kind == NC_VAR && !v->dims_known))
		return -1;
	if (s->kind == NC_VARN) {
		for (j = 0; j < s->num; j++) {
			for (k = 0, one = 1; k < v->ndims; k++) {
				long long c = s->counts && s->counts[j] ? s->counts[j][k] : 1;

				one = c > 0 && one <= INT64_MAX / c ? one * c
								    : (c > 0 ? INT64_MAX : 0);
			}
			n = n <= INT64_MAX - one ? n + one : INT64_MAX;
		}
		return n;
	}
	for (k = 0, n = 1; k < v->ndims; k++) {
		long long c = s->kind == NC_VAR ? v->dims[k] : s->kind == NC_VAR1 ? 1 : s->count[k];
		long long stride =
			(s->kind == NC_VARS || s->kind == NC_VARM) && s->stride ? s->stride[k] : 1;
		int d = v->ndims - 1 - k; /* D1 is the last dimension */

		n = c > 0 && n <= INT64_MAX / c ? n * c : (c > 0 ? INT64_MAX : 0);
		if (d < 5) {
			key[1 + d] = c;
			key[6 + d] = stride;
		}
	}
	return n;
}

static int nc_io_begin(struct nc_io *io, int ncid, int varid)
{
	if (!nc_layer_on() || !rt_begin(RT_IN_PNETCDF))
		return 0;
	io->rec = nc_var_of(ncid, varid, &io->file, &io->v);
	above_set(io->rec ? io->rec : io->file);
	io->t0 = rt_now();
	return 1;
}

/* The counter of the call's kind: put, get, iput, iget, bput calls of each kind, then vard's. */
static int call_counter(enum nc_op op, enum nc_kind kind)
{
	static const int first[] = {PNETCDF_VAR_PUT_VAR, PNETCDF_VAR_GET_VAR, PNETCDF_VAR_IPUT_VAR,
				    PNETCDF_VAR_IGET_VAR, PNETCDF_VAR_BPUT_VAR};

	if (kind == NC_VARD)
		return op == NC_PUT ? PNETCDF_VAR_PUT_VARD : PNETCDF_VAR_GET_VARD;
	return first[op] + (int)kind;
}

/* What a read or write (from io->t0 to t1) did, on its variable's record. */
static void nc_io_record(struct nc_io *io, int r, const char *name, int ncid, int varid,
			 enum nc_op op, int collective, const struct nc_shape *s,
			 rt_nc_handle filetype, double t1)
{
	int is_write = op == NC_PUT || op == NC_IPUT || op == NC_BPUT;
	int64_t key[RT_ACCESS_KEY] = {0}, elements = -1, bytes = 0, points = -1;
	struct nc_var *v = &io->v;

	/* The whole variable's shape, and a record variable's that a write may have grown. */
	if (r == NC_OK && io->rec && (s->kind == NC_VAR || (v->record && is_write)))
		var_ask(ncid, varid, 1, v);
	if (r == NC_OK && io->rec) {
		if (s->kind == NC_VARD) {
			int64_t b = mpi_type_bytes(filetype);

			bytes = key[0] = b > 0 ? b : 0;
		} else if ((elements = shape_elements(s, v, key)) >= 0 && v->size > 0) {
			bytes = elements <= INT64_MAX / v->size ? elements * v->size : INT64_MAX;
			key[0] = bytes;
		}
		points = v->record && is_write ? var_points(v) : -1;
	}
	rt_lock();
	if (r != NC_OK && (io->rec || io->file))
		rt_record_failure(io->rec ? io->rec : io->file,
				  io->rec ? IOA_MOD_PNETCDF_VAR : IOA_MOD_PNETCDF_FILE, name, r);
	else if (io->rec) {
		int64_t *c = io->rec->counters;

		if (op == NC_PUT || op == NC_GET)
			c[is_write ? (collective ? PNETCDF_VAR_COLL_WRITES
						 : PNETCDF_VAR_INDEP_WRITES)
				   : (collective ? PNETCDF_VAR_COLL_READS
						 : PNETCDF_VAR_INDEP_READS)]++;
		else
			c[is_write ? PNETCDF_VAR_NB_WRITES : PNETCDF_VAR_NB_READS]++;
		c[call_counter(op, s->kind)]++;
		if (points >= 0)
			c[PNETCDF_VAR_NPOINTS] = points;
		rt_layer_io(io->rec, is_write, bytes, key, io->t0, t1);
	}
	rt_unlock();
}

static void nc_io_end(struct nc_io *io, int r, const char *name, int ncid, int varid, enum nc_op op,
		      int collective, const struct nc_shape *s, rt_nc_handle filetype)
{
	double t1 = rt_now();
	int err = errno;

	rt_self()->above = (struct rt_above){NULL, NULL, NULL};
	nc_io_record(io, r, name, ncid, varid, op, collective, s, filetype, t1);
	rt_end(RT_IN_PNETCDF);
	errno = err;
}

/*
 * The multi-variable reads and writes (mput, mget): one call, a request
 * per variable, each counted on its variable as the call of its kind
 * (ncmpi_mput_vara_all's requests as collective put_vara calls), with its
 * bytes and access and an even share of the call's time; what the call
 * issued underneath is its variable's when all its requests are on one,
 * else the file's.  A failed call counts once, on the file.
 */
static int nc_m_begin(int ncid, int num, const int *varids, double *t0)
{
	struct rt_record *file, *var = NULL;
	struct nc_var v;
	int i = 1;

	if (!nc_layer_on() || !rt_begin(RT_IN_PNETCDF))
		return 0;
	while (varids && i < num && varids[i] == varids[0])
		i++;
	if (varids && num > 0 && i == num)
		var = nc_var_of(ncid, varids[0], &file, &v);
	else {
		rt_lock();
		file = nc_file_of(ncid);
		rt_unlock();
	}
	above_set(var ? var : file);
	*t0 = rt_now();
	return 1;
}

static void nc_m_end(int r, const char *name, int ncid, int num, const int *varids, enum nc_op op,
		     int collective, enum nc_kind kind, long long *const *starts,
		     long long *const *counts, long long *const *strides, double t0)
{
	double t1 = rt_now(), share = num > 0 ? (t1 - t0) / num : 0;
	int err = errno, i;

	rt_self()->above = (struct rt_above){NULL, NULL, NULL};
	if (r != NC_OK) {
		struct rt_record *file;

		rt_lock();
		if ((file = nc_file_of(ncid)))
			rt_record_failure(file, IOA_MOD_PNETCDF_FILE, name, r);
		rt_unlock();
	}
	for (i = 0; r == NC_OK && varids && i < num; i++) {
		struct nc_io io;
		const struct nc_shape shape =
			shape_of(kind, starts ? starts[i] : NULL, counts ? counts[i] : NULL,
				 strides ? strides[i] : NULL, 0, NULL, NULL);

		io.rec = nc_var_of(ncid, varids[i], &io.file, &io.v);
		io.t0 = t0 + share * i;
		nc_io_record(&io, r, name, ncid, varids[i], op, collective, &shape, 0,
			     t0 + share * (i + 1));
	}
	rt_end(RT_IN_PNETCDF);
	errno = err;
}

/* The parameters and arguments of each kind of read or write (B: the buffer's type). */
#define RT_NC_P_var(B, F, Q)  (int ncid, int varid, B buf F Q)
#define RT_NC_A_var(F, Q)     (ncid, varid, buf F Q)
#define RT_NC_S_var	      shape_of(NC_VAR, NULL, NULL, NULL, 0, NULL, NULL)
#define RT_NC_P_var1(B, F, Q) (int ncid, int varid, const long long *start, B buf F Q)
#define RT_NC_A_var1(F, Q)    (ncid, varid, start, buf F Q)
#define RT_NC_S_var1	      shape_of(NC_VAR1, start, NULL, NULL, 0, NULL, NULL)
#define RT_NC_P_vara(B, F, Q) \
	(int ncid, int varid, const long long *start, const long long *count, B buf F Q)
#define RT_NC_A_vara(F, Q) (ncid, varid, start, count, buf F Q)
#define RT_NC_S_vara	   shape_of(NC_VARA, start, count, NULL, 0, NULL, NULL)
#define RT_NC_P_vars(B, F, Q)                                                 \
	(int ncid, int varid, const long long *start, const long long *count, \
	 const long long *stride, B buf F Q)
#define RT_NC_A_vars(F, Q) (ncid, varid, start, count, stride, buf F Q)
#define RT_NC_S_vars	   shape_of(NC_VARS, start, count, stride, 0, NULL, NULL)
#define RT_NC_P_varm(B, F, Q)                                                 \
	(int ncid, int varid, const long long *start, const long long *count, \
	 const long long *stride, const long long *imap, B buf F Q)
#define RT_NC_A_varm(F, Q) (ncid, varid, start, count, stride, imap, buf F Q)
#define RT_NC_S_varm	   shape_of(NC_VARM, start, count, stride, 0, NULL, NULL)
#define RT_NC_P_varn(B, F, Q)                                                              \
	(int ncid, int varid, int num, long long *const *starts, long long *const *counts, \
	 B buf F Q)
#define RT_NC_A_varn(F, Q) (ncid, varid, num, starts, counts, buf F Q)
#define RT_NC_S_varn	   shape_of(NC_VARN, NULL, NULL, NULL, num, starts, counts)
#define RT_NC_S_vard	   shape_of(NC_VARD, NULL, NULL, NULL, 0, NULL, NULL)

/* A buffer's type, and the request id the non-blocking calls return. */
#define RT_NC_BUF_put  const void *
#define RT_NC_BUF_iput const void *
#define RT_NC_BUF_bput const void *
#define RT_NC_BUF_get  void *
#define RT_NC_BUF_iget void *
#define RT_NC_REQP_put
#define RT_NC_REQP_get
#define RT_NC_REQP_iput , int *req
#define RT_NC_REQP_iget , int *req
#define RT_NC_REQP_bput , int *req
#define RT_NC_REQA_put
#define RT_NC_REQA_get
#define RT_NC_REQA_iput , req
#define RT_NC_REQA_iget , req
#define RT_NC_REQA_bput , req
/* The flexible forms' buffer count and MPI datatype. */
#define RT_NC_FLEXP_FLEX , long long bufcount, rt_nc_handle buftype
#define RT_NC_FLEXA_FLEX , bufcount, buftype
#define RT_NC_FLEXP_TYPED
#define RT_NC_FLEXA_TYPED
#define RT_NC_OP_put   NC_PUT
#define RT_NC_OP_get   NC_GET
#define RT_NC_OP_iput  NC_IPUT
#define RT_NC_OP_iget  NC_IGET
#define RT_NC_OP_bput  NC_BPUT
#define RT_NC_COLL     0
#define RT_NC_COLL_all 1

#define RT_NC_PARAMS(op, kind, flex) \
	RT_NC_P_##kind(RT_NC_BUF_##op, RT_NC_FLEXP_##flex, RT_NC_REQP_##op)
#define RT_NC_ARGS(op, kind, flex) RT_NC_A_##kind(RT_NC_FLEXA_##flex, RT_NC_REQA_##op)

/*
 * One read or write: call through unless the layer records it, else the
 * record before, the call, and what it moved after (filetype: a vard
 * call's file type, else 0).
 */
#define RT_NC_IO_BODY(name, params, args, shape, op, collective, filetype)                         \
	{                                                                                          \
		static int(*real) params;                                                          \
		struct nc_io io;                                                                   \
		int r;                                                                             \
		if (!real && !nc_resolve(name, (void *)&real))                                     \
			return NC_INTERNAL;                                                        \
		if (!nc_io_begin(&io, ncid, varid))                                                \
			return real args;                                                          \
		r = real args;                                                                     \
		{                                                                                  \
			const struct nc_shape rt_shape = shape;                                    \
			nc_io_end(&io, r, name, ncid, varid, op, collective, &rt_shape, filetype); \
		}                                                                                  \
		return r;                                                                          \
	}

#define RT_NC_IO_DEFINE(op, kind, ctype, all, flex)                                               \
	RT_EXPORT int rt_nc_##op##_##kind##ctype##all RT_NC_PARAMS(op, kind, flex) __asm__(       \
		"ncmpi_" #op "_" #kind #ctype #all);                                              \
	RT_EXPORT int rt_nc_##op##_##kind##ctype##all RT_NC_PARAMS(op, kind, flex) RT_NC_IO_BODY( \
		"ncmpi_" #op "_" #kind #ctype #all, RT_NC_PARAMS(op, kind, flex),                 \
		RT_NC_ARGS(op, kind, flex), RT_NC_S_##kind, RT_NC_OP_##op, RT_NC_COLL##all, 0)

#define RT_NC_VARD_PARAMS(op)                                                                \
	(int ncid, int varid, rt_nc_handle filetype, RT_NC_BUF_##op buf, long long bufcount, \
	 rt_nc_handle buftype)
#define RT_NC_VARD_DEFINE(op, all)                                                           \
	RT_EXPORT int rt_nc_##op##_vard##all RT_NC_VARD_PARAMS(op) __asm__("ncmpi_" #op      \
									   "_vard" #all);    \
	RT_EXPORT int rt_nc_##op##_vard##all RT_NC_VARD_PARAMS(op)                           \
		RT_NC_IO_BODY("ncmpi_" #op "_vard" #all, RT_NC_VARD_PARAMS(op),              \
			      (ncid, varid, filetype, buf, bufcount, buftype), RT_NC_S_vard, \
			      RT_NC_OP_##op, RT_NC_COLL##all, filetype)

RT_NC_IO_CALLS(RT_NC_IO_DEFINE)
RT_NC_VARD_CALLS(RT_NC_VARD_DEFINE)

/* The multi-variable forms' parameters, arguments and arrays of starts, counts and strides. */
#define RT_NC_MP_var(B, F) (int ncid, int num, int *varids, B *const *bufs F)
#define RT_NC_MA_var(F)	   (ncid, num, varids, bufs F)
#define RT_NC_MS_var	   NULL, NULL, NULL
#define RT_NC_MP_var1(B, F) \
	(int ncid, int num, int *varids, long long *const *starts, B *const *bufs F)
#define RT_NC_MA_var1(F) (ncid, num, varids, starts, bufs F)
#define RT_NC_MS_var1	 starts, NULL, NULL
#define RT_NC_MP_vara(B, F)                                                                  \
	(int ncid, int num, int *varids, long long *const *starts, long long *const *counts, \
	 B *const *bufs F)
#define RT_NC_MA_vara(F) (ncid, num, varids, starts, counts, bufs F)
#define RT_NC_MS_vara	 starts, counts, NULL
#define RT_NC_MP_vars(B, F)                                                                  \
	(int ncid, int num, int *varids, long long *const *starts, long long *const *counts, \
	 long long *const *strides, B *const *bufs F)
#define RT_NC_MA_vars(F) (ncid, num, varids, starts, counts, strides, bufs F)
#define RT_NC_MS_vars	 starts, counts, strides
#define RT_NC_MP_varm(B, F)                                                                  \
	(int ncid, int num, int *varids, long long *const *starts, long long *const *counts, \
	 long long *const *strides, long long *const *imaps, B *const *bufs F)
#define RT_NC_MA_varm(F) (ncid, num, varids, starts, counts, strides, imaps, bufs F)
#define RT_NC_MS_varm	 starts, counts, strides
/* The flexible forms: a buffer count and an MPI datatype per request (an array, passed on). */
#define RT_NC_MFLEXP_FLEX , const long long *bufcounts, const void *datatypes
#define RT_NC_MFLEXA_FLEX , bufcounts, datatypes
#define RT_NC_MFLEXP_TYPED
#define RT_NC_MFLEXA_TYPED
#define RT_NC_MBUF_mput		      void
#define RT_NC_MBUF_mget		      void
#define RT_NC_OP_mput		      NC_PUT
#define RT_NC_OP_mget		      NC_GET
#define RT_NC_KIND_var		      NC_VAR
#define RT_NC_KIND_var1		      NC_VAR1
#define RT_NC_KIND_vara		      NC_VARA
#define RT_NC_KIND_vars		      NC_VARS
#define RT_NC_KIND_varm		      NC_VARM
#define RT_NC_MPARAMS(op, kind, flex) RT_NC_MP_##kind(RT_NC_MBUF_##op, RT_NC_MFLEXP_##flex)

#define RT_NC_M_DEFINE(op, kind, ctype, all, flex)                                           \
	RT_EXPORT int rt_nc_##op##_##kind##ctype##all RT_NC_MPARAMS(op, kind, flex) __asm__( \
		"ncmpi_" #op "_" #kind #ctype #all);                                         \
	RT_EXPORT int rt_nc_##op##_##kind##ctype##all RT_NC_MPARAMS(op, kind, flex)          \
	{                                                                                    \
		static int(*real) RT_NC_MPARAMS(op, kind, flex);                             \
		const char *name = "ncmpi_" #op "_" #kind #ctype #all;                       \
		double t0;                                                                   \
		int r;                                                                       \
		if (!real && !nc_resolve(name, (void *)&real))                               \
			return NC_INTERNAL;                                                  \
		if (!nc_m_begin(ncid, num, varids, &t0))                                     \
			return real RT_NC_MA_##kind(RT_NC_MFLEXA_##flex);                    \
		r = real RT_NC_MA_##kind(RT_NC_MFLEXA_##flex);                               \
		nc_m_end(r, name, ncid, num, varids, RT_NC_OP_##op, RT_NC_COLL##all,         \
			 RT_NC_KIND_##kind, RT_NC_MS_##kind, t0);                            \
		return r;                                                                    \
	}

RT_NC_M_CALLS(RT_NC_M_DEFINE)
