/*
 * rt_clock — one clock per job.  A process counts time from its own
 * start-up (rt_now()), so ranks launched a few hundred milliseconds apart
 * would each put their calls that far from where they happened in the
 * job.  At MPI_Finalize, once the recording ranks share a communicator
 * (rt_mpijoin), the log writer (the group's rank 0) measures every other
 * rank's clock against its own, and each rank moves its times (records,
 * trace, bins) from its own start to the job's, the earliest rank's start
 * on the writer's clock.
 *
 * The clock compared is the runtime's own: a rank's wall clock at its
 * start plus the ticks it counted since, the clock its times are on.  A
 * rank on the writer's host shares its wall clock, so each process reads
 * how far its clock is from that wall clock and the difference is the
 * offset, exact to a clock reading.  A rank on another host gets a few
 * pings and answers each with its clock; the round with the shortest round
 * trip gives the offset, within half of that round trip.  The same rounds
 * compare the wall clocks; how far the two comparisons disagree is how far
 * a rank's tick clock drifted from its wall clock over the run against the
 * writer's: times early in the run may be off by that much more.  Both are stated in the job key
 * "clock" (IOA_JOB_CLOCK).  A process tree and a recovered job have no
 * one to ask: their processes' wall clocks at their starts put them on
 * the job's clock (base=wall).
 */
#ifndef RT_CLOCK_H
#define RT_CLOCK_H

#include <stdint.h>

#include "rt_mpijoin.h"

#define rt_clock_sync RT_MPI_SYM(clock_sync)

/* Ping-pong rounds per rank: the best of them counts. */
#define RT_CLOCK_ROUNDS 4

struct rt_clock {
	uint64_t job_start_ns;	 /* the job's start on the writer's clock, ns since the epoch */
	uint64_t rank_start_ns;	 /* this rank's start on it */
	uint64_t uncertainty_ns; /* writer only: the worst rank's half round trip */
	uint64_t drift_ns;	 /* writer only: the largest drift seen */
	uint64_t unmeasured;	 /* writer only: ranks a round failed with (on their wall clocks) */
};

/*
 * On every rank of g, collective over g->comm, after rt_mpijoin: fills c
 * and moves this rank's record timestamps and trace to the job's clock.
 * ns_per_tick is the rank's (rt_seconds_per_tick()).  0, or non-zero when
 * the job's start could not be shared (the times then stay on this rank's
 * own clock: rank_start_ns 0).  A rank whose rounds fail keeps its wall
 * clock at its start as its offset.
 */
int rt_clock_sync(const struct rt_mpijoin *g, double ns_per_tick, struct rt_clock *c);

#endif
