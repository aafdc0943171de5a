/*
 * ioa_parse — checked parsing of numbers from configuration, environment
 * variables, command lines and SQL results.
 *
 * Unlike atoi() and bare strtol(), every function here rejects what is not
 * wholly a number: empty strings, leading or trailing blanks or garbage, a
 * sign on an unsigned value, and values out of range.  Each returns 0 and
 * stores the value, or returns -EINVAL (not a number) or -ERANGE (a number
 * out of range) and leaves *out untouched.  errno is left as it was.
 * All functions are thread-safe.
 */
#ifndef IOA_PARSE_H
#define IOA_PARSE_H

#include <stddef.h>
#include <stdint.h>

/* Decimal, or hexadecimal with a 0x prefix; i64 takes an optional sign. */
int ioa_parse_u64(const char *text, uint64_t *out);
int ioa_parse_i64(const char *text, int64_t *out);

/* An int, written as for ioa_parse_i64(), within [min, max]. */
int ioa_parse_int(const char *text, int min, int max, int *out);

/*
 * A byte count with an optional binary unit: "4096", "64k", "2MiB", "1G".
 * Units are powers of 1024 (k, M, G, T in any case, optionally followed by
 * "i" and then "B"); a plain "B" means bytes.
 */
int ioa_parse_size(const char *text, uint64_t *out);

/*
 * A byte count for people, in IEC units: "512 B", "1.5 KiB", "3.84 MiB"
 * (three significant digits).  Returns buf.
 */
const char *ioa_format_bytes(double v, char *buf, size_t len);

/*
 * The IOA_LIB_* bits of an io_libraries value (common/ioa_logfmt.h): len
 * bytes of untrusted text, words separated by spaces; unknown words are
 * skipped.
 */
unsigned ioa_parse_io_libraries(const char *text, size_t len);

/* Writes bits' names, space-separated, into buf (len bytes, NUL-terminated). */
void ioa_format_io_libraries(unsigned bits, char *buf, size_t len);

/*
 * The job key "clock" (IOA_JOB_CLOCK, docs/log-format.md): how a log's
 * times were put on one clock.  Untrusted text: words "name=value"
 * separated by spaces; base is rank0 or wall, the others decimal numbers;
 * unknown words are skipped, a malformed known one fails.
 */
enum ioa_clock_base { IOA_CLOCK_OWN, IOA_CLOCK_RANK0, IOA_CLOCK_WALL };

struct ioa_clock {
	enum ioa_clock_base base; /* IOA_CLOCK_OWN: no key (each rank from its own start) */
	uint64_t uncertainty_ns, drift_ns, ranks, unmeasured;
};

/* 0, or -EINVAL (c then holds no clock: IOA_CLOCK_OWN). */
int ioa_parse_clock(const char *text, size_t len, struct ioa_clock *c);

/* The base's name: "rank0", "wall", or "own". */
const char *ioa_clock_base_name(enum ioa_clock_base base);

#endif
