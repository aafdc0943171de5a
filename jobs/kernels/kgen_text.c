/*
 * kgen_text — the text every kernel carries: its headers, the helpers
 * its calls use (and HDF5's), its main().
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ioa_counters.h"
#include "ioa_logfmt.h"
#include "ioa_logr.h"
#include "kgen_int.h"

/* The headers every kernel kgen_includes. */
const char kgen_includes[] =
	"#define _GNU_SOURCE\n"
	"#include <errno.h>\n#include <fcntl.h>\n#include <mpi.h>\n#include <stdint.h>\n"
	"#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n#include <sys/mman.h>\n"
	"#include <sys/stat.h>\n"
	"#include <time.h>\n#include <unistd.h>\n\n";

/*
 * The helpers every kernel carries (in pieces: C compilers bound a literal's
 * length); inline, so that those a kernel does not call cost no warning.
 */
const char *const kgen_prologue[] = {
	"static const char *data_dir = \".\";\n"
	"static double compute_scale = 1;\n"
	"static double bytes_scale = 1; /* --bytes-scale */\n"
	"static int mode; /* 0 causal, 1 think-limited, 2 as fast as possible */\n"
	"static int fds[NFILES];\nstatic FILE *fps[NFILES];\n"
	"static char fd_of_fp[NFILES]; /* fds[f] is fps[f]'s descriptor (k_fileno) */\nstatic "
	"MPI_File fhs[NFILES];\n"
	"static int64_t unit[NFILES]; /* an MPI-IO file's etype size, under its view */\n"
	"static void *buf;\nstatic size_t buf_len;\nstatic int rank, size;\n\n"
	"/*\n * The transfer buffer, filled as a program fills its data before writing it:\n"
	" * its pages are there (a write from untouched memory faults a page in at a\n"
	" * time: NWChem's 16 MB write took 3 times its time), and not zeros (which\n"
	" * some storage keeps as holes or compresses).  Made before the run, for\n"
	" * the longest transfer (max_transfer), as the program had its data.\n */\n"
	"static void *kbuf(int64_t n)\n{\n"
	"\tif (n > (int64_t)buf_len) {\n\t\tfree(buf);\n\t\tbuf = NULL;\n\t\tbuf_len = (size_t)n;\n"
	"\t\t/*\n\t\t * In huge pages where it is large: the job paid its buffers' page faults\n"
	"\t\t * in the compute the kernel replays (16 MiB of small pages: 50 ms here).\n"
	"\t\t */\n"
	"\t\tif (buf_len >= (2u << 20) && posix_memalign(&buf, 2u << 20, buf_len))\n"
	"\t\t\tbuf = NULL;\n"
	"#ifdef MADV_HUGEPAGE\n"
	"\t\tif (buf)\n\t\t\tmadvise(buf, buf_len, MADV_HUGEPAGE);\n"
	"#endif\n"
	"\t\tif (!buf && !(buf = malloc(buf_len)))\n\t\t\tMPI_Abort(MPI_COMM_WORLD, 1);\n"
	"\t\tmemset(buf, 'k', buf_len);\n\t}\n"
	"\treturn buf;\n}\n\n"
	"/* --bytes-scale X: a length, offset or size times X (a transfer stays a byte at least). "
	"*/\n"
	"static inline int64_t ks(int64_t v)\n{\n"
	"\tint64_t s = (int64_t)((double)v * bytes_scale);\n\n"
	"\treturn bytes_scale == 1 || v <= 0 ? v : s > 0 ? s : 1;\n}\n\n"
	"/*\n * What-if (ioatlas kernel what-if): --hint pairs added to every MPI_File_open,\n"
	" * POSIX transfers of --transfer-size bytes at most, explicit offsets rounded up\n"
	" * to --align bytes.\n */\n"
	"static char whatif_hints[4096];\nstatic int64_t transfer_max, align_to;\n\n"
	"static inline int64_t ka(int64_t o)\n{\n"
	"\treturn align_to > 1 && o > 0 ? (o + align_to - 1) / align_to * align_to : o;\n}\n\n"
	"/* A POSIX read or write of n bytes (at o; o < 0: at the file offset), in pieces. */\n"
	"static void k_xfer(int fd, int64_t n, int64_t o, int out)\n{\n\tint64_t done = 0;\n\n"
	"\tdo {\n"
	"\t\tint64_t c = transfer_max > 0 && n - done > transfer_max ? transfer_max : n - done;\n"
	"\t\tvoid *b = kbuf(c);\n"
	"\t\tssize_t r = o < 0 ? (out ? write(fd, b, (size_t)c) : read(fd, b, (size_t)c))\n"
	"\t\t\t    : out   ? pwrite(fd, b, (size_t)c, (off_t)(o + done))\n"
	"\t\t\t\t    : pread(fd, b, (size_t)c, (off_t)(o + done));\n\n"
	"\t\tif (r <= 0)\n\t\t\treturn;\n\t\tdone += c;\n\t} while (done < n);\n}\n\n"
	"/* Compute: spinning, so that a faster machine does not shorten it. */\n"
	"static inline void k_gap(double s)\n{\n\tstruct timespec t0, t;\n\n"
	"\tif (mode == 2)\n\t\treturn;\n\tclock_gettime(CLOCK_MONOTONIC, &t0);\n"
	"\tdo\n\t\tclock_gettime(CLOCK_MONOTONIC, &t);\n"
	"\twhile ((double)(t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) * 1e-9 < s * "
	"compute_scale);\n}\n\n"
	"/* The gap before a call's next execution when its gaps changed in order: the table of\n"
	" * its runs of executions (each ending at end[]) and their gaps, walked as it comes. */\n"
	"static inline double k_order(const double *gap, const uint64_t *end, unsigned n,\n"
	"\t\t\t     uint64_t *x, unsigned *s)\n{\n"
	"\tuint64_t i = (*x)++ % end[n - 1];\n\n"
	"\tif (i == 0)\n\t\t*s = 0;\n"
	"\twhile (*s + 1 < n && i >= end[*s])\n\t\t++*s;\n"
	"\treturn gap[*s];\n}\n\n"
	"static const char *path(int f)\n{\n\tstatic char p[4096];\n\n"
	"\tif (f < 0 || f >= NFILES)\n\t\treturn \"/nonexistent\";\n"
	"\tsnprintf(p, sizeof(p), \"%s/%s\", data_dir, names[f]);\n\treturn p;\n}\n\n"
	"/* create: 0 an existing file, 1 created if need be, 2 created empty; | K_APPEND, "
	"K_TRUNC */\n"
	"#define K_APPEND 4\n"
	"#define K_TRUNC 8\n"
	"static inline void k_open(int f, int create)\n{\n"
	"\tint flags = (create & 3) == 2 ? O_WRONLY | O_CREAT | O_TRUNC\n"
	"\t\t    : (create & 3)    ? O_RDWR | O_CREAT\n"
	"\t\t\t\t      : O_RDWR;\n\n"
	"\tif (create & K_APPEND)\n\t\tflags |= O_APPEND;\n"
	"\tif (create & K_TRUNC)\n\t\tflags |= O_TRUNC;\n"
	"\tif (f < 0 || f >= NFILES)\n\t\treturn;\n",
	"\tif (fds[f] > 0)\n\t\tclose(fds[f]);\n"
	"\tfds[f] = open(path(f), flags, 0644);\n"
	"\tif (fds[f] < 0 && errno == EISDIR)\n\t\tfds[f] = open(path(f), O_RDONLY);\n}\n\n"
	"#define FD(f) ((f) >= 0 && (f) < NFILES ? fds[f] : -1)\n"
	"/*\n * The descriptors the job duplicated a file's with (dup, dup2, dup3, fcntl)\n"
	" * and has not closed: the last one made is the first closed.\n */\n"
	"static int k_dups[64][2], k_ndups;\n"
	"static inline int k_undup(int f)\n{\n\tint i;\n\n"
	"\tfor (i = k_ndups - 1; i >= 0; i--)\n\t\tif (k_dups[i][0] == f) {\n"
	"\t\t\tclose(k_dups[i][1]);\n\t\t\tk_ndups--;\n"
	"\t\t\tmemmove(k_dups[i], k_dups[i + 1], (size_t)(k_ndups - i) * sizeof(k_dups[0]));\n"
	"\t\t\treturn 1;\n\t\t}\n\treturn 0;\n}\n"
	"static inline void k_close(int f)\n{\n\tif (k_undup(f))\n\t\treturn;\n"
	"\tif (FD(f) > 0)\n\t\tclose(fds[f]);\n"
	"\tif (f >= 0 && f < NFILES)\n\t\tfds[f] = -1, fd_of_fp[f] = 0;\n}\n"
	"/* A duplicate of the file's descriptor; a dup that failed fails again, on it. */\n"
	"static inline void k_dup(int f, int ok)\n{\n"
	"\tint fd = FD(f) > 0 && ok && k_ndups < 64 ? dup(fds[f]) : -1;\n\n"
	"\tif (fd >= 0)\n\t\tk_dups[k_ndups][0] = f, k_dups[k_ndups++][1] = fd;\n"
	"\telse if (FD(f) > 0 && !ok)\n\t\tdup2(fds[f], -1);\n}\n"
	"/* fcntl as the job made it: F_SETFL set the file to append or not, else a dup. */\n"
	"static inline void k_fcntl(int f, int ok, int64_t cmd, int64_t append)\n{\n"
	"\tint fl;\n\n\tif (cmd != F_SETFL) {\n\t\tk_dup(f, ok);\n\t\treturn;\n\t}\n"
	"\tif (FD(f) > 0 && (fl = fcntl(fds[f], F_GETFL)) >= 0)\n"
	"\t\tfcntl(fds[f], F_SETFL, append ? fl | O_APPEND : fl & ~O_APPEND);\n}\n"
	"static inline void k_write(int f, int64_t n)\n{\n\tk_xfer(FD(f), ks(n), -1, 1);\n}\n"
	"static inline void k_pwrite(int f, int64_t n, int64_t o)\n{\n"
	"\tk_xfer(FD(f), ks(n), ka(ks(o)), 1);\n}\n"
	"static inline void k_read(int f, int64_t n)\n{\n\tk_xfer(FD(f), ks(n), -1, 0);\n}\n"
	"static inline void k_pread(int f, int64_t n, int64_t o)\n{\n"
	"\tk_xfer(FD(f), ks(n), ka(ks(o)), 0);\n}\n"
	"static inline void k_lseek(int f, int64_t o)\n{\n\tlseek(FD(f), (off_t)ka(ks(o)), "
	"SEEK_SET);\n}\n"
	"static inline void k_fsync(int f, int data)\n{\n\tif (data)\n\t\tfdatasync(FD(f));\n"
	"\telse\n\t\tfsync(FD(f));\n}\n"
	"static inline void k_stat(int f)\n{\n\tstruct stat st;\n\n\tstat(path(f), &st);\n}\n"
	"static inline void k_fstat(int f)\n{\n\tstruct stat st;\n\n\tfstat(FD(f), &st);\n}\n"
	"static inline void k_unlink(int f)\n{\n\tunlink(path(f));\n}\n"
	"static inline void k_remove(int f)\n{\n\tremove(path(f));\n}\n"
	"static inline void k_rmdir(int f)\n{\n\trmdir(path(f));\n}\n"
	"static inline void k_mkdir(int f)\n{\n\tmkdir(path(f), 0755);\n}\n"
	"static inline void k_access(int f)\n{\n\taccess(path(f), F_OK);\n}\n"
	"static inline void k_ftruncate(int f, int64_t n)\n{\n"
	"\tif (ftruncate(FD(f), (off_t)ks(n)))\n\t\treturn;\n}\n",
	"#define FP(f) ((f) >= 0 && (f) < NFILES ? fps[f] : NULL)\n"
	"/*\n * create: 1 made if need be, 0 an existing file only (the job's fopen failed);\n"
	" * how, the job's mode: 1 \"a\" (writes at the end), 2 \"w\" (emptied), 4 \"r\" (there\n"
	" * before, written in place if at all), 0 not known (a log from before 2026-11-30).\n */\n"
	"static inline void k_fopen(int f, int create, int64_t how)\n{\n"
	"\tif (f >= 0 && f < NFILES && !fps[f])\n"
	"\t\tfps[f] = fopen(path(f), !create ? \"r\" : how == 2 ? \"w+\" : how == 4 ? \"r+\" : "
	"\"a+\");\n}\n"
	"/* fclose closes the descriptor fileno gave with the stream. */\n"
	"static inline void k_fclose(int f)\n{\n\tif (!FP(f))\n\t\treturn;\n"
	"\tif (fd_of_fp[f])\n\t\tfds[f] = -1, fd_of_fp[f] = 0;\n"
	"\tfclose(fps[f]);\n\tfps[f] = NULL;\n}\n"
	"/* The job's standard streams are the kernel's; it writes dots to them. */\n"
	"static FILE *std_stream(int f)\n{\n"
	"\treturn !strcmp(names[f], \"<STDOUT>\") ? stdout\n"
	"\t       : !strcmp(names[f], \"<STDERR>\") ? stderr\n"
	"\t       : !strcmp(names[f], \"<STDIN>\")  ? stdin\n"
	"\t\t\t\t\t\t   : NULL;\n}\n"
	"static inline void k_fwrite(int f, int64_t n)\n{\n\tchar *b = kbuf(n = ks(n));\n\n"
	"\tif (!FP(f))\n\t\treturn;\n"
	"\tif (n > 0 && (fps[f] == stdout || fps[f] == stderr)) {\n"
	"\t\tmemset(b, '.', (size_t)n);\n\t\tb[n - 1] = '\\n';\n\t}\n"
	"\tfwrite(b, 1, (size_t)n, fps[f]);\n}\n"
	"static inline void k_fread(int f, int64_t n)\n{\n\tn = ks(n);\n\tif (FP(f) && "
	"fread(kbuf(n), 1, "
	"(size_t)n, "
	"fps[f]) == 0)\n\t\tclearerr(fps[f]);\n}\n"
	"static inline void k_fseek(int f, int64_t o)\n{\n\tif (FP(f))\n"
	"\t\tfseeko(fps[f], (off_t)ks(o), SEEK_SET);\n}\n"
	"static inline void k_fflush(int f)\n{\n\tif (FP(f))\n\t\tfflush(fps[f]);\n}\n"
	"static inline void k_ftell(int f)\n{\n\tif (FP(f) && ftell(fps[f]) < 0)\n\t\treturn;\n}\n"
	"/*\n"
	" * A compact kernel's stream calls between two of its other calls, as their\n"
	" * totals: n reads or writes of bytes in all, as even as can be, in runs back\n"
	" * to back that end at byte end (the highest the job's reached, + 1), each\n"
	" * after a seek, the first only when seek says so.\n"
	" */\n"
	"static void k_fruns(FILE *fp, int64_t n, int64_t bytes, int64_t end, int seek, int out)\n"
	"{\n"
	"\tint64_t q = n ? bytes / n : 0, r = n ? bytes % n : 0, i = 0, j, t;\n\n"
	"\twhile (i < n) {\n"
	"\t\tfor (t = 0, j = i; j < n && t + q + (j < r) <= end; j++)\n"
	"\t\t\tt += q + (j < r);\n"
	"\t\tif (j == i)\n\t\t\tt = q + (j++ < r);\n"
	"\t\tif (i || seek)\n\t\t\tfseeko(fp, (off_t)ks(end - t), SEEK_SET);\n"
	"\t\tfor (; i < j; i++) {\n"
	"\t\t\tint64_t len = ks(q + (i < r));\n\n"
	"\t\t\tif (out)\n\t\t\t\tfwrite(kbuf(len), 1, (size_t)len, fp);\n"
	"\t\t\telse if (fread(kbuf(len), 1, (size_t)len, fp) == 0)\n"
	"\t\t\t\tclearerr(fp);\n"
	"\t\t}\n\t}\n}\n"
	"/*\n"
	" * nw writes of bw bytes up to ew, then nr reads of br bytes up to er (seek: bit\n"
	" * 0 the writes' first run seeks, bit 1 the reads'); seeks more seeks where the\n"
	" * stream is, then flushes and tells, the last seek to where the job's stream\n"
	" * was after them (to; -1 not known); in the time the job's calls took (took\n"
	" * seconds) at least, as fewer calls take less.\n"
	" */\n"
	"static void k_fagg(int f, int64_t nw, int64_t bw, int64_t ew, int64_t nr, int64_t br,\n"
	"\t\t   int64_t er, int seek, int64_t seeks, int64_t flushes, int64_t tells,\n"
	"\t\t   int64_t to, double took)\n"
	"{\n"
	"\tFILE *fp = FP(f);\n"
	"\tstruct timespec t0, t;\n\n"
	"\tif (!fp)\n\t\treturn;\n"
	"\tclock_gettime(CLOCK_MONOTONIC, &t0);\n"
	"\tk_fruns(fp, nw, bw, ew, seek & 1, 1);\n"
	"\t/* From writing to reading: a flush or a seek between (C asks it, as the job did). */\n"
	"\tif (nw && nr && !(seek & 2) && flushes > 0)\n\t\tfflush(fp), flushes--;\n"
	"\telse if (nw && nr && !(seek & 2) && seeks > 0)\n\t\tfseeko(fp, 0, SEEK_CUR), seeks--;\n"
	"\tk_fruns(fp, nr, br, er, seek & 2, 0);\n"
	"\twhile (seeks-- > (to >= 0))\n\t\tfseeko(fp, 0, SEEK_CUR);\n"
	"\twhile (flushes-- > 0)\n\t\tfflush(fp);\n"
	"\twhile (tells-- > 0 && ftell(fp) >= 0)\n\t\t;\n"
	"\tif (seeks == 0)\n\t\tfseeko(fp, (off_t)ks(to), SEEK_SET);\n"
	"\tdo\n\t\tclock_gettime(CLOCK_MONOTONIC, &t);\n"
	"\twhile (mode != 2 && (double)(t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) * "
	"1e-9 < took);\n"
	"}\n",
	"/* The job's POSIX calls on its stream's descriptor go to fileno's. */\n"
	"static inline void k_fileno(int f)\n{\n\tint fd = FP(f) ? fileno(fps[f]) : -1;\n\n"
	"\tif (fd >= 0 && FD(f) < 0)\n\t\tfds[f] = fd, fd_of_fp[f] = 1;\n}\n"
	"static MPI_Comm k_comm_of(int64_t comm, int f);\n"
	"/* \"key=value;...\" into info. */\n"
	"static void k_info(MPI_Info info, const char *hints)\n{\n"
	"\tchar kv[4096], *line, *save = NULL, *eq;\n\n"
	"\tsnprintf(kv, sizeof(kv), \"%s\", hints);\n"
	"\tfor (line = strtok_r(kv, \";\\n\", &save); line; line = strtok_r(NULL, \";\\n\", "
	"&save))\n"
	"\t\tif ((eq = strchr(line, '='))) {\n\t\t\t*eq = '\\0';\n"
	"\t\t\tMPI_Info_set(info, line, eq + 1);\n\t\t}\n}\n"
	"/* The job's hints, then the what-if's over them. */\n"
	"static inline void k_mpi_open(int f, int64_t amode, int64_t comm, const char *hints)\n{\n"
	"\tMPI_Info info;\n\n"
	"\tif (f < 0 || f >= NFILES)\n\t\treturn;\n\tMPI_Info_create(&info);\n"
	"\tk_info(info, hints);\n\tk_info(info, whatif_hints);\n"
	"\tMPI_File_open(k_comm_of(comm, f), path(f), (int)amode, info, &fhs[f]);\n\tunit[f] = 1;\n"
	"\tMPI_Info_free(&info);\n}\n"
	"static inline void k_mpi_close(int f)\n{\n\tif (f >= 0 && f < NFILES && fhs[f] != "
	"MPI_FILE_NULL)\n"
	"\t\tMPI_File_close(&fhs[f]);\n}\n"
	"static inline void k_mpi_sync(int f)\n{\n\tif (f >= 0 && f < NFILES && fhs[f] != "
	"MPI_FILE_NULL)\n"
	"\t\tMPI_File_sync(fhs[f]);\n}\n",
	"static inline void k_mpi_set_size(int f, int64_t n)\n{\n"
	"\tif (f >= 0 && f < NFILES && fhs[f] != MPI_FILE_NULL)\n"
	"\t\tMPI_File_set_size(fhs[f], (MPI_Offset)ks(n));\n}\n"
	"/* The individual file pointer moved (whence 0 set, 1 current, 2 end), in etypes. */\n"
	"static inline void k_mpi_seek(int f, int64_t o, int64_t whence)\n{\n"
	"\tif (f < 0 || f >= NFILES || fhs[f] == MPI_FILE_NULL || whence < 0 || whence > 2)\n"
	"\t\treturn;\n\to = o < 0 ? -ks(-o) : ks(o);\n\tif (unit[f] > 1)\n\t\to *= unit[f];\n"
	"\tMPI_File_seek(fhs[f], (MPI_Offset)o,\n"
	"\t\t      whence == 0 ? MPI_SEEK_SET : whence == 1 ? MPI_SEEK_CUR : MPI_SEEK_END);\n}\n"
	"static inline void k_mpi_get_size(int f)\n{\n\tMPI_Offset size;\n\n"
	"\tif (f >= 0 && f < NFILES && fhs[f] != MPI_FILE_NULL)\n"
	"\t\tMPI_File_get_size(fhs[f], &size);\n}\n",
	"/*\n * File views: the filetype's shape (k_view_type, k_view_dim, and a flattened\n"
	" * type's runs, k_view_run), then the view, made of bytes: offsets given in\n"
	" * etypes are scaled by the etype's size.\n */\n"
	"static struct {\n\tint64_t kind, base, ndims, n, dim[3][3];\n"
	"\tint nruns, cap;\n\tint *len;\n\tMPI_Aint *off;\n} view = {-1, 1, 0, 0, {{0}}, 0, 0, "
	"NULL, NULL};\n"
	"static inline void k_view_type(int64_t kind, int64_t base, int64_t ndims)\n{\n"
	"\tview.kind = kind;\n\tview.base = base > 0 ? base : 1;\n\tview.ndims = ndims;\n"
	"\tview.n = 0;\n\tview.nruns = 0;\n}\n"
	"static inline void k_view_run(int64_t o, int64_t n)\n{\n"
	"\tif (view.nruns == view.cap) {\n"
	"\t\tint cap = view.cap ? 2 * view.cap : 64;\n"
	"\t\tint *len = realloc(view.len, (size_t)cap * sizeof(*len));\n"
	"\t\tMPI_Aint *off = len ? realloc(view.off, (size_t)cap * sizeof(*off)) : NULL;\n\n"
	"\t\tif (len)\n\t\t\tview.len = len;\n\t\tif (!off) {\n"
	"\t\t\tfprintf(stderr, \"kernel: out of memory\\n\");\n"
	"\t\t\tMPI_Abort(MPI_COMM_WORLD, 1);\n\t\t}\n"
	"\t\tview.off = off;\n\t\tview.cap = cap;\n\t}\n"
	"\tview.off[view.nruns] = (MPI_Aint)o;\n\tview.len[view.nruns++] = (int)n;\n}\n"
	"static inline void k_view_dim(int64_t a, int64_t b, int64_t c)\n{\n"
	"\tif (view.n < 3) {\n\t\tview.dim[view.n][0] = a;\n\t\tview.dim[view.n][1] = b;\n"
	"\t\tview.dim[view.n++][2] = c;\n\t}\n}\n"
	"static inline void k_mpi_set_view(int f, int64_t disp, int64_t etype)\n{\n"
	"\tMPI_Datatype ft = MPI_BYTE;\n\tint sizes[3], subs[3], starts[3], i, n = (int)view.n;\n\n"
	"\tif (f < 0 || f >= NFILES || fhs[f] == MPI_FILE_NULL)\n\t\treturn;\n"
	"\tunit[f] = etype > 0 ? etype : 1;\n"
	"\tif (view.kind == 1 && n == 1)\n"
	"\t\tMPI_Type_vector((int)view.dim[0][0], (int)(view.dim[0][1] * view.base),\n"
	"\t\t\t\t(int)(view.dim[0][2] * view.base), MPI_BYTE, &ft);\n"
	"\telse if (view.kind == 2 && n >= 1 && n == view.ndims) {\n"
	"\t\tfor (i = 0; i < n; i++) {\n"
	"\t\t\tint64_t scale = i == n - 1 ? view.base : 1;\n\n"
	"\t\t\tsizes[i] = (int)(view.dim[i][0] * scale);\n"
	"\t\t\tsubs[i] = (int)(view.dim[i][1] * scale);\n"
	"\t\t\tstarts[i] = (int)(view.dim[i][2] * scale);\n\t\t}\n"
	"\t\tMPI_Type_create_subarray(n, sizes, subs, starts, MPI_ORDER_C, MPI_BYTE, &ft);\n"
	"\t} else if (view.kind == 3 && n == 1 && view.nruns > 0 && view.nruns == view.dim[0][2]) "
	"{\n"
	"\t\t/*\n\t\t * Resized only when the runs' own bounds are not the type's, and then\n"
	"\t\t * from 0: a view's tiles are one extent apart and its lower bound places\n"
	"\t\t * nothing (ROMIO would place the runs from a resized type's lower bound).\n"
	"\t\t */\n"
	"\t\tint64_t last = view.nruns - 1, lb = view.dim[0][0], extent = view.dim[0][1];\n\n"
	"\t\tMPI_Type_create_hindexed(view.nruns, view.len, view.off, MPI_BYTE, &ft);\n"
	"\t\tif (view.off[0] != lb || view.off[last] + view.len[last] != lb + extent) {\n"
	"\t\t\tMPI_Datatype runs = ft;\n\n"
	"\t\t\tMPI_Type_create_resized(runs, 0, (MPI_Aint)extent, &ft);\n"
	"\t\t\tMPI_Type_free(&runs);\n\t\t}\n"
	"\t}\n"
	"\tif (ft != MPI_BYTE)\n\t\tMPI_Type_commit(&ft);\n"
	"\tMPI_File_set_view(fhs[f], (MPI_Offset)disp, MPI_BYTE, ft, \"native\", MPI_INFO_NULL);\n"
	"\tif (ft != MPI_BYTE)\n\t\tMPI_Type_free(&ft);\n"
	"\tview.kind = -1;\n\tview.n = 0;\n\tview.nruns = 0;\n}\n",
	"/* How an MPI-IO call reads or writes (an offset < 0: at the file pointer). */\n"
	"enum { K_INDEP, K_COLL, K_SHARED, K_ORDERED, K_NB, K_NB_COLL, K_NB_SHARED, K_SPLIT,\n"
	"       K_SPLIT_ORDERED };\n"
	"#define K_IO(how, ...) (write ? MPI_File_write##how(__VA_ARGS__) : "
	"MPI_File_read##how(__VA_ARGS__))\n"
	"#define K_IIO(how, ...) (write ? MPI_File_iwrite##how(__VA_ARGS__) : "
	"MPI_File_iread##how(__VA_ARGS__))\n"
	"static inline void k_mpi_rw(int f, int64_t o, int64_t n, int write, int how)\n{\n"
	"\tMPI_File fh = f >= 0 && f < NFILES ? fhs[f] : MPI_FILE_NULL;\n"
	"\tMPI_Request req = MPI_REQUEST_NULL;\n\tMPI_Status st;\n"
	"\tvoid *b = kbuf(n = ks(n));\n\tint c = (int)n;\n\n"
	"\tif (fh == MPI_FILE_NULL)\n\t\treturn;\n"
	"\to = ks(o);\n\tif (o > 0 && unit[f] > 1)\n\t\to *= unit[f];\n\to = ka(o);\n"
	"\tswitch (how) {\n"
	"\tcase K_COLL:\n"
	"\t\to < 0 ? K_IO(_all, fh, b, c, MPI_BYTE, &st) : K_IO(_at_all, fh, o, b, c, "
	"MPI_BYTE, &st);\n\t\tbreak;\n"
	"\tcase K_SHARED:\n\t\tK_IO(_shared, fh, b, c, MPI_BYTE, &st);\n\t\tbreak;\n"
	"\tcase K_ORDERED:\n\t\tK_IO(_ordered, fh, b, c, MPI_BYTE, &st);\n\t\tbreak;\n"
	"\tcase K_NB:\n"
	"\t\to < 0 ? K_IIO(, fh, b, c, MPI_BYTE, &req) : K_IIO(_at, fh, o, b, c, MPI_BYTE, "
	"&req);\n\t\tbreak;\n"
	"\tcase K_NB_COLL:\n"
	"\t\to < 0 ? K_IIO(_all, fh, b, c, MPI_BYTE, &req)\n"
	"\t\t      : K_IIO(_at_all, fh, o, b, c, MPI_BYTE, &req);\n\t\tbreak;\n"
	"\tcase K_NB_SHARED:\n\t\tK_IIO(_shared, fh, b, c, MPI_BYTE, &req);\n\t\tbreak;\n"
	"\tcase K_SPLIT:\n"
	"\t\tif (o < 0) {\n\t\t\tK_IO(_all_begin, fh, b, c, MPI_BYTE);\n"
	"\t\t\tK_IO(_all_end, fh, b, &st);\n\t\t} else {\n"
	"\t\t\tK_IO(_at_all_begin, fh, o, b, c, MPI_BYTE);\n"
	"\t\t\tK_IO(_at_all_end, fh, b, &st);\n\t\t}\n\t\tbreak;\n"
	"\tcase K_SPLIT_ORDERED:\n\t\tK_IO(_ordered_begin, fh, b, c, MPI_BYTE);\n"
	"\t\tK_IO(_ordered_end, fh, b, &st);\n\t\tbreak;\n"
	"\tdefault:\n"
	"\t\to < 0 ? K_IO(, fh, b, c, MPI_BYTE, &st) : K_IO(_at, fh, o, b, c, MPI_BYTE, "
	"&st);\n\t}\n"
	"\tif (req != MPI_REQUEST_NULL)\n\t\tMPI_Wait(&req, &st);\n}\n",
	"/*\n * Synchronization as the job did it; think-limited mode leaves it out.\n"
	" * Communicators are the rank's slots in the trace: 0 is MPI_COMM_WORLD, the\n"
	" * others made by the Comm_split and Comm_dup calls replayed; a call on one\n"
	" * the kernel could not make (created otherwise) is left out.  Peers are\n"
	" * relative to the rank in the communicator, as the trace keeps them.\n */\n"
	"#define KCOMMS 256\n#define KREQS 4096\n"
	"static MPI_Comm comms[KCOMMS];\nstatic MPI_Request reqs[KREQS];\n"
	"static char posted[KREQS];\nstatic void *req_bufs[KREQS];\n\n"
	"static MPI_Comm kcomm(int64_t slot, int *me, int *n)\n{\n"
	"\tMPI_Comm c = slot == 0 ? MPI_COMM_WORLD\n"
	"\t\t    : slot > 0 && slot < KCOMMS && comms[slot] ? comms[slot]\n"
	"\t\t\t\t\t\t\t\t : MPI_COMM_NULL;\n\n"
	"\tif (mode == 1 || c == MPI_COMM_NULL)\n\t\treturn MPI_COMM_NULL;\n"
	"\tMPI_Comm_rank(c, me);\n\tMPI_Comm_size(c, n);\n\treturn c;\n}\n"
	"#define KCOMM(slot)                                    \\\n"
	"\tint me, n_;                                    \\\n"
	"\tMPI_Comm c = kcomm(slot, &me, &n_);            \\\n"
	"\tif (c == MPI_COMM_NULL)                        \\\n"
	"\t\treturn\n"
	"#define PEER(p) ((int)((me + (p)) % n_))\n"
	"static inline void k_barrier(int64_t slot)\n{\n\tKCOMM(slot);\n\tMPI_Barrier(c);\n}\n"
	"static inline void k_bcast(int64_t n, int64_t root, int64_t slot)\n{\n\tKCOMM(slot);\n"
	"\tMPI_Bcast(kbuf(n), (int)n, MPI_BYTE, (int)(root >= 0 ? root : 0), c);\n}\n"
	"static inline void k_reduce(int64_t n, int all, int64_t root, int64_t slot)\n{\n"
	"\tvoid *out;\n\tKCOMM(slot);\n\tout = calloc(1, (size_t)(n > 0 ? n : 1));\n"
	"\tif (all)\n\t\tMPI_Allreduce(kbuf(n), out, (int)n, MPI_BYTE, MPI_BOR, c);\n"
	"\telse\n\t\tMPI_Reduce(kbuf(n), out, (int)n, MPI_BYTE, MPI_BOR, (int)(root >= 0 ? "
	"root : 0), c);\n"
	"\tfree(out);\n}\n",
	"static inline void k_send(int64_t n, int64_t peer, int64_t slot)\n{\n\tKCOMM(slot);\n"
	"\tif (peer >= 0)\n\t\tMPI_Send(kbuf(n), (int)n, MPI_BYTE, PEER(peer), 0, c);\n}\n"
	"static inline void k_recv(int64_t n, int64_t peer, int64_t slot)\n{\n\tKCOMM(slot);\n"
	"\tMPI_Recv(kbuf(n), (int)n, MPI_BYTE, peer >= 0 ? PEER(peer) : MPI_ANY_SOURCE, 0, c, "
	"MPI_STATUS_IGNORE);\n}\n"
	"static inline void k_sendrecv(int64_t n, int64_t peer, int64_t slot)\n{\n\tvoid *in;\n"
	"\tKCOMM(slot);\n\tif (peer < 0)\n\t\treturn;\n"
	"\tin = malloc((size_t)(n > 0 ? n : 1));\n"
	"\tMPI_Sendrecv(kbuf(n), (int)n, MPI_BYTE, PEER(peer), 0, in, (int)n, MPI_BYTE,\n"
	"\t\t     (int)((me - peer % n_ + n_) % n_), 0, c, MPI_STATUS_IGNORE);\n"
	"\tfree(in);\n}\n"
	"static inline void k_all(int64_t n, int to_all, int64_t slot)\n{\n\tint64_t each;\n"
	"\tvoid *out;\n\tKCOMM(slot);\n\teach = n / n_ > 0 ? n / n_ : 1;\n"
	"\tout = malloc((size_t)(each * n_));\n"
	"\tif (to_all)\n\t\tMPI_Alltoall(kbuf(each * n_), (int)each, MPI_BYTE, out, (int)each, "
	"MPI_BYTE, c);\n"
	"\telse\n\t\tMPI_Allgather(kbuf(each), (int)each, MPI_BYTE, out, (int)each, MPI_BYTE, "
	"c);\n\tfree(out);\n}\n",
	"/*\n"
	" * Rooted collectives with this rank's bytes: a gather of what each rank\n"
	" * sends, a scatter of what each receives.  Their v forms, where the counts\n"
	" * differ between ranks, first gather the counts at the root (an int a\n"
	" * rank), as the job's root knew them.\n"
	" */\n"
	"static int *k_counts(int64_t n, int v, int root, int me, int n_, MPI_Comm c, int "
	"**displs)\n{\n"
	"\tint mine = (int)(n > 0 ? n : 0), *counts = calloc((size_t)n_, sizeof(int)), i;\n\n"
	"\t*displs = calloc((size_t)n_, sizeof(int));\n"
	"\tif (v)\n\t\tMPI_Gather(&mine, 1, MPI_INT, counts, 1, MPI_INT, root, c);\n"
	"\telse\n\t\tfor (i = 0; i < n_; i++)\n\t\t\tcounts[i] = mine;\n"
	"\tfor (i = 1; i < n_ && me == root; i++)\n"
	"\t\t(*displs)[i] = (*displs)[i - 1] + counts[i - 1];\n"
	"\treturn counts;\n}\n"
	"static inline void k_gather(int64_t n, int v, int64_t root, int64_t slot)\n{\n"
	"\tint *counts, *displs, r, total;\n\tvoid *out;\n\tKCOMM(slot);\n"
	"\tr = (int)(root >= 0 && root < n_ ? root : 0);\n"
	"\tcounts = k_counts(n, v, r, me, n_, c, &displs);\n"
	"\ttotal = me == r ? displs[n_ - 1] + counts[n_ - 1] : 0;\n"
	"\tout = malloc((size_t)(total > 0 ? total : 1));\n"
	"\tMPI_Gatherv(kbuf(n), (int)(n > 0 ? n : 0), MPI_BYTE, out, counts, displs, MPI_BYTE, r, "
	"c);\n"
	"\tfree(out);\n\tfree(counts);\n\tfree(displs);\n}\n"
	"static inline void k_scatter(int64_t n, int v, int64_t root, int64_t slot)\n{\n"
	"\tint *counts, *displs, r, total;\n\tvoid *out;\n\tKCOMM(slot);\n"
	"\tr = (int)(root >= 0 && root < n_ ? root : 0);\n"
	"\tcounts = k_counts(n, v, r, me, n_, c, &displs);\n"
	"\ttotal = me == r ? displs[n_ - 1] + counts[n_ - 1] : 0;\n"
	"\tout = malloc((size_t)(n > 0 ? n : 1));\n"
	"\tMPI_Scatterv(kbuf(total), counts, displs, MPI_BYTE, out, (int)(n > 0 ? n : 0), "
	"MPI_BYTE, r, c);\n"
	"\tfree(out);\n\tfree(counts);\n\tfree(displs);\n}\n"
	"static inline void k_allgatherv(int64_t n, int64_t slot)\n{\n"
	"\tint mine = (int)(n > 0 ? n : 0), *counts, *displs, i;\n\tvoid *out;\n\tKCOMM(slot);\n"
	"\tcounts = calloc((size_t)n_, sizeof(int));\n\tdispls = calloc((size_t)n_, sizeof(int));\n"
	"\tMPI_Allgather(&mine, 1, MPI_INT, counts, 1, MPI_INT, c);\n"
	"\tfor (i = 1; i < n_; i++)\n\t\tdispls[i] = displs[i - 1] + counts[i - 1];\n"
	"\tout = malloc((size_t)(displs[n_ - 1] + counts[n_ - 1] + 1));\n"
	"\tMPI_Allgatherv(kbuf(n), mine, MPI_BYTE, out, counts, displs, MPI_BYTE, c);\n"
	"\tfree(out);\n\tfree(counts);\n\tfree(displs);\n}\n"
	"static inline void k_scan(int64_t n, int ex, int64_t slot)\n{\n"
	"\tvoid *out;\n\tKCOMM(slot);\n\tout = calloc(1, (size_t)(n > 0 ? n : 1));\n"
	"\tif (ex)\n\t\tMPI_Exscan(kbuf(n), out, (int)n, MPI_BYTE, MPI_BOR, c);\n"
	"\telse\n\t\tMPI_Scan(kbuf(n), out, (int)n, MPI_BYTE, MPI_BOR, c);\n"
	"\tfree(out);\n}\n",
	"/* Non-blocking: each request in its slot, with a buffer of its own to receive in. */\n"
	"static inline void k_isend(int64_t n, int64_t peer, int64_t req, int64_t slot)\n{\n"
	"\tKCOMM(slot);\n\tif (peer < 0 || req < 0 || req >= KREQS)\n\t\treturn;\n"
	"\tposted[req] = !MPI_Isend(kbuf(n), (int)n, MPI_BYTE, PEER(peer), 0, c, &reqs[req]);\n}\n"
	"static inline void k_irecv(int64_t n, int64_t peer, int64_t req, int64_t slot)\n{\n"
	"\tKCOMM(slot);\n\tif (req < 0 || req >= KREQS)\n\t\treturn;\n"
	"\treq_bufs[req] = malloc((size_t)(n > 0 ? n : 1));\n"
	"\tposted[req] = !MPI_Irecv(req_bufs[req], (int)n, MPI_BYTE,\n"
	"\t\t\t\t  peer >= 0 ? PEER(peer) : MPI_ANY_SOURCE, 0, c, &reqs[req]);\n}\n"
	"static inline void k_wait(int64_t req)\n{\n"
	"\tif (req < 0 || req >= KREQS || !posted[req])\n\t\treturn;\n"
	"\tMPI_Wait(&reqs[req], MPI_STATUS_IGNORE);\n\tposted[req] = 0;\n"
	"\tfree(req_bufs[req]);\n\treq_bufs[req] = NULL;\n}\n"
	"/* The trace does not say which requests a Waitall named: all those pending. */\n"
	"static inline void k_waitall(void)\n{\n\tint64_t r;\n\n"
	"\tfor (r = 0; r < KREQS; r++)\n\t\tk_wait(r);\n}\n"
	"/*\n"
	" * Where a communicator made in trace slot made is kept (nowhere past the\n"
	" * table).  The job's trace gives a slot again only to a communicator made\n"
	" * after the slot's last was freed (MPI handed out its handle again): that\n"
	" * one is freed first, as the job freed it.  Kept, they would pile up, and\n"
	" * past a few tens MPICH finds each new communicator's context in a slow\n"
	" * way (3 ms a dup here).  Not the communicator the new one is made from\n"
	" * (slot).\n"
	" */\n"
	"static inline MPI_Comm *k_comm_made(int64_t made, int64_t slot)\n{\n"
	"\tstatic MPI_Comm unkept;\n\n"
	"\tif (made <= 0 || made >= KCOMMS)\n\t\treturn &unkept;\n"
	"\tif (made != slot && comms[made] && comms[made] != MPI_COMM_NULL)\n"
	"\t\tMPI_Comm_free(&comms[made]);\n"
	"\treturn &comms[made];\n}\n"
	"static inline void k_comm_split(int64_t slot, int64_t color, int64_t key, int64_t "
	"made)\n{\n"
	"\tKCOMM(slot);\n"
	"\tMPI_Comm_split(c, color < 0 ? MPI_UNDEFINED : (int)color, (int)key,\n"
	"\t\t       k_comm_made(made, slot));\n}\n"
	"static inline void k_comm_dup(int64_t slot, int64_t made)\n{\n"
	"\tKCOMM(slot);\n\tMPI_Comm_dup(c, k_comm_made(made, slot));\n}\n"
	"/* MPI_Comm_create: the ranks it made a communicator for (made >= 0), in their order. */\n"
	"static inline void k_comm_create(int64_t slot, int64_t made)\n{\n"
	"\tk_comm_split(slot, made >= 0 ? 0 : -1, 0, made);\n}\n"
	"/*\n"
	" * The communicator a file is opened on (comm: its trace slot + 1; 0: not\n"
	" * known, then all ranks or one, COMM_OF): the world, one the kernel made\n"
	" * as the job did (k_comm_split, k_comm_dup), else the one slotmap names\n"
	" * for this rank: the world, the rank alone, or the members of a group,\n"
	" * made at its first use (only the members call MPI_Comm_create_group).\n"
	" */\n"
	"static MPI_Comm k_comm_of(int64_t comm, int f)\n{\n"
	"\tint64_t slot = comm - 1;\n\tint i;\n\n"
	"\tif (comm <= 0)\n\t\treturn COMM_OF(f);\n"
	"\tif (slot == 0)\n\t\treturn MPI_COMM_WORLD;\n"
	"\tif (slot < KCOMMS && comms[slot])\n\t\treturn comms[slot];\n"
	"\tfor (i = 0; i < NSLOTMAP; i++) {\n"
	"\t\tint64_t g = slotmap[i][2];\n\n"
	"\t\tif (slotmap[i][0] != rank || slotmap[i][1] != slot)\n\t\t\tcontinue;\n"
	"\t\tif (g < 0)\n\t\t\treturn g == -1 ? MPI_COMM_WORLD : MPI_COMM_SELF;\n"
	"\t\t/* Run on fewer ranks (--ranks): the group is not all there. */\n"
	"\t\tif (members[member_at[g + 1] - 1] >= size)\n\t\t\treturn COMM_OF(f);\n"
	"\t\tif (!mmade[g]) {\n"
	"\t\t\tMPI_Group world, group;\n\n"
	"\t\t\tMPI_Comm_group(MPI_COMM_WORLD, &world);\n"
	"\t\t\tMPI_Group_incl(world, member_at[g + 1] - member_at[g], members + member_at[g],\n"
	"\t\t\t\t       &group);\n"
	"\t\t\tMPI_Comm_create_group(MPI_COMM_WORLD, group, (int)g, &mcomms[g]);\n"
	"\t\t\tMPI_Group_free(&group);\n\t\t\tMPI_Group_free(&world);\n"
	"\t\t\tmmade[g] = 1;\n\t\t}\n"
	"\t\treturn mcomms[g];\n\t}\n"
	"\treturn COMM_OF(f);\n}\n",
	NULL};

const char *const kgen_prologue_h5[] = {
	"#define K_HDF5 1 /* its datasets' extents are the job's: --bytes-scale cannot apply */\n"
	"/*\n"
	" * HDF5, as the job called it: files with the access properties the job's\n"
	" * records hold, datasets of the extent, maximum, chunks and element size\n"
	" * the trace keeps (k_h5_dim before each create), files opened on the\n"
	" * communicator the job's file-access list named (comm: its trace slot + 1;\n"
	" * 0: not known, then all ranks or one, COMM_OF), reads and writes of the\n"
	" * regular hyperslab the trace keeps (k_h5_sel, k_h5_block before each),\n"
	" * collective where the job's were.  A dataset is \"/\" and its name.  A\n"
	" * file or dataset opened again while open gets another identifier, as in\n"
	" * the job: the last opened is the one used, and closed first.\n"
	" */\n"
	"#define K_H5_MAX 32\n"
	"#define K_H5_COLLECTIVE 1\n"
	"#define K_H5_ALL 2\n"
	"#define K_H5_IRREGULAR 4\n"
	"#define K_H5_OPENS 8\n"
	"static hid_t h5ids[NFILES][K_H5_OPENS];\n"
	"static int h5n[NFILES];\n"
	"#define H5ID(f) ((f) >= 0 && (f) < NFILES && h5n[f] ? h5ids[f][h5n[f] - 1] : -1)\n"
	"static void h5_close_id(hid_t id)\n"
	"{\n"
	"\tif (H5Iget_type(id) == H5I_DATASET)\n"
	"\t\tH5Dclose(id);\n"
	"\telse\n"
	"\t\tH5Fclose(id);\n"
	"}\n"
	"static void h5_opened(int f, hid_t id)\n"
	"{\n"
	"\tif (id < 0)\n"
	"\t\treturn;\n"
	"\tif (h5n[f] == K_H5_OPENS)\n"
	"\t\th5_close_id(id);\n"
	"\telse\n"
	"\t\th5ids[f][h5n[f]++] = id;\n"
	"}\n"
	"static struct {\n"
	"\tint ndims, nsel, nblock;\n"
	"\thsize_t dim[K_H5_MAX], max[K_H5_MAX], chunk[K_H5_MAX];\n"
	"\thsize_t start[K_H5_MAX], count[K_H5_MAX], stride[K_H5_MAX], block[K_H5_MAX];\n"
	"} h5;\n"
	"\n"
	"static inline void k_h5_dim(int64_t dim, int64_t max, int64_t chunk)\n"
	"{\n"
	"\tif (h5.ndims < K_H5_MAX) {\n"
	"\t\th5.dim[h5.ndims] = (hsize_t)dim;\n"
	"\t\th5.max[h5.ndims] = max < 0 ? H5S_UNLIMITED : (hsize_t)max;\n"
	"\t\th5.chunk[h5.ndims++] = (hsize_t)chunk;\n"
	"\t}\n"
	"}\n"
	"static inline void k_h5_sel(int64_t start, int64_t count, int64_t stride)\n"
	"{\n"
	"\tif (h5.nsel < K_H5_MAX) {\n"
	"\t\th5.start[h5.nsel] = (hsize_t)start;\n"
	"\t\th5.count[h5.nsel] = (hsize_t)count;\n"
	"\t\th5.stride[h5.nsel++] = (hsize_t)(stride > 0 ? stride : 1);\n"
	"\t}\n"
	"}\n"
	"static inline void k_h5_block(int64_t block)\n"
	"{\n"
	"\tif (h5.nblock < K_H5_MAX)\n"
	"\t\th5.block[h5.nblock++] = (hsize_t)(block > 0 ? block : 1);\n"
	"}\n"
	"static inline void k_h5_fopen(int f, int create, int64_t flags, int64_t comm)\n"
	"{\n"
	"\thid_t fapl = H5Pcreate(H5P_FILE_ACCESS);\n"
	"\n"
	"\tif (f < 0 || f >= NFILES)\n"
	"\t\treturn;\n"
	"\tif (h5fapl[f][0])\n"
	"\t\tH5Pset_fapl_mpio(fapl, k_comm_of(comm, f), MPI_INFO_NULL);\n"
	"\tif (h5fapl[f][1] & 1)\n"
	"\t\tH5Pset_all_coll_metadata_ops(fapl, 1);\n"
	"\tif (h5fapl[f][1] & 2)\n"
	"\t\tH5Pset_coll_metadata_write(fapl, 1);\n"
	"\tif (h5fapl[f][3] > 1)\n"
	"\t\tH5Pset_alignment(fapl, (hsize_t)h5fapl[f][2], (hsize_t)h5fapl[f][3]);\n"
	"\th5_opened(f, create ? H5Fcreate(path(f), (unsigned)flags, H5P_DEFAULT, fapl)\n"
	"\t\t\t    : H5Fopen(path(f), (unsigned)flags, fapl));\n"
	"\tH5Pclose(fapl);\n"
	"}\n"
	"static const char *h5name(int d)\n"
	"{\n"
	"\tstatic char p[4200];\n"
	"\n"
	"\tsnprintf(p, sizeof(p), \"/%s\", names[d]);\n"
	"\treturn p;\n"
	"}\n"
	"static hid_t k_h5_type(int64_t size)\n"
	"{\n"
	"\tstatic hid_t other;\n"
	"\n"
	"\tswitch (size) {\n"
	"\tcase 1:\n"
	"\t\treturn H5T_NATIVE_UCHAR;\n"
	"\tcase 2:\n"
	"\t\treturn H5T_NATIVE_USHORT;\n"
	"\tcase 4:\n"
	"\t\treturn H5T_NATIVE_UINT;\n"
	"\tcase 8:\n"
	"\t\treturn H5T_NATIVE_ULLONG;\n"
	"\t}\n"
	"\tif (other > 0)\n"
	"\t\tH5Tclose(other);\n"
	"\tother = H5Tcreate(H5T_OPAQUE, (size_t)(size > 0 ? size : 1));\n"
	"\treturn other;\n"
	"}\n"
	"#define H5F_OF(d) ((d) >= 0 && (d) < NFILES && h5file[d] >= 0 ? H5ID(h5file[d]) : -1)\n",
	"static inline void k_h5_dcreate(int d, int64_t ndims, int64_t size)\n"
	"{\n"
	"\thid_t space, dcpl = H5Pcreate(H5P_DATASET_CREATE);\n"
	"\tint i, chunked = 0;\n"
	"\n"
	"\t(void)ndims;\n"
	"\tfor (i = 0; i < h5.ndims; i++)\n"
	"\t\tchunked |= h5.chunk[i] > 0 || h5.max[i] == H5S_UNLIMITED;\n"
	"\tfor (i = 0; chunked && i < h5.ndims; i++)\n"
	"\t\tif (!h5.chunk[i])\n"
	"\t\t\th5.chunk[i] = h5.dim[i] ? h5.dim[i] : 1;\n"
	"\tif (chunked)\n"
	"\t\tH5Pset_chunk(dcpl, h5.ndims, h5.chunk);\n"
	"\tspace = h5.ndims ? H5Screate_simple(h5.ndims, h5.dim, h5.max) : H5Screate(H5S_SCALAR);\n"
	"\tif (d >= 0 && d < NFILES)\n"
	"\t\th5_opened(d, H5Dcreate2(H5F_OF(d), h5name(d), k_h5_type(size), space,\n"
	"\t\t\t\t\tH5P_DEFAULT, dcpl, H5P_DEFAULT));\n"
	"\tH5Sclose(space);\n"
	"\tH5Pclose(dcpl);\n"
	"\th5.ndims = 0;\n"
	"}\n"
	"static inline void k_h5_dopen(int d)\n"
	"{\n"
	"\tif (d >= 0 && d < NFILES)\n"
	"\t\th5_opened(d, H5Dopen2(H5F_OF(d), h5name(d), H5P_DEFAULT));\n"
	"\th5.ndims = 0;\n"
	"}\n"
	"static inline void k_h5_rw(int d, int64_t n, int64_t how, int write)\n"
	"{\n"
	"\thid_t ds = H5ID(d), type, fs = H5S_ALL, ms = H5S_ALL;\n"
	"\thid_t dxpl = H5Pcreate(H5P_DATASET_XFER);\n"
	"\thsize_t points;\n"
	"\tsize_t elem;\n"
	"\n"
	"\tif (ds < 0 || (type = H5Dget_type(ds)) < 0) {\n"
	"\t\tH5Pclose(dxpl);\n"
	"\t\th5.nsel = h5.nblock = 0;\n"
	"\t\treturn;\n"
	"\t}\n"
	"\telem = H5Tget_size(type);\n"
	"\tpoints = elem ? (hsize_t)n / elem : 0;\n"
	"\tif (how & K_H5_COLLECTIVE)\n"
	"\t\tH5Pset_dxpl_mpio(dxpl, H5FD_MPIO_COLLECTIVE);\n"
	"\t/* A selection the trace does not hold (points, irregular) moves nothing: validate "
	"says. */\n"
	"\tif (!(how & K_H5_ALL)) {\n"
	"\t\thsize_t one = 1;\n"
	"\t\tint sel;\n"
	"\n"
	"\t\tfs = H5Dget_space(ds);\n"
	"\t\tsel = points && h5.nsel && h5.nsel == H5Sget_simple_extent_ndims(fs);\n"
	"\t\tif (sel)\n"
	"\t\t\tH5Sselect_hyperslab(fs, H5S_SELECT_SET, h5.start, h5.stride, h5.count,\n"
	"\t\t\t\t\t    h5.nblock == h5.nsel ? h5.block : NULL);\n"
	"\t\telse\n"
	"\t\t\tH5Sselect_none(fs);\n"
	"\t\tms = H5Screate_simple(1, sel ? &points : &one, NULL);\n"
	"\t\tif (!sel)\n"
	"\t\t\tH5Sselect_none(ms);\n"
	"\t}\n"
	"\tif (write)\n"
	"\t\tH5Dwrite(ds, type, ms, fs, dxpl, kbuf(n));\n"
	"\telse\n"
	"\t\tH5Dread(ds, type, ms, fs, dxpl, kbuf(n));\n"
	"\tif (fs != H5S_ALL)\n"
	"\t\tH5Sclose(fs);\n"
	"\tif (ms != H5S_ALL)\n"
	"\t\tH5Sclose(ms);\n"
	"\tH5Tclose(type);\n"
	"\tH5Pclose(dxpl);\n"
	"\th5.nsel = h5.nblock = 0;\n"
	"}\n"
	"static inline void k_h5_close(int f)\n"
	"{\n"
	"\thid_t id = H5ID(f);\n"
	"\n"
	"\tif (id < 0)\n"
	"\t\treturn;\n"
	"\th5_close_id(id);\n"
	"\th5n[f]--;\n"
	"}\n"
	"static inline void k_h5_flush(int f)\n"
	"{\n"
	"\thid_t id = H5ID(f);\n"
	"\n"
	"\tif (id < 0)\n"
	"\t\treturn;\n"
	"\tif (H5Iget_type(id) == H5I_DATASET)\n"
	"\t\tH5Dflush(id);\n"
	"\telse\n"
	"\t\tH5Fflush(id, H5F_SCOPE_LOCAL);\n"
	"}\n",
	NULL};

const char kgen_epilogue[] =
	"\nstatic void usage(void)\n{\n"
	"\tif (!rank)\n\t\tfprintf(stderr, \"usage: %s [--iterations N] [--compute-scale X] "
	"[--bytes-scale X]\\n       [--data-dir DIR] [--mode causal|think|fast] [--ranks N] "
	"[--prepare]\\n       [--hint KEY=VALUE]... [--transfer-size N] [--align N] "
	"[--time-file FILE]\\n\", "
	"\"kernel\");\n}\n\n"
	"int main(int argc, char **argv)\n{\n\tlong iterations = 1, it, ranks = NPROCS;\n"
	"\tint a, f, prepare = 0;\n\tconst char *time_file = NULL;\n\tdouble t0;\n\n"
	"\tMPI_Init(&argc, &argv);\n\tMPI_Comm_rank(MPI_COMM_WORLD, &rank);\n"
	"\tMPI_Comm_size(MPI_COMM_WORLD, &size);\n"
	"\tfor (a = 1; a < argc; a++) {\n"
	"\t\tif (!strcmp(argv[a], \"--iterations\") && a + 1 < argc)\n"
	"\t\t\titerations = strtol(argv[++a], NULL, 10);\n"
	"\t\telse if (!strcmp(argv[a], \"--compute-scale\") && a + 1 < argc)\n"
	"\t\t\tcompute_scale = strtod(argv[++a], NULL);\n"
	"\t\telse if (!strcmp(argv[a], \"--bytes-scale\") && a + 1 < argc) {\n"
	"\t\t\tbytes_scale = strtod(argv[++a], NULL);\n"
	"\t\t\tif (!(bytes_scale > 0)) {\n\t\t\t\tusage();\n\t\t\t\tMPI_Finalize();\n"
	"\t\t\t\treturn 2;\n\t\t\t}\n"
	"\t\t} else if (!strcmp(argv[a], \"--hint\") && a + 1 < argc && strchr(argv[a + 1], "
	"'=')) {\n"
	"\t\t\tsize_t used = strlen(whatif_hints);\n\n"
	"\t\t\tsnprintf(whatif_hints + used, sizeof(whatif_hints) - used, \"%s;\", argv[++a]);\n"
	"\t\t} else if (!strcmp(argv[a], \"--transfer-size\") && a + 1 < argc)\n"
	"\t\t\ttransfer_max = strtoll(argv[++a], NULL, 10);\n"
	"\t\telse if (!strcmp(argv[a], \"--align\") && a + 1 < argc)\n"
	"\t\t\talign_to = strtoll(argv[++a], NULL, 10);\n"
	"\t\telse if (!strcmp(argv[a], \"--time-file\") && a + 1 < argc)\n"
	"\t\t\ttime_file = argv[++a];\n"
	"\t\telse if (!strcmp(argv[a], \"--data-dir\") && a + 1 < argc)\n"
	"\t\t\tdata_dir = argv[++a];\n"
	"\t\telse if (!strcmp(argv[a], \"--ranks\") && a + 1 < argc)\n"
	"\t\t\tranks = strtol(argv[++a], NULL, 10);\n"
	"\t\telse if (!strcmp(argv[a], \"--prepare\"))\n"
	"\t\t\tprepare = 1;\n"
	"\t\telse if (!strcmp(argv[a], \"--mode\") && a + 1 < argc) {\n"
	"\t\t\ta++;\n\t\t\tmode = !strcmp(argv[a], \"think\") ? 1 : !strcmp(argv[a], \"fast\") ? 2 "
	": 0;\n"
	"\t\t} else {\n\t\t\tusage();\n\t\t\tMPI_Finalize();\n\t\t\treturn 2;\n\t\t}\n\t}\n"
	"\t/* --ranks N: the job as if it had N ranks, where its numbers allow it. */\n"
	"\tif (ranks != NPROCS && tied) {\n\t\tif (!rank)\n"
	"\t\t\tfprintf(stderr, \"kernel: made for %d ranks and cannot change: %s\\n\", NPROCS, "
	"tied);\n"
	"\t\tMPI_Finalize();\n\t\treturn 2;\n\t}\n"
	"#ifdef K_HDF5\n\tif (bytes_scale != 1) {\n\t\tif (!rank)\n"
	"\t\t\tfprintf(stderr, \"kernel: HDF5's datasets keep the job's extents: no "
	"--bytes-scale\\n\");\n"
	"\t\tMPI_Finalize();\n\t\treturn 2;\n\t}\n#endif\n"
	"\tif (size != ranks) {\n\t\tif (!rank)\n\t\t\tfprintf(stderr, \"kernel: made for %ld "
	"ranks, run with %d\\n\", ranks, size);\n\t\tMPI_Finalize();\n\t\treturn 2;\n\t}\n"
	"\tfor (f = 0; f < NFILES; f++) {\n\t\tfds[f] = -1;\n\t\tfhs[f] = MPI_FILE_NULL;\n"
	"\t\tfps[f] = std_stream(f);\n\t}\n"
	"\t/* --prepare: the inputs, made before the run (and outside what is measured). */\n"
	"\tif (prepare) {\n\t\tfor (f = 0; !rank && f < NFILES; f++)\n"
	"\t\t\tif (input_size[f] >= 0 && !std_stream(f)) {\n"
	"\t\t\t\tint fd = open(path(f), O_WRONLY | O_CREAT, 0644);\n\n"
	"\t\t\t\tif (fd < 0 || ftruncate(fd, (off_t)ks(input_size[f])))\n"
	"\t\t\t\t\tfprintf(stderr, \"kernel: cannot make %s\\n\", path(f));\n"
	"\t\t\t\tif (fd >= 0)\n\t\t\t\t\tclose(fd);\n\t\t\t}\n"
	"\t\tMPI_Finalize();\n\t\treturn 0;\n\t}\n"
	"\t/*\n\t * The job's compute before its first call made its data: the kernel's\n"
	"\t * buffer, made now, is part of it.\n\t */\n"
	"\tt0 = MPI_Wtime();\n"
	"\tkbuf(ks(max_transfer));\n"
	"\tk_gap(start_gap - (MPI_Wtime() - t0) / (compute_scale > 0 ? compute_scale : 1));\n"
	"\t/* --time-file: rank 0 writes the seconds of the run, from all ranks' start to their "
	"end. */\n"
	"\tif (time_file)\n\t\tMPI_Barrier(MPI_COMM_WORLD);\n\tt0 = MPI_Wtime();\n"
	"\tfor (it = 0; it < iterations; it++)\n\t\trun();\n"
	"\tif (time_file)\n\t\tMPI_Barrier(MPI_COMM_WORLD);\n"
	"\tif (time_file && !rank) {\n\t\tFILE *t = fopen(time_file, \"w\");\n\n"
	"\t\tif (!t || fprintf(t, \"%.6f\\n\", MPI_Wtime() - t0) < 0 || fclose(t))\n"
	"\t\t\tfprintf(stderr, \"kernel: cannot write %s\\n\", time_file);\n\t}\n"
	"\tfree(buf);\n\tMPI_Finalize();\n\treturn 0;\n}\n";

/* An HDF5 file's access properties (any rank's say them), a dataset's file. */

/* ------------------------------------------------------------ helpers by need */

/* A top-level piece of the helpers: a definition with the comment above it. */
struct piece {
	size_t from, to;
	unsigned nnames, kept;
	struct ioa_buf names; /* the functions and macros it defines, NUL-separated */
};

static int ident_start(int c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int ident_char(int c)
{
	return ident_start(c) || (c >= '0' && c <= '9');
}

static int add_name(struct piece *p, const char *s, size_t len)
{
	p->nnames++;
	return ioa_buf_add(&p->names, s, len) || ioa_buf_add(&p->names, "", 1) ? -ENOMEM : 0;
}

/*
 * The variables a declaration names: each identifier outside brackets
 * followed by '[', '=', ';' or ',', up to an initializer or a body.
 */
static int decl_names(const char *s, const char *end, struct piece *p)
{
	int nest = 0, rc = 0;

	while (s < end && !rc && *s != '=' && *s != '{') {
		const char *e, *next;

		if (*s == '[' || *s == ']') {
			nest += *s++ == '[' ? 1 : -1;
			continue;
		}
		if (!ident_start((unsigned char)*s)) {
			s++;
			continue;
		}
		for (e = s; e < end && ident_char((unsigned char)*e); e++)
			;
		for (next = e; next < end && *next == ' '; next++)
			;
		if (!nest && next < end && strchr("[=;,", *next))
			rc = add_name(p, s, (size_t)(e - s));
		s = e;
	}
	return rc;
}

/*
 * The names a top-level line defines: a macro's, a function's (before its
 * '('), a declaration's variables.
 */
static int line_name(const char *s, size_t len, struct piece *p)
{
	const char *line = s, *end, *open, *e, *c;

	/* Its code only: a comment after it may name a function. */
	for (c = s; c + 1 < s + len && !(c[0] == '/' && c[1] == '*'); c++)
		;
	len = c + 1 < s + len ? (size_t)(c - s) : len;
	end = s + len;
	if (len > 8 && !strncmp(s, "#define ", 8)) {
		for (s += 8, e = s; e < end && ident_char((unsigned char)*e); e++)
			;
		return e > s ? add_name(p, s, (size_t)(e - s)) : 0;
	}
	if (len <= 7 || strncmp(s, "static ", 7))
		return 0;
	open = memchr(s, '(', len);
	for (c = s; c < (open ? open : end) && !strchr("=[;", *c); c++)
		;
	if (!open || c < open)
		return decl_names(s + 7, end, p);
	for (e = open; e > line && e[-1] == ' '; e--)
		;
	for (s = e; s > line && ident_char((unsigned char)s[-1]); s--)
		;
	return e > s ? add_name(p, s, (size_t)(e - s)) : 0;
}

/*
 * Cuts the helpers' text into pieces: one ends where a line brings the
 * braces back to the top level, or with a top-level declaration or macro
 * (a comment goes with what follows it).
 */
static int cut_pieces(const char *t, size_t len, struct piece **out, size_t *n)
{
	size_t at = 0, cap = 0;
	int depth = 0, comment = 0, macro = 0, rc = 0;
	struct piece *p = NULL;

	*n = 0;
	while (at < len && !rc) {
		const char *nl = memchr(t + at, '\n', len - at);
		size_t end = nl ? (size_t)(nl - t) + 1 : len, i;
		int top = depth == 0 && !comment, code = 0,
		    cont = end - at > 1 && t[end - 2] == '\\';
		char last = 0;

		if (!*n || p[*n - 1].to != SIZE_MAX) {
			if (*n == cap) {
				struct piece *more =
					realloc(p, (cap = cap * 2 + 32) * sizeof(*more));

				if (!more) {
					rc = -ENOMEM;
					break;
				}
				p = more;
			}
			p[*n] = (struct piece){.from = at, .to = SIZE_MAX};
			ioa_buf_init(&p[*n].names, 1 << 16);
			++*n;
		}
		for (i = at; i < end; i++) {
			char c = t[i];

			if (comment) {
				if (c == '*' && i + 1 < end && t[i + 1] == '/')
					comment = 0, i++;
				continue;
			}
			if (c == '/' && i + 1 < end && t[i + 1] == '*') {
				comment = 1, i++;
				continue;
			}
			if (c == '"' || c == '\'') { /* a literal: to its closing quote */
				for (i++; i < end && t[i] != c; i++)
					i += t[i] == '\\';
				code = 1, last = c;
				continue;
			}
			depth += (c == '{') - (c == '}');
			if (c != ' ' && c != '\t' && c != '\n')
				code = 1, last = c;
		}
		if (top && code)
			rc = line_name(t + at, end - at, &p[*n - 1]);
		/* A piece ends with its body's last brace, a declaration or a macro's last line. */
		if (top && t[at] == '#')
			macro = 1;
		if (macro ? !cont : code && depth == 0 && !comment && (last == '}' || last == ';'))
			p[*n - 1].to = end;
		/* A structure's variables, after its body ("} view;"). */
		if (!top && depth == 0 && !rc && t[at] == '}' && p[*n - 1].to == end)
			rc = decl_names(t + at + 1, t + end, &p[*n - 1]);
		macro &= cont;
		at = end;
	}
	if (*n && p[*n - 1].to == SIZE_MAX)
		p[*n - 1].to = len;
	*out = p;
	return rc;
}

/*
 * Marks the pieces whose names text's code holds as identifiers (not in
 * its comments or literals: a file named "comms" uses no table); how many
 * it marked.
 */
static unsigned mark_named(struct piece *p, size_t n, const char *t, size_t len)
{
	size_t i = 0, j;
	unsigned marked = 0;

	while (i < len) {
		size_t s;

		if (t[i] == '/' && i + 1 < len && t[i + 1] == '*') {
			for (i += 2; i + 1 < len && !(t[i] == '*' && t[i + 1] == '/'); i++)
				;
			i += 2;
			continue;
		}
		if (t[i] == '"' || t[i] == '\'') {
			char q = t[i];

			for (i++; i < len && t[i] != q; i++)
				i += t[i] == '\\';
			i++;
			continue;
		}
		if (!ident_start((unsigned char)t[i]) ||
		    (i && ident_char((unsigned char)t[i - 1]))) {
			i++;
			continue;
		}
		for (s = i; i < len && ident_char((unsigned char)t[i]); i++)
			;
		for (j = 0; j < n; j++) {
			const char *name = p[j].names.data;
			unsigned k;

			for (k = 0; !p[j].kept && k < p[j].nnames; k++, name += strlen(name) + 1)
				if (strlen(name) == i - s && !memcmp(name, t + s, i - s)) {
					p[j].kept = 2; /* kept, its own text not read yet */
					marked++;
					break;
				}
		}
	}
	return marked;
}

int kgen_put_helpers(struct gen *g, const char *head, const char *const *used, size_t nused)
{
	struct ioa_buf all = IOA_BUF_INIT((size_t)1 << 30);
	struct piece *p = NULL;
	size_t n = 0, i;
	unsigned more;
	int rc = ioa_buf_addstr(&all, head);

	for (i = 0; kgen_prologue[i] && !rc; i++)
		rc = ioa_buf_addstr(&all, kgen_prologue[i]);
	rc = rc ? rc : cut_pieces(all.data, all.len, &p, &n);
	for (i = 0; i < n && !rc; i++)
		p[i].kept = p[i].nnames ? 0 : 2; /* declarations always */
	for (i = 0; i < nused && !rc; i++)
		mark_named(p, n, used[i], strlen(used[i]));
	/* What the kept pieces call, until nothing more is kept. */
	do {
		more = 0;
		for (i = 0; i < n && !rc; i++)
			if (p[i].kept == 2) {
				p[i].kept = 1;
				more += mark_named(p, n, all.data + p[i].from,
						   p[i].to - p[i].from) +
					1;
			}
	} while (more && !rc);
	for (i = 0; i < n && !rc; i++)
		if (p[i].kept)
			kgen_put(g, "%.*s", (int)(p[i].to - p[i].from), all.data + p[i].from);
	for (i = 0; i < n; i++)
		ioa_buf_release(&p[i].names);
	free(p);
	ioa_buf_release(&all);
	return rc;
}
