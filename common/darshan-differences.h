/*
 * darshan-differences — the one table of every way ioatlas's counters differ
 * from Darshan 3.5.0's on the programs of tests/data/darshan and on real
 * programs (fio, NWChem).
 *
 * tests/runtime/t1050-darshan-counters runs those programs under ioatlas and
 * compares every Darshan-named counter of every record with darshan-parser's
 * output (through tests/runtime/darshan-compare, which compiles this table);
 * t1093 and t1094 run fio and NWChem under both and compare the same way;
 * gen-counters-doc prints it into docs/counters.md.  So the page and the test
 * cannot disagree: a difference not in this table fails the test, and so does
 * an entry of kind DD_ALWAYS that no run shows any more (remove it when a fix
 * lands).
 *
 * X(module, ranks, files, counters, relation, kind, fixed_by, why):
 *   module    "POSIX", "STDIO" or "MPI-IO";
 *   ranks     DD_SHARED (rank -1 records), DD_RANKS (per-rank records), DD_ANY;
 *   files     fnmatch(3) pattern on the file's path relative to the run's folder
 *             (files outside it keep their absolute path);
 *   counters  fnmatch(3) pattern on counter names, or DD_RECORD for a record
 *             that only one side has;
 *   relation  what the difference is (ours against Darshan's; DD_ONLY_OURS only for
 *             POSIX records no open, dup or fileno of which succeeded, and that moved
 *             no byte, and for STDIO records that read nothing);
 *   kind      DD_ALWAYS: every run of t1050 shows it somewhere; DD_TIMING or
 *             DD_MACHINE: it depends on timing or on the machine and may not show;
 *             DD_PROGRAM: only some programs show it (the real programs of t1093
 *             and t1094);
 *   fixed_by  "" when the difference is deliberate or inherent, else what
 *             removes it;
 *   why       the cause, one sentence for the documentation.
 */
#ifndef DARSHAN_DIFFERENCES_H
#define DARSHAN_DIFFERENCES_H

#define DD_RECORD "(record)"

enum dd_ranks { DD_SHARED, DD_RANKS, DD_ANY };

enum dd_relation {
	DD_ONLY_OURS,	/* a record ioatlas keeps and Darshan has not */
	DD_GREATER,	/* ours is larger */
	DD_UNMONITORED, /* Darshan says -1: "could not monitor that counter" */
	DD_DIFFERS	/* any value (timing, or a counter filled differently) */
};

enum dd_kind { DD_ALWAYS, DD_TIMING, DD_MACHINE, DD_PROGRAM };

#define DARSHAN_DIFFERENCES(X)                                                                    \
	X("POSIX", DD_ANY, "*", DD_RECORD, DD_ONLY_OURS, DD_ALWAYS, "",                           \
	  "a file never opened keeps a record of what was done to it: calls that failed "         \
	  "(POSIX_FAILED_CALLS), stat, lstat and fstat (see POSIX_STATS), remove() (in "          \
	  "POSIX_UNLINKS, ours; a file used only through stdio and then removed); Darshan "       \
	  "makes a record at a successful open or at a stat call it intercepts")                  \
	X("POSIX", DD_ANY, "*", "POSIX_MMAPS", DD_UNMONITORED, DD_ALWAYS, "",                     \
	  "Darshan 3.5 intercepts mmap only when built to (off by default) and "                  \
	  "otherwise reports -1; ioatlas counts mmap calls")                                      \
	X("POSIX", DD_RANKS, "*", "POSIX_STATS", DD_GREATER, DD_ALWAYS, "",                       \
	  "with glibc 2.33 and later stat, lstat and fstat are functions of their own that "      \
	  "Darshan does not intercept (it wraps the older __xstat family); ioatlas counts "       \
	  "them")                                                                                 \
	X("*", DD_SHARED, "*", "*_F_VARIANCE_RANK_TIME", DD_DIFFERS, DD_TIMING, "",               \
	  "a variance of seconds squared, often below darshan-parser's printed precision "        \
	  "(0.000001): whether it prints as zero depends on the run's timing")                    \
	X("STDIO", DD_ANY, "*", "STDIO_*WRIT*", DD_GREATER, DD_PROGRAM, "",                       \
	  "a program built with _FORTIFY_SOURCE (as Debian builds NWChem) calls __printf_chk, "   \
	  "__fprintf_chk and their v-forms in place of printf and fprintf: ioatlas counts "       \
	  "those writes, Darshan 3.5 does not intercept them")                                    \
	X("STDIO", DD_ANY, "<STD*>", DD_RECORD, DD_ONLY_OURS, DD_PROGRAM, "",                     \
	  "Darshan drops a standard stream's record when it saw neither a read nor a write on "   \
	  "it, and the writes of fortified printf (above) are ones it does not see")              \
	X("*", DD_SHARED, "*", "*_ACCESS?_*", DD_DIFFERS, DD_PROGRAM, "",                         \
	  "a shared file's four most common access sizes are merged from each rank's four; "      \
	  "when more than four sizes compete, which survive depends on the order the ranks' "     \
	  "records are combined (ours in rank order, Darshan's in MPI_Reduce's tree)")            \
	X("*", DD_ANY, "*", "*_MAX_*_TIME_SIZE", DD_DIFFERS, DD_TIMING, "",                       \
	  "which read or write was the slowest, and so its size, depends on the run's timing "    \
	  "when a file sees requests of several sizes")                                           \
	X("*", DD_SHARED, "*", "*_FASTEST_RANK*", DD_DIFFERS, DD_TIMING, "",                      \
	  "which rank is fastest depends on the run's timing")                                    \
	X("*", DD_SHARED, "*", "*_SLOWEST_RANK*", DD_DIFFERS, DD_TIMING, "",                      \
	  "which rank is slowest depends on the run's timing")

#endif
