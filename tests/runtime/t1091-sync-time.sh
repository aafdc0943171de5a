# t1091-sync-time — a sync's time is write time, as Darshan counts it
# (darshan-posix.c adds fsync's and fdatasync's time to POSIX_F_WRITE_TIME):
# a program that writes 16 MiB and then syncs it, timing both by its own
# clock, runs under libioatlas and under Darshan 3.5 (the team's build in
# shared/tools).  For both, the write time holds the writes and the syncs,
# and the metadata time (the open and close) holds no sync.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
tools=${IOATLAS_DARSHAN_TOOLS:-$IOA_SOURCE_DIR/../shared/tools}/darshan-3.5.0-debian12-mpich.tar.gz
[ -r "$tools" ] || skip_all "no Darshan build to check against ($tools)"

plan 8

prog="$IOA_BUILD_DIR/tests/runtime/sync-time"
# On the build tree's file system, a disk, whose syncs take time (not a tmpfs).
data=$(mktemp -d "$IOA_BUILD_DIR/tests/runtime/sync-time.XXXXXX")
trap 'rm -rf "$data"' EXIT
mkdir -p "$TEST_TMP/darshan"
ok "Darshan 3.5.0's tools unpack" tar -xzf "$tools" -C "$TEST_TMP/darshan"
D="$TEST_TMP/darshan/darshan-3.5.0"

logs=$(ioa_logdir)
ioa_preload "$logs" "$prog" "$data/ours" >"$TEST_TMP/ours.out"
is "$?" 0 "the program runs under ioatlas"
# In sanitizer builds the program carries ASan, which must not mind Darshan loaded before it.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
	LD_PRELOAD="$D/lib/libdarshan.so" DARSHAN_ENABLE_NONMPI=1 \
	DARSHAN_LOGFILE="$TEST_TMP/theirs.darshan" "$prog" "$data/theirs" >"$TEST_TMP/theirs.out"
is "$?" 0 "the program runs under Darshan"

# The program's own clock: its syncs must take long enough for the checks to mean something.
val() { awk -v k="$2" '$1 == k { print $2 }' "$TEST_TMP/$1.out"; }
ok "the syncs took 1 ms or more by the program's clock ($(val ours sync_s) s, $(val theirs sync_s) s)" \
	awk -v a="$(val ours sync_s)" -v b="$(val theirs sync_s)" 'BEGIN { exit !(a >= 0.001 && b >= 0.001) }'

ours() { ioa_counter "$(ioa_only_log "$logs")" POSIX 0 "$data/ours" "$1"; }
theirs() {
	LD_LIBRARY_PATH="$D/lib" "$D/bin/darshan-parser" "$TEST_TMP/theirs.darshan" |
		awk -v c="$1" -v f="$data/theirs" '$4 == c && $6 == f { print $5; exit }'
}
# writes: the write time holds the writes and the syncs (90%: clocks read at other instants).
writes() { awk -v t="$1" -v w="$(val "$2" write_s)" -v s="$(val "$2" sync_s)" 'BEGIN { exit !(t >= 0.9 * (w + s)) }'; }
# no_sync: the metadata time is under half the syncs' time.
no_sync() { awk -v t="$1" -v s="$(val "$2" sync_s)" 'BEGIN { exit !(t != "" && t < 0.5 * s) }'; }
ok "Darshan: the write time holds the writes and the syncs ($(theirs POSIX_F_WRITE_TIME) s)" \
	writes "$(theirs POSIX_F_WRITE_TIME)" theirs
ok "Darshan: the metadata time holds no sync ($(theirs POSIX_F_META_TIME) s)" \
	no_sync "$(theirs POSIX_F_META_TIME)" theirs
ok "ioatlas: the write time holds the writes and the syncs ($(ours POSIX_F_WRITE_TIME) s)" \
	writes "$(ours POSIX_F_WRITE_TIME)" ours
ok "ioatlas: the metadata time holds no sync ($(ours POSIX_F_META_TIME) s)" \
	no_sync "$(ours POSIX_F_META_TIME)" ours
