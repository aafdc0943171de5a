/*
 * darshan-compare — compares one run's ioatlas log with darshan-parser's output
 * for the same program (t1050-darshan-counters).
 *
 *	darshan-compare OURS.json OURS_RUNDIR DARSHAN.txt DARSHAN_RUNDIR
 *	darshan-compare --entries
 *
 * OURS.json is `ioatlas parse --json` of the log (doubles at full precision),
 * DARSHAN.txt is `darshan-parser --all` of Darshan's log; files are matched by
 * module, rank and path relative to each run's folder.  Every counter Darshan
 * prints must be in our record; integers must be equal, floating-point counters
 * zero exactly where Darshan's print as zero (times cannot be equal across runs),
 * F_VARIANCE_RANK_BYTES equal to Darshan's printed precision, and our timestamps
 * ordered (start <= end).  A record id (POSIX_RENAMED_FROM) is compared as the
 * file it names.  Counters we have and Darshan has not must be marked (ioatlas)
 * in the counter table.  Any other difference must match an entry of
 * common/darshan-differences.h.
 *
 * Prints one line per difference: "listed N ..." (entry N explains it) or
 * "unlisted ..." / "bad ..." (a failure), then "compared": Darshan's records,
 * the counters of theirs that have a record of ours, how many agree; exits 1 when there was a
 *failure, 2 on a usage or input error.  --entries prints the table: index, kind, module, counters,
 *files.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "darshan-differences.h"
#include "ioa_counters.h"

struct dd_entry {
	const char *module;
	enum dd_ranks ranks;
	const char *files;
	const char *counters;
	enum dd_relation relation;
	enum dd_kind kind;
};

#define DD_ENTRY(module, ranks, files, counters, relation, kind, fixed_by, why) \
	{module, ranks, files, counters, relation, kind},
static const struct dd_entry entries[] = {DARSHAN_DIFFERENCES(DD_ENTRY)};
#undef DD_ENTRY
#define ENTRY_COUNT (sizeof(entries) / sizeof(entries[0]))

struct counter {
	char *name;
	int64_t value; /* integer counters */
	double fvalue; /* floating-point counters (name holds "_F_") */
};

struct record {
	char module[16];
	int rank;
	uint64_t id;
	char *name; /* relative to the run's folder when inside it */
	struct counter *counters;
	size_t count, cap;
	int matched;
};

struct side {
	struct record *records;
	size_t count, cap;
};

static int failures;
static size_t compared,
	differing; /* Darshan's counters of matched records, and those that differ */

static void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n);

	if (!q) {
		fprintf(stderr, "darshan-compare: out of memory\n");
		exit(2);
	}
	return q;
}

static char *xstrdup(const char *s)
{
	char *d = strdup(s);

	if (!d) {
		fprintf(stderr, "darshan-compare: out of memory\n");
		exit(2);
	}
	return d;
}

static int is_float(const char *counter)
{
	return strstr(counter, "_F_") != NULL;
}

static const char *relative(const char *name, const char *rundir)
{
	size_t n = strlen(rundir);

	if (strncmp(name, rundir, n) == 0 && name[n] == '/')
		return name + n + 1;
	return name;
}

static struct record *record_find(struct side *s, const char *module, int rank, const char *name)
{
	size_t i;

	for (i = 0; i < s->count; i++)
		if (s->records[i].rank == rank && !strcmp(s->records[i].module, module) &&
		    !strcmp(s->records[i].name, name))
			return &s->records[i];
	return NULL;
}

static struct record *record_by_id(struct side *s, uint64_t id)
{
	size_t i;

	for (i = 0; i < s->count; i++)
		if (s->records[i].id == id)
			return &s->records[i];
	return NULL;
}

static struct record *record_add(struct side *s, const char *module, int rank, uint64_t id,
				 const char *name)
{
	struct record *r;

	if (s->count == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 64;
		s->records = xrealloc(s->records, s->cap * sizeof(*s->records));
	}
	r = &s->records[s->count++];
	memset(r, 0, sizeof(*r));
	snprintf(r->module, sizeof(r->module), "%s", module);
	r->rank = rank;
	r->id = id;
	r->name = xstrdup(name);
	return r;
}

static struct counter *counter_add(struct record *r, const char *name)
{
	struct counter *c;

	if (r->count == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 128;
		r->counters = xrealloc(r->counters, r->cap * sizeof(*r->counters));
	}
	c = &r->counters[r->count++];
	memset(c, 0, sizeof(*c));
	c->name = xstrdup(name);
	return c;
}

static struct counter *counter_find(const struct record *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->count; i++)
		if (!strcmp(r->counters[i].name, name))
			return &r->counters[i];
	return NULL;
}

static void side_release(struct side *s)
{
	size_t i, j;

	for (i = 0; i < s->count; i++) {
		for (j = 0; j < s->records[i].count; j++)
			free(s->records[i].counters[j].name);
		free(s->records[i].counters);
		free(s->records[i].name);
	}
	free(s->records);
}

/* darshan-parser --all: "module rank id counter value file mount fs" lines. */
static int read_darshan(struct side *s, const char *path, const char *rundir)
{
	FILE *f = fopen(path, "r");
	char line[8192];
	int n = 0;

	if (!f) {
		fprintf(stderr, "darshan-compare: cannot open '%s': %s\n", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char *field[8], *save = NULL, *p = line;
		struct record *r;
		struct counter *c;
		int i;

		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '#' || line[0] == '\0')
			continue;
		for (i = 0; i < 8 && (field[i] = strtok_r(p, "\t", &save)); i++)
			p = NULL;
		if (i < 8 || (strcmp(field[0], "POSIX") && strcmp(field[0], "STDIO") &&
			      strcmp(field[0], "MPI-IO")))
			continue;
		r = record_find(s, field[0], atoi(field[1]), relative(field[5], rundir));
		if (!r)
			r = record_add(s, field[0], atoi(field[1]), strtoull(field[2], NULL, 10),
				       relative(field[5], rundir));
		c = counter_add(r, field[3]);
		if (is_float(field[3]))
			c->fvalue = strtod(field[4], NULL);
		else if (field[4][0] == '-')
			c->value = strtoll(field[4], NULL, 10);
		else /* record ids print unsigned */
			c->value = (int64_t)strtoull(field[4], NULL, 10);
		n++;
	}
	fclose(f);
	if (!n) {
		fprintf(stderr, "darshan-compare: no counters in '%s'\n", path);
		return -1;
	}
	return 0;
}

/* ioatlas parse --json: records[] with module, rank, id, name, counters, fcounters. */
static int read_ours(struct side *s, const char *path, const char *rundir)
{
	json_object *doc = json_object_from_file(path), *records;
	size_t i;

	if (!doc || !json_object_object_get_ex(doc, "records", &records)) {
		fprintf(stderr, "darshan-compare: cannot read the log's JSON '%s'\n", path);
		json_object_put(doc);
		return -1;
	}
	for (i = 0; i < json_object_array_length(records); i++) {
		json_object *jr = json_object_array_get_idx(records, i), *v = NULL, *counters;
		const char *module, *name;
		struct record *r;
		int rank;
		uint64_t id;

		json_object_object_get_ex(jr, "module", &v);
		module = json_object_get_string(v);
		json_object_object_get_ex(jr, "rank", &v);
		rank = json_object_get_int(v);
		json_object_object_get_ex(jr, "id", &v);
		id = json_object_get_uint64(v);
		json_object_object_get_ex(jr, "name", &v);
		name = json_object_get_string(v);
		if (!module || !name)
			continue;
		r = record_add(s, module, rank, id, relative(name, rundir));
		if (json_object_object_get_ex(jr, "counters", &counters)) {
			json_object_object_foreach(counters, key, val)
			{
				/* A record id (POSIX_RENAMED_FROM) is its digits, as the record's own. */
				counter_add(r, key)->value =
					json_object_is_type(val, json_type_string)
						? (int64_t)json_object_get_uint64(val)
						: json_object_get_int64(val);
			}
		}
		if (json_object_object_get_ex(jr, "fcounters", &counters)) {
			json_object_object_foreach(counters, key, val)
			{
				counter_add(r, key)->fvalue = json_object_get_double(val);
			}
		}
	}
	json_object_put(doc);
	return 0;
}

static int entry_selects(const struct dd_entry *e, const struct record *r, const char *counter)
{
	if (fnmatch(e->module, r->module, 0) || fnmatch(e->files, r->name, 0) ||
	    fnmatch(e->counters, counter, 0))
		return 0;
	return e->ranks == DD_ANY || (e->ranks == DD_SHARED) == (r->rank == -1);
}

static int relation_holds(enum dd_relation rel, const struct counter *ours,
			  const struct counter *theirs)
{
	switch (rel) {
	case DD_GREATER:
		return ours->value > theirs->value;
	case DD_UNMONITORED:
		return theirs->value == -1;
	case DD_DIFFERS:
		return 1;
	case DD_ONLY_OURS:
		break;
	}
	return 0;
}

/*
 * A record only we may have: a POSIX file never opened (no open, dup or
 * fileno succeeded) on which no byte moved, so Darshan, which makes a
 * record at an open, had no occasion to; a stream Darshan saw no read or
 * write on (it saw none of our writes: fortified printf).
 */
static int may_be_ours_only(const struct record *r)
{
	static const char *const posix[] = {"POSIX_OPENS", "POSIX_DUPS",   "POSIX_FILENOS",
					    "POSIX_READS", "POSIX_WRITES", NULL};
	static const char *const stdio[] = {"STDIO_READS", NULL};
	const char *const *used = !strcmp(r->module, "STDIO") ? stdio : posix;
	size_t k;

	for (k = 0; used[k]; k++) {
		const struct counter *c = counter_find(r, used[k]);

		if (!c || c->value != 0)
			return 0;
	}
	return 1;
}

/*
 * One difference in record r: a counter whose values (oc, tc; printed as ours and
 * theirs) differ, a counter Darshan has and we lack (oc NULL), or, with counter
 * DD_RECORD, a record only we have.  Listed when an entry selects it and its
 * relation holds.
 */
static void report(const struct record *r, const char *counter, const char *ours,
		   const char *theirs, const struct counter *oc, const struct counter *tc)
{
	int only_ours = !strcmp(counter, DD_RECORD);
	size_t i;

	if (!only_ours)
		differing++;
	for (i = 0; i < ENTRY_COUNT; i++) {
		if (!entry_selects(&entries[i], r, counter))
			continue;
		if (only_ours ? entries[i].relation == DD_ONLY_OURS && may_be_ours_only(r)
			      : oc && tc && relation_holds(entries[i].relation, oc, tc)) {
			printf("listed\t%zu\t%s\t%d\t%s\t%s\t%s\t%s\n", i, r->module, r->rank,
			       r->name, counter, ours, theirs);
			return;
		}
	}
	printf("unlisted\t%s\t%d\t%s\t%s\tours=%s\tdarshan=%s\n", r->module, r->rank, r->name,
	       counter, ours, theirs);
	failures++;
}

/* The counter's description in our table, or NULL when we have no such counter. */
static const char *our_desc(const char *module, const char *counter)
{
	unsigned m, i;

	for (m = 0; m < IOA_MOD_COUNT; m++) {
		const struct ioa_module_desc *d = &ioa_modules[m];

		if (strcmp(d->name, module))
			continue;
		for (i = 0; i < d->counter_count; i++)
			if (!strcmp(d->counter_names[i], counter))
				return d->counter_descs[i];
		for (i = 0; i < d->fcounter_count; i++)
			if (!strcmp(d->fcounter_names[i], counter))
				return d->fcounter_descs[i];
	}
	return NULL;
}

/* The file a record id names ("-" for none), so ids compare across runs. */
static const char *id_name(struct side *s, int64_t value)
{
	struct record *r = value ? record_by_id(s, (uint64_t)value) : NULL;

	return r ? r->name : value ? "(unknown record)" : "-";
}

static void check_order(const struct record *r, const char *first, const char *second)
{
	const struct counter *a = counter_find(r, first);
	const struct counter *b = counter_find(r, second);

	if (a && b && a->fvalue != 0 && b->fvalue != 0 && a->fvalue > b->fvalue) {
		printf("bad\t%s\t%d\t%s\t%s=%.9f > %s=%.9f\n", r->module, r->rank, r->name, first,
		       a->fvalue, second, b->fvalue);
		failures++;
	}
}

/* The counters' prefix of a module: "MPI-IO" names its counters MPIIO_. */
static const char *prefix(const struct record *r)
{
	return strcmp(r->module, "MPI-IO") ? r->module : "MPIIO";
}

static void compare_record(struct side *ours, struct side *theirs, struct record *o,
			   struct record *t)
{
	static const char *const events[] = {"OPEN", "READ", "WRITE", "CLOSE"};
	char a[64], b[64], first[64], second[64];
	size_t i;

	compared += t->count;
	for (i = 0; i < t->count; i++) {
		const struct counter *tc = &t->counters[i];
		const struct counter *oc = counter_find(o, tc->name);

		if (!oc) {
			report(o, tc->name, "(none)", "(present)", NULL, NULL);
			continue;
		}
		if (!strcmp(tc->name, "POSIX_RENAMED_FROM")) {
			const char *on = id_name(ours, oc->value), *tn = id_name(theirs, tc->value);

			if (strcmp(on, tn))
				report(o, tc->name, on, tn, oc, tc);
		} else if (is_float(tc->name)) {
			int differs = strstr(tc->name, "_F_VARIANCE_RANK_BYTES")
					      ? fabs(oc->fvalue - tc->fvalue) >
							5e-7 + 1e-9 * fabs(tc->fvalue)
					      : (oc->fvalue == 0) != (tc->fvalue == 0);

			if (differs) {
				snprintf(a, sizeof(a), "%.9g", oc->fvalue);
				snprintf(b, sizeof(b), "%.6f", tc->fvalue);
				report(o, tc->name, a, b, oc, tc);
			}
		} else if (oc->value != tc->value) {
			snprintf(a, sizeof(a), "%" PRId64, oc->value);
			snprintf(b, sizeof(b), "%" PRId64, tc->value);
			report(o, tc->name, a, b, oc, tc);
		}
	}
	for (i = 0; i < o->count; i++) {
		const char *desc = our_desc(o->module, o->counters[i].name);

		if (!counter_find(t, o->counters[i].name) &&
		    (!desc || strncmp(desc, "(ioatlas)", 9))) {
			printf("bad\t%s\t%d\t%s\t%s: not in Darshan's record, not marked "
			       "(ioatlas)\n",
			       o->module, o->rank, o->name, o->counters[i].name);
			failures++;
		}
	}
	for (i = 0; i < sizeof(events) / sizeof(events[0]); i++) {
		snprintf(first, sizeof(first), "%s_F_%s_START_TIMESTAMP", prefix(o), events[i]);
		snprintf(second, sizeof(second), "%s_F_%s_END_TIMESTAMP", prefix(o), events[i]);
		check_order(o, first, second);
	}
	snprintf(first, sizeof(first), "%s_F_FASTEST_RANK_TIME", prefix(o));
	snprintf(second, sizeof(second), "%s_F_SLOWEST_RANK_TIME", prefix(o));
	check_order(o, first, second);
}

static void print_entries(void)
{
	static const char *const kinds[] = {"always", "timing", "machine", "program"};
	size_t i;

	for (i = 0; i < ENTRY_COUNT; i++)
		printf("%zu\t%s\t%s\t%s\t%s\n", i, kinds[entries[i].kind], entries[i].module,
		       entries[i].counters, entries[i].files);
}

int main(int argc, char **argv)
{
	struct side ours = {0}, theirs = {0};
	size_t i;
	int rc = 2;

	if (argc == 2 && !strcmp(argv[1], "--entries")) {
		print_entries();
		return 0;
	}
	if (argc != 5) {
		fprintf(stderr, "usage: darshan-compare OURS.json OURS_RUNDIR DARSHAN.txt "
				"DARSHAN_RUNDIR\n       darshan-compare --entries\n");
		return 2;
	}
	if (read_ours(&ours, argv[1], argv[2]) || read_darshan(&theirs, argv[3], argv[4]))
		goto out;
	for (i = 0; i < theirs.count; i++) {
		struct record *t = &theirs.records[i];
		struct record *o = record_find(&ours, t->module, t->rank, t->name);

		if (!o) {
			printf("unlisted\t%s\t%d\t%s\t%s\tours=(none)\tdarshan=(record)\n",
			       t->module, t->rank, t->name, DD_RECORD);
			failures++;
			continue;
		}
		o->matched = 1;
		compare_record(&ours, &theirs, o, t);
	}
	for (i = 0; i < ours.count; i++)
		if (!ours.records[i].matched)
			report(&ours.records[i], DD_RECORD, "(record)", "(none)", NULL, NULL);
	printf("compared\t%zu records\t%zu counters\t%zu agree\n", theirs.count, compared,
	       compared - differing);
	rc = failures ? 1 : 0;
out:
	side_release(&ours);
	side_release(&theirs);
	return rc;
}
