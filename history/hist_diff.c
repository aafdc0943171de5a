/*
 * hist_diff — what changed between two runs (hist_diff.h).
 */
#include "hist_diff.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ioa_parse.h"

enum { RD, WR, META };
#define LAYERS 3 /* POSIX, STDIO, MPI-IO: enum ioa_module's first three */

static const char *const layer_names[LAYERS] = {"POSIX", "STDIO", "MPI-IO"};
static const char *const dir_names[2] = {"reads", "writes"};

struct layer {
	double t[3];	 /* read, write, meta seconds per rank */
	double bytes[2]; /* read, written */
	double ops[2];
	double seq[2]; /* sequential reads, writes (POSIX) */
	double opens;
};

/*
 * A file of one job: its name, bytes and size (the highest byte written,
 * plus one); whether it has an MPI-IO record (its POSIX calls are then
 * MPI-IO's beneath), whether any layer moved bytes of it.
 */
struct file {
	const char *name;
	double bytes, size;
	int mpiio, moved;
};

struct side {
	const struct an_job *j;
	struct layer l[LAYERS];
	double io, meta; /* per rank, each file at its highest layer */
	struct file *files;
	size_t nfiles;
	char **hints; /* "key=value", sorted, unique */
	size_t nhints;
	char **fs; /* file system types that moved bytes, sorted, unique */
	size_t nfs;
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int cmp_file(const void *a, const void *b)
{
	return strcmp(((const struct file *)a)->name, ((const struct file *)b)->name);
}

/* Adds s to the sorted-later set list (duplicates removed by uniq()). */
static int add_str(char ***list, size_t *n, const char *s, size_t len)
{
	char **grown = realloc(*list, (*n + 1) * sizeof(**list));

	if (!grown)
		return -1;
	*list = grown;
	grown[*n] = strndup(s, len);
	if (!grown[*n])
		return -1;
	++*n;
	return 0;
}

static void uniq(char **list, size_t *n)
{
	size_t i, k = 0;

	if (!*n)
		return;
	qsort(list, *n, sizeof(*list), cmp_str);
	for (i = 0; i < *n; i++) {
		if (k && !strcmp(list[k - 1], list[i])) {
			free(list[i]);
			continue;
		}
		list[k++] = list[i];
	}
	*n = k;
}

static double pos(int64_t v)
{
	return v > 0 ? (double)v : 0;
}

static double fpos(double v)
{
	return v > 0 ? v : 0;
}

static int side_load(struct side *s, const struct an_job *j)
{
	double per = j->nprocs > 0 ? 1.0 / j->nprocs : 1;
	size_t i;

	memset(s, 0, sizeof(*s));
	s->j = j;
	s->files = calloc(j->nfiles ? j->nfiles : 1, sizeof(*s->files));
	if (!s->files)
		return -1;
	for (i = 0; i < j->nfiles; i++)
		s->files[i].name = j->files[i].name;
	for (i = 0; i < j->nrecs; i++)
		if (j->recs[i].module == IOA_MOD_MPIIO && j->recs[i].file >= 0)
			s->files[j->recs[i].file].mpiio = 1;
	for (i = 0; i < j->nrecs; i++) {
		const struct an_record *r = &j->recs[i];
		struct layer *l;
		double t[3], bytes[2];

		if (r->module > IOA_MOD_MPIIO)
			continue;
		l = &s->l[r->module];
		if (r->module == IOA_MOD_POSIX) {
			t[RD] = fpos(r->f[POSIX_F_READ_TIME]);
			t[WR] = fpos(r->f[POSIX_F_WRITE_TIME]);
			t[META] = fpos(r->f[POSIX_F_META_TIME]);
			bytes[RD] = pos(r->c[POSIX_BYTES_READ]);
			bytes[WR] = pos(r->c[POSIX_BYTES_WRITTEN]);
			l->ops[RD] += pos(r->c[POSIX_READS]);
			l->ops[WR] += pos(r->c[POSIX_WRITES]);
			l->seq[RD] += pos(r->c[POSIX_SEQ_READS]);
			l->seq[WR] += pos(r->c[POSIX_SEQ_WRITES]);
			l->opens += pos(r->c[POSIX_OPENS]);
			if (r->file >= 0 && r->c[POSIX_MAX_BYTE_WRITTEN] >= 0)
				s->files[r->file].size =
					fmax(s->files[r->file].size,
					     (double)r->c[POSIX_MAX_BYTE_WRITTEN] + 1);
		} else if (r->module == IOA_MOD_STDIO) {
			t[RD] = fpos(r->f[STDIO_F_READ_TIME]);
			t[WR] = fpos(r->f[STDIO_F_WRITE_TIME]);
			t[META] = fpos(r->f[STDIO_F_META_TIME]);
			bytes[RD] = pos(r->c[STDIO_BYTES_READ]);
			bytes[WR] = pos(r->c[STDIO_BYTES_WRITTEN]);
			l->ops[RD] += pos(r->c[STDIO_READS]);
			l->ops[WR] += pos(r->c[STDIO_WRITES]);
			l->opens += pos(r->c[STDIO_OPENS]);
		} else {
			t[RD] = fpos(r->f[MPIIO_F_READ_TIME]);
			t[WR] = fpos(r->f[MPIIO_F_WRITE_TIME]);
			t[META] = fpos(r->f[MPIIO_F_META_TIME]);
			bytes[RD] = pos(r->c[MPIIO_BYTES_READ]);
			bytes[WR] = pos(r->c[MPIIO_BYTES_WRITTEN]);
			l->ops[RD] += pos(r->c[MPIIO_INDEP_READS]) + pos(r->c[MPIIO_COLL_READS]) +
				      pos(r->c[MPIIO_SPLIT_READS]) + pos(r->c[MPIIO_NB_READS]);
			l->ops[WR] += pos(r->c[MPIIO_INDEP_WRITES]) + pos(r->c[MPIIO_COLL_WRITES]) +
				      pos(r->c[MPIIO_SPLIT_WRITES]) + pos(r->c[MPIIO_NB_WRITES]);
			l->opens += pos(r->c[MPIIO_INDEP_OPENS]) + pos(r->c[MPIIO_COLL_OPENS]);
		}
		l->t[RD] += t[RD] * per;
		l->t[WR] += t[WR] * per;
		l->t[META] += t[META] * per;
		l->bytes[RD] += bytes[RD];
		l->bytes[WR] += bytes[WR];
		if (r->module != IOA_MOD_POSIX || r->file < 0 || !s->files[r->file].mpiio) {
			s->io += (t[RD] + t[WR] + t[META]) * per;
			s->meta += t[META] * per;
			if (r->file >= 0)
				s->files[r->file].bytes += bytes[RD] + bytes[WR];
		}
		if (r->file >= 0 && bytes[RD] + bytes[WR] > 0)
			s->files[r->file].moved = 1;
	}
	for (i = 0; i < j->nfiles; i++)
		if (s->files[i].moved && j->files[i].fs_type &&
		    add_str(&s->fs, &s->nfs, j->files[i].fs_type, strlen(j->files[i].fs_type)))
			return -1;
	uniq(s->fs, &s->nfs);
	for (i = 0; i < j->nhints; i++) {
		const char *p = j->hints[i].text, *nl;

		for (; p && *p; p = nl ? nl + 1 : NULL) {
			nl = strchr(p, '\n');
			if (add_str(&s->hints, &s->nhints, p, nl ? (size_t)(nl - p) : strlen(p)))
				return -1;
			if (!nl)
				break;
		}
	}
	uniq(s->hints, &s->nhints);
	qsort(s->files, j->nfiles, sizeof(*s->files), cmp_file);
	s->nfiles = j->nfiles;
	return 0;
}

/* The keys of the hints whose values differ, or that one job set only; 0 or -1. */
static int hints_changed(const struct side *a, const struct side *b, char ***keys, size_t *n)
{
	size_t i = 0, k = 0;

	while (i < a->nhints || k < b->nhints) {
		int c = i == a->nhints ? 1 : k == b->nhints ? -1 : strcmp(a->hints[i], b->hints[k]);
		const char *h = c <= 0 ? a->hints[i] : b->hints[k];

		if (c && add_str(keys, n, h, strcspn(h, "=")))
			return -1;
		i += c <= 0;
		k += c >= 0;
	}
	uniq(*keys, n);
	return 0;
}

static void side_free(struct side *s)
{
	size_t i;

	for (i = 0; i < s->nhints; i++)
		free(s->hints[i]);
	for (i = 0; i < s->nfs; i++)
		free(s->fs[i]);
	free(s->hints);
	free(s->fs);
	free(s->files);
}

/* ------------------------------------------------------------ findings */

static void finding(json_object *list, const char *what, const char *layer, const char *a,
		    const char *b, double impact, const char *explains)
{
	json_object *f = json_object_new_object();

	json_object_object_add(f, "what", json_object_new_string(what));
	json_object_object_add(f, "layer", layer ? json_object_new_string(layer) : NULL);
	json_object_object_add(f, "a", json_object_new_string(a));
	json_object_object_add(f, "b", json_object_new_string(b));
	json_object_object_add(f, "impact_seconds", json_object_new_double(impact));
	json_object_object_add(f, "explains", json_object_new_string(explains));
	json_object_array_add(list, f);
}

static int changed(double a, double b, double by)
{
	if (a <= 0 || b <= 0)
		return a != b;
	return b / a >= 1 + by || a / b >= 1 + by;
}

static void list_join(char **list, size_t n, char *buf, size_t len)
{
	size_t i, at = 0;

	buf[0] = '\0';
	for (i = 0; i < n && at + 1 < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s", i ? "," : "", list[i]);
	if (!n)
		snprintf(buf, len, "none");
}

/* The findings of one layer's reads or writes: volume and rate parts. */
static void transfers(json_object *list, const struct side *a, const struct side *b, int m, int d,
		      const char *hints, int fs_changed)
{
	const struct layer *la = &a->l[m], *lb = &b->l[m];
	double ta = la->t[d], tb = lb->t[d], ba = la->bytes[d], bb = lb->bytes[d];
	double volume, rate, sa, sb, qa, qb;
	char what[96], x[48], y[48], u[24], v[24];

	if (ta <= 0 && tb <= 0 && ba <= 0 && bb <= 0)
		return;
	volume = ba > 0 ? ta * (bb / ba) - ta : tb - ta;
	rate = ba > 0 ? tb - ta * (bb / ba) : 0;
	if (changed(ba, bb, 0.1)) {
		snprintf(what, sizeof(what), "bytes %s", d == RD ? "read" : "written");
		finding(list, what, layer_names[m], ioa_format_bytes(ba, x, sizeof(x)),
			ioa_format_bytes(bb, y, sizeof(y)), volume, "volume");
	}
	if (ba <= 0 || bb <= 0)
		return;
	sa = la->ops[d] > 0 ? ba / la->ops[d] : 0;
	sb = lb->ops[d] > 0 ? bb / lb->ops[d] : 0;
	qa = la->ops[d] > 0 ? la->seq[d] / la->ops[d] : 0;
	qb = lb->ops[d] > 0 ? lb->seq[d] / lb->ops[d] : 0;
	if (sa > 0 && sb > 0 && changed(sa, sb, 0.25)) {
		snprintf(what, sizeof(what), "transfer size of %s", dir_names[d]);
		snprintf(x, sizeof(x), "%s mean, %.0f calls", ioa_format_bytes(sa, u, sizeof(u)),
			 la->ops[d]);
		snprintf(y, sizeof(y), "%s mean, %.0f calls", ioa_format_bytes(sb, v, sizeof(v)),
			 lb->ops[d]);
		finding(list, what, layer_names[m], x, y, rate, "rate");
	} else if (m == IOA_MOD_POSIX && fabs(qa - qb) >= 0.2) {
		snprintf(what, sizeof(what), "sequential share of %s", dir_names[d]);
		snprintf(x, sizeof(x), "%.0f%%", 100 * qa);
		snprintf(y, sizeof(y), "%.0f%%", 100 * qb);
		finding(list, what, layer_names[m], x, y, rate, "rate");
	} else if (m == IOA_MOD_MPIIO && hints[0]) {
		snprintf(what, sizeof(what), "MPI-IO hints (%s), %s", hints, dir_names[d]);
		snprintf(x, sizeof(x), "%s/s",
			 ioa_format_bytes(ta > 0 ? ba / ta : 0, u, sizeof(u)));
		snprintf(y, sizeof(y), "%s/s",
			 ioa_format_bytes(tb > 0 ? bb / tb : 0, v, sizeof(v)));
		finding(list, what, layer_names[m], x, y, rate, "rate");
	} else if (changed(ta / ba, tb / bb, 0.25)) {
		snprintf(what, sizeof(what), "%s speed%s", dir_names[d],
			 fs_changed ? " (file systems changed)" : " (same sizes and pattern)");
		snprintf(x, sizeof(x), "%s/s",
			 ioa_format_bytes(ta > 0 ? ba / ta : 0, u, sizeof(u)));
		snprintf(y, sizeof(y), "%s/s",
			 ioa_format_bytes(tb > 0 ? bb / tb : 0, v, sizeof(v)));
		finding(list, what, layer_names[m], x, y, rate,
			fs_changed ? "rate" : "unexplained");
	}
}

static json_object *files_json(const struct side *a, const struct side *b, json_object *list,
			       double meta_change)
{
	json_object *o = json_object_new_object(), *only_a = json_object_new_array();
	json_object *only_b = json_object_new_array(), *resized = json_object_new_array();
	size_t i = 0, k = 0, na = 0, nb = 0, nr = 0;
	char x[48], y[48];

	while (i < a->nfiles || k < b->nfiles) {
		int c = i == a->nfiles	 ? 1
			: k == b->nfiles ? -1
					 : strcmp(a->files[i].name, b->files[k].name);

		if (c < 0 && ++na <= 20)
			json_object_array_add(only_a, json_object_new_string(a->files[i].name));
		if (c > 0 && ++nb <= 20)
			json_object_array_add(only_b, json_object_new_string(b->files[k].name));
		if (!c && changed(a->files[i].size, b->files[k].size, 0.1) && ++nr <= 20) {
			json_object *f = json_object_new_object();

			json_object_object_add(f, "file", json_object_new_string(a->files[i].name));
			json_object_object_add(f, "a", json_object_new_double(a->files[i].size));
			json_object_object_add(f, "b", json_object_new_double(b->files[k].size));
			json_object_array_add(resized, f);
		}
		i += c <= 0;
		k += c >= 0;
	}
	json_object_object_add(o, "only_a", only_a);
	json_object_object_add(o, "only_b", only_b);
	json_object_object_add(o, "resized", resized);
	json_object_object_add(o, "only_a_count", json_object_new_int64((int64_t)na));
	json_object_object_add(o, "only_b_count", json_object_new_int64((int64_t)nb));
	json_object_object_add(o, "resized_count", json_object_new_int64((int64_t)nr));
	if (a->nfiles != b->nfiles || na || nb) {
		snprintf(x, sizeof(x), "%zu files", a->nfiles);
		snprintf(y, sizeof(y), "%zu files (%zu new, %zu gone)", b->nfiles, nb, na);
		finding(list, "files", NULL, x, y, meta_change, "metadata");
	}
	if (nr) {
		snprintf(x, sizeof(x), "%zu files resized", nr);
		snprintf(y, sizeof(y), "see files.resized");
		finding(list, "file sizes", NULL, x, y, 0, "context");
	}
	return o;
}

static json_object *side_json(const struct side *s)
{
	json_object *o = json_object_new_object(), *layers = json_object_new_object();
	int m;

	json_object_object_add(o, "job", json_object_new_int64(s->j->id));
	json_object_object_add(o, "start_time", json_object_new_string(s->j->start_time));
	json_object_object_add(o, "program", json_object_new_string(s->j->exe));
	json_object_object_add(o, "ranks", json_object_new_int(s->j->nprocs));
	json_object_object_add(o, "seconds", json_object_new_double(s->j->seconds));
	json_object_object_add(o, "io_seconds", json_object_new_double(s->io));
	json_object_object_add(o, "meta_seconds", json_object_new_double(s->meta));
	for (m = 0; m < LAYERS; m++) {
		const struct layer *l = &s->l[m];
		json_object *x = json_object_new_object();

		json_object_object_add(x, "read_seconds", json_object_new_double(l->t[RD]));
		json_object_object_add(x, "write_seconds", json_object_new_double(l->t[WR]));
		json_object_object_add(x, "meta_seconds", json_object_new_double(l->t[META]));
		json_object_object_add(x, "bytes_read", json_object_new_double(l->bytes[RD]));
		json_object_object_add(x, "bytes_written", json_object_new_double(l->bytes[WR]));
		json_object_object_add(x, "reads", json_object_new_double(l->ops[RD]));
		json_object_object_add(x, "writes", json_object_new_double(l->ops[WR]));
		json_object_object_add(x, "opens", json_object_new_double(l->opens));
		json_object_object_add(layers, layer_names[m], x);
	}
	json_object_object_add(o, "layers", layers);
	return o;
}

static int by_impact(const void *x, const void *y)
{
	double a = fabs(json_object_get_double(
		       json_object_object_get(*(json_object *const *)x, "impact_seconds"))),
	       b = fabs(json_object_get_double(
		       json_object_object_get(*(json_object *const *)y, "impact_seconds")));

	return (a < b) - (a > b);
}

json_object *hist_diff(const struct an_job *ja, const struct an_job *jb)
{
	struct side a = {0}, b = {0};
	json_object *out = NULL, *list;
	char hints[256] = "", x[256], y[256], **keys = NULL;
	int m, d, fs_changed;
	size_t i, nkeys = 0;

	if (side_load(&a, ja) || side_load(&b, jb) || hints_changed(&a, &b, &keys, &nkeys))
		goto out;
	if (nkeys)
		list_join(keys, nkeys, hints, sizeof(hints));
	out = json_object_new_object();
	list = json_object_new_array();
	fs_changed = a.nfs != b.nfs;
	for (i = 0; !fs_changed && i < a.nfs; i++)
		fs_changed = strcmp(a.fs[i], b.fs[i]) != 0;
	for (m = 0; m < LAYERS; m++) {
		double da = a.l[m].t[META], db = b.l[m].t[META];

		for (d = RD; d <= WR; d++)
			transfers(list, &a, &b, m, d, hints, fs_changed);
		if (changed(a.l[m].opens, b.l[m].opens, 0.1)) {
			snprintf(x, sizeof(x), "%.0f opens", a.l[m].opens);
			snprintf(y, sizeof(y), "%.0f opens", b.l[m].opens);
			finding(list, "opens", layer_names[m], x, y, db - da, "metadata");
		} else if (changed(da, db, 0.25) && fabs(db - da) > 1e-4) {
			snprintf(x, sizeof(x), "%.3g s", da);
			snprintf(y, sizeof(y), "%.3g s", db);
			finding(list, "metadata time", layer_names[m], x, y, db - da,
				"unexplained");
		}
	}
	if (hints[0]) {
		list_join(a.hints, a.nhints, x, sizeof(x));
		list_join(b.hints, b.nhints, y, sizeof(y));
		finding(list, "MPI-IO hints", "MPI-IO", x, y, 0, "context");
	}
	if (fs_changed) {
		list_join(a.fs, a.nfs, x, sizeof(x));
		list_join(b.fs, b.nfs, y, sizeof(y));
		finding(list, "file systems", NULL, x, y, 0, "context");
	}
	if (ja->nprocs != jb->nprocs) {
		snprintf(x, sizeof(x), "%d", ja->nprocs);
		snprintf(y, sizeof(y), "%d", jb->nprocs);
		finding(list, "ranks", NULL, x, y, b.io - a.io, "context");
	}
	json_object_object_add(out, "files", files_json(&a, &b, list, b.meta - a.meta));
	/* Largest impact first (json-c sorts in place). */
	json_object_array_sort(list, by_impact);
	json_object_object_add(out, "a", side_json(&a));
	json_object_object_add(out, "b", side_json(&b));
	json_object_object_add(out, "io_seconds_change", json_object_new_double(b.io - a.io));
	json_object_object_add(out, "findings", list);
out:
	for (i = 0; i < nkeys; i++)
		free(keys[i]);
	free(keys);
	side_free(&a);
	side_free(&b);
	return out;
}
