/*
 * hdf5-harm — an HDF5 program that leans on what the runtime's HDF5 layer
 * must not disturb, printing what it sees so that a run under the runtime
 * can be compared with a run without:
 *   - its own error handler set with the v1 API (H5Eset_auto1), which
 *     must never be called for the runtime's questions, and its error
 *     stack after a failed call (the probe of a dataset that is not
 *     there, printed with H5Eprint2);
 *   - errno across HDF5 calls that succeed;
 *   - a dataset opened at a group and read with H5S_ALL;
 *   - a fork after the file is open: the child opens, writes and closes a
 *     dataset of its own file, the parent goes on with its identifiers.
 *
 *	hdf5-harm DIR
 *
 * Prints one line per step; exits non-zero when an HDF5 call fails that
 * should not.
 */
#include <errno.h>
#include <hdf5.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int handler_calls;

static herr_t handler(void *data)
{
	(void)data;
	handler_calls++;
	return 0;
}

static int child(const char *dir)
{
	char path[4096];
	hsize_t n = 8;
	int v[8] = {0};
	hid_t f, s, d;

	snprintf(path, sizeof(path), "%s/child.h5", dir);
	f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
	s = H5Screate_simple(1, &n, NULL);
	d = H5Dcreate2(f, "c", H5T_NATIVE_INT, s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
	if (d < 0 || H5Dwrite(d, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) < 0 ||
	    H5Dclose(d) < 0 || H5Sclose(s) < 0 || H5Fclose(f) < 0)
		return 1;
	return 0;
}

int main(int argc, char **argv)
{
	char path[4096];
	hsize_t dims[2] = {4, 6};
	int data[4][6], back[4][6], i, j, status;
	hid_t f, g, s, d, missing;
	pid_t pid;

	if (argc != 2)
		return 2;
	for (i = 0; i < 4; i++)
		for (j = 0; j < 6; j++)
			data[i][j] = i * 6 + j;
	H5Eset_auto1(handler, NULL);
	snprintf(path, sizeof(path), "%s/harm.h5", argv[1]);
	f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
	g = H5Gcreate2(f, "g", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
	s = H5Screate_simple(2, dims, NULL);
	d = H5Dcreate2(g, "d", H5T_NATIVE_INT, s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
	if (f < 0 || g < 0 || s < 0 || d < 0)
		return 1;
	errno = 4242;
	if (H5Dwrite(d, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0)
		return 1;
	printf("errno after a write: %d\n", errno);
	pid = fork();
	if (pid == 0)
		_exit(child(argv[1]));
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return 1;
	printf("child: %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	if (H5Dread(d, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, back) < 0)
		return 1;
	printf("read back: %s\n", memcmp(data, back, sizeof(data)) ? "differs" : "same");
	missing = H5Dopen2(g, "nope", H5P_DEFAULT);
	printf("open of a missing dataset: %s\n", missing < 0 ? "failed" : "opened");
	printf("its error stack:\n");
	fflush(stdout);
	H5Eprint2(H5E_DEFAULT, stdout);
	fflush(stdout);
	printf("handler calls: %d\n", handler_calls);
	if (H5Dclose(d) < 0 || H5Sclose(s) < 0 || H5Gclose(g) < 0 || H5Fclose(f) < 0)
		return 1;
	printf("handler calls at the end: %d\n", handler_calls);
	return 0;
}
