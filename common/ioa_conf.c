/*
 * ioa_conf — the tools' site settings (see ioa_conf.h).
 */
#include "ioa_conf.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ioa_parse.h"

const char *ioa_conf_path(void)
{
	const char *file = getenv("IOATLAS_CONF");

	return file && *file ? file : "/etc/ioatlas/ioatlas.conf";
}

/* A finite number >= 0 at the start of text; end: what follows it. */
static int parse_number(const char *text, double *out, char **end)
{
	if (!*text || isspace((unsigned char)*text))
		return -EINVAL;
	errno = 0;
	*out = strtod(text, end);
	return errno || *end == text || !isfinite(*out) || *out < 0 ? -EINVAL : 0;
}

static int parse_seconds(const char *text, double *out)
{
	static const struct {
		const char *unit;
		double scale;
	} units[] = {{"", 1}, {"s", 1}, {"m", 60}, {"h", 3600}, {"d", 86400}};
	char *end;
	double v;
	size_t i;

	if (parse_number(text, &v, &end))
		return -EINVAL;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(end, units[i].unit)) {
			*out = v * units[i].scale;
			return 0;
		}
	return -EINVAL;
}

static int parse_bool(const char *text, int *out)
{
	static const char *const yes[] = {"1", "yes", "true", "on"};
	static const char *const no[] = {"0", "no", "false", "off"};
	size_t i;

	for (i = 0; i < 4; i++) {
		if (!strcasecmp(text, yes[i])) {
			*out = 1;
			return 0;
		}
		if (!strcasecmp(text, no[i])) {
			*out = 0;
			return 0;
		}
	}
	return -EINVAL;
}

int ioa_conf_parse(enum ioa_setting_type type, const char *text, void *field)
{
	int64_t n;
	char *copy;

	switch (type) {
	case IOA_SET_TEXT:
		if (!(copy = strdup(text)))
			return -ENOMEM;
		free(*(char **)field);
		*(char **)field = copy;
		return 0;
	case IOA_SET_SECONDS:
		return parse_seconds(text, field);
	case IOA_SET_NUMBER: {
		char *end;

		return parse_number(text, field, &end) || *end ? -EINVAL : 0;
	}
	case IOA_SET_COUNT:
		if (ioa_parse_i64(text, &n) || n < 0)
			return -EINVAL;
		*(long long *)field = n;
		return 0;
	case IOA_SET_BOOL:
		return parse_bool(text, field);
	case IOA_SET_SIZE: {
		uint64_t v;

		if (ioa_parse_size(text, &v) || v > (uint64_t)LLONG_MAX)
			return -EINVAL;
		*(long long *)field = (long long)v;
		return 0;
	}
	}
	return -EINVAL;
}

static const char *type_hint(enum ioa_setting_type type)
{
	switch (type) {
	case IOA_SET_SECONDS:
		return " (a duration: 30, 30s, 5m, 2h, 1d)";
	case IOA_SET_NUMBER:
		return " (a number >= 0: 0.25)";
	case IOA_SET_COUNT:
		return " (a non-negative integer)";
	case IOA_SET_BOOL:
		return " (yes or no)";
	case IOA_SET_SIZE:
		return " (a size: 4096, 64k, 2MiB, 1G)";
	default:
		return "";
	}
}

char *ioa_conf_trim(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

/* Whether key falls under a dotted prefix that one of the settings uses. */
static int own_prefix(const struct ioa_setting *settings, size_t n, const char *key)
{
	const char *dot = strchr(key, '.');
	size_t i;

	if (!dot)
		return 0;
	for (i = 0; i < n; i++)
		if (!strncasecmp(settings[i].key, key, (size_t)(dot - key) + 1))
			return 1;
	return 0;
}

static const struct ioa_setting *find(const struct ioa_setting *settings, size_t n, const char *key)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcasecmp(settings[i].key, key))
			return &settings[i];
	return NULL;
}

static int load_file(const struct ioa_setting *settings, size_t n, const char *path, int must_exist,
		     struct ioa_buf *err)
{
	char line[4096];
	unsigned lineno = 0;
	FILE *f = fopen(path, "re");
	int rc = 0;

	if (!f) {
		if (errno == ENOENT && !must_exist)
			return 0;
		ioa_buf_addf(err, "cannot read the settings file '%s': %s", path, strerror(errno));
		return -EINVAL;
	}
	while (!rc && fgets(line, sizeof(line), f)) {
		char *hash, *eq, *key, *value;
		const struct ioa_setting *s;

		lineno++;
		if (!strchr(line, '\n') && !feof(f)) {
			ioa_buf_addf(err, "%s:%u: line too long", path, lineno);
			rc = -EINVAL;
			break;
		}
		if ((hash = strchr(line, '#')))
			*hash = '\0';
		key = ioa_conf_trim(line);
		if (!*key)
			continue;
		if (!(eq = strchr(key, '='))) {
			ioa_buf_addf(err, "%s:%u: expected 'key = value'", path, lineno);
			rc = -EINVAL;
			break;
		}
		*eq = '\0';
		value = ioa_conf_trim(eq + 1);
		key = ioa_conf_trim(key);
		s = find(settings, n, key);
		if (!s) {
			if (own_prefix(settings, n, key)) {
				ioa_buf_addf(err, "%s:%u: unknown setting '%s'", path, lineno, key);
				rc = -EINVAL;
			}
			continue;
		}
		rc = ioa_conf_parse(s->type, value, s->field);
		if (rc == -EINVAL)
			ioa_buf_addf(err, "%s:%u: bad value for %s: '%s'%s", path, lineno, s->key,
				     value, type_hint(s->type));
	}
	fclose(f);
	return rc;
}

int ioa_conf_load(const struct ioa_setting *settings, size_t n, struct ioa_buf *err)
{
	const char *file = getenv("IOATLAS_CONF");
	char name[128];
	size_t i, k;
	int rc = 0;

	for (i = 0; i < n && !rc; i++) {
		rc = ioa_conf_parse(settings[i].type, settings[i].fallback, settings[i].field);
		if (rc)
			ioa_buf_addf(err, "bad built-in default for %s", settings[i].key);
	}
	if (!rc)
		rc = load_file(settings, n, ioa_conf_path(), file && *file, err);
	for (i = 0; i < n && !rc; i++) {
		const char *env;

		k = (size_t)snprintf(name, sizeof(name), "IOATLAS_");
		for (; settings[i].key[k - 8] && k + 1 < sizeof(name); k++)
			name[k] = settings[i].key[k - 8] == '.'
					  ? '_'
					  : (char)toupper((unsigned char)settings[i].key[k - 8]);
		name[k] = '\0';
		env = getenv(name);
		if (!env)
			continue;
		rc = ioa_conf_parse(settings[i].type, env, settings[i].field);
		if (rc == -EINVAL)
			ioa_buf_addf(err, "bad value in %s: '%s'%s", name, env,
				     type_hint(settings[i].type));
	}
	return rc;
}

void ioa_conf_free(const struct ioa_setting *settings, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (settings[i].type == IOA_SET_TEXT) {
			free(*(char **)settings[i].field);
			*(char **)settings[i].field = NULL;
		}
}
