# t1083-recover-nwchem — a real program nobody here wrote, killed: NWChem's
# SCF of water (tests/workloads/nwchem-h2o.nw, 2 MPICH ranks) is SIGKILLed
# as soon as it has written its SCF scratch files, and `ioatlas recover`
# makes its log.  Ground truth is strace of the same run: for every file
# NWChem writes with POSIX calls (those whose write count in a complete
# run's log equals strace's, so that stdio's buffered writes, counted as
# STDIO by design, are left out), the recovered log holds every write
# strace saw return before the kill, at most one per rank in flight less.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
[ -z "${IOA_SANITIZE:-}" ] || export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
require_mpi
require_cmd mpiexec.mpich
require_cmd strace
require_cmd nwchem.mpich

plan 7

# nwchem NAME [STRACE-OPTION...]: the calculation in fresh folders under
# $TEST_TMP/NAME, each rank under strace (writes only, with paths), the
# runtime preloaded; $TEST_TMP/NAME/logs is its log tree.  ARMCI-MPI's
# shared-memory windows give NWChem wrong sums on Debian 12's MPICH (t1044).
nwchem() {
	local dir=$TEST_TMP/$1
	shift
	mkdir -p "$dir/work" "$dir/scratch" "$dir/perm" "$dir/home" "$dir/strace" "$dir/logs"
	sed -e "s|@SCRATCH@|$dir/scratch|" -e "s|@PERMANENT@|$dir/perm|" \
		"$IOA_SOURCE_DIR/tests/workloads/nwchem-h2o.nw" >"$dir/work/h2o.nw"
	(cd "$dir/work" && HOME="$dir/home" run_timeout 120 mpiexec.mpich -n 2 \
		-genv IOATLAS_LOGDIR "$dir/logs" -genv ARMCI_USE_WIN_ALLOCATE 0 \
		strace -f -ff -y -qq -o "$dir/strace/trace" -e trace=write,pwrite64,writev,pwritev "$@" \
		-E LD_PRELOAD="$(ioa_preload_list "$IOA_RUNTIME_SO")" \
		nwchem.mpich h2o.nw >"$dir/out" 2>&1)
}

# strace_writes NAME: "COUNT PATH" of the writes that returned, per file of its folders.
strace_writes() {
	cat "$TEST_TMP/$1"/strace/trace.* |
		sed -n 's/^[a-z0-9]*(\([0-9]*\)<\([^>]*\)>.*) = [0-9][0-9]*\( (DELAYED)\)\{0,1\}$/\2/p' |
		grep "^$TEST_TMP/$1/" | LC_ALL=C sort | uniq -c
}

# log_writes LOG: "COUNT PATH" of POSIX_WRITES summed over the ranks, per file.
log_writes() {
	"$IOA_CMD" parse "$1" | awk -F '\t' '$1 == "POSIX" && $4 == "POSIX_WRITES" && $5 > 0 {
		n[$6] += $5 } END { for (f in n) print n[f], f }' | LC_ALL=C sort -k 2
}

# The complete run: which files it writes through POSIX calls.
nwchem complete
ok "a complete NWChem run writes its log" ioa_only_log "$TEST_TMP/complete/logs"
complete=$(log_writes "$(ioa_only_log "$TEST_TMP/complete/logs")" |
	sed "s|$TEST_TMP/complete/||")
posix_files=$(strace_writes complete | sed "s|$TEST_TMP/complete/||" |
	while read -r n f; do
		printf '%s\n' "$complete" | grep -qx " *$n $f" && echo "$f"
	done)
ok "some of its files are written by POSIX calls, as strace counts them ($(echo $posix_files))" \
	test -n "$posix_files"

# The killed run: SIGKILL once the first SCF scratch write returned.  Each
# write made 20 ms slower (strace's delay injection), so that the SCF is
# still running when the kill comes, however fast the machine.
nwchem killed -e inject=write,pwrite64,writev,pwritev:delay_exit=20000 &
launcher=$!
for _ in $(seq 600); do
	[ -n "$(strace_writes killed | grep /scratch/)" ] && break
	sleep 0.01
done
for p in $(pgrep -x nwchem.mpich); do
	grep -qa -- "$TEST_TMP/killed" "/proc/$p/environ" 2>/dev/null && kill -KILL "$p"
done
wait "$launcher"
for _ in $(seq 100); do
	pgrep -x nwchem.mpich >/dev/null || break
	sleep 0.1
done
ok "recover succeeds" "$IOA_CMD" recover "$TEST_TMP/killed/logs"
log=$(for l in $(ioa_logs "$TEST_TMP/killed/logs"); do
	"$IOA_CMD" parse "$l" | grep -q '^# partial:' && echo "$l"
done)
is "$(printf '%s' "$log" | grep -c .)" 1 "it makes one partial log, of both ranks"
truth=$(strace_writes killed | sed "s|$TEST_TMP/killed/||")
got=$(log_writes "$log" | sed "s|$TEST_TMP/killed/||")
short=""
for f in $posix_files; do
	want=$(printf '%s\n' "$truth" | awk -v f="$f" '$2 == f { print $1 }')
	have=$(printf '%s\n' "$got" | awk -v f="$f" '$2 == f { print $1 }')
	want=${want:-0}
	have=${have:-0}
	[ "$have" -ge $((want - 2)) ] && [ "$have" -le "$want" ] || short="$short $f:$have/$want"
done
is "$short" "" "every POSIX write strace saw return is in the recovered log (file:log/strace)"
ok "strace saw the killed run write some of them" \
	test -n "$(for f in $posix_files; do printf '%s\n' "$truth" | awk -v f="$f" '$2 == f'; done)"
is "$(find "$TEST_TMP/killed/logs" -name '.live-*')" "" "no spill is left behind"
