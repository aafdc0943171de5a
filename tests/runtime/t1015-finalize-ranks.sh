# t1015-finalize-ranks — MPI_Finalize under the runtime never hangs, whatever
# ranks have it: the ranks that record find each other with bounded
# point-to-point messages (runtime/rt_mpijoin.c), the lowest of them writes
# the job's log, and the log says which ranks it holds (job key "ranks").
# It used to hang as soon as one rank ran without the runtime, because the
# shutdown's collectives on MPI_COMM_WORLD waited for it.
#
# The matrix runs for each MPI family in IOA_TEST_MPI_FAMILIES (default
# "mpich openmpi"; an MPI family is the four functions <family>_programs,
# <family>_launch, <family>_genv and <family>_env below).  Open MPI's ranks
# run mpi-files built with mpicc.openmpi, launched by mpiexec.openmpi.
#
# The two cases with ranks launched without the preload wait for them by
# design (finalize_wait, then four times that): they set finalize_wait to
# 3 s, which the logs' settings must show.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
require_mpi
families=${IOA_TEST_MPI_FAMILIES:-mpich openmpi}
case " $families " in
*" openmpi "*)
	require_cmd mpiexec.openmpi
	require_cmd mpicc.openmpi
	;;
esac

# --- MPI families: the workload built for the family (programs sets files
# and other, the same program under another name for exclude_exes), how to
# launch, and how to set a variable for all programs (genv) or for one
# program of an MPMD launch (env).  genv and env append to the arrays genv
# and argv.
mpich_programs() {
	files="$IOA_BUILD_DIR/tests/workloads/mpi-files"
	other="$TEST_TMP/mpich/other-files"
	mkdir -p "$TEST_TMP/mpich" && cp "$files" "$other"
}
mpich_launch() {
	local seconds=$1
	shift
	run_timeout "$seconds" "$IOA_MPIEXEC" "${genv[@]}" "$@"
}
mpich_genv() { genv+=(-genv "$1" "$2"); }
mpich_env() { argv+=(-env "$1" "$2"); }

openmpi_programs() {
	files="$TEST_TMP/openmpi/mpi-files"
	other="$TEST_TMP/openmpi/other-files"
	mkdir -p "$TEST_TMP/openmpi" &&
		mpicc.openmpi -O2 -o "$files" "$IOA_SOURCE_DIR/tests/workloads/mpi-files.c" &&
		cp "$files" "$other"
}
# Open MPI's -x holds for one application context only: the job-wide
# settings are repeated at the head of each, before the context's own, which
# override them (-x LD_PRELOAD= after them runs a context without the runtime).
openmpi_launch() {
	local seconds=$1 a g=("${genv[@]}") all=()
	shift
	[ -z "${HWLOC_PLUGINS_PATH:-}" ] || g+=(-x HWLOC_PLUGINS_PATH="$HWLOC_PLUGINS_PATH")
	[ -z "${IOA_SANITIZE:-}" ] || g+=(-x ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0")
	all=("${g[@]}")
	for a in "$@"; do
		all+=("$a")
		[ "$a" != : ] || all+=("${g[@]}")
	done
	run_timeout "$seconds" mpiexec.openmpi --oversubscribe --allow-run-as-root "${all[@]}"
}
openmpi_genv() { genv+=(-x "$1=$2"); }
openmpi_env() { argv+=(-x "$1=$2"); }

# run_job FAMILY SECONDS LOGS CONTEXT [: CONTEXT]...: one MPMD launch under
# the runtime; a CONTEXT is a rank count, NAME=VALUE settings for those
# ranks only, then the command.  LD_PRELOAD= in a context runs it without
# the runtime.
run_job() {
	local family=$1 seconds=$2 logs=$3 first=1
	shift 3
	argv=() genv=()
	"${family}_genv" LD_PRELOAD "$(ioa_preload_list "$IOA_RUNTIME_SO")"
	"${family}_genv" IOATLAS_LOGDIR "$logs"
	while [ $# -gt 0 ]; do
		[ "$first" = 1 ] || argv+=(:)
		first=0
		argv+=(-n "$1")
		shift
		while [ $# -gt 0 ] && [[ $1 =~ ^[A-Z_]+= ]]; do
			"${family}_env" "${1%%=*}" "${1#*=}"
			shift
		done
		while [ $# -gt 0 ] && [ "$1" != : ]; do
			argv+=("$1")
			shift
		done
		[ $# -gt 0 ] && shift
	done
	IOATLAS_LOGDIR="$logs" "${family}_launch" "$seconds" "${argv[@]}"
}

# expand_ranks TEXT: "0-1,3" -> "0 1 3"
expand_ranks() {
	awk -v t="$1" 'BEGIN { n = split(t, r, ","); s = "";
		for (i = 1; i <= n; i++) { m = split(r[i], ab, "-"); b = m > 1 ? ab[2] : ab[1];
			for (k = ab[1]; k <= b; k++) s = s (s == "" ? "" : " ") k }
		print s }'
}

# check_logs LABEL LOGS EXPECTED: EXPECTED lists the logs by the ranks each
# holds, sorted, e.g. "0-3" or "2 3" (two logs) or "" (none).  Each log must
# parse, say so in its "ranks" line, and hold per-rank records of exactly
# those ranks.  What `ioatlas parse` says of LOG is left in LOG.parsed for
# later checks (the 100k files' log parses into millions of lines: read
# from a file, never through a shell variable).
check_logs() {
	local label=$1 logs=$2 expected=$3 got="" log ranks held bad=0
	for log in $(ioa_logs "$logs"); do
		"$IOA_CMD" parse "$log" >"$log.parsed" || bad=1
		ranks=$(sed -n 's/^# ranks: //p' "$log.parsed")
		held=$(awk -F '\t' '$2 ~ /^[0-9]+$/ && !seen[$2]++ { print $2 }' "$log.parsed" |
			sort -n | xargs)
		if [ "$held" != "$(expand_ranks "$ranks")" ]; then
			diag "$log says ranks '$ranks' but holds records of '$held'"
			bad=1
		fi
		got="$got${got:+ }$ranks"
	done
	got=$(tr ' ' '\n' <<<"$got" | sort | xargs)
	is "$got" "$expected" "$label: logs by ranks held"
	is "$bad" 0 "$label: each log parses and holds the ranks it says"
}

# matrix FAMILY: every case, 4 ranks.
matrix() {
	local fam=$1 logs work a files other
	ok "$fam: the workload is built for it" "${fam}_programs"
	work=$(mktemp -d "$TEST_TMP/work.XXXXXX")
	mkdir "$work/many"
	a="$work 30 20 8"

	logs=$(ioa_logdir)
	run_job "$fam" 60 "$logs" 4 "$files" $a >/dev/null
	is "$?" 0 "$fam: all ranks record: MPI_Finalize returns"
	check_logs "$fam: all ranks record" "$logs" "0-3"

	logs=$(ioa_logdir)
	run_job "$fam" 60 "$logs" 4 IOATLAS_DISABLE=1 "$files" $a >/dev/null
	is "$?" 0 "$fam: IOATLAS_DISABLE=1 on all ranks: MPI_Finalize returns"
	check_logs "$fam: disabled everywhere" "$logs" ""

	logs=$(ioa_logdir)
	run_job "$fam" 60 "$logs" 2 "$files" $a : 1 IOATLAS_DISABLE=1 "$files" $a : 1 "$files" $a \
		>/dev/null
	is "$?" 0 "$fam: IOATLAS_DISABLE=1 on rank 2 only: MPI_Finalize returns"
	check_logs "$fam: rank 2 disabled" "$logs" "0-1,3"

	logs=$(ioa_logdir)
	run_job "$fam" 60 "$logs" 2 IOATLAS_EXCLUDE_EXES=other-files "$files" $a \
		: 2 IOATLAS_EXCLUDE_EXES=other-files "$other" $a >/dev/null
	is "$?" 0 "$fam: MPMD, the second executable excluded: MPI_Finalize returns"
	check_logs "$fam: second executable excluded" "$logs" "0-1"

	logs=$(ioa_logdir)
	run_job "$fam" 60 "$logs" 2 IOATLAS_EXCLUDE_EXES=other-files "$other" $a \
		: 2 IOATLAS_EXCLUDE_EXES=other-files "$files" $a >/dev/null
	is "$?" 0 "$fam: MPMD, rank 0's executable excluded: MPI_Finalize returns"
	check_logs "$fam: rank 0's executable excluded, rank 2 writes" "$logs" "2-3"

	# A budget that cannot be mapped switches the runtime off on rank 1.
	logs=$(ioa_logdir)
	run_job "$fam" 60 "$logs" 1 "$files" $a : 1 IOATLAS_MEMORY=1TiB "$files" $a \
		: 2 "$files" $a >/dev/null
	is "$?" 0 "$fam: rank 1 cannot map its budget: MPI_Finalize returns"
	check_logs "$fam: rank 1 without a budget" "$logs" "0,2-3"

	logs=$(ioa_logdir)
	run_job "$fam" 60 "$logs" 4 IOATLAS_MEMORY=256KiB "$files" "$work" 300 200 8 >/dev/null
	is "$?" 0 "$fam: a tiny budget on every rank: MPI_Finalize returns"
	check_logs "$fam: tiny budget" "$logs" "0-3"

	# 100k files in all: 25k opens and closes per rank, folding past the budget.
	logs=$(ioa_logdir)
	run_job "$fam" 240 "$logs" 4 "$files" "$work/many" 0 25000 0 >/dev/null
	is "$?" 0 "$fam: 100k files over 4 ranks: MPI_Finalize returns"
	check_logs "$fam: 100k files" "$logs" "0-3"
	is "$(awk -F '\t' -v d="$work/many/" \
		'$1 == "POSIX" && $4 == "POSIX_OPENS" && (index($6, d) == 1 || $6 ~ /^<folded/) {
			n += $5 } END { print n + 0 }' "$(ioa_only_log "$logs").parsed")" 100000 \
		"$fam: 100k files: every open counted"

	# Ranks without the runtime at all (no preload) never answer: bounded waits.
	logs=$(ioa_logdir)
	run_job "$fam" 60 "$logs" 2 IOATLAS_FINALIZE_WAIT=3 "$files" $a \
		: 2 LD_PRELOAD= "$files" $a >/dev/null 2>&1
	is "$?" 0 "$fam: ranks 2-3 without the runtime: MPI_Finalize returns"
	check_logs "$fam: ranks 2-3 without the runtime" "$logs" "0-1"
	waits "$fam: ranks 2-3 without the runtime" "$logs"

	logs=$(ioa_logdir)
	run_job "$fam" 90 "$logs" 2 LD_PRELOAD= "$files" $a \
		: 2 IOATLAS_FINALIZE_WAIT=3 "$files" $a >/dev/null 2>&1
	is "$?" 0 "$fam: rank 0 without the runtime: MPI_Finalize returns"
	check_logs "$fam: rank 0 without the runtime, each rank alone" "$logs" "2 3"
	waits "$fam: rank 0 without the runtime" "$logs"
}

# waits LABEL LOGS: every log says it waited the 3 s its ranks were given.
waits() {
	local log got=""
	for log in $(ioa_logs "$2"); do
		got="$got${got:+ }$("$IOA_CMD" parse "$log" | grep -o 'finalize_wait=[0-9]*')"
	done
	like "$got" '^finalize_wait=3( finalize_wait=3)*$' "$1: under the finalize_wait given"
}

for family in $families; do
	matrix "$family"
done

done_testing
