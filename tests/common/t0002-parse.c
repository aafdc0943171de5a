/*
 * t0002-parse — checked number parsing: what is accepted, what is refused
 * and why, that refusals leave the output alone, and that errno is untouched.
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "ioa_logfmt.h"
#include "ioa_parse.h"
#include "tap.h"

static void test_u64(void)
{
	static const char *const invalid[] = {"",   " 1", "1 ", "-1",  "+1",
					      "1x", "0x", "x1", "1.5", "1e3"};
	uint64_t v = 0;
	size_t i;

	is_int(ioa_parse_u64("0", &v), 0, "u64 parses 0");
	is_int(v, 0, "to 0");
	is_int(ioa_parse_u64("18446744073709551615", &v), 0, "u64 parses UINT64_MAX");
	ok(v == UINT64_MAX, "to UINT64_MAX");
	is_int(ioa_parse_u64("0x1F", &v), 0, "u64 parses hexadecimal");
	is_int(v, 31, "0x1F is 31");
	is_int(ioa_parse_u64("007", &v), 0, "leading zeros are decimal, not octal");
	is_int(v, 7, "007 is 7");

	v = 42;
	is_int(ioa_parse_u64("18446744073709551616", &v), -ERANGE,
	       "UINT64_MAX + 1 is out of range");
	is_int(ioa_parse_u64("0x10000000000000000", &v), -ERANGE, "2^64 in hex is out of range");
	for (i = 0; i < sizeof(invalid) / sizeof(invalid[0]); i++)
		is_int(ioa_parse_u64(invalid[i], &v), -EINVAL, "u64 refuses '%s'", invalid[i]);
	is_int(ioa_parse_u64(NULL, &v), -EINVAL, "u64 refuses NULL");
	is_int(v, 42, "refusals leave the output alone");
}

static void test_i64(void)
{
	int64_t v = 0;

	is_int(ioa_parse_i64("-9223372036854775808", &v), 0, "i64 parses INT64_MIN");
	ok(v == INT64_MIN, "to INT64_MIN");
	is_int(ioa_parse_i64("9223372036854775807", &v), 0, "i64 parses INT64_MAX");
	ok(v == INT64_MAX, "to INT64_MAX");
	is_int(ioa_parse_i64("+12", &v), 0, "i64 takes a plus sign");
	is_int(v, 12, "+12 is 12");
	is_int(ioa_parse_i64("-0", &v), 0, "i64 takes -0");
	is_int(v, 0, "-0 is 0");
	is_int(ioa_parse_i64("9223372036854775808", &v), -ERANGE, "INT64_MAX + 1 is out of range");
	is_int(ioa_parse_i64("-9223372036854775809", &v), -ERANGE, "INT64_MIN - 1 is out of range");
	is_int(ioa_parse_i64("-", &v), -EINVAL, "a lone sign is not a number");
	is_int(ioa_parse_i64("--1", &v), -EINVAL, "two signs are not a number");
}

static void test_int(void)
{
	int v = 5;

	is_int(ioa_parse_int("4", 1, 4, &v), 0, "int at the upper bound is accepted");
	is_int(v, 4, "to 4");
	is_int(ioa_parse_int("0", 1, 4, &v), -ERANGE, "int below the range is refused");
	is_int(ioa_parse_int("5", 1, 4, &v), -ERANGE, "int above the range is refused");
	is_int(ioa_parse_int("99999999999", INT_MIN, INT_MAX, &v), -ERANGE,
	       "a value past INT_MAX is refused");
	is_int(ioa_parse_int("four", 1, 4, &v), -EINVAL, "words are refused");
	is_int(v, 4, "refusals leave the output alone");
}

static void test_size(void)
{
	static const struct {
		const char *text;
		uint64_t bytes;
	} sizes[] = {
		{"4096", 4096},	     {"512B", 512},	 {"64k", 64 << 10}, {"64K", 64 << 10},
		{"64KiB", 64 << 10}, {"2M", 2 << 20},	 {"2MiB", 2 << 20}, {"2mb", 2 << 20},
		{"1G", 1ULL << 30},  {"3T", 3ULL << 40}, {"0k", 0},
	};
	static const char *const invalid[] = {"",      "k",	"2 M", "2X",
					      "2MiBs", "2Mi B", "-1k", "1.5G"};
	uint64_t v = 7;
	size_t i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		int rc = ioa_parse_size(sizes[i].text, &v);

		ok(rc == 0 && v == sizes[i].bytes, "size '%s' is %llu bytes", sizes[i].text,
		   (unsigned long long)sizes[i].bytes);
	}
	v = 7;
	for (i = 0; i < sizeof(invalid) / sizeof(invalid[0]); i++)
		is_int(ioa_parse_size(invalid[i], &v), -EINVAL, "size refuses '%s'", invalid[i]);
	is_int(ioa_parse_size("16777216T", &v), -ERANGE, "2^64 bytes is out of range");
	is_int(ioa_parse_size("16777215T", &v), 0, "just below 2^64 bytes is in range");
	ok(v == 16777215ULL << 40, "and exact");
}

static void test_errno_kept(void)
{
	uint64_t v;

	errno = EBADF;
	ioa_parse_u64("99999999999999999999999", &v);
	ioa_parse_size("zz", &v);
	is_int(errno, EBADF, "parsing leaves errno alone");
}

/* The job keys io_libraries and clock: untrusted text from a log. */
static void test_job_keys(void)
{
	static const char *const bad_clocks[] = {
		"",
		"uncertainty_ns=5",			 /* no base */
		"base=rank1 uncertainty_ns=5",		 /* unknown base */
		"base=rank0 uncertainty_ns=-5",		 /* not a count */
		"base=rank0 drift_ns=",			 /* empty */
		"base=rank0 ranks=99999999999999999999", /* out of range */
		"base=rank0 garbage",			 /* a word without = */
	};
	struct ioa_clock c;
	char buf[64];
	size_t i;
	const char *t = "base=rank0 uncertainty_ns=1500 drift_ns=20 ranks=4 unmeasured=0 new=1";

	is_int(ioa_parse_io_libraries("hdf5 adios  pnetcdf", 19),
	       IOA_LIB_HDF5 | IOA_LIB_ADIOS | IOA_LIB_PNETCDF, "libraries: the names it knows");
	is_int(ioa_parse_io_libraries("hdf5x adios2 \0hdf5 <script>", 27), IOA_LIB_ADIOS2,
	       "libraries: whole words only, NUL bytes and the unknown skipped");
	ioa_format_io_libraries(IOA_LIB_ADIOS | IOA_LIB_HDF5, buf, sizeof(buf));
	is_str(buf, "hdf5 adios", "libraries: formatted in the key's order");
	ioa_format_io_libraries(IOA_LIB_HDF5 | IOA_LIB_NETCDF, buf, 8);
	is_str(buf, "hdf5", "libraries: a short buffer keeps whole names");
	ok(ioa_parse_clock(t, strlen(t), &c) == 0 && c.base == IOA_CLOCK_RANK0 &&
		   c.uncertainty_ns == 1500 && c.drift_ns == 20 && c.ranks == 4,
	   "clock: rank0 with its numbers, an unknown word skipped");
	ok(ioa_parse_clock("base=wall", 9, &c) == 0 && c.base == IOA_CLOCK_WALL, "clock: wall");
	for (i = 0; i < sizeof(bad_clocks) / sizeof(bad_clocks[0]); i++)
		ok(ioa_parse_clock(bad_clocks[i], strlen(bad_clocks[i]), &c) == -EINVAL &&
			   c.base == IOA_CLOCK_OWN,
		   "clock refuses '%s'", bad_clocks[i]);
}

int main(void)
{
	test_u64();
	test_i64();
	test_int();
	test_size();
	test_errno_kept();
	test_job_keys();
	return tap_done();
}
