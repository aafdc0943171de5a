/*
 * conf-harness — reads a site settings file the way every tool does,
 * through ioa_conf (see conf-harness.c).  Shared by the fuzzer
 * (fuzz-conf.c) and the corpus replay test (t0006).
 */
#ifndef CONF_HARNESS_H
#define CONF_HARNESS_H

/*
 * Loads path as the settings file ($IOATLAS_CONF) into a table of every
 * setting type.  Returns 0 for a good file, a negative errno otherwise;
 * *items counts the settings that hold a value afterwards.
 */
int conf_harness_read(const char *path, unsigned long *items);

#endif
