/*
 * rt_libs — which I/O libraries the program used.  HDF5, NetCDF, PnetCDF
 * and ADIOS users write to those libraries, never to the MPI-IO and POSIX
 * calls the runtime sees underneath; the analyses phrase their advice for
 * the library the user controls (docs/analyses.md), and need to know it.
 *
 * At shutdown, once, the log writer looks at what the process has loaded
 * (dl_iterate_phdr: shared libraries, those dlopen()ed by Python's h5py
 * included) and at the symbols the executable itself defines (its .symtab,
 * else its .dynsym: a library linked statically, as ADIOS 1 always is).
 * Nothing is looked at while the program runs; a program without these
 * libraries pays one walk over its loaded objects at its end.  The same
 * walk gives the program's build id, which tells its builds apart across
 * jobs (the warehouse's applications).
 */
#ifndef RT_LIBS_H
#define RT_LIBS_H

#include <stddef.h>

/*
 * Writes the I/O libraries found into buf as the job key io_libraries
 * holds them (ioa_format_io_libraries(); len bytes, NUL-terminated, empty
 * when none).  Keeps errno.
 */
void rt_io_libraries(char *buf, size_t len);

/*
 * Writes the program's build id (its GNU build-id note, as the linker put
 * it in the executable's mapped notes) into buf as lowercase hex, the job
 * key build_id (len bytes, NUL-terminated, empty when the program has
 * none).  Reads only what is mapped; keeps errno.
 */
void rt_build_id(char *buf, size_t len);

/*
 * Why the runtime must stand down when another I/O profiler that
 * interposes the same calls (Darshan, Recorder) is loaded in the process,
 * in whichever order the two were preloaded; NULL when none is.  The
 * modulefiles refuse to load beside those profilers' modules; this holds
 * the other way round too (their module loaded after ioatlas, or a
 * preload by hand).  One walk over the loaded objects, at start-up; keeps
 * errno.
 */
const char *rt_other_profiler(void);

#endif
