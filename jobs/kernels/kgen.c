/*
 * kgen — an I/O kernel from a job's operation trace (see kgen.h): the
 * log read (its records, names, communicators, inputs), and the program
 * written around the parts (kgen_parts.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ioa_counters.h"
#include "ioa_logfmt.h"
#include "ioa_logr.h"
#include "kgen_int.h"

void kgen_put(struct gen *g, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (vfprintf(g->out, fmt, ap) < 0)
		g->failed = 1;
	va_end(ap);
}

int kgen_file_number(struct files *f, uint64_t id)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		if (f->id[i] == id)
			return (int)i;
	if (f->n == f->cap) {
		size_t cap = f->cap ? f->cap * 2 : 64;
		uint64_t *more = realloc(f->id, cap * sizeof(*more));

		if (!more)
			return -1;
		f->id = more;
		f->cap = cap;
	}
	f->id[f->n] = id;
	return (int)f->n++;
}

static int h5_record(struct gen *g, const struct ioa_log_record *rec)
{
	const int64_t *c = rec->counters;
	struct h5rec *x = NULL, *more;
	size_t i;

	for (i = 0; i < g->nh5 && !x; i++)
		if (g->h5[i].id == rec->id && g->h5[i].module == (int)rec->module)
			x = &g->h5[i];
	if (!x) {
		if (!(more = realloc(g->h5, (g->nh5 + 1) * sizeof(*more))))
			return -ENOMEM;
		g->h5 = more;
		x = &g->h5[g->nh5++];
		*x = (struct h5rec){.id = rec->id, .module = (int)rec->module};
	}
	if (rec->module == IOA_MOD_H5D) {
		x->v[0] = c[H5D_FILE_REC_ID];
		return 0;
	}
	x->v[0] |= c[H5F_USE_MPIIO] > 0;
	x->v[1] |= (c[H5F_USE_COLL_METADATA_OPS] > 0) | (c[H5F_USE_COLL_METADATA_WRITE] > 0) << 1;
	if (c[H5F_ALIGNMENT] > x->v[3]) {
		x->v[2] = c[H5F_ALIGNMENT_THRESHOLD];
		x->v[3] = c[H5F_ALIGNMENT];
	}
	return 0;
}

/*
 * Files read, written, opened or looked at (a stat that found it) but not
 * created by the job: they were there before it, so the kernel's --prepare
 * makes them, of the size its reads need (an output that was there, written
 * only, empty; a path only looked at, an empty file: a stat finds it as it
 * found the job's, a folder or not).  A file is made by the job
 * when any of its records says so (MPI-IO's records do not: the POSIX open
 * under it does).
 */
#define K_MADE (-2)
static int on_record(const struct ioa_log_record *rec, void *arg)
{
	struct gen *g = arg;
	int64_t read, last, written, seen = 0;
	uint64_t *ids;
	int64_t *sizes;

	if (rec->module == IOA_MOD_H5F || rec->module == IOA_MOD_H5D)
		return h5_record(g, rec);
	if (rec->module == IOA_MOD_POSIX) {
		read = rec->counters[POSIX_BYTES_READ];
		last = rec->counters[POSIX_MAX_BYTE_READ];
		written = rec->counters[POSIX_BYTES_WRITTEN];
		seen = rec->counters[POSIX_OPENS] + rec->counters[POSIX_STATS];
	} else if (rec->module == IOA_MOD_STDIO) {
		read = rec->counters[STDIO_BYTES_READ];
		last = rec->counters[STDIO_MAX_BYTE_READ];
		written = rec->counters[STDIO_BYTES_WRITTEN];
		seen = rec->counters[STDIO_OPENS];
	} else if (rec->module == IOA_MOD_MPIIO) {
		read = rec->counters[MPIIO_BYTES_READ];
		last = 0;
		written = rec->counters[MPIIO_BYTES_WRITTEN];
	} else {
		return 0; /* HDF5, PnetCDF: their files' POSIX or MPI-IO records say it */
	}
	if (read <= 0 && written <= 0 && seen <= 0 && !(rec->flags & IOA_REC_CREATED))
		return 0;
	if (!(ids = realloc(g->input_id, (g->ninputs + 1) * sizeof(*ids))))
		return -ENOMEM;
	g->input_id = ids;
	if (!(sizes = realloc(g->input_size, (g->ninputs + 1) * sizeof(*sizes))))
		return -ENOMEM;
	g->input_size = sizes;
	g->input_id[g->ninputs] = rec->id;
	g->input_size[g->ninputs++] = rec->flags & IOA_REC_CREATED ? K_MADE
				      : read <= 0		   ? 0
				      : last + 1 > read		   ? last + 1
								   : read;
	return 0;
}

static int read_log(struct gen *g, const char *path, struct ioa_buf *err)
{
	struct ioa_log_reader r = {.fd = -1};
	struct ioa_buf raw = IOA_BUF_INIT(REGION_CAP);
	uint32_t i;
	int rc = ioa_logr_open(&r, path), traced = 0;

	for (i = 0; !rc && i < r.region_count; i++) {
		uint32_t type = r.regions[i].type;

		if (type != IOA_REGION_TRACE && (type < 16 || type >= 32))
			continue;
		rc = ioa_logr_read_region(&r, i, &raw);
		if (type == IOA_REGION_TRACE) {
			rc = rc ? rc : ioa_trace_decode(&g->t, raw.data, raw.len);
			traced |= !rc;
		} else {
			rc = rc ? rc : ioa_logr_each_record(&r, i, &raw, on_record, g);
		}
	}
	if (rc)
		ioa_buf_addf(err, "%s: %s", path,
			     r.error[0] ? r.error : "the trace does not decode");
	else if (!traced) {
		ioa_buf_addf(err, "%s: the log holds no operation trace", path);
		rc = -ENOENT;
	}
	ioa_logr_close(&r);
	ioa_buf_release(&raw);
	return rc;
}

/* A name as the program used it (bytes, no NUL inside: a path cannot hold one). */
static int on_name(uint64_t id, const unsigned char *name, uint32_t len, void *arg)
{
	struct gen *g = arg;
	uint64_t *ids;
	char **names;

	if (memchr(name, 0, len))
		return 0; /* not a path: the file stays anonymous */
	ids = realloc(g->name_id, (g->nnames + 1) * sizeof(*ids));
	if (!ids)
		return -ENOMEM;
	g->name_id = ids;
	names = realloc(g->name, (g->nnames + 1) * sizeof(*names));
	if (!names)
		return -ENOMEM;
	g->name = names;
	g->name_id[g->nnames] = id;
	g->name[g->nnames] = strndup((const char *)name, len);
	return g->name[g->nnames++] ? 0 : -ENOMEM;
}

static int read_names(struct gen *g, const char *path)
{
	struct ioa_log_reader r = {.fd = -1};
	struct ioa_buf raw = IOA_BUF_INIT(REGION_CAP);
	uint32_t i;
	int rc = ioa_logr_open(&r, path);

	for (i = 0; !rc && i < r.region_count; i++)
		if (r.regions[i].type == IOA_REGION_NAMES) {
			rc = ioa_logr_read_region(&r, i, &raw);
			rc = rc ? rc : ioa_logr_each_name(&r, &raw, on_name, g);
		}
	ioa_logr_close(&r);
	ioa_buf_release(&raw);
	return rc;
}

/* Whether a name is a standard stream's (the name the runtime gives it). */
static int stream_name(const char *name)
{
	return !strcmp(name, "<STDOUT>") || !strcmp(name, "<STDERR>") || !strcmp(name, "<STDIN>");
}

/*
 * The name file i had in the job, as the kernel may use it; NULL when it
 * stays anonymous.  *stream: the file is a standard stream.
 */
static const char *job_name(const struct gen *g, size_t i, int *stream)
{
	const char *name = NULL;
	size_t j;

	for (j = 0; j < g->nnames && !name; j++)
		if (g->name_id[j] == g->files.id[i] &&
		    (g->o->keep_names || stream_name(g->name[j])))
			name = g->name[j];
	*stream = name && stream_name(name);
	if (name && strrchr(name, '/'))
		name = strrchr(name, '/') + 1;
	/* A basename that names no file of the data folder stays anonymous. */
	if (name && (!*name || !strcmp(name, ".") || !strcmp(name, "..")))
		name = NULL;
	return name;
}

/* A file's name and number, sorted by name, then a standard stream first, then by number. */
struct named {
	const char *name;
	size_t i;
	int stream;
};

static int by_name(const void *a, const void *b)
{
	const struct named *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (!c)
		c = y->stream - x->stream;
	return c ? c : (x->i > y->i) - (x->i < y->i);
}

/*
 * The kernel's names of its files, one each: f<number>, or the job's
 * basename when asked.  Files of one basename in different folders of the
 * job would be one file in the kernel's data folder: the first (in the
 * kernel's order) keeps the name, each other one gets "f<number>_" before
 * it, again until no two are alike (a job may have named a file so).  A
 * standard stream keeps its name before any file named like it.  NULL
 * when out of memory.
 */
static char **kernel_names(const struct gen *g)
{
	size_t n = g->files.n, i, k, first;
	char **names = calloc(n ? n : 1, sizeof(*names));
	struct named *order = malloc((n ? n : 1) * sizeof(*order));
	int *stream = calloc(n ? n : 1, sizeof(*stream));
	int renamed = 1;

	if (!names || !order || !stream)
		goto fail;
	for (i = 0; i < n; i++) {
		const char *name = job_name(g, i, &stream[i]);
		char anon[32];

		snprintf(anon, sizeof(anon), "f%zu", i);
		if (!(names[i] = strdup(name ? name : anon)))
			goto fail;
	}
	while (renamed) {
		renamed = 0;
		for (i = 0; i < n; i++)
			order[i] = (struct named){names[i], i, stream[i]};
		qsort(order, n, sizeof(*order), by_name);
		/* Each run of one name: its first keeps it (and is compared with the rest). */
		for (first = 0, k = 1; k < n; k++) {
			char *more;

			if (strcmp(order[first].name, order[k].name)) {
				first = k;
				continue;
			}
			i = order[k].i;
			more = malloc(strlen(names[i]) + 32);
			if (!more)
				goto fail;
			sprintf(more, "f%zu_%s", i, names[i]);
			free(names[i]);
			names[i] = more;
			renamed = 1;
		}
	}
	free(order);
	free(stream);
	return names;
fail:
	for (i = 0; names && i < n; i++)
		free(names[i]);
	free(names);
	free(order);
	free(stream);
	return NULL;
}

/* The table of the kernel's file names. */
static void emit_names(struct gen *g)
{
	char **names = kernel_names(g);
	size_t i;

	if (!names) {
		g->failed = 1;
		return;
	}
	kgen_put(g, "#define NFILES %zu\n" KGEN_NAMES_HEAD, g->files.n ? g->files.n : 1);
	for (i = 0; i < g->files.n; i++) {
		struct ioa_buf b = IOA_BUF_INIT(1 << 16);

		if (kgen_literal(&b, (const unsigned char *)names[i], strlen(names[i])))
			g->failed = 1;
		kgen_put(g, "\t%s,\n", ioa_buf_str(&b));
		ioa_buf_release(&b);
		free(names[i]);
	}
	free(names);
	kgen_put(g, "\t\"unused\"};\n");
}

/* The kernel file of a log's record id (of any module), or -1. */
static int kernel_file(const struct gen *g, uint64_t id)
{
	size_t i;

	for (i = 0; i < g->files.n; i++)
		if (g->files.id[i] == id)
			return (int)i;
	return -1;
}

/* Per HDF5 file its access properties, per dataset its file. */
static void emit_h5_files(struct gen *g)
{
	size_t i, j;

	kgen_put(g, "/* Per HDF5 file: MPI-IO driver, collective metadata (1 reads, 2 writes), "
		    "alignment threshold and alignment. */\n"
		    "static const int64_t h5fapl[NFILES + 1][4] = {");
	for (i = 0; i < g->files.n; i++) {
		const int64_t *v = NULL;

		for (j = 0; j < g->nh5 && !v; j++)
			if (g->h5[j].id == g->files.id[i] && g->h5[j].module == IOA_MOD_H5F)
				v = g->h5[j].v;
		kgen_put(g, "%s{%" PRId64 ", %" PRId64 ", %" PRId64 ", %" PRId64 "}", i ? ", " : "",
			 v ? v[0] : 0, v ? v[1] : 0, v ? v[2] : 0, v ? v[3] : 0);
	}
	kgen_put(g,
		 "%s{0}};\n/* Per dataset: its file (-1: not a dataset). */\n"
		 "static const int h5file[NFILES + 1] = {",
		 g->files.n ? ", " : "");
	for (i = 0; i < g->files.n; i++) {
		int file = -1;

		for (j = 0; j < g->nh5 && file < 0; j++)
			if (g->h5[j].id == g->files.id[i] && g->h5[j].module == IOA_MOD_H5D)
				file = kernel_file(g, (uint64_t)g->h5[j].v[0]);
		kgen_put(g, "%s%d", i ? ", " : "", file);
	}
	kgen_put(g, "%s-1};\n", g->files.n ? ", " : "");
}

/* A communicator the trace knows by its members only: its leader and size, the ranks in it. */
struct mcomm {
	int64_t leader, size, last; /* last: the last rank counted in it */
	uint32_t *ranks, n;
};

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Per rank and communicator slot the job made no traced call for (HDF5's
 * and ROMIO's copies, MPI_COMM_SELF), what k_comm_of() opens files on: the
 * world (-1) or the rank alone (-2) by size, else the group of the ranks
 * whose slot has the same leader and size (version 6 traces), when that
 * many ranks do (else the rank is left to COMM_OF).
 */
/*
 * What rank r opens files on when its trace names communicator c: -1 the
 * world, -2 the rank alone, else the index in *m of the group with c's
 * leader and size, to which r is added; -3 when it cannot be told.
 */
static int64_t comm_code(struct gen *g, struct mcomm **m, size_t *nm,
			 const struct ioa_trace_comm *c, uint32_t r)
{
	struct mcomm *x;
	size_t j;

	if (c->size == 1 || c->size == g->nprocs)
		return c->size == 1 ? -2 : -1;
	if (c->leader < 0 || c->size < 1)
		return -3;
	for (j = 0; j < *nm; j++)
		if ((*m)[j].leader == c->leader && (*m)[j].size == c->size)
			break;
	if (j == *nm) {
		struct mcomm *more = realloc(*m, (*nm + 1) * sizeof(**m));

		if (!more)
			return g->failed = 1, -3;
		*m = more;
		more[(*nm)++] = (struct mcomm){c->leader, c->size, -1, NULL, 0};
	}
	x = &(*m)[j];
	/* A rank with two copies of one communicator is in it once; past its size, none is kept. */
	if (x->last != r && x->n <= (uint32_t)c->size) {
		uint32_t *more = realloc(x->ranks, (x->n + 1) * sizeof(*more));

		if (!more)
			return g->failed = 1, -3;
		x->ranks = more;
		x->ranks[x->n++] = r;
	}
	x->last = r;
	return (int64_t)j;
}

static void emit_comms(struct gen *g)
{
	struct mcomm *m = NULL;
	int64_t(*map)[3] = NULL;
	size_t nm = 0, nmap = 0, capmap = 0, i, k, j;
	uint32_t at = 0;

	for (i = 0; i < g->t.ngroups && !g->failed; i++)
		for (k = 0; k < g->t.groups[i].nranks && !g->failed; k++) {
			uint32_t r = g->t.groups[i].ranks[k], s;
			struct ioa_trace_rank tr;

			if (ioa_trace_rank_open(&g->t, r, &tr))
				continue;
			for (s = 1; s < tr.ncomms && !g->failed; s++) {
				int64_t code = comm_code(g, &m, &nm, &tr.comms[s], r);

				if (code == -3)
					continue;
				if (nmap == capmap) {
					size_t cap = capmap ? 2 * capmap : 64;
					int64_t(*more)[3] = realloc(map, cap * sizeof(*map));

					if (!more) {
						g->failed = 1;
						break;
					}
					map = more;
					capmap = cap;
				}
				map[nmap][0] = r;
				map[nmap][1] = s;
				map[nmap++][2] = code;
			}
			ioa_trace_rank_close(&tr);
		}
	kgen_put(
		g,
		"/* Communicators by membership (k_comm_of): rank, slot, -1 the world, -2 the rank "
		"alone,\n * or the group whose ranks are members[member_at[g]] to "
		"members[member_at[g + 1]]. */\n"
		"static const int64_t slotmap[][3] = {");
	for (i = 0, j = 0; i < nmap; i++) {
		int64_t code = map[i][2];

		/* Two communicators with one leader and size: neither can be told. */
		if (code >= 0 && m[code].n != (uint32_t)m[code].size)
			continue;
		kgen_put(g, "%s{%" PRId64 ", %" PRId64 ", %" PRId64 "}", j++ ? ", " : "", map[i][0],
			 map[i][1], code);
	}
	kgen_put(g, "%s{-1, -1, -1}};\n#define NSLOTMAP %zu\nstatic const int members[] = {",
		 j ? ", " : "", j);
	for (i = 0; i < nm; i++) {
		if (m[i].n == (uint32_t)m[i].size)
			qsort(m[i].ranks, m[i].n, sizeof(*m[i].ranks), cmp_u32);
		for (k = 0; m[i].n == (uint32_t)m[i].size && k < m[i].n; k++)
			kgen_put(g, "%" PRIu32 ", ", m[i].ranks[k]);
	}
	kgen_put(g, "0};\nstatic const int member_at[] = {0");
	for (i = 0; i < nm; i++) {
		at += m[i].n == (uint32_t)m[i].size ? m[i].n : 0;
		kgen_put(g, ", %" PRIu32, at);
	}
	kgen_put(g, "};\nstatic MPI_Comm mcomms[%zu];\nstatic char mmade[%zu];\n", nm + 1, nm + 1);
	for (i = 0; i < nm; i++)
		free(m[i].ranks);
	free(m);
	free(map);
}

/* Per file: opened by all ranks together (MPI-IO), and its size when it is an input. */
static void emit_files(struct gen *g)
{
	size_t i, j;

	kgen_put(g, "/* MPI-IO files every rank opens are opened collectively. */\n"
		    "static const int collective[NFILES + 1] = {");
	for (i = 0; i < g->files.n; i++)
		kgen_put(g, "%s%d", i ? ", " : "",
			 g->nprocs > 1 && i < g->cap_file_ranks && g->file_ranks[i] == g->nprocs);
	kgen_put(g, "%s0};\n#define COMM_OF(f) (collective[f] ? MPI_COMM_WORLD : MPI_COMM_SELF)\n",
		 g->files.n ? ", " : "");
	kgen_put(g, "/* Files there before the job, of the size its reads need (--prepare makes "
		    "them). */\n"
		    "static const int64_t input_size[NFILES + 1] = {");
	for (i = 0; i < g->files.n; i++) {
		int64_t size = -1;
		int made = 0;

		for (j = 0; j < g->ninputs; j++)
			if (g->input_id[j] == g->files.id[i]) {
				made |= g->input_size[j] == K_MADE;
				if (g->input_size[j] > size)
					size = g->input_size[j];
			}
		/* A file the job made after removing it first was there before it: empty will do.
		 */
		if (i < g->cap_file_ranks && g->removed_first[i])
			made = 0, size = size < 0 ? 0 : size;
		kgen_put(g, "%s%" PRId64, i ? ", " : "", made ? -1 : size);
	}
	kgen_put(g, "%s-1};\n", g->files.n ? ", " : "");
	emit_comms(g);
	if (g->hdf5)
		emit_h5_files(g);
}

/* Whether the trace holds HDF5 calls (a runtime from before they were traced kept none). */
static int traced_hdf5(struct gen *g)
{
	size_t i;
	uint32_t k;
	int yes = 0;

	for (i = 0; i < g->t.ngroups && !yes; i++) {
		struct ioa_trace_rank tr;

		if (ioa_trace_rank_open(&g->t, g->t.groups[i].ranks[0], &tr))
			continue;
		for (k = 0; k < tr.nsigs && !yes; k++)
			yes = ioa_trace_layer_call(&tr.sigs[k]);
		ioa_trace_rank_close(&tr);
	}
	return yes;
}

/* The kernel, exact (epochs 0) or as epochs (kgen_compact.c). */
static int gen_once(const char *path, const struct kgen_options *o, unsigned epochs, FILE *out,
		    struct kgen_summary *sum, struct ioa_buf *err)
{
	struct gen g = {.out = out, .o = o, .sum = sum};
	struct part *parts = NULL;
	size_t nparts = 0;
	FILE *body = NULL;
	char *text = NULL;
	char *head = NULL;
	size_t text_len = 0, head_len = 0, i, nused = 0;
	const char *used[64];
	int rc;

	memset(sum, 0, sizeof(*sum));
	rc = read_log(&g, path, err);
	/* The names: the standard streams are the kernel's, other files named if asked. */
	rc = rc ? rc : read_names(&g, path);
	for (i = 0; !rc && i < g.t.ngroups; i++)
		g.nprocs += g.t.groups[i].nranks;
	g.hdf5 = !rc && o->level != KGEN_MPIIO && traced_hdf5(&g);
	if (!rc && o->level == KGEN_HDF5 && !g.hdf5) {
		ioa_buf_addf(err, "%s: its trace holds no HDF5 calls", path);
		rc = -ENOENT;
	}
	sum->hdf5 = g.hdf5;
	/* The parts first (they number the files), then the program around them. */
	body = rc ? NULL : open_memstream(&text, &text_len);
	if (!rc && !body)
		rc = -ENOMEM;
	g.out = body;
	if (!rc)
		rc = epochs ? kgen_emit_compact(&g, epochs, &parts, &nparts)
			    : kgen_emit_parts(&g, &parts, &nparts);
	if (body && fclose(body))
		rc = rc ? rc : -ENOMEM;
	g.out = out;
	if (!rc) {
		sum->ranks = g.nprocs;
		sum->files = (unsigned)g.files.n;
		kgen_put(&g,
			 "/*\n * I/O kernel generated by ioatlas from a job's operation trace: the "
			 "job's "
			 "I/O calls,\n * with its compute gaps (spinning) and synchronization, for "
			 "%u "
			 "ranks.\n * Build: make (mpicc); run: mpiexec -n %u ./kernel "
			 "[--iterations N] "
			 "[--compute-scale X]\n * [--data-dir DIR] [--mode causal|think|fast] "
			 "[--ranks "
			 "N]\n */\n",
			 g.nprocs, g.nprocs);
		if (sum->calls_exact < sum->calls_total)
			kgen_put(&g,
				 "/*\n * The trace kept %" PRIu64 " of the job's %" PRIu64
				 " calls exactly (the first of each\n * rank; the rest it "
				 "summarised or dropped): the kernel replays those only.\n */\n",
				 sum->calls_exact, sum->calls_total);
		if (epochs)
			kgen_put(
				&g,
				"/*\n * Compact: the job in %u epochs, each ended by a barrier "
				"where "
				"every rank made\n * a collective.  Its I/O calls' counters are "
				"the "
				"job's: POSIX's calls one by\n * one, a stream's reads, writes and "
				"seeks between its other calls as their\n * totals (k_fagg).  Its "
				"other MPI calls are the time they took.\n */\n",
				epochs);
		kgen_put(&g, "%s%s", kgen_includes, g.hdf5 ? "#include <hdf5.h>\n\n" : "");
		if (epochs)
			kgen_put(&g, KGEN_EPOCHS_LINE "%u\n", epochs);
		/* The program's tables, cut with the helpers: those nothing uses are left out. */
		if (!(g.out = open_memstream(&head, &head_len))) {
			g.out = out;
			g.failed = 1;
		}
		kgen_put(&g, "#define NPROCS %u\n", g.nprocs);
		kgen_put(&g,
			 "/* Why the kernel runs with NPROCS ranks only (NULL: --ranks may change "
			 "it). */\n"
			 "static const char *const tied = ");
		if (g.tied)
			kgen_put(&g, "\"%s\";\n", g.tied);
		else
			kgen_put(&g, "NULL;\n");
		kgen_put(&g,
			 "/* The job's compute before its first call (a rank's mean): an "
			 "interpreter starting. */\n"
			 "static const double start_gap = %.6f;\n",
			 g.start_n ? g.start_sum / g.start_n : 0);
		/* Up to 1 GiB made first; a longer transfer gets its buffer when it comes. */
		kgen_put(&g,
			 "/* The longest transfer: its buffer is made (its pages touched) before "
			 "the run. */\n"
			 "static const int64_t max_transfer = %" PRId64 ";\n",
			 g.max_transfer < (INT64_C(1) << 30) ? g.max_transfer : INT64_C(1) << 30);
		emit_names(&g);
		emit_files(&g);
		/* The helpers the parts, main() and HDF5's helpers call. */
		used[nused++] = text ? text : "";
		used[nused++] = kgen_epilogue;
		for (i = 0; g.hdf5 && kgen_prologue_h5[i] && nused < sizeof(used) / sizeof(used[0]);
		     i++)
			used[nused++] = kgen_prologue_h5[i];
		if (g.out != out && fclose(g.out))
			g.failed = 1;
		g.out = out;
		if (kgen_put_helpers(&g, head ? head : "", used, nused))
			g.failed = 1;
		for (i = 0; g.hdf5 && kgen_prologue_h5[i]; i++)
			kgen_put(&g, "%s", kgen_prologue_h5[i]);
		kgen_put(&g, "%s", text ? text : "");
		kgen_put(&g, "\n/* The job: each rank runs the parts it is in, in order. */\n"
			     "static void run(void)\n{\n");
		for (i = 0; i < nparts; i++)
			if (!kgen_rank_step(parts[i].ranks, parts[i].m))
				break;
		if (i < nparts)
			kgen_put(&g, "\tuint32_t i;\n\n");
		for (i = 0; i < nparts; i++) {
			uint32_t m = parts[i].m, step = kgen_rank_step(parts[i].ranks, m);
			uint32_t first = parts[i].ranks[0];

			if (!step)
				kgen_put(&g,
					 "\tfor (i = 0; i < %u; i++)\n\t\tif (ranks%zu[i] == "
					 "(uint32_t)rank)\n\t\t\tpart%zu(rank, i);\n",
					 m, i, i);
			else if (step == 1 && first == 0 && m == g.nprocs)
				kgen_put(&g, "\tpart%zu(rank, rank);\n", i);
			else if (step == 1 && first == 0)
				kgen_put(&g, "\tif (rank < %u)\n\t\tpart%zu(rank, rank);\n", m, i);
			else if (step == 1)
				kgen_put(&g,
					 "\tif (rank >= %u && rank < %u)\n\t\tpart%zu(rank, rank - "
					 "%u);\n",
					 first, first + m, i, first);
			else
				kgen_put(&g,
					 "\tif (rank >= %u && (rank - %u) %% %u == 0 && (rank - "
					 "%u) / "
					 "%u < %u)\n"
					 "\t\tpart%zu(rank, (rank - %u) / %u);\n",
					 first, first, step, first, step, m, i, first, step);
		}
		kgen_put(&g, "}\n%s", kgen_epilogue);
		if (g.failed || fflush(out))
			rc = -EIO;
	} else if (!err->len) {
		ioa_buf_addf(err, "%s: %s", path,
			     rc == -EINVAL    ? "ranks of one group differ in shape"
			     : rc == -EBADMSG ? "its operation trace is malformed"
			     : epochs && rc == -ENOTSUP
				     ? "no kernel as epochs: those replay jobs of POSIX and STDIO "
				       "calls whose ranks all made the same collectives"
			     : epochs && rc == -E2BIG
				     ? "no kernel as epochs: its ranks made more calls than those "
				       "are written from (2^22)"
			     : rc == -E2BIG
				     ? "its trace claims more ranks than a kernel can be made "
				       "from (their traces would take over 1 GiB)"
				     : strerror(-rc));
	}
	free(text);
	free(head);
	for (i = 0; i < nparts; i++)
		free(parts[i].ranks);
	free(parts);
	if (!rc) {
		sum->file_ids = g.files.id;
		g.files.id = NULL;
	}
	free(g.files.id);
	free(g.file_ranks);
	free(g.file_mark);
	free(g.removed_first);
	for (i = 0; g.touched && i < g.nprocs; i++)
		free(g.touched[i]);
	free(g.touched);
	free(g.input_id);
	free(g.input_size);
	free(g.h5);
	for (i = 0; i < g.nftab; i++)
		free(g.ftab[i]);
	free(g.ftab);
	for (i = 0; i < g.nnames; i++)
		free(g.name[i]);
	free(g.name);
	free(g.name_id);
	ioa_trace_free(&g.t);
	return rc;
}

int kgen_log(const char *path, const struct kgen_options *o, FILE *out, struct kgen_summary *sum,
	     struct ioa_buf *err)
{
	char *text = NULL;
	size_t len = 0;
	unsigned e;
	FILE *mem;
	int rc;

	if (o->epochs || !o->max_size)
		return gen_once(path, o, o->epochs, out, sum, err);
	memset(sum, 0, sizeof(*sum));
	if (!(mem = open_memstream(&text, &len)))
		return -ENOMEM;
	rc = gen_once(path, o, 0, mem, sum, err);
	if (fclose(mem))
		rc = rc ? rc : -ENOMEM;
	/* Too long: as epochs, the most that fit, else the shortest. */
	for (e = KGEN_EPOCHS_MAX; !rc && len > o->max_size && e >= 1; e /= 2) {
		struct kgen_summary cs;
		struct ioa_buf cerr = IOA_BUF_INIT(1 << 16);
		char *ct = NULL;
		size_t cl = 0;
		int crc = (mem = open_memstream(&ct, &cl)) ? gen_once(path, o, e, mem, &cs, &cerr)
							   : -ENOMEM;

		if (mem && fclose(mem))
			crc = crc ? crc : -ENOMEM;
		ioa_buf_release(&cerr);
		if (!crc && cl < len) {
			free(text);
			text = ct, len = cl;
			kgen_summary_release(sum);
			*sum = cs;
			continue;
		}
		free(ct);
		if (mem)
			kgen_summary_release(&cs);
		/* A job a compact kernel cannot replay keeps its exact kernel. */
		if (crc == -ENOMEM)
			rc = crc;
		if (crc)
			break;
	}
	if (!rc && (fwrite(text, 1, len, out) != len || fflush(out)))
		rc = -EIO;
	if (rc)
		kgen_summary_release(sum);
	free(text);
	return rc;
}

/* The bytes of a C string literal as kgen_literal() writes it: "...", octal escapes only. */
static int unliteral(const char *s, size_t len, struct ioa_buf *out)
{
	ioa_buf_reset(out);
	if (len < 2 || s[0] != '"' || s[len - 1] != '"')
		return -EINVAL;
	for (size_t i = 1; i + 1 < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '\\') {
			if (i + 4 >= len || s[i + 1] < '0' || s[i + 1] > '3' || s[i + 2] < '0' ||
			    s[i + 2] > '7' || s[i + 3] < '0' || s[i + 3] > '7')
				return -EINVAL;
			c = (unsigned char)((s[i + 1] - '0') << 6 | (s[i + 2] - '0') << 3 |
					    (s[i + 3] - '0'));
			i += 3;
		}
		if (ioa_buf_add(out, &c, 1))
			return -ENOMEM;
	}
	return 0;
}

int kgen_each_name(const char *src, size_t len,
		   int (*fn)(size_t index, const struct ioa_buf *name, size_t line_off,
			     size_t line_len, void *arg),
		   void *arg)
{
	static const char head[] = KGEN_NAMES_HEAD, end_line[] = "\t\"unused\"};";
	const char *start = memmem(src, len, head, sizeof(head) - 1), *p, *end = src + len;
	struct ioa_buf name = IOA_BUF_INIT(1 << 16);
	size_t index = 0;
	int rc = 0;

	if (!start)
		return -EINVAL;
	for (p = start + sizeof(head) - 1; p < end && !rc; index++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (n == sizeof(end_line) - 1 && !memcmp(p, end_line, n))
			break;
		if (n < 4 || p[0] != '\t' || p[n - 1] != ',' || !nl) {
			rc = -EINVAL;
			break;
		}
		rc = unliteral(p + 1, n - 2, &name);
		rc = rc ? rc : fn(index, &name, (size_t)(p - src), n, arg);
		p = nl + 1;
	}
	if (!rc && p >= end)
		rc = -EINVAL;
	ioa_buf_release(&name);
	return rc;
}
