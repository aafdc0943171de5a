/*
 * t0011-log-columns — the column encoding of module, bins and names
 * regions (log format 1.1) gives back every value bit for bit: random
 * counters with the extremes (INT64_MIN and INT64_MAX where a counter may
 * hold them, 0 and INT64_MAX for counts), float counters that are whole
 * ticks and ones that are not (negative zero, subnormals, DBL_MAX), bins of
 * UINT64_MAX bytes and UINT32_MAX operations, names whose ids are their
 * hashes and names whose ids are not (records stored by name or by id);
 * streamed in slices or whole, the
 * bytes are the same.  The 1.0 layout of the same records still reads,
 * and a float counter that is not a number is refused in either.
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ioa_logr.h"
#include "ioa_logw.h"
#include "tap.h"

#define NREC  300
#define NBINS 16
#define TICK  3.3333333333333335e-10 /* seconds per tick of a 3 GHz clock */

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

struct rec {
	uint64_t id;
	int32_t rank;
	uint32_t flags;
	int64_t c[IOA_MAX_COUNTERS];
	double f[IOA_MAX_FCOUNTERS];
	struct ioa_log_bin bins[NBINS];
	char name[64];
};

static struct rec recs[IOA_MOD_COUNT][NREC];

static int64_t random_counter(int is_count)
{
	static const int64_t extremes[] = {INT64_MIN, INT64_MAX, -1, 0, 1, INT64_MIN + 1};

	switch (next() % 6) {
	case 0:
		return 0;
	case 1:
		return (int64_t)(next() % 100);
	case 2:
		return is_count ? (int64_t)(next() >> 1) : (int64_t)next();
	case 3:
		return is_count ? (next() & 1 ? INT64_MAX : 0) : extremes[next() % 6];
	default:
		return (int64_t)(next() % 1000000);
	}
}

static double random_float(int k, uint64_t base)
{
	static const double odd[] = {-0.0, DBL_MAX, -DBL_MAX, DBL_MIN, 4.9e-324, 1e-300, 0.1};
	uint64_t bits;

	switch (next() % 6) {
	case 0:
		return 0;
	case 1:
		return odd[next() % 7];
	case 2:
		do
			bits = next();
		while (!isfinite(ioa_bits_f64(bits)));
		return ioa_bits_f64(bits);
	default:
		/* Timestamps and times, in whole ticks as the runtime has them. */
		return (double)(base + (uint64_t)k * 1000 + next() % 5000) * TICK;
	}
}

static void make_records(void)
{
	int m, i, k;

	for (m = 0; m < IOA_MOD_COUNT; m++) {
		const struct ioa_module_desc *mod = &ioa_modules[m];

		for (i = 0; i < NREC; i++) {
			struct rec *r = &recs[m][i];

			snprintf(r->name, sizeof(r->name), "/scratch/run/out-%d-%d.dat", m, i);
			/* Every third id is not the name's hash (a shared record's, say). */
			r->id = i % 3 ? ioa_name_id(r->name, strlen(r->name)) : next();
			r->rank = i % 7 ? (int32_t)(i % 4) : (i % 2 ? -1 : INT32_MAX);
			r->flags = (uint32_t)(next() & 0x1f) | (i == 5 ? 0xffffffffu : 0);
			for (k = 0; k < (int)mod->counter_count; k++)
				r->c[k] = random_counter(ioa_counter_agg(mod->counter_names[k]) ==
							 IOA_AGG_SUM);
			for (k = 0; k < (int)mod->fcounter_count; k++)
				r->f[k] = random_float(k, 3000000000ull * (uint64_t)i);
			for (k = 0; k < NBINS; k++) {
				struct ioa_log_bin *b = &r->bins[k];

				b->read_bytes = next() % 3 ? 0 : next() >> (next() % 64);
				b->write_bytes = i == 7	      ? UINT64_MAX
						 : next() % 2 ? 0
							      : next() % 4096;
				b->read_ops = i == 9 ? UINT32_MAX : (uint32_t)(next() % 3);
				b->write_ops = (uint32_t)(next() % 100);
			}
		}
	}
}

static void refs_of(int m, struct ioa_rec_ref *refs)
{
	int i;

	for (i = 0; i < NREC; i++)
		refs[i] = (struct ioa_rec_ref){
			.id = recs[m][i].id,
			.name = i % 5 ? recs[m][i].name : NULL,
			.name_len = strlen(recs[m][i].name),
			.rank = recs[m][i].rank,
			.flags = recs[m][i].flags,
			.module = (uint16_t)m,
			.counters = recs[m][i].c,
			.fcounters = recs[m][i].f,
			.bins = recs[m][i].bins,
		};
}

/* The flush callback: slices go to another buffer. */
static int take_slice(void *arg, struct ioa_buf *b)
{
	int rc = ioa_buf_add(arg, b->data, b->len);

	ioa_buf_reset(b);
	return rc;
}

/* A region encoded in slices: the slices, then what is left. */
static int enc_sliced(int m, int bins, struct ioa_buf *out)
{
	struct ioa_buf b = IOA_BUF_INIT(1 << 26);
	struct ioa_rec_ref refs[NREC];
	int rc;

	refs_of(m, refs);
	rc = bins ? ioa_enc_bins_region(&b, NBINS, 0.5, 12345, 3, refs, NREC, take_slice, out)
		  : ioa_enc_module_region(&b, (enum ioa_module)m, refs, NREC, TICK, take_slice,
					  out);
	rc = rc ? rc : ioa_buf_add(out, b.data, b.len);
	ioa_buf_release(&b);
	return rc;
}

/* Writes the log: per module, records and bins in the column encoding (or 1.0's), and names. */
static int write_log(const char *path, int old)
{
	struct ioa_log_writer w;
	struct ioa_buf b = IOA_BUF_INIT(1 << 26);
	int m, i, k, rc = 0;

	ioa_logw_init(&w, 1 << 28);
	for (m = 0; m < IOA_MOD_COUNT && !rc; m++) {
		ioa_buf_reset(&b);
		if (old) {
			rc = ioa_enc_module_header(&b, (enum ioa_module)m, NREC);
			for (i = 0; i < NREC && !rc; i++)
				rc = ioa_enc_module_record(&b, (enum ioa_module)m, recs[m][i].id,
							   recs[m][i].rank, recs[m][i].flags,
							   recs[m][i].c, recs[m][i].f);
		} else {
			rc = enc_sliced(m, 0, &b);
		}
		rc = rc ? rc : ioa_logw_add(&w, ioa_modules[m].region_type, b.data, b.len);
		ioa_buf_reset(&b);
		if (old) {
			rc = rc ? rc : ioa_enc_u32(&b, NBINS);
			rc = rc ? rc : ioa_enc_u64(&b, ioa_f64_bits(0.5));
			rc = rc ? rc : ioa_enc_u64(&b, 12345);
			rc = rc ? rc : ioa_enc_u32(&b, 3);
			rc = rc ? rc : ioa_enc_u32(&b, NREC);
			for (i = 0; i < NREC && !rc; i++) {
				rc = ioa_enc_u64(&b, recs[m][i].id);
				rc = rc ? rc : ioa_enc_u16(&b, (uint16_t)m);
				for (k = 0; k < NBINS && !rc; k++) {
					rc = ioa_enc_u64(&b, recs[m][i].bins[k].read_bytes);
					rc = rc ? rc
						: ioa_enc_u64(&b, recs[m][i].bins[k].write_bytes);
					rc = rc ? rc : ioa_enc_u32(&b, recs[m][i].bins[k].read_ops);
					rc = rc ? rc
						: ioa_enc_u32(&b, recs[m][i].bins[k].write_ops);
				}
			}
		} else {
			rc = rc ? rc : enc_sliced(m, 1, &b);
		}
		rc = rc ? rc : ioa_logw_add(&w, IOA_REGION_BINS, b.data, b.len);
		ioa_buf_reset(&b);
		rc = rc ? rc : old ? ioa_enc_u32(&b, NREC) : ioa_enc_names_header(&b, NREC);
		for (i = 0; i < NREC && !rc; i++) {
			if (old) {
				rc = ioa_enc_u64(&b, recs[m][i].id);
				rc = rc ? rc
					: ioa_enc_bytes(&b, recs[m][i].name,
							strlen(recs[m][i].name));
			} else {
				rc = ioa_enc_name(&b, recs[m][i].id, recs[m][i].name,
						  strlen(recs[m][i].name));
			}
		}
		rc = rc ? rc : ioa_logw_add(&w, IOA_REGION_NAMES, b.data, b.len);
	}
	unlink(path);
	rc = rc ? rc : ioa_logw_write_file(&w, path, 0600, 0);
	ioa_logw_release(&w);
	ioa_buf_release(&b);
	return rc;
}

struct seen {
	int module; /* of the region being read */
	int index;
	int records, bins, names;
	int bad_records, bad_bins, bad_names;
};

static int on_record(const struct ioa_log_record *rec, void *arg)
{
	struct seen *s = arg;
	const struct ioa_module_desc *mod = &ioa_modules[rec->module];
	const struct rec *want = &recs[rec->module][s->index++];
	unsigned k;
	int bad = rec->id != want->id || rec->rank != want->rank || rec->flags != want->flags;

	for (k = 0; k < mod->counter_count; k++)
		bad |= rec->counters[k] != want->c[k];
	for (k = 0; k < mod->fcounter_count; k++)
		bad |= ioa_f64_bits(rec->fcounters[k]) != ioa_f64_bits(want->f[k]);
	if (bad && !s->bad_records)
		tap_diag("record %d of module %d differs", s->index - 1, (int)rec->module);
	s->bad_records += bad;
	s->records++;
	return 0;
}

static int on_bins(const struct ioa_log_bins *b, void *arg)
{
	struct seen *s = arg;
	const struct rec *want = &recs[b->module][s->index++ % NREC];
	int k, bad = b->record_id != want->id || b->nbins != NBINS || b->width_s != 0.5 ||
		     b->start_ns != 12345 || b->rank != 3;

	for (k = 0; k < NBINS && !bad; k++)
		bad |= b->read_bytes[k] != want->bins[k].read_bytes ||
		       b->write_bytes[k] != want->bins[k].write_bytes ||
		       b->read_ops[k] != want->bins[k].read_ops ||
		       b->write_ops[k] != want->bins[k].write_ops;
	s->bad_bins += bad;
	s->bins++;
	return 0;
}

static int on_name(uint64_t id, const unsigned char *name, uint32_t len, void *arg)
{
	struct seen *s = arg;
	const struct rec *want = &recs[s->module][s->index++ % NREC];

	s->bad_names +=
		id != want->id || len != strlen(want->name) || memcmp(name, want->name, len);
	s->names++;
	return 0;
}

static int read_log(const char *path, struct seen *s)
{
	struct ioa_log_reader r;
	struct ioa_buf raw = IOA_BUF_INIT(1 << 28);
	uint32_t i;
	int rc = ioa_logr_open(&r, path);

	for (i = 0; !rc && i < r.region_count; i++) {
		uint32_t type = r.regions[i].type;

		rc = ioa_logr_read_region(&r, i, &raw);
		s->index = 0;
		if (rc)
			break;
		if (ioa_module_by_region(type)) {
			s->module = (int)(ioa_module_by_region(type) - ioa_modules);
			rc = ioa_logr_each_record(&r, i, &raw, on_record, s);
		} else if (type == IOA_REGION_BINS) {
			rc = ioa_logr_each_bins(&r, &raw, on_bins, s);
		} else if (type == IOA_REGION_NAMES) {
			rc = ioa_logr_each_name(&r, &raw, on_name, s);
		}
	}
	if (rc)
		tap_diag("%s: %s", path, ioa_logr_error(&r));
	ioa_logr_close(&r);
	ioa_buf_release(&raw);
	return rc;
}

/* Whether a module region holding a value v in float counter k is refused. */
static int refuses_float(int old, double v)
{
	struct ioa_buf b = IOA_BUF_INIT(1 << 26);
	struct ioa_log_reader r = {0};
	struct ioa_log_region reg = {.type = ioa_modules[IOA_MOD_POSIX].region_type};
	struct ioa_rec_ref refs[NREC];
	struct seen s = {0};
	double keep = recs[IOA_MOD_POSIX][4].f[POSIX_F_WRITE_TIME];
	int rc, i;

	recs[IOA_MOD_POSIX][4].f[POSIX_F_WRITE_TIME] = v;
	refs_of(IOA_MOD_POSIX, refs);
	if (old) {
		rc = ioa_enc_module_header(&b, IOA_MOD_POSIX, NREC);
		for (i = 0; i < NREC && !rc; i++)
			rc = ioa_enc_module_record(&b, IOA_MOD_POSIX, refs[i].id, refs[i].rank,
						   refs[i].flags, refs[i].counters,
						   refs[i].fcounters);
	} else {
		rc = ioa_enc_module_region(&b, IOA_MOD_POSIX, refs, NREC, TICK, NULL, NULL);
	}
	recs[IOA_MOD_POSIX][4].f[POSIX_F_WRITE_TIME] = keep;
	r.regions = &reg;
	r.region_count = 1;
	rc = rc ? rc : ioa_logr_each_record(&r, 0, &b, on_record, &s);
	ioa_buf_release(&b);
	return rc == -EINVAL && s.records == 4 && strstr(r.error, "not a finite number");
}

int main(void)
{
	char dir[] = "/tmp/t0011.XXXXXX", path[64];
	struct ioa_buf whole = IOA_BUF_INIT(1 << 26), sliced = IOA_BUF_INIT(1 << 26);
	struct ioa_rec_ref refs[NREC];
	int old, same;

	tap_plan(15);
	if (!mkdtemp(dir))
		tap_skip_all("cannot make a temporary directory");
	make_records();
	for (old = 0; old < 2; old++) {
		struct seen s = {0};

		snprintf(path, sizeof(path), "%s/%s.ioa", dir, old ? "v1.0" : "v1.1");
		is_int(write_log(path, old), 0, "a log in %s layout is written",
		       old ? "1.0's" : "1.1's");
		is_int(read_log(path, &s), 0, "and reads");
		is_int(s.records, IOA_MOD_COUNT * NREC, "every record comes back");
		is_int(s.bad_records + s.bad_bins + s.bad_names, 0,
		       "every counter, float, bin and name bit for bit (%d, %d, %d differ)",
		       s.bad_records, s.bad_bins, s.bad_names);
		ok(s.bins == IOA_MOD_COUNT * NREC && s.names == IOA_MOD_COUNT * NREC,
		   "every record's bins and name too");
		unlink(path);
	}
	rmdir(dir);

	refs_of(IOA_MOD_POSIX, refs);
	enc_sliced(IOA_MOD_POSIX, 0, &sliced);
	ioa_enc_module_region(&whole, IOA_MOD_POSIX, refs, NREC, TICK, NULL, NULL);
	same = whole.len == sliced.len && !memcmp(whole.data, sliced.data, whole.len);
	ok(same && whole.len > 65536, "a region streamed in slices is the region encoded whole");
	ok(refuses_float(0, NAN), "a NaN float counter is refused");
	ok(refuses_float(0, INFINITY), "an infinite one too");
	ok(refuses_float(1, NAN), "and in the 1.0 layout");
	ok(refuses_float(1, -INFINITY), "both ways");
	ioa_buf_release(&whole);
	ioa_buf_release(&sliced);
	return tap_done();
}
