/*
 * t0012-partial — job key 31 `partial` (common/ioa_partial.c): its fields
 * parsed, malformed ones dropped without failing (garbage lines, 2^70,
 * signals out of range, rank lists that are not lists, bytes that are not
 * UTF-8, NUL bytes), and the words `ioatlas parse` and the reports say.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ioa_fault.h"
#include "ioa_partial.h"
#include "tap.h"

/* 2026-11-28 06:01:00 UTC and 10:00:01 UTC, in ns. */
#define START_NS ((uint64_t)1795845660 * 1000000000u)
#define UNTIL_NS ((uint64_t)1795860001 * 1000000000u)

static struct ioa_partial parsed(const char *text, size_t len)
{
	struct ioa_partial p = IOA_PARTIAL_INIT;

	ok(ioa_partial_parse(&p, text, len) == 0, "parses %zu bytes without an error", len);
	return p;
}

static const char *said(const struct ioa_partial *p, enum ioa_partial_style style,
			uint64_t start_ns, uint64_t end_ns)
{
	static struct ioa_buf out = IOA_BUF_INIT(1 << 20);

	ioa_buf_reset(&out);
	if (ioa_partial_describe(p, style, start_ns, end_ns, &out))
		return "(out of memory)";
	return ioa_buf_str(&out);
}

static void test_signal(void)
{
	static const char text[] = "how=signal\nsignal=15\nreason=TIMEOUT\nranks=0-127\n"
				   "missing=128-255\nuntil_first_ns=1795860001000000000\n"
				   "until_last_ns=1795860001500000000\n";
	struct ioa_partial p = parsed(text, strlen(text));

	is_int(p.how, IOA_PARTIAL_SIGNAL, "how=signal");
	is_int(p.signal, 15, "signal=15");
	is_str(p.reason, "TIMEOUT", "reason");
	is_str(p.ranks, "0-127", "ranks");
	is_str(p.missing, "128-255", "missing");
	ok(p.until_first_ns == UNTIL_NS && p.until_last_ns == UNTIL_NS + 500000000u,
	   "until_first_ns, until_last_ns");
	is_int(p.dropped, 0, "nothing dropped");
	is_str(said(&p, IOA_PARTIAL_LINE, START_NS, START_NS + 14340ull * 1000000000u),
	       "killed by signal 15 (SIGTERM), scheduler says TIMEOUT; ranks 0-127 recorded until "
	       "2026-11-28T10:00:01Z; ranks 128-255 left nothing",
	       "the line for ioatlas parse");
	is_str(said(&p, IOA_PARTIAL_SENTENCE, START_NS, START_NS + 14340ull * 1000000000u),
	       "Partial log: the job was killed by signal 15 (SIGTERM) \u2014 the scheduler says "
	       "TIMEOUT (its time limit) \u2014 after 3 h 59 m; ranks 0\u2013127 recorded until "
	       "2026-11-28 10:00:01 "
	       "UTC (3 h 59 m after the start); ranks 128\u2013255 left nothing.",
	       "the report's sentence");
	ioa_partial_release(&p);
}

static void test_other_ends(void)
{
	static const struct {
		const char *text, *line, *sentence;
	} cases[] = {
		{"how=killed\nranks=0\n",
		 "killed without warning (SIGKILL, out of memory or a crash); rank 0 recorded",
		 "Partial log: the job was killed without warning (SIGKILL, out of memory or a "
		 "crash) after 1 m; rank 0 recorded."},
		{"how=exit\n", "ended by exit() without MPI_Finalize",
		 "Partial log: the job ended by exit() without MPI_Finalize after 1 m."},
		{"how=abort\nabort_code=-3\nmissing=2,5-6\n",
		 "ended by MPI_Abort (error code -3); ranks 2,5-6 left nothing",
		 "Partial log: the job ended by MPI_Abort (error code -3) after 1 m; ranks 2, "
		 "5\u20136 left nothing."},
		{"how=signal\nsignal=99\n", "killed by signal 99",
		 "Partial log: the job was killed by signal 99 after 1 m."},
		{"", "ended in a way the log does not say",
		 "Partial log: the job ended before it could write its log after 1 m."},
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ioa_partial p = parsed(cases[i].text, strlen(cases[i].text));

		is_str(said(&p, IOA_PARTIAL_LINE, START_NS, START_NS + 60000000000u), cases[i].line,
		       "line %zu", i);
		is_str(said(&p, IOA_PARTIAL_SENTENCE, START_NS, START_NS + 60000000000u),
		       cases[i].sentence, "sentence %zu", i);
		ioa_partial_release(&p);
	}
}

/* Hostile values: each field dropped, the others kept, never an error. */
static void test_hostile(void)
{
	static const char text[] = "how=signal\n"
				   "garbage without an equals sign\n"
				   "signal=1180591620717411303424\n" /* 2^70 */
				   "abort_code=99999999999\n"
				   "reason=<script>alert(1)</script>\xff\xfe\x01\n"
				   "ranks=0-3\n"
				   "missing=5-2\n"
				   "until_first_ns=1180591620717411303424\n"
				   "until_last_ns=12\n"
				   "ranks=9\n"
				   "future_field=whatever\n"
				   "=\n"
				   "\xc3\x28=\xed\xa0\x80\n";
	struct ioa_partial p = parsed(text, sizeof(text) - 1);
	struct ioa_partial q = IOA_PARTIAL_INIT;
	static const char nul[] = "how=exit\0\nsignal=1\0002\nranks=1\0002\nreason=a\0b\n";

	is_int(p.how, IOA_PARTIAL_SIGNAL, "how kept");
	is_int(p.signal, 0, "a signal of 2^70 dropped");
	is_int(p.has_abort_code, 0, "an abort code past 32 bits dropped");
	is_str(p.reason, "<script>alert(1)</script>\\xff\\xfe\\x01", "a reason in display form");
	is_str(p.ranks, "0-3", "ranks kept, the second ranks= ignored");
	ok(p.missing == NULL, "a descending range dropped");
	ok(p.until_first_ns == 0 && p.until_last_ns == 0, "times of 2^70 and 1970 dropped");
	is_int(p.dropped, 7, "each malformed field counted");
	is_str(said(&p, IOA_PARTIAL_LINE, 0, 0),
	       "killed by a signal, scheduler says <script>alert(1)</script>\\xff\\xfe\\x01; ranks "
	       "0-3 recorded",
	       "described with what is left");
	ioa_partial_release(&p);

	ok(ioa_partial_parse(&q, nul, sizeof(nul) - 1) == 0, "NUL bytes in values");
	is_int(q.how, IOA_PARTIAL_HOW_UNKNOWN, "a how with a NUL dropped");
	ok(q.signal == 0 && q.ranks == NULL, "numbers and lists with a NUL dropped");
	is_str(q.reason, "a\\x00b", "a reason keeps it escaped");
	ioa_partial_release(&q);
}

static void test_lists(void)
{
	static const struct {
		const char *list;
		int ok;
		uint64_t count;
	} cases[] = {
		{"0", 1, 1},	      {"0-3,5", 1, 5},
		{"2147483647", 1, 1}, {"0-2147483647", 1, 2147483648u},
		{"2147483648", 0, 0}, {"", 0, 0},
		{"1,", 0, 0},	      {",1", 0, 0},
		{"1-2-3", 0, 0},      {"3-1", 0, 0},
		{"-1", 0, 0},	      {"1 ,2", 0, 0},
		{"a", 0, 0},	      {"99999999999999999999999", 0, 0},
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		is_int(ioa_partial_list_ok(cases[i].list, strlen(cases[i].list)), cases[i].ok,
		       "rank list '%s'", cases[i].list);
		if (cases[i].ok)
			ok(ioa_partial_list_count(cases[i].list) == cases[i].count,
			   "names %llu ranks", (unsigned long long)cases[i].count);
	}
}

/* A long list is cut in a sentence, with its count; the line keeps it whole. */
static void test_long_list(void)
{
	struct ioa_buf text = IOA_BUF_INIT(1 << 20);
	struct ioa_partial p = IOA_PARTIAL_INIT;
	const char *s;
	int i;

	ioa_buf_addstr(&text, "how=exit\nmissing=");
	for (i = 0; i < 1000; i++)
		ioa_buf_addf(&text, "%s%d", i ? "," : "", 2 * i);
	ok(ioa_partial_parse(&p, text.data, text.len) == 0 && p.missing, "a list of 1000 ranks");
	s = said(&p, IOA_PARTIAL_SENTENCE, 0, 0);
	ok(strlen(s) < 200, "the sentence stays short (%zu bytes)", strlen(s));
	ok(strstr(s, ", \u2026 (1000 ranks) left nothing.") != NULL, "and says how many: %s", s);
	ioa_partial_release(&p);
	ioa_buf_release(&text);
}

/* Each of its two allocations that fails is said (-ENOMEM); what was parsed is released whole. */
static void test_out_of_memory(void)
{
	static const char text[] = "how=exit\nreason=TIMEOUT\nranks=0-3\n";
	unsigned long after;

	for (after = 0; after < 2; after++) {
		struct ioa_partial p = IOA_PARTIAL_INIT;

		ioa_fault_arm("buf-alloc", after);
		is_int(ioa_partial_parse(&p, text, strlen(text)), -ENOMEM,
		       "allocation %lu fails: -ENOMEM", after + 1);
		ioa_fault_disarm();
		ioa_partial_release(&p);
	}
}

int main(void)
{
	test_signal();
	test_other_ends();
	test_hostile();
	test_lists();
	test_long_list();
	test_out_of_memory();
	return tap_done();
}
