/*
 * ioa_opts — the verbs' argument convention (see ioa_opts.h).
 */
#include "ioa_opts.h"

#include <stdio.h>
#include <string.h>

#include "ioa_log.h"

/* Whether arg ("--name" or "--name=value") names the long option of value val. */
static int names_long(const char *arg, const struct option *longs, int val)
{
	size_t n;

	if (strncmp(arg, "--", 2))
		return 0;
	arg += 2;
	n = strcspn(arg, "=");
	for (; longs && longs->name; longs++)
		if (longs->val == val && strlen(longs->name) == n && !strncmp(longs->name, arg, n))
			return 1;
	return 0;
}

int ioa_getopt(int argc, char *const argv[], const char *shorts, const struct option *longs)
{
	char spec[128];
	const char *last;
	int c;

	/*
	 * ':' first (after a '+', which stops at the first operand: a verb's
	 * own arguments follow it): a missing value comes back as ':', told
	 * apart from an unknown option.
	 */
	if (shorts[0] == '+')
		snprintf(spec, sizeof(spec), "+:%s", shorts + 1);
	else
		snprintf(spec, sizeof(spec), ":%s", shorts);
	opterr = 0;
	c = getopt_long(argc, argv, spec, longs, NULL);
	if (c != '?' && c != ':')
		return c;
	last = optind > 0 && optind <= argc ? argv[optind - 1] : "";
	if (optopt && !names_long(last, longs, optopt)) {
		/* A short option, alone or in a bundle. */
		if (c == ':')
			ioa_error("option '-%c' needs a value", optopt);
		else
			ioa_error("unknown option '-%c'", optopt);
	} else {
		int n = (int)strcspn(last, "=");

		if (c == ':')
			ioa_error("option '%.*s' needs a value", n, last);
		else if (optopt && last[n] == '=')
			ioa_error("option '%.*s' takes no value", n, last);
		else
			ioa_error("unknown option '%.*s'", n, last);
	}
	return '?';
}
