/*
 * rt_clock — the job's clock, measured at MPI_Finalize (see rt_clock.h).
 *
 * The writer (rank 0 of the group) takes the other ranks one after the
 * other: pings, each answered with the rank's runtime clock, wall clock,
 * start and host; then the rank's offset in one last message.  A rank on
 * the writer's host needs one ping, another host's RT_CLOCK_ROUNDS.  A
 * broadcast of the job's start ends it.  Point-to-point on the group's
 * communicator, on a tag of the runtime's own (the program's traffic is
 * over): at most 2 x RT_CLOCK_ROUNDS + 1 small messages per rank, one rank
 * at a time, a few microseconds each.
 */
#define _GNU_SOURCE
#include "rt_clock.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#define XXH_INLINE_ALL
#include <xxhash.h>

#include "rt_core.h"
#include "rt_log.h"
#include "rt_mpilog.h"

#define RT_TAG_CLOCK 0x7e14

static int64_t wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* The clock this rank's times are on: its wall clock at start-up plus the ticks since. */
static int64_t runtime_ns(double ns_per_tick)
{
	return (int64_t)rt.start_real_ns +
	       (int64_t)((double)(rt_ticks() - rt.start_ticks) * ns_per_tick);
}

/* What a rank answers a ping with. */
enum { RT_CLK_RUNTIME, RT_CLK_WALL, RT_CLK_START, RT_CLK_HOST, RT_CLK_REPLY };

/* The messages the writer sends: a ping, or the rank's offset, which ends it. */
enum { RT_CLK_PING, RT_CLK_OFFSET };

/* This host's name, hashed: ranks on it share one wall clock. */
static int64_t host_id(void)
{
	char host[256];

	rt_log_host(host, sizeof(host));
	return (int64_t)XXH3_64bits(host, strlen(host));
}

/*
 * The writer's side for rank r: r's offset (the writer's clock minus r's)
 * sent to r, and r's start on the writer's clock in *start_ns.  A rank on
 * the writer's host shares its wall clock: each clock's distance from it,
 * read on the spot, gives the offset without a round trip's uncertainty.
 * Another host's takes RT_CLOCK_ROUNDS pings, the shortest round trip
 * counting.  A failed round leaves r its wall clock (offset 0).
 */
static void measure(const struct rt_mpijoin *g, int r, double ns_per_tick, int64_t here,
		    struct rt_clock *c, int64_t *start_ns)
{
	int64_t best = INT64_MAX, offset = 0, wall_offset = 0, msg[2] = {RT_CLK_PING, 0};
	int64_t reply[RT_CLK_REPLY] = {0};
	int rc = 0, k;

	for (k = 0; k < RT_CLOCK_ROUNDS && !rc; k++) {
		int64_t a, wa, b, wb;

		a = runtime_ns(ns_per_tick);
		wa = wall_ns();
		rc = rt_pmpi.Send(msg, 2, MPI_INT64_T, r, RT_TAG_CLOCK, g->comm);
		rc = rc ? rc
			: rt_pmpi.Recv(reply, RT_CLK_REPLY, MPI_INT64_T, r, RT_TAG_CLOCK, g->comm,
				       MPI_STATUS_IGNORE);
		b = runtime_ns(ns_per_tick);
		wb = wall_ns();
		if (rc)
			break;
		if (reply[RT_CLK_HOST] == here) {
			best = 0;
			offset = (a - wa) - (reply[RT_CLK_RUNTIME] - reply[RT_CLK_WALL]);
			wall_offset = 0;
			break;
		}
		if (b - a < best) {
			best = b - a;
			offset = a + (b - a) / 2 - reply[RT_CLK_RUNTIME];
			wall_offset = wa + (wb - wa) / 2 - reply[RT_CLK_WALL];
		}
	}
	if (rc) {
		offset = 0;
		c->unmeasured++;
	} else {
		uint64_t drift = (uint64_t)llabs(offset - wall_offset);

		if ((uint64_t)best / 2 > c->uncertainty_ns)
			c->uncertainty_ns = (uint64_t)best / 2;
		if (drift > c->drift_ns)
			c->drift_ns = drift;
	}
	*start_ns = rc ? 0 : reply[RT_CLK_START] + offset;
	/* Sent even after a failed round: r waits for it. */
	msg[0] = RT_CLK_OFFSET;
	msg[1] = offset;
	(void)rt_pmpi.Send(msg, 2, MPI_INT64_T, r, RT_TAG_CLOCK, g->comm);
}

/* A rank's side: answers the writer's pings until its offset comes. */
static void answer(const struct rt_mpijoin *g, double ns_per_tick, int64_t *offset)
{
	int64_t msg[2], reply[RT_CLK_REPLY];
	int rc, k;

	*offset = 0;
	reply[RT_CLK_START] = (int64_t)rt.start_real_ns;
	reply[RT_CLK_HOST] = host_id();
	for (k = 0; k <= RT_CLOCK_ROUNDS; k++) {
		rc = rt_pmpi.Recv(msg, 2, MPI_INT64_T, 0, RT_TAG_CLOCK, g->comm, MPI_STATUS_IGNORE);
		if (rc)
			return;
		if (msg[0] == RT_CLK_OFFSET) {
			*offset = msg[1];
			return;
		}
		reply[RT_CLK_RUNTIME] = runtime_ns(ns_per_tick);
		reply[RT_CLK_WALL] = wall_ns();
		if (rt_pmpi.Send(reply, RT_CLK_REPLY, MPI_INT64_T, 0, RT_TAG_CLOCK, g->comm))
			return;
	}
}

int rt_clock_sync(const struct rt_mpijoin *g, double ns_per_tick, struct rt_clock *c)
{
	int64_t offset = 0, job_start = (int64_t)rt.start_real_ns, start;
	int rc, r;

	memset(c, 0, sizeof(*c));
	if (g->rank == 0) {
		int64_t here = host_id();

		for (r = 1; r < g->size; r++) {
			measure(g, r, ns_per_tick, here, c, &start);
			if (start > 0 && start < job_start)
				job_start = start;
		}
	} else {
		answer(g, ns_per_tick, &offset);
	}
	/* A rank that could not be measured keeps its wall clock (offset 0). */
	rc = rt_pmpi.Bcast(&job_start, 1, MPI_INT64_T, 0, g->comm);
	start = (int64_t)rt.start_real_ns + offset;
	if (rc || start < job_start)
		return rc ? rc : -1;
	c->job_start_ns = (uint64_t)job_start;
	c->rank_start_ns = (uint64_t)start;
	rt_log_on_job_clock(c->job_start_ns, c->rank_start_ns);
	return 0;
}
