/*
 * tap-fixture — a C TAP program that behaves as its argument says (pass,
 * fail, skip, miscount, diag), for t0900 to check the C TAP helper.
 */
#include <stdio.h>
#include <string.h>

#include "tap.h"

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";

	if (!strcmp(mode, "skip"))
		tap_skip_all("fixture has nothing to test");
	if (!strcmp(mode, "miscount")) {
		tap_plan(3);
		ok(1, "only one of three");
		return tap_done();
	}
	if (!strcmp(mode, "fail")) {
		ok(1, "first passes");
		is_int(2 + 2, 5, "arithmetic is off");
		is_str("abc", "abd", "strings differ");
		return tap_done();
	}
	if (!strcmp(mode, "pass")) {
		tap_plan(3);
		ok(1, "passes");
		is_int(7, 7, "ints match");
		is_mem("ab", 2, "ab", 2, "bytes match");
		tap_diag("two\nlines");
		return tap_done();
	}
	fprintf(stderr, "usage: tap-fixture pass|fail|skip|miscount\n");
	return 2;
}
