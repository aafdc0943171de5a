/*
 * rt_mpijoin — at MPI_Finalize, the ranks that record find each other
 * without a collective on MPI_COMM_WORLD, which ranks without the runtime
 * (an excluded executable, IOATLAS_DISABLE, a budget that could not be
 * mapped, a program launched without the preload) would never join.
 *
 * Rank 0 coordinates, recording or not: the others say hello to it with
 * point-to-point messages on a private tag, it offers each recording rank
 * a place, and sends the list of ranks that took theirs.  Every wait is
 * bounded, so a rank that is missing costs time, never a hang; the ranks
 * in the list then share a communicator (MPI_COMM_WORLD itself when all
 * are there, or one made with MPI_Comm_create_group, collective over them
 * only), and its rank 0, the lowest recording rank, writes the job's log.
 * A recording rank that cannot join writes a log of its own.
 */
#ifndef RT_MPIJOIN_H
#define RT_MPIJOIN_H

#include <stddef.h>

#include "rt_mpi_abi.h" /* mpi.h, and the part's names in this MPI family */

#define rt_mpijoin	   RT_MPI_SYM(mpijoin)
#define rt_mpijoin_release RT_MPI_SYM(mpijoin_release)
#define rt_mpijoin_ranks   RT_MPI_SYM(mpijoin_ranks)

/* The ranks that write one log together. */
struct rt_mpijoin {
	MPI_Comm comm; /* MPI_COMM_WORLD, MPI_COMM_SELF or a communicator of its own */
	int rank;      /* this rank's rank in comm */
	int size;      /* comm's size */
	int *world;    /* malloc'ed: the MPI_COMM_WORLD rank of each rank of comm */
	int made_comm; /* comm was created here and is freed by rt_mpijoin_release */
};

/*
 * On every rank whose runtime found MPI at MPI_Init, recording or not,
 * with MPI_ERRORS_RETURN in force on MPI_COMM_WORLD.  Returns 0 with j
 * filled when this rank records (alone in MPI_COMM_SELF when it could not
 * join), 1 when it does not record (j is empty), or a negative errno when
 * it records but has no memory for j.  Takes up to a few multiples of the
 * finalize_wait setting when ranks are missing: rank 0 waits that long for
 * the others' hellos, they wait four times as long for it.  Only ranks
 * that never answer (no runtime loaded) or arrive later than that make
 * anyone wait this long.  Not thread-safe.
 */
int rt_mpijoin(struct rt_mpijoin *j, int recording);

/* Frees what rt_mpijoin made (its communicator, the rank list). */
void rt_mpijoin_release(struct rt_mpijoin *j);

/*
 * The world ranks of j as text, ranges compressed ("0-2,5"), in out;
 * cut (ending in "...") when out is too small.  Returns out.
 */
const char *rt_mpijoin_ranks(const struct rt_mpijoin *j, char *out, size_t len);

#endif
