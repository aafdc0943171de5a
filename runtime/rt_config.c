/*
 * rt_config — reads the runtime's settings (see rt_config.h).  Runs once, in
 * the library constructor, before any wrapper records anything; the site
 * file is read with open and read (the runtime is still off), never
 * through stdio, and only when it is a regular file of at most 1 MiB.
 */
#define _GNU_SOURCE
#include "rt_config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ioa_conf.h"
#include "ioa_parse.h"

/*
 * SIZE: a memory size of 64 KiB or more; SIZE0: the same, or 0 for "none";
 * SECONDS: whole seconds, 1 to 3600 (no fractions: the program's locale
 * would decide what a decimal point is).
 */
enum rt_setting_type { RT_BOOL, RT_PATH, RT_NAME, RT_SIZE, RT_SIZE0, RT_SECONDS, RT_LIST };

struct rt_setting {
	const char *key;
	enum rt_setting_type type;
	size_t offset;
	size_t size;
	const char *fallback;
};

#define RT_SETTING_ROW(key, type, field, fallback, desc)     \
	{#key, RT_##type, offsetof(struct rt_config, field), \
	 sizeof(((struct rt_config *)0)->field), fallback},
static const struct rt_setting settings[] = {RT_SETTINGS(RT_SETTING_ROW)};
#undef RT_SETTING_ROW
#define SETTING_COUNT (sizeof(settings) / sizeof(settings[0]))

static int parse_bool(const char *text, bool *out)
{
	static const char *const yes[] = {"1", "yes", "true", "on"};
	static const char *const no[] = {"0", "no", "false", "off"};
	size_t i;

	for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (!strcasecmp(text, yes[i])) {
			*out = true;
			return 0;
		}
		if (!strcasecmp(text, no[i])) {
			*out = false;
			return 0;
		}
	}
	return -1;
}

/*
 * The temporary folder as MPI libraries (Open MPI, PMIx) find it, for
 * "$TMPDIR" in a list: $TMPDIR, $TEMP, $TMP (absolute ones), else /tmp;
 * without its trailing slashes.
 */
static size_t temp_dir(const char **dir)
{
	static const char *const vars[] = {"TMPDIR", "TEMP", "TMP"};
	const char *d = "/tmp";
	size_t i, len;

	for (i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		const char *v = getenv(vars[i]);

		if (v && v[0] == '/') {
			d = v;
			break;
		}
	}
	len = strlen(d);
	while (len > 1 && d[len - 1] == '/')
		len--;
	*dir = d;
	return len;
}

/* Adds one entry (len bytes at p) to list: $TMPDIR replaced, trailing '/' dropped. */
static int list_add(struct rt_list *list, const char *p, size_t len)
{
	static const char tmpdir_var[] = "$TMPDIR";
	const size_t var_len = sizeof(tmpdir_var) - 1;
	char entry[sizeof(list->items[0])];
	size_t used = 0, i, wild;

	if (len >= var_len && !memcmp(p, tmpdir_var, var_len) &&
	    (len == var_len || p[var_len] == '/')) {
		const char *dir;

		used = temp_dir(&dir);
		if (used >= sizeof(entry))
			return -1;
		memcpy(entry, dir, used);
		p += var_len;
		len -= var_len;
	}
	if (used + len >= sizeof(entry))
		return -1;
	memcpy(entry + used, p, len);
	used += len;
	while (used > 1 && entry[used - 1] == '/')
		used--;
	entry[used] = '\0';
	for (i = 0; i < list->count; i++)
		if (!strcmp(list->items[i], entry))
			return 0;
	if (list->count == RT_CONFIG_LIST_MAX)
		return -1;
	/* What precedes the first wildcard's name is compared as it is. */
	wild = strcspn(entry, "*?");
	while (wild < used && wild > 0 && entry[wild - 1] != '/')
		wild--;
	memcpy(list->items[list->count], entry, used + 1);
	list->lengths[list->count] = (unsigned short)used;
	list->literal[list->count++] = (unsigned short)(wild < used ? wild : used);
	return 0;
}

static int parse_list(const char *text, struct rt_list *list)
{
	struct rt_list parsed = {0};
	const char *p = text;

	while (*p) {
		const char *end = strchr(p, ':');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		if (len && list_add(&parsed, p, len))
			return -1;
		p += len + (end != NULL);
	}
	*list = parsed;
	return 0;
}

/* Stores text into the setting's field; -1 (field unchanged) when it does not parse. */
static int apply(struct rt_config *c, const struct rt_setting *s, const char *text)
{
	char *field = (char *)c + s->offset;
	uint64_t size;

	switch (s->type) {
	case RT_BOOL:
		return parse_bool(text, (bool *)field);
	case RT_PATH:
	case RT_NAME:
		if (strlen(text) >= s->size || (s->type == RT_PATH && *text && *text != '/'))
			return -1;
		memcpy(field, text, strlen(text) + 1);
		return 0;
	case RT_SIZE:
	case RT_SIZE0:
		/* Below 64 KiB the runtime cannot hold its own tables. */
		if (ioa_parse_size(text, &size) ||
		    (size < 65536 && !(size == 0 && s->type == RT_SIZE0)) ||
		    size > ((uint64_t)1 << 40))
			return -1;
		*(uint64_t *)field = size;
		return 0;
	case RT_SECONDS:
		return ioa_parse_int(text, 1, 3600, (int *)field) ? -1 : 0;
	case RT_LIST:
		return parse_list(text, (struct rt_list *)field);
	}
	return -1;
}

static void reject(struct rt_config *c, const char *where, const char *key, const char *value)
{
	c->rejected++;
	if (c->debug)
		fprintf(stderr, "ioatlas: ignoring bad setting %s '%s' from %s\n", key, value,
			where);
}

static const struct rt_setting *find_setting(const char *key, size_t len)
{
	size_t i;

	for (i = 0; i < SETTING_COUNT; i++)
		if (strlen(settings[i].key) == len && !strncasecmp(settings[i].key, key, len))
			return &settings[i];
	return NULL;
}

/* The site file is read only when it is a regular file of at most this size. */
#define RT_CONF_MAX_BYTES (1024 * 1024)

/* One "key = value" line of the site file (keep_debug: see load_file()). */
static void load_line(struct rt_config *c, const char *path, char *line, bool keep_debug)
{
	char *hash = strchr(line, '#'), *eq, *key, *value;
	const struct rt_setting *s;

	if (hash)
		*hash = '\0';
	key = ioa_conf_trim(line);
	if (!*key)
		return;
	eq = strchr(key, '=');
	if (!eq) {
		reject(c, path, "line", key);
		return;
	}
	*eq = '\0';
	value = ioa_conf_trim(eq + 1);
	key = ioa_conf_trim(key);
	/* Dotted keys ("collector.quarantine") are the tools' (common/ioa_conf.h). */
	if (strchr(key, '.'))
		return;
	s = find_setting(key, strlen(key));
	if (s && keep_debug && s->offset == offsetof(struct rt_config, debug))
		return;
	if (!s || apply(c, s, value))
		reject(c, path, key, value);
}

static void refuse_file(const struct rt_config *c, const char *path, const char *why,
			long long size)
{
	if (!c->debug)
		return;
	if (size >= 0)
		fprintf(stderr, "ioatlas: ignoring settings file '%s': %s (%lld bytes)\n", path,
			why, size);
	else
		fprintf(stderr, "ioatlas: ignoring settings file '%s': %s\n", path, why);
}

/*
 * Reads the site file, which start-up must never wait for: it is opened
 * without blocking (a FIFO with no writer), and read only when it is a
 * regular file of at most RT_CONF_MAX_BYTES (not /dev/zero, a folder, a
 * FIFO or a huge file), and never past that many bytes (a file that grows
 * meanwhile).  Lines longer than the line buffer are refused whole.
 * keep_debug: IOATLAS_DEBUG is set, and the environment wins over the file.
 */
static void load_file(struct rt_config *c, const char *path, bool must_exist, bool keep_debug)
{
	char chunk[4096], line[2048];
	size_t len = 0, total = 0;
	bool overlong = false;
	struct stat st;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);

	if (fd < 0) {
		if (must_exist && c->debug)
			fprintf(stderr, "ioatlas: cannot read settings file '%s'\n", path);
		return;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		refuse_file(c, path, "not a regular file", -1);
		goto out;
	}
	if (st.st_size > RT_CONF_MAX_BYTES) {
		refuse_file(c, path, "larger than 1 MiB", (long long)st.st_size);
		goto out;
	}
	while (total < RT_CONF_MAX_BYTES) {
		size_t want = RT_CONF_MAX_BYTES - total < sizeof(chunk) ? RT_CONF_MAX_BYTES - total
									: sizeof(chunk);
		size_t i;

		n = read(fd, chunk, want);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		total += (size_t)n;
		for (i = 0; i < (size_t)n; i++) {
			if (chunk[i] != '\n') {
				if (len + 1 < sizeof(line))
					line[len++] = chunk[i];
				else
					overlong = true;
				continue;
			}
			line[len] = '\0';
			if (overlong)
				reject(c, path, "line", "(longer than 2047 bytes)");
			else
				load_line(c, path, line, keep_debug);
			len = 0;
			overlong = false;
		}
	}
	line[len] = '\0';
	if (overlong)
		reject(c, path, "line", "(longer than 2047 bytes)");
	else if (len)
		load_line(c, path, line, keep_debug);
out:
	close(fd);
}

void rt_config_load(struct rt_config *c)
{
	const char *env, *file, *debug;
	char name[64];
	size_t i, k;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < SETTING_COUNT; i++)
		apply(c, &settings[i], settings[i].fallback);
	/* Debug first, so that complaints about the rest can be heard. */
	debug = getenv("IOATLAS_DEBUG");
	if (debug)
		parse_bool(debug, &c->debug);

	file = getenv("IOATLAS_CONF");
	load_file(c, file && *file ? file : "/etc/ioatlas/ioatlas.conf", file && *file, debug);

	for (i = 0; i < SETTING_COUNT; i++) {
		int n = snprintf(name, sizeof(name), "IOATLAS_");

		for (k = 0; settings[i].key[k] && (size_t)n + k + 1 < sizeof(name); k++)
			name[n + (int)k] = (char)toupper((unsigned char)settings[i].key[k]);
		name[n + (int)k] = '\0';
		env = getenv(name);
		if (env && apply(c, &settings[i], env))
			reject(c, "the environment", name, env);
	}
}

size_t rt_config_describe(const struct rt_config *c, char *out, size_t out_len)
{
	size_t used = 0, i, k;

	for (i = 0; i < SETTING_COUNT; i++) {
		const struct rt_setting *s = &settings[i];
		const char *field = (const char *)c + s->offset;
		int n = 0;

		switch (s->type) {
		case RT_BOOL:
			n = snprintf(out + used, out_len - used, "%s=%d\n", s->key,
				     *(const bool *)field);
			break;
		case RT_PATH:
		case RT_NAME:
			n = snprintf(out + used, out_len - used, "%s=%s\n", s->key, field);
			break;
		case RT_SIZE:
		case RT_SIZE0:
			n = snprintf(out + used, out_len - used, "%s=%llu\n", s->key,
				     (unsigned long long)*(const uint64_t *)field);
			break;
		case RT_SECONDS:
			n = snprintf(out + used, out_len - used, "%s=%d\n", s->key,
				     *(const int *)field);
			break;
		case RT_LIST: {
			const struct rt_list *list = (const struct rt_list *)field;

			n = snprintf(out + used, out_len - used, "%s=", s->key);
			for (k = 0; k < list->count && n >= 0 && used + (size_t)n < out_len; k++) {
				int m = snprintf(out + used + n, out_len - used - (size_t)n, "%s%s",
						 k ? ":" : "", list->items[k]);
				n = m < 0 ? m : n + m;
			}
			if (n >= 0 && used + (size_t)n < out_len)
				n += snprintf(out + used + n, out_len - used - (size_t)n, "\n");
			break;
		}
		}
		if (n < 0 || used + (size_t)n >= out_len)
			return used;
		used += (size_t)n;
	}
	return used;
}

/* Whether the name (len bytes) matches pattern (plen bytes): '*' any run, '?' one byte. */
static bool name_matches(const char *pattern, size_t plen, const char *name, size_t len)
{
	size_t pi = 0, ni = 0, star = (size_t)-1, mark = 0;

	while (ni < len) {
		if (pi < plen && (pattern[pi] == '?' || pattern[pi] == name[ni]) &&
		    pattern[pi] != '*') {
			pi++;
			ni++;
		} else if (pi < plen && pattern[pi] == '*') {
			star = pi++;
			mark = ni;
		} else if (star != (size_t)-1) {
			pi = star + 1;
			ni = ++mark;
		} else {
			return false;
		}
	}
	while (pi < plen && pattern[pi] == '*')
		pi++;
	return pi == plen;
}

/*
 * How much of path the names of pattern match, one name of the path per
 * name of the pattern from the start of both, or 0 when they do not.
 */
static size_t names_match(const char *pattern, const char *path)
{
	const char *p = pattern, *s = path;

	/* Most paths differ from a pattern at its first name's first byte: no scan then. */
	if (*p != '*' && *p != '?' && *p != *s)
		return 0;
	for (;;) {
		size_t plen = strcspn(p, "/"), slen = strcspn(s, "/");

		if (!name_matches(p, plen, s, slen))
			return 0;
		p += plen;
		s += slen;
		if (!*p)
			return (size_t)(s - path);
		if (*s != '/')
			return 0;
		p++;
		s++;
	}
}

/* Length of the longest leading part of path that an entry of list matches, or 0. */
static size_t longest_prefix(const struct rt_list *list, const char *path)
{
	size_t best = 0, i;

	for (i = 0; i < list->count; i++) {
		const char *item = list->items[i];
		size_t len = list->lengths[i], lit = list->literal[i], m;

		if ((lit >= 2 && path[1] != item[1]) || strncmp(path, item, lit))
			continue;
		if (lit == len)
			m = path[len] == '/' || path[len] == '\0' || item[len - 1] == '/' ? len : 0;
		else
			m = (m = names_match(item + lit, path + lit)) ? lit + m : 0;
		if (m > best)
			best = m;
	}
	return best;
}

bool rt_config_path_recorded(const struct rt_config *c, const char *path)
{
	size_t excluded = longest_prefix(&c->exclude_paths, path);

	return !excluded || longest_prefix(&c->include_paths, path) >= excluded;
}

bool rt_config_exe_listed(const struct rt_list *list, const char *exe)
{
	const char *base = strrchr(exe, '/');
	size_t i;

	base = base ? base + 1 : exe;
	for (i = 0; i < list->count; i++)
		if (!strcmp(list->items[i], base))
			return true;
	return longest_prefix(list, exe) > 0;
}
