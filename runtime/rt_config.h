/*
 * rt_config — the runtime's settings, read once at start-up.
 *
 * Sources, later ones winning: built-in defaults, the site file
 * (/etc/ioatlas/ioatlas.conf, or $IOATLAS_CONF; read only when it is a
 * regular file of at most 1 MiB, never waited for), then IOATLAS_* environment
 * variables.  The file holds "key = value" lines ('#' starts a comment);
 * each key's variable is IOATLAS_<KEY in upper case>.  A value that does not
 * parse keeps the previous one and is reported once on stderr when
 * IOATLAS_DEBUG is set, silently ignored otherwise: settings never stop the
 * application.  The table RT_SETTINGS below lists every key once; the
 * documentation (docs/runtime.md) follows it.
 *
 * Storage is fixed-size inside the struct: reading settings allocates
 * nothing.  Not thread-safe: read once before the runtime turns on.
 */
#ifndef RT_CONFIG_H
#define RT_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RT_CONFIG_PATH_MAX 1024

/* RT_DEFAULT_LOGDIR, the site's log tree, comes from the build (CMake IOATLAS_LOGDIR). */
#define RT_CONFIG_LIST_MAX 32

/*
 * A colon-separated list of path prefixes or names.  A path entry names a
 * folder or file and everything below it; '*' (any characters but '/')
 * and '?' (one such character) may stand in its names, so that
 * "/dev/shm/mpich_shar_tmp*" is MPICH's segments and nothing else of
 * /dev/shm.  A leading "$TMPDIR" is the temporary folder as MPI libraries
 * find it ($TMPDIR, $TEMP, $TMP, else /tmp), replaced when the list is
 * read.  Duplicates and trailing slashes are dropped.
 */
struct rt_list {
	unsigned count;
	unsigned short lengths[RT_CONFIG_LIST_MAX]; /* checked on every path: kept, not counted */
	unsigned short literal[RT_CONFIG_LIST_MAX]; /* the leading folders without a wildcard */
	char items[RT_CONFIG_LIST_MAX][256];
};

/*
 * Paths never recorded by default: Darshan 3.5's exclusions (/etc /dev
 * /usr /bin /boot /lib /opt /sbin /sys /proc /var), the other system
 * folders (/lib32 /lib64 /libx32 /run), and the files MPI libraries and
 * their helpers keep for themselves: shared-memory segments in /dev/shm
 * (MPICH, Open MPI's vader and sm transports and its probe, UCX, PSM2)
 * and Open MPI's and PRRTE's session folders in the temporary folder.
 */
#define RT_DEFAULT_EXCLUDE_PATHS                                                           \
	"/proc:/sys:/dev:/etc:/usr:/bin:/sbin:/lib:/lib32:/lib64:/libx32:/boot:/opt:/var:" \
	"/run:/dev/shm/mpich_shar_tmp*:/dev/shm/vader_segment.*:/dev/shm/sm_segment.*:"    \
	"/dev/shm/open_mpi.*:/dev/shm/ucx_shm_posix_*:/dev/shm/psm2_shm.*:/tmp/ompi.*:"    \
	"/tmp/prte.*:$TMPDIR/ompi.*:$TMPDIR/prte.*"

/* Recorded even so: a user's own /dev/shm files, Cray DataWarp mounts (as Darshan). */
#define RT_DEFAULT_INCLUDE_PATHS "/dev/shm:/var/opt/cray/dws/mounts"

/* X(key, type, field, default, description) */
#define RT_SETTINGS(X)                                                                          \
	X(disable, BOOL, disable, "0", "turn the runtime off for this process")                 \
	X(logdir, PATH, logdir, RT_DEFAULT_LOGDIR, "root of the log tree (LOGDIR/YYYY/MM/DD/)") \
	X(log_group, NAME, log_group, "", "group given to new logs (empty: the user's group)")  \
	X(memory, SIZE, memory_bytes, "6MiB", "memory budget per process")                      \
	X(trace, SIZE0, trace_bytes, "2MiB",                                                    \
	  "part of the memory budget for the operation trace (0: no trace)")                    \
	X(nonmpi, BOOL, nonmpi, "0", "write logs for programs that never call MPI_Init")        \
	X(nonmpi_exes, LIST, nonmpi_exes, "",                                                   \
	  "executables (names or path prefixes) logged without MPI")                            \
	X(exclude_exes, LIST, exclude_exes, "",                                                 \
	  "executables (names or path prefixes) never instrumented")                            \
	X(exclude_paths, LIST, exclude_paths, RT_DEFAULT_EXCLUDE_PATHS,                         \
	  "paths not recorded (system files, MPI's own segments and session folders)")          \
	X(include_paths, LIST, include_paths, RT_DEFAULT_INCLUDE_PATHS,                         \
	  "paths recorded even inside excluded ones")                                           \
	X(gather_cap, SIZE, gather_cap_bytes, "64MiB",                                          \
	  "MPI logs larger than this are written collectively, not gathered on rank 0")         \
	X(finalize_wait, SECONDS, finalize_wait_s, "30",                                        \
	  "seconds MPI_Finalize waits for ranks without the runtime (1 to 3600)")               \
	X(record_args, BOOL, record_args, "1", "record the command-line arguments in the log")  \
	X(spill, BOOL, spill, "1",                                                              \
	  "keep the record in a file of the log tree while the job runs (ioatlas recover)")     \
	X(debug, BOOL, debug, "0", "report bad settings and runtime failures on stderr")

struct rt_config {
	bool disable;
	char logdir[RT_CONFIG_PATH_MAX];
	char log_group[64];
	uint64_t memory_bytes;
	uint64_t trace_bytes;
	bool nonmpi;
	struct rt_list nonmpi_exes;
	struct rt_list exclude_exes;
	struct rt_list exclude_paths;
	struct rt_list include_paths;
	uint64_t gather_cap_bytes;
	int finalize_wait_s;
	bool record_args;
	bool spill;
	bool debug;
	unsigned rejected; /* settings that did not parse */
};

/* Fills c from defaults, the site file and the environment. */
void rt_config_load(struct rt_config *c);

/* Renders the settings in force as "key=value\n" lines (for the log). */
size_t rt_config_describe(const struct rt_config *c, char *out, size_t out_len);

/*
 * True when path (absolute, clean) is to be recorded under the path lists:
 * the entry that matches the longest leading part of it decides, an
 * include_paths entry winning a tie.
 */
bool rt_config_path_recorded(const struct rt_config *c, const char *path);

/* True when exe (absolute path) matches an entry of list (name or prefix). */
bool rt_config_exe_listed(const struct rt_list *list, const char *exe);

#endif
