/*
 * acme-mpi — an MPI library the runtime does not know, and a program that
 * uses it, for t1012: built as the library (cc -shared -o libacme-mpi.so)
 * it answers MPI_Get_library_version with "Acme MPI 1.0" and prints each
 * call it gets; built with -DACME_PROGRAM and linked to it, the program
 * calls MPI_Init, MPI_Barrier (on communicator 7), MPI_File_open and
 * MPI_Finalize.  Under the runtime every call must reach the library as
 * it was made: the output is the same with and without the preload.
 */
#include <stdio.h>
#include <string.h>

#if defined(ACME_PROBE)
#include <dlfcn.h>

/*
 * Built with -DACME_PROBE: a program that finds MPI_Finalize before any MPI
 * is loaded (as programs probing for MPI do), calls it, then loads the
 * library named by its argument and calls it again: under the runtime the
 * first call fails and the second reaches the library.
 */
int main(int argc, char **argv)
{
	int (*fin)(void);
	void *sym = dlsym(RTLD_DEFAULT, "MPI_Finalize");

	memcpy(&fin, &sym, sizeof(sym));
	if (!sym || argc != 2) {
		printf("probe: no MPI_Finalize before MPI\n");
		return 0;
	}
	printf("probe: before MPI, %s\n", fin() ? "failed" : "succeeded");
	if (!dlopen(argv[1], RTLD_NOW | RTLD_GLOBAL))
		return 1;
	printf("probe: with MPI, returned %d\n", fin());
	return 0;
}
#elif defined(ACME_PROGRAM)
int MPI_Init(int *argc, char ***argv);
int MPI_Barrier(int comm);
int MPI_File_open(int comm, const char *path, int amode, int info, void **fh);
int MPI_Finalize(void);

int main(int argc, char **argv)
{
	void *fh = NULL;
	int r = MPI_Init(&argc, &argv);

	r += MPI_Barrier(7);
	r += MPI_File_open(7, "acme.dat", 3, 5, &fh);
	r += MPI_Finalize();
	printf("program: results %d, handle %s\n", r, fh == (void *)&fh ? "set" : "unset");
	return r == 4 ? 0 : 1;
}
#else
int PMPI_Get_library_version(char *version, int *len)
{
	snprintf(version, 64, "Acme MPI 1.0\nbuilt yesterday");
	*len = (int)strlen(version);
	return 0;
}

int MPI_Get_library_version(char *version, int *len)
{
	return PMPI_Get_library_version(version, len);
}

int MPI_Init(int *argc, char ***argv)
{
	printf("acme: init with %d arguments\n", *argc);
	(void)argv;
	return 1;
}

int MPI_Barrier(int comm)
{
	printf("acme: barrier on %d\n", comm);
	return 1;
}

int MPI_File_open(int comm, const char *path, int amode, int info, void **fh)
{
	printf("acme: open '%s' on %d, amode %d, info %d\n", path, comm, amode, info);
	*fh = fh;
	return 1;
}

int MPI_Finalize(void)
{
	printf("acme: finalize\n");
	return 1;
}
#endif
