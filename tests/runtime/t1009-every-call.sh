# t1009-every-call — every POSIX and STDIO call in the runtime's table,
# made once by a program that knows what it did (posix-ops every), moves
# exactly the counters it should; and every MPI-IO call in the MPI table
# does too (mpi-io every).
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"

ops="$IOA_BUILD_DIR/tests/workloads/posix-ops"
work="$TEST_TMP/work"
mkdir -p "$work"

plan 35

logs=$(ioa_logdir)
ok "a program calling every intercepted POSIX and STDIO function runs unchanged" \
	ioa_preload "$logs" "$ops" every "$work"
log=$(ioa_only_log "$logs")
e() { ioa_counter "$log" POSIX 0 "$work/e" "$1"; }
is "$(e POSIX_OPENS)" 16 \
	"open, open64, openat, openat64, __open_2, __open64_2, __openat_2, __openat64_2, creat, creat64, 5 dups, fileno"
is "$(e POSIX_DUPS)" 5 "dup, dup2, dup3, fcntl and fcntl64 with F_DUPFD"
is "$(e POSIX_FILENOS)" 1 "fileno"
is "$(e POSIX_CREATES)" 1 "only the first open created the file"
is "$(e POSIX_WRITES):$(e POSIX_BYTES_WRITTEN)" 5:50 "write, pwrite, pwrite64, writev, pwritev"
is "$(e POSIX_READS):$(e POSIX_BYTES_READ)" 8:80 \
	"read, pread, pread64, readv, preadv and the fortified __read_chk, __pread_chk, __pread64_chk"
is "$(e POSIX_MAX_BYTE_WRITTEN):$(e POSIX_MAX_BYTE_READ)" 309:309 "their offsets"
is "$(e POSIX_SEEKS)" 2 "lseek, lseek64"
is "$(e POSIX_FSYNCS):$(e POSIX_FDSYNCS)" 1:1 "fsync, fdatasync"
is "$(e POSIX_TRUNCATES)" 2 "ftruncate, ftruncate64"
is "$(e POSIX_MMAPS)" 2 "mmap, mmap64"
is "$(e POSIX_ACCESS_CHECKS)" 1 "access"
is "$(e POSIX_STATS)" 14 "stat, lstat, fstat, fstatat, their 64 forms, statx and the __xstat family"
is "$(ioa_counter "$log" POSIX 0 "$work/d" POSIX_MKDIRS):$(ioa_counter "$log" POSIX 0 "$work/d" POSIX_RMDIRS)" \
	1:1 "mkdir, rmdir"
is "$(ioa_counter "$log" POSIX 0 "$work/d2" POSIX_RMDIRS)" 1 "unlinkat with AT_REMOVEDIR removes a directory"
is "$(ioa_counter "$log" POSIX 0 "$work/u" POSIX_UNLINKS):$(ioa_counter "$log" POSIX 0 "$work/u2" POSIX_UNLINKS)" \
	1:1 "unlink, unlinkat"
is "$(ioa_counter "$log" POSIX 0 "$work/r2" POSIX_RENAME_TARGETS):$(ioa_counter "$log" POSIX 0 "$work/r2" POSIX_RENAME_SOURCES)" \
	1:1 "rename into r2, renameat out of it"
r2_id=$("$IOA_CMD" parse --file-list "$log" | awk -F '\t' -v f="$work/r2" '$7 == f { print $1 }')
# A record id prints unsigned, as darshan-parser prints it.
is "$(ioa_counter "$log" POSIX 0 "$work/r3" POSIX_RENAMED_FROM)" "$r2_id" \
	"the renamed file knows where it came from"
is "$(ioa_counter "$log" POSIX 0 "$work/r3" POSIX_RENAME_SOURCES):$(ioa_counter "$log" POSIX 0 "$work/r4" POSIX_RENAME_TARGETS)" \
	1:1 "renameat2 out of r3 into r4"
is "$(ioa_counter "$log" POSIX 0 "$work/t" POSIX_TRUNCATES):$(ioa_counter "$log" POSIX 0 "$work/t" POSIX_UNLINKS)" \
	2:1 "truncate, truncate64, remove of a file"
is "$(ioa_counter "$log" POSIX 0 "$work/d3" POSIX_RMDIRS)" 1 "remove of a folder"
# sum COUNTER PREFIX: the counter summed over the records whose name starts with PREFIX.
sum() {
	"$IOA_CMD" parse "$log" | awk -F '\t' -v c="$1" -v p="$2" \
		'$4 == c && index($6, p) == 1 { s += $5 } END { print s + 0 }'
}
is "$(sum POSIX_CREATES "$work/m")" 8 \
	"mkstemp, mkstemp64, mkostemp, mkostemp64, mkstemps, mkstemps64, mkostemps, mkostemps64"
is "$(sum POSIX_MKDIRS "$work/dt")" 1 "mkdtemp"
is "$(sum STDIO_OPENS "/tmp/#")" 2 "tmpfile, tmpfile64"
s() { ioa_counter "$log" STDIO 0 "$work/s" "$1"; }
is "$(s STDIO_OPENS)" 4 "fopen, fopen64, freopen, freopen64"
is "$(ioa_counter "$log" STDIO 0 "$work/e" STDIO_FDOPENS)" 1 "fdopen"
is "$(s STDIO_WRITES):$(s STDIO_BYTES_WRITTEN)" 9:28 \
	"fwrite, fputs, fputc, putc, vfprintf, fprintf, __fprintf_chk, __vfprintf_chk, putw"
is "$(s STDIO_READS):$(s STDIO_BYTES_READ)" 11:28 \
	"fread, fgets, fgetc, getc, the scanf forms, __fgets_chk, __fread_chk, getw"
is "$(s STDIO_SEEKS)" 6 "fseek, fseeko, fseeko64, rewind, fsetpos, fsetpos64 (ftell is no seek)"
is "$("$IOA_CMD" trace --expand "$log" | awk -v f="$work/s" '$4 == "ftell" && $NF == f' | wc -l)" 1 \
	"ftell, in the trace"
out=$(ioa_counter "$log" STDIO 0 '<STDOUT>' STDIO_WRITES):$(ioa_counter "$log" STDIO 0 '<STDOUT>' STDIO_BYTES_WRITTEN)
is "$out" 4:8 "printf, vprintf, __printf_chk, __vprintf_chk on stdout"
is "$(s STDIO_FLUSHES)" 1 "fflush"

# Every line of the call table is one of the calls above.
table=$(sed -n 's/^[[:space:]]*X([^,]*, \([_a-z0-9]*\), .*/\1/p' "$IOA_SOURCE_DIR/runtime/rt_calls.h" | sort)
exercised=$(sed -n '/^static int vprint/,/^}/p; /^static int vprint_chk/,/^}/p; /^static int vprint_out/,/^}/p; /^static int vscan/,/^}/p; /^static void every_call/,/^}/p' \
	"$IOA_SOURCE_DIR/tests/workloads/posix-ops.c" |
	grep -o '[_a-z0-9]*(' | tr -d '(' | sed 's/^plain_//' | sort -u)
missing=$(comm -23 <(echo "$table") <(echo "$exercised") | tr '\n' ' ')
is "${missing:-none}" "none" "every call in rt_calls.h is exercised"
is "$(echo "$table" | wc -l)" 112 "the table lists the 112 intercepted POSIX and STDIO calls"

done_testing
