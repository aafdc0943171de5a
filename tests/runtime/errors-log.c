/*
 * errors-log — writes a one-rank log whose errors region holds failures of
 * every kind a reader must name (docs/log-format.md#errors): an errno of a
 * POSIX call, an MPI-IO class as the runtime codes it, a class its table
 * does not list, and a class as logs written before the codes hold it (the
 * MPI library's own number: MPICH's MPI_ERR_NO_SUCH_FILE, 37, also ENOLCK's
 * number).  Each on a file of its own, named after what it holds.
 *
 *	errors-log OUT
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ioa_errname.h"
#include "ioa_logfmt.h"
#include "ioa_logw.h"

static const struct {
	const char *file, *op;
	uint16_t module;
	uint32_t err;
} failures[] = {
	{"/work/posix-enoent", "open", IOA_MOD_POSIX, ENOENT},
	{"/work/mpi-coded", "File_open", IOA_MOD_MPIIO, IOA_ERR_MPI + IOA_MPI_ERR_NO_SUCH_FILE},
	{"/work/mpi-unlisted", "File_write", IOA_MOD_MPIIO,
	 IOA_ERR_MPI + IOA_ERR_MPI_UNLISTED + 99},
	{"/work/mpi-before-codes", "File_open", IOA_MOD_MPIIO, 37},
};
#define NFAILURES (sizeof(failures) / sizeof(failures[0]))

static int entry(struct ioa_buf *b, uint16_t key, const char *value)
{
	int rc = ioa_enc_u16(b, key);

	return rc ? rc : ioa_enc_bytes(b, value, strlen(value));
}

int main(int argc, char **argv)
{
	struct ioa_log_writer w;
	struct ioa_buf b = IOA_BUF_INIT(1 << 20);
	char uid[32];
	size_t i;
	int rc;

	if (argc != 2) {
		fprintf(stderr, "usage: errors-log OUT\n");
		return 2;
	}
	ioa_logw_init(&w, 1 << 20);
	snprintf(uid, sizeof(uid), "%u", (unsigned)getuid());
	rc = entry(&b, IOA_JOB_UID, uid);
	rc = rc ? rc : entry(&b, IOA_JOB_USER, "test");
	rc = rc ? rc : entry(&b, IOA_JOB_JOBID, "errors-log");
	rc = rc ? rc : entry(&b, IOA_JOB_START_NS, "1700000000000000000");
	rc = rc ? rc : entry(&b, IOA_JOB_END_NS, "1700000060000000000");
	rc = rc ? rc : entry(&b, IOA_JOB_NPROCS, "1");
	rc = rc ? rc : entry(&b, IOA_JOB_NNODES, "1");
	rc = rc ? rc : entry(&b, IOA_JOB_EXE, "/work/app");
	rc = rc ? rc : entry(&b, IOA_JOB_VERSION, "test");
	rc = rc ? rc : ioa_logw_add(&w, IOA_REGION_JOB, b.data, b.len);
	ioa_buf_reset(&b);
	rc = rc ? rc : ioa_enc_u32(&b, NFAILURES);
	for (i = 0; i < NFAILURES && !rc; i++) {
		rc = ioa_enc_u64(&b, i + 1);
		rc = rc ? rc : ioa_enc_bytes(&b, failures[i].file, strlen(failures[i].file));
	}
	rc = rc ? rc : ioa_logw_add(&w, IOA_REGION_NAMES, b.data, b.len);
	ioa_buf_reset(&b);
	rc = rc ? rc : ioa_enc_u32(&b, NFAILURES);
	for (i = 0; i < NFAILURES && !rc; i++) {
		rc = ioa_enc_u64(&b, i + 1);
		rc = rc ? rc : ioa_enc_u32(&b, 0);
		rc = rc ? rc : ioa_enc_u16(&b, failures[i].module);
		rc = rc ? rc : ioa_enc_bytes(&b, failures[i].op, strlen(failures[i].op));
		rc = rc ? rc : ioa_enc_u32(&b, failures[i].err);
		rc = rc ? rc : ioa_enc_u64(&b, 1);
	}
	rc = rc ? rc : ioa_logw_add(&w, IOA_REGION_ERRORS, b.data, b.len);
	rc = rc ? rc : ioa_logw_write_file(&w, argv[1], 0600, 0);
	ioa_buf_release(&b);
	ioa_logw_release(&w);
	if (rc) {
		fprintf(stderr, "errors-log: cannot write '%s': error %d\n", argv[1], rc);
		return 1;
	}
	return 0;
}
