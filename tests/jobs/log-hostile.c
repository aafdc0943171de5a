/*
 * log-hostile — a copy of a log with hostile text in its string fields, as
 * a user who crafts a log would write it (t6007: kernels from such logs
 * compile, replay the names byte for byte, and run nothing else).
 *
 *	log-hostile [--calls] IN OUT
 *
 * Every string of the job region (user, job id, executable, arguments,
 * settings, host names, scheduler, version), the mount and error tables,
 * the MPI-IO hints, and the trace's hints get the HOSTILE text appended; a
 * file name becomes NAME + HOSTILE + "/" + a leaf of hostile bytes, so its
 * basename (what a kernel keeps) is the leaf; but for the standard streams'
 * names (<STDIN>, <STDOUT>, <STDERR>: streams without a file, which a
 * kernel replays on its own streams; renamed, they would be files the job
 * opened, and prepared as its inputs).  With --calls the trace's
 * call names get HOSTILE too (calls a kernel then cannot know).  Prints
 * per file name the old and the new basename, NUL-terminated, for the test
 * to compare what a kernel replays with.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ioa_buf.h"
#include "ioa_logfmt.h"
#include "ioa_logr.h"
#include "ioa_logw.h"
#include "ioa_trace.h"

#define CAP ((size_t)1 << 30)

/* Ends a comment, a string, a line; trigraphs (??/ ??=), formats, bytes not UTF-8. */
static const char hostile[] =
	"*/ system(\"touch PWNED\"); /* \" \\ \n#error \077\077/ \077\077= %n%s \xff\xfe";
/* A basename: the same without '/' (a file name cannot hold one). */
static const char leaf[] = "h*\"\\\n\077\077=\077\077(%n%s\xff\xfe";

static int add_hostile(struct ioa_buf *b, const unsigned char *s, size_t len)
{
	int rc = ioa_buf_add(b, s, len);

	return rc ? rc : ioa_buf_addstr(b, hostile);
}

static int enc_hostile(struct ioa_buf *b, const unsigned char *s, size_t len)
{
	struct ioa_buf t = IOA_BUF_INIT(CAP);
	int rc = add_hostile(&t, s, len);

	rc = rc ? rc : ioa_enc_bytes(b, t.data, t.len);
	ioa_buf_release(&t);
	return rc;
}

static int on_job(uint16_t key, const unsigned char *v, uint32_t len, void *arg)
{
	struct ioa_buf *b = arg;
	int text = key == IOA_JOB_USER || key == IOA_JOB_JOBID || key == IOA_JOB_EXE ||
		   key == IOA_JOB_ARGS || key == IOA_JOB_VERSION || key == IOA_JOB_SETTINGS ||
		   key == IOA_JOB_HOSTNAMES || key == IOA_JOB_SCHEDULER;
	int rc = ioa_enc_u16(b, key);

	return rc ? rc : text ? enc_hostile(b, v, len) : ioa_enc_bytes(b, v, len);
}

struct names {
	struct ioa_buf *b;
	unsigned n;
};

static int is_std_stream(const unsigned char *name, uint32_t len)
{
	static const char *const std[] = {"<STDIN>", "<STDOUT>", "<STDERR>"};
	size_t k;

	for (k = 0; k < sizeof(std) / sizeof(std[0]); k++)
		if (len == strlen(std[k]) && !memcmp(name, std[k], len))
			return 1;
	return 0;
}

static int on_name(uint64_t id, const unsigned char *name, uint32_t len, void *arg)
{
	struct names *a = arg;
	struct ioa_buf t = IOA_BUF_INIT(CAP);
	const unsigned char *base = memrchr(name, '/', len);
	char num[32];
	int rc;

	snprintf(num, sizeof(num), "-%u", a->n++);
	if (is_std_stream(name, len)) {
		fwrite(name, 1, len, stdout);
		putchar(0);
		fwrite(name, 1, len, stdout);
		putchar(0);
		return ioa_enc_name(a->b, id, name, len);
	}
	rc = add_hostile(&t, name, len);
	rc = rc ? rc : ioa_buf_addf(&t, "/%s%s", leaf, num);
	rc = rc ? rc : ioa_enc_name(a->b, id, t.data, t.len);
	base = base ? base + 1 : name;
	fwrite(base, 1, len - (size_t)(base - name), stdout);
	printf("%c%s%s%c", 0, leaf, num, 0);
	ioa_buf_release(&t);
	return rc;
}

static int on_mount(const unsigned char *path, uint32_t plen, const unsigned char *type,
		    uint32_t tlen, void *arg)
{
	int rc = enc_hostile(arg, path, plen);

	return rc ? rc : enc_hostile(arg, type, tlen);
}

static int on_hints(uint64_t id, int32_t rank, const unsigned char *text, uint32_t len, void *arg)
{
	int rc = ioa_enc_u64(arg, id);

	rc = rc ? rc : ioa_enc_u32(arg, (uint32_t)rank);
	return rc ? rc : enc_hostile(arg, text, len);
}

static int on_failure(const struct ioa_log_failure *f, void *arg)
{
	int rc = ioa_enc_u64(arg, f->record_id);

	rc = rc ? rc : ioa_enc_u32(arg, (uint32_t)f->rank);
	rc = rc ? rc : ioa_enc_u16(arg, (uint16_t)f->module);
	rc = rc ? rc : enc_hostile(arg, f->op, f->op_len);
	rc = rc ? rc : ioa_enc_u32(arg, (uint32_t)f->err);
	return rc ? rc : ioa_enc_u64(arg, f->count);
}

/* The entry count of a counted region (u32 count first); the reader checks it. */
static uint32_t count_entries(const struct ioa_buf *b)
{
	return b->len >= 4 ? ioa_get_u32((const unsigned char *)b->data) : 0;
}

static int count_name(uint64_t id, const unsigned char *name, uint32_t len, void *arg)
{
	(void)id;
	(void)name;
	(void)len;
	++*(uint32_t *)arg;
	return 0;
}

/* A group's shape with its strings made hostile: every one, or all but call names. */
static int shape_hostile(struct ioa_trace_group *g, int calls)
{
	struct ioa_cursor c = {.pos = g->shape, .left = g->shape_len};
	struct ioa_buf out = IOA_BUF_INIT(CAP);
	uint64_t nstrings = ioa_cursor_uvar(&c), i, nsigs;
	const unsigned char **str = calloc(nstrings + 1, sizeof(*str));
	uint64_t *len = calloc(nstrings + 1, sizeof(*len));
	unsigned char *is_call = calloc(nstrings + 1, 1);
	int rc = str && len && is_call ? 0 : -ENOMEM;

	for (i = 0; !rc && i < nstrings; i++) {
		len[i] = ioa_cursor_uvar(&c);
		str[i] = ioa_cursor_take(&c, len[i]);
	}
	/* The signatures say which strings are call names. */
	{
		struct ioa_cursor s = c;

		nsigs = ioa_cursor_uvar(&s);
		for (i = 0; !rc && i < nsigs; i++) {
			uint64_t name = ioa_cursor_uvar(&s);

			if (name < nstrings)
				is_call[name] = 1;
			ioa_cursor_uvar(&s);
			ioa_cursor_uvar(&s);
			ioa_cursor_svar(&s);
		}
		if (s.overrun)
			rc = -EINVAL;
	}
	rc = rc ? rc : ioa_enc_uvar(&out, nstrings);
	for (i = 0; !rc && i < nstrings; i++) {
		struct ioa_buf t = IOA_BUF_INIT(CAP);

		rc = ioa_buf_add(&t, str[i], len[i]);
		if (!rc && (calls || !is_call[i]))
			rc = ioa_buf_addstr(&t, hostile);
		rc = rc ? rc : ioa_enc_uvar(&out, t.len);
		rc = rc ? rc : ioa_buf_add(&out, t.data, t.len);
		ioa_buf_release(&t);
	}
	rc = rc ? rc : ioa_buf_add(&out, c.pos, c.left);
	if (!rc) {
		free(g->shape);
		g->shape = (unsigned char *)ioa_buf_detach(&out, &g->shape_len);
		rc = g->shape ? 0 : -ENOMEM;
	}
	ioa_buf_release(&out);
	free(str);
	free(len);
	free(is_call);
	return rc;
}

static int trace_hostile(const struct ioa_buf *raw, int calls, struct ioa_buf *out)
{
	struct ioa_trace t = {0};
	size_t i;
	int rc = ioa_trace_decode(&t, raw->data, raw->len);

	for (i = 0; !rc && i < t.ngroups; i++)
		rc = shape_hostile(&t.groups[i], calls);
	rc = rc ? rc : ioa_trace_encode(&t, out);
	ioa_trace_free(&t);
	return rc;
}

int main(int argc, char **argv)
{
	struct ioa_log_reader r = {.fd = -1};
	struct ioa_log_writer w;
	struct ioa_buf raw = IOA_BUF_INIT(CAP), out = IOA_BUF_INIT(CAP);
	struct names names = {.b = &out};
	int calls = argc == 4 && !strcmp(argv[1], "--calls");
	uint32_t i;
	int rc;

	if (argc != 3 + calls) {
		fprintf(stderr, "usage: log-hostile [--calls] IN OUT\n");
		return 2;
	}
	ioa_logw_init(&w, CAP);
	rc = ioa_logr_open(&r, argv[1 + calls]);
	for (i = 0; !rc && i < r.region_count; i++) {
		uint32_t type = r.regions[i].type;

		rc = ioa_logr_read_region(&r, i, &raw);
		ioa_buf_reset(&out);
		if (!rc && type == IOA_REGION_JOB) {
			rc = ioa_logr_each_job_entry(&r, &raw, on_job, &out);
		} else if (!rc && type == IOA_REGION_NAMES) {
			uint32_t n = 0;

			rc = ioa_logr_each_name(&r, &raw, count_name, &n);
			rc = rc ? rc : ioa_enc_names_header(&out, n);
			rc = rc ? rc : ioa_logr_each_name(&r, &raw, on_name, &names);
		} else if (!rc && type == IOA_REGION_MOUNTS) {
			rc = ioa_enc_u32(&out, count_entries(&raw));
			rc = rc ? rc : ioa_logr_each_mount(&r, &raw, on_mount, &out);
		} else if (!rc && type == IOA_REGION_HINTS) {
			rc = ioa_enc_u32(&out, count_entries(&raw));
			rc = rc ? rc : ioa_logr_each_hints(&r, &raw, on_hints, &out);
		} else if (!rc && type == IOA_REGION_ERRORS) {
			rc = ioa_enc_u32(&out, count_entries(&raw));
			rc = rc ? rc : ioa_logr_each_failure(&r, &raw, on_failure, &out);
		} else if (!rc && type == IOA_REGION_TRACE) {
			rc = trace_hostile(&raw, calls, &out);
		} else if (!rc) {
			rc = ioa_buf_add(&out, raw.data, raw.len);
		}
		rc = rc ? rc : ioa_logw_add(&w, type, out.data, out.len);
	}
	rc = rc ? rc : ioa_logw_write_file(&w, argv[2 + calls], 0644, r.flags);
	if (rc)
		fprintf(stderr, "log-hostile: %s: %s\n", argv[1 + calls],
			r.error[0] ? r.error : strerror(-rc));
	ioa_logr_close(&r);
	ioa_logw_release(&w);
	ioa_buf_release(&raw);
	ioa_buf_release(&out);
	return rc ? 1 : 0;
}
