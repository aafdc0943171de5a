/*
 * hdf5-async — HDF5 1.14's asynchronous API, as a program written for an
 * asynchronous connector calls it: every file and dataset call through
 * its _async form into one event set, waited for at the end.  With HDF5's
 * own connector each call runs before it returns.
 *
 *	hdf5-async FILE N
 *
 * Creates FILE with a dataset "a" of N ints, writes it in 4 quarters,
 * flushes, closes, opens it again (H5Fopen_async, H5Dopen_async and
 * H5Oopen_async), reads it back whole through each identifier and checks
 * it.  Prints what it did: "writes W bytes B reads R bytes B".  Needs
 * HDF5 1.13 or newer.
 */
#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>

#define QUARTERS 4

static int fail(const char *what)
{
	fprintf(stderr, "hdf5-async: %s failed\n", what);
	return 1;
}

int main(int argc, char **argv)
{
	hsize_t n, dims[1], start[1], count[1];
	hid_t es, file, space, mspace, dset, obj;
	size_t in_progress;
	hbool_t failed;
	int *buf, *back, q;
	long long i, writes = 0, reads = 0, wbytes = 0, rbytes = 0;

	if (argc != 3 || (n = strtoull(argv[2], NULL, 10)) < QUARTERS || n % QUARTERS)
		return fprintf(stderr, "usage: hdf5-async FILE N (N a multiple of 4)\n"), 2;
	buf = malloc(n * sizeof(*buf));
	back = malloc(n * sizeof(*back));
	if (!buf || !back)
		return fail("malloc");
	for (i = 0; i < (long long)n; i++)
		buf[i] = (int)(i * 7 + 1);
	if ((es = H5EScreate()) < 0)
		return fail("H5EScreate");

	dims[0] = n;
	count[0] = n / QUARTERS;
	if ((file = H5Fcreate_async(argv[1], H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT, es)) < 0 ||
	    (space = H5Screate_simple(1, dims, NULL)) < 0 ||
	    (mspace = H5Screate_simple(1, count, NULL)) < 0 ||
	    (dset = H5Dcreate_async(file, "a", H5T_NATIVE_INT, space, H5P_DEFAULT, H5P_DEFAULT,
				    H5P_DEFAULT, es)) < 0)
		return fail("create");
	for (q = 0; q < QUARTERS; q++) {
		start[0] = (hsize_t)q * count[0];
		if (H5Sselect_hyperslab(space, H5S_SELECT_SET, start, NULL, count, NULL) < 0 ||
		    H5Dwrite_async(dset, H5T_NATIVE_INT, mspace, space, H5P_DEFAULT, buf + start[0],
				   es) < 0)
			return fail("H5Dwrite_async");
		writes++;
		wbytes += (long long)(count[0] * sizeof(int));
	}
	if (H5Fflush_async(file, H5F_SCOPE_LOCAL, es) < 0 || H5Dclose_async(dset, es) < 0 ||
	    H5Fclose_async(file, es) < 0)
		return fail("flush and close");

	if ((file = H5Fopen_async(argv[1], H5F_ACC_RDONLY, H5P_DEFAULT, es)) < 0 ||
	    (dset = H5Dopen_async(file, "a", H5P_DEFAULT, es)) < 0 ||
	    (obj = H5Oopen_async(file, "a", H5P_DEFAULT, es)) < 0)
		return fail("open");
	if (H5Dread_async(dset, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, back, es) < 0 ||
	    H5Dread_async(obj, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, back, es) < 0)
		return fail("H5Dread_async");
	reads += 2;
	rbytes += 2 * (long long)(n * sizeof(int));
	if (H5Dclose_async(dset, es) < 0 || H5Oclose_async(obj, es) < 0 ||
	    H5Fclose_async(file, es) < 0)
		return fail("close");
	if (H5ESwait(es, H5ES_WAIT_FOREVER, &in_progress, &failed) < 0 || failed)
		return fail("H5ESwait");
	for (i = 0; i < (long long)n; i++)
		if (back[i] != buf[i])
			return fail("read back");
	H5Sclose(mspace);
	H5Sclose(space);
	H5ESclose(es);
	printf("writes %lld bytes %lld reads %lld bytes %lld\n", writes, wbytes, reads, rbytes);
	free(buf);
	free(back);
	return 0;
}
