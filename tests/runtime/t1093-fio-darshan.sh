# t1093-fio-darshan — a real I/O benchmark nobody here wrote, fio (Debian's),
# run under libioatlas and under Darshan 3.5 (the team's build in
# shared/tools) with the same job file: sequential and random (seeded)
# reads and writes through pread/pwrite, read/write with lseek, readv/writev
# over three files, mixed request sizes, fsync and fdatasync, each job a
# thread.  Every Darshan-named counter of every record agrees with
# darshan-parser's, or differs as common/darshan-differences.h lists
# (darshan-compare, as t1050).  Before, the random jobs' most common strides
# and counts differed (ioatlas counted among the first 16 distinct strides,
# Darshan among the first 32, stride 0 included), and so did a re-opened
# file's sequential writes (Darshan starts a file's sequence anew at each
# open).  fio's own account of the bytes each job read is ground truth too.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
require_cmd fio
require_cmd python3
tools=${IOATLAS_DARSHAN_TOOLS:-$IOA_SOURCE_DIR/../shared/tools}/darshan-3.5.0-debian12-mpich.tar.gz
[ -r "$tools" ] || skip_all "no Darshan build to check against ($tools)"

plan 9

ioa_sanitized_programs # fio leaks what it keeps to its end: no leak check on it

mkdir -p "$TEST_TMP/darshan" "$TEST_TMP/ours" "$TEST_TMP/theirs" "$TEST_TMP/dlogs"
ok "Darshan 3.5.0's tools unpack" tar -xzf "$tools" -C "$TEST_TMP/darshan"
D="$TEST_TMP/darshan/darshan-3.5.0"

cat >"$TEST_TMP/job.fio" <<'EOF'
[global]
size=2m
thread
randseed=7
ioengine=psync
[seqw]
rw=write
bs=64k
[randrw]
rw=randrw
bs=4k
[seqr]
rw=read
bs=16k
[syncw]
ioengine=sync
rw=randwrite
bs=8k
fsync=8
[vec]
ioengine=vsync
rw=rw
bs=2k
nrfiles=3
fdatasync=16
[mixed]
ioengine=sync
rw=randrw
bssplit=512/20:4k/50:64k/30
rwmixread=30
EOF
cp "$TEST_TMP/job.fio" "$TEST_TMP/ours/"
cp "$TEST_TMP/job.fio" "$TEST_TMP/theirs/"

logs=$(ioa_logdir)
# fio is the process each tool starts in (rank 0 of ioatlas's process tree), timeout outside;
# its report goes to /dev/stdout, which neither tool records.
ok "fio runs under ioatlas" sh -c "cd '$TEST_TMP/ours' && exec timeout 120 env \
	IOATLAS_LOGDIR='$logs' IOATLAS_NONMPI=1 LD_PRELOAD='$(ioa_preload_list "$IOA_RUNTIME_SO")' \
	fio job.fio --output-format=json --output=/dev/stdout >'$TEST_TMP/fio-ours.json'"
# Darshan's run is the ground truth only when its log holds the bytes fio says it read: once
# in a fresh-clone CI run it held none of the seqr job's 128 preads (fio's threads), so a
# run whose log falls short is made again (five tries; 12 runs in 12 were whole on an idle
# machine, one in three fell short while other tests ran).
theirs_read() {
	python3 -c 'import json, sys; print(sum(j["read"]["io_bytes"] for j in json.load(open(sys.argv[1]))["jobs"]))' \
		"$TEST_TMP/fio-theirs.json"
}
darshan_read() {
	LD_LIBRARY_PATH="$D/lib" "$D/bin/darshan-parser" "$1" | awk -F '\t' '$1 == "POSIX" && $4 == "POSIX_BYTES_READ" { n += $5 }
		END { print n + 0 }'
}
for try in 1 2 3 4 5; do
	rm -rf "$TEST_TMP/dlogs" "$TEST_TMP/theirs"/*.0.*
	mkdir -p "$TEST_TMP/dlogs"
	sh -c "cd '$TEST_TMP/theirs' && exec timeout 120 env \
		LD_LIBRARY_PATH='$D/lib' DARSHAN_ENABLE_NONMPI=1 DARSHAN_LOGPATH='$TEST_TMP/dlogs' \
		LD_PRELOAD='$D/lib/libdarshan.so' fio job.fio --output-format=json --output=/dev/stdout \
		>'$TEST_TMP/fio-theirs.json'" || continue
	dlog=$(find "$TEST_TMP/dlogs" -name '*.darshan' | head -n 1)
	[ -n "$dlog" ] && [ "$(darshan_read "$dlog")" = "$(theirs_read)" ] && break
	diag "Darshan's log holds $(darshan_read "${dlog:-/nonexistent}" 2>/dev/null) bytes read of fio's $(theirs_read): again"
	dlog=
done
ok "fio runs under Darshan, its log holding every byte fio read" test -n "$dlog"

log=$(ioa_only_log "$logs") || log=/nonexistent
ioa_darshan_compare "$log" "$TEST_TMP/ours" "${dlog:-/nonexistent}" "$TEST_TMP/theirs" "$D"
like "$(awk -F '\t' '$1 == "listed" && $6 ~ /STRIDE|SEQ_|CONSEC_/' "$TEST_TMP/diff")" '^$' \
	"strides and sequential counts agree, none excused"

# fio's own account: the bytes each job read, against the job's files' POSIX_BYTES_READ.
python3 - "$TEST_TMP/fio-ours.json" "$TEST_TMP/ours.json" >"$TEST_TMP/reads" <<'EOF'
import json, re, sys
fio = json.load(open(sys.argv[1]))
ours = json.load(open(sys.argv[2]))
got = {}
for rec in ours["records"]:
    m = re.search(r"/([a-z]+)\.\d+\.\d+$", rec["name"])
    if rec["module"] == "POSIX" and m:
        got[m.group(1)] = got.get(m.group(1), 0) + rec["counters"]["POSIX_BYTES_READ"]
for job in fio["jobs"]:
    name, want = job["jobname"], job["read"]["io_bytes"]
    print(name, want, got.get(name, 0), "ok" if want == got.get(name, 0) else "DIFFERS")
EOF
is "$(grep -c ' ok$' "$TEST_TMP/reads") $(grep -c DIFFERS "$TEST_TMP/reads")" "6 0" \
	"each of the 6 jobs read what fio says it read ($(tr '\n' ';' <"$TEST_TMP/reads"))"
done_testing
