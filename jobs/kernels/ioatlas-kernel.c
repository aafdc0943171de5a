/*
 * ioatlas kernel — I/O kernels: `gen` writes a job's kernel (C source and
 * Makefile) from its log.  docs/kernels.md.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <ftw.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "ioa_conf.h"
#include "ioa_db.h"
#include "ioa_file.h"
#include "ioa_log.h"
#include "ioa_opts.h"
#include "ioa_parse.h"
#include "kgen.h"
#include "kvalidate.h"
#ifdef IOATLAS_HAVE_CURL
#include "krepo.h"
#endif

static const char makefile[] =
	"# The I/O kernel: make (MPICC: your MPI C compiler wrapper), then\n"
	"#   mpiexec -n RANKS ./kernel [--iterations N] [--compute-scale X] [--data-dir DIR]\n"
	"#                             [--mode causal|think|fast] [--ranks N] [--prepare]\n"
	"#                             [--bytes-scale X] (./kernel --help: every option)\n"
	"MPICC ?= mpicc\nCFLAGS ?= -O2\n%s\n"
	"kernel: kernel.c\n\t$(MPICC) $(CFLAGS) -o kernel kernel.c $(LIBS)\n\n"
	"clean:\n\trm -f kernel\n\n.PHONY: clean\n";

/* A kernel that calls HDF5 links the HDF5 built for the MPI it is built with. */
static const char makefile_hdf5[] =
	"# The kernel calls HDF5: HDF5 is its pkg-config package for your MPI\n"
	"# (Debian: hdf5-mpich, hdf5-openmpi, picked by MPICC).\n"
	"HDF5 ?= $(if $(findstring openmpi,$(MPICC)),hdf5-openmpi,hdf5-mpich)\n"
	"LIBS = $(shell pkg-config --cflags --libs $(HDF5))\n";

static void usage(FILE *out)
{
	fprintf(out,
		"usage: ioatlas kernel gen LOG [-o DIR] [--keep-names] [--level auto|hdf5|mpiio]\n"
		"                              [--max-size BYTES] [--epochs N]\n"
		"       ioatlas kernel validate DIR LOG [--runtime LIB] [--timeout S]\n"
		"                                       [--mode causal|think|fast]\n"
		"                                       [--bytes-scale X] [--mpiexec PATH]\n"
		"       ioatlas kernel what-if DIR [--hint KEY=VALUE]... [--transfer-size N]\n"
		"                              [--align N] [--runs N] [--mode causal|think|fast]\n"
		"                              [--timeout S] [--mpiexec PATH] [--json]\n"
		"                              [--job ID [--finding CODE]]\n"
		"       ioatlas kernel publish DIR LOG --repo PATH --name NAME [--version V]\n"
		"       ioatlas kernel list|search [TERM] --from URL\n"
		"       ioatlas kernel pull NAME[@VERSION] --from URL [-o DIR]\n"
		"       ioatlas kernel push DIR --to URL [--netrc FILE] [--anonymize [--key-file "
		"F]]\n"
		"       ioatlas kernel nightly [--repo PATH] [--url URL] [--days N] [--top N]\n"
		"\n");
	/* In pieces: C compilers bound a literal's length. */
	fputs("gen: writes the job's I/O kernel into DIR (default: kernel): kernel.c, a small\n"
	      "MPI program that makes the job's I/O calls with its compute gaps and its\n"
	      "synchronization, and a Makefile.  File names are anonymous (f0, f1, ...) unless\n"
	      "--keep-names.  A job that called HDF5 gets a kernel that calls HDF5 (its files,\n"
	      "datasets, selections and transfer modes; the Makefile links pkg-config's\n"
	      "$(HDF5), hdf5-mpich by default) unless --level mpiio: then the MPI-IO and POSIX\n"
	      "calls HDF5 made.  A kernel longer than --max-size (40000 bytes; 0: no bound) is\n"
	      "written as epochs, the most that fit (--epochs N: that many): a stream's calls\n"
	      "between its other calls as their totals, MPI calls as the time they took, a\n"
	      "barrier ending each epoch; its I/O counters stay the job's.\n"
	      "validate: builds the kernel in DIR, runs it under the runtime with the job's\n"
	      "rank count (MPICC and mpiexec.mpich, or --mpiexec: Open MPI's, mpiexec.openmpi,\n"
	      "with MPICC or mpicc.openmpi), and compares its log with the job's, file by\n"
	      "file and counter by counter; prints each layer's reads, writes and bytes, the\n"
	      "calls the kernel leaves out and the replay time error.  Exits 1 when a\n"
	      "counter differs or a call is left out.  --mode: how the kernel replays\n"
	      "(causal, the default; think: gaps as fixed, no synchronization; fast: no\n"
	      "gaps).  --bytes-scale X: every transfer, offset and size times X; the calls\n"
	      "must still be the job's, its bytes X times the job's within a byte a call.\n"
	      "LOG may be another run of the same job, e.g. on the storage the kernel is to\n"
	      "be judged on.\n",
	      out);
	fputs("what-if: builds the kernel in DIR, then runs it --runs times (5) as the job ran\n"
	      "and as many with a change, alternating, each in a fresh folder prepared first:\n"
	      "--hint KEY=VALUE at every MPI_File_open (over the job's own), POSIX transfers\n"
	      "of --transfer-size bytes at most, explicit offsets rounded up to --align\n"
	      "bytes; prints the runs' seconds, their medians and the difference.  With\n"
	      "--job, records the result for the job's report, beside the finding --finding\n"
	      "names (a finding's code, as ioatlas analyze lists them).\n"
	      "publish: validates the kernel, then adds it to the site repository at PATH\n"
	      "(index.json, kernels/NAME/VERSION/ with meta.json and SHA256SUMS).\n"
	      "list, search, pull: read a repository over file://, http:// or https://;\n"
	      "pull verifies checksums and lands whole or not at all.  push sends a\n"
	      "published kernel (a repository's kernels/NAME/VERSION, or a pull) to a\n"
	      "central repository: HTTP PUT with credentials from a netrc file, or file://;\n"
	      "--anonymize sends it fit to leave the site: its file names, name and job log\n"
	      "as tokens keyed with the site's key (--key-file, or export.key_file).\n"
	      "nightly: for the --top executables (5) by bytes over the last --days (1), the\n"
	      "job of each that moved the most within kernel.nightly_max_ranks: kernel\n"
	      "generated, validated, published as PROGRAM@JOB into PATH, recorded in the\n"
	      "warehouse (its report links to --url).  A job that moved more than\n"
	      "kernel.nightly_max_bytes is replayed with its bytes scaled down to that (at\n"
	      "MPI-IO's level); each step of a replay stops after kernel.nightly_timeout.\n"
	      "A kernel that fails is said and the others still made: the nightly fails\n"
	      "only when it cannot run at all.\n"
	      "\n"
	      "Settings (ioatlas.conf(5)): warehouse.conninfo, kernel.repository,\n"
	      "kernel.repository_url, kernel.nightly_top, kernel.nightly_days,\n"
	      "kernel.nightly_max_ranks, kernel.nightly_max_bytes, kernel.nightly_timeout,\n"
	      "kernel.runtime, kernel.stall_timeout (list, search, pull, push); the options\n"
	      "override them.\n",
	      out);
}

/* libioatlas.so beside this program: installed, or in the build tree. */
static const char *runtime_lib(char *buf, size_t len)
{
	char self[PATH_MAX];

	if (ioa_file_exe_dir(self, sizeof(self)))
		return NULL;
	if (snprintf(buf, len, "%s/../../%s/libioatlas.so", self, IOATLAS_LIBDIR) < (int)len &&
	    !access(buf, R_OK))
		return buf;
	if (snprintf(buf, len, "%s/../../lib/libioatlas.so", self) >= (int)len)
		return NULL;
	return access(buf, R_OK) ? NULL : buf;
}

static int validate(int argc, char **argv)
{
	struct kvalidate_options o = {.timeout = 600, .progress = 1};
	struct kvalidate_result res;
	struct ioa_buf err = IOA_BUF_INIT(IOA_LOG_LINE_MAX);
	const char *dir = NULL, *log = NULL;
	char lib[PATH_MAX];
	int c, rc;
	static const struct option longs[] = {
		{"runtime", required_argument, NULL, 'R'},
		{"timeout", required_argument, NULL, 'T'},
		{"mode", required_argument, NULL, 'M'},
		{"bytes-scale", required_argument, NULL, 'B'},
		{"mpiexec", required_argument, NULL, 'X'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};

	while ((c = ioa_getopt(argc, argv, "h", longs)) != -1) {
		if (c == 'h') {
			usage(stdout);
			return IOA_EXIT_OK;
		} else if (c == 'X') {
			o.mpiexec = optarg;
		} else if (c == 'B') {
			char *end;

			o.bytes_scale = strtod(optarg, &end);
			if (end == optarg || *end || !(o.bytes_scale > 0) || o.bytes_scale > 1e6) {
				ioa_error("--bytes-scale: not a factor above 0: '%s'", optarg);
				return IOA_EXIT_USAGE;
			}
		} else if (c == 'R') {
			o.runtime = optarg;
		} else if (c == 'T') {
			if (ioa_parse_int(optarg, 1, INT32_MAX, &o.timeout)) {
				ioa_error("--timeout: not a number of seconds: '%s'", optarg);
				return IOA_EXIT_USAGE;
			}
		} else if (c == 'M') {
			o.mode = optarg;
		} else {
			usage(stderr);
			return IOA_EXIT_USAGE;
		}
	}
	if (argc - optind == 2) {
		dir = argv[optind];
		log = argv[optind + 1];
	}
	if (!dir || !log ||
	    (o.mode && strcmp(o.mode, "causal") && strcmp(o.mode, "think") &&
	     strcmp(o.mode, "fast"))) {
		usage(stderr);
		return IOA_EXIT_USAGE;
	}
	if (!o.runtime && !(o.runtime = runtime_lib(lib, sizeof(lib)))) {
		ioa_error("no libioatlas.so beside this program: name it with --runtime");
		return 1;
	}
	rc = kvalidate(dir, log, &o, stdout, &res, &err);
	if (rc) {
		ioa_error("%s", err.len ? ioa_buf_str(&err) : ioa_strerror(rc));
		ioa_buf_release(&err);
		return 1;
	}
	printf("%s: %u records, %u counters compared: %s\n", dir, res.records, res.counters,
	       res.differ ? "they differ (above)" : "identical");
	if (res.skipped)
		printf("%s: calls not replayed in %u place%s (above): the kernel falls short of "
		       "the "
		       "job\n",
		       dir, res.skipped, res.skipped == 1 ? "" : "s");
	printf("replay time: job %.3f s, kernel %.3f s, error %+.1f%%\n", res.job_seconds,
	       res.kernel_seconds, res.time_error * 100);
	ioa_buf_release(&err);
	return res.differ || res.skipped ? 1 : 0;
}

/* Kernel files: written whole, with the mode the user's umask gives new files. */
static int write_file(const char *path, int (*fn)(FILE *out, void *arg), void *arg)
{
	mode_t mask = umask(0);

	umask(mask);
	return ioa_file_write(path, 0666 & ~mask, (uid_t)-1, (gid_t)-1, fn, arg);
}

struct gen_arg {
	const char *log;
	struct kgen_options o;
	struct kgen_summary sum;
	struct ioa_buf err;
};

static int write_kernel(FILE *out, void *arg)
{
	struct gen_arg *a = arg;

	return kgen_log(a->log, &a->o, out, &a->sum, &a->err);
}

static int write_makefile(FILE *out, void *arg)
{
	const struct gen_arg *a = arg;

	return fprintf(out, makefile, a->sum.hdf5 ? makefile_hdf5 : "LIBS =\n") < 0 ? -EIO : 0;
}

/* --level: auto, hdf5 or mpiio; -1 for anything else (said). */
static int kernel_level(const char *s)
{
	if (!strcmp(s, "auto"))
		return KGEN_AUTO;
	if (!strcmp(s, "hdf5"))
		return KGEN_HDF5;
	if (!strcmp(s, "mpiio"))
		return KGEN_MPIIO;
	ioa_error("--level: '%s' is none of auto, hdf5, mpiio", s);
	return -1;
}

static int gen(int argc, char **argv)
{
	struct gen_arg a = {.o.max_size = KGEN_MAX_SIZE, .err = IOA_BUF_INIT(IOA_LOG_LINE_MAX)};
	const char *dir = "kernel";
	uint64_t size;
	int epochs;
	char path[PATH_MAX];
	struct stat st;
	int c, rc;
	static const struct option longs[] = {
		{"keep-names", no_argument, NULL, 'K'},
		{"level", required_argument, NULL, 'L'},
		{"max-size", required_argument, NULL, 'M'},
		{"epochs", required_argument, NULL, 'E'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};

	while ((c = ioa_getopt(argc, argv, "o:h", longs)) != -1) {
		if (c == 'M' && (ioa_parse_size(optarg, &size) || size > SIZE_MAX)) {
			ioa_error("--max-size: '%s' is not a size (bytes, 64k; 0: no bound)",
				  optarg);
			return IOA_EXIT_USAGE;
		} else if (c == 'M') {
			a.o.max_size = (size_t)size;
			continue;
		}
		if (c == 'E' && ioa_parse_int(optarg, 1, KGEN_EPOCHS_MAX, &epochs)) {
			ioa_error("--epochs: '%s' is not a number of epochs from 1 to %d", optarg,
				  KGEN_EPOCHS_MAX);
			return IOA_EXIT_USAGE;
		} else if (c == 'E') {
			a.o.epochs = (unsigned)epochs;
			continue;
		}
		if (c == 'h') {
			usage(stdout);
			return IOA_EXIT_OK;
		} else if (c == 'o') {
			dir = optarg;
		} else if (c == 'K') {
			a.o.keep_names = 1;
		} else if (c == 'L' && (a.o.level = kernel_level(optarg)) >= 0) {
			continue;
		} else {
			usage(stderr);
			return IOA_EXIT_USAGE;
		}
	}
	if (argc - optind != 1) {
		usage(stderr);
		return IOA_EXIT_USAGE;
	}
	a.log = argv[optind];
	if (mkdir(dir, 0755) && errno != EEXIST) {
		ioa_error("cannot create '%s': %s", dir, strerror(errno));
		return 1;
	}
	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		ioa_error("'%s' is not a folder", dir);
		return 1;
	}
	snprintf(path, sizeof(path), "%s/kernel.c", dir);
	rc = write_file(path, write_kernel, &a);
	if (!rc) {
		snprintf(path, sizeof(path), "%s/Makefile", dir);
		rc = write_file(path, write_makefile, &a);
	}
	if (rc) {
		ioa_error("%s", a.err.len ? ioa_buf_str(&a.err) : ioa_strerror(rc));
		ioa_buf_release(&a.err);
		return 1;
	}
	snprintf(path, sizeof(path), "%s/kernel.c", dir);
	if (stat(path, &st))
		st.st_size = 0;
	printf("%s: %u ranks in %u group%s merged into %u part%s, %u calls in %u loops, %u files, "
	       "%u tables, %u calls not replayed, %lld bytes of C\n",
	       path, a.sum.ranks, a.sum.groups, a.sum.groups == 1 ? "" : "s", a.sum.parts,
	       a.sum.parts == 1 ? "" : "s", a.sum.calls, a.sum.loops, a.sum.files, a.sum.tables,
	       a.sum.skipped, (long long)st.st_size);
	if (a.sum.epochs)
		printf("%s: compact, in %u epochs: %" PRIu64 " stream calls as %" PRIu64
		       " totals, %" PRIu64 " MPI calls as the time they took\n",
		       path, a.sum.epochs, a.sum.stdio_summed, a.sum.stdio_totals,
		       a.sum.mpi_as_time);
	if (a.sum.calls_exact < a.sum.calls_total)
		printf("%s: covers the %" PRIu64
		       " calls the trace kept exactly, of the job's %" PRIu64
		       " (the trace summarised the rest)\n",
		       path, a.sum.calls_exact, a.sum.calls_total);
	kgen_summary_release(&a.sum);
	ioa_buf_release(&a.err);
	return 0;
}

/*
 * The kernel.* settings, one table for every verb that reads them: a key
 * under kernel. that one verb did not know would be refused as a typo.
 */
static struct ioa_db_settings db;
static char *repo_path, *repo_url, *runtime_path, *key_setting;
static long long ndays, ntop, max_ranks, max_bytes;
static double stall_timeout_s, nightly_timeout_s;
static const struct ioa_setting settings[] = {
	IOA_DB_SETTINGS(&db),
	{"kernel.repository", IOA_SET_TEXT, &repo_path, "",
	 "the site kernel repository the nightly kernels are published into"},
	{"kernel.repository_url", IOA_SET_TEXT, &repo_url, "",
	 "where a web server serves that folder (reports link there)"},
	{"kernel.nightly_top", IOA_SET_COUNT, &ntop, "5",
	 "executables with the most bytes that get a kernel each night"},
	{"kernel.nightly_days", IOA_SET_COUNT, &ndays, "1",
	 "days of jobs the nightly kernels are chosen from"},
	{"kernel.nightly_max_ranks", IOA_SET_COUNT, &max_ranks, "16",
	 "the most ranks a nightly kernel is replayed with on this host (a larger job is "
	 "passed over for a smaller run of its program)"},
	{"kernel.nightly_max_bytes", IOA_SET_SIZE, &max_bytes, "1GiB",
	 "the most bytes a nightly replay moves: a job that moved more is replayed scaled "
	 "down to it"},
	{"kernel.nightly_timeout", IOA_SET_SECONDS, &nightly_timeout_s, "10m",
	 "each step of a nightly replay (build, prepare, run) is stopped after this"},
	{"kernel.runtime", IOA_SET_TEXT, &runtime_path, "",
	 "the runtime the kernels are validated under (empty: the one installed here)"},
	{"kernel.stall_timeout", IOA_SET_SECONDS, &stall_timeout_s, "30s",
	 "a transfer from or to a repository under 1 KiB/s this long is abandoned"},
	{"export.key_file", IOA_SET_TEXT, &key_setting, "",
	 "the site's key for what is anonymized to leave the site (push --anonymize)"},
};
static const size_t nsettings = sizeof(settings) / sizeof(settings[0]);

/* A what-if's result as JSON, on standard output. */
static void json_printf_whatif(const char *dir, const char *change,
			       const struct kvalidate_whatif_result *r, double diff)
{
	json_object *o = json_object_new_object(), *base = json_object_new_array(),
		    *changed = json_object_new_array();

	for (int i = 0; i < r->runs; i++) {
		json_object_array_add(base, json_object_new_double(r->base[i]));
		json_object_array_add(changed, json_object_new_double(r->changed[i]));
	}
	json_object_object_add(o, "kernel", json_object_new_string(dir));
	json_object_object_add(o, "change", json_object_new_string(change));
	json_object_object_add(o, "runs", json_object_new_int(r->runs));
	json_object_object_add(o, "base_seconds", base);
	json_object_object_add(o, "changed_seconds", changed);
	json_object_object_add(o, "base_median", json_object_new_double(r->base_median));
	json_object_object_add(o, "changed_median", json_object_new_double(r->changed_median));
	json_object_object_add(o, "difference", json_object_new_double(diff));
	puts(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
						       JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
}

/* Records a what-if replay for its job (job_whatif), for the job's report. */
static int whatif_record(const char *job, const char *finding, const char *change,
			 const char *kernel, const struct kvalidate_whatif_result *r,
			 struct ioa_buf *err)
{
	static const char sql[] =
		"INSERT INTO job_whatif (job, start_time, change, finding, kernel, runs, "
		"base_seconds, changed_seconds) "
		"SELECT id, start_time, $2, $3, $4, $5::integer, $6::double precision, "
		"$7::double precision FROM jobs WHERE id = $1::bigint "
		"ON CONFLICT (job, start_time, change) DO UPDATE SET finding = EXCLUDED.finding, "
		"kernel = EXCLUDED.kernel, runs = EXCLUDED.runs, base_seconds = "
		"EXCLUDED.base_seconds, changed_seconds = EXCLUDED.changed_seconds, run_at = now() "
		"RETURNING job";
	char runs[16], base[32], changed[32];
	const char *p[] = {job, change, finding, kernel, runs, base, changed};
	PGconn *conn;
	PGresult *res;
	int rc = 0;

	if (ioa_conf_load(settings, nsettings, err))
		return -EINVAL;
	snprintf(runs, sizeof(runs), "%d", r->runs);
	snprintf(base, sizeof(base), "%.9g", r->base_median);
	snprintf(changed, sizeof(changed), "%.9g", r->changed_median);
	if (!(conn = ioa_db_connect(db.conninfo, "ioatlas kernel", err))) {
		ioa_conf_free(settings, nsettings);
		return -ECONNREFUSED;
	}
	res = ioa_db_query(conn, sql, 7, p, err, NULL, NULL);
	if (!res)
		rc = -EIO;
	else if (PQntuples(res) != 1) {
		ioa_buf_addf(err, "no job %s in the warehouse", job);
		rc = -ENOENT;
	}
	PQclear(res);
	PQfinish(conn);
	ioa_conf_free(settings, nsettings);
	return rc;
}

/*
 * what-if: the kernel replayed as the job ran and with one change, runs
 * alternating, medians compared; with --job, recorded for its report.
 */
static int whatif(int argc, char **argv)
{
	struct kvalidate_options o = {.timeout = 600};
	struct kvalidate_whatif w = {.runs = 5};
	struct kvalidate_whatif_result r;
	struct ioa_buf err = IOA_BUF_INIT(IOA_LOG_LINE_MAX), what = IOA_BUF_INIT(256);
	const char *job = NULL, *finding = NULL;
	char *change[2 * 16 + 1], digits[16][24];
	int c, n = 0, json = 0, rc, i;
	double diff;
	static const struct option longs[] = {
		{"hint", required_argument, NULL, 'H'},
		{"transfer-size", required_argument, NULL, 'S'},
		{"align", required_argument, NULL, 'A'},
		{"runs", required_argument, NULL, 'n'},
		{"mode", required_argument, NULL, 'M'},
		{"timeout", required_argument, NULL, 'T'},
		{"job", required_argument, NULL, 'J'},
		{"finding", required_argument, NULL, 'F'},
		{"mpiexec", required_argument, NULL, 'X'},
		{"json", no_argument, NULL, 'j'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};

	while ((c = ioa_getopt(argc, argv, "hj", longs)) != -1) {
		uint64_t v = 0;
		int bad = 0;

		if (c == 'h') {
			usage(stdout);
			return IOA_EXIT_OK;
		} else if (c == 'H' || c == 'S' || c == 'A') {
			const char *key = c == 'H'   ? "--hint"
					  : c == 'S' ? "--transfer-size"
						     : "--align";

			/* A hint is KEY=VALUE, printable and without the kernel's separators. */
			if (c == 'H')
				for (i = 0, bad = !strchr(optarg, '=') || *optarg == '='; optarg[i];
				     i++)
					bad |= optarg[i] <= ' ' || optarg[i] > '~' ||
					       optarg[i] == ';';
			else
				bad = ioa_parse_size(optarg, &v) || v == 0 || v > INT32_MAX;
			if (bad) {
				ioa_error("%s: not %s: '%s'", key,
					  c == 'H' ? "KEY=VALUE (printable, no ';')"
						   : "a size from 1 byte to 2 GiB",
					  optarg);
				return IOA_EXIT_USAGE;
			}
			if (n >= 2 * 16) {
				ioa_error("at most 16 changes at once");
				return IOA_EXIT_USAGE;
			}
			change[n++] = (char *)key;
			change[n++] = optarg;
			if (c != 'H') { /* the kernel reads bytes, in digits */
				snprintf(digits[n / 2 - 1], sizeof(digits[0]), "%" PRIu64, v);
				change[n - 1] = digits[n / 2 - 1];
			}
		} else if (c == 'n') {
			if (ioa_parse_int(optarg, 1, KVALIDATE_WHATIF_RUNS, &w.runs)) {
				ioa_error("--runs: 1 to %d: '%s'", KVALIDATE_WHATIF_RUNS, optarg);
				return IOA_EXIT_USAGE;
			}
		} else if (c == 'M') {
			o.mode = optarg;
		} else if (c == 'T') {
			if (ioa_parse_int(optarg, 1, INT32_MAX, &o.timeout)) {
				ioa_error("--timeout: not a number of seconds: '%s'", optarg);
				return IOA_EXIT_USAGE;
			}
		} else if (c == 'J') {
			job = optarg;
		} else if (c == 'F') {
			finding = optarg;
		} else if (c == 'X') {
			o.mpiexec = optarg;
		} else if (c == 'j') {
			json = 1;
		} else {
			usage(stderr);
			return IOA_EXIT_USAGE;
		}
	}
	if (argc - optind != 1 || !n || (finding && !job) ||
	    (o.mode && strcmp(o.mode, "causal") && strcmp(o.mode, "think") &&
	     strcmp(o.mode, "fast"))) {
		if (!n && argc - optind == 1)
			ioa_error("no change asked (--hint, --transfer-size, --align)");
		else if (finding && !job)
			ioa_error("--finding needs --job");
		usage(stderr);
		return IOA_EXIT_USAGE;
	}
	if (job) {
		int64_t id;

		if (ioa_parse_i64(job, &id) || id <= 0) {
			ioa_error("--job: not a job id: '%s'", job);
			return IOA_EXIT_USAGE;
		}
	}
	change[n] = NULL;
	for (i = 0; i < n; i += 2)
		ioa_buf_addf(&what, "%s%s %s", i ? " " : "", change[i], change[i + 1]);
	w.change = change;
	rc = kvalidate_whatif(argv[optind], &o, &w, json ? stderr : stdout, &r, &err);
	if (!rc && job)
		rc = whatif_record(job, finding, ioa_buf_str(&what), argv[optind], &r, &err);
	if (rc) {
		ioa_error("%s", err.len ? ioa_buf_str(&err) : ioa_strerror(rc));
	} else {
		diff = r.base_median > 0 ? (r.changed_median - r.base_median) / r.base_median : 0;
		if (json) {
			json_printf_whatif(argv[optind], ioa_buf_str(&what), &r, diff);
		} else {
			printf("what-if: %s, %d run%s of each, alternating (seconds)\n",
			       argv[optind], r.runs, r.runs == 1 ? "" : "s");
			printf("%-40s %10s   runs\n", "", "median");
			for (int k = 0; k < 2; k++) {
				const double *v = k ? r.changed : r.base;

				printf("%-40.40s %10.4f  ",
				       k ? ioa_buf_str(&what) : "as the job ran",
				       k ? r.changed_median : r.base_median);
				for (i = 0; i < r.runs; i++)
					printf(" %.4f", v[i]);
				printf("\n");
			}
			printf("the change: %+.1f%% (%s)\n", diff * 100,
			       diff < 0	  ? "faster"
			       : diff > 0 ? "slower"
					  : "the same");
		}
	}
	ioa_buf_release(&what);
	ioa_buf_release(&err);
	return rc ? 1 : 0;
}

#ifdef IOATLAS_HAVE_CURL
static int publish(int argc, char **argv)
{
	struct kvalidate_options o = {.timeout = 600};
	struct ioa_buf err = IOA_BUF_INIT(IOA_LOG_LINE_MAX);
	const char *dir = NULL, *log = NULL, *repo = NULL, *name = NULL, *version = "1";
	char lib[PATH_MAX];
	int c, rc;
	static const struct option longs[] = {
		{"repo", required_argument, NULL, 'P'},
		{"name", required_argument, NULL, 'N'},
		{"version", required_argument, NULL, 'V'},
		{"runtime", required_argument, NULL, 'R'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};

	while ((c = ioa_getopt(argc, argv, "h", longs)) != -1) {
		if (c == 'h') {
			usage(stdout);
			return IOA_EXIT_OK;
		} else if (c == 'P') {
			repo = optarg;
		} else if (c == 'N') {
			name = optarg;
		} else if (c == 'V') {
			version = optarg;
		} else if (c == 'R') {
			o.runtime = optarg;
		} else {
			usage(stderr);
			return IOA_EXIT_USAGE;
		}
	}
	if (argc - optind == 2) {
		dir = argv[optind];
		log = argv[optind + 1];
	}
	if (!dir || !log || !repo || !name) {
		usage(stderr);
		return IOA_EXIT_USAGE;
	}
	if (!o.runtime && !(o.runtime = runtime_lib(lib, sizeof(lib)))) {
		ioa_error("no libioatlas.so beside this program: name it with --runtime");
		return 1;
	}
	rc = krepo_publish(dir, log, repo, name, version, &o, stdout, &err);
	if (rc)
		ioa_error("%s", err.len ? ioa_buf_str(&err) : ioa_strerror(rc));
	else
		printf("published %s@%s into %s (validated: the job's counters, identical)\n", name,
		       version, repo);
	ioa_buf_release(&err);
	return rc ? 1 : 0;
}

/*
 * list [TERM] --from URL, pull NAME[@V] --from URL [-o DIR],
 * push DIR --to URL [--netrc F] [--anonymize [--key-file F]]
 */
static int remote(const char *verb, int argc, char **argv)
{
	struct ioa_buf err = IOA_BUF_INIT(IOA_LOG_LINE_MAX);
	struct krepo_transfer t = KREPO_TRANSFER_INIT;
	const char *url = NULL, *what = NULL, *out = NULL, *netrc = NULL, *key_file = NULL;
	struct ioa_anon anon;
	char dir[PATH_MAX];
	int c, rc, anonymize = 0, push = !strcmp(verb, "push");
	static const struct option longs[] = {
		{"from", required_argument, NULL, 'F'},
		{"to", required_argument, NULL, 'F'},
		{"netrc", required_argument, NULL, 'N'},
		{"anonymize", no_argument, NULL, 'A'},
		{"key-file", required_argument, NULL, 'K'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};

	while ((c = ioa_getopt(argc, argv, "o:h", longs)) != -1) {
		if (c == 'h') {
			usage(stdout);
			return IOA_EXIT_OK;
		} else if (c == 'F') {
			url = optarg;
		} else if (c == 'o') {
			out = optarg;
		} else if (c == 'N') {
			netrc = optarg;
		} else if (c == 'A' && push) {
			anonymize = 1;
		} else if (c == 'K' && push) {
			key_file = optarg;
		} else {
			if (c == 'A' || c == 'K')
				ioa_error("only push anonymizes");
			usage(stderr);
			return IOA_EXIT_USAGE;
		}
	}
	if (argc - optind > 1) {
		usage(stderr);
		return IOA_EXIT_USAGE;
	}
	what = argc - optind == 1 ? argv[optind] : NULL;
	if (!url || (!what && strcmp(verb, "list"))) {
		usage(stderr);
		return IOA_EXIT_USAGE;
	}
	if (ioa_conf_load(settings, nsettings, &err)) {
		ioa_error("%s", ioa_buf_str(&err));
		ioa_buf_release(&err);
		return 1;
	}
	t.stall_timeout_s = stall_timeout_s;
	if (!key_file && anonymize && key_setting[0])
		key_file = key_setting;
	rc = 0;
	if (key_file && !anonymize) {
		ioa_error("a key without --anonymize: nothing would be anonymized");
		rc = 2;
	} else if (anonymize && !key_file) {
		ioa_error("--anonymize needs the site's key: --key-file FILE or export.key_file");
		rc = 2;
	} else if (anonymize && ioa_anon_load_key(&anon, key_file, &err)) {
		ioa_error("%s", ioa_buf_str(&err));
		rc = 1;
	}
	ioa_conf_free(settings, nsettings);
	if (rc) {
		ioa_buf_release(&err);
		return rc;
	}
	if (t.stall_timeout_s < 1) {
		ioa_error("kernel.stall_timeout is %g s: it must be at least 1 s",
			  t.stall_timeout_s);
		ioa_buf_release(&err);
		return 1;
	}
	if (!strcmp(verb, "list") || !strcmp(verb, "search")) {
		rc = krepo_list(url, what, &t, stdout, &err);
	} else if (!strcmp(verb, "pull")) {
		snprintf(dir, sizeof(dir), "%s", out ? out : what);
		if (!out)
			dir[strcspn(dir, "@")] = '\0';
		rc = krepo_pull(url, what, dir, &t, &err);
		if (!rc)
			printf("pulled %s into %s (checksums verified)\n", what, dir);
	} else {
		rc = krepo_push(what, url, netrc, anonymize ? &anon : NULL, &t, &err);
		if (anonymize)
			ioa_anon_clear(&anon);
		if (!rc)
			printf("pushed %s to %s%s\n", what, url, anonymize ? " (anonymized)" : "");
	}
	if (rc)
		ioa_error("%s", err.len ? ioa_buf_str(&err) : ioa_strerror(rc));
	ioa_buf_release(&err);
	return rc ? 1 : 0;
}
#endif

#ifdef IOATLAS_HAVE_CURL
static int rm_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return type == FTW_DP ? rmdir(path) : unlink(path);
}

/* A scratch folder and everything in it. */
static void rm_tree(const char *dir)
{
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/*
 * The nightly kernels: for the executables that moved the most bytes over
 * the last days, the job of each that moved the most within the rank cap
 * and whose log (with its trace) is still where the collector found it, a
 * kernel generated, validated and published as EXE-NAME@JOB-ID, and
 * recorded in the warehouse (job_kernels) so that the job's report links
 * to it.  The replay is kept within the site's caps (ranks, bytes: scaled
 * down, time per step); a kernel that fails is said, and the others made.
 */
static int nightly(int argc, char **argv)
{
	static const char sql[] =
		"SELECT DISTINCT ON (e.id) j.id, j.start_time::text, l.path, e.display, j.nprocs, "
		"j.bytes_read + j.bytes_written "
		"FROM jobs j JOIN executables e ON e.id = j.exe_id JOIN ingest_ledger l ON l.id = "
		"j.ledger "
		"WHERE j.start_time >= now() - make_interval(days => $1::integer) "
		"AND e.id IN (SELECT exe_id FROM jobs WHERE start_time >= now() - "
		"make_interval(days => "
		"$1::integer) GROUP BY exe_id ORDER BY sum(bytes_read + bytes_written) DESC LIMIT "
		"$2) "
		"AND EXISTS (SELECT 1 FROM traces t WHERE t.job = j.id AND t.start_time = "
		"j.start_time) "
		"ORDER BY e.id, j.nprocs <= $3::integer DESC, "
		"CASE WHEN j.nprocs <= $3::integer THEN 0 ELSE j.nprocs END, "
		"j.bytes_read + j.bytes_written DESC, j.id DESC";
	static const char sql_record[] =
		"INSERT INTO job_kernels (job, start_time, name, version, url) "
		"VALUES ($1, $2, $3, $4, $5) ON CONFLICT (job, start_time, name, version) "
		"DO UPDATE SET url = EXCLUDED.url, published_at = now()";
	struct kvalidate_options o = {.timeout = 600};
	struct ioa_buf err = IOA_BUF_INIT(IOA_LOG_LINE_MAX);
	char lib[PATH_MAX], days[24], top[24], ranks_cap[24];
	PGconn *conn = NULL;
	PGresult *res = NULL;
	int i, c, done = 0, failed = 0, passed = 0, status = IOA_EXIT_FAIL;
	static const struct option longs[] = {
		{"repo", required_argument, NULL, 'P'},
		{"url", required_argument, NULL, 'U'},
		{"days", required_argument, NULL, 'D'},
		{"top", required_argument, NULL, 'T'},
		{"runtime", required_argument, NULL, 'R'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};

	if (ioa_conf_load(settings, nsettings, &err)) {
		ioa_error("%s", ioa_buf_str(&err));
		ioa_buf_release(&err);
		return 1;
	}
	while ((c = ioa_getopt(argc, argv, "h", longs)) != -1) {
		int bad = 0;

		if (c == 'h') {
			usage(stdout);
			status = IOA_EXIT_OK;
			goto out;
		} else if (c == 'P' || c == 'U') {
			char **text = c == 'P' ? &repo_path : &repo_url;

			free(*text);
			*text = strdup(optarg);
			bad = !*text;
		} else if (c == 'D' || c == 'T') {
			bad = ioa_conf_parse(IOA_SET_COUNT, optarg, c == 'D' ? &ndays : &ntop);
			if (bad)
				ioa_error("--%s: not a count: '%s'", c == 'D' ? "days" : "top",
					  optarg);
		} else if (c == 'R') {
			o.runtime = optarg;
		} else {
			bad = 1;
		}
		if (bad) {
			usage(stderr);
			status = IOA_EXIT_USAGE;
			goto out;
		}
	}
	if (optind != argc) {
		ioa_error("no operand expected: '%s'", argv[optind]);
		usage(stderr);
		status = IOA_EXIT_USAGE;
		goto out;
	}
	if (!repo_path || !*repo_path || ndays <= 0 || ntop <= 0 || max_ranks <= 0 ||
	    max_ranks > INT32_MAX || max_bytes <= 0 || nightly_timeout_s < 1) {
		ioa_error(!repo_path || !*repo_path
				  ? "no kernel repository: kernel.repository or --repo"
			  : ndays <= 0 || ntop <= 0
				  ? "--days and --top count from 1"
				  : "kernel.nightly_max_ranks, kernel.nightly_max_bytes "
				    "and kernel.nightly_timeout (1 s) must be at least 1");
		status = IOA_EXIT_USAGE;
		goto out;
	}
	o.timeout = nightly_timeout_s > INT32_MAX ? INT32_MAX : (int)nightly_timeout_s;
	snprintf(days, sizeof(days), "%lld", ndays);
	snprintf(top, sizeof(top), "%lld", ntop);
	snprintf(ranks_cap, sizeof(ranks_cap), "%lld", max_ranks);
	if (!o.runtime && *runtime_path)
		o.runtime = runtime_path;
	if (!o.runtime && !(o.runtime = runtime_lib(lib, sizeof(lib)))) {
		ioa_error("no libioatlas.so beside this program: name it with --runtime");
		goto out;
	}
	if (!(conn = ioa_db_connect(db.conninfo, "ioatlas kernel", &err))) {
		ioa_error("%s", ioa_buf_str(&err));
		goto out;
	}
	res = ioa_db_query(conn, sql, 3, (const char *const[]){days, top, ranks_cap}, &err, NULL,
			   NULL);
	if (!res) {
		ioa_error("%s", ioa_buf_str(&err));
		goto out;
	}
	ioa_progress_begin("making kernels", (unsigned long long)PQntuples(res));
	for (i = 0; i < PQntuples(res); i++) {
		const char *id = PQgetvalue(res, i, 0), *log = PQgetvalue(res, i, 2);
		const char *exe = strrchr(PQgetvalue(res, i, 3), '/');
		char name[128], dir[PATH_MAX], where[PATH_MAX + 300];
		struct gen_arg a = {.log = log,
				    .o.max_size = KGEN_MAX_SIZE,
				    .err = IOA_BUF_INIT(IOA_LOG_LINE_MAX)};
		long long nprocs = atoll(PQgetvalue(res, i, 4));
		double bytes = atof(PQgetvalue(res, i, 5));
		size_t k;
		int rc, published;

		/* The kernel's name: the program's, in the characters a repository takes. */
		snprintf(name, sizeof(name), "%s", exe ? exe + 1 : PQgetvalue(res, i, 3));
		for (k = 0; name[k]; k++)
			if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
				    "._-",
				    name[k]))
				name[k] = '_';
		if (!kpkg_safe_name(name))
			snprintf(name, sizeof(name), "job");
		ioa_progress_step((unsigned long long)i + 1);
		/* Every run of the program is over the rank cap (this is its smallest). */
		if (nprocs > max_ranks) {
			ioa_progress_clear();
			printf("job %s: no kernel: %s's smallest run had %lld ranks, over "
			       "kernel.nightly_max_ranks (%lld)\n",
			       id, name, nprocs, max_ranks);
			passed++;
			ioa_buf_release(&a.err);
			continue;
		}
		/* Its bytes scaled down to the cap, at MPI-IO's level (HDF5's datasets keep
		 * theirs). */
		o.bytes_scale = bytes > (double)max_bytes ? (double)max_bytes / bytes : 1;
		if (o.bytes_scale < 1)
			a.o.level = KGEN_MPIIO;
		/* Made and validated in a scratch folder, removed after. */
		snprintf(dir, sizeof(dir), "%s/ioatlas-kernel-XXXXXX",
			 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
		snprintf(where, sizeof(where), "%s/kernels/%s/%s", repo_path, name, id);
		published = !access(where, F_OK); /* on an earlier night: recorded again */
		ioa_buf_reset(&err);
		rc = published ? 0 : mkdtemp(dir) ? 0 : -errno;
		if (!rc && !published) {
			char path[PATH_MAX + 16];

			snprintf(path, sizeof(path), "%s/kernel.c", dir);
			rc = write_file(path, write_kernel, &a);
			snprintf(path, sizeof(path), "%s/Makefile", dir);
			rc = rc ? rc : write_file(path, write_makefile, &a);
			if (rc && a.err.len)
				ioa_buf_addstr(&err, ioa_buf_str(&a.err));
		}
		if (!published)
			rc = rc ? rc
				: krepo_publish(dir, log, repo_path, name, id, &o, stdout, &err);
		if (!published)
			rm_tree(dir);
		kgen_summary_release(&a.sum);
		ioa_buf_release(&a.err);
		if (!rc) {
			char link[PATH_MAX + 400];
			const char *p[] = {id, PQgetvalue(res, i, 1), name, id, link};

			if (*repo_url)
				snprintf(link, sizeof(link), "%s%skernels/%s/%s/", repo_url,
					 repo_url[strlen(repo_url) - 1] == '/' ? "" : "/", name,
					 id);
			else
				snprintf(link, sizeof(link), "file://%s/", where);
			rc = ioa_db_exec(conn, sql_record, 5, p, &err);
		}
		if (rc) {
			ioa_error("job %s: no kernel: %s", id,
				  err.len ? ioa_buf_str(&err) : ioa_strerror(rc));
			failed++;
		} else {
			ioa_progress_clear();
			if (o.bytes_scale < 1)
				printf("job %s: kernel %s@%s published (replayed with its bytes "
				       "scaled by %.3g)\n",
				       id, name, id, o.bytes_scale);
			else
				printf("job %s: kernel %s@%s published\n", id, name, id);
			done++;
		}
	}
	ioa_progress_end();
	printf("ioatlas kernel nightly: %d kernels published, %d failed, %d over the caps\n", done,
	       failed, passed);
	status = IOA_EXIT_OK;
out:
	PQclear(res);
	if (conn)
		PQfinish(conn);
	ioa_conf_free(settings, nsettings);
	ioa_buf_release(&err);
	return status;
}
#endif

int main(int argc, char **argv)
{
	ioa_log_set_progname("ioatlas kernel");
	if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		usage(stdout);
		return 0;
	}
	/* Each subcommand reads its options from argv[1] on (getopt skips its name). */
	if (argc >= 2 && !strcmp(argv[1], "gen"))
		return gen(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "validate"))
		return validate(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "what-if"))
		return whatif(argc - 1, argv + 1);
	if (argc >= 2 && (!strcmp(argv[1], "publish") || !strcmp(argv[1], "list") ||
			  !strcmp(argv[1], "search") || !strcmp(argv[1], "pull") ||
			  !strcmp(argv[1], "push") || !strcmp(argv[1], "nightly"))) {
#ifdef IOATLAS_HAVE_CURL
		if (!strcmp(argv[1], "publish"))
			return publish(argc - 1, argv + 1);
		if (!strcmp(argv[1], "nightly"))
			return nightly(argc - 1, argv + 1);
		return remote(argv[1], argc - 1, argv + 1);
#else
		ioa_error("this ioatlas was built without libcurl: no kernel repositories");
		return 1;
#endif
	}
	usage(stderr);
	return IOA_EXIT_USAGE;
}
