/*
 * an_findings — every finding an analysis can report, in one table: its
 * code, whether it is a problem (an insight, ranked, with advice) or a
 * description of the job, what it means, the setting that decides it, and
 * the advice, phrased for the layer the user writes to.
 *
 * A program that writes HDF5, NetCDF, PnetCDF or ADIOS never made the
 * MPI-IO and POSIX calls the runtime saw: telling its author to "use
 * MPI_File_write_all" names code they never wrote.  The runtime records
 * which of these libraries the program used (job key io_libraries,
 * runtime/rt_libs.h), Darshan logs say it with their H5F/H5D and PnetCDF
 * records, and an_finding() picks the advice for that layer, falling back
 * to the MPI-IO and POSIX one where the table has none of its own.
 *
 * AN_FINDINGS(X) expands X(id, code, kind, setting, meaning, advice,
 * hdf5_advice, netcdf_advice, adios_advice); NULL advice is none.  The
 * table is printed by `ioatlas analyze --findings` and documented in
 * docs/analyses.md (a test checks that every code is there).
 */
#ifndef AN_FINDINGS_H
#define AN_FINDINGS_H

enum an_finding_kind { AN_OBSERVATION, AN_INSIGHT };

/* The layers a user may write to, most specific last (the one advice is for). */
enum an_user_layer {
	AN_USER_POSIX,
	AN_USER_MPIIO,
	AN_USER_HDF5,
	AN_USER_NETCDF, /* NetCDF and PnetCDF */
	AN_USER_ADIOS,	/* ADIOS 1 and ADIOS 2 */
	AN_USER_LAYERS
};

/* clang-format off */
#define AN_FINDINGS(X)                                                                             \
	/* ---- insights: ranked problems (an_insights) ---- */                                    \
	X(SMALL_REQUESTS, "small_requests", AN_INSIGHT, "analyze.small_bytes, analyze.small_share",\
	  "many read and write requests are small",                                                \
	  "Gather small requests into large ones: buffer in memory and write whole blocks, or "    \
	  "let collective MPI-IO aggregate them.",                                                 \
	  "Write whole datasets or large hyperslabs at once, with a collective transfer "          \
	  "(H5Pset_dxpl_mpio with H5FD_MPIO_COLLECTIVE); raise the metadata block size "           \
	  "(H5Pset_meta_block_size) and keep small attributes out of the time loop.",              \
	  "Put several variables per call (the ncmpi_put_vara_all or non-blocking ncmpi_iput "     \
	  "then ncmpi_wait_all) so PnetCDF aggregates them; leave define mode once.",              \
	  "Raise the ADIOS buffer (adios_set_max_buffer_size, or <buffer> in the XML) so a step "  \
	  "is written in one piece, or use the MPI_AGGREGATE method.")                             \
	X(MISALIGNED_REQUESTS, "misaligned_requests", AN_INSIGHT, "analyze.misaligned_share",      \
	  "requests not aligned to the file system's block or stripe size",                        \
	  "Align requests and each rank's part of a shared file to the block or stripe size (pad " \
	  "headers and records, or set the stripe size to match).",                                \
	  "Align objects to the stripe size: H5Pset_alignment(fapl, threshold, stripe_size); "     \
	  "chunk datasets so a chunk is a multiple of the stripe.",                                \
	  "Align the variables' start with the header alignment hints (nc_header_align_size, "     \
	  "nc_var_align_size) set to the stripe size.",                                            \
	  "Set the method's stripe options (MPI_AGGREGATE num_ost and the stripe size) to the "    \
	  "file system's.")                                                                        \
	X(MISALIGNED_MEMORY, "misaligned_memory", AN_INSIGHT, "analyze.misaligned_share",          \
	  "buffers not aligned in memory (POSIX_MEM_NOT_ALIGNED)",                                 \
	  "Allocate I/O buffers aligned to the page or the file system's block "                   \
	  "(posix_memalign), which direct I/O and RDMA transfers need.",                           \
	  NULL, NULL, NULL)                                                                        \
	X(RANDOM_READS, "random_reads", AN_INSIGHT, "analyze.random_share",                        \
	  "reads that jump back in a file",                                                        \
	  "Read in file order where possible; otherwise gather the scattered reads (collective "   \
	  "MPI-IO with a file view, or read larger blocks and pick from memory).",                 \
	  "Read whole hyperslabs in the order the dataset is stored; chunk it the way it is read " \
	  "and size the chunk cache (H5Pset_chunk_cache) to hold a row of chunks.",                \
	  "Read variables in the order they lie in the file (record variables interleave: read "   \
	  "whole records), with the collective get calls.",                                        \
	  "Read a step's blocks together (adios_schedule_read then one adios_perform_reads).")     \
	X(RANDOM_WRITES, "random_writes", AN_INSIGHT, "analyze.random_share",                      \
	  "writes that jump back in a file",                                                       \
	  "Write in file order, or stage the data and write it in order; collective MPI-IO turns " \
	  "scattered writes into large ordered ones.",                                             \
	  "Write with a collective transfer property so the MPI-IO layer orders the pieces; "      \
	  "chunk datasets along the way ranks write them.",                                        \
	  "Use the collective put calls (or non-blocking puts and one wait) so pieces are "        \
	  "written in order.",                                                                     \
	  NULL)                                                                                    \
	X(RANK_IMBALANCE, "rank_imbalance", AN_INSIGHT, "analyze.imbalance",                       \
	  "one rank spends much longer on a shared file than another (a straggler)",               \
	  "Even out the data per rank on shared files, or use collective MPI-IO so aggregators "   \
	  "balance it; check the slow rank's node.",                                               \
	  "Give ranks equal hyperslabs and write them collectively; check the slow rank's node.",  \
	  "Give ranks equal slabs and use the collective put calls; check the slow rank's node.",  \
	  "Balance the per-rank blocks; the MPI_AGGREGATE method spreads writers over "            \
	  "aggregators.")                                                                          \
	X(DATA_IMBALANCE, "data_imbalance", AN_INSIGHT, "analyze.imbalance",                       \
	  "ranks move very different amounts of data on a shared file",                            \
	  "Share the bytes of a shared file evenly between ranks, or let collective MPI-IO "       \
	  "aggregators carry them.",                                                               \
	  "Decompose datasets so each rank writes a similar hyperslab, and write collectively.",   \
	  "Decompose variables so each rank puts a similar slab, and use the collective calls.",   \
	  "Balance the blocks each rank writes per step.")                                         \
	X(NO_COLLECTIVE_IO, "no_collective_io", AN_INSIGHT, NULL,                                  \
	  "shared files reached only through independent MPI-IO calls",                                       \
	  "Use the collective forms (MPI_File_write_all, MPI_File_read_at_all) so ROMIO can "      \
	  "aggregate requests across ranks (two-phase I/O).",                                      \
	  "Set a collective transfer: H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_COLLECTIVE) on the "        \
	  "H5Dwrite/H5Dread property list, and collective metadata (H5Pset_all_coll_metadata_ops," \
	  " H5Pset_coll_metadata_write).",                                                         \
	  "Use the collective data mode: the _all put and get calls (ncmpi_put_vara_all) instead " \
	  "of independent mode (ncmpi_begin_indep_data).",                                         \
	  "Use the MPI_AGGREGATE (or POSIX with aggregation) method rather than MPI, which "       \
	  "writes independently.")                                                                 \
	X(INDEPENDENT_METADATA, "independent_metadata", AN_INSIGHT, "analyze.coll_metadata_ranks", \
	  "an HDF5 file opened through MPI-IO by many ranks without collective metadata: each "    \
	  "rank reads the file's metadata itself",                                                 \
	  "Open the file with collective metadata on its file-access list "                        \
	  "(H5Pset_all_coll_metadata_ops(fapl, 1), H5Pset_coll_metadata_write(fapl, 1)): one "     \
	  "rank reads each metadata block and the others receive it.",                             \
	  "Set collective metadata on the file-access list (H5Pset_all_coll_metadata_ops(fapl, "   \
	  "1), H5Pset_coll_metadata_write(fapl, 1)) before H5Fopen/H5Fcreate: one rank reads "     \
	  "each metadata block and the others receive it, instead of every rank asking the "       \
	  "file system.",                                                                          \
	  NULL, NULL)                                                                              \
	X(CHUNK_MISMATCH, "chunk_mismatch", AN_INSIGHT, NULL,                                      \
	  "a chunked HDF5 dataset read or written in pieces that are not whole chunks: each "      \
	  "moves part of chunks, which HDF5 reads, fills and writes whole",                         \
	  "Chunk the dataset in the shape it is read and written (H5Pset_chunk with the "          \
	  "access's dimensions, or a divisor of them), or make it contiguous.",                    \
	  "Chunk the dataset in the shape each rank reads or writes (H5Pset_chunk with the "       \
	  "hyperslab's dimensions, or a divisor of them, so an access covers whole chunks), or "   \
	  "make it contiguous when it is written once; with filters, ranks that share a chunk "    \
	  "also serialize on it.",                                                                  \
	  NULL, NULL)                                                                              \
	X(BLOCKING_IO, "blocking_io", AN_INSIGHT, "analyze.min_io_seconds",                        \
	  "all MPI-IO is blocking while I/O takes much of the run",                                \
	  "Overlap I/O with computation: the non-blocking calls (MPI_File_iwrite_all, "            \
	  "MPI_File_iwrite_at) and a wait before the buffer is reused.",                           \
	  "Overlap I/O with computation through the asynchronous VOL connector (H5ESwait and the " \
	  "_async calls), or hand the write to a helper thread.",                                  \
	  "Post writes with the non-blocking ncmpi_iput calls and complete them with "             \
	  "ncmpi_wait_all after the next compute step.",                                           \
	  "Use a staging method (DATASPACES, FLEXPATH) or time aggregation "                       \
	  "(adios_set_time_aggregation) so steps leave the ranks asynchronously.")                 \
	X(WRITE_AMPLIFICATION, "write_amplification", AN_INSIGHT, "analyze.amplification",         \
	  "more bytes reached the file system than MPI-IO was asked to write",                     \
	  "Independent noncontiguous writes make ROMIO's data sieving read and rewrite the holes " \
	  "between a rank's pieces: write with the collective calls (MPI_File_write_all), whose "  \
	  "aggregators write contiguous blocks, or disable data sieving (hint "                    \
	  "romio_ds_write=disable).",                                                              \
	  "Independent writes of noncontiguous selections make ROMIO read and rewrite the holes: " \
	  "write them collectively (H5FD_MPIO_COLLECTIVE) or pass romio_ds_write=disable in the "  \
	  "MPI_Info of H5Pset_fapl_mpio.",                                                         \
	  "Noncontiguous independent puts make ROMIO read and rewrite the holes: use the "         \
	  "collective puts, or pass romio_ds_write=disable in the file's MPI_Info.",                \
	  NULL)                                                                                    \
	X(METADATA_HEAVY, "metadata_heavy", AN_INSIGHT, "analyze.metadata_share",                  \
	  "metadata operations (open, stat, seek, close...) take a large share of the I/O time",   \
	  "Open files once and keep them open, stat less often, and spread files over "            \
	  "directories; fewer, larger files help the metadata server.",                            \
	  "Keep the file open across steps, use collective metadata (H5Pset_all_coll_metadata_ops"  \
	  ", H5Pset_coll_metadata_write) and the latest file format (H5Pset_libver_bounds).",      \
	  "Keep the file open across steps and define all variables in one define mode.",          \
	  "Open the output once and write steps into it, rather than one file per step.")          \
	X(SYNC_HEAVY, "sync_heavy", AN_INSIGHT, "analyze.metadata_share",                          \
	  "waiting for data to reach storage (fsync, fdatasync, MPI_File_sync) takes a large "     \
	  "share of the I/O time",                                                                 \
	  "Sync once per checkpoint, not after every write; let close flush the data.",            \
	  "Flush once per checkpoint (H5Fflush) rather than per dataset; closing the file "        \
	  "flushes it.",                                                                           \
	  "Call ncmpi_sync only where a reader needs the data; closing the file flushes it.",      \
	  NULL)                                                                                    \
	X(HEAVY_STDIO, "heavy_stdio", AN_INSIGHT, "analyze.stdio_share",                           \
	  "STDIO (fread, fwrite, fprintf) moves a large share of the bytes",                       \
	  "Move bulk data through POSIX read/write with large buffers, MPI-IO or HDF5; keep "      \
	  "STDIO for text and logs.",                                                              \
	  NULL, NULL, NULL)                                                                        \
	X(FILE_PER_PROCESS, "file_per_process", AN_INSIGHT, "analyze.fpp_min_files",               \
	  "as many files as ranks or more, each written by one rank",                              \
	  "Write shared files (MPI-IO, HDF5, PnetCDF) or fewer files (one per node, subfiling): "  \
	  "thousands of files load the metadata servers at every checkpoint.",                     \
	  "Open one file with the MPI-IO driver (H5Pset_fapl_mpio) and give each rank a "          \
	  "hyperslab, rather than a file per rank.",                                               \
	  "Create one file through PnetCDF (or NetCDF-4 with nc_create_par) and give each rank a " \
	  "slab.",                                                                                 \
	  "Use the MPI_AGGREGATE method with a few aggregators instead of POSIX's file per "        \
	  "process.")                                                                              \
	X(REDUNDANT_READS, "redundant_reads", AN_INSIGHT, "analyze.redundant_read_factor",         \
	  "a file is read several times over",                                                     \
	  "Read shared input once and broadcast it (MPI_Bcast), or keep it in memory instead of "  \
	  "reading it again.",                                                                     \
	  "Read the dataset once per job (or per node) and broadcast it; enlarge the chunk cache " \
	  "so chunks are not read again.",                                                         \
	  NULL, NULL)                                                                              \
	X(REDUNDANT_WRITES, "redundant_writes", AN_INSIGHT, "analyze.redundant_read_factor",       \
	  "a file's bytes are written several times over",                                         \
	  "Write each byte once: keep the data in memory until it is final, or write the "         \
	  "changes to a new file.",                                                                \
	  "Write a dataset once it is final rather than overwriting it each step, or give each "   \
	  "step its own dataset.",                                                                 \
	  NULL,                                                                                    \
	  "Each step appended in mode \"a\" rewrites the file's index: aggregate steps in memory "  \
	  "(adios_set_time_aggregation) or write fewer, larger steps.")                            \
	/* ---- what the other analyses report ---- */                                             \
	X(ACCESS_PATTERN, "access_pattern", AN_OBSERVATION, "analyze.random_share",                \
	  "sequential, consecutive or random access; transfer sizes; alignment",                   \
	  NULL, NULL, NULL, NULL)                                                                  \
	X(CHECKPOINTS, "checkpoints", AN_OBSERVATION, "analyze.phase_min_gap",                     \
	  "write phases that recur: period, bytes per checkpoint and per rank",                    \
	  NULL, NULL, NULL, NULL)                                                                  \
	X(SINGLE_WRITE_PHASE, "single_write_phase", AN_OBSERVATION, "analyze.phase_min_gap",       \
	  "the job wrote in one phase", NULL, NULL, NULL, NULL)                                    \
	X(NO_WRITES, "no_writes", AN_OBSERVATION, NULL, "the job wrote nothing",                   \
	  NULL, NULL, NULL, NULL)                                                                  \
	X(COARSE_TIME_BINS, "coarse_time_bins", AN_OBSERVATION, NULL,                  \
	  "without a trace, the time bins are too coarse to tell write phases apart",              \
	  "Keep the operation trace on (IOATLAS_TRACE=1) for jobs whose phases matter.",           \
	  NULL, NULL, NULL)                                                                        \
	X(NO_TRACE, "no_trace", AN_OBSERVATION, NULL,                                              \
	  "no operation trace (and, for phases, no time bins): what needs it is unknown",          \
	  NULL, NULL, NULL, NULL)                                                                  \
	X(TOO_FEW_CHECKPOINTS, "too_few_checkpoints", AN_OBSERVATION, NULL,                        \
	  "fewer than two checkpoints: no AMR signature to read", NULL, NULL, NULL, NULL)          \
	X(AMR, "amr", AN_OBSERVATION, "analyze.amr_size_change, analyze.amr_rank_cv",              \
	  "adaptive mesh refinement: checkpoints change size and spread unevenly over ranks",      \
	  NULL, NULL, NULL, NULL)                                                                  \
	X(NOT_AMR, "not_amr", AN_OBSERVATION, "analyze.amr_size_change, analyze.amr_rank_cv",      \
	  "checkpoints keep their size and ranks write alike", NULL, NULL, NULL, NULL)             \
	X(AMR_INCONCLUSIVE, "inconclusive", AN_OBSERVATION,                                        \
	  "analyze.amr_size_change, analyze.amr_rank_cv",                                          \
	  "checkpoints change size or spread over ranks, not both", NULL, NULL, NULL, NULL)        \
	X(CLIENT_CLASSES, "client_classes", AN_OBSERVATION, NULL,                                  \
	  "ranks grouped by I/O calls and bytes", NULL, NULL, NULL, NULL)                          \
	X(WIDE_CLIENT_SPREAD, "wide_client_spread", AN_OBSERVATION, NULL,                          \
	  "ranks' I/O calls spread widely (coefficient of variation over 0.5)",                    \
	  NULL, NULL, NULL, NULL)                                                                  \
	X(NO_IO_RANKS, "no_io_ranks", AN_OBSERVATION, NULL, "ranks that did no I/O",               \
	  NULL, NULL, NULL, NULL)                                                                  \
	X(HEAD_RANK, "head_rank", AN_INSIGHT, NULL,                                                \
	  "one rank makes far more I/O calls than the others (reads the inputs alone)",            \
	  "Read inputs collectively or on one rank per node and broadcast; spread the head "       \
	  "rank's output over ranks.",                                                             \
	  "Open inputs with the MPI-IO driver and read them collectively, or read on one rank "    \
	  "and broadcast.",                                                                        \
	  NULL, NULL)                                                                              \
	X(AGGREGATION, "aggregation", AN_OBSERVATION, NULL,                                        \
	  "the ranks that carried collective MPI-IO's file system I/O, per node, against the "     \
	  "hints", NULL, NULL, NULL, NULL)                                                         \
	X(AGGREGATOR_PLACEMENT, "aggregator_placement", AN_INSIGHT, NULL,                          \
	  "collective MPI-IO used other aggregators than its hints asked for",                     \
	  "Check cb_nodes and cb_config_list against the nodes the job ran on (one aggregator "    \
	  "per node is a good start); ROMIO ignores hints it cannot honour.",                      \
	  "Pass cb_nodes and cb_config_list in the MPI_Info given to H5Pset_fapl_mpio; check "     \
	  "them against the job's nodes.",                                                         \
	  "Pass cb_nodes and cb_config_list in the MPI_Info given to ncmpi_create; check them "    \
	  "against the job's nodes.",                                                              \
	  "Set the MPI_AGGREGATE method's num_aggregators to the node count.")                     \
	X(NO_MPIIO, "no_mpiio", AN_OBSERVATION, NULL, "no MPI-IO", NULL, NULL, NULL, NULL)         \
	X(HEADER_UPDATES, "header_updates", AN_OBSERVATION, "analyze.header_max_bytes",            \
	  "small rewrites of bytes already written (a header updated in place)",                   \
	  "Write the header once at the end, or keep it in its own small file.",                   \
	  "Keep the file's metadata together (H5Pset_meta_block_size) and write attributes "       \
	  "once, at the end of the run.",                                                          \
	  "Reserve header space (nc_header_pad / ncmpi__enddef) so the header is not rewritten "   \
	  "as variables are added.",                                                               \
	  NULL)                                                                                    \
	X(TEMPORARY_FILES, "temporary_files", AN_OBSERVATION, NULL,                                \
	  "files created and removed within the job",                                              \
	  "Put temporary files on node-local storage ($TMPDIR) instead of the parallel file "      \
	  "system.", NULL, NULL, NULL)                                                             \
	X(RMDIR_THEN_UNLINK, "rmdir_then_unlink", AN_OBSERVATION, NULL,                            \
	  "names removed by trying rmdir first (ENOTDIR), then unlink",                            \
	  "Call remove() or unlink() on files directly; each failed rmdir is a metadata round "    \
	  "trip.", NULL, NULL, NULL)                                                               \
	X(FAILED_CALLS, "failed_calls", AN_OBSERVATION, NULL,                                      \
	  "failed calls by operation and errno (or MPI error class) and their patterns",           \
	  NULL, NULL, NULL, NULL)                                                                  \
	X(IMPORTED, "imported", AN_OBSERVATION, NULL,                                              \
	  "the log came from another tool (Darshan): what it does not record is unknown",          \
	  NULL, NULL, NULL, NULL)
/* clang-format on */

enum an_finding_id {
#define X(id, ...) AN_F_##id,
	AN_FINDINGS(X)
#undef X
		AN_NFINDINGS
};

struct an_finding_def {
	const char *code;
	enum an_finding_kind kind;
	const char *setting; /* what decides it, NULL when fixed */
	const char *meaning;
	const char *advice[AN_USER_LAYERS]; /* POSIX and MPI-IO share one; NULL: none */
};

extern const struct an_finding_def an_findings[AN_NFINDINGS];

#endif
