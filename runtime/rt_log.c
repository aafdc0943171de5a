/*
 * rt_log — serialises the records for the log (see rt_log.h).  Derived
 * counters (the four most common access sizes and strides) are filled in
 * here, once, rather than on every call.
 */
#define _GNU_SOURCE
#include "rt_log.h"
#include "rt_libs.h"
#include "rt_spill.h"

#include <errno.h>
#include <fcntl.h>
#include <mntent.h>
#include <pthread.h>
#include <pwd.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <zlib.h>

#include "ioa_logfmt.h"
#include "ioa_logr.h"
#include "rt_core.h"
#include "rt_posix.h"
#include "rt_stdio.h"
#include "rt_records.h"
#include "rt_trace.h"

const char *rt_log_ranks;
double rt_log_tick_s;
const char *rt_log_tree;
const char *rt_log_procs;
const char *rt_log_args;
size_t rt_log_args_len;
uint64_t rt_log_end_ns;
uint64_t rt_log_job_start_ns;
uint64_t rt_log_rank_start_ns;
const char *rt_log_clock;
const char *rt_log_partial;
uid_t rt_log_uid = (uid_t)-1;
const char *rt_log_env;
size_t rt_log_env_len;

const char *rt_log_getenv(const char *name)
{
	const char *e = rt_log_env, *end = rt_log_env + rt_log_env_len;
	size_t len = strlen(name);

	if (!rt_log_env)
		return getenv(name);
	for (; e < end && *e; e += strnlen(e, (size_t)(end - e)) + 1)
		if ((size_t)(end - e) > len && !strncmp(e, name, len) && e[len] == '=')
			return e + len + 1;
	return NULL;
}

void rt_log_on_job_clock(uint64_t job_start_ns, uint64_t rank_start_ns)
{
	/* Whole ticks, as the times are kept (seconds per tick: rt_log_tick_s). */
	uint64_t ticks =
		rt_log_tick_s > 0
			? (uint64_t)((double)(rank_start_ns - job_start_ns) * 1e-9 / rt_log_tick_s +
				     0.5)
			: 0;

	rt_records_shift(ticks);
	rt_trace_shift(ticks);
	rt_log_job_start_ns = job_start_ns;
	rt_log_rank_start_ns = rank_start_ns;
}

void rt_log_on_wall_clock(uint64_t job_start_ns)
{
	if (!job_start_ns || rt.start_real_ns < job_start_ns)
		return;
	rt_log_on_job_clock(job_start_ns, rt.start_real_ns);
	rt_log_clock = "base=wall";
}

void rt_log_finish_record(struct rt_record *rec)
{
	int64_t *c = rec->counters;

	if (rec->module == IOA_MOD_POSIX) {
		rt_values_top4(&rec->access_sizes, &c[POSIX_ACCESS1_ACCESS],
			       &c[POSIX_ACCESS1_COUNT]);
		rt_values_top4(&rec->strides, &c[POSIX_STRIDE1_STRIDE], &c[POSIX_STRIDE1_COUNT]);
	} else if (rec->module == IOA_MOD_MPIIO) {
		rt_values_top4(&rec->access_sizes, &c[MPIIO_ACCESS1_ACCESS],
			       &c[MPIIO_ACCESS1_COUNT]);
	} else if (rec->module == IOA_MOD_H5D) {
		rt_accesses_top4(rec->accesses, &c[H5D_ACCESS1_ACCESS], &c[H5D_ACCESS1_COUNT]);
	} else if (rec->module == IOA_MOD_PNETCDF_VAR) {
		rt_accesses_top4(rec->accesses, &c[PNETCDF_VAR_ACCESS1_ACCESS],
				 &c[PNETCDF_VAR_ACCESS1_COUNT]);
	}
}

/* Raw bytes are fed to the region's compressor in slices of about this size. */
#define RT_SLICE 65536

/* Feeds raw to the streamed region once it holds a slice (or always when at_end). */
static int feed(struct ioa_log_writer *w, struct ioa_buf *raw, int at_end)
{
	int rc = 0;

	if (raw->len >= RT_SLICE || (at_end && raw->len)) {
		rc = ioa_logw_region_add(w, raw->data, raw->len);
		ioa_buf_reset(raw);
	}
	return rc;
}

/* Takes a slice of a streamed region's encoded bytes. */
static int flush_slice(void *w, struct ioa_buf *raw)
{
	int rc = ioa_logw_region_add(w, raw->data, raw->len);

	ioa_buf_reset(raw);
	return rc;
}

/* Counts (refs NULL) or lists the records of a list that belong in this log. */
static void list_records(struct ioa_rec_ref *refs, struct rt_record *rec, uint32_t *count)
{
	for (; rec; rec = rec->next_in_module) {
		if (rec->flags & RT_REC_ELSEWHERE)
			continue;
		if (refs) {
			rt_log_finish_record(rec);
			refs[*count] = (struct ioa_rec_ref){
				.id = rec->id,
				.name = rec->name,
				.name_len = strlen(rec->name),
				.rank = rec->flags & IOA_REC_SHARED ? -1 : rt.rank,
				.flags = rec->flags & ~RT_REC_ELSEWHERE,
				.counters = rec->counters,
				.fcounters = rec->fcounters,
			};
		}
		++*count;
	}
}

static int pack_module(struct ioa_log_writer *w, struct ioa_buf *raw, enum ioa_module m)
{
	struct rt_module_records *mr = &rt_live->modules[m];
	struct ioa_rec_ref *refs;
	uint32_t count = 0;
	int rc;

	list_records(NULL, mr->first, &count);
	list_records(NULL, mr->combined, &count);
	/* The overflow record goes in only when something folded into it. */
	count += mr->folded_files > 0;
	if (!count)
		return 0;
	refs = calloc(count, sizeof(*refs));
	if (!refs)
		return -ENOMEM;
	count = 0;
	list_records(refs, mr->first, &count);
	list_records(refs, mr->combined, &count);
	if (mr->folded_files) {
		rt_log_finish_record(mr->overflow);
		refs[count++] = (struct ioa_rec_ref){
			.rank = rt.rank,
			.flags = mr->overflow->flags,
			.counters = mr->overflow->counters,
			.fcounters = mr->overflow->fcounters,
		};
	}
	ioa_buf_reset(raw);
	rc = ioa_logw_region_begin(w, ioa_modules[m].region_type);
	if (!rc) {
		rc = ioa_enc_module_region(raw, m, refs, count, rt_log_tick_s, flush_slice, w);
		if (!rc)
			rc = feed(w, raw, 1);
		rc = ioa_logw_region_end(w, rc);
	}
	free(refs);
	return rc;
}

/* Whether an earlier module's record (written here) already carries id's name. */
static int name_written(int module, uint64_t id)
{
	struct rt_record *rec;
	int k;

	for (k = 0; k < module; k++) {
		rec = rt_record_find((enum ioa_module)k, id);
		if (rec && !(rec->flags & RT_REC_ELSEWHERE))
			return 1;
		for (rec = rt_live->modules[k].combined; rec; rec = rec->next_in_module)
			if (rec->id == id)
				return 1;
	}
	return 0;
}

/* Counts (w NULL) or streams the names of the records in this log. */
static int walk_names(struct ioa_log_writer *w, struct ioa_buf *raw, uint32_t *count)
{
	struct rt_record *rec;
	int m, pass, rc = 0;

	for (m = 0; m < IOA_MOD_COUNT && !rc; m++) {
		for (pass = 0; pass < 2; pass++) {
			rec = pass ? rt_live->modules[m].combined : rt_live->modules[m].first;
			for (; rec && !rc; rec = rec->next_in_module) {
				/* Same path, same id: one name serves every module. */
				if (rec->flags & RT_REC_ELSEWHERE || name_written(m, rec->id))
					continue;
				++*count;
				if (!w)
					continue;
				rc = ioa_enc_name(raw, rec->id, rec->name, strlen(rec->name));
				if (!rc)
					rc = feed(w, raw, 0);
			}
		}
	}
	return rc;
}

static int pack_names(struct ioa_log_writer *w, struct ioa_buf *raw)
{
	uint32_t count = 0;
	int rc;

	walk_names(NULL, raw, &count);
	ioa_buf_reset(raw);
	rc = ioa_logw_region_begin(w, IOA_REGION_NAMES);
	if (rc)
		return rc;
	rc = ioa_enc_names_header(raw, count);
	count = 0;
	if (!rc)
		rc = walk_names(w, raw, &count);
	if (!rc)
		rc = feed(w, raw, 1);
	return ioa_logw_region_end(w, rc);
}

/* The failure table's entries of the application (mpi_library 0) or of the MPI library (1). */
static int enc_failures(struct ioa_buf *raw, int mpi_library, uint32_t *count)
{
	const struct rt_failure *f;
	size_t n = rt_failures(&f), i;
	size_t at = raw->len;
	int rc;

	*count = 0;
	rc = ioa_enc_u32(raw, 0);
	for (i = 0; i < n && !rc; i++) {
		if (f[i].mpi_library != mpi_library)
			continue;
		rc = ioa_enc_u64(raw, f[i].record_id);
		if (!rc)
			rc = ioa_enc_u32(raw, (uint32_t)rt.rank);
		if (!rc)
			rc = ioa_enc_u16(raw, (uint16_t)f[i].module);
		if (!rc)
			rc = ioa_enc_bytes(raw, f[i].op, strlen(f[i].op));
		if (!rc)
			rc = ioa_enc_u32(raw, (uint32_t)f[i].err);
		if (!rc)
			rc = ioa_enc_u64(raw, f[i].count);
		++*count;
	}
	if (!rc)
		ioa_put_u32((unsigned char *)raw->data + at, *count);
	return rc;
}

static int pack_failures(struct ioa_log_writer *w, struct ioa_buf *raw)
{
	uint32_t count;
	int rc;

	ioa_buf_reset(raw);
	rc = enc_failures(raw, 0, &count);
	if (rc || !count)
		return rc;
	return ioa_logw_add(w, IOA_REGION_ERRORS, raw->data, raw->len);
}

/*
 * What the MPI library did through the wrappers, not the application
 * (rt_core.h): its calls inside MPI and its failed calls, those inside
 * MPI-IO calls among them, in a region of their own so that nothing
 * downstream takes them for the application's.
 */
static int pack_mpi_library(struct ioa_log_writer *w, struct ioa_buf *raw)
{
	uint32_t count;
	int rc;

	ioa_buf_reset(raw);
	rc = ioa_enc_u32(raw, (uint32_t)rt.rank);
	if (!rc)
		rc = ioa_enc_u64(raw, rt_live->mpi_library.calls);
	if (!rc)
		rc = ioa_enc_u64(raw, rt_live->mpi_library.failed);
	if (!rc)
		rc = ioa_enc_u64(raw, rt_live->mpi_library.failed_mpiio);
	if (!rc)
		rc = enc_failures(raw, 1, &count);
	if (rc || (!rt_live->mpi_library.calls && !rt_live->mpi_library.failed_mpiio))
		return rc;
	return ioa_logw_add(w, IOA_REGION_MPILIB, raw->data, raw->len);
}

/* This rank's time-resolved view: the bins of every record that moved data. */
static int pack_bins(struct ioa_log_writer *w, struct ioa_buf *raw)
{
	/* The seconds per tick the records were turned with (a recovered process's own). */
	double width_s =
		rt_live->bin_width * (rt_log_tick_s > 0 ? rt_log_tick_s : rt_seconds_per_tick());
	struct ioa_log_bin *bins;
	struct ioa_rec_ref *refs;
	struct rt_record *rec;
	uint32_t count = 0, i = 0;
	int m, k, rc;

	for (m = 0; m < IOA_MOD_COUNT; m++)
		for (rec = rt_live->modules[m].first; rec; rec = rec->next_in_module)
			count += rec->bins != NULL;
	if (!count)
		return 0;
	refs = calloc(count, sizeof(*refs));
	bins = calloc((size_t)count * RT_BINS, sizeof(*bins));
	rc = refs && bins ? 0 : -ENOMEM;
	for (m = 0; m < IOA_MOD_COUNT && !rc; m++) {
		for (rec = rt_live->modules[m].first; rec; rec = rec->next_in_module) {
			struct ioa_log_bin *mine = bins + (size_t)i * RT_BINS;

			if (!rec->bins)
				continue;
			for (k = 0; k < RT_BINS; k++)
				mine[k] = (struct ioa_log_bin){
					rec->bins[k].read_bytes, rec->bins[k].write_bytes,
					rec->bins[k].read_ops, rec->bins[k].write_ops};
			refs[i++] = (struct ioa_rec_ref){.id = rec->id,
							 .name = rec->name,
							 .name_len = strlen(rec->name),
							 .module = (uint16_t)m,
							 .bins = mine};
		}
	}
	ioa_buf_reset(raw);
	rc = rc ? rc : ioa_logw_region_begin(w, IOA_REGION_BINS);
	if (!rc) {
		rc = ioa_enc_bins_region(raw, RT_BINS, width_s,
					 rt_log_rank_start_ns ? rt_log_rank_start_ns
							      : rt.start_real_ns,
					 rt.rank, refs, count, flush_slice, w);
		if (!rc)
			rc = feed(w, raw, 1);
		rc = ioa_logw_region_end(w, rc);
	}
	free(refs);
	free(bins);
	return rc;
}

/* MPI-IO hints given at open: each file's "key=value" lines, from this rank. */
static int pack_hints(struct ioa_log_writer *w, struct ioa_buf *raw)
{
	struct rt_record *rec;
	uint32_t count = 0;
	int rc;

	for (rec = rt_live->modules[IOA_MOD_MPIIO].first; rec; rec = rec->next_in_module)
		count += rec->hints != NULL;
	if (!count)
		return 0;
	ioa_buf_reset(raw);
	rc = ioa_enc_u32(raw, count);
	for (rec = rt_live->modules[IOA_MOD_MPIIO].first; rec && !rc; rec = rec->next_in_module) {
		if (!rec->hints)
			continue;
		rc = ioa_enc_u64(raw, rec->id);
		if (!rc)
			rc = ioa_enc_u32(raw, (uint32_t)rt.rank);
		if (!rc)
			rc = ioa_enc_bytes(raw, rec->hints, strlen(rec->hints));
	}
	return rc ? rc : ioa_logw_add(w, IOA_REGION_HINTS, raw->data, raw->len);
}

/* The files this rank folded into its overflow records, by id. */
static int pack_folded(struct ioa_log_writer *w, struct ioa_buf *raw)
{
	size_t i;
	int rc;

	if (!rt_live->folded.count && !rt_live->folded.dropped)
		return 0;
	ioa_buf_reset(raw);
	rc = ioa_enc_u32(raw, (uint32_t)rt.rank);
	if (!rc)
		rc = ioa_enc_u64(raw, rt_live->folded.dropped);
	if (!rc)
		rc = ioa_enc_u32(raw, (uint32_t)rt_live->folded.count);
	for (i = 0; i <= rt_live->folded.mask && !rc; i++) {
		if (!rt_live->folded.ids[i])
			continue;
		rc = ioa_enc_u64(raw, rt_live->folded.ids[i]);
		if (!rc)
			rc = ioa_enc_u16(raw, rt_live->folded.modules[i]);
	}
	return rc ? rc : ioa_logw_add(w, IOA_REGION_FOLDED, raw->data, raw->len);
}

int rt_log_pack_records(struct ioa_log_writer *w)
{
	/* A slice and one record of slack: regions stream through it. */
	struct ioa_buf raw = IOA_BUF_INIT((size_t)1 << 30);
	int m, rc = 0;

	for (m = 0; m < IOA_MOD_COUNT && !rc; m++)
		rc = pack_module(w, &raw, (enum ioa_module)m);
	if (!rc)
		rc = pack_names(w, &raw);
	if (!rc)
		rc = pack_failures(w, &raw);
	if (!rc)
		rc = pack_mpi_library(w, &raw);
	if (!rc)
		rc = pack_bins(w, &raw);
	if (!rc)
		rc = pack_hints(w, &raw);
	if (!rc)
		rc = pack_folded(w, &raw);
	ioa_buf_release(&raw);
	return rc;
}

static int enc_entry(struct ioa_buf *b, uint16_t key, const void *value, size_t len)
{
	int rc = ioa_enc_u16(b, key);

	return rc ? rc : ioa_enc_bytes(b, value, len);
}

static int enc_entry_str(struct ioa_buf *b, uint16_t key, const char *value)
{
	return enc_entry(b, key, value, strlen(value));
}

static int enc_entry_u64(struct ioa_buf *b, uint16_t key, uint64_t value)
{
	char text[32];

	snprintf(text, sizeof(text), "%llu", (unsigned long long)value);
	return enc_entry_str(b, key, text);
}

/* The job's user: this process's, or the override of a recovered log. */
static uid_t log_uid(void)
{
	return rt_log_uid != (uid_t)-1 ? rt_log_uid : getuid();
}

static const char *user_name(char *buf, size_t len)
{
	struct passwd pw, *found = NULL;
	const char *env = rt_log_getenv("USER");

	if (getpwuid_r(log_uid(), &pw, buf, len, &found) == 0 && found)
		return found->pw_name;
	return env && *env ? env : "unknown";
}

/* The batch system's job id and its name, or "nojob". */
static const char *job_id(const char **scheduler)
{
	static const char *const vars[][2] = {
		{"SLURM_JOB_ID", "slurm"}, {"PBS_JOBID", "pbs"},       {"LSB_JOBID", "lsf"},
		{"FLUX_JOB_ID", "flux"},   {"COBALT_JOBID", "cobalt"},
	};
	size_t i;

	for (i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		const char *v = rt_log_getenv(vars[i][0]);

		if (v && *v) {
			*scheduler = vars[i][1];
			return v;
		}
	}
	*scheduler = "none";
	return "nojob";
}

/*
 * What the batch system says of the job besides its id, as it says it:
 * the variables it sets in the job's environment, read when the log is
 * written.  A variable that is not set (Slurm's batch step has no step id,
 * a job outside an array no array ids) leaves its key out.
 */
#define RT_JOB_VALUE_MAX 65536 /* a value past this is cut (a node list, say) */

static int enc_scheduler_keys(struct ioa_buf *b, const char *scheduler)
{
	static const struct {
		uint16_t key;
		const char *scheduler, *var;
	} vars[] = {
		{IOA_JOB_STEP, "slurm", "SLURM_STEP_ID"},
		{IOA_JOB_ARRAY_JOB, "slurm", "SLURM_ARRAY_JOB_ID"},
		{IOA_JOB_ARRAY_TASK, "slurm", "SLURM_ARRAY_TASK_ID"},
		{IOA_JOB_PARTITION, "slurm", "SLURM_JOB_PARTITION"},
		{IOA_JOB_ACCOUNT, "slurm", "SLURM_JOB_ACCOUNT"},
		{IOA_JOB_JOB_NAME, "slurm", "SLURM_JOB_NAME"},
		{IOA_JOB_NODELIST, "slurm", "SLURM_JOB_NODELIST"},
	};
	size_t i;
	int rc = 0;

	for (i = 0; i < sizeof(vars) / sizeof(vars[0]) && !rc; i++) {
		const char *v =
			strcmp(scheduler, vars[i].scheduler) ? NULL : rt_log_getenv(vars[i].var);

		if (v && *v)
			rc = enc_entry(b, vars[i].key, v, strnlen(v, RT_JOB_VALUE_MAX));
	}
	return rc;
}

static int enc_args(struct ioa_buf *b)
{
	char args[8192];
	FILE *f;
	size_t n;

	if (rt_log_args)
		return enc_entry(b, IOA_JOB_ARGS, rt_log_args, rt_log_args_len);
	f = fopen("/proc/self/cmdline", "re");
	n = f ? fread(args, 1, sizeof(args), f) : 0;

	if (f)
		fclose(f);
	/* NUL-separated as the kernel gives them; cut at the buffer's end. */
	return enc_entry(b, IOA_JOB_ARGS, args, n);
}

static int pack_mounts(struct ioa_log_writer *w, struct ioa_buf *raw)
{
	FILE *f = setmntent("/proc/self/mounts", "re");
	struct mntent ent;
	char strings[4096];
	uint32_t count = 0;
	int rc;

	ioa_buf_reset(raw);
	rc = ioa_enc_u32(raw, 0);
	while (f && !rc && getmntent_r(f, &ent, strings, sizeof(strings))) {
		rc = ioa_enc_bytes(raw, ent.mnt_dir, strlen(ent.mnt_dir));
		if (!rc)
			rc = ioa_enc_bytes(raw, ent.mnt_type, strlen(ent.mnt_type));
		count++;
	}
	if (f)
		endmntent(f);
	if (rc)
		return rc;
	ioa_put_u32((unsigned char *)raw->data, count);
	return ioa_logw_add(w, IOA_REGION_MOUNTS, raw->data, raw->len);
}

int rt_log_pack_job(struct ioa_log_writer *w, const char *hostnames, size_t hostnames_len,
		    const uint32_t *rank_nodes, uint32_t nnodes)
{
	struct ioa_buf raw = IOA_BUF_INIT((size_t)1 << 28);
	char pwbuf[1024], settings[16384];
	const char *scheduler, *jobid = job_id(&scheduler);
	struct timespec now;
	uint64_t end_ns, folded = 0;
	int rc, m;

	clock_gettime(CLOCK_REALTIME, &now);
	end_ns = rt_log_end_ns ? rt_log_end_ns
			       : (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
	for (m = 0; m < IOA_MOD_COUNT; m++)
		folded += rt_live->modules[m].folded_files;
	rt_config_describe(&rt.config, settings, sizeof(settings));

	rc = enc_entry_u64(&raw, IOA_JOB_UID, log_uid());
	if (!rc)
		rc = enc_entry_str(&raw, IOA_JOB_USER, user_name(pwbuf, sizeof(pwbuf)));
	if (!rc)
		rc = enc_entry_str(&raw, IOA_JOB_JOBID, jobid);
	if (!rc)
		rc = enc_entry_str(&raw, IOA_JOB_SCHEDULER, scheduler);
	if (!rc)
		rc = enc_scheduler_keys(&raw, scheduler);
	if (!rc)
		rc = enc_entry_u64(&raw, IOA_JOB_START_NS,
				   rt_log_job_start_ns ? rt_log_job_start_ns : rt.start_real_ns);
	if (!rc)
		rc = enc_entry_u64(&raw, IOA_JOB_END_NS, end_ns);
	if (!rc)
		rc = enc_entry_u64(&raw, IOA_JOB_NPROCS, (uint64_t)rt.nprocs);
	if (!rc)
		rc = enc_entry_u64(&raw, IOA_JOB_NNODES, nnodes);
	if (!rc)
		rc = enc_entry_str(&raw, IOA_JOB_EXE, rt.exe);
	if (!rc && rt.config.record_args)
		rc = enc_args(&raw);
	if (!rc)
		rc = enc_entry_str(&raw, IOA_JOB_VERSION, IOATLAS_VERSION);
	if (!rc)
		rc = enc_entry_str(&raw, IOA_JOB_SETTINGS, settings);
	if (!rc)
		rc = enc_entry(&raw, IOA_JOB_HOSTNAMES, hostnames, hostnames_len);
	if (!rc) {
		uint32_t r;

		rc = ioa_enc_u16(&raw, IOA_JOB_RANK_NODES);
		if (!rc)
			rc = ioa_enc_u32(&raw, 4 * (uint32_t)rt.nprocs);
		for (r = 0; r < (uint32_t)rt.nprocs && !rc; r++)
			rc = ioa_enc_u32(&raw, rank_nodes ? rank_nodes[r] : 0);
	}
	if (!rc && rt_log_ranks)
		rc = enc_entry_str(&raw, IOA_JOB_RANKS, rt_log_ranks);
	if (!rc)
		rc = enc_entry_u64(&raw, IOA_JOB_PID, (uint64_t)rt.pid);
	if (!rc && rt_log_tree)
		rc = enc_entry_str(&raw, IOA_JOB_TREE, rt_log_tree);
	if (!rc && rt_log_procs)
		rc = enc_entry_str(&raw, IOA_JOB_PROCS, rt_log_procs);
	if (!rc && rt_log_partial)
		rc = enc_entry_str(&raw, IOA_JOB_PARTIAL, rt_log_partial);
	if (!rc && rt.mpi_note[0])
		rc = enc_entry_str(&raw, IOA_JOB_MPI, rt.mpi_note);
	if (!rc && rt_log_clock)
		rc = enc_entry_str(&raw, IOA_JOB_CLOCK, rt_log_clock);
	if (!rc && !rt_log_partial) {
		/*
		 * A recovered log is written by ioatlas-recover: its libraries
		 * and build are not the job's.
		 */
		char libs[64];

		char build[IOA_BUILD_ID_MAX + 1];

		rt_io_libraries(libs, sizeof(libs));
		if (libs[0])
			rc = enc_entry_str(&raw, IOA_JOB_LIBRARIES, libs);
		rt_build_id(build, sizeof(build));
		if (!rc && build[0])
			rc = enc_entry_str(&raw, IOA_JOB_BUILD, build);
	}
	if (!rc)
		rc = enc_entry_u64(&raw, IOA_JOB_FOLDED, folded);
	if (!rc) {
		/* What this process could not follow, so a reader knows what is missing. */
		char lost[256];

		snprintf(lost, sizeof(lost),
			 "descriptors=%llu streams=%llu failure_entries=%llu "
			 "memory_refused_bytes=%zu",
			 (unsigned long long)rt_live->posix_untracked_fds,
			 (unsigned long long)rt_live->stdio_untracked_streams,
			 (unsigned long long)rt_live->failures_dropped, rt.arena.refused);
		rc = enc_entry_str(&raw, IOA_JOB_LOST, lost);
	}
	if (!rc)
		rc = ioa_logw_add(w, IOA_REGION_JOB, raw.data, raw.len);
	if (!rc)
		rc = pack_mounts(w, &raw);
	ioa_buf_release(&raw);
	return rc;
}

/* Copies src into dst keeping letters, digits, '-', '.', '_'; others become '_'. */
static void safe_name(char *dst, size_t len, const char *src)
{
	size_t i;

	for (i = 0; i + 1 < len && src[i]; i++) {
		char ch = src[i];

		dst[i] = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
					 (ch >= '0' && ch <= '9') || ch == '-' || ch == '.' ||
					 ch == '_'
				 ? ch
				 : '_';
	}
	dst[i] = '\0';
}

/*
 * The log tree's folders as ioatlas setup-logdir makes them (mode 3773):
 * every user's job writes its log, the sticky bit keeps users from removing
 * each other's logs, only the owner and the group list the folder.  The
 * group, and the set-group-ID bit that gives each log the collector's
 * group, come from the parent when setup-logdir made it: a user who is not
 * in that group loses the set-group-ID bit on any chmod, so the mode must
 * come whole from mkdir, past the process's umask.  The umask is the whole
 * process's: a short thread with its own (unshare(CLONE_FS)) makes the
 * folder, so that no other thread of the program ever runs under umask 0.
 */
#define RT_TREE_MODE 01773

struct rt_mkdir {
	const char *path;
	int rc;	   /* 0 or -errno from mkdir */
	int tried; /* the thread ran mkdir past the umask */
};

static void *mkdir_unmasked(void *arg)
{
	struct rt_mkdir *m = arg;

	rt_self()->inside |= RT_IN_RUNTIME;
	if (unshare(CLONE_FS) == 0) {
		umask(0);
		m->rc = mkdir(m->path, RT_TREE_MODE) ? -errno : 0;
		m->tried = 1;
	}
	return NULL;
}

/* Makes a folder of the log path when missing; 0, or -errno.  errno is kept. */
static int make_dir(const char *path)
{
	struct rt_mkdir m = {path, 0, 0};
	struct stat st;
	pthread_t thread;
	sigset_t all, old;
	int saved_errno = errno;

	if (stat(path, &st) == 0) {
		errno = saved_errno;
		return 0;
	}
	/* The thread starts with every signal blocked: the program's handlers never run on it. */
	sigfillset(&all);
	if (pthread_sigmask(SIG_BLOCK, &all, &old) == 0) {
		if (pthread_create(&thread, NULL, mkdir_unmasked, &m) == 0)
			pthread_join(thread, NULL);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
	}
	/*
	 * No thread (or no unshare under a seccomp policy): the umask narrows the
	 * mode, and no chmod, which would drop the set-group-ID bit.
	 */
	if (!m.tried)
		m.rc = mkdir(path, RT_TREE_MODE) ? -errno : 0;
	errno = saved_errno;
	return m.rc == -EEXIST ? 0 : m.rc;
}

/* The job region keeps the job id alone (job_id()). */
void rt_log_job_token(char *out, size_t len)
{
	char part[64];
	const char *scheduler, *step = NULL, *task = NULL;
	size_t n;

	safe_name(out, len, job_id(&scheduler));
	if (!strcmp(scheduler, "slurm")) {
		step = rt_log_getenv("SLURM_STEP_ID");
		task = rt_log_getenv("SLURM_ARRAY_TASK_ID");
	} else if (!strcmp(scheduler, "lsf")) {
		task = rt_log_getenv("LSB_JOBINDEX");
		if (task && !strcmp(task, "0"))
			task = NULL; /* not an array job */
	}
	if (step && *step) {
		safe_name(part, sizeof(part), step);
		n = strlen(out);
		snprintf(out + n, len - n, ".%s", part);
	}
	if (task && *task) {
		safe_name(part, sizeof(part), task);
		n = strlen(out);
		snprintf(out + n, len - n, ".a%s", part);
	}
}

void rt_log_host(char *out, size_t len)
{
	char host[256] = "";
	char *dot;

	if (gethostname(host, sizeof(host) - 1) || !host[0])
		snprintf(host, sizeof(host), "unknown");
	dot = strchr(host, '.');
	if (dot && dot != host)
		*dot = '\0';
	safe_name(out, len, host);
}

/* Whether nothing, not even a .part being written, has the name path. */
static int name_free(const char *path)
{
	char part[PATH_MAX + 8];
	struct stat st;
	int saved_errno = errno, free_;

	snprintf(part, sizeof(part), "%s.part", path);
	free_ = lstat(path, &st) && errno == ENOENT && lstat(part, &st) && errno == ENOENT;
	errno = saved_errno;
	return free_;
}

/* At most this many names are tried for one log: <stem>.ioa, <stem>-2.ioa ... */
#define RT_LOG_NAME_TRIES 64

/* The n-th candidate name (n from 1) for the stem; 0 or -ENAMETOOLONG. */
static int log_name(char *out, size_t out_len, const char *stem, int n)
{
	int len = n == 1 ? snprintf(out, out_len, "%s.ioa", stem)
			 : snprintf(out, out_len, "%s-%d.ioa", stem, n);

	return len < 0 || (size_t)len >= out_len ? -ENAMETOOLONG : 0;
}

int rt_log_day_dir(char *out, size_t out_len, uint64_t start_real_ns)
{
	time_t start = (time_t)(start_real_ns / 1000000000u);
	struct tm tm;
	int n, rc;

	if (!rt.config.logdir[0])
		return -ENOENT;
	gmtime_r(&start, &tm);
	n = snprintf(out, out_len, "%s/%04d", rt.config.logdir, tm.tm_year + 1900);
	if (n < 0 || (size_t)n >= out_len)
		return -ENAMETOOLONG;
	if ((rc = make_dir(out)))
		return rc;
	n += snprintf(out + n, out_len - (size_t)n, "/%02d", tm.tm_mon + 1);
	if ((size_t)n >= out_len)
		return -ENAMETOOLONG;
	if ((rc = make_dir(out)))
		return rc;
	n += snprintf(out + n, out_len - (size_t)n, "/%02d", tm.tm_mday);
	if ((size_t)n >= out_len)
		return -ENAMETOOLONG;
	return make_dir(out);
}

/* The log's name without ".ioa" (see rt_log_path()) in out. */
static int log_stem(char *out, size_t out_len)
{
	char pwbuf[1024], user[64], exe[64], job[160], host[64];
	const char *base = strrchr(rt.exe, '/');
	size_t n;
	int rc;

	safe_name(user, sizeof(user), user_name(pwbuf, sizeof(pwbuf)));
	safe_name(exe, sizeof(exe), base ? base + 1 : "unknown");
	rt_log_job_token(job, sizeof(job));
	rt_log_host(host, sizeof(host));
	if ((rc = rt_log_day_dir(out, out_len, rt.start_real_ns)))
		return rc;
	n = strlen(out);
	n += (size_t)snprintf(out + n, out_len - n, "/%s_%s_%s_%lld-%s-%d", user, exe, job,
			      (long long)(rt.start_real_ns / 1000000000u), host, (int)rt.pid);
	return n >= out_len ? -ENAMETOOLONG : 0;
}

int rt_log_first_path(char *out, size_t out_len)
{
	char stem[PATH_MAX];
	int rc = log_stem(stem, sizeof(stem));

	return rc ? rc : log_name(out, out_len, stem, 1);
}

int rt_log_path(char *out, size_t out_len)
{
	char stem[PATH_MAX];
	int rc = log_stem(stem, sizeof(stem)), n;

	for (n = 1; !rc && n <= RT_LOG_NAME_TRIES; n++) {
		rc = log_name(out, out_len, stem, n);
		if (!rc && name_free(out))
			return 0;
	}
	return rc ? rc : -EEXIST;
}

/*
 * Gives the complete file part the name path, never over an existing file:
 * renameat2(RENAME_NOREPLACE), or where the file system lacks it, link()
 * and unlink(); where it has neither (link refused), a rename after
 * checking that the name is free, the one case a log written at the same
 * instant under the same name could be replaced.  0, -EEXIST (the name is
 * taken: part is still there) or another negative errno.
 */
static int publish(const char *part, const char *path)
{
	struct stat st;

	if (!renameat2(AT_FDCWD, part, AT_FDCWD, path, RENAME_NOREPLACE))
		return 0;
	if (errno != EINVAL && errno != ENOSYS && errno != ENOTSUP)
		return -errno;
	if (!link(part, path)) {
		unlink(part);
		return 0;
	}
	if (errno != EPERM && errno != ENOTSUP && errno != EOPNOTSUPP)
		return -errno;
	if (!lstat(path, &st))
		return -EEXIST;
	return rename(part, path) ? -errno : 0;
}

/* Publishes part under the first free name of stem from the first-th on. */
static int publish_from(const char *part, const char *stem, int first, char *path, size_t path_len)
{
	int n, rc = -EEXIST;

	for (n = first; rc == -EEXIST && n <= RT_LOG_NAME_TRIES; n++) {
		rc = log_name(path, path_len, stem, n);
		if (!rc)
			rc = publish(part, path);
	}
	return rc;
}

int rt_log_publish(const char *part, char *path, size_t path_len)
{
	char stem[PATH_MAX];
	size_t len = strlen(path);

	if (len < 4 || len - 4 >= sizeof(stem) || strcmp(path + len - 4, ".ioa"))
		return -EINVAL;
	memcpy(stem, path, len - 4);
	stem[len - 4] = '\0';
	return publish_from(part, stem, 1, path, path_len);
}

static int write_all(int fd, const void *bytes, size_t len)
{
	const char *p = bytes;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int rt_log_write_fd(struct ioa_log_writer *w, int fd)
{
	struct ioa_buf head = IOA_BUF_INIT((size_t)IOA_LOG_MAX_REGIONS * IOA_LOG_REGION_ENTRY_SIZE +
					   IOA_LOG_HEADER_SIZE + 4);
	int rc = ioa_logw_header(&head, w->regions, w->region_count, rt_log_flags());

	if (!rc)
		rc = write_all(fd, head.data, head.len);
	if (!rc)
		rc = write_all(fd, w->stored.data, w->stored.len);
	ioa_buf_release(&head);
	return rc;
}

/* Writes the header and w's regions to the new file part (mode 0440). */
static int write_part(struct ioa_log_writer *w, const char *part)
{
	int fd, rc;

	fd = open(part, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0440);
	if (fd < 0)
		return -errno;
	rc = rt_log_write_fd(w, fd);
	if (!rc && fsync(fd))
		rc = -errno;
	if (close(fd) && !rc)
		rc = -errno;
	if (rc)
		unlink(part);
	return rc;
}

int rt_log_take_part(struct ioa_log_writer *w, const char *path,
		     int (*job_entry)(uint16_t key, const unsigned char *value, uint32_t len,
				      void *arg),
		     void *arg)
{
	struct ioa_log_reader r;
	struct ioa_buf raw = IOA_BUF_INIT(RT_LOG_PART_CAP), stored = IOA_BUF_INIT(RT_LOG_PART_CAP);
	struct ioa_log_region *kept = NULL;
	uint32_t i, nkept = 0;
	int rc = ioa_logr_open(&r, path);

	if (rc)
		return rc;
	kept = calloc(r.region_count + 1, sizeof(*kept));
	if (!kept)
		rc = -ENOMEM;
	for (i = 0; i < r.region_count && !rc; i++) {
		struct ioa_log_region reg = r.regions[i];
		size_t at = stored.len;

		if (reg.type == IOA_REGION_MOUNTS)
			continue;
		if (reg.type == IOA_REGION_JOB) {
			rc = ioa_logr_read_region(&r, i, &raw);
			if (!rc && job_entry)
				rc = ioa_logr_each_job_entry(&r, &raw, job_entry, arg);
			continue;
		}
		rc = reg.stored_size > RT_LOG_PART_CAP - at
			     ? -EFBIG
			     : ioa_buf_grow(&stored, (size_t)reg.stored_size);
		if (!rc && pread(r.fd, stored.data + at, (size_t)reg.stored_size,
				 (off_t)reg.offset) != (ssize_t)reg.stored_size)
			rc = -EIO;
		if (!rc && (uint32_t)crc32(0L, (const Bytef *)stored.data + at,
					   (uInt)reg.stored_size) != reg.crc32)
			rc = -EINVAL;
		if (!rc) {
			stored.len = at + (size_t)reg.stored_size;
			reg.offset = at;
			kept[nkept++] = reg;
		}
	}
	if (!rc)
		rc = ioa_logw_append(w, kept, nkept, stored.data, stored.len);
	free(kept);
	ioa_buf_release(&stored);
	ioa_buf_release(&raw);
	ioa_logr_close(&r);
	return rc;
}

uint32_t rt_log_flags(void)
{
	int m;

	for (m = 0; m < IOA_MOD_COUNT; m++)
		if (rt_live->modules[m].folded_files)
			return IOA_LOG_FLAG_FOLDED;
	return 0;
}

int rt_log_write(struct ioa_log_writer *w)
{
	char stem[PATH_MAX], path[PATH_MAX + 16], part[PATH_MAX + 24];
	int rc = log_stem(stem, sizeof(stem)), n;

	/*
	 * The first name whose part can be made exclusively, then the first
	 * free name from there: two writers never share a part, and a log is
	 * never renamed over another.
	 */
	for (n = 1, rc = rc ? rc : -EEXIST; rc == -EEXIST && n <= RT_LOG_NAME_TRIES; n++) {
		rc = log_name(path, sizeof(path), stem, n);
		if (!rc && (size_t)snprintf(part, sizeof(part), "%s.part", path) >= sizeof(part))
			rc = -ENAMETOOLONG;
		if (!rc)
			rc = write_part(w, part);
	}
	if (rc)
		return rc;
	rc = publish_from(part, stem, n - 1, path, sizeof(path));
	if (rc)
		unlink(part);
	else
		rt_give_log_group(path);
	return rc;
}
