# t1043-hdf5-rewrites — real HDF5 programs, written by nobody here, rewrite
# their metadata in place: h5py (through libhdf5) making a metadata-heavy
# file (tests/workloads/h5-meta.py), h5repack copying it, and parallel
# HDF5 (h5py's MPI-IO driver on 2 Open MPI ranks, h5py-mpio.py).  Under the
# runtime and strace at once, the log's write and rewrite counters of each
# file equal those computed from strace's pwrite64 offsets and lengths of
# the same run (a byte map per file and process: a write that covers bytes
# the process wrote before is a rewrite; the bytes it covers again are
# rewritten bytes; a shared file's record sums its ranks').
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
# Every run here is under strace, where LeakSanitizer cannot work (ptrace).
[ -z "${IOA_SANITIZE:-}" ] || export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
require_cmd strace
require_cmd h5repack
python=/usr/bin/python3
[ -x "$python" ] && "$python" -c 'import h5py' 2>/dev/null || skip_all "no h5py for $python (python3-h5py)"

plan 10

work="$TEST_TMP/work"
mkdir -p "$work"

# traced NAME COMMAND...: COMMAND under strace -f and the runtime; its log in $log.
traced() {
	local name=$1 logs
	shift
	logs=$(ioa_logdir)
	IOATLAS_LOGDIR="$logs" IOATLAS_NONMPI=1 run_timeout 120 \
		strace -f -qq -yy -s 0 -o "$TEST_TMP/$name.strace" \
		-e trace=write,pwrite64,writev,pwritev,pwritev2 \
		-E LD_PRELOAD="$(ioa_preload_list "$IOA_RUNTIME_SO")" "$@"
	is "$?" 0 "$name runs under strace and the runtime"
	log=$(ioa_only_log "$logs")
}
# truth FILE TRACE...: "WRITES OVERWRITES BYTES FIRST_OFFSET" of FILE from
# strace (pwrite64 only), one byte map per trace file (process), summed.
truth() {
	python3 - "$@" <<'PY'
import re, sys
path, traces = sys.argv[1], sys.argv[2:]
writes = overwrites = rewritten = 0
first = -1
for trace in traces:
  written = bytearray()
  for line in open(trace):
    m = re.search(r'(\w+)\(\d+<([^>]*)>, .*?, (\d+)(?:, (\d+))?\)\s+=\s+(-?\d+)', line)
    if not m or m.group(2) != path or int(m.group(5)) < 0:
        continue
    if m.group(1) != "pwrite64":
        sys.exit("a %s on %s: only pwrite64 has its offset in the trace" % (m.group(1), path))
    off, n = int(m.group(4)), int(m.group(5))
    if len(written) < off + n:
        written.extend(bytes(off + n - len(written)))
    again = sum(written[off:off + n])
    written[off:off + n] = b"\1" * n
    writes += 1
    if again:
        overwrites += 1
        rewritten += again
        if first < 0:
            first = off
print(writes, overwrites, rewritten, first)
PY
}
counted() {
	local c
	for c in POSIX_WRITES POSIX_OVERWRITES POSIX_OVERWRITE_BYTES POSIX_OVERWRITE_FIRST_OFFSET; do
		ioa_counter "$log" POSIX 0 "$1" "$c"
	done | paste -sd ' '
}

traced h5py "$python" "$IOA_SOURCE_DIR/tests/workloads/h5-meta.py" "$work/meta.h5" 60
want=$(truth "$work/meta.h5" "$TEST_TMP/h5py.strace")
like "$want" '^[0-9]+ [1-9][0-9]* ' "strace saw h5py's HDF5 rewrite its own bytes ($want)"
is "$(counted "$work/meta.h5")" "$want" "the log's writes, rewrites, bytes and first offset are strace's"

# h5repack hangs at exit under AddressSanitizer alone, runtime or not
# (libp11-kit's destructor waits for glibc's locale lock).
if [ -z "${IOA_SANITIZE:-}" ]; then
	traced h5repack h5repack "$work/meta.h5" "$work/copy.h5"
	want=$(truth "$work/copy.h5" "$TEST_TMP/h5repack.strace")
	like "$want" '^[0-9]+ [1-9][0-9]* ' "strace saw h5repack rewrite its own bytes ($want)"
	is "$(counted "$work/copy.h5")" "$want" "the log's writes, rewrites, bytes and first offset are strace's"
	is "$(ioa_counter "$log" POSIX 0 "$work/copy.h5" POSIX_OVERWRITE_UNTRACKED_BYTES)" 0 \
		"every written range was kept"
else
	for part in runs writes counters kept; do
		skip "h5repack hangs at exit under AddressSanitizer, with or without the runtime" "h5repack $part"
	done
fi

# Parallel HDF5: each rank under strace -ff (a trace file per process).
if command -v mpiexec.openmpi >/dev/null &&
	H5PY_ALWAYS_USE_MPI=1 "$python" -c 'import sys, h5py; sys.exit(not h5py.get_config().mpi)' 2>/dev/null; then
	logs=$(ioa_logdir)
	mkdir -p "$TEST_TMP/mpi.strace"
	ompi_run 2 120 -x IOATLAS_LOGDIR="$logs" \
		strace -ff -qq -yy -s 0 -o "$TEST_TMP/mpi.strace/trace" \
		-e trace=write,pwrite64,writev,pwritev,pwritev2 \
		-E LD_PRELOAD="$(ioa_preload_list "$IOA_RUNTIME_SO")" \
		"$python" "$IOA_SOURCE_DIR/tests/workloads/h5py-mpio.py" "$work/mpi.h5" 65536 >/dev/null
	is "$?" 0 "parallel h5py on 2 Open MPI ranks runs under strace and the runtime"
	log=$(ioa_only_log "$logs")
	read -r writes overwrites bytes _ <<<"$(truth "$work/mpi.h5" "$TEST_TMP/mpi.strace"/trace.*)"
	summed() {
		"$IOA_CMD" parse "$log" | awk -F '\t' -v f="$work/mpi.h5" -v c="$1" \
			'$1 == "POSIX" && $6 == f && $4 == c { n += $5 } END { print n + 0 }'
	}
	ok "strace saw the ranks write the shared file ($writes writes, $overwrites rewrites, $bytes bytes)" \
		test "$writes" -gt 0
	is "$(summed POSIX_WRITES) $(summed POSIX_OVERWRITES) $(summed POSIX_OVERWRITE_BYTES)" \
		"$writes $overwrites $bytes" "the shared file's writes, rewrites and bytes are strace's, over the ranks"
else
	for part in runs writes counters; do
		skip "no Open MPI with h5py's MPI driver (python3-h5py-mpi)" "parallel h5py $part"
	done
fi

done_testing
