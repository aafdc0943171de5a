/*
 * ioa_fault — named fault points, compiled only into test builds.
 *
 * Code that can fail in ways a test cannot provoke (an allocation, a short
 * write, a full disk, a database connection that drops) asks
 *
 *	if (IOA_FAULT("buf-alloc")) return -ENOMEM;
 *
 * In a normal build IOA_FAULT() is the constant 0 and costs nothing.  Test
 * builds (the *_fault variants of the libraries, built with
 * IOA_FAULT_INJECTION) let a test arm one point by name: after `after`
 * passes that succeed, every further pass fails until the point is disarmed.
 * Arming is process-wide and not thread-safe: arm before starting threads.
 * A program built with the points (tests/collector/ioatlasd-fault) is
 * armed from its environment, IOATLAS_FAULT=NAME:AFTER, read at the first
 * pass of any point; the first time a point fires it says so on stderr
 * ("fault point 'NAME' fired"), so a test knows the point was reached.
 *
 * Points: buf-alloc (ioa_buf), logw-alloc, logw-write (the log writer),
 * logr-alloc, logr-read (the log reader; logr-read also fails the
 * collector's own reads of a log: its hash, its trace), col-alloc, col-rename (the
 * collector), db-connect, db-query, db-copy (collector/ioa_db.c: a query
 * or COPY point cuts the connection, as a server that goes away would).
 */
#ifndef IOA_FAULT_H
#define IOA_FAULT_H

#ifdef IOA_FAULT_INJECTION

/* Nonzero when the armed point is `name` and its successful passes are used up. */
int ioa_fault_hit(const char *name);

/* Arms `name` (a string that must outlive the arming) to fail after `after` passes. */
void ioa_fault_arm(const char *name, unsigned long after);

void ioa_fault_disarm(void);

#define IOA_FAULT(name) ioa_fault_hit(name)

#else

#define IOA_FAULT(name) 0

#endif

#endif
