/*
 * tap — a small Test Anything Protocol producer for C tests.
 *
 *	int main(void)
 *	{
 *		tap_plan(2);
 *		ok(1 + 1 == 2, "arithmetic works");
 *		is_int(ioa_parse_int("7", 0, 9, &v), 0, "parses a digit");
 *		return tap_done();
 *	}
 *
 * Output goes to stdout, diagnostics to stdout as "# " lines (so that prove
 * and ctest logs keep them in order).  tap_done() returns the exit status:
 * 0 only if every test passed and the count matched the plan, so a test run
 * by CTest fails even when nobody reads its TAP.  A test that cannot run
 * here calls tap_skip_all(), which prints "1..0 # SKIP reason" and exits 0.
 * Not thread-safe: call from the main thread.
 */
#ifndef TAP_H
#define TAP_H

#include <stddef.h>

#include "ioa_compiler.h"

void tap_plan(int count);
void tap_skip_all(const char *fmt, ...) IOA_PRINTF(1, 2);
void tap_diag(const char *fmt, ...) IOA_PRINTF(1, 2);
int tap_done(void);

/* Each records one test and returns the condition (nonzero when it passed). */
int tap_ok_at(const char *file, int line, int pass, const char *fmt, ...) IOA_PRINTF(4, 5);
int tap_is_int_at(const char *file, int line, long long got, long long expected, const char *fmt,
		  ...) IOA_PRINTF(5, 6);
int tap_is_str_at(const char *file, int line, const char *got, const char *expected,
		  const char *fmt, ...) IOA_PRINTF(5, 6);
int tap_is_mem_at(const char *file, int line, const void *got, size_t got_len, const void *expected,
		  size_t expected_len, const char *fmt, ...) IOA_PRINTF(7, 8);

#define ok(pass, ...) tap_ok_at(__FILE__, __LINE__, (pass), __VA_ARGS__)
#define is_int(got, expected, ...) \
	tap_is_int_at(__FILE__, __LINE__, (long long)(got), (long long)(expected), __VA_ARGS__)
#define is_str(got, expected, ...) tap_is_str_at(__FILE__, __LINE__, (got), (expected), __VA_ARGS__)
#define is_mem(got, got_len, expected, expected_len, ...) \
	tap_is_mem_at(__FILE__, __LINE__, (got), (got_len), (expected), (expected_len), __VA_ARGS__)

#endif
