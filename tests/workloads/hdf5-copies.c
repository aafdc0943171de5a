/*
 * hdf5-copies — a program with two copies of HDF5 in it, as a Python
 * process importing two wheels that each bundle libhdf5 has: it loads two
 * modules with dlopen(RTLD_LOCAL), each built from this file with
 * -DMODULE against a copy of libhdf5 of its own (renamed as auditwheel
 * renames them), and has each write a file.  A call a module makes must
 * reach its own copy: identifiers of one copy mean nothing to the other.
 *
 *	hdf5-copies MODULE_A MODULE_B DIR    the program
 *	cc -DMODULE -shared ... hdf5-copies.c  a module: module_write(path)
 *
 * Prints one line per write: the module, the file, 0 or the step that
 * failed.
 */
#ifdef MODULE
#include <hdf5.h>

int module_write(const char *path);

int module_write(const char *path)
{
	hsize_t n = 16;
	int v[16] = {0};
	hid_t f, s, d;

	if ((f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT)) < 0)
		return 1;
	if ((s = H5Screate_simple(1, &n, NULL)) < 0)
		return 2;
	if ((d = H5Dcreate2(f, "v", H5T_NATIVE_INT, s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)) < 0)
		return 3;
	if (H5Dwrite(d, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) < 0)
		return 4;
	if (H5Dclose(d) < 0 || H5Sclose(s) < 0)
		return 5;
	return H5Fclose(f) < 0 ? 6 : 0;
}
#else
#include <dlfcn.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	const char *order[] = {"a", "b", "a"};
	void *mod[2];
	int (*write_with[2])(const char *);
	char path[4096];
	int i, k;

	if (argc != 4)
		return 2;
	for (k = 0; k < 2; k++) {
		void *sym;

		if (!(mod[k] = dlopen(argv[1 + k], RTLD_NOW | RTLD_LOCAL)) ||
		    !(sym = dlsym(mod[k], "module_write"))) {
			fprintf(stderr, "hdf5-copies: %s\n", dlerror());
			return 1;
		}
		*(void **)&write_with[k] = sym;
	}
	for (i = 0; i < 3; i++) {
		k = order[i][0] - 'a';
		snprintf(path, sizeof(path), "%s/%s%d.h5", argv[3], order[i], i);
		printf("module %s, %s%d.h5: %d\n", order[i], order[i], i, write_with[k](path));
	}
	return 0;
}
#endif
