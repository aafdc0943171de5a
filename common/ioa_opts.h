/*
 * ioa_opts — the one convention every ioatlas verb reads its arguments
 * by (getopt_long): long options as --name, --name=value or --name value;
 * short ones bundled (-ej) and with their value joined (-r3) or apart
 * (-r 3); options and operands in any order, "--" ending the options;
 * -h and --help print the verb's usage to stdout, exit status 0.  An
 * unknown option or a missing value is said in the operators' grammar
 * (ioa_log) and is a usage error: exit status 2, the usage on stderr.
 * For the tools only (not in the runtime).
 */
#ifndef IOA_OPTS_H
#define IOA_OPTS_H

#include <getopt.h>

/* Exit statuses of every verb (ioatlas(1), EXIT STATUS). */
#define IOA_EXIT_OK    0 /* done */
#define IOA_EXIT_FAIL  1 /* failed, said on stderr */
#define IOA_EXIT_USAGE 2 /* the arguments were wrong: the usage on stderr */

/*
 * getopt_long() under the convention: the next option's value (longs'
 * val), -1 after the last, or '?' when an option is unknown or lacks its
 * value, which it has said.  optarg and optind as getopt_long() leaves
 * them.  shorts may start with '+': options stop at the first operand
 * (the front command's verb, whose arguments are the verb's own).
 */
int ioa_getopt(int argc, char *const argv[], const char *shorts, const struct option *longs);

#endif
