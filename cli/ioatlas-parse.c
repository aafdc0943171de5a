/*
 * ioatlas-parse — prints an ioatlas log, `ioatlas parse LOG`.
 *
 * The default output follows darshan-parser's line layout, one counter per
 * line: module, rank, record id, counter, value, file name, mount point,
 * file-system type.  --total sums counters over all records per module,
 * --perf estimates I/O performance, --file lists files, --bins prints the
 * time-resolved view, --json writes the whole log as one JSON document.  File names are printed
 * with control and non-UTF-8 bytes escaped (\n, \t, \\, \xNN), so every line stays a line; in JSON,
 * "name" is that display form and "name_hex" keeps the exact bytes when they differ.  A damaged log
 * gets a message saying what is wrong and exit status 1.  A partial log (job key 31, recovered
 * from a killed job) gets a "# partial:" line saying how the job ended and until when its ranks
 * recorded, and a "partial" object in JSON (common/ioa_partial.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ioa_buf.h"
#include "ioa_errname.h"
#include "ioa_log.h"
#include "ioa_darshan.h"
#include "ioa_logr.h"
#include "ioa_opts.h"
#include "ioa_source.h"
#include "summary.h"
#include "ioa_parse.h"
#include "ioa_partial.h"

#define REGION_CAP ((size_t)1 << 31)

struct name_slot {
	uint64_t id;
	const unsigned char *name;
	uint32_t len;
};

struct mount {
	char *path;
	char *type;
	size_t path_len;
};

struct parse {
	struct ioa_log_reader reader;
	const char *path;
	int base, total, perf, file, file_list, json, bins;
	struct ioa_buf *kept; /* raw regions kept for their names and job entries */
	size_t kept_count;
	struct name_slot *names; /* open addressing on id */
	size_t name_cap;
	struct mount *mounts;
	size_t mount_count;
	struct ioa_buf job_raw;
	struct summary sums[IOA_MOD_COUNT]; /* --total, --file, --perf */
	/* Each module's counters (1: float counters) in the order they print: Darshan's, then ours.
	 */
	int order[IOA_MOD_COUNT][2][IOA_MAX_COUNTERS];
	unsigned norder[IOA_MOD_COUNT][2];
	json_object *jrecords, *jerrors, *jbins, *jhints, *jfolded, *jlibrary;
	struct ioa_log_mpi_library library; /* summed over the ranks' MPI library regions */
	int has_library;
	int imported; /* from another tool's log: its counters only */
	struct ioa_buf line;
	struct ioa_buf scratch; /* a Lustre pool name */
};

/* ---------------------------------------------------------------- names */

static int names_add(struct parse *p, uint64_t id, const unsigned char *name, uint32_t len)
{
	size_t i;

	if (!p->name_cap)
		return -ENOMEM;
	for (i = id % p->name_cap;; i = (i + 1) % p->name_cap) {
		if (!p->names[i].name || p->names[i].id == id) {
			p->names[i] = (struct name_slot){id, name, len};
			return 0;
		}
	}
}

static const struct name_slot *names_find(const struct parse *p, uint64_t id)
{
	size_t i, n;

	for (i = p->name_cap ? id % p->name_cap : 0, n = 0; n < p->name_cap;
	     i = (i + 1) % p->name_cap, n++) {
		if (!p->names[i].name)
			return NULL;
		if (p->names[i].id == id)
			return &p->names[i];
	}
	return NULL;
}

static int on_name(uint64_t id, const unsigned char *name, uint32_t len, void *arg)
{
	return names_add(arg, id, name, len);
}

/* ---------------------------------------------------------------- mounts */

static int on_mount(const unsigned char *path, uint32_t path_len, const unsigned char *type,
		    uint32_t type_len, void *arg)
{
	struct parse *p = arg;
	struct mount *m = realloc(p->mounts, (p->mount_count + 1) * sizeof(*m));

	if (!m)
		return -ENOMEM;
	p->mounts = m;
	m = &p->mounts[p->mount_count];
	m->path = strndup((const char *)path, path_len);
	m->type = strndup((const char *)type, type_len);
	m->path_len = path_len;
	if (!m->path || !m->type) {
		free(m->path);
		free(m->type);
		return -ENOMEM;
	}
	p->mount_count++;
	return 0;
}

/* The mount with the longest mount point that is a prefix of name. */
static const struct mount *mount_of(const struct parse *p, const struct name_slot *name)
{
	const struct mount *best = NULL;
	size_t i;

	if (!name)
		return NULL;
	for (i = 0; i < p->mount_count; i++) {
		const struct mount *m = &p->mounts[i];

		if (m->path_len <= name->len && !memcmp(m->path, name->name, m->path_len) &&
		    (m->path_len == name->len || name->name[m->path_len] == '/' ||
		     (m->path_len == 1 && m->path[0] == '/')) &&
		    (!best || m->path_len > best->path_len))
			best = m;
	}
	return best;
}

/* ---------------------------------------------------------------- job */

static const char *const job_key_names[] = {
#define JOB_KEY_NAME(id, value, name) [value] = name,
	IOA_JOB_KEYS(JOB_KEY_NAME)
#undef JOB_KEY_NAME
};

/* The value of "key=" in settings text ("key=value" lines), or NULL; *len its length. */
static const unsigned char *setting_value(const unsigned char *text, uint32_t text_len,
					  const char *key, uint32_t *len)
{
	size_t key_len = strlen(key);
	uint32_t at = 0;

	while (at < text_len) {
		const unsigned char *line = text + at;
		const unsigned char *end = memchr(line, '\n', text_len - at);
		uint32_t line_len = end ? (uint32_t)(end - line) : text_len - at;

		if (line_len > key_len && !memcmp(line, key, key_len) && line[key_len] == '=') {
			*len = line_len - (uint32_t)key_len - 1;
			return line + key_len + 1;
		}
		at += line_len + 1;
	}
	return NULL;
}

/*
 * The paths this log's runtime left out, from its settings: a header line
 * of its own, so that a reader of the records knows what they cannot show.
 */
static int print_exclusions(struct parse *p, const unsigned char *settings, uint32_t len)
{
	uint32_t excluded_len = 0, included_len = 0;
	const unsigned char *excluded =
		setting_value(settings, len, "exclude_paths", &excluded_len);
	const unsigned char *included =
		setting_value(settings, len, "include_paths", &included_len);

	if (!excluded)
		return 0;
	ioa_buf_reset(&p->line);
	if (ioa_buf_add_escaped(&p->line, excluded, excluded_len) ||
	    ioa_buf_addstr(&p->line, " (recorded even so: ") ||
	    ioa_buf_add_escaped(&p->line, included ? included : (const unsigned char *)"",
				included_len) ||
	    ioa_buf_addstr(&p->line, ")"))
		return -ENOMEM;
	printf("# exclusions: paths not recorded: %s; nor the MPI library's own calls\n",
	       ioa_buf_str(&p->line));
	return 0;
}

/*
 * A partial log (one recovered from a killed job's leftovers): how the job
 * ended and until when its ranks recorded, in one plain line.
 */
static int print_partial(struct parse *p, const unsigned char *value, uint32_t len)
{
	struct ioa_partial partial = IOA_PARTIAL_INIT;
	int rc = ioa_partial_parse(&partial, value, len);

	ioa_buf_reset(&p->line);
	rc = rc ? rc : ioa_partial_describe(&partial, IOA_PARTIAL_LINE, 0, 0, &p->line);
	if (!rc)
		printf("# partial: %s\n", ioa_buf_str(&p->line));
	ioa_partial_release(&partial);
	return rc;
}

static int on_job_text(uint16_t key, const unsigned char *value, uint32_t len, void *arg)
{
	struct parse *p = arg;
	const char *name =
		key < sizeof(job_key_names) / sizeof(job_key_names[0]) ? job_key_names[key] : NULL;
	uint32_t i;

	if (!name || key == IOA_JOB_RANK_NODES)
		return 0;
	if (key == IOA_JOB_PARTIAL)
		return print_partial(p, value, len);
	/* The exclusions' line first: it is made in the same buffer. */
	if (key == IOA_JOB_SETTINGS && print_exclusions(p, value, len))
		return -ENOMEM;
	ioa_buf_reset(&p->line);
	if (key == IOA_JOB_ARGS || key == IOA_JOB_HOSTNAMES) {
		/* NUL-separated lists print as space-separated words. */
		for (i = 0; i < len; i++) {
			if (value[i] == '\0') {
				if (i + 1 < len && ioa_buf_addstr(&p->line, " "))
					return -ENOMEM;
			} else if (ioa_buf_add_escaped(&p->line, value + i, 1)) {
				return -ENOMEM;
			}
		}
	} else if (ioa_buf_add_escaped(&p->line, value, len)) {
		return -ENOMEM;
	}
	if (key == IOA_JOB_SETTINGS) {
		char *line, *next;

		printf("# settings:\n");
		for (line = p->line.data; line && *line; line = next) {
			next = strstr(line, "\\n");
			if (next) {
				*next = '\0';
				next += 2;
			}
			printf("#   %s\n", line);
		}
		return 0;
	}
	printf("# %s: %s\n", name, ioa_buf_str(&p->line));
	return 0;
}

/* The partial key's fields, those it holds and that are well formed; numbers as numbers. */
/*
 * A 64-bit id or nanosecond time, as a JSON string of its decimal digits:
 * JSON tools keep numbers as doubles, which round past 2^53.
 */
static json_object *json_u64_text(uint64_t v)
{
	char text[24];

	snprintf(text, sizeof(text), "%llu", (unsigned long long)v);
	return json_object_new_string(text);
}

static int partial_json(json_object *job, const unsigned char *value, uint32_t len)
{
	struct ioa_partial partial = IOA_PARTIAL_INIT;
	struct ioa_buf text = IOA_BUF_INIT(REGION_CAP);
	json_object *o = json_object_new_object();
	const char *how;
	int rc = ioa_partial_parse(&partial, value, len);

	how = ioa_partial_how_name(partial.how);
	if (how)
		json_object_object_add(o, "how", json_object_new_string(how));
	if (partial.signal)
		json_object_object_add(o, "signal", json_object_new_int(partial.signal));
	if (partial.signal && ioa_signal_name(partial.signal))
		json_object_object_add(o, "signal_name",
				       json_object_new_string(ioa_signal_name(partial.signal)));
	if (partial.has_abort_code)
		json_object_object_add(o, "abort_code", json_object_new_int(partial.abort_code));
	if (partial.reason)
		json_object_object_add(o, "reason", json_object_new_string(partial.reason));
	if (partial.ranks)
		json_object_object_add(o, "ranks", json_object_new_string(partial.ranks));
	if (partial.missing)
		json_object_object_add(o, "missing", json_object_new_string(partial.missing));
	if (partial.until_first_ns)
		json_object_object_add(o, "until_first_ns", json_u64_text(partial.until_first_ns));
	if (partial.until_last_ns)
		json_object_object_add(o, "until_last_ns", json_u64_text(partial.until_last_ns));
	json_object_object_add(o, "dropped", json_object_new_int64(partial.dropped));
	rc = rc ? rc : ioa_partial_describe(&partial, IOA_PARTIAL_LINE, 0, 0, &text);
	json_object_object_add(o, "description", json_object_new_string(ioa_buf_str(&text)));
	json_object_object_add(job, "partial", o);
	ioa_partial_release(&partial);
	ioa_buf_release(&text);
	return rc;
}

static int all_digits(const unsigned char *value, uint32_t len)
{
	for (uint32_t i = 0; i < len; i++)
		if (value[i] < '0' || value[i] > '9')
			return 0;
	return 1;
}

/* The job keys whose values are counts: JSON numbers. */
static int is_count_key(uint16_t key)
{
	return key == IOA_JOB_UID || key == IOA_JOB_NPROCS || key == IOA_JOB_NNODES ||
	       key == IOA_JOB_FOLDED || key == IOA_JOB_PID;
}

static int on_job_json(uint16_t key, const unsigned char *value, uint32_t len, void *arg)
{
	json_object *job = arg;
	const char *name =
		key < sizeof(job_key_names) / sizeof(job_key_names[0]) ? job_key_names[key] : NULL;
	struct ioa_buf text = IOA_BUF_INIT(REGION_CAP);
	uint32_t i;
	int rc = 0;

	if (!name)
		return 0;
	if (key == IOA_JOB_PARTIAL)
		return partial_json(job, value, len);
	if (key == IOA_JOB_RANK_NODES) {
		json_object *nodes = json_object_new_array();

		for (i = 0; i + 4 <= len; i += 4)
			json_object_array_add(nodes, json_object_new_int64(ioa_get_u32(value + i)));
		json_object_object_add(job, name, nodes);
		return 0;
	}
	if (key == IOA_JOB_ARGS || key == IOA_JOB_HOSTNAMES) {
		json_object *list = json_object_new_array();
		uint32_t start = 0;

		for (i = 0; i <= len && !rc; i++) {
			if (i == len || value[i] == '\0') {
				if (i > start || i < len) {
					ioa_buf_reset(&text);
					rc = ioa_buf_add_escaped(&text, value + start, i - start);
					json_object_array_add(
						list, json_object_new_string(ioa_buf_str(&text)));
				}
				start = i + 1;
			}
		}
		json_object_object_add(job, name, list);
	} else if (key == IOA_JOB_SOURCE) {
		/* Where an imported log came from: its known fields (common/ioa_source.h). */
		struct ioa_source src = IOA_SOURCE_INIT;
		json_object *o = json_object_new_object();

		rc = ioa_source_parse(&src, value, len);
#define IOA_SOURCE_JSON(f) \
	if (src.f)         \
		json_object_object_add(o, #f, json_object_new_string(src.f));
		IOA_SOURCE_FIELDS(IOA_SOURCE_JSON)
#undef IOA_SOURCE_JSON
		json_object_object_add(job, name, o);
		ioa_source_release(&src);
	} else if (is_count_key(key) && len && len < 19 && all_digits(value, len)) {
		/* Counts are JSON numbers; ids and nanosecond times stay text (past 2^53). */
		char digits[24];

		memcpy(digits, value, len);
		digits[len] = '\0';
		json_object_object_add(job, name,
				       json_object_new_int64((int64_t)strtoull(digits, NULL, 10)));
	} else {
		rc = ioa_buf_add_escaped(&text, value, len);
		json_object_object_add(job, name, json_object_new_string(ioa_buf_str(&text)));
	}
	ioa_buf_release(&text);
	return rc;
}

/* ---------------------------------------------------------------- records */

/* One counter line of a record; p->line holds its (escaped) name. */
static void print_counter(struct parse *p, const struct ioa_log_record *rec, const struct mount *m,
			  const char *counter, int64_t value)
{
	/* A record id prints unsigned, as darshan-parser prints it. */
	printf(ioa_counter_is_record_id(counter) ? "%s\t%d\t%llu\t%s\t%llu\t%s\t%s\t%s\n"
						 : "%s\t%d\t%llu\t%s\t%lld\t%s\t%s\t%s\n",
	       ioa_modules[rec->module].name, rec->rank, (unsigned long long)rec->id, counter,
	       (long long)value, p->line.data, m ? m->path : "UNKNOWN", m ? m->type : "UNKNOWN");
}

/* One line of a Lustre record whose value is text. */
static void print_text_counter(struct parse *p, const struct ioa_log_record *rec,
			       const struct mount *m, const char *counter, const char *value)
{
	printf("LUSTRE\t%d\t%llu\t%s\t%s\t%s\t%s\t%s\n", rec->rank, (unsigned long long)rec->id,
	       counter, value, p->line.data, m ? m->path : "UNKNOWN", m ? m->type : "UNKNOWN");
}

/*
 * A Lustre record as darshan-parser prints it: its components (pattern,
 * flags and pool name in words) and, under each, the OSTs of its stripes.
 */
static int print_lustre_text(struct parse *p, const struct ioa_log_record *rec,
			     const struct mount *m)
{
	static const char *const comp_fields[] = {"STRIPE_SIZE", "STRIPE_COUNT", "STRIPE_PATTERN",
						  "FLAGS",	 "EXT_START",	 "EXT_END",
						  "MIRROR_ID"};
	static const char *const flag_words[] = {"stale",    "prefrd",	"prefwr",    "offline",
						 "init",     "nosync",	"extension", "parity",
						 "compress", "partial", "nocompr",   "neg"};
	const int64_t *c = rec->counters;
	int64_t ncomps = c[LUSTRE_NUM_COMPONENTS], ost = 0;
	char counter[64], text[128];

	print_counter(p, rec, m, "LUSTRE_NUM_COMPONENTS", ncomps);
	print_counter(p, rec, m, "LUSTRE_NUM_STRIPES", c[LUSTRE_NUM_STRIPES]);
	for (int64_t n = 0; n < ncomps && n < IOA_LUSTRE_COMPS; n++) {
		const int64_t *comp = c + LUSTRE_COMP1_STRIPE_SIZE + n * IOA_LUSTRE_COMP_STRIDE;
		size_t len = 0;

		for (unsigned f = 0; f < 7; f++) {
			snprintf(counter, sizeof(counter), "LUSTRE_COMP%lld_%s", (long long)n + 1,
				 comp_fields[f]);
			if (f == 2) {
				uint64_t pattern = (uint64_t)comp[f];

				print_text_counter(p, rec, m, counter,
						   pattern == 0	  ? "raid0"
						   : pattern == 2 ? "mdt"
						   : pattern == 4 ? "raid0,overstriped"
						   : pattern == 8 ? "foreign"
								  : "N/A");
			} else if (f == 3) {
				text[0] = '\0';
				len = 0;
				for (unsigned b = 0; b < 12; b++)
					if ((uint64_t)comp[f] & (uint64_t)1 << b)
						len += (size_t)snprintf(
							text + len, sizeof(text) - len, "%s%s",
							len ? "," : "", flag_words[b]);
				print_text_counter(p, rec, m, counter,
						   comp[f] == -1 ? "N/A"
						   : len	 ? text
								 : "0");
			} else {
				print_counter(p, rec, m, counter, comp[f]);
			}
		}
		IOA_LUSTRE_POOL_GET(comp + 7, (unsigned char *)text);
		text[16] = '\0';
		ioa_buf_reset(&p->scratch);
		if (ioa_buf_add_escaped(&p->scratch, text, strnlen(text, 16)))
			return -ENOMEM;
		snprintf(counter, sizeof(counter), "LUSTRE_COMP%lld_POOL_NAME", (long long)n + 1);
		print_text_counter(p, rec, m, counter, text[0] ? ioa_buf_str(&p->scratch) : "N/A");
		for (int64_t k = 0; k < comp[1] && ost < IOA_LUSTRE_OSTS; k++, ost++) {
			snprintf(counter, sizeof(counter), "LUSTRE_COMP%lld_OST_ID_%lld",
				 (long long)n + 1, (long long)k);
			print_counter(p, rec, m, counter, c[LUSTRE_OST_ID_0 + ost]);
		}
	}
	return 0;
}

static int print_record_text(struct parse *p, const struct ioa_log_record *rec)
{
	const struct ioa_module_desc *mod = &ioa_modules[rec->module];
	const struct name_slot *name = names_find(p, rec->id);
	const struct mount *m = mount_of(p, name);
	unsigned i, k;

	ioa_buf_reset(&p->line);
	if (rec->flags & IOA_REC_FOLDED) {
		if (ioa_buf_addstr(&p->line, "<folded: files past the memory budget>"))
			return -ENOMEM;
	} else if (name ? ioa_buf_add_escaped(&p->line, name->name, name->len)
			: ioa_buf_addstr(&p->line, "<unknown>")) {
		return -ENOMEM;
	}
	if (rec->module == IOA_MOD_LUSTRE)
		return print_lustre_text(p, rec, m);
	for (k = 0; k < p->norder[rec->module][0]; k++) {
		i = (unsigned)p->order[rec->module][0][k];
		if (!ioa_counter_prints_last(mod->counter_names[i]))
			print_counter(p, rec, m, mod->counter_names[i], rec->counters[i]);
	}
	for (k = 0; k < p->norder[rec->module][1]; k++) {
		i = (unsigned)p->order[rec->module][1][k];
		printf("%s\t%d\t%llu\t%s\t%.6f\t%s\t%s\t%s\n", mod->name, rec->rank,
		       (unsigned long long)rec->id, mod->fcounter_names[i], rec->fcounters[i],
		       p->line.data, m ? m->path : "UNKNOWN", m ? m->type : "UNKNOWN");
	}
	/* A dataset's (variable's) file comes last, as darshan-parser prints it. */
	for (k = 0; k < p->norder[rec->module][0]; k++) {
		i = (unsigned)p->order[rec->module][0][k];
		if (ioa_counter_prints_last(mod->counter_names[i]))
			print_counter(p, rec, m, mod->counter_names[i], rec->counters[i]);
	}
	return 0;
}

static int add_name_json(json_object *obj, const struct name_slot *name)
{
	struct ioa_buf text = IOA_BUF_INIT(REGION_CAP);
	int rc;

	if (!name) {
		json_object_object_add(obj, "name", NULL);
		return 0;
	}
	rc = ioa_buf_add_escaped(&text, name->name, name->len);
	if (!rc) {
		json_object_object_add(obj, "name", json_object_new_string(ioa_buf_str(&text)));
		if (text.len != name->len || memcmp(text.data, name->name, name->len)) {
			uint32_t i;

			ioa_buf_reset(&text);
			for (i = 0; i < name->len && !rc; i++)
				rc = ioa_buf_addf(&text, "%02x", name->name[i]);
			json_object_object_add(obj, "name_hex",
					       json_object_new_string(ioa_buf_str(&text)));
		}
	}
	ioa_buf_release(&text);
	return rc;
}

static int add_record_json(struct parse *p, const struct ioa_log_record *rec)
{
	const struct ioa_module_desc *mod = &ioa_modules[rec->module];
	const struct name_slot *name = names_find(p, rec->id);
	const struct mount *m = mount_of(p, name);
	json_object *obj = json_object_new_object(), *c = json_object_new_object(),
		    *fc = json_object_new_object();
	unsigned i;

	json_object_object_add(obj, "module", json_object_new_string(mod->name));
	json_object_object_add(obj, "rank", json_object_new_int(rec->rank));
	json_object_object_add(obj, "id", json_u64_text(rec->id));
	json_object_object_add(obj, "shared", json_object_new_boolean(rec->flags & IOA_REC_SHARED));
	json_object_object_add(obj, "created",
			       json_object_new_boolean(rec->flags & IOA_REC_CREATED));
	json_object_object_add(obj, "removed",
			       json_object_new_boolean(rec->flags & IOA_REC_REMOVED));
	json_object_object_add(obj, "folded", json_object_new_boolean(rec->flags & IOA_REC_FOLDED));
	json_object_object_add(obj, "partial",
			       json_object_new_boolean(rec->flags & IOA_REC_PARTIAL));
	if (add_name_json(obj, rec->flags & IOA_REC_FOLDED ? NULL : name))
		return -ENOMEM;
	json_object_object_add(obj, "mount", m ? json_object_new_string(m->path) : NULL);
	json_object_object_add(obj, "fs_type", m ? json_object_new_string(m->type) : NULL);
	for (i = 0; i < mod->counter_count; i++) {
		if (p->imported && ioa_counter_is_ours(mod->counter_descs[i]))
			continue;
		json_object_object_add(c, mod->counter_names[i],
				       ioa_counter_is_record_id(mod->counter_names[i])
					       ? json_u64_text((uint64_t)rec->counters[i])
					       : json_object_new_int64(rec->counters[i]));
	}
	for (i = 0; i < mod->fcounter_count; i++)
		json_object_object_add(fc, mod->fcounter_names[i],
				       json_object_new_double(rec->fcounters[i]));
	json_object_object_add(obj, "counters", c);
	json_object_object_add(obj, "fcounters", fc);
	json_object_array_add(p->jrecords, obj);
	return 0;
}

static int on_record(const struct ioa_log_record *rec, void *arg)
{
	struct parse *p = arg;
	int rc;

	if ((p->total || p->file || p->perf) && (rc = summary_add(&p->sums[rec->module], rec)))
		return rc;
	if (p->json)
		return add_record_json(p, rec);
	if (p->base)
		return print_record_text(p, rec);
	return 0;
}

/*
 * One failure entry: the application's (tag "FAILED", into jerrors) or the
 * MPI library's (tag "#MPILIB", a comment line, into jlibrary).  An MPI-IO
 * entry's error is an MPI error class, any other's an errno.
 */
static int print_failure(struct parse *p, const struct ioa_log_failure *f, const char *tag,
			 json_object *list)
{
	const struct name_slot *name = f->record_id ? names_find(p, f->record_id) : NULL;
	char errbuf[IOA_ERRNAME_MAX];
	const char *errname =
		ioa_errname(f->err, f->module == IOA_MOD_MPIIO, errbuf, sizeof(errbuf));

	ioa_buf_reset(&p->line);
	if (name ? ioa_buf_add_escaped(&p->line, name->name, name->len)
		 : ioa_buf_addstr(&p->line, "<no file>"))
		return -ENOMEM;
	if (p->json) {
		json_object *obj = json_object_new_object();

		json_object_object_add(obj, "module",
				       json_object_new_string(ioa_modules[f->module].name));
		json_object_object_add(obj, "rank", json_object_new_int(f->rank));
		json_object_object_add(obj, "id", json_u64_text(f->record_id));
		json_object_object_add(
			obj, "operation",
			json_object_new_string_len((const char *)f->op, (int)f->op_len));
		json_object_object_add(obj,
				       f->module == IOA_MOD_MPIIO ? "mpi_error_class" : "errno",
				       json_object_new_string(errname));
		json_object_object_add(obj, "count", json_object_new_uint64(f->count));
		json_object_object_add(obj, "name", json_object_new_string(ioa_buf_str(&p->line)));
		json_object_array_add(list, obj);
	} else if (p->base) {
		printf("%s\t%s\t%d\t%llu\t%.*s\t%s\t%llu\t%s\n", tag, ioa_modules[f->module].name,
		       f->rank, (unsigned long long)f->record_id, (int)f->op_len, f->op, errname,
		       (unsigned long long)f->count, ioa_buf_str(&p->line));
	}
	return 0;
}

static int on_failure(const struct ioa_log_failure *f, void *arg)
{
	struct parse *p = arg;

	return print_failure(p, f, "FAILED", p->jerrors);
}

static int on_bins(const struct ioa_log_bins *b, void *arg)
{
	struct parse *p = arg;
	const struct name_slot *name = names_find(p, b->record_id);
	uint32_t k;

	ioa_buf_reset(&p->line);
	if (name ? ioa_buf_add_escaped(&p->line, name->name, name->len)
		 : ioa_buf_addstr(&p->line, "<unknown>"))
		return -ENOMEM;
	if (p->json) {
		json_object *obj = json_object_new_object(), *lists[4];
		int i;

		for (i = 0; i < 4; i++)
			lists[i] = json_object_new_array();
		for (k = 0; k < b->nbins; k++) {
			json_object_array_add(lists[0], json_object_new_uint64(b->read_bytes[k]));
			json_object_array_add(lists[1], json_object_new_uint64(b->write_bytes[k]));
			json_object_array_add(lists[2], json_object_new_uint64(b->read_ops[k]));
			json_object_array_add(lists[3], json_object_new_uint64(b->write_ops[k]));
		}
		json_object_object_add(obj, "module",
				       json_object_new_string(ioa_modules[b->module].name));
		json_object_object_add(obj, "rank", json_object_new_int(b->rank));
		json_object_object_add(obj, "id", json_u64_text(b->record_id));
		json_object_object_add(obj, "name", json_object_new_string(ioa_buf_str(&p->line)));
		json_object_object_add(obj, "bin_width_s", json_object_new_double(b->width_s));
		json_object_object_add(obj, "start_time_ns", json_u64_text(b->start_ns));
		json_object_object_add(obj, "read_bytes", lists[0]);
		json_object_object_add(obj, "write_bytes", lists[1]);
		json_object_object_add(obj, "read_ops", lists[2]);
		json_object_object_add(obj, "write_ops", lists[3]);
		json_object_array_add(p->jbins, obj);
		return 0;
	}
	for (k = 0; k < b->nbins; k++)
		if (b->read_ops[k] || b->write_ops[k])
			printf("BIN\t%s\t%d\t%llu\t%u\t%.6f\t%.6f\t%llu\t%llu\t%u\t%u\t%s\n",
			       ioa_modules[b->module].name, b->rank,
			       (unsigned long long)b->record_id, k, k * b->width_s,
			       (k + 1) * b->width_s, (unsigned long long)b->read_bytes[k],
			       (unsigned long long)b->write_bytes[k], b->read_ops[k],
			       b->write_ops[k], p->line.data);
	return 0;
}

static int print_bins(struct parse *p)
{
	struct ioa_buf raw = IOA_BUF_INIT(REGION_CAP);
	uint32_t i;
	int rc = 0;

	if (!p->json)
		printf("\n# time bins (per rank, from its start)\n#BIN\t<module>\t<rank>\t<record "
		       "id>"
		       "\t<bin>\t<start s>\t<end s>\t<bytes read>\t<bytes written>\t<reads>"
		       "\t<writes>\t<file name>\n");
	for (i = 0; i < p->reader.region_count && !rc; i++) {
		if (p->reader.regions[i].type != IOA_REGION_BINS)
			continue;
		rc = ioa_logr_read_region(&p->reader, i, &raw);
		if (!rc)
			rc = ioa_logr_each_bins(&p->reader, &raw, on_bins, p);
	}
	ioa_buf_release(&raw);
	return rc;
}

static int on_hints(uint64_t id, int32_t rank, const unsigned char *text, uint32_t len, void *arg)
{
	struct parse *p = arg;
	const struct name_slot *name = names_find(p, id);
	struct ioa_buf file = IOA_BUF_INIT(REGION_CAP), key = IOA_BUF_INIT(REGION_CAP),
		       value = IOA_BUF_INIT(REGION_CAP);
	uint32_t start = 0, i;
	int rc = name ? ioa_buf_add_escaped(&file, name->name, name->len)
		      : ioa_buf_addstr(&file, "<unknown>");

	for (i = 0; i < len && !rc; i++) {
		const unsigned char *line = text + start, *eq;

		if (text[i] != '\n')
			continue;
		eq = memchr(line, '=', i - start);
		ioa_buf_reset(&key);
		ioa_buf_reset(&value);
		if (eq) {
			rc = ioa_buf_add_escaped(&key, line, (size_t)(eq - line));
			if (!rc)
				rc = ioa_buf_add_escaped(&value, eq + 1,
							 (size_t)(text + i - eq - 1));
		}
		start = i + 1;
		if (rc || !eq)
			continue;
		if (p->json) {
			json_object *obj = json_object_new_object();

			json_object_object_add(obj, "rank", json_object_new_int(rank));
			json_object_object_add(obj, "id", json_u64_text(id));
			json_object_object_add(obj, "name", json_object_new_string(file.data));
			json_object_object_add(obj, "key", json_object_new_string(key.data));
			json_object_object_add(obj, "value",
					       json_object_new_string(ioa_buf_str(&value)));
			json_object_array_add(p->jhints, obj);
		} else if (p->base) {
			printf("HINT\t%d\t%llu\t%s\t%s\t%s\n", rank, (unsigned long long)id,
			       key.data, ioa_buf_str(&value), file.data);
		}
	}
	ioa_buf_release(&file);
	ioa_buf_release(&key);
	ioa_buf_release(&value);
	return rc;
}

static int on_folded(int32_t rank, uint64_t dropped, uint64_t id, enum ioa_module module, void *arg)
{
	struct parse *p = arg;
	const struct name_slot *name = names_find(p, id);

	ioa_buf_reset(&p->line);
	if (name ? ioa_buf_add_escaped(&p->line, name->name, name->len)
		 : ioa_buf_addstr(&p->line, "<name not kept>"))
		return -ENOMEM;
	if (p->json) {
		json_object *obj = json_object_new_object();

		json_object_object_add(obj, "module",
				       json_object_new_string(ioa_modules[module].name));
		json_object_object_add(obj, "rank", json_object_new_int(rank));
		json_object_object_add(obj, "id", json_u64_text(id));
		json_object_object_add(obj, "name", json_object_new_string(p->line.data));
		json_object_object_add(obj, "unnamed_on_rank", json_object_new_uint64(dropped));
		json_object_array_add(p->jfolded, obj);
	} else if (p->base) {
		printf("FOLDED\t%s\t%d\t%llu\t%llu\t%s\n", ioa_modules[module].name, rank,
		       (unsigned long long)id, (unsigned long long)dropped, p->line.data);
	}
	return 0;
}

/* ---------------------------------------------------------------- driver */

static int keep_region(struct parse *p, uint32_t i, struct ioa_buf **out)
{
	struct ioa_buf *kept = realloc(p->kept, (p->kept_count + 1) * sizeof(*kept));
	int rc;

	if (!kept)
		return -ENOMEM;
	p->kept = kept;
	ioa_buf_init(&p->kept[p->kept_count], REGION_CAP);
	rc = ioa_logr_read_region(&p->reader, i, &p->kept[p->kept_count]);
	*out = &p->kept[p->kept_count++];
	return rc;
}

/* One rank's MPI library region, into the job's sums. */
static int sum_library(struct parse *p, uint32_t i)
{
	struct ioa_buf raw = IOA_BUF_INIT(REGION_CAP);
	struct ioa_log_mpi_library lib;
	int rc = ioa_logr_read_region(&p->reader, i, &raw);

	if (!rc)
		rc = ioa_logr_mpi_library(&p->reader, &raw, &lib, NULL, NULL);
	if (!rc) {
		p->library.calls += lib.calls;
		p->library.failed += lib.failed;
		p->library.failed_mpiio += lib.failed_mpiio;
		p->has_library = 1;
	}
	ioa_buf_release(&raw);
	return rc;
}

/* A failed call of the MPI library: a comment line under its header, or JSON. */
static int on_library_failure(const struct ioa_log_failure *f, void *arg)
{
	struct parse *p = arg;

	return print_failure(p, f, "#MPILIB", p->jlibrary);
}

/*
 * The MPI library's own I/O (the runtime's MPI library regions): header
 * lines, so that it is in view without being taken for the application's.
 */
static int print_library(struct parse *p)
{
	struct ioa_buf raw = IOA_BUF_INIT(REGION_CAP);
	uint32_t i;
	int rc = 0;

	if (!p->has_library)
		return 0;
	if (!p->json) {
		printf("# mpi library: %llu calls inside MPI_Init, MPI_Finalize and communication "
		       "calls (%llu failed), %llu failed calls inside MPI-IO calls: the MPI "
		       "library's, not the application's files or failures\n",
		       (unsigned long long)p->library.calls, (unsigned long long)p->library.failed,
		       (unsigned long long)p->library.failed_mpiio);
		if ((p->library.failed || p->library.failed_mpiio) && p->base)
			printf("#MPILIB\t<module>\t<rank>\t<record id>\t<operation>\t<errno>"
			       "\t<count>\t<file name>\n");
	}
	for (i = 0; i < p->reader.region_count && !rc; i++) {
		struct ioa_log_mpi_library lib;

		if (p->reader.regions[i].type != IOA_REGION_MPILIB || (!p->base && !p->json))
			continue;
		rc = ioa_logr_read_region(&p->reader, i, &raw);
		if (!rc)
			rc = ioa_logr_mpi_library(&p->reader, &raw, &lib, on_library_failure, p);
	}
	ioa_buf_release(&raw);
	return rc;
}

/* First pass: names, mounts and the job, which records refer to. */
static int note_source(uint16_t key, const unsigned char *value, uint32_t len, void *arg)
{
	(void)value, (void)len;
	if (key == IOA_JOB_SOURCE)
		((struct parse *)arg)->imported = 1;
	return 0;
}

static int load_metadata(struct parse *p)
{
	size_t names = 0, i;
	struct ioa_buf *raw;
	int rc = 0;

	for (i = 0; i < p->reader.region_count; i++)
		if (p->reader.regions[i].type == IOA_REGION_NAMES)
			names += p->reader.regions[i].raw_size / 12 + 1;
	p->name_cap = 2 * names + 16;
	p->names = calloc(p->name_cap, sizeof(*p->names));
	if (!p->names)
		return -ENOMEM;
	for (i = 0; i < p->reader.region_count && !rc; i++) {
		switch (p->reader.regions[i].type) {
		case IOA_REGION_NAMES:
			rc = keep_region(p, (uint32_t)i, &raw);
			if (!rc)
				rc = ioa_logr_each_name(&p->reader, raw, on_name, p);
			break;
		case IOA_REGION_MOUNTS:
			rc = keep_region(p, (uint32_t)i, &raw);
			if (!rc)
				rc = ioa_logr_each_mount(&p->reader, raw, on_mount, p);
			break;
		case IOA_REGION_JOB:
			rc = ioa_logr_read_region(&p->reader, (uint32_t)i, &p->job_raw);
			/* An imported log: its tool's counters only, in text and JSON alike. */
			if (!rc)
				rc = ioa_logr_each_job_entry(&p->reader, &p->job_raw, note_source,
							     p);
			break;
		case IOA_REGION_MPILIB:
			rc = sum_library(p, (uint32_t)i);
			break;
		}
	}
	return rc;
}

static int walk_records(struct parse *p)
{
	struct ioa_buf raw = IOA_BUF_INIT(REGION_CAP);
	uint32_t i;
	int rc = 0;

	for (i = 0; i < p->reader.region_count && !rc; i++) {
		uint32_t type = p->reader.regions[i].type;
		const struct ioa_module_desc *mod = ioa_module_by_region(type);

		if (!mod && type != IOA_REGION_ERRORS && type != IOA_REGION_HINTS &&
		    type != IOA_REGION_FOLDED)
			continue;
		rc = ioa_logr_read_region(&p->reader, i, &raw);
		if (rc)
			break;
		if (type == IOA_REGION_FOLDED) {
			if (p->base && !p->json)
				printf("\n# files folded into the overflow record (memory budget)\n"
				       "#FOLDED\t<module>\t<rank>\t<record id>\t<unnamed on rank>"
				       "\t<file name>\n");
			rc = ioa_logr_each_folded(&p->reader, &raw, on_folded, p);
		} else if (type == IOA_REGION_HINTS) {
			if (p->base && !p->json)
				printf("\n# MPI-IO hints given at open\n#HINT\t<rank>\t<record "
				       "id>\t<key>"
				       "\t<value>\t<file name>\n");
			rc = ioa_logr_each_hints(&p->reader, &raw, on_hints, p);
		} else if (mod) {
			if (p->base && !p->json)
				printf("\n# %s module data\n#<module>\t<rank>\t<record "
				       "id>\t<counter>"
				       "\t<value>\t<file name>\t<mount pt>\t<fs type>\n",
				       mod->name);
			rc = ioa_logr_each_record(&p->reader, i, &raw, on_record, p);
		} else {
			if (p->base && !p->json)
				printf("\n# failed calls\n#FAILED\t<module>\t<rank>\t<record id>"
				       "\t<operation>\t<errno, or MPI error class>\t<count>\t<file "
				       "name>\n");
			rc = ioa_logr_each_failure(&p->reader, &raw, on_failure, p);
		}
	}
	ioa_buf_release(&raw);
	return rc;
}

/*
 * The order counters print in: Darshan's (so that lines come as
 * darshan-parser's do), then ioatlas's own, which a log imported from
 * Darshan does not have.
 */
static void set_order(struct parse *p)
{
	for (unsigned m = 0; m < IOA_MOD_COUNT; m++)
		for (int f = 0; f < 2; f++) {
			const struct ioa_module_desc *mod = &ioa_modules[m];
			unsigned count = f ? mod->fcounter_count : mod->counter_count, n;
			const char *const *descs = f ? mod->fcounter_descs : mod->counter_descs;
			int *order = p->order[m][f];

			n = (unsigned)ioa_darshan_order((enum ioa_module)m, f, order,
							IOA_MAX_COUNTERS);
			for (unsigned i = 0; i < count && !p->imported; i++)
				if (ioa_counter_is_ours(descs[i]))
					order[n++] = (int)i;
			p->norder[m][f] = n;
		}
}

/*
 * darshan-parser's --total, --file and --perf, module by module in its
 * order (POSIX, MPI-IO, STDIO), each after a banner that names the module.
 */
static void print_summaries(struct parse *p)
{
	static const enum ioa_module order[] = {IOA_MOD_POSIX, IOA_MOD_MPIIO, IOA_MOD_STDIO};

	for (size_t k = 0; k < sizeof(order) / sizeof(order[0]); k++) {
		struct summary *s = &p->sums[order[k]];

		if (!s->records)
			continue;
		printf("\n# *******************************************************\n"
		       "# %s module data\n"
		       "# *******************************************************\n",
		       ioa_modules[order[k]].name);
		if (p->total) {
			printf("\n");
			summary_print_total(s, p->order[order[k]][0], p->norder[order[k]][0],
					    p->order[order[k]][1], p->norder[order[k]][1]);
		}
		if (p->file)
			summary_print_files(s, order[k]);
		if (p->perf)
			summary_print_perf(s);
	}
}

static int on_file_record(const struct ioa_log_record *rec, void *arg)
{
	struct parse *p = arg;
	const struct name_slot *name = names_find(p, rec->id);

	if (rec->module != IOA_MOD_POSIX && rec->module != IOA_MOD_STDIO)
		return 0;
	ioa_buf_reset(&p->line);
	if (name ? ioa_buf_add_escaped(&p->line, name->name, name->len)
		 : ioa_buf_addstr(&p->line, rec->flags & IOA_REC_FOLDED ? "<folded>" : "<unknown>"))
		return -ENOMEM;
	if (rec->module == IOA_MOD_POSIX)
		printf("%llu\t%s\t%d\t%lld\t%lld\t%lld\t%s%s%s\n", (unsigned long long)rec->id,
		       ioa_modules[rec->module].name, rec->rank,
		       (long long)rec->counters[POSIX_OPENS],
		       (long long)rec->counters[POSIX_BYTES_READ],
		       (long long)rec->counters[POSIX_BYTES_WRITTEN], p->line.data,
		       rec->flags & IOA_REC_CREATED && rec->flags & IOA_REC_REMOVED ? " (temporary)"
										    : "",
		       rec->flags & IOA_REC_PARTIAL ? " (partial: some ranks folded it)" : "");
	else
		printf("%llu\t%s\t%d\t%lld\t%lld\t%lld\t%s%s\n", (unsigned long long)rec->id,
		       ioa_modules[rec->module].name, rec->rank,
		       (long long)(rec->counters[STDIO_OPENS] + rec->counters[STDIO_FDOPENS]),
		       (long long)rec->counters[STDIO_BYTES_READ],
		       (long long)rec->counters[STDIO_BYTES_WRITTEN], p->line.data,
		       rec->flags & IOA_REC_PARTIAL ? " (partial: some ranks folded it)" : "");
	return 0;
}

static int print_file_list(struct parse *p)
{
	struct ioa_buf raw = IOA_BUF_INIT(REGION_CAP);
	uint32_t i;
	int rc = 0;

	printf("\n# files\n#<record id>\t<module>\t<rank>\t<opens>\t<bytes read>\t<bytes written>"
	       "\t<file name>\n");
	for (i = 0; i < p->reader.region_count && !rc; i++) {
		if (!ioa_module_by_region(p->reader.regions[i].type))
			continue;
		rc = ioa_logr_read_region(&p->reader, i, &raw);
		if (!rc)
			rc = ioa_logr_each_record(&p->reader, i, &raw, on_file_record, p);
	}
	ioa_buf_release(&raw);
	return rc;
}

/* The MPI library's own I/O, summed over the ranks, with its failed calls. */
static json_object *library_json(const struct parse *p)
{
	json_object *library = json_object_new_object();

	json_object_object_add(library, "calls", json_object_new_uint64(p->library.calls));
	json_object_object_add(library, "failed", json_object_new_uint64(p->library.failed));
	json_object_object_add(library, "failed_inside_mpiio",
			       json_object_new_uint64(p->library.failed_mpiio));
	json_object_object_add(library, "failures", p->jlibrary);
	return library;
}

static int run_json(struct parse *p)
{
	json_object *root = json_object_new_object(), *job = json_object_new_object(),
		    *mounts = json_object_new_array();
	size_t i;
	int rc;

	p->jrecords = json_object_new_array();
	p->jerrors = json_object_new_array();
	p->jbins = json_object_new_array();
	p->jhints = json_object_new_array();
	p->jfolded = json_object_new_array();
	p->jlibrary = json_object_new_array();
	json_object_object_add(
		root, "format_version",
		json_object_new_string(
			IOA_LOG_VERSION_MAJOR == p->reader.version_major ? "1" : "unknown"));
	json_object_object_add(root, "folded",
			       json_object_new_boolean(p->reader.flags & IOA_LOG_FLAG_FOLDED));
	rc = ioa_logr_each_job_entry(&p->reader, &p->job_raw, on_job_json, job);
	for (i = 0; i < p->mount_count; i++) {
		json_object *m = json_object_new_object();

		json_object_object_add(m, "path", json_object_new_string(p->mounts[i].path));
		json_object_object_add(m, "fs_type", json_object_new_string(p->mounts[i].type));
		json_object_array_add(mounts, m);
	}
	if (!rc)
		rc = walk_records(p);
	if (!rc)
		rc = print_bins(p);
	if (!rc)
		rc = print_library(p);
	json_object_object_add(root, "job", job);
	json_object_object_add(root, "mounts", mounts);
	json_object_object_add(root, "records", p->jrecords);
	json_object_object_add(root, "failures", p->jerrors);
	json_object_object_add(root, "bins", p->jbins);
	json_object_object_add(root, "hints", p->jhints);
	json_object_object_add(root, "folded_files", p->jfolded);
	json_object_object_add(root, "mpi_library", library_json(p));
	if (!rc)
		printf("%s\n",
		       json_object_to_json_string_ext(
			       root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(root);
	return rc;
}

static int run_text(struct parse *p)
{
	int rc;

	printf("# ioatlas log version: %u.%u\n", p->reader.version_major, p->reader.version_minor);
	printf("# log: %s\n", p->path);
	if (p->reader.flags & IOA_LOG_FLAG_FOLDED)
		printf("# incomplete: some files were folded into an overflow record "
		       "(memory budget); totals stay exact\n");
	rc = ioa_logr_each_job_entry(&p->reader, &p->job_raw, on_job_text, p);
	if (!rc)
		rc = print_library(p);
	if (!rc && p->base) {
		size_t i;

		for (i = 0; i < p->mount_count; i++)
			printf("# mount entry:\t%s\t%s\n", p->mounts[i].path, p->mounts[i].type);
	}
	set_order(p);
	if (!rc)
		rc = walk_records(p);
	if (!rc && (p->total || p->file || p->perf))
		print_summaries(p);
	if (!rc && p->file_list)
		rc = print_file_list(p);
	if (!rc && p->bins)
		rc = print_bins(p);
	return rc;
}

static void release(struct parse *p)
{
	size_t i;

	for (i = 0; i < p->kept_count; i++)
		ioa_buf_release(&p->kept[i]);
	free(p->kept);
	for (i = 0; i < p->mount_count; i++) {
		free(p->mounts[i].path);
		free(p->mounts[i].type);
	}
	free(p->mounts);
	free(p->names);
	for (i = 0; i < IOA_MOD_COUNT; i++)
		summary_release(&p->sums[i]);
	ioa_buf_release(&p->job_raw);
	ioa_buf_release(&p->line);
	ioa_buf_release(&p->scratch);
	ioa_logr_close(&p->reader);
}

static void usage(FILE *out)
{
	fprintf(out,
		"usage: ioatlas parse [-abtpflj] [--bins] LOG\n"
		"\n"
		"  -a, --all        --base, --total, --file and --perf, as darshan-parser --all\n"
		"  -b, --base       every counter of every record (the default)\n"
		"  -t, --total      counters combined over all records, per module "
		"(darshan-parser's)\n"
		"  -p, --perf       estimated I/O performance, per module (darshan-parser's)\n"
		"  -f, --file       files by kind of access, per module (darshan-parser's)\n"
		"  -l, --file-list  one line per file: record id, module, rank, opens, bytes\n"
		"      --bins       bytes and operations per time bin, file and rank\n"
		"  -j, --json       the whole log as JSON\n"
		"  -h, --help       this help\n");
}

int main(int argc, char **argv)
{
	static const struct option longs[] = {
		{"all", no_argument, NULL, 'a'},	{"base", no_argument, NULL, 'b'},
		{"total", no_argument, NULL, 't'},	{"perf", no_argument, NULL, 'p'},
		{"file", no_argument, NULL, 'f'},	{"file-list", no_argument, NULL, 'l'},
		{"bins", no_argument, NULL, 'B' + 256}, {"json", no_argument, NULL, 'j'},
		{"help", no_argument, NULL, 'h'},	{NULL, 0, NULL, 0},
	};
	struct parse p = {0};
	int c, rc;

	ioa_log_set_progname("ioatlas parse");
	while ((c = ioa_getopt(argc, argv, "abtpfljh", longs)) != -1) {
		switch (c) {
		case 'a':
			p.base = p.total = p.file = p.perf = 1;
			break;
		case 'b':
			p.base = 1;
			break;
		case 't':
			p.total = 1;
			break;
		case 'p':
			p.perf = 1;
			break;
		case 'f':
			p.file = 1;
			break;
		case 'l':
			p.file_list = 1;
			break;
		case 'B' + 256:
			p.bins = 1;
			break;
		case 'j':
			p.json = 1;
			break;
		case 'h':
			usage(stdout);
			return IOA_EXIT_OK;
		default:
			usage(stderr);
			return IOA_EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		usage(stderr);
		return IOA_EXIT_USAGE;
	}
	if (!p.total && !p.perf && !p.file && !p.file_list && !p.bins)
		p.base = 1;
	p.path = argv[optind];
	ioa_buf_init(&p.job_raw, REGION_CAP);
	ioa_buf_init(&p.line, REGION_CAP);
	ioa_buf_init(&p.scratch, REGION_CAP);

	rc = ioa_logr_open_any(&p.reader, p.path);
	if (!rc)
		rc = load_metadata(&p);
	if (!rc)
		rc = p.json ? run_json(&p) : run_text(&p);
	if (rc) {
		fflush(stdout);
		ioa_error("cannot read log '%s': %s", p.path,
			  p.reader.error[0] ? p.reader.error : ioa_strerror(rc));
	}
	release(&p);
	return rc ? IOA_EXIT_FAIL : IOA_EXIT_OK;
}
