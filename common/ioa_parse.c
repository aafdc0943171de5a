/*
 * ioa_parse — strict number parsing (see ioa_parse.h).  Everything funnels
 * into parse_digits(), which reads an unsigned magnitude and reports where
 * it stopped, so the range and suffix rules live in one place each.
 */
#include "ioa_parse.h"
#include "ioa_logfmt.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/*
 * Reads an unsigned decimal (or 0x hexadecimal) magnitude at *text and
 * advances *text past it.  -EINVAL when no digit is there, -ERANGE when the
 * value passes UINT64_MAX.
 */
static int parse_digits(const char **text, uint64_t *out)
{
	const char *p = *text;
	unsigned base = 10;
	uint64_t value = 0;
	int digits = 0;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && isxdigit((unsigned char)p[2])) {
		base = 16;
		p += 2;
	}
	for (;; p++, digits++) {
		unsigned d;

		if (*p >= '0' && *p <= '9')
			d = (unsigned)(*p - '0');
		else if (base == 16 && isxdigit((unsigned char)*p))
			d = (unsigned)(tolower((unsigned char)*p) - 'a' + 10);
		else
			break;
		if (value > (UINT64_MAX - d) / base)
			return -ERANGE;
		value = value * base + d;
	}
	if (!digits)
		return -EINVAL;
	*text = p;
	*out = value;
	return 0;
}

int ioa_parse_u64(const char *text, uint64_t *out)
{
	uint64_t value;
	int rc;

	if (!text)
		return -EINVAL;
	rc = parse_digits(&text, &value);
	if (rc)
		return rc;
	if (*text)
		return -EINVAL;
	*out = value;
	return 0;
}

int ioa_parse_i64(const char *text, int64_t *out)
{
	bool negative = false;
	uint64_t magnitude;
	int rc;

	if (!text)
		return -EINVAL;
	if (*text == '-' || *text == '+')
		negative = *text++ == '-';
	rc = parse_digits(&text, &magnitude);
	if (rc)
		return rc;
	if (*text)
		return -EINVAL;
	if (negative) {
		if (magnitude > (uint64_t)INT64_MAX + 1)
			return -ERANGE;
		*out = magnitude ? -(int64_t)(magnitude - 1) - 1 : 0;
	} else {
		if (magnitude > INT64_MAX)
			return -ERANGE;
		*out = (int64_t)magnitude;
	}
	return 0;
}

int ioa_parse_int(const char *text, int min, int max, int *out)
{
	int64_t value;
	int rc = ioa_parse_i64(text, &value);

	if (rc)
		return rc;
	if (value < min || value > max)
		return -ERANGE;
	*out = (int)value;
	return 0;
}

int ioa_parse_size(const char *text, uint64_t *out)
{
	static const char units[] = "kmgt";
	uint64_t value;
	unsigned shift = 0;
	const char *unit;
	int rc;

	if (!text)
		return -EINVAL;
	rc = parse_digits(&text, &value);
	if (rc)
		return rc;

	if (*text && (unit = strchr(units, tolower((unsigned char)*text)))) {
		shift = 10 * (unsigned)(unit - units + 1);
		text++;
		if (*text == 'i')
			text++;
	}
	if (*text == 'B' || *text == 'b')
		text++;
	if (*text)
		return -EINVAL;
	if (shift && value > UINT64_MAX >> shift)
		return -ERANGE;
	*out = value << shift;
	return 0;
}

static const char *const io_library_names[] = {
#define IOA_LIB_NAME(id, bit, name) [bit] = name,
	IOA_IO_LIBRARIES(IOA_LIB_NAME)
#undef IOA_LIB_NAME
};
#define NLIBRARIES (sizeof(io_library_names) / sizeof(io_library_names[0]))

unsigned ioa_parse_io_libraries(const char *text, size_t len)
{
	unsigned bits = 0;
	size_t i = 0, k;

	while (i < len) {
		size_t start;

		while (i < len && text[i] == ' ')
			i++;
		start = i;
		while (i < len && text[i] != ' ')
			i++;
		for (k = 0; k < NLIBRARIES; k++)
			if (i - start == strlen(io_library_names[k]) &&
			    !memcmp(text + start, io_library_names[k], i - start))
				bits |= 1u << k;
	}
	return bits;
}

void ioa_format_io_libraries(unsigned bits, char *buf, size_t len)
{
	size_t used = 0, k;

	if (!len)
		return;
	buf[0] = '\0';
	for (k = 0; k < NLIBRARIES; k++) {
		size_t n = strlen(io_library_names[k]);

		if (!(bits & (1u << k)) || used + (used > 0) + n + 1 > len)
			continue;
		if (used)
			buf[used++] = ' ';
		memcpy(buf + used, io_library_names[k], n + 1);
		used += n;
	}
}

int ioa_parse_clock(const char *text, size_t len, struct ioa_clock *c)
{
	static const char *const names[] = {"uncertainty_ns", "drift_ns", "ranks", "unmeasured"};
	uint64_t *fields[4];
	size_t i = 0, k;

	memset(c, 0, sizeof(*c));
	fields[0] = &c->uncertainty_ns;
	fields[1] = &c->drift_ns;
	fields[2] = &c->ranks;
	fields[3] = &c->unmeasured;
	while (i < len) {
		size_t start, eq, end;
		char digits[24];

		while (i < len && text[i] == ' ')
			i++;
		start = i;
		while (i < len && text[i] != ' ')
			i++;
		end = i;
		for (eq = start; eq < end && text[eq] != '='; eq++)
			;
		if (start == end)
			break;
		if (eq == end)
			goto bad;
		if (eq - start == 4 && !memcmp(text + start, "base", 4)) {
			if (end - eq - 1 == 5 && !memcmp(text + eq + 1, "rank0", 5))
				c->base = IOA_CLOCK_RANK0;
			else if (end - eq - 1 == 4 && !memcmp(text + eq + 1, "wall", 4))
				c->base = IOA_CLOCK_WALL;
			else
				goto bad;
			continue;
		}
		for (k = 0; k < 4; k++)
			if (eq - start == strlen(names[k]) &&
			    !memcmp(text + start, names[k], eq - start))
				break;
		if (k == 4)
			continue;
		if (end - eq - 1 == 0 || end - eq - 1 >= sizeof(digits))
			goto bad;
		memcpy(digits, text + eq + 1, end - eq - 1);
		digits[end - eq - 1] = '\0';
		if (ioa_parse_u64(digits, fields[k]))
			goto bad;
	}
	if (c->base == IOA_CLOCK_OWN)
		goto bad;
	return 0;
bad:
	memset(c, 0, sizeof(*c));
	return -EINVAL;
}

const char *ioa_clock_base_name(enum ioa_clock_base base)
{
	return base == IOA_CLOCK_RANK0 ? "rank0" : base == IOA_CLOCK_WALL ? "wall" : "own";
}

const char *ioa_format_bytes(double v, char *buf, size_t len)
{
	static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
	unsigned u = 0;

	while (v >= 1024 && u < 6) {
		v /= 1024;
		u++;
	}
	snprintf(buf, len, u ? "%.3g %s" : "%.0f %s", v, unit[u]);
	return buf;
}
