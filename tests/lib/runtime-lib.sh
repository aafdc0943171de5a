# runtime-lib.sh — helpers for tests that run programs under libioatlas and
# read the logs they leave (sourced by runtime tests after test-lib.sh).
#
#	logs=$(ioa_logdir)                       # an empty log tree in $TEST_TMP
#	ioa_preload "$logs" command args...      # LD_PRELOAD=libioatlas.so, non-MPI logs on
#	log=$(ioa_only_log "$logs")              # the one log written, or fail
#	ioa_counter "$log" POSIX 0 /path POSIX_WRITES   # one counter's value
#	ioa_ompi_preload "$logs" 2 60 command...  # an Open MPI job under libioatlas
#
# ioa_counter prints nothing when the record is missing, so `is` shows it.

IOA_RUNTIME_SO="$IOA_BUILD_DIR/lib/libioatlas.so"
IOA_CMD="$IOA_BUILD_DIR/bin/ioatlas"

# In sanitizer builds the runtime is instrumented, and a process must load
# the sanitizers' runtimes before it: ioa_preload_list puts them first.
IOA_SANITIZER_PRELOAD=""
case ",${IOA_SANITIZE:-}," in
*,address,*) IOA_SANITIZER_PRELOAD=$("$IOA_CC" -print-file-name=libasan.so) ;;
esac
case ",${IOA_SANITIZE:-}," in
*,undefined,*)
	IOA_SANITIZER_PRELOAD="${IOA_SANITIZER_PRELOAD:+$IOA_SANITIZER_PRELOAD:}$("$IOA_CC" -print-file-name=libubsan.so)"
	;;
esac

# ioa_sanitized_programs: sets san to the compiler flags that build a program
# with this build's sanitizers (empty otherwise), and lets leaks go.  A
# program that links HDF5, preloaded with a sanitizer it was not built with,
# hangs in MPICH's MPI_Init on glibc's locale lock (libasan's doing: it does
# without the runtime), so the tests that build such programs call this;
# the libraries they load (HDF5, Open MPI, Python) leak by design at exit.
ioa_sanitized_programs() {
	san=${IOA_SANITIZE:+-fsanitize=$IOA_SANITIZE}
	[ -z "${IOA_SANITIZE:-}" ] ||
		export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0:verify_asan_link_order=0"
}

# ioa_preload_list LIB...: an LD_PRELOAD value for these libraries, in order.
ioa_preload_list() {
	local IFS=:
	echo "${IOA_SANITIZER_PRELOAD:+$IOA_SANITIZER_PRELOAD:}$*"
}

ioa_logdir() {
	local dir
	dir=$(mktemp -d "$TEST_TMP/logs.XXXXXX") && echo "$dir"
}

# ioa_preload LOGDIR COMMAND...: runs COMMAND with the runtime preloaded and
# writing non-MPI logs under LOGDIR; other IOATLAS_* settings pass through.
ioa_preload() {
	local logs=$1
	shift
	IOATLAS_LOGDIR="$logs" IOATLAS_NONMPI="${IOATLAS_NONMPI:-1}" \
		LD_PRELOAD="$(ioa_preload_list "$IOA_RUNTIME_SO")" "$@"
}

# ioa_mpi_preload LOGDIR RANKS SECONDS COMMAND...: the same under mpiexec.
ioa_mpi_preload() {
	local logs=$1 ranks=$2 seconds=$3
	shift 3
	IOATLAS_LOGDIR="$logs" mpi_run "$ranks" "$seconds" \
		-genv LD_PRELOAD "$(ioa_preload_list "$IOA_RUNTIME_SO")" -genv IOATLAS_LOGDIR "$logs" "$@"
}

# ompi_run RANKS SECONDS [-x VAR=VALUE]... COMMAND...: Open MPI's mpiexec
# with a timeout (status 124 when it fires); Open MPI passes a job only the
# variables named with -x.  Sanitizer builds also pass HWLOC_PLUGINS_PATH
# (see test-lib.sh) and leave leaks to the MPICH jobs' checks: Open MPI and
# Python leak by design at exit, in code no suppression can name.
ompi_run() {
	local ranks=$1 seconds=$2
	shift 2
	set -- ${HWLOC_PLUGINS_PATH:+-x HWLOC_PLUGINS_PATH="$HWLOC_PLUGINS_PATH"} "$@"
	[ -z "${IOA_SANITIZE:-}" ] || set -- -x ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" "$@"
	run_timeout "$seconds" mpiexec.openmpi --oversubscribe --allow-run-as-root -n "$ranks" "$@"
}

# ioa_ompi_preload LOGDIR RANKS SECONDS COMMAND...: ompi_run under libioatlas.
ioa_ompi_preload() {
	local logs=$1 ranks=$2 seconds=$3
	shift 3
	ompi_run "$ranks" "$seconds" -x LD_PRELOAD="$(ioa_preload_list "$IOA_RUNTIME_SO")" \
		-x IOATLAS_LOGDIR="$logs" "$@"
}

# mpi_killed_wait DIR N [SECONDS]: waits (30 s by default) until both ranks
# of tests/workloads/mpi-killed, working in DIR, said they wrote N blocks.
mpi_killed_done() { od -An -tu8 "$1/done.$2" 2>/dev/null | tr -d ' '; }
mpi_killed_wait() {
	local i
	for i in $(seq $((${3:-30} * 10))); do
		[ "$(mpi_killed_done "$1" 0)" -ge "$2" ] 2>/dev/null &&
			[ "$(mpi_killed_done "$1" 1)" -ge "$2" ] 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}

# ioa_logs LOGDIR: every complete log under LOGDIR, one per line.
ioa_logs() {
	find "$1" -type f -name '*.ioa' | LC_ALL=C sort
}

# ioa_only_log LOGDIR: the path of the single log under LOGDIR; fails (and
# says what it found) when there is not exactly one.
ioa_only_log() {
	local logs
	logs=$(ioa_logs "$1")
	if [ -z "$logs" ] || [ "$(printf '%s\n' "$logs" | wc -l)" -ne 1 ]; then
		diag "expected exactly one log under $1, found:" "${logs:-nothing}" >&2
		return 1
	fi
	echo "$logs"
}

# ioa_counter LOG MODULE RANK FILE COUNTER: the counter's value in the record
# of FILE (exact path, as printed by ioatlas parse) for RANK (-1: shared).
ioa_counter() {
	"$IOA_CMD" parse "$1" | awk -F '\t' -v m="$2" -v r="$3" -v f="$4" -v c="$5" \
		'$1 == m && $2 == r && $6 == f && $4 == c { print $5; exit }'
}

# ioa_darshan_compare LOG RUNDIR DARSHAN_LOG DARSHAN_RUNDIR DARSHAN_DIR: four
# checks of one program run under ioatlas (LOG, in RUNDIR) and under Darshan
# (DARSHAN_LOG, in DARSHAN_RUNDIR; its tools in DARSHAN_DIR): both logs read,
# every Darshan-named counter of every record agrees or differs as
# common/darshan-differences.h lists (darshan-compare, as t1050), and every
# record of Darshan's is compared.  darshan-compare's lines are left in
# $TEST_TMP/diff, darshan-parser's output in $TEST_TMP/theirs.txt.
ioa_darshan_compare() {
	local status records
	"$IOA_CMD" parse --json "$1" >"$TEST_TMP/ours.json"
	ok "ioatlas parse --json reads its log" test -s "$TEST_TMP/ours.json"
	LD_LIBRARY_PATH="$5/lib" "$5/bin/darshan-parser" "$3" >"$TEST_TMP/theirs.txt"
	ok "darshan-parser reads Darshan's log" grep -q '^POSIX' "$TEST_TMP/theirs.txt"
	"$IOA_BUILD_DIR/tests/runtime/darshan-compare" "$TEST_TMP/ours.json" "$2" \
		"$TEST_TMP/theirs.txt" "$4" >"$TEST_TMP/diff" 2>&1
	status=$?
	is "$status $(grep -v '^listed\|^compared' "$TEST_TMP/diff")" "0 " \
		"every Darshan counter agrees, or differs as listed"
	diag "$(grep -c '^listed' "$TEST_TMP/diff") listed differences; $(grep '^compared' \
		"$TEST_TMP/diff" | cut -f2- | tr '\t' ' ')"
	records=$(awk -F '\t' '/^(POSIX|STDIO|MPI-IO)\t/ { print $1, $2, $3 }' "$TEST_TMP/theirs.txt" |
		sort -u | wc -l)
	like "$(grep '^compared' "$TEST_TMP/diff")" \
		"^compared	$records records	[0-9]+ counters	[1-9][0-9]+ agree" \
		"all $records of Darshan's records are compared, counter by counter"
}

# ioa_records LOG MODULE: the file names of the module's records, sorted.
ioa_records() {
	"$IOA_CMD" parse "$1" | awk -F '\t' -v m="$2" '$1 == m { print $2 "\t" $6 }' |
		LC_ALL=C sort -u
}

# ioa_result JSON ANALYSIS EXPR: a Python expression over an analysis's
# result r in a report's JSON (`ioatlas report --json`): codes is the list of
# its finding codes, f(CODE) its finding of that code.
# ioa_h5_records LOG DIR: the HDF5 records of a log as hdf5_truth.py prints
# ltrace's truth, names relative to DIR, summed over ranks: "file:/dataset
# opens reads writes c|-" (c: a collective transfer) and "file opens".
ioa_h5_records() {
	"$IOA_CMD" parse "$1" | awk -F '\t' -v dir="$2/" '
	($1 == "H5D" || $1 == "H5F") { name = $6; sub(dir, "", name); v[$1, name, $4] += $5; n[$1, name] = 1 }
	END {
		for (k in n) {
			split(k, p, SUBSEP)
			if (p[1] == "H5D")
				print p[2], v[k, "H5D_OPENS"], v[k, "H5D_READS"], v[k, "H5D_WRITES"], \
					(v[k, "H5D_USE_MPIIO_COLLECTIVE"] ? "c" : "-")
			else
				print p[2], v[k, "H5F_OPENS"]
		}
	}' | LC_ALL=C sort
}

# ioa_h5_unshared LOG PARTS: the datasets of a log whose reads and writes
# did not each move a 1/PARTS share of the dataset (its points times its
# element size): "name written writes read reads share"; nothing when all did.
ioa_h5_unshared() {
	"$IOA_CMD" parse "$1" | awk -F '\t' -v parts="$2" '$1 == "H5D" && $2 == -1 { v[$6, $4] = $5; n[$6] = 1 }
	END { for (k in n) {
		share = v[k, "H5D_DATASPACE_NPOINTS"] * v[k, "H5D_DATATYPE_SIZE"] / parts
		if (share <= 0 || v[k, "H5D_BYTES_WRITTEN"] != v[k, "H5D_WRITES"] * share ||
		    v[k, "H5D_BYTES_READ"] != v[k, "H5D_READS"] * share)
			print k, v[k, "H5D_BYTES_WRITTEN"], v[k, "H5D_WRITES"], v[k, "H5D_BYTES_READ"], \
				v[k, "H5D_READS"], share
	} }'
}

# ioa_h5_accesses LOG DIR: a log's datasets' most common accesses as
# hdf5_truth.py prints them: "access file:/dataset D1 D2 count".
ioa_h5_accesses() {
	"$IOA_CMD" parse "$1" | awk -F '\t' -v dir="$2/" '
		$1 == "H5D" && $2 == -1 { name = $6; sub(dir, "", name); v[name, $4] = $5; n[name] = 1 }
		END { for (k in n) for (a = 1; a <= 4; a++) if (v[k, "H5D_ACCESS" a "_COUNT"] > 0)
			print "access", k, v[k, "H5D_ACCESS" a "_LENGTH_D1"], v[k, "H5D_ACCESS" a "_LENGTH_D2"],
				v[k, "H5D_ACCESS" a "_COUNT"] }' | LC_ALL=C sort
}

# ioa_report_files JSON MODULE DIR: a report's files table, the rows of one
# module: "file reads writes bytes" (DIR/ taken off the names), sorted.
ioa_report_files() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
for f in sorted(d["files"], key=lambda f: f["file"]):
    if f["module"] == sys.argv[2]:
        print(f["file"].replace(sys.argv[3], ""), f["reads"], f["writes"],
              f["bytes_read"] + f["bytes_written"])' "$1" "$2" "$3/"
}

ioa_result() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
r = [a for a in d["analyses"] if a.get("analysis") == sys.argv[2]][0]
r = r.get("result", r)
codes = [x["code"] for x in r.get("findings", [])]
f = lambda c: [x for x in r["findings"] if x["code"] == c][0]
print(eval(sys.argv[3]))' "$@"
}

# shim_count FILE dups|handles: what tests/workloads/count-shim.c printed to
# FILE ("count-shim: N writes, M Comm_dup (D distinct)") from every process
# it was preloaded in, summed: the MPI_Comm_dup calls (M), or the distinct
# handles they got in each process (D).
shim_count() {
	awk -v d="$([ "$2" = dups ] && echo 4 || echo 6)" '$1 == "count-shim:" && $5 == "Comm_dup" {
		gsub(/[()]/, ""); n += $d } END { print n + 0 }' "$1"
}

# truth_cached NAME DIR KEY COMMAND...: ground truth that nothing of the
# tree under test takes part in (a program nobody here wrote, under ltrace,
# without the runtime) is the same in both passes of .ci/run, as HDF5
# 1.14's build is (t1019): COMMAND, which writes DIR and checks what it
# wrote, runs once per machine and KEY (the caller's checksum of the
# programs, their settings, how they are run and the tools' versions);
# later runs get that run's DIR back, the first run's folder in its files
# made theirs.  An entry is staged and renamed into place whole (two runs
# at once: the first rename wins).  Where the cache cannot be written,
# COMMAND runs each time.  Says which on stdout; fails when COMMAND does.
truth_cached() {
	local name=$1 dir=$2 key=$3 root=/var/cache/ioatlas/truth cache stage
	shift 3
	cache=$root/$name-$key
	if [ -f "$cache/work" ] && [ -d "$cache/out" ]; then
		mkdir -p "$dir" && cp -R "$cache/out/." "$dir/" &&
			find "$dir" -type f -exec sed -i "s|$(cat "$cache/work")|$TEST_TMP|g" {} + &&
			echo "$cache: this machine's run, kept"
		return
	fi
	"$@" || return
	if mkdir -p "$root" 2>/dev/null && stage=$(mktemp -d "$root/.stage.XXXXXX" 2>/dev/null); then
		if cp -R "$dir" "$stage/out" && printf '%s' "$TEST_TMP" >"$stage/work" &&
			mv -T "$stage" "$cache" 2>/dev/null; then
			echo "run, kept in $cache"
			return 0
		fi
		rm -rf "$stage"
	fi
	echo "run (not kept)"
}
