/*
 * ioatlas-trace — prints a log's operation trace, `ioatlas trace LOG`.
 *
 * The default view is the compressed one: per group of ranks that did the
 * same thing, the tree of loops and calls, each call with its numbers as
 * the trace models them (offset = base + stride*i per enclosing loop, or
 * the explicit list) and its mean duration and gap (and, where the gaps
 * changed in order, the first and last of them: gaps=A->B).  --expand
 * prints one line per call, in each rank's order, like a DXT dump: numbers
 * exact, times from the stored distributions, gaps in their order.  --rank
 * and --file select; --json writes the same as one JSON document.  File
 * names are escaped as in `ioatlas parse`.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ioa_buf.h"
#include "ioa_errname.h"
#include "ioa_log.h"
#include "ioa_darshan.h"
#include "ioa_logr.h"
#include "ioa_opts.h"
#include "ioa_parse.h"
#include "ioa_trace.h"

#define REGION_CAP ((size_t)1 << 31)

/*
 * Calls --expand prints at most, over all ranks, unless --max-calls says
 * otherwise: a loop of 2^62 iterations takes a few bytes to store, and
 * printing it would never end.
 */
#define DEFAULT_MAX_CALLS ((uint64_t)1 << 22)

struct name {
	uint64_t id;
	char *text; /* display form */
};

struct tool {
	struct ioa_log_reader reader;
	struct ioa_trace trace;
	struct name *names;
	size_t nnames, name_cap;
	int expand, json;
	const char *path;
	uint64_t max_calls, calls_left; /* --expand's bound, and what is left of it */
	uint64_t stored, raw;		/* the trace regions' bytes in the log, and decompressed */
	int64_t only_rank;		/* -1: every rank */
	const char *only_file;
	unsigned char *match; /* per file slot of the rank being printed: passes --file */
	uint64_t counts[72];  /* the iteration counts of the loops around the node being printed */
	json_object *jout;
	/* the rank being printed */
	const struct ioa_trace_rank *r;
	json_object *jcur; /* the JSON array being filled */
	json_object *jstack[72];
	unsigned jdepth;
	struct ioa_buf line;
	double io, sync, compute; /* totals of one rank, from the distributions */
	struct ioa_buf segments;  /* the segments region, when the log has one (Darshan's DXT) */
	uint64_t nsegments;	  /* segments printed */
};

static int on_name(uint64_t id, const unsigned char *bytes, uint32_t len, void *arg)
{
	struct tool *t = arg;
	struct ioa_buf text = IOA_BUF_INIT(1 << 20);
	struct name *n;

	if (t->nnames == t->name_cap) {
		size_t cap = t->name_cap * 2 + 64;
		struct name *names = realloc(t->names, cap * sizeof(*names));

		if (!names)
			return -ENOMEM;
		t->names = names;
		t->name_cap = cap;
	}
	n = &t->names[t->nnames];
	n->id = id;
	if (ioa_buf_add_escaped(&text, bytes, len)) {
		ioa_buf_release(&text);
		return -ENOMEM;
	}
	n->text = ioa_buf_detach(&text, NULL);
	if (!n->text)
		n->text = strdup("");
	t->nnames++;
	return n->text ? 0 : -ENOMEM;
}

static int name_cmp(const void *a, const void *b)
{
	const struct name *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static const struct name *name_of(const struct tool *t, uint64_t id)
{
	struct name key = {.id = id};

	return t->nnames ? bsearch(&key, t->names, t->nnames, sizeof(key), name_cmp) : NULL;
}

static int load(struct tool *t)
{
	struct ioa_buf raw = IOA_BUF_INIT(REGION_CAP);
	uint32_t i;
	int rc = 0;

	for (i = 0; i < t->reader.region_count && !rc; i++) {
		uint32_t type = t->reader.regions[i].type;

		if (type == IOA_REGION_SEGMENTS) {
			rc = ioa_logr_read_region(&t->reader, i, &t->segments);
			continue;
		}
		if (type != IOA_REGION_NAMES && type != IOA_REGION_TRACE)
			continue;
		if (type == IOA_REGION_TRACE) {
			t->stored += t->reader.regions[i].stored_size;
			t->raw += t->reader.regions[i].raw_size;
		}
		rc = ioa_logr_read_region(&t->reader, i, &raw);
		if (rc)
			break;
		if (type == IOA_REGION_NAMES) {
			rc = ioa_logr_each_name(&t->reader, &raw, on_name, t);
		} else {
			rc = ioa_trace_decode(&t->trace, raw.data, raw.len);
			if (rc == -EINVAL)
				ioa_error("malformed trace region %u", i);
		}
	}
	ioa_buf_release(&raw);
	if (!rc)
		qsort(t->names, t->nnames, sizeof(*t->names), name_cmp);
	return rc;
}

/* ---------------------------------------------------------------- one call */

static const char *module_name(unsigned module)
{
	if (module == IOA_TRACE_MPI)
		return "MPI";
	return module < IOA_MOD_COUNT ? ioa_modules[module].name : "?";
}

/* The file (or communicator) of slot, in display form. */
static void target_of(const struct tool *t, const struct ioa_trace_sig *sig, int64_t slot,
		      char *out, size_t len)
{
	const struct ioa_trace_rank *r = t->r;

	if (sig->module == IOA_TRACE_MPI) {
		if (slot >= 0 && slot < r->ncomms)
			snprintf(out, len, "comm%" PRId64 "(size=%" PRId64 ")", slot,
				 r->comms[slot].size);
		else
			snprintf(out, len, "-");
	} else {
		const struct name *n =
			slot >= 0 && slot < r->nfiles ? name_of(t, r->files[slot]) : NULL;

		snprintf(out, len, "%s", n ? n->text : "<unknown>");
	}
}

/* Whether a call on slot passes --file (t->match: the rank's files that do). */
static int selected(const struct tool *t, const struct ioa_trace_sig *sig, int64_t slot)
{
	if (!t->only_file)
		return 1;
	return sig->module != IOA_TRACE_MPI && slot >= 0 && slot < t->r->nfiles && t->match[slot];
}

static const char *flag_text(unsigned flags, char *out, size_t len)
{
	static const struct {
		unsigned bit;
		const char *name;
	} names[] = {{IOA_TR_FAILED, "failed"}, {IOA_TR_SUB, "sub"},	 {IOA_TR_CREATE, "create"},
		     {IOA_TR_REMOVE, "remove"}, {IOA_TR_HINTS, "hints"}, {IOA_TR_ID, "id"},
		     {IOA_TR_UNDER, "under"}};
	size_t used = 0, i;

	out[0] = '\0';
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (flags & names[i].bit)
			used += (size_t)snprintf(out + used, len - used, "%s%s", used ? "," : "",
						 names[i].name);
	if (!used)
		snprintf(out, len, "-");
	return out;
}

/* What aux means for this call, as a label. */
static const char *aux_label(const struct ioa_trace_sig *sig)
{
	if (sig->flags & IOA_TR_SUB)
		return "parent";
	if (sig->flags & IOA_TR_ID)
		return "id";
	if (sig->module == IOA_TRACE_MPI) {
		if (!strncmp(sig->name, "Comm_", 5))
			return "newcomm";
		if (!strcmp(sig->name, "Sendrecv") || !strcmp(sig->name, "Sendrecv_replace"))
			return "source";
		if (!strcmp(sig->name, "Send") || !strcmp(sig->name, "Ssend") ||
		    !strcmp(sig->name, "Rsend") || !strcmp(sig->name, "Bsend") ||
		    !strcmp(sig->name, "Recv"))
			return "tag";
		return "request";
	}
	return "aux";
}

/* The hints of an MPI_File_open (their string index is in err). */
static const char *hints_of(const struct tool *t, const struct ioa_trace_sig *sig)
{
	if (!(sig->flags & IOA_TR_HINTS) || sig->err < 0 || (uint32_t)sig->err >= t->r->nstrings)
		return NULL;
	return t->r->strings[sig->err];
}

static int add_hints_text(struct ioa_buf *b, const char *hints)
{
	int rc = ioa_buf_addstr(b, " hints=\"");
	size_t i;

	for (i = 0; hints[i] && !rc; i++)
		rc = hints[i] == '\n' ? (hints[i + 1] ? ioa_buf_addstr(b, ";") : 0)
				      : ioa_buf_add_escaped(b, hints + i, 1);
	return rc ? rc : ioa_buf_addstr(b, "\"");
}

/* What every line and object about a call says: the call, its file or communicator, flags. */
struct call_text {
	char target[4200];
	char flags[64];
	const char *hints;
	int err;
	int mpi;		       /* err is an MPI error class */
	const char *err_name;	       /* set when err is */
	char err_buf[IOA_ERRNAME_MAX]; /* err_name, when made up */
};

static void describe(const struct tool *t, const struct ioa_trace_sig *sig, int64_t slot,
		     struct call_text *c)
{
	target_of(t, sig, slot, c->target, sizeof(c->target));
	flag_text(sig->flags, c->flags, sizeof(c->flags));
	c->hints = hints_of(t, sig);
	c->err = (sig->flags & IOA_TR_FAILED) ? sig->err : 0;
	c->mpi = sig->module == IOA_MOD_MPIIO || sig->module == IOA_TRACE_MPI;
	if (c->err)
		c->err_name = ioa_errname(c->err, c->mpi, c->err_buf, sizeof(c->err_buf));
}

/* A JSON object for a call (its numbers and times are the caller's to add). */
static json_object *call_json(const struct ioa_trace_sig *sig, const struct call_text *c)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "module", json_object_new_string(module_name(sig->module)));
	json_object_object_add(o, "op", json_object_new_string(sig->name));
	json_object_object_add(o, sig->module == IOA_TRACE_MPI ? "comm" : "file",
			       json_object_new_string(c->target));
	json_object_object_add(o, "flags", json_object_new_string(c->flags));
	if (c->err && !c->mpi)
		json_object_object_add(o, "errno", json_object_new_int(c->err));
	if (c->err)
		json_object_object_add(o, "error", json_object_new_string(c->err_name));
	if (c->hints)
		json_object_object_add(o, "hints", json_object_new_string(c->hints));
	return o;
}

/* The end of a text line about a call: its error (errno or MPI error class), hints, newline. */
static int add_tail_text(struct ioa_buf *b, const struct call_text *c)
{
	return (c->err && ioa_buf_addf(b, " %s=%s", c->mpi ? "error" : "errno", c->err_name)) ||
			       (c->hints && add_hints_text(b, c->hints)) || ioa_buf_addstr(b, "\n")
		       ? -ENOMEM
		       : 0;
}

/* ---------------------------------------------------------------- expanded */

static int on_event(void *arg, const struct ioa_trace_event *e)
{
	struct tool *t = arg;
	const struct ioa_trace_sig *sig = e->sig;
	struct call_text c;

	if (sig->module == IOA_TRACE_MPI)
		t->sync += e->duration;
	else if (!(sig->flags & IOA_TR_SUB))
		t->io += e->duration;
	t->compute += e->gap;
	if (!selected(t, sig, e->slot))
		return 0;
	describe(t, sig, e->slot, &c);
	if (t->json) {
		json_object *o = call_json(sig, &c);

		json_object_object_add(o, "seq", json_object_new_int64((int64_t)e->seq));
		json_object_object_add(o, sig->module == IOA_TRACE_MPI ? "peer" : "offset",
				       json_object_new_int64(e->offset));
		json_object_object_add(o, "length", json_object_new_int64(e->length));
		json_object_object_add(o, aux_label(sig), json_object_new_int64(e->aux));
		json_object_object_add(o, "start", json_object_new_double(e->start));
		json_object_object_add(o, "duration", json_object_new_double(e->duration));
		json_object_object_add(o, "gap", json_object_new_double(e->gap));
		return json_object_array_add(t->jcur, o) ? -ENOMEM : 0;
	}
	ioa_buf_reset(&t->line);
	if (ioa_buf_addf(&t->line,
			 "%6u %8" PRIu64 " %-6s %-22s %20" PRId64 " %12" PRId64 " %8" PRId64
			 " %12.6f %10.6f %-8s %s",
			 t->r->rank, e->seq, module_name(sig->module), sig->name, e->offset,
			 e->length, e->aux, e->start, e->duration, c.flags, c.target) ||
	    add_tail_text(&t->line, &c))
		return -ENOMEM;
	fputs(ioa_buf_str(&t->line), stdout);
	return 0;
}

/* ---------------------------------------------------------------- compressed */

static int add_model_text(struct ioa_buf *b, const char *label, const struct ioa_trace_model *m)
{
	unsigned k;
	int rc = ioa_buf_addf(b, " %s=", label);

	if (m->explicit_list) {
		uint64_t i, show = m->n < 4 ? m->n : 4;

		rc = rc ? rc : ioa_buf_addstr(b, "[");
		for (i = 0; i < show && !rc; i++)
			rc = ioa_buf_addf(b, "%s%" PRId64, i ? "," : "", m->list[i]);
		if (!rc && m->n > show)
			rc = ioa_buf_addf(b, ",... %" PRIu64 " values", m->n);
		return rc ? rc : ioa_buf_addstr(b, "]");
	}
	rc = rc ? rc : ioa_buf_addf(b, "%" PRId64, m->base);
	/* stride[k] goes with the loop k levels out from the call: index i<depth-1-k>. */
	for (k = 0; k < m->nstrides && !rc; k++)
		if (m->stride[k])
			rc = ioa_buf_addf(b, "%+" PRId64 "*i%u", m->stride[k], m->nstrides - 1 - k);
	return rc;
}

/* Whether a number is ever anything but 0 (aux is often unused). */
static int model_used(const struct ioa_trace_model *m)
{
	unsigned k;

	for (k = 0; k < m->nstrides; k++)
		if (m->stride[k])
			return 1;
	return m->explicit_list || m->base;
}

static double hist_mean(const struct ioa_trace_hist *h, uint64_t *total)
{
	double sum = 0;
	uint32_t i;

	*total = 0;
	for (i = 0; i < h->n; i++) {
		sum += ioa_trace_bin_ticks(h->bin[i]) * (double)h->count[i];
		*total += h->count[i];
	}
	return *total ? sum / (double)*total : 0;
}

static json_object *model_json(const struct ioa_trace_model *m)
{
	json_object *o = json_object_new_object();
	unsigned k;

	if (m->explicit_list) {
		json_object *list = json_object_new_array();
		uint64_t i;

		for (i = 0; i < m->n; i++)
			json_object_array_add(list, json_object_new_int64(m->list[i]));
		json_object_object_add(o, "values", list);
	} else {
		json_object *strides = json_object_new_array();

		json_object_object_add(o, "base", json_object_new_int64(m->base));
		for (k = 0; k < m->nstrides; k++)
			json_object_array_add(strides, json_object_new_int64(m->stride[k]));
		json_object_object_add(o, "strides", strides);
	}
	return o;
}

/* The slots a leaf's calls use (the reader checked they are valid, or -1). */
static void slot_span(const struct tool *t, unsigned depth, const struct ioa_trace_model *m,
		      struct ioa_trace_span *sp)
{
	uint64_t counts[IOA_TRACE_MAX_DEPTH];
	unsigned k;

	for (k = 0; k < m->nstrides && k < depth && k < IOA_TRACE_MAX_DEPTH; k++)
		counts[k] = t->counts[depth - 1 - k];
	if (ioa_trace_model_span(m, counts, sp))
		sp->step = 0;
}

/* Whether any call of a leaf passes --file. */
static int leaf_selected(const struct tool *t, const struct ioa_trace_leaf *leaf,
			 const struct ioa_trace_span *sp)
{
	const struct ioa_trace_model *m = &leaf->model[IOA_TRACE_SLOT];
	int64_t j;
	uint64_t i;

	if (!t->only_file || !sp->step)
		return selected(t, leaf->sig, sp->first);
	if (m->explicit_list) {
		for (i = 0; i < m->n; i++)
			if (selected(t, leaf->sig, m->list[i]))
				return 1;
		return 0;
	}
	for (j = sp->lo; j <= sp->hi; j += (int64_t)sp->step)
		if (selected(t, leaf->sig, j))
			return 1;
	return 0;
}

/* A call's order of gaps: its runs of executions in order, each with its mean gap. */
static json_object *order_json(const struct ioa_trace_order *o, double spt)
{
	json_object *a = json_object_new_array();
	uint32_t i;

	for (i = 0; a && i < o->n; i++) {
		json_object *run = json_object_new_object();

		json_object_object_add(run, "calls", json_object_new_int64((int64_t)o->execs[i]));
		json_object_object_add(run, "mean_gap", json_object_new_double(o->mean[i] * spt));
		json_object_array_add(a, run);
	}
	return a;
}

static int on_leaf(void *arg, unsigned depth, const struct ioa_trace_leaf *leaf)
{
	struct tool *t = arg;
	const struct ioa_trace_sig *sig = leaf->sig;
	const struct ioa_trace_model *slot = &leaf->model[IOA_TRACE_SLOT];
	double spt = t->r->group->ns_per_tick * 1e-9;
	uint64_t n_dur, n_gap;
	double dur = hist_mean(&leaf->dur, &n_dur) * spt, gap = hist_mean(&leaf->gap, &n_gap) * spt;
	struct ioa_trace_span sp;
	struct call_text c;

	slot_span(t, depth, slot, &sp);
	if (!leaf_selected(t, leaf, &sp))
		return 0;
	describe(t, sig, sp.first, &c);
	/* A call over several files (a loop over files): the first and the last. */
	if (sp.step) {
		size_t used = strlen(c.target);

		snprintf(c.target + used, sizeof(c.target) - used, " ... ");
		used = strlen(c.target);
		target_of(t, sig, sp.last, c.target + used, sizeof(c.target) - used);
	}
	if (t->json) {
		json_object *o = call_json(sig, &c);

		if (sp.step)
			json_object_object_add(o, "slot", model_json(slot));

		json_object_object_add(o, sig->module == IOA_TRACE_MPI ? "peer" : "offset",
				       model_json(&leaf->model[0]));
		json_object_object_add(o, "length", model_json(&leaf->model[1]));
		json_object_object_add(o, aux_label(sig), model_json(&leaf->model[2]));
		json_object_object_add(o, "mean_duration", json_object_new_double(dur));
		json_object_object_add(o, "mean_gap", json_object_new_double(gap));
		if (leaf->order.n)
			json_object_object_add(o, "gap_order", order_json(&leaf->order, spt));
		return json_object_array_add(t->jcur, o) ? -ENOMEM : 0;
	}
	ioa_buf_reset(&t->line);
	if (ioa_buf_addf(&t->line, "%*s%s %s %s", (int)depth * 2 + 2, "", module_name(sig->module),
			 sig->name, c.target) ||
	    add_model_text(&t->line, sig->module == IOA_TRACE_MPI ? "peer" : "offset",
			   &leaf->model[0]) ||
	    add_model_text(&t->line, "length", &leaf->model[1]) ||
	    (model_used(&leaf->model[2]) &&
	     add_model_text(&t->line, aux_label(sig), &leaf->model[2])) ||
	    (sp.step && add_model_text(&t->line, "slot", slot)) ||
	    ioa_buf_addf(&t->line, " dur=%.3gs gap=%.3gs", dur, gap) ||
	    (leaf->order.n &&
	     ioa_buf_addf(&t->line, " gaps=%.3gs->%.3gs", leaf->order.mean[0] * spt,
			  leaf->order.mean[leaf->order.n - 1] * spt)) ||
	    (strcmp(c.flags, "-") && ioa_buf_addf(&t->line, " [%s]", c.flags)) ||
	    add_tail_text(&t->line, &c))
		return -ENOMEM;
	fputs(ioa_buf_str(&t->line), stdout);
	return 0;
}

static int on_loop_begin(void *arg, unsigned depth, uint64_t count)
{
	struct tool *t = arg;

	if (depth < sizeof(t->counts) / sizeof(t->counts[0]))
		t->counts[depth] = count;
	if (t->json) {
		json_object *o = json_object_new_object(), *body = json_object_new_array();

		json_object_object_add(o, "loop", json_object_new_int64((int64_t)count));
		json_object_object_add(o, "body", body);
		if (json_object_array_add(t->jcur, o) || t->jdepth >= 71)
			return -ENOMEM;
		t->jstack[t->jdepth++] = t->jcur;
		t->jcur = body;
		return 0;
	}
	if (t->only_file)
		return 0;
	printf("%*sloop %" PRIu64 " (i%u) {\n", (int)depth * 2 + 2, "", count, depth);
	return 0;
}

static int on_loop_end(void *arg, unsigned depth)
{
	struct tool *t = arg;

	if (t->json) {
		t->jcur = t->jstack[--t->jdepth];
		return 0;
	}
	if (!t->only_file)
		printf("%*s}\n", (int)depth * 2 + 2, "");
	return 0;
}

/* ---------------------------------------------------------------- driver */

static void rank_list(const struct ioa_trace_group *g, struct ioa_buf *b)
{
	uint32_t i = 0;

	while (i < g->nranks) {
		uint32_t j = i;

		while (j + 1 < g->nranks && g->ranks[j + 1] == g->ranks[j] + 1)
			j++;
		if (j > i)
			ioa_buf_addf(b, "%s%u-%u", b->len ? "," : "", g->ranks[i], g->ranks[j]);
		else
			ioa_buf_addf(b, "%s%u", b->len ? "," : "", g->ranks[i]);
		i = j + 1;
	}
}

/* A summary histogram's bins as [lo, hi): of bytes, or (scale > 0) of seconds. */
static json_object *sum_hist_json(const struct ioa_trace_sum_bin *e, uint32_t n, double scale)
{
	json_object *a = json_object_new_array();
	uint32_t i;

	for (i = 0; i < n; i++) {
		json_object *o = json_object_new_object();
		double lo = e[i].bin ? ldexp(1, (int)e[i].bin - 1) : 0,
		       hi = ldexp(1, (int)e[i].bin);

		if (scale > 0) {
			json_object_object_add(o, "lo", json_object_new_double(lo * scale));
			json_object_object_add(o, "hi", json_object_new_double(hi * scale));
		} else {
			json_object_object_add(o, "lo", json_object_new_int64((int64_t)lo));
			json_object_object_add(o, "hi", json_object_new_double(hi));
		}
		json_object_object_add(o, "count", json_object_new_int64((int64_t)e[i].count));
		json_object_array_add(a, o);
	}
	return a;
}

static void sum_hist_text(uint32_t rank, const char *what, const struct ioa_trace_sum_bin *e,
			  uint32_t n, double scale)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		double lo = e[i].bin ? ldexp(1, (int)e[i].bin - 1) : 0,
		       hi = ldexp(1, (int)e[i].bin);

		if (scale > 0)
			printf("# summary %u %-8s %20.9f %20.9f %12" PRIu64 "\n", rank, what,
			       lo * scale, hi * scale, e[i].count);
		else
			printf("# summary %u %-8s %20.0f %20.0f %12" PRIu64 "\n", rank, what, lo,
			       hi, e[i].count);
	}
}

/*
 * A degraded trace's summary of the calls after its exact ones: per call
 * and per file, then the histograms, each bin [lo, hi) (offsets and
 * sizes: bytes; times: seconds).
 */
static void print_summary(struct tool *t, const struct ioa_trace_rank *r, json_object *jrank)
{
	const struct ioa_trace_summary *s = &r->summary;
	double tick = r->group->ns_per_tick * 1e-9; /* seconds */
	char target[4096];
	uint32_t i;

	if (t->json) {
		json_object *o = json_object_new_object(), *a = json_object_new_array();

		json_object_object_add(o, "calls", json_object_new_int64((int64_t)s->calls));
		for (i = 0; i < s->nsigs; i++) {
			json_object *e = json_object_new_object();
			const struct ioa_trace_sig *sig =
				s->sigs[i].sig >= 0 ? &r->sigs[s->sigs[i].sig] : NULL;

			json_object_object_add(
				e, "op", json_object_new_string(sig ? sig->name : "<unnamed>"));
			json_object_object_add(
				e, "module",
				json_object_new_string(sig ? module_name(sig->module) : "?"));
			json_object_object_add(e, "calls",
					       json_object_new_int64((int64_t)s->sigs[i].calls));
			json_object_array_add(a, e);
		}
		json_object_object_add(o, "ops", a);
		a = json_object_new_array();
		for (i = 0; i < s->nfiles; i++) {
			const struct ioa_trace_sum_file *f = &s->files[i];
			const struct name *n = f->slot >= 0 ? name_of(t, r->files[f->slot]) : NULL;
			json_object *e = json_object_new_object();

			json_object_object_add(e, "file",
					       json_object_new_string(n		    ? n->text
								      : f->slot < 0 ? "-"
										    : "<unknown>"));
			json_object_object_add(e, "reads",
					       json_object_new_int64((int64_t)f->reads));
			json_object_object_add(e, "writes",
					       json_object_new_int64((int64_t)f->writes));
			json_object_object_add(e, "others",
					       json_object_new_int64((int64_t)f->others));
			json_object_object_add(e, "bytes_read",
					       json_object_new_int64((int64_t)f->bytes_read));
			json_object_object_add(e, "bytes_written",
					       json_object_new_int64((int64_t)f->bytes_written));
			json_object_array_add(a, e);
		}
		json_object_object_add(o, "files", a);
		json_object_object_add(o, "offsets", sum_hist_json(s->offsets, s->noffsets, 0));
		json_object_object_add(o, "sizes", sum_hist_json(s->sizes, s->nsizes, 0));
		json_object_object_add(o, "arrivals",
				       sum_hist_json(s->arrivals, s->narrivals, tick));
		json_object_object_add(o, "gaps", sum_hist_json(s->gaps, s->ngaps, tick));
		json_object_object_add(jrank, "summary", o);
		return;
	}
	printf("# summary %u: %" PRIu64 " calls after the first %" PRId64
	       " (kept exactly), counted not ordered\n",
	       r->rank, s->calls, r->header[IOA_TRH_EVENTS_TRACED]);
	for (i = 0; i < s->nsigs; i++) {
		const struct ioa_trace_sig *sig =
			s->sigs[i].sig >= 0 ? &r->sigs[s->sigs[i].sig] : NULL;

		printf("# summary %u op       %-6s %-28s %12" PRIu64 "\n", r->rank,
		       sig ? module_name(sig->module) : "?", sig ? sig->name : "<unnamed>",
		       s->sigs[i].calls);
	}
	for (i = 0; i < s->nfiles; i++) {
		const struct ioa_trace_sum_file *f = &s->files[i];
		const struct name *n = f->slot >= 0 ? name_of(t, r->files[f->slot]) : NULL;

		snprintf(target, sizeof(target), "%s",
			 n	       ? n->text
			 : f->slot < 0 ? "-"
				       : "<unknown>");
		printf("# summary %u file     reads %" PRIu64 " writes %" PRIu64 " others %" PRIu64
		       " bytes_read %" PRIu64 " bytes_written %" PRIu64 " %s\n",
		       r->rank, f->reads, f->writes, f->others, f->bytes_read, f->bytes_written,
		       target);
	}
	sum_hist_text(r->rank, "offset", s->offsets, s->noffsets, 0);
	sum_hist_text(r->rank, "size", s->sizes, s->nsizes, 0);
	sum_hist_text(r->rank, "arrival", s->arrivals, s->narrivals, tick);
	sum_hist_text(r->rank, "gap", s->gaps, s->ngaps, tick);
}

static int print_rank(struct tool *t, uint32_t rank, json_object *jgroup)
{
	static const struct ioa_trace_visitor visitor = {on_loop_begin, on_loop_end, on_leaf};
	struct ioa_trace_rank r;
	json_object *jrank = NULL;
	int rc = ioa_trace_rank_open(&t->trace, rank, &r);
	const char *state;
	uint64_t calls, dropped;
	int64_t total, exact;

	if (rc == -EINVAL)
		ioa_error("cannot read the trace of '%s': rank %u's is malformed", t->path, rank);
	if (rc)
		return rc;
	calls = r.calls;
	t->r = &r;
	t->io = t->sync = t->compute = 0;
	if (t->only_file) {
		uint32_t j;

		if (!(t->match = calloc(r.nfiles + 1, 1))) {
			ioa_trace_rank_close(&r);
			return -ENOMEM;
		}
		for (j = 0; j < r.nfiles; j++) {
			const struct name *n = name_of(t, r.files[j]);

			t->match[j] = n && strstr(n->text, t->only_file) != NULL;
		}
	}
	state = r.header[IOA_TRH_FLAGS] & IOA_TRF_LOST ? "lost (out of memory)"
		: r.summarised && r.header[IOA_TRH_FLAGS] & IOA_TRF_TRUNCATED
			? "degraded (the rest summarised)"
		: r.header[IOA_TRH_FLAGS] & IOA_TRF_TRUNCATED ? "truncated (memory budget)"
							      : "complete";
	total = r.header[IOA_TRH_EVENTS_TOTAL];
	exact = r.header[IOA_TRH_EVENTS_TRACED];
	/* What neither the exact calls nor the summary hold (a trace cut short). */
	dropped = (uint64_t)(total - exact) - (r.summarised ? r.summary.calls : 0);
	if (t->json) {
		jrank = json_object_new_object();
		t->jcur = json_object_new_array();
		json_object_object_add(jrank, "rank", json_object_new_int64(rank));
		json_object_object_add(jrank, "events_total",
				       json_object_new_int64(r.header[IOA_TRH_EVENTS_TOTAL]));
		json_object_object_add(jrank, "events_traced",
				       json_object_new_int64(r.header[IOA_TRH_EVENTS_TRACED]));
		json_object_object_add(jrank, "state", json_object_new_string(state));
		json_object_object_add(
			jrank, "exact_fraction",
			json_object_new_double(total ? (double)exact / (double)total : 1));
		json_object_object_add(
			jrank, "events_summarised",
			json_object_new_int64(r.summarised ? (int64_t)r.summary.calls : 0));
		json_object_object_add(jrank, "events_dropped",
				       json_object_new_int64((int64_t)dropped));
		json_object_object_add(jrank, t->expand ? "events" : "tree", t->jcur);
		json_object_array_add(jgroup, jrank);
	} else {
		printf("# rank %u: %" PRId64 " of %" PRId64 " calls traced, %s\n", rank,
		       r.header[IOA_TRH_EVENTS_TRACED], r.header[IOA_TRH_EVENTS_TOTAL], state);
		if (r.summarised || dropped)
			printf("# rank %u: kept exactly %" PRId64 " of %" PRId64
			       " calls (%.4f%%), summarised %" PRIu64 ", dropped %" PRIu64 "\n",
			       rank, exact, total,
			       total ? 100.0 * (double)exact / (double)total : 100.0,
			       r.summarised ? r.summary.calls : 0, dropped);
		if (t->expand)
			printf("#   rank      seq module op                                   "
			       "offset"
			       "       length      aux        start   duration flags    file\n");
	}
	if (!t->expand) {
		rc = ioa_trace_walk(&r, &visitor, t);
	} else if (!t->calls_left) {
		rc = -E2BIG; /* each rank's header line counts as one */
	} else {
		rc = ioa_trace_expand(&r, t->calls_left - 1, on_event, t);
		if (!rc)
			t->calls_left -= r.calls + 1;
	}
	if (!rc && r.summarised)
		print_summary(t, &r, jrank);
	if (!rc && t->expand) {
		if (t->json) {
			json_object_object_add(jrank, "io_time", json_object_new_double(t->io));
			json_object_object_add(jrank, "sync_time", json_object_new_double(t->sync));
			json_object_object_add(jrank, "compute_time",
					       json_object_new_double(t->compute));
		} else {
			printf("# rank %u: I/O %.6f s, synchronization %.6f s, compute %.6f s\n",
			       rank, t->io, t->sync, t->compute);
		}
	}
	ioa_trace_rank_close(&r);
	free(t->match);
	t->match = NULL;
	t->r = NULL;
	if (rc == -EINVAL)
		ioa_error("cannot read the trace of '%s': rank %u's is malformed", t->path, rank);
	if (rc == -E2BIG)
		ioa_error("cannot expand the trace of '%s': rank %u expands to %" PRIu64
			  " calls, more than the %" PRIu64 " left of --max-calls %" PRIu64
			  " (pick a rank with --rank, or raise --max-calls)",
			  t->path, rank, calls, t->calls_left ? t->calls_left - 1 : 0,
			  t->max_calls);
	return rc;
}

static int run(struct tool *t)
{
	size_t gi;
	uint32_t k;
	int rc = 0, printed = 0;

	if (t->json)
		t->jout = json_object_new_array();
	else
		printf("# trace: %zu groups of ranks, %" PRIu64 " bytes in the log (%" PRIu64
		       " before compression)\n",
		       t->trace.ngroups, t->stored, t->raw);
	for (gi = 0; gi < t->trace.ngroups && !rc; gi++) {
		const struct ioa_trace_group *g = &t->trace.groups[gi];
		struct ioa_buf ranks = IOA_BUF_INIT(1 << 24);
		json_object *jgroup = NULL;

		if (t->only_rank >= 0 && ioa_trace_find(&t->trace, (uint32_t)t->only_rank) != g)
			continue;
		rank_list(g, &ranks);
		if (t->json) {
			json_object *o = json_object_new_object();

			jgroup = json_object_new_array();
			json_object_object_add(o, "ranks",
					       json_object_new_string(ioa_buf_str(&ranks)));
			json_object_object_add(o, "members", jgroup);
			json_object_array_add(t->jout, o);
		} else {
			printf("# group %zu: ranks %s (%u)\n", gi, ioa_buf_str(&ranks), g->nranks);
		}
		ioa_buf_release(&ranks);
		/* The compressed view is the same for every rank of a group: the first stands for
		 * all. */
		for (k = 0; k < g->nranks && !rc; k++) {
			if (t->only_rank >= 0 ? g->ranks[k] != (uint32_t)t->only_rank
					      : !t->expand && k > 0)
				continue;
			rc = print_rank(t, t->only_rank >= 0 ? (uint32_t)t->only_rank : g->ranks[k],
					jgroup);
			printed = 1;
		}
	}
	if (!rc && !printed && t->only_rank >= 0) {
		ioa_error("no trace for rank %" PRId64 " in this log", t->only_rank);
		rc = -ENOENT;
	}
	if (t->json) {
		if (!rc)
			puts(json_object_to_json_string_ext(
				t->jout, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(t->jout);
	}
	return rc;
}

/* ------------------------------------------------------- segments (DXT) */

static int print_segment(const struct ioa_log_segment *sg, void *arg)
{
	struct tool *t = arg;
	const struct name *n = name_of(t, sg->record_id);
	const char *file = n ? n->text : "<unknown>";
	const char *op = sg->write ? "write" : "read";

	if ((t->only_rank >= 0 && sg->rank != t->only_rank) ||
	    (t->only_file && !strstr(file, t->only_file)))
		return 0;
	t->nsegments++;
	ioa_buf_reset(&t->line);
	if (ioa_buf_add_escaped(&t->line, sg->host, sg->host_len))
		return -ENOMEM;
	if (t->json) {
		json_object *o = json_object_new_object();

		json_object_object_add(o, "module",
				       json_object_new_string(ioa_modules[sg->module].name));
		json_object_object_add(o, "rank", json_object_new_int(sg->rank));
		json_object_object_add(o, "host", json_object_new_string(ioa_buf_str(&t->line)));
		json_object_object_add(o, "op", json_object_new_string(op));
		json_object_object_add(o, "offset", json_object_new_int64(sg->offset));
		json_object_object_add(o, "length", json_object_new_int64(sg->length));
		json_object_object_add(o, "start", json_object_new_double(sg->start));
		json_object_object_add(o, "end", json_object_new_double(sg->end));
		json_object_object_add(o, "file", json_object_new_string(file));
		/* One object at a time: a log of millions of segments is never one tree. */
		printf("%s\n  %s", t->nsegments > 1 ? "," : "",
		       json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
								 JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(o);
		return 0;
	}
	printf("%s\t%d\t%s\t%s\t%" PRId64 "\t%" PRId64 "\t%.6f\t%.6f\t%s\n",
	       ioa_modules[sg->module].name, sg->rank, ioa_buf_str(&t->line), op, sg->offset,
	       sg->length, sg->start, sg->end, file);
	return 0;
}

/* The log's segments, one line each: another tool's trace, exact and not folded. */
static int run_segments(struct tool *t)
{
	int rc;

	if (t->json)
		printf("[");
	else
		printf("# segments: operations with exact times from the log's DXT trace "
		       "(Darshan), "
		       "seconds from the job's start\n"
		       "#<module>\t<rank>\t<host>\t<op>\t<offset>\t<length>\t<start>\t<end>\t<file>"
		       "\n");
	rc = ioa_logr_each_segment(&t->reader, &t->segments, print_segment, t);
	if (t->json)
		printf("\n]\n");
	if (!rc && !t->nsegments && t->only_rank >= 0) {
		ioa_error("no segments for rank %" PRId64 " in this log", t->only_rank);
		rc = -ENOENT;
	}
	return rc;
}

static void usage(FILE *out)
{
	fprintf(out,
		"usage: ioatlas trace [-e [-m N]] [-r R] [-f TEXT] [-j] LOG\n"
		"\n"
		"  -e, --expand       one line per call (default: loops shown as loops)\n"
		"  -m, --max-calls N  with --expand, refuse to print more than N calls in all\n"
		"                     (default 4194304)\n"
		"  -r, --rank R       only rank R\n"
		"  -f, --file TEXT    only calls on files whose name contains TEXT\n"
		"  -j, --json         the same as JSON\n"
		"  -h, --help         this help\n");
}

int main(int argc, char **argv)
{
	static const struct option longs[] = {
		{"expand", no_argument, NULL, 'e'},
		{"max-calls", required_argument, NULL, 'm'},
		{"rank", required_argument, NULL, 'r'},
		{"file", required_argument, NULL, 'f'},
		{"json", no_argument, NULL, 'j'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct tool t = {.only_rank = -1, .max_calls = DEFAULT_MAX_CALLS};
	const char *path;
	size_t i;
	int c, rc, rank;

	ioa_log_set_progname("ioatlas trace");
	while ((c = ioa_getopt(argc, argv, "em:r:f:jh", longs)) != -1) {
		switch (c) {
		case 'e':
			t.expand = 1;
			break;
		case 'j':
			t.json = 1;
			break;
		case 'r':
			if (ioa_parse_int(optarg, 0, INT32_MAX, &rank)) {
				ioa_error("not a rank: '%s'", optarg);
				return IOA_EXIT_USAGE;
			}
			t.only_rank = rank;
			break;
		case 'm':
			if (ioa_parse_u64(optarg, &t.max_calls) || !t.max_calls) {
				ioa_error("not a number of calls: '%s'", optarg);
				return IOA_EXIT_USAGE;
			}
			break;
		case 'f':
			t.only_file = optarg;
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
	path = argv[optind];
	t.path = path;
	t.calls_left = t.max_calls;
	ioa_buf_init(&t.line, 1 << 24);
	ioa_buf_init(&t.segments, REGION_CAP);
	rc = ioa_logr_open_any(&t.reader, path);
	if (!rc)
		rc = load(&t);
	if (!rc && !t.trace.ngroups && t.segments.len) {
		rc = run_segments(&t);
	} else if (!rc && !t.trace.ngroups) {
		ioa_error("log '%s' has no operation trace", path);
		rc = 1;
	} else if (!rc) {
		rc = run(&t);
	} else {
		fflush(stdout);
		ioa_error("cannot read log '%s': %s", path,
			  t.reader.error[0] ? t.reader.error : ioa_strerror(rc));
	}
	for (i = 0; i < t.nnames; i++)
		free(t.names[i].text);
	free(t.names);
	ioa_trace_free(&t.trace);
	ioa_buf_release(&t.line);
	ioa_buf_release(&t.segments);
	ioa_logr_close(&t.reader);
	return rc ? IOA_EXIT_FAIL : IOA_EXIT_OK;
}
