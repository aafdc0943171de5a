/*
 * tap — TAP output for the C tests (see tap.h).  Kept free of the code under
 * test: it uses only libc, so a broken common/ cannot hide its own failures.
 */
#include "tap.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int tap_planned = -1;
static int tap_run;
static int tap_failed;

void tap_plan(int count)
{
	tap_planned = count;
	printf("1..%d\n", count);
	fflush(stdout);
}

void tap_skip_all(const char *fmt, ...)
{
	va_list ap;

	printf("1..0 # SKIP ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	exit(0);
}

static void tap_vdiag(const char *fmt, va_list ap)
{
	char text[4096];
	char *line, *next;

	vsnprintf(text, sizeof(text), fmt, ap);
	for (line = text; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		printf("# %s\n", line);
	}
	fflush(stdout);
}

void tap_diag(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tap_vdiag(fmt, ap);
	va_end(ap);
}

static int tap_vresult(const char *file, int line, int pass, const char *fmt, va_list ap)
{
	tap_run++;
	if (!pass)
		tap_failed++;
	printf("%sok %d - ", pass ? "" : "not ", tap_run);
	vprintf(fmt, ap);
	printf("\n");
	if (!pass)
		printf("#   failed at %s:%d\n", file, line);
	fflush(stdout);
	return pass;
}

int tap_ok_at(const char *file, int line, int pass, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tap_vresult(file, line, pass, fmt, ap);
	va_end(ap);
	return pass;
}

int tap_is_int_at(const char *file, int line, long long got, long long expected, const char *fmt,
		  ...)
{
	int pass = got == expected;
	va_list ap;

	va_start(ap, fmt);
	tap_vresult(file, line, pass, fmt, ap);
	va_end(ap);
	if (!pass)
		tap_diag("     got: %lld\nexpected: %lld", got, expected);
	return pass;
}

int tap_is_str_at(const char *file, int line, const char *got, const char *expected,
		  const char *fmt, ...)
{
	int pass = got && expected ? !strcmp(got, expected) : got == expected;
	va_list ap;

	va_start(ap, fmt);
	tap_vresult(file, line, pass, fmt, ap);
	va_end(ap);
	if (!pass)
		tap_diag("     got: %s%s%s\nexpected: %s%s%s", got ? "'" : "", got ? got : "NULL",
			 got ? "'" : "", expected ? "'" : "", expected ? expected : "NULL",
			 expected ? "'" : "");
	return pass;
}

int tap_is_mem_at(const char *file, int line, const void *got, size_t got_len, const void *expected,
		  size_t expected_len, const char *fmt, ...)
{
	int pass = got_len == expected_len && (!got_len || !memcmp(got, expected, got_len));
	va_list ap;

	va_start(ap, fmt);
	tap_vresult(file, line, pass, fmt, ap);
	va_end(ap);
	if (!pass)
		tap_diag("got %zu bytes, expected %zu bytes", got_len, expected_len);
	return pass;
}

int tap_done(void)
{
	if (tap_planned < 0) {
		printf("1..%d\n", tap_run);
		tap_planned = tap_run;
	}
	if (tap_run != tap_planned) {
		tap_diag("planned %d tests but ran %d", tap_planned, tap_run);
		return 255;
	}
	if (tap_failed)
		tap_diag("failed %d of %d tests", tap_failed, tap_run);
	fflush(stdout);
	return tap_failed > 254 ? 254 : tap_failed;
}
