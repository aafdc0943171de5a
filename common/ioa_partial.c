/*
 * ioa_partial — job key IOA_JOB_PARTIAL, parsed and said in words (see
 * ioa_partial.h).  Every reader of a partial log goes through here, so
 * `ioatlas parse`, the warehouse and the reports keep and drop the same
 * fields and describe a job's end in the same words.
 */
#define _GNU_SOURCE
#include "ioa_partial.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ioa_parse.h"

/* Times outside these are no job's (the collector refuses such a start too). */
#define TIME_MIN_NS ((uint64_t)946684800 * 1000000000u)	 /* 2000-01-01 */
#define TIME_MAX_NS ((uint64_t)7258118400 * 1000000000u) /* 2200-01-01 */

/* Rank lists cut in a sentence past about this many bytes. */
#define SENTENCE_LIST_MAX 80

static const char *const how_names[] = {
	[IOA_PARTIAL_SIGNAL] = "signal",
	[IOA_PARTIAL_KILLED] = "killed",
	[IOA_PARTIAL_EXIT] = "exit",
	[IOA_PARTIAL_ABORT] = "abort",
};

void ioa_partial_release(struct ioa_partial *p)
{
	free(p->reason);
	free(p->ranks);
	free(p->missing);
	*p = (struct ioa_partial)IOA_PARTIAL_INIT;
}

const char *ioa_partial_how_name(enum ioa_partial_how how)
{
	return how > IOA_PARTIAL_HOW_UNKNOWN && how <= IOA_PARTIAL_ABORT ? how_names[how] : NULL;
}

const char *ioa_signal_name(int signal)
{
#define SIG(name)           \
	{                   \
		name, #name \
	}
	static const struct {
		int number;
		const char *name;
	} names[] = {
		SIG(SIGHUP),  SIG(SIGINT),  SIG(SIGQUIT), SIG(SIGILL),	 SIG(SIGTRAP),
		SIG(SIGABRT), SIG(SIGBUS),  SIG(SIGFPE),  SIG(SIGKILL),	 SIG(SIGUSR1),
		SIG(SIGSEGV), SIG(SIGUSR2), SIG(SIGPIPE), SIG(SIGALRM),	 SIG(SIGTERM),
		SIG(SIGCHLD), SIG(SIGCONT), SIG(SIGSTOP), SIG(SIGTSTP),	 SIG(SIGTTIN),
		SIG(SIGTTOU), SIG(SIGURG),  SIG(SIGXCPU), SIG(SIGXFSZ),	 SIG(SIGVTALRM),
		SIG(SIGPROF), SIG(SIGSYS),  SIG(SIGIO),	  SIG(SIGWINCH),
	};
#undef SIG
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].number == signal)
			return names[i].name;
	return NULL;
}

int ioa_partial_list_ok(const char *text, size_t len)
{
	size_t i = 0;

	if (!len || len > IOA_PARTIAL_LIST_MAX)
		return 0;
	while (i < len) {
		uint64_t first = 0, last;
		size_t digits;
		int range;

		for (range = 0; range < 2; range++) {
			uint64_t n = 0;

			for (digits = 0; i < len && text[i] >= '0' && text[i] <= '9';
			     i++, digits++) {
				n = n * 10 + (uint64_t)(text[i] - '0');
				if (n > INT32_MAX)
					return 0;
			}
			if (!digits)
				return 0;
			if (!range)
				first = n;
			last = n;
			if (i == len || text[i] != '-')
				break;
			if (range)
				return 0; /* "1-2-3" */
			i++;
		}
		if (last < first)
			return 0;
		if (i < len && (text[i] != ',' || ++i == len))
			return 0; /* a stray byte, or a trailing comma */
	}
	return 1;
}

uint64_t ioa_partial_list_count(const char *list)
{
	uint64_t count = 0, n;
	const char *s = list;

	while (s && *s) {
		char *end;
		unsigned long long first = strtoull(s, &end, 10), last = first;

		if (end == s)
			break; /* not a checked list: never loop */
		if (*end == '-')
			last = strtoull(end + 1, &end, 10);
		n = last >= first ? last - first + 1 : 0;
		count = count + n < count ? UINT64_MAX : count + n;
		s = *end == ',' ? end + 1 : end;
	}
	return count;
}

/* A number of a field: at most 31 bytes, wholly digits, as ioa_parse takes them. */
static int number_text(const void *value, size_t len, char *out, size_t out_len)
{
	if (!len || len >= out_len || memchr(value, '\0', len))
		return -EINVAL;
	memcpy(out, value, len);
	out[len] = '\0';
	return 0;
}

/* Through ioa_buf, so that its fault point (buf-alloc) fails this allocation too. */
static int set_list(char **slot, const void *value, size_t len)
{
	struct ioa_buf list = IOA_BUF_INIT(IOA_PARTIAL_LIST_MAX + 1);

	if (!ioa_partial_list_ok(value, len))
		return 0;
	if (ioa_buf_add(&list, value, len) || !(*slot = ioa_buf_detach(&list, NULL))) {
		ioa_buf_release(&list);
		return -ENOMEM;
	}
	return 1;
}

static int set_time(uint64_t *slot, const char *digits)
{
	uint64_t ns;

	if (ioa_parse_u64(digits, &ns) || ns < TIME_MIN_NS || ns > TIME_MAX_NS)
		return 0;
	*slot = ns;
	return 1;
}

int ioa_partial_set(struct ioa_partial *p, const char *name, const void *value, size_t len)
{
	char digits[32];
	int have_digits = !number_text(value, len, digits, sizeof(digits));
	size_t i;

	if (!strcmp(name, "how")) {
		if (p->how)
			return 0;
		for (i = IOA_PARTIAL_SIGNAL; i <= IOA_PARTIAL_ABORT; i++)
			if (strlen(how_names[i]) == len && !memcmp(how_names[i], value, len)) {
				p->how = (enum ioa_partial_how)i;
				return 1;
			}
		return 0;
	}
	if (!strcmp(name, "signal"))
		return !p->signal && have_digits &&
		       !ioa_parse_int(digits, 1, IOA_PARTIAL_SIGNAL_MAX, &p->signal);
	if (!strcmp(name, "abort_code")) {
		if (p->has_abort_code || !have_digits ||
		    ioa_parse_int(digits, INT_MIN, INT_MAX, &p->abort_code))
			return 0;
		return p->has_abort_code = 1;
	}
	if (!strcmp(name, "reason")) {
		struct ioa_buf text = IOA_BUF_INIT(8 * IOA_PARTIAL_REASON_MAX);

		if (p->reason || !len)
			return 0;
		if (ioa_buf_add_escaped(&text, value,
					len < IOA_PARTIAL_REASON_MAX ? len
								     : IOA_PARTIAL_REASON_MAX) ||
		    !(p->reason = ioa_buf_detach(&text, NULL))) {
			ioa_buf_release(&text);
			return -ENOMEM;
		}
		return 1;
	}
	if (!strcmp(name, "ranks"))
		return p->ranks ? 0 : set_list(&p->ranks, value, len);
	if (!strcmp(name, "missing"))
		return p->missing ? 0 : set_list(&p->missing, value, len);
	if (!strcmp(name, "until_first_ns"))
		return !p->until_first_ns && have_digits && set_time(&p->until_first_ns, digits);
	if (!strcmp(name, "until_last_ns"))
		return !p->until_last_ns && have_digits && set_time(&p->until_last_ns, digits);
	return 0;
}

/* The names ioa_partial_parse() knows: anything else is a newer runtime's, skipped. */
static const char *known_name(const unsigned char *line, size_t len)
{
	static const char *const names[] = {"how",   "signal",	"abort_code",	  "reason",
					    "ranks", "missing", "until_first_ns", "until_last_ns"};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strlen(names[i]) == len && !memcmp(names[i], line, len))
			return names[i];
	return NULL;
}

int ioa_partial_parse(struct ioa_partial *p, const void *value, size_t len)
{
	const unsigned char *text = value;
	size_t at = 0;

	while (at < len) {
		const unsigned char *line = text + at;
		const unsigned char *end = memchr(line, '\n', len - at);
		size_t line_len = end ? (size_t)(end - line) : len - at;
		const unsigned char *eq = memchr(line, '=', line_len);
		const char *name = eq ? known_name(line, (size_t)(eq - line)) : NULL;
		int rc;

		at += line_len + 1;
		if (!line_len)
			continue;
		if (!eq) {
			p->dropped++; /* a line that is no "name=value" */
			continue;
		}
		if (!name)
			continue;
		rc = ioa_partial_set(p, name, eq + 1, line_len - (size_t)(eq + 1 - line));
		if (rc < 0)
			return rc;
		p->dropped += !rc;
	}
	return 0;
}

/* ------------------------------------------------------------ words */

static int add_duration(struct ioa_buf *out, uint64_t s)
{
	static const struct {
		uint64_t seconds;
		const char *unit;
	} units[] = {{86400, "d"}, {3600, "h"}, {60, "m"}, {1, "s"}};
	size_t i;

	for (i = 0; i < 3 && s < units[i].seconds; i++)
		;
	if (i == 3 || s % units[i].seconds / units[i + 1].seconds == 0)
		return ioa_buf_addf(out, "%llu %s", (unsigned long long)(s / units[i].seconds),
				    units[i].unit);
	return ioa_buf_addf(out, "%llu %s %llu %s", (unsigned long long)(s / units[i].seconds),
			    units[i].unit,
			    (unsigned long long)(s % units[i].seconds / units[i + 1].seconds),
			    units[i + 1].unit);
}

static int add_time(struct ioa_buf *out, uint64_t ns, enum ioa_partial_style style)
{
	time_t s = (time_t)(ns / 1000000000u);
	struct tm tm;
	char text[64];

	if (!gmtime_r(&s, &tm) ||
	    !strftime(text, sizeof(text),
		      style == IOA_PARTIAL_LINE ? "%Y-%m-%dT%H:%M:%SZ" : "%Y-%m-%d %H:%M:%S UTC",
		      &tm))
		return ioa_buf_addstr(out, "?");
	return ioa_buf_addstr(out, text);
}

/* "rank 5" or "ranks 0-3,5"; in a sentence "ranks 0–3, 5", cut when long. */
static int add_ranks(struct ioa_buf *out, const char *list, enum ioa_partial_style style)
{
	uint64_t count = ioa_partial_list_count(list);
	const char *s = list;
	int rc = ioa_buf_addstr(out, count == 1 ? "rank " : "ranks ");
	size_t from = out->len;

	if (style == IOA_PARTIAL_LINE)
		return rc ? rc : ioa_buf_addstr(out, list);
	for (; *s && !rc; s++) {
		if (*s == ',' && out->len - from > SENTENCE_LIST_MAX)
			return ioa_buf_addf(out, ", \u2026 (%llu ranks)",
					    (unsigned long long)count);
		rc = *s == '-'	 ? ioa_buf_addstr(out, "\u2013")
		     : *s == ',' ? ioa_buf_addstr(out, ", ")
				 : ioa_buf_add(out, s, 1);
	}
	return rc;
}

static int add_how(const struct ioa_partial *p, struct ioa_buf *out, int sentence)
{
	const char *name = p->signal ? ioa_signal_name(p->signal) : NULL;
	int rc = 0;

	switch (p->how) {
	case IOA_PARTIAL_SIGNAL:
		rc = ioa_buf_addstr(out, sentence ? "was killed by " : "killed by ");
		if (!rc && p->signal)
			rc = name ? ioa_buf_addf(out, "signal %d (%s)", p->signal, name)
				  : ioa_buf_addf(out, "signal %d", p->signal);
		else if (!rc)
			rc = ioa_buf_addstr(out, "a signal");
		return rc;
	case IOA_PARTIAL_KILLED:
		return ioa_buf_addstr(out, sentence ? "was killed without warning (SIGKILL, out of "
						      "memory or a crash)"
						    : "killed without warning (SIGKILL, out of "
						      "memory or a crash)");
	case IOA_PARTIAL_EXIT:
		return ioa_buf_addstr(out, "ended by exit() without MPI_Finalize");
	case IOA_PARTIAL_ABORT:
		rc = ioa_buf_addstr(out, "ended by MPI_Abort");
		if (!rc && p->has_abort_code)
			rc = ioa_buf_addf(out, " (error code %d)", p->abort_code);
		return rc;
	default:
		return ioa_buf_addstr(out, sentence ? "ended before it could write its log"
						    : "ended in a way the log does not say");
	}
}

/* What a batch system's word means, for the sentence: "" when it is plain enough. */
static const char *reason_gloss(const char *reason)
{
	static const char *const gloss[][2] = {
		{"TIMEOUT", " (its time limit)"},      {"CANCELLED", " (cancelled)"},
		{"OUT_OF_MEMORY", " (out of memory)"}, {"NODE_FAIL", " (a node failed)"},
		{"PREEMPTED", " (preempted)"},
	};
	size_t i;

	for (i = 0; i < sizeof(gloss) / sizeof(gloss[0]); i++)
		if (!strcmp(reason, gloss[i][0]))
			return gloss[i][1];
	return "";
}

static int describe_line(const struct ioa_partial *p, struct ioa_buf *out)
{
	uint64_t until = p->until_last_ns ? p->until_last_ns : p->until_first_ns;
	int rc = add_how(p, out, 0);

	if (!rc && p->reason)
		rc = ioa_buf_addf(out, ", scheduler says %s", p->reason);
	if (!rc && (p->ranks || until))
		rc = ioa_buf_addstr(out, "; ");
	if (!rc && p->ranks)
		rc = add_ranks(out, p->ranks, IOA_PARTIAL_LINE);
	if (!rc && (p->ranks || until))
		rc = ioa_buf_addstr(out, p->ranks ? " recorded" : "recorded");
	if (!rc && until) {
		rc = ioa_buf_addstr(out, " until ");
		rc = rc ? rc : add_time(out, until, IOA_PARTIAL_LINE);
		if (!rc && p->until_first_ns &&
		    p->until_first_ns / 1000000000u < until / 1000000000u) {
			rc = ioa_buf_addstr(out, " (the least current rank until ");
			rc = rc ? rc : add_time(out, p->until_first_ns, IOA_PARTIAL_LINE);
			rc = rc ? rc : ioa_buf_addstr(out, ")");
		}
	}
	if (!rc && p->missing) {
		rc = ioa_buf_addstr(out, "; ");
		rc = rc ? rc : add_ranks(out, p->missing, IOA_PARTIAL_LINE);
		rc = rc ? rc : ioa_buf_addstr(out, " left nothing");
	}
	return rc;
}

static int describe_sentence(const struct ioa_partial *p, uint64_t start_ns, uint64_t end_ns,
			     struct ioa_buf *out)
{
	uint64_t until = p->until_last_ns ? p->until_last_ns : p->until_first_ns;
	int ran = start_ns && end_ns > start_ns && (end_ns - start_ns) >= 1000000000u;
	int rc = ioa_buf_addstr(out, "Partial log: the job ");

	rc = rc ? rc : add_how(p, out, 1);
	if (!rc && p->reason)
		rc = ioa_buf_addf(out, " \u2014 the scheduler says %s%s%s", p->reason,
				  reason_gloss(p->reason), ran ? " \u2014" : "");
	if (!rc && ran) {
		rc = ioa_buf_addstr(out, " after ");
		rc = rc ? rc : add_duration(out, (end_ns - start_ns) / 1000000000u);
	}
	if (!rc && (p->ranks || until))
		rc = ioa_buf_addstr(out, p->ranks ? "; " : "; its ranks recorded");
	if (!rc && p->ranks) {
		rc = add_ranks(out, p->ranks, IOA_PARTIAL_SENTENCE);
		rc = rc ? rc : ioa_buf_addstr(out, " recorded");
	}
	if (!rc && until) {
		int after = start_ns && until >= start_ns;
		int first =
			p->until_first_ns && p->until_first_ns / 1000000000u < until / 1000000000u;

		rc = ioa_buf_addstr(out, " until ");
		rc = rc ? rc : add_time(out, until, IOA_PARTIAL_SENTENCE);
		if (!rc && (after || first))
			rc = ioa_buf_addstr(out, " (");
		if (!rc && after) {
			rc = add_duration(out, (until - start_ns) / 1000000000u);
			rc = rc ? rc : ioa_buf_addstr(out, " after the start");
		}
		if (!rc && first) {
			rc = ioa_buf_addstr(out, after ? "; the least current rank until "
						       : "the least current rank until ");
			rc = rc ? rc : add_time(out, p->until_first_ns, IOA_PARTIAL_SENTENCE);
		}
		if (!rc && (after || first))
			rc = ioa_buf_addstr(out, ")");
	}
	if (!rc && p->missing) {
		rc = ioa_buf_addstr(out, "; ");
		rc = rc ? rc : add_ranks(out, p->missing, IOA_PARTIAL_SENTENCE);
		rc = rc ? rc : ioa_buf_addstr(out, " left nothing");
	}
	return rc ? rc : ioa_buf_addstr(out, ".");
}

int ioa_partial_describe(const struct ioa_partial *p, enum ioa_partial_style style,
			 uint64_t start_ns, uint64_t end_ns, struct ioa_buf *out)
{
	return style == IOA_PARTIAL_LINE ? describe_line(p, out)
					 : describe_sentence(p, start_ns, end_ns, out);
}
