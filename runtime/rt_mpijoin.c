/*
 * rt_mpijoin — the ranks that record find each other at MPI_Finalize (see
 * rt_mpijoin.h), before rt_mpilog reduces their records over the
 * communicator they then share.
 *
 * Three rounds of point-to-point messages on MPI_COMM_WORLD, through PMPI,
 * on tags of the runtime's own (the program's traffic is over by
 * MPI_Finalize):
 *
 *  1. hello: every rank but 0 sends rank 0 whether it records, with
 *     MPI_Isend (a synchronous send that nobody takes could not be
 *     cancelled, and MPI_Finalize would wait for it).  Rank 0 takes
 *     hellos until it has one from every rank or the
 *     finalize_wait setting's seconds have passed.
 *  2. offer: rank 0 offers each recording rank it heard a place, again
 *     with MPI_Issend; a rank that receives its offer is committed, and
 *     rank 0 knows it because the send completes.
 *  3. list: rank 0 sends the committed ranks the list of ranks in the log
 *     (all of them, or ranges of world ranks).
 *
 * Why three: a send to a rank that is not listening cannot be taken back.
 * MPI_Cancel of a send is optional in practice (MPICH's ch4:ucx device
 * does nothing), so a hello that rank 0 takes after its sender gave up must
 * not make rank 0 count that rank in; only an offer received counts.  Every
 * wait is bounded: a recording rank whose offer does not come within four
 * times finalize_wait (rank 0 has no runtime, or arrives that much
 * later) writes a log of its own.  Its hello stays unmatched, which MPI
 * drops at the end: the price of a rank 0 without the runtime.  An offer
 * that could not be cancelled is freed (MPI_Request_free).
 *
 * In the common case, with every rank there, this is 3 x (size - 1) small
 * messages to and from rank 0 and no new communicator.
 */
#define _GNU_SOURCE
#include "rt_mpijoin.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rt_core.h"
#include "rt_mpilog.h"

#define RT_TAG_HELLO  0x7e10
#define RT_TAG_OFFER  0x7e11
#define RT_TAG_LIST   0x7e12
#define RT_TAG_GROUP  0x7e13
#define RT_JOIN_MAGIC 0x494f4a31 /* "IOJ1" */

/* What rank 0 knows of each rank. */
enum { RT_UNHEARD, RT_IDLE, RT_RECORDING, RT_COMMITTED };

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Between two polls: yield at first (the answer is usually near), then sleep. */
static void poll_pause(unsigned *spins)
{
	struct timespec pause = {0, 200000};

	if (++*spins < 2000)
		sched_yield();
	else
		nanosleep(&pause, NULL);
}

/*
 * Tries to take back a send nobody took in time.  Returns 1 when it was
 * taken after all (the cancel came too late), 0 when it is gone: cancelled,
 * or freed because this MPI cannot cancel sends (then MPI may still read
 * its buffer, which must outlive it).
 */
static int take_back(MPI_Request *req)
{
	double deadline = now_s() + 1.0;
	int done = 0, cancelled = 0;
	unsigned spins = 0;
	MPI_Status st;

	if (*req == MPI_REQUEST_NULL)
		return 1;
	rt_pmpi.Cancel(req);
	while (!done && now_s() < deadline) {
		if (rt_pmpi.Test(req, &done, &st) != MPI_SUCCESS)
			break;
		if (!done)
			poll_pause(&spins);
	}
	if (!done) {
		rt_pmpi.Request_free(req);
		return 0;
	}
	rt_pmpi.Test_cancelled(&st, &cancelled);
	return !cancelled;
}

/*
 * Rank 0: waits for the sends in reqs (MPI_REQUEST_NULL: none) until
 * deadline; then takes back the rest.  state[r] becomes to_state for each
 * rank whose send completed.  done is room for n indices.  Returns the
 * number of sends not taken: cancelled, or freed unfinished (MPI may then
 * still read their buffer).
 */
static int wait_sends(MPI_Request *reqs, int *done, unsigned char *state, int n, double deadline,
		      unsigned char to_state)
{
	int r, k, left = 0, count;
	unsigned spins = 0;

	for (r = 0; r < n; r++)
		left += reqs[r] != MPI_REQUEST_NULL;
	/* One call tests them all: a pass costs one call, not one per rank. */
	while (left && now_s() < deadline) {
		if (rt_pmpi.Testsome(n, reqs, &count, done, MPI_STATUSES_IGNORE) != MPI_SUCCESS)
			break;
		if (count == MPI_UNDEFINED)
			break;
		for (k = 0; k < count; k++)
			state[done[k]] = to_state;
		left -= count;
		if (!count)
			poll_pause(&spins);
	}
	for (r = 0, left = 0; r < n; r++) {
		if (reqs[r] == MPI_REQUEST_NULL)
			continue;
		if (take_back(&reqs[r]))
			state[r] = to_state;
		else
			left++;
		reqs[r] = MPI_REQUEST_NULL;
	}
	return left;
}

/* The list message: magic, member count, range count, then (first, count) pairs. */
static int encode_list(const unsigned char *state, int n, int *list)
{
	int r, members = 0, ranges = 0, len;

	for (r = 0; r < n; r++) {
		if (state[r] != RT_COMMITTED)
			continue;
		members++;
		if (ranges && list[3 + 2 * (ranges - 1)] + list[4 + 2 * (ranges - 1)] == r) {
			list[4 + 2 * (ranges - 1)]++;
		} else {
			list[3 + 2 * ranges] = r;
			list[4 + 2 * ranges] = 1;
			ranges++;
		}
	}
	/* Everyone: no ranges to send. */
	if (members == n)
		ranges = 0;
	list[0] = RT_JOIN_MAGIC;
	list[1] = members;
	list[2] = ranges;
	len = 3 + 2 * ranges;
	return len;
}

/* Fills j->world from a list message; 0, or -EINVAL when it does not add up. */
static int decode_list(struct rt_mpijoin *j, const int *list, int len, int n)
{
	int k, i, members = 0;

	if (len < 3 || list[0] != RT_JOIN_MAGIC || list[1] < 1 || list[1] > n || list[2] < 0 ||
	    list[2] > (len - 3) / 2)
		return -EINVAL;
	if (list[2] == 0) {
		if (list[1] != n)
			return -EINVAL;
		for (i = 0; i < n; i++)
			j->world[i] = i;
		j->size = n;
		return 0;
	}
	for (k = 0; k < list[2]; k++) {
		int first = list[3 + 2 * k], count = list[4 + 2 * k];

		if (first < 0 || count < 1 || first > n - count || members > list[1] - count ||
		    (members && first <= j->world[members - 1]))
			return -EINVAL;
		for (i = 0; i < count; i++)
			j->world[members++] = first + i;
	}
	if (members != list[1])
		return -EINVAL;
	j->size = members;
	return 0;
}

/* The communicator over j->world, and this rank's place in it. */
static int make_comm(struct rt_mpijoin *j)
{
	MPI_Group world_group, group;
	int i, rc = 0;

	j->rank = -1;
	for (i = 0; i < j->size; i++)
		if (j->world[i] == rt.rank)
			j->rank = i;
	if (j->rank < 0)
		return -EINVAL;
	if (j->size == rt.nprocs) {
		j->comm = MPI_COMM_WORLD;
		return 0;
	}
	if (j->size == 1) {
		j->comm = MPI_COMM_SELF;
		return 0;
	}
	if (rt_pmpi.Comm_group(MPI_COMM_WORLD, &world_group) != MPI_SUCCESS)
		return -EIO;
	if (rt_pmpi.Group_incl(world_group, j->size, j->world, &group) == MPI_SUCCESS) {
		if (rt_pmpi.Comm_create_group(MPI_COMM_WORLD, group, RT_TAG_GROUP, &j->comm) !=
			    MPI_SUCCESS ||
		    j->comm == MPI_COMM_NULL)
			rc = -EIO;
		rt_pmpi.Group_free(&group);
	} else {
		rc = -EIO;
	}
	rt_pmpi.Group_free(&world_group);
	if (rc)
		return rc;
	j->made_comm = 1;
	rt_pmpi.Comm_set_errhandler(j->comm, MPI_ERRORS_RETURN);
	return 0;
}

/* This rank alone: it writes a log of its own. */
static int alone(struct rt_mpijoin *j)
{
	j->comm = MPI_COMM_SELF;
	j->rank = 0;
	j->size = 1;
	j->world[0] = rt.rank;
	return 0;
}

/* How long rank 0 waits for the others' hellos; they wait four times as long for it. */
static double wait_s(void)
{
	return (double)rt.config.finalize_wait_s;
}

/* Rank 0: takes the hellos, makes the offers, sends the list. */
static int coordinate(struct rt_mpijoin *j, int recording, int *list, int *list_abandoned)
{
	int n = rt.nprocs, heard = 0, r, len, hello[2];
	unsigned char *state = calloc((size_t)n, 1);
	MPI_Request *reqs = state ? malloc((size_t)n * sizeof(*reqs)) : NULL;
	int *done = reqs ? malloc((size_t)n * sizeof(*done)) : NULL;
	double deadline = now_s() + wait_s();
	unsigned spins = 0;

	/* Without memory rank 0 still takes every hello: nobody waits on it in vain. */
	while (heard < n - 1) {
		MPI_Status st;
		int flag = 0;

		if (rt_pmpi.Iprobe(MPI_ANY_SOURCE, RT_TAG_HELLO, MPI_COMM_WORLD, &flag, &st) !=
		    MPI_SUCCESS)
			break;
		if (flag) {
			r = st.MPI_SOURCE;
			if (rt_pmpi.Recv(hello, 2, MPI_INT, r, RT_TAG_HELLO, MPI_COMM_WORLD, &st) ==
				    MPI_SUCCESS &&
			    r > 0 && r < n && hello[0] == RT_JOIN_MAGIC &&
			    (!state || state[r] == RT_UNHEARD)) {
				heard++;
				if (state)
					state[r] = hello[1] ? RT_RECORDING : RT_IDLE;
			}
			continue;
		}
		if (now_s() > deadline)
			break;
		poll_pause(&spins);
	}
	if (!done || !list) {
		free(done);
		free(reqs);
		free(state);
		return recording ? -ENOMEM : 1;
	}
	for (r = 0; r < n; r++) {
		static const int offer = RT_JOIN_MAGIC;

		reqs[r] = MPI_REQUEST_NULL;
		if (state[r] == RT_RECORDING &&
		    rt_pmpi.Issend(&offer, 1, MPI_INT, r, RT_TAG_OFFER, MPI_COMM_WORLD, &reqs[r]) !=
			    MPI_SUCCESS)
			reqs[r] = MPI_REQUEST_NULL;
	}
	wait_sends(reqs, done, state, n, now_s() + 2 * wait_s(), RT_COMMITTED);
	if (recording)
		state[0] = RT_COMMITTED;
	len = encode_list(state, n, list);
	for (r = 1; r < n; r++)
		if (state[r] != RT_COMMITTED ||
		    rt_pmpi.Issend(list, len, MPI_INT, r, RT_TAG_LIST, MPI_COMM_WORLD, &reqs[r]) !=
			    MPI_SUCCESS)
			reqs[r] = MPI_REQUEST_NULL;
	*list_abandoned = wait_sends(reqs, done, state, n, now_s() + 4 * wait_s(), RT_COMMITTED);
	free(done);
	free(reqs);
	free(state);
	if (!recording)
		return 1;
	if (decode_list(j, list, len, n) || make_comm(j))
		return alone(j);
	return 0;
}

/* Waits for a message from rank 0 with this tag until deadline and takes it; its length or -1. */
static int take_from_0(int tag, int *buf, int max, double deadline)
{
	unsigned spins = 0;
	MPI_Status st;
	int flag = 0, count = 0;

	while (!flag) {
		if (rt_pmpi.Iprobe(0, tag, MPI_COMM_WORLD, &flag, &st) != MPI_SUCCESS)
			return -1;
		if (!flag && now_s() > deadline)
			return -1;
		if (!flag)
			poll_pause(&spins);
	}
	if (rt_pmpi.Get_count(&st, MPI_INT, &count) != MPI_SUCCESS || count < 0 || count > max)
		count = 0; /* taken all the same (truncated), never left behind */
	if (rt_pmpi.Recv(buf, count, MPI_INT, 0, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE) !=
	    MPI_SUCCESS)
		return -1;
	return count;
}

/*
 * Ranks but 0: hello, then the offer and the list when recording.  The
 * wait for the offer is long: rank 0 may be late, and then takes up to
 * finalize_wait for the others' hellos.
 */
static int ask(struct rt_mpijoin *j, int recording, int *list, int list_max)
{
	/* Static: MPI may read a hello it could not send at once after this returns. */
	static int hello[2];
	int offer[2], done = 0, len;
	double deadline = now_s() + 4 * wait_s();
	MPI_Request req = MPI_REQUEST_NULL;
	unsigned spins = 0;

	hello[0] = RT_JOIN_MAGIC;
	hello[1] = recording;
	/*
	 * A standard send, which completes at once for so small a message: a
	 * synchronous one that rank 0 never takes (it runs without the runtime)
	 * cannot be cancelled in MPICH's ch4:ucx, and MPI_Finalize then waits
	 * for it for ever.  The offer tells a recording rank that rank 0 took
	 * its hello; a hello nobody takes is dropped by MPI at the end.
	 */
	if (rt_pmpi.Isend(hello, 2, MPI_INT, 0, RT_TAG_HELLO, MPI_COMM_WORLD, &req) != MPI_SUCCESS)
		return recording ? alone(j) : 1;
	while (!done) {
		if (rt_pmpi.Test(&req, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS)
			break;
		if (!done && now_s() > deadline)
			break;
		if (!done)
			poll_pause(&spins);
	}
	if (!done && !take_back(&req))
		return recording ? alone(j) : 1;
	if (!recording)
		return 1;
	if (take_from_0(RT_TAG_OFFER, offer, 2, deadline) < 0)
		return alone(j);
	/* Committed: the list follows the others' offers. */
	len = take_from_0(RT_TAG_LIST, list, list_max, now_s() + 4 * wait_s());
	if (len < 0 || decode_list(j, list, len, rt.nprocs) || make_comm(j))
		return alone(j);
	return 0;
}

int rt_mpijoin(struct rt_mpijoin *j, int recording)
{
	int n = rt.nprocs, list_max = 3 + 2 * n, *list, rc, nomem = 0, list_abandoned = 0;

	memset(j, 0, sizeof(*j));
	j->comm = MPI_COMM_NULL;
	/* Everything this rank needs is there before it says it records. */
	list = recording || rt.rank == 0 ? malloc((size_t)list_max * sizeof(*list)) : NULL;
	j->world = recording ? malloc((size_t)n * sizeof(*j->world)) : NULL;
	if (recording && (!list || !j->world)) {
		/* It says it does not record, and keeps the others from waiting. */
		free(j->world);
		j->world = NULL;
		recording = 0;
		nomem = 1;
	}
	if (n == 1)
		rc = recording ? alone(j) : 1;
	else if (rt.rank == 0)
		rc = coordinate(j, recording, list, &list_abandoned);
	else
		rc = ask(j, recording, list, list_max);
	/* A list MPI may still send is left to it (only after a stall of minutes). */
	if (!list_abandoned)
		free(list);
	if (rc) {
		free(j->world);
		j->world = NULL;
	}
	return nomem ? -ENOMEM : rc;
}

void rt_mpijoin_release(struct rt_mpijoin *j)
{
	if (j->made_comm)
		rt_pmpi.Comm_free(&j->comm);
	free(j->world);
	memset(j, 0, sizeof(*j));
	j->comm = MPI_COMM_NULL;
}

const char *rt_mpijoin_ranks(const struct rt_mpijoin *j, char *out, size_t len)
{
	size_t used = 0;
	int i = 0, k, w;

	out[0] = '\0';
	while (i < j->size) {
		for (k = i; k + 1 < j->size && j->world[k + 1] == j->world[k] + 1; k++)
			;
		w = k > i ? snprintf(out + used, len - used, "%s%d-%d", used ? "," : "",
				     j->world[i], j->world[k])
			  : snprintf(out + used, len - used, "%s%d", used ? "," : "", j->world[i]);
		if (w < 0 || (size_t)w >= len - used) {
			if (len >= 4)
				memcpy(out + (used + 4 <= len ? used : len - 4), "...", 4);
			break;
		}
		used += (size_t)w;
		i = k + 1;
	}
	return out;
}
