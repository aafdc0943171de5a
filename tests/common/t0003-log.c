/*
 * t0003-log — message grammar, levels, the one-line cap, errno kept, and
 * the level names accepted from configuration.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ioa_log.h"
#include "tap.h"

/* Runs the logging done by fn into a memory stream and returns what it wrote. */
static char captured[4 * IOA_LOG_LINE_MAX];

static const char *capture(void (*fn)(void))
{
	FILE *stream = fmemopen(captured, sizeof(captured), "w");

	if (!stream)
		return "fmemopen failed";
	ioa_log_set_stream(stream);
	fn();
	ioa_log_set_stream(NULL);
	fclose(stream);
	return captured;
}

static void say_error(void)
{
	ioa_error("cannot open log '%s': truncated region %d", "x.ioa", 3);
}

static void say_all_levels(void)
{
	ioa_error("e");
	ioa_warning("w");
	ioa_info("i");
	ioa_debug("d");
}

static int error_rc_result;
static void say_error_rc(void)
{
	error_rc_result = ioa_error_rc(-ENOENT, "cannot open log '%s'", "y.ioa");
}

static void say_long(void)
{
	char big[3 * IOA_LOG_LINE_MAX];

	memset(big, 'z', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	ioa_error("%s", big);
}

static void test_grammar(void)
{
	ioa_log_set_progname("ioatlasd");
	is_str(capture(say_error), "ioatlasd: cannot open log 'x.ioa': truncated region 3\n",
	       "an error is '<program>: <message>'");
	ioa_log_set_progname(NULL);
	is_str(capture(say_error_rc),
	       "ioatlas: cannot open log 'y.ioa': No such file or directory\n",
	       "ioa_error_rc appends the code's description");
	is_int(error_rc_result, -ENOENT, "and returns the code it was given");
	is_str(ioa_strerror(-99999), "unknown error -99999", "an unknown code is named as such");
}

static void test_levels(void)
{
	ioa_log_set_level(IOA_LOG_WARNING);
	is_str(capture(say_all_levels), "ioatlas: e\nioatlas: warning: w\n",
	       "the default level shows errors and warnings");
	ioa_log_set_level(IOA_LOG_DEBUG);
	is_str(capture(say_all_levels),
	       "ioatlas: e\nioatlas: warning: w\nioatlas: info: i\nioatlas: debug: d\n",
	       "debug shows everything, each level named");
	ioa_log_set_level(IOA_LOG_ERROR);
	is_str(capture(say_all_levels), "ioatlas: e\n", "error shows only errors");
	ioa_log_set_level(IOA_LOG_WARNING);
}

static void test_long_line(void)
{
	const char *out = capture(say_long);
	size_t len = strlen(out);

	is_int(len, IOA_LOG_LINE_MAX, "a long message is cut to one line of the maximum size");
	ok(len >= 4 && !strcmp(out + len - 4, "...\n"), "and ends in '...' and a newline");
	ok(!strchr(out, '\n') || strchr(out, '\n') == out + len - 1, "with exactly one newline");
}

static void test_errno_kept(void)
{
	errno = EINTR;
	capture(say_error_rc);
	is_int(errno, EINTR, "logging leaves errno alone");
}

static void test_level_parse(void)
{
	enum ioa_log_level level = IOA_LOG_ERROR;

	is_int(ioa_log_level_parse("DEBUG", &level), 0, "level names are case-insensitive");
	is_int(level, IOA_LOG_DEBUG, "'DEBUG' is debug");
	is_int(ioa_log_level_parse("warning", &level), 0, "'warning' is a level");
	is_int(level, IOA_LOG_WARNING, "'warning' is warning");
	is_int(ioa_log_level_parse("loud", &level), -EINVAL, "unknown level names are refused");
	is_int(ioa_log_level_parse(NULL, &level), -EINVAL, "a missing level is refused");
	is_int(level, IOA_LOG_WARNING, "refusals leave the level alone");
}

int main(void)
{
	test_grammar();
	test_levels();
	test_long_line();
	test_errno_kept();
	test_level_parse();
	return tap_done();
}
