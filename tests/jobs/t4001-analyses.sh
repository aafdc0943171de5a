# t4001-analyses — `ioatlas analyze` on MPI jobs with known ground truth
# (tests/jobs/ground-truth.c), run under the runtime, ingested into a
# throwaway warehouse, analysed as the read-only reporting role: what each
# analysis finds is asserted, then that running again replaces, that a
# new version sits beside the old one, and that the nightly run picks only
# what lacks a current result.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
require_pg
require_mpi

wh="$IOA_BUILD_DIR/libexec/ioatlas/ioatlas-warehouse"
ingest="$IOA_BUILD_DIR/libexec/ioatlas/ioatlas-ingest"
analyze="$IOA_BUILD_DIR/libexec/ioatlas/ioatlas-analyze"
gt="$IOA_BUILD_DIR/tests/jobs/ground-truth"

ok "a throwaway cluster starts" pg_start
export IOATLAS_CONF=/dev/null
ok "the warehouse is migrated" "$wh" migrate
q() { psql -X -t -A -U ioatlas -c "$1"; }

logs=$(ioa_logdir)
export IOATLAS_LOGDIR=$logs
# Runs a ground-truth job (more mpiexec arguments after the mode) and
# ingests its log; prints the job's id.
job() {
	local ranks=$1 mode=$2 before log j
	shift 2
	before=$(ioa_logs "$logs")
	mkdir -p "$TEST_TMP/data/$mode-$ranks-$#"
	ioa_mpi_preload "$logs" "$ranks" 120 "$@" "$gt" "$mode" "$TEST_TMP/data/$mode-$ranks-$#" \
		>/dev/null 2>>"$TEST_TMP/jobs.err" || return 1
	log=$(comm -13 <(printf '%s\n' "$before") <(ioa_logs "$logs"))
	j=$("$ingest" "$log" | sed -n 's/^ingested .*: job \([0-9]*\),.*/\1/p')
	cp "$log" "$TEST_TMP/job-$j.log" # kept to show when a check fails
	echo "$j"
}
declare -A id
for mode in fixed amr amr-moving collective fpp temp header shared-header small random; do
	id[$mode]=$(job 4 "$mode")
done
id[serial]=$(job 1 small)
mkdir -p "$TEST_TMP/data/streams-4-0"
head -c 65536 /dev/zero >"$TEST_TMP/data/streams-4-0/streams.in"
id[streams]=$(job 4 streams)
# No trace: the time bins (16 per record over the run) need longer gaps to show the phases.
id[untraced]=$(job 4 fixed -genv IOATLAS_TRACE 0 -genv GROUND_TRUTH_COMPUTE 1)
id[mixed]=$(job 4 mixed)
id[mixed-untraced]=$(job 4 mixed -genv IOATLAS_TRACE 0 -genv GROUND_TRUTH_COMPUTE 1)
# Real time scales: 20 ms of compute between checkpoints, at 4 and 8 ranks.
id[amr4-fast]=$(job 4 amr -genv GROUND_TRUTH_COMPUTE 0.02)
id[amr8-fast]=$(job 8 amr -genv GROUND_TRUTH_COMPUTE 0.02)
id[fixed8-fast]=$(job 8 fixed -genv GROUND_TRUTH_COMPUTE 0.02)
id[fixed2]=$(job 2 fixed -genv GROUND_TRUTH_COMPUTE 0.02)
for mode in fixed amr amr-moving collective fpp temp header shared-header small random serial \
	untraced mixed mixed-untraced streams \
	amr4-fast amr8-fast fixed8-fast fixed2; do
	like "${id[$mode]}" '^[0-9]+$' "the $mode job ran and is in the warehouse"
done

# The analyses run as the reporting role, as a site's batch would.
psql -X -q -c 'CREATE ROLE batch LOGIN IN ROLE ioatlas_reader'
export IOATLAS_WAREHOUSE_CONNINFO="user=batch" IOATLAS_ANALYZE_FPP_MIN_FILES=4
ok "the nightly run analyses every new job" "$analyze"
like "$(cat "$TEST_TMP/last.out")" "19 jobs analysed" "all nineteen of them"
is "$(q "SELECT count(DISTINCT analysis) || ' ' || count(*) FROM analysis_results")" \
	"8 152" "eight analyses per job, one result each"

# r JOB ANALYSIS PATH: a value of a result (PATH as for #>>).
r() { q "SELECT result #>> '$3' FROM analysis_results WHERE job = $1 AND analysis = '$2'"; }
codes() { q "SELECT string_agg(f->>'code', ' ' ORDER BY f->>'code') FROM analysis_results,
	jsonb_array_elements(result->'findings') f WHERE job = $1 AND analysis = '$2'"; }

# Checkpoints 20 ms apart: the quiet that separates them is the job's own time scale.
for n in 4 8; do
	j=${id[amr$n-fast]}
	is "$(r "$j" amr '{classification}')" amr "amr, 20 ms apart, $n ranks: classified AMR"
	is "$(r "$j" amr '{sizes}')" \
		"$(awk -v n="$n" 'BEGIN { p = n / 4 * 15 * 16384
			printf "[%d, %d, %d, %d, %d]", p, 2 * p, 3 * p, 3 * p, 3 * p }')" \
		"amr, 20 ms apart, $n ranks: the five checkpoints as written"
done
j=${id[fixed8-fast]}
is "$(r "$j" checkpoints '{checkpoints}')" 4 "fixed, 20 ms apart, 8 ranks: four checkpoints"
is "$(r "$j" amr '{classification}')" not_amr "fixed, 20 ms apart, 8 ranks: not AMR"

# Imbalance judged against noise: ranks writing alike raise none, whatever their jitter;
# ranks writing 1:4:2:8 parts of the same files do.
for mode in fixed fixed8-fast fixed2; do
	is "$(codes "${id[$mode]}" insights | grep -o '[a-z_]*imbalance')" "" \
		"$mode: ranks writing alike raise no imbalance"
done
is "$(codes "${id[amr]}" insights | grep -o 'data_imbalance')" data_imbalance \
	"amr: ranks writing 1:4:2:8 parts of each shared file are a data imbalance"

# The warehouse holds how each job's times were put on one clock, as its log says.
log=$(q "SELECT path FROM ingest_ledger WHERE job = ${id[fixed]} AND status = 'ingested'")
w=$(q "SELECT clock_base || ' ' || clock_uncertainty_ns || ' ' || clock_drift_ns FROM jobs
	WHERE id = ${id[fixed]}")
like "$w" '^rank0 [0-9]+ [0-9]+$' "fixed: the warehouse holds rank 0's clock with its precision"
is "$w" \
	"$("$IOA_BUILD_DIR/bin/ioatlas" parse "$log" | sed -n 's/^# clock: base=\([a-z0-9]*\) uncertainty_ns=\([0-9]*\) drift_ns=\([0-9]*\).*/\1 \2 \3/p')" \
	"fixed: the warehouse's clock is the log's (base, uncertainty, drift)"

# Two ranks: the head rank is judged against the other one.
is "$(r "${id[fixed2]}" clients '{head_rank}')" 0 "fixed, 2 ranks: rank 0 is the head rank"

# A read-only job that prints a lot: what goes to stdout and stderr is no checkpoint.
j=${id[streams]}
is "$(r "$j" checkpoints '{checkpoints}')" 0 "streams: a read-only job has no checkpoints"
is "$(q "SELECT count(DISTINCT n.display) FROM records r JOIN file_names n ON n.sha256 = r.file
	WHERE r.job = $j AND n.display IN ('<STDOUT>', '<STDERR>') AND r.bytes_written > 0")" 2 \
	"though its stdout and stderr records show the writes"

# Fixed-size checkpoints, a head rank that reads the input deck.
j=${id[fixed]}
is "$(r "$j" checkpoints '{checkpoints}')" 4 "fixed: four checkpoints"
is "$(q "SELECT string_agg(p->>'bytes', ' ') FROM analysis_results,
	jsonb_array_elements(result->'phases') p WHERE job = $j AND analysis = 'checkpoints'
	AND (p->>'checkpoint')::boolean")" "1048576 1048576 1048576 1048576" \
	"fixed: 1 MiB each (4 ranks x 256 KiB), the input deck not among them"
ok "fixed: one every 0.3 s or a little more (the spinning between them)" \
	test "$(q "SELECT (result->>'period')::float BETWEEN 0.28 AND 0.6 FROM analysis_results
		WHERE job = $j AND analysis = 'checkpoints'")" = t
is "$(r "$j" checkpoints '{phases,0,per_rank,cv}' | awk '{ print $1 + 0 }')" 0 \
	"fixed: every rank writes alike"
is "$(r "$j" amr '{classification}')" not_amr "fixed: not AMR"
is "$(r "$j" clients '{head_rank}')" 0 "fixed: rank 0 is the head rank"
is "$(r "$j" clients '{class_count}')" 2 "fixed: two client classes, the head rank and the rest"
is "$(r "$j" clients '{classes,0,rank_list}')" 1-3 "fixed: ranks 1-3 alike"
like "$(q "SELECT f->'evidence'->>'inputs' FROM analysis_results,
	jsonb_array_elements(result->'findings') f WHERE job = $j AND analysis = 'clients'
	AND f->>'code' = 'head_rank'")" "input\\.deck" "with the input deck as its evidence"

# Without a trace, the time bins show the checkpoints (with less confidence).
j=${id[untraced]}
is "$(r "$j" checkpoints '{source}')" "time bins" "untraced: the phases come from the time bins"
# The quiet between checkpoints is a bin or two: two checkpoints may fall in adjacent bins,
# which must then be said (tests/jobs/t4102-phases), never one checkpoint short in silence.
got=$(r "$j" checkpoints '{checkpoints}')
[ "$got" != 4 ] && [ "$(codes "$j" checkpoints | grep -o coarse_time_bins)" ] &&
	got="$got (the time bins too coarse to tell, and said so)"
like "$got" '^(4|[1-3] \(the time bins too coarse.*)$' "untraced: the same four checkpoints"
# Ranks launched apart (by hundreds of ms under the sanitizers) have bin grids apart too: the
# bins may then be too coarse to tell, which the analyses must say, never a wrong verdict.
cls=$(r "$j" amr '{classification}')
ok "untraced: not AMR, or too coarse to tell and said so ($cls)" test "$cls" = not_amr -o \
	"$cls/$(codes "$j" checkpoints | grep -o coarse_time_bins)" = unknown/coarse_time_bins
ok "untraced: with less confidence than from the trace" \
	test "$(q "SELECT a.confidence < b.confidence FROM analysis_results a, analysis_results b
		WHERE a.job = $j AND b.job = ${id[fixed]} AND a.analysis = 'checkpoints'
		AND b.analysis = 'checkpoints'")" = t

# A rank's data written by itself in one checkpoint and by an aggregator in the next
# belongs to the checkpoint it was written in, not to the rank's own nearest writes.
for mode in mixed mixed-untraced; do
	j=${id[$mode]}
	got=$(r "$j" checkpoints '{phases}' | python3 -c 'import json, sys
print([p["bytes"] for p in json.load(sys.stdin) if p["checkpoint"]])')
	[ "$mode" = mixed-untraced ] && [ "$(codes "$j" checkpoints | grep -o coarse_time_bins)" ] &&
		got="$got (the time bins too coarse to tell, and said so)"
	like "$got" '^\[1048576, 1048576, 1048576\]( \(the time bins too coarse.*)?$' \
		"$mode: three checkpoints of 4 x 256 KiB" ||
		diag "what was found:" "$(r "$j" checkpoints '{}')" "the trace:" \
			"$("$IOA_BUILD_DIR/bin/ioatlas" trace "$TEST_TMP/job-$j.log")"
done

# Growing then saturating checkpoints with uneven ranks.
j=${id[amr]}
is "$(r "$j" amr '{classification}')" amr "amr: classified AMR"
is "$(r "$j" amr '{checkpoints}')" 5 "amr: five checkpoints"
is "$(r "$j" clients '{class_count}')" 4 "amr: every rank a client class of its own (bytes 1:4:2:8)"
is "$(r "$j" amr '{shape}')" "growing then settling" "amr: sizes grow, then settle"
is "$(r "$j" amr '{sizes}')" "[245760, 491520, 737280, 737280, 737280]" \
	"amr: checkpoint sizes as written (1, 2, 3, 3, 3 x 15 parts of 16 KiB)"
ok "amr: per-rank data spreads widely" \
	test "$(q "SELECT (result->>'rank_cv_median')::float > 0.5 FROM analysis_results
		WHERE job = $j AND analysis = 'amr'")" = t
ok "amr: the finding carries its evidence and a confidence" \
	test "$(q "SELECT jsonb_array_length(result->'findings'->0->'evidence'->'checkpoint_bytes')
		|| ' ' || (confidence >= 0.7) FROM analysis_results WHERE job = $j
		AND analysis = 'amr'")" = "5 true"

# A mesh rebalanced: the same total at every checkpoint, moving between ranks.
j=${id[amr-moving]}
is "$(r "$j" amr '{classification}')" amr "amr-moving: classified AMR"
is "$(r "$j" amr '{sizes}')" "[245760, 245760, 245760, 245760, 245760]" \
	"amr-moving: checkpoints of one size (15 parts of 16 KiB)"
# Shares 1:4:2:8 shifted by one rank: |1-4|+|4-2|+|2-8|+|8-1| = 18 of 2 x 15 parts move.
is "$(r "$j" amr '{redistribution}' | awk '{ printf "%.3f", $1 }')" 0.600 \
	"amr-moving: 60% of the data changes rank between checkpoints"
is "$(r "$j" amr '{head_writer}')" -1 "amr-moving: no head writer"

# Collective writes with one aggregator per node.
j=${id[collective]}
is "$(r "$j" checkpoints '{checkpoints}')" 3 "collective: three checkpoints"
is "$(r "$j" aggregation '{files,0,aggregator_count}')" 1 "collective: one aggregator"
is "$(r "$j" aggregation '{files,0,per_node,0,aggregators}')" 1 "collective: one on the node"
is "$(r "$j" aggregation '{files,0,non_aggregators}')" 1-3 "collective: ranks 1-3 issue no POSIX I/O"
is "$(r "$j" aggregation '{files,0,hints,cb_config_list}')" '*:1' "collective: the hint given at open"
is "$(r "$j" aggregation '{files,0,matches_hints}')" true "collective: as the hints ask"

# File per process; temporary files removed with rmdir, then unlink.
like "$(codes "${id[fpp]}" insights)" "file_per_process" "fpp: the file-per-process insight"
j=${id[temp]}
is "$(r "$j" tempfiles '{temporary_file_count}')" 2 "temp: two temporary files"
is "$(q "SELECT count(*) FROM analysis_results, jsonb_array_elements(result->'patterns') p
	WHERE job = $j AND analysis = 'tempfiles' AND (p->>'order_seen_in_trace')::boolean")" 2 \
	"temp: both removed by rmdir (ENOTDIR) then unlink, in that order"
is "$(q "SELECT e->>'count' FROM analysis_results, jsonb_array_elements(result->'errors') e
	WHERE job = $j AND analysis = 'tempfiles' AND e->>'op' = 'rmdir'")" 2 \
	"temp: the failed calls by operation ..."
is "$(q "SELECT e->>'errno' FROM analysis_results, jsonb_array_elements(result->'errors') e
	WHERE job = $j AND analysis = 'tempfiles' AND e->>'op' = 'rmdir'")" ENOTDIR "... and errno"

# 4-byte header updates after each checkpoint: offset 0 common, one per rank of its own.
j=${id[header]}
is "$(r "$j" header_updates '{updates}')" 24 "header: 2 updates x 4 ranks x 3 checkpoints"
is "$(r "$j" header_updates '{sizes}')" '{"4": 24}' "header: all of 4 bytes"
is "$(r "$j" header_updates '{common_offsets,0,offset}')" 0 "header: offset 0 common to all ranks"
is "$(r "$j" header_updates '{common_offset_count}')" 1 "header: and only that one"
is "$(r "$j" header_updates '{rank_specific_count}')" 12 "header: the others rank-specific"
is "$(r "$j" header_updates '{per_phase}')" "[8, 8, 8]" "header: after each checkpoint"

# Updates into another rank's bytes: ranks 1-3 rewrite parts of rank 0's header.
j=${id[shared-header]}
is "$(r "$j" header_updates '{updates}')" 24 "shared header: 2 updates x 4 ranks x 3 checkpoints"
is "$(r "$j" header_updates '{sizes}')" '{"4": 12, "8": 12}' \
	"shared header: 8 bytes into the header, 4 into each rank's own block"
is "$(r "$j" header_updates '{ranks_updating}')" 4 "shared header: by every rank, rank 0's bytes or not"

# Small requests, random access, and a serial job.
like "$(codes "${id[small]}" insights)" "small_requests" "small: the small-request insight"
is "$(r "${id[small]}" access '{small_share}' | awk '{ print $1 + 0 }')" 1 \
	"small: every request is small"
is "$(r "${id[random]}" access '{read_pattern}')" random "random: reads classified random"
is "$(r "${id[random]}" access '{per_rank,3,sizes}')" '{"1K-10K": 2000, "100K-1M": 8}' \
	"random: each rank's transfer sizes (2000 reads of 4 KiB, 8 writes of 1 MiB)"
like "$(codes "${id[random]}" insights)" "random_reads" "random: the random-read insight"
j=${id[serial]}
like "$(codes "$j" insights)" "small_requests" "serial: its small requests are found"
unlike "$(codes "$j" insights)" "no_collective_io|rank_imbalance|file_per_process" \
	"serial: no MPI advice"
unlike "$(codes "$j" insights)" "random_reads|redundant_reads" "serial: no read advice (it reads nothing)"
is "$(q "SELECT count(*) FROM analysis_results, jsonb_array_elements(result->'findings') f
	WHERE analysis = 'insights' AND NOT (f ? 'severity' AND f ? 'recommendation' AND f ? 'evidence')")" \
	0 "every insight has a severity, a recommendation and evidence"

# Again: results replaced, not added; the nightly run finds nothing to do.
before=$(q "SELECT max(created_at) FROM analysis_results WHERE job = ${id[amr]}")
ok "a job analysed again" "$analyze" --job "${id[amr]}"
is "$(q "SELECT count(*) FROM analysis_results WHERE job = ${id[amr]}")" 8 "its results replaced"
ok "with new times" test "$(q "SELECT max(created_at) > '$before' FROM analysis_results
	WHERE job = ${id[amr]}")" = t
ok "the nightly run again" "$analyze"
like "$(cat "$TEST_TMP/last.out")" "0 jobs analysed" "has nothing to do"

# A new version beside an old one: the old row stays, the missing one is made.
q "UPDATE analysis_results SET version = 0 WHERE job = ${id[fixed]} AND analysis = 'amr'" >/dev/null
ok "the nightly run after an analysis's version changed" "$analyze"
like "$(cat "$TEST_TMP/last.out")" "1 jobs analysed" "analyses the job lacking the new version"
amr_version=$("$analyze" --list | awk '$1 == "amr" { sub(/^v/, "", $2); print $2 }')
is "$(q "SELECT string_agg(version::text, ' ' ORDER BY version) FROM analysis_results
	WHERE job = ${id[fixed]} AND analysis = 'amr'")" "0 $amr_version" "both versions stand side by side"
ok "--since/--until re-analyse a period" "$analyze" --since 2000-01-01 --until 2100-01-01 --only amr
like "$(cat "$TEST_TMP/last.out")" "19 jobs analysed" "every job in it"

# What the warehouse holds is not trusted either: a trace that does not
# decode, counter arrays cut short, nodes that do not exist.
q "UPDATE traces SET data = decode('deadbeef', 'hex') WHERE job = ${id[header]}" >/dev/null
q "UPDATE records SET counters = '{1}' WHERE job = ${id[header]}" >/dev/null
q "UPDATE jobs SET rank_nodes = '{7,-3}', hostnames = NULL WHERE id = ${id[collective]}" >/dev/null
ok "damaged rows: the jobs are still analysed" "$analyze" --job "${id[header]}" --job "${id[collective]}"
is "$(r "${id[header]}" checkpoints '{trace_partial}')" true "a trace that does not decode is said partial"
is "$(r "${id[header]}" checkpoints '{source}')" "time bins" "and the time bins stand in for it"
is "$(r "${id[collective]}" aggregation '{files,0,per_node}')" "[]" "unknown nodes: no per-node figures"

fails "a job the warehouse lacks is an error" "$analyze" --job 999999
like "$(cat "$TEST_TMP/last.out")" "no job 999999 in the warehouse" "that says so"
fails "an unknown analysis is refused" "$analyze" --only nonsense
like "$(cat "$TEST_TMP/last.out")" "no analysis 'nonsense'" "by name"
IOATLAS_ANALYZE_AMR_RANK_CV=lots fails "a bad threshold is refused" "$analyze"
like "$(cat "$TEST_TMP/last.out")" "bad value in IOATLAS_ANALYZE_AMR_RANK_CV: 'lots'" \
	"with the setting named"
done_testing
