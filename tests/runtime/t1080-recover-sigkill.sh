# t1080-recover-sigkill — every rank of an MPI job killed by SIGKILL mid-run
# (MPICH, then Open MPI, 2 ranks) leaves its record in the job's spill
# folder, and `ioatlas recover` turns it into one log marked partial whose
# counters hold at least every write the program said it had done before
# the kill (tests/workloads/mpi-killed.c notes each write that returned,
# with system calls the runtime does not see): the ground truth is the
# program's own count.  While the job runs, the folder is private and
# recover leaves it alone; a job that ends cleanly leaves no folder.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
require_mpi
require_cmd mpicc.openmpi
require_cmd mpiexec.openmpi

plan 43

prog_mpich="$IOA_BUILD_DIR/tests/workloads/mpi-killed"
prog_ompi="$TEST_TMP/mpi-killed-openmpi"
ok "mpi-killed builds with mpicc.openmpi" \
	mpicc.openmpi -o "$prog_ompi" "$IOA_SOURCE_DIR/tests/workloads/mpi-killed.c"

live_dirs() { find "$1" -name '.live-*' -type d; }


# A clean run: a log, no spill folder left.
logs=$(ioa_logdir)
work=$(mktemp -d "$TEST_TMP/clean.XXXXXX")
ok "a clean MPICH job runs" ioa_mpi_preload "$logs" 2 60 "$prog_mpich" "$work" clean 20
ok "and writes its log" ioa_only_log "$logs"
is "$(live_dirs "$logs")" "" \
	"and leaves no spill folder"

# kill_job FAMILY PROG: runs PROG under FAMILY's mpiexec, SIGKILLs both
# ranks once each wrote 100 blocks; sets logs, work, d0, d1.
kill_job() {
	local family=$1 prog=$2 preload i
	logs=$(ioa_logdir)
	work=$(mktemp -d "$TEST_TMP/$family.XXXXXX")
	preload=$(ioa_preload_list "$IOA_RUNTIME_SO")
	if [ "$family" = mpich ]; then
		run_timeout 120 mpiexec.mpich -n 2 -genv LD_PRELOAD "$preload" \
			-genv IOATLAS_LOGDIR "$logs" "$prog" "$work" run >"$work/out" 2>&1 &
	else
		ompi_run 2 120 -x LD_PRELOAD="$preload" -x IOATLAS_LOGDIR="$logs" \
			"$prog" "$work" run >"$work/out" 2>&1 &
	fi
	launcher=$!
	mpi_killed_wait "$work" 100
}

for family in mpich openmpi; do
	prog=$prog_mpich
	[ "$family" = mpich ] || prog=$prog_ompi
	kill_job "$family" "$prog"
	ok "$family: both ranks wrote 100 blocks" \
		test "$(mpi_killed_done "$work" 0)" -ge 100 -a "$(mpi_killed_done "$work" 1)" -ge 100
	dir=$(live_dirs "$logs")
	is "$(printf '%s' "$dir" | grep -c .)" 1 \
		"$family: one spill folder while the job runs"
	is "$(stat -c '%a %u' "$dir")" "700 $(id -u)" \
		"$family: it is the user's alone (0700)"
	is "$(stat -c '%a' "$dir"/* | sort | uniq -c | tr -s ' ')" " 2 600" \
		"$family: one spill per rank, private (0600)"
	# A copy of a live spill, for the hostile one below.
	[ "$family" != mpich ] || cp "$dir/0."* "$TEST_TMP/spill.copy"
	"$IOA_CMD" recover "$logs" >"$work/running" 2>&1
	like "$(cat "$work/running")" "still running" \
		"$family: recover leaves a running job alone"
	# The ranks only: the launcher's arguments name the folder too.
	for p in $(pgrep -f "$work run"); do
		[ "$(readlink "/proc/$p/exe")" = "$prog" ] && kill -KILL "$p"
	done
	wait "$launcher"
	# Gone, as the epilog would find them: not even a zombie left.
	for i in $(seq 100); do
		pgrep -f "$work run" >/dev/null || break
		sleep 0.1
	done
	d0=$(mpi_killed_done "$work" 0)
	d1=$(mpi_killed_done "$work" 1)
	is "$(ioa_logs "$logs")" "" \
		"$family: no log after the kill"
	ok "$family: recover succeeds" "$IOA_CMD" recover "$logs"
	log=$(ioa_only_log "$logs")
	ok "$family: one log" test -n "$log"
	w0=$(ioa_counter "$log" POSIX 0 "$work/out.0" POSIX_WRITES)
	w1=$(ioa_counter "$log" POSIX 1 "$work/out.1" POSIX_WRITES)
	ok "$family: rank 0 has every write it reported ($w0 >= $d0, at most one more)" \
		test "${w0:-0}" -ge "$d0" -a "${w0:-0}" -le $((d0 + 1))
	ok "$family: rank 1 too ($w1 >= $d1)" test "${w1:-0}" -ge "$d1" -a "${w1:-0}" -le $((d1 + 1))
	is "$(ioa_counter "$log" POSIX 0 "$work/out.0" POSIX_BYTES_WRITTEN)" $((w0 * 4096)) \
		"$family: bytes written are its writes' blocks"
	like "$("$IOA_CMD" parse "$log" | grep '^# partial:')" "killed without warning.*ranks 0-1" \
		"$family: the log says it is partial, killed without warning"
	# MPI_Init, the open and the writes, whatever loops they folded into.
	traced=$("$IOA_CMD" trace "$log" | sed -n 's/^# rank 0: \([0-9]*\) of .*/\1/p')
	ok "$family: rank 0's trace is there, every reported write in it ($traced)" \
		test "${traced:-0}" -ge $((d0 + 2))
	is "$(live_dirs "$logs")" "" \
		"$family: the spill folder is gone"
done

# A spill that is not one (garbage, a truncated file) is left alone, never followed.
logs=$(ioa_logdir)
day=$(date -u +%Y/%m/%d)
mkdir -p "$logs/$day/.live-123-p1"
chmod 700 "$logs/$day/.live-123-p1"
head -c 100000 /dev/urandom >"$logs/$day/.live-123-p1/0.h.1"
"$IOA_CMD" recover "$logs" >"$TEST_TMP/garbage.out" 2>&1
is "$?" 0 \
	"garbage: recover ends normally"
like "$(cat "$TEST_TMP/garbage.out")" "not a spill" \
	"garbage: and says what it left alone"
ok "garbage: the file is kept" test -f "$logs/$day/.live-123-p1/0.h.1"

# A spill with a good header (its first 88 bytes, what the header check
# reads) whose state is overwritten: the record lists, failure table and
# trace root after the header, and the tables after them — pointers to
# anywhere, as its owner could write them.  The child that reads it fails
# alone; recover goes on and says so.
logs=$(ioa_logdir)
mkdir -p "$logs/$day/.live-456-p1"
chmod 700 "$logs/$day/.live-456-p1"
cp "$TEST_TMP/spill.copy" "$logs/$day/.live-456-p1/0.h.1"
head -c 384 /dev/urandom | dd of="$logs/$day/.live-456-p1/0.h.1" bs=1 seek=88 conv=notrunc \
	status=none
head -c 65536 /dev/urandom | dd of="$logs/$day/.live-456-p1/0.h.1" bs=1 seek=480 conv=notrunc \
	status=none
"$IOA_CMD" recover "$logs" >"$TEST_TMP/hostile.out" 2>&1
status=$?
ok "hostile: recover ends by itself, not by a signal ($status)" test "$status" -lt 128
like "$(cat "$TEST_TMP/hostile.out")" "rank 0 of .* is left out" "hostile: the rank is left out, said"
is "$(ioa_logs "$logs")" "" "hostile: no log made of it"

# A non-MPI process tree (opted in): its processes all say rank 0 while
# they run; killed, each is recovered, numbered, none lost.
logs=$(ioa_logdir)
tree=$(mktemp -d "$TEST_TMP/tree.XXXXXX")
# (No sleep between the writes: a child the kill would miss would hold the folder.)
writer='while :; do echo x; done >>"$0"'
IOATLAS_LOGDIR="$logs" IOATLAS_NONMPI=1 LD_PRELOAD="$(ioa_preload_list "$IOA_RUNTIME_SO")" \
	run_timeout 60 sh -c 'sh -c "$0" "$1/a" & sh -c "$0" "$1/b" & wait' "$writer" "$tree" &
root=$!
for i in $(seq 100); do
	[ "$(wc -l <"$tree/a" 2>/dev/null)" -ge 20 ] 2>/dev/null &&
		[ "$(wc -l <"$tree/b" 2>/dev/null)" -ge 20 ] 2>/dev/null && break
	sleep 0.1
done
pkill -KILL -f "$tree" || true
wait "$root" 2>/dev/null
for i in $(seq 100); do
	pgrep -f "$tree" >/dev/null || break
	sleep 0.1
done
la=$(wc -l <"$tree/a")
lb=$(wc -l <"$tree/b")
ok "tree: recover succeeds" "$IOA_CMD" recover "$logs"
# (Children the kill missed, a sleep, find the root gone and write logs of their own.)
log=$(for l in $(ioa_logs "$logs"); do
	"$IOA_CMD" parse "$l" | grep -q '^# partial:' && echo "$l"
done)
is "$(printf '%s' "$log" | grep -c .)" 1 "tree: one partial log"
wa=$("$IOA_CMD" parse "$log" | awk -F '\t' -v f="$tree/a" '$1 == "POSIX" && $6 == f && $4 == "POSIX_WRITES" { print $2 " " $5 }')
wb=$("$IOA_CMD" parse "$log" | awk -F '\t' -v f="$tree/b" '$1 == "POSIX" && $6 == f && $4 == "POSIX_WRITES" { print $2 " " $5 }')
# (A write the kernel made but the process died before counting: one per writer at most.)
ok "tree: the first writer's lines are all there ($wa, $la lines)" test "${wa#* }" -ge $((la - 1))
ok "tree: the second writer's too ($wb, $lb lines)" test "${wb#* }" -ge $((lb - 1))
ok "tree: each under a rank of its own (${wa% *}, ${wb% *})" test "${wa% *}" != "${wb% *}"
