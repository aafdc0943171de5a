# t1001-posix-counters — under LD_PRELOAD, the POSIX counters of a program
# whose I/O is known exactly come out exactly as Darshan defines them, plus
# our own: creates, removals, in-place rewrites, failures by errno.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"

ops="$IOA_BUILD_DIR/tests/workloads/posix-ops"
work="$TEST_TMP/work"
mkdir -p "$work"

plan 66

# --- basic: writes, a rewrite in place, strided reads, stats, a temporary file
logs=$(ioa_logdir)
ok "the basic pattern runs unchanged under the runtime" ioa_preload "$logs" "$ops" basic "$work"
log=$(ioa_only_log "$logs")
ok "and leaves one log" test -n "$log"
data="$work/data"
c() { ioa_counter "$log" POSIX 0 "$data" "$1"; }
is "$(c POSIX_OPENS)" 2 "opens"
is "$(c POSIX_CREATES)" 1 "the first open created the file"
is "$(c POSIX_MODE)" 420 "mode argument of the last open with O_CREAT (0644; the later read-only open gives none)"
is "$(c POSIX_WRITES)" 11 "writes"
is "$(c POSIX_BYTES_WRITTEN)" 10100 "bytes written"
is "$(c POSIX_MAX_BYTE_WRITTEN)" 9999 "highest byte written"
is "$(c POSIX_CONSEC_WRITES)" 9 "consecutive writes (Darshan: the first access is neither)"
is "$(c POSIX_SEQ_WRITES)" 9 "sequential writes"
is "$(c POSIX_SIZE_WRITE_100_1K)" 10 "1000-byte writes land in the 100-1K bin"
is "$(c POSIX_SIZE_WRITE_0_100)" 1 "the 100-byte rewrite lands in the 0-100 bin"
is "$(c POSIX_OVERWRITES)" 1 "one write rewrote bytes written before"
is "$(c POSIX_OVERWRITE_BYTES)" 100 "100 bytes were rewritten in place"
is "$(c POSIX_OVERWRITE_FIRST_OFFSET)" 0 "at offset 0 (a header update)"
is "$(c POSIX_SEEKS)" 1 "seeks"
is "$(c POSIX_FSYNCS)" 1 "fsyncs"
is "$(c POSIX_READS)" 5 "reads"
is "$(c POSIX_BYTES_READ)" 2010 "bytes read"
is "$(c POSIX_MAX_BYTE_READ)" 6499 "highest byte read"
is "$(c POSIX_SEQ_READS)" 3 "sequential reads"
is "$(c POSIX_CONSEC_READS)" 0 "no consecutive reads"
is "$(c POSIX_RW_SWITCHES)" 1 "one switch from writing to reading"
is "$(c POSIX_STATS)" 2 "fstat and stat"
is "$(c POSIX_FILE_ALIGNMENT)" "$(stat -c %o "$data")" "file alignment is the file system's block size"
if [ "$(stat -c %o "$data")" = 4096 ]; then
	is "$(c POSIX_FILE_NOT_ALIGNED)" 12 "accesses off a 4 KiB boundary"
else
	is "$(c POSIX_FILE_NOT_ALIGNED)" "$(awk -v b="$(stat -c %o "$data")" 'BEGIN {
		n = 0; for (o = 0; o < 10000; o += 1000) n += (o % b) != 0
		for (o = 2000; o <= 6000; o += 2000) n += (o % b) != 0
		print n }')" "accesses off a block boundary"
fi
is "$(c POSIX_STRIDE1_STRIDE):$(c POSIX_STRIDE1_COUNT)" 1500:3 "most common stride 1500, 3 times"
is "$(c POSIX_STRIDE2_STRIDE):$(c POSIX_STRIDE2_COUNT)" 0:0 \
	"and no other: as in Darshan, an access right after the previous one has no stride"
is "$(c POSIX_ACCESS1_ACCESS):$(c POSIX_ACCESS1_COUNT)" 1000:10 "most common access size"
is "$(c POSIX_ACCESS2_ACCESS):$(c POSIX_ACCESS2_COUNT)" 500:4 "second most common access size"
tmp_line=$("$IOA_CMD" parse --file-list "$log" | grep -F "$work/tmp")
like "$tmp_line" "POSIX	0	1	0	0	$work/tmp \\(temporary\\)$" \
	"a file created and unlinked in the job is listed as temporary"

# --- failures: by operation and errno, rmdir ENOTDIR then unlink
logs=$(ioa_logdir)
ok "the failures pattern runs unchanged" ioa_preload "$logs" "$ops" failures "$work"
log=$(ioa_only_log "$logs")
failed=$("$IOA_CMD" parse "$log" | grep '^FAILED')
like "$failed" "^FAILED	POSIX	0	[0-9]+	open	ENOENT	1	$work/missing$" \
	"a failed open is recorded with its errno"
like "$failed" "^FAILED	POSIX	0	[0-9]+	rmdir	ENOTDIR	1	$work/notadir$" \
	"rmdir failing with ENOTDIR is recorded"
is "$(ioa_counter "$log" POSIX 0 "$work/notadir" POSIX_UNLINKS)" 1 \
	"and the unlink of the same name that follows"
is "$(ioa_counter "$log" POSIX 0 "$work/notadir" POSIX_FAILED_CALLS)" 1 \
	"the record counts its failed call"

# --- O_APPEND: writes land at the end of the file, whatever the descriptor's position
logs=$(ioa_logdir)
ok "the append pattern runs unchanged" ioa_preload "$logs" "$ops" append "$work"
log=$(ioa_only_log "$logs")
a() { ioa_counter "$log" POSIX 0 "$work/log" "$1"; }
is "$(a POSIX_BYTES_WRITTEN)" 3600 "appended bytes, and the 100 rewritten"
is "$(a POSIX_MAX_BYTE_WRITTEN)" 3499 "the highest byte is the end of the file"
is "$(a POSIX_OVERWRITES) $(a POSIX_OVERWRITE_BYTES)" "1 100" \
	"appends rewrite nothing, also once set by fcntl; the write after it is unset does"
# As Darshan counts, an open starts the sequence anew: of the writes at 1000 (after
# the second open), 2000, 3000 (after the third), 3100, 3200 (after the fourth),
# 3400 and 0, three follow the one before.
is "$(a POSIX_CONSEC_WRITES)" 3 "each append after the first since an open follows the one before"
like "$("$IOA_CMD" trace --expand "$log")" "POSIX +write +3100 +100 " \
	"the trace has the offset the last write landed at"
like "$("$IOA_CMD" trace --expand "$log" | awk '$4 == "write" { print $5, $6 }' | tail -n 3 | tr '\n' ' ')" \
	"^3200 200 3400 100 0 100 $" "writes after fcntl(F_SETFL) land where the description's mode put them"
like "$("$IOA_CMD" trace --expand "$log" | awk '$4 == "write" || $4 == "fcntl" { print $4, $5, $6 }' |
	tail -n 6 | tr '\n' ' ')" "^write 3100 100 fcntl 4 1 write 3200 200 write 3400 100 fcntl 4 0 write 0 100 $" \
	"the trace has each fcntl(F_SETFL) where it was made: F_SETFL (4), and whether it appends"
like "$("$IOA_CMD" trace "$log" | grep -F 'POSIX open ' | head -1)" " aux=1 " \
	"and says the file was opened to append"

# --- vectors and dup
logs=$(ioa_logdir)
ok "the vectors pattern runs unchanged" ioa_preload "$logs" "$ops" vectors "$work"
log=$(ioa_only_log "$logs")
v() { ioa_counter "$log" POSIX 0 "$work/vec" "$1"; }
is "$(v POSIX_WRITES):$(v POSIX_BYTES_WRITTEN)" 3:407 "writev, pwritev and a write through a dup"
is "$(v POSIX_MAX_BYTE_WRITTEN)" 1099 "pwritev's offset counts"
is "$(v POSIX_DUPS):$(v POSIX_OPENS)" 1:2 "dup counts as a dup and an open"
is "$(v POSIX_OVERWRITES)" 0 "adjacent writes are no rewrite"

# --- a descriptor's number closed unseen (a stream's fclose; a raw system call) and
# reused for what is not recorded (a pipe, /proc): nothing done on it is the file's
logs=$(ioa_logdir)
ok "the reuse pattern runs unchanged (each number is taken again)" \
	ioa_preload "$logs" "$ops" reuse "$work"
log=$(ioa_only_log "$logs")
for f in r1 r2 r3; do
	r() { ioa_counter "$log" POSIX 0 "$work/$f" "$1"; }
	is "$(r POSIX_OPENS):$(r POSIX_READS):$(r POSIX_WRITES):$(r POSIX_BYTES_READ)" 1:0:0:0 \
		"$f: opened once, no read or write of what took its number after"
done

# --- runs of alike calls: applied together from the queue, as if one by one
# runs_of LOGDIR: the integer counters of DIR/runs (but which size was slowest,
# a matter of timing), then the trace's reads, writes and seeks.
runs_of() {
	local log
	log=$(ioa_only_log "$1") || return 1
	"$IOA_CMD" parse "$log" | awk -F '\t' -v f="$work/runs" \
		'$6 == f && $4 !~ /_F_|MAX_(READ|WRITE)_TIME_SIZE/ { print $1, $2, $4, $5 }'
	"$IOA_CMD" trace --expand "$log" | awk '$4 ~ /^(p?read|p?write|lseek)$/ { print $4, $5, $6 }'
}
logs=$(ioa_logdir)
rm -f "$work/runs" "$work/other"
ok "the runs pattern runs unchanged" ioa_preload "$logs" "$ops" runs "$work"
together=$(runs_of "$logs")
log=$(ioa_only_log "$logs")
r() { ioa_counter "$log" POSIX 0 "$work/runs" "$1"; }
is "$(r POSIX_WRITES) $(r POSIX_BYTES_WRITTEN) $(r POSIX_MAX_BYTE_WRITTEN)" "56 24528 20799" \
	"runs: 44 writes of 512, 8 pwrites of 100, 4 writes of 300, up to byte 20799"
is "$(r POSIX_OVERWRITES) $(r POSIX_OVERWRITE_BYTES)" "20 10240" \
	"runs: the 20 writes after the seek to 0 rewrite, the 4 after them do not"
# Darshan's orders: a write after the seek, the first pwrite and the first write
# after the pwrites (below their end) are not consecutive; those two not sequential.
is "$(r POSIX_SEQ_WRITES) $(r POSIX_CONSEC_WRITES)" "53 52" "runs: sequential and consecutive writes"
is "$(r POSIX_READS) $(r POSIX_BYTES_READ) $(r POSIX_MAX_BYTE_READ)" "36 2560 1535" \
	"runs: 32 reads of 64, 4 of 128, up to byte 1535"
is "$(r POSIX_SEQ_READS) $(r POSIX_CONSEC_READS)" "34 34" \
	"runs: every read but the first pread and the first read after the seek follows the last"
is "$(r POSIX_MEM_NOT_ALIGNED) $(r POSIX_SIZE_WRITE_100_1K) $(r POSIX_SIZE_READ_100_1K)" "4 48 4" \
	"runs: the 4 writes from an unaligned buffer; sizes in their bins"
logs=$(ioa_logdir)
rm -f "$work/runs" "$work/other"
ok "the runs pattern runs unchanged, each call applied alone" ioa_preload "$logs" "$ops" runs "$work" 1
apart=$(runs_of "$logs")
is "$together" "$apart" "runs: the counters and the trace are those of each call applied alone"
like "$together" "write 10240 512" "runs: (the trace was compared)"

# --- errno and results untouched
logs=$(ioa_logdir)
ok "results and errno are those of the real calls" ioa_preload "$logs" "$ops" errno "$work"

# --- no runtime: the same program, the same behaviour
ok "the program also passes without the runtime" "$ops" basic "$work"

done_testing
