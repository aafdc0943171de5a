/*
 * rt_shutdown — the end of a process that is not an MPI job: when the site
 * or the user opted in (nonmpi, nonmpi_exes), the records become one log.
 * MPI jobs write their shared log at MPI_Finalize instead (rt_mpi.c).
 * Nothing here may disturb the exiting program: failures are only reported
 * under IOATLAS_DEBUG, and a process that exits from a signal handler which
 * interrupted a record update leaves no log rather than wait for a lock its
 * own thread holds.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ioa_log.h"
#include "rt_core.h"
#include "rt_log.h"
#include "rt_records.h"
#include "rt_trace.h"

/* Stops recording and waits for calls in flight to finish their updates. */
void rt_stop_recording(void)
{
	rt_lock();
	rt.enabled = 0;
	rt_unlock();
}

void rt_give_log_group(const char *path)
{
	struct group gr, *found = NULL;
	char buf[1024];

	if (rt.config.log_group[0] &&
	    getgrnam_r(rt.config.log_group, &gr, buf, sizeof(buf), &found) == 0 && found)
		(void)chown(path, (uid_t)-1, found->gr_gid);
}

void rt_shutdown_at_exit(void)
{
	struct ioa_log_writer w;
	char host[256] = "";
	uint32_t node = 0;
	double seconds_per_tick;
	int rc, saved_errno = errno;

	if (rt.log_written || !rt.started || rt.mpi_initialized)
		return;
	/* A vfork child that calls exit() runs our destructor in the parent's memory. */
	if (getpid() != rt.pid)
		return;
	if (!rt.config.nonmpi && !rt_config_exe_listed(&rt.config.nonmpi_exes, rt.exe))
		return;
	rt.log_written = true;
	/*
	 * exit() from a signal handler that interrupted this thread while it held
	 * the runtime's lock (or waited for it): the lock would never come, and the
	 * records are halfway through an update.  No log, rather than a hang.
	 */
	if (rt_inside & RT_IN_LOCK) {
		static const char why[] = "ioatlas: no log: the process exited from a signal "
					  "handler during a record update\n";

		rt.enabled = 0;
		if (rt.config.debug)
			(void)!write(STDERR_FILENO, why, sizeof(why) - 1);
		errno = saved_errno;
		return;
	}
	rt_inside |= RT_IN_RUNTIME;
	rt_stop_recording();
	seconds_per_tick = rt_seconds_per_tick();
	rt_records_to_seconds(seconds_per_tick);

	gethostname(host, sizeof(host) - 1);
	ioa_logw_init(&w, (size_t)1 << 30);
	rc = rt_log_pack_records(&w);
	/* A trace that cannot be packed is left out; the log goes on without it. */
	if (!rc && rt_trace_pack(&w, seconds_per_tick * 1e9) && rt.config.debug)
		fprintf(stderr, "ioatlas: the operation trace is left out of the log\n");
	if (!rc)
		rc = rt_log_pack_job(&w, host, strlen(host), &node, 1);
	if (!rc)
		rc = rt_log_write(&w);
	if (rc && rt.config.debug)
		fprintf(stderr, "ioatlas: cannot write the log under '%s': %s\n", rt.config.logdir,
			strerror(-rc));
	ioa_logw_release(&w);
	rt_inside &= ~RT_IN_RUNTIME;
	/* Other exit handlers may still look at errno. */
	errno = saved_errno;
}
