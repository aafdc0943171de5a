# t1030-tree-python — a real Python program, a multiprocessing pool of 4
# forked workers each writing its own file and all appending to one shared
# file, leaves exactly one log for its process tree: 5 processes as ranks,
# the counters per file as the program did them (checked against the
# program's own numbers and, where strace is installed, against strace -f).
# The opt-in works from the environment, the site file, and nonmpi_exes by
# name and by path prefix; without it, no log.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
require_cmd /usr/bin/python3
# Sanitizer builds: LeakSanitizer, preloaded with the runtime, would report
# the Python interpreter's own allocations at exit (and cannot run under
# strace); the runtime's are checked by the shell and cat in t1031-t1033.
case ",${IOA_SANITIZE:-}," in
*,address,*) export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" ;;
esac

plan 20

work="$TEST_TMP/work"
mkdir -p "$work"
cat >"$TEST_TMP/pool.py" <<'PY'
import multiprocessing as mp, os, sys

def work(i):
    d = sys.argv[1]
    with open(os.path.join(d, "own-%d" % i), "wb") as f:
        for _ in range(10):
            f.write(b"x" * 1000)
    fd = os.open(os.path.join(d, "shared"), os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    os.write(fd, b"y" * 100)
    os.close(fd)
    return i

if __name__ == "__main__":
    ctx = mp.get_context("fork")
    pool = ctx.Pool(4)
    assert sorted(pool.map(work, range(4), chunksize=1)) == [0, 1, 2, 3]
    pool.close()
    pool.join()
PY
# pool VAR=VALUE...: the program with these settings and the runtime
# preloaded; the timeout outside the tree (env execs Python in its place).
preload="LD_PRELOAD=$(ioa_preload_list "$IOA_RUNTIME_SO")"
pool() { run_timeout 60 env "$@" "$preload" /usr/bin/python3 "$TEST_TMP/pool.py" "$work"; }

# sum LOG FILE COUNTER: the counter summed over the processes (ranks).
sum() {
	"$IOA_CMD" parse "$1" | awk -F '\t' -v f="$2" -v c="$3" \
		'$1 == "POSIX" && $6 == f && $4 == c { s += $5; n++ } END { print n ? s : "" }'
}
job() { "$IOA_CMD" parse "$1" | sed -n "s/^# $2: //p"; }

logs=$(ioa_logdir)
ok "the pool runs unchanged under the runtime" pool IOATLAS_LOGDIR="$logs" IOATLAS_NONMPI=1
log=$(ioa_only_log "$logs")
ok "and leaves exactly one log for the tree" test -n "$log"
is "$(job "$log" nprocs)" 5 "five processes: the driver and its 4 workers"
is "$(job "$log" ranks)" 0-4 "as ranks 0 to 4"
procs=$(job "$log" procs)
is "$(printf '%b' "$procs" | grep -c ' /.*python')" 5 "each with its pid and executable"
like "$(job "$log" tree)" "^[0-9]+\\.[0-9]+\\." "the tree's id is in the job region"
is "$(find "$logs" -name '.tree-*' | wc -l)" 0 "no staging folder is left behind"
for i in 0 1 2 3; do
	is "$(sum "$log" "$work/own-$i" POSIX_OPENS):$(sum "$log" "$work/own-$i" POSIX_BYTES_WRITTEN)" \
		1:10000 "own-$i: opened once, 10000 bytes written"
done
is "$(sum "$log" "$work/shared" POSIX_OPENS)" 4 "the shared file: 4 opens over the workers"
is "$(sum "$log" "$work/shared" POSIX_WRITES):$(sum "$log" "$work/shared" POSIX_BYTES_WRITTEN)" \
	4:400 "4 appends of 100 bytes"

if command -v strace >/dev/null 2>&1; then
	# One trace file per process (-ff): no call split across lines.
	rm -f "$work"/*
	logs=$(ioa_logdir)
	run_timeout 60 strace -ff -qq -e trace=write,openat -o "$TEST_TMP/strace" \
		-E "$preload" -E IOATLAS_NONMPI=1 -E IOATLAS_LOGDIR="$logs" \
		/usr/bin/python3 "$TEST_TMP/pool.py" "$work"
	log=$(ioa_only_log "$logs")
	# The runtime's O_EXCL try that creates the file is the program's open.
	opens=$(cat "$TEST_TMP"/strace.* | grep -F "openat(AT_FDCWD, \"$work/" | grep -vc '= -1')
	is "$(($(sum "$log" "$work/own-0" POSIX_OPENS) + $(sum "$log" "$work/own-1" POSIX_OPENS) +
		$(sum "$log" "$work/own-2" POSIX_OPENS) + $(sum "$log" "$work/own-3" POSIX_OPENS) +
		$(sum "$log" "$work/shared" POSIX_OPENS)))" "$opens" "opens as strace -ff saw them"
	own_writes=$(cat "$TEST_TMP"/strace.* | grep -cE '^write\([0-9]+, "x{32}')
	is "$(($(sum "$log" "$work/own-0" POSIX_WRITES) + $(sum "$log" "$work/own-1" POSIX_WRITES) +
		$(sum "$log" "$work/own-2" POSIX_WRITES) + $(sum "$log" "$work/own-3" POSIX_WRITES)))" \
		"$own_writes" "writes to the workers' own files as strace -ff saw them"
else
	skip "strace is not installed" 2
fi

# --- the opt-in: site file, nonmpi_exes by name and by path prefix, none
py=$(readlink -f /usr/bin/python3)
for how in "nonmpi:nonmpi = yes" "name:nonmpi_exes = ${py##*/}" \
	"path prefix:nonmpi_exes = ${py%/*}/"; do
	logs=$(ioa_logdir)
	printf 'logdir = %s\n%s\n' "$logs" "${how#*:}" >"$TEST_TMP/site.conf"
	pool IOATLAS_CONF="$TEST_TMP/site.conf"
	log=$(ioa_only_log "$logs")
	is "$(job "$log" nprocs)" 5 "opted in by the site file (${how%%:*}): one log of 5 processes"
done
logs=$(ioa_logdir)
printf 'logdir = %s\n' "$logs" >"$TEST_TMP/site.conf"
pool IOATLAS_CONF="$TEST_TMP/site.conf"
is "$(ioa_logs "$logs" | wc -l)" 0 "not opted in: no log"
logs=$(ioa_logdir)
pool IOATLAS_CONF="$TEST_TMP/site.conf" IOATLAS_NONMPI=1 IOATLAS_LOGDIR="$logs"
is "$(job "$(ioa_only_log "$logs")" nprocs)" 5 "opted in by IOATLAS_NONMPI alone"
