# t6001-kernels — `ioatlas kernel gen` and `validate` on MPI jobs of known
# shape (tests/jobs/ground-truth.c, tests/jobs/kernel-shapes.c: interleaved
# checkpoint with a barrier and read-back, a barrier after every write,
# compute between reads, token passing, a 3-D block decomposition written
# with MPI-IO, file per process, a file every rank opens alone
# (MPI_COMM_SELF) beside files opened on a split communicator, ADIOS 1's
# rooted collectives and scans between its writes, a scratch file kept
# with ftell, fseek and rewind, ...): each
# job's kernel is generated,
# built, run under the runtime with the job's rank count, and gives the
# job's I/O counters exactly; compute that grows step by step is replayed
# step by step (tests/workloads/trace-ops growing); kernels carry no path
# or program name of the job unless asked; their knobs work; a log without
# a trace is a clear error.  Kernels as epochs (--epochs, the form of one
# longer than --max-size) give the same counters; an MPI-IO job has none.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
require_mpi

kernel="$IOA_BUILD_DIR/libexec/ioatlas/ioatlas-kernel"
gt="$IOA_BUILD_DIR/tests/jobs/ground-truth"
shapes="$IOA_BUILD_DIR/tests/jobs/kernel-shapes"
export IOATLAS_CONF=/dev/null
# The kernel runs under what this build preloads (a sanitizer build: its runtime first).
runtime=$(ioa_preload_list "$IOA_RUNTIME_SO")

# job PROGRAM MODE: runs a job of 4 ranks, prints its log.
job() {
	local program=$1 mode=$2 logs="$TEST_TMP/logs-$2"
	mkdir -p "$logs" "$TEST_TMP/data-$mode"
	# stdio's log file and the folder it looks at are there before the job; its input is not.
	[ "$mode" != stdio ] || { : >"$TEST_TMP/data-stdio/there.log" && mkdir -p "$TEST_TMP/data-stdio/lib"; }
	ioa_mpi_preload "$logs" 4 120 "$program" "$mode" "$TEST_TMP/data-$mode" >/dev/null || return 1
	ioa_only_log "$logs"
}

for mode in fixed amr collective fpp temp header interleaved barriers compute token block3d mpiio halo view3d \
	self gather stdio lists handoff; do
	program=$gt
	case $mode in
	interleaved | barriers | compute | token | block3d | mpiio | halo | view3d | self | gather | stdio | lists | handoff)
		program=$shapes ;;
	esac
	log=$(job "$program" "$mode") || { ok "the $mode job runs" false; continue; }
	ok "$mode: a kernel is generated" "$kernel" gen "$log" -o "$TEST_TMP/k-$mode"
	ok "$mode: built, run and validated: the same I/O counters" \
		run_timeout 300 "$kernel" validate "$TEST_TMP/k-$mode" "$log" --runtime "$runtime"
	like "$(cat "$TEST_TMP/last.out")" "counters compared: identical" "$mode: identical, it says"
	cp "$TEST_TMP/last.out" "$TEST_TMP/validate-$mode.out"
	unlike "$(cat "$TEST_TMP/k-$mode/kernel.c")" "data-$mode|ground-truth|kernel-shapes" \
		"$mode: no path or program name of the job in the kernel"
done
unlike "$(cat "$TEST_TMP/last.out")" $'kernel run|\r|\033' "validate in a pipe: no progress line"
# On a terminal (script(1) gives it one), the kernel's run counts the job's seconds.
tty_out=$(TERM=xterm run_timeout 300 script -qec "$(printf '%q ' "$kernel" validate \
	"$TEST_TMP/k-fixed" "$(ioa_only_log "$TEST_TMP/logs-fixed")" --runtime "$runtime")" /dev/null)
like "$tty_out" $'\r\033\\[K[a-z -]+: kernel run, seconds of the job.s [0-9]+/[0-9]+ \\([0-9]+%\\)' \
	"validate on a terminal: the kernel's run against the job's seconds, redrawn in place"
like "$tty_out" "counters compared: identical" "between its results"
# in_kernel MODE REGEX DESCRIPTION (not_in_kernel): what the mode's kernel.c says.
in_kernel() { like "$(cat "$TEST_TMP/k-$1/kernel.c")" "$2" "$1: $3"; }
not_in_kernel() { unlike "$(cat "$TEST_TMP/k-$1/kernel.c")" "$2" "$1: $3"; }
in_kernel header "\\(1024 \\* R \\+ 1024\\)" \
	"a rank's own header offset, affine in the rank"
in_kernel fixed "for \\(i0 = 0; i0 < 4; i0\\+\\+\\)" \
	"the checkpoints' writes as a loop"
in_kernel block3d '\* \(R % 2\)' \
	"the ranks' blocks found as a decomposition of the ranks"
not_in_kernel block3d 'static const int64_t t[0-9]' "with no table"
not_in_kernel block3d 'static const uint32_t ranks[0-9]' \
	"nor a list of ranks (its groups are ranges)"
in_kernel fixed '/\* Phase: 4 passes, each: 4 writes \(256 KiB\), .*, 0\.[0-9]+ s of compute\. \*/' \
	"the checkpoint phase said above its loop"
like "$(grep -B1 'File_write_at_all' "$TEST_TMP/k-collective/kernel.c")" 'k_gap\(0\.[2-3][0-9]*\);' \
	"collective: the 0.3 s of compute before each collective write is kept"
like "$("$kernel" gen "$(ioa_only_log "$TEST_TMP/logs-collective")" -o "$TEST_TMP/k-c2")" \
	"in 2 groups merged into 1 part" \
	"collective: the aggregator's group and the others' merge into one program"
is "$(grep -c '^static void part' "$TEST_TMP/k-c2/kernel.c")" 1 "collective: one function for all ranks"
in_kernel temp 'if \(rank < 1\)' \
	"what rank 0 alone does is a part of its own, under a test of the rank"
in_kernel token 'k_recv\([0-9]+, 3, 0\)' \
	"each rank waits for the rank before it (peer -1, relative)"
in_kernel mpiio 'k_mpi_rw\(FILE_OF\([0-9]+\), -1, 16384, 1, K_COLL\)' \
	"write_all at the file pointer, as the job made it"
in_kernel mpiio 'k_mpi_rw\(FILE_OF\([0-9]+\), .*, 16384, 1, K_NB\)' \
	"iwrite_at non-blocking, as the job made it"
in_kernel halo 'k_comm_split\(0, .*, [1-9][0-9]*\);' "the halves' communicator made as the job made it"
in_kernel halo 'k_reduce\(8, 1, -1, [1-9][0-9]*\);' "the Allreduce on it, not on all ranks"
in_kernel halo 'k_irecv\(8192, [0-9]+, [0-9]+, 0\);' "non-blocking receives ..."
in_kernel halo 'k_isend\(8192, [0-9]+, [0-9]+, 0\);' "... and sends, each in its request slot"
in_kernel halo 'k_waitall\(\);' "completed by their Waitall ..."
in_kernel halo 'k_wait\([^)]+\);' "... or their Wait"
in_kernel halo '"<STDOUT>",' "the job's standard output is the kernel's (validated above)"
in_kernel gather 'k_scan\(8, 1, 0\); /\* Exscan' "Exscan replayed, with its 8 bytes"
in_kernel gather 'k_gather\(4, 0, 0, 0\); /\* Gather' "Gather: 4 bytes a rank to root 0"
in_kernel gather 'k_gather\(\(16 \* R \+ 64\), 1, 0, 0\); /\* Gatherv' \
	"Gatherv: each rank's own count (64 + 16 r), with its counts gathered first"
in_kernel gather 'k_scatter\(8, 0, 0, 0\); /\* Scatter' "Scatter: 8 bytes to each rank"
in_kernel gather 'k_scatter\(\(8 \* R \+ 32\), 1, 0, 0\); /\* Scatterv' \
	"Scatterv: each rank receives its own count (32 + 8 r)"
in_kernel gather 'k_scan\(8, 0, 0\); /\* Scan' "Scan replayed"
in_kernel gather 'k_mpi_get_size\(FILE_OF\([0-9]+\)\); /\* File_get_size' "File_get_size replayed"
in_kernel gather 'k_mpi_seek\(FILE_OF\([0-9]+\), [^;]*, 0\); /\* File_seek' \
	"File_seek replayed (from the start: whence 0), before the write at the file pointer"
in_kernel gather 'k_allgatherv\(\(16 \* R \+ 64\), 0\); /\* Allgatherv' \
	"Allgatherv: each rank's own count"
is "$(grep -c 'not replayed' "$TEST_TMP/k-gather/kernel.c")" 0 \
	"gather: no call left out (MPI_Init the kernel makes itself)"
in_kernel stdio 'k_ftell\(FILE_OF\([^;]+\)\);$' "ftell replayed (a seek to STDIO's counters)"
in_kernel stdio 'k_remove\(FILE_OF\([^;]+\)\);$' "remove replayed"
in_kernel stdio 'k_fileno\(FILE_OF\([^;]+\)\);$' "fileno replayed (an open in POSIX's counters)"
is "$(grep -c 'not replayed' "$TEST_TMP/k-stdio/kernel.c")" 0 "stdio: no call left out"
# A failed fopen of a missing input fails again; a file the job found there is made first.
in_kernel stdio 'k_fopen\(FILE_OF\([^;]+\), 0, 4\);$' "the failed fopen replayed as one (no create)"
# Streams opened in the job's modes: "w+" empties, "r+" rewrites in place (not "a+": at the end).
in_kernel stdio 'k_fopen\(FILE_OF\([^;]+\), 1, 2\);$' "the scratch file opened to be emptied (\"w+\")"
in_kernel stdio 'k_fopen\(FILE_OF\([^;]+\), 1, 4\);$' "and again to rewrite a record in place (\"r+\")"
is "$(ls "$TEST_TMP/data-stdio")" "lib
there.log" "stdio: the job left its log and folder, and no input it lacked"
mkdir -p "$TEST_TMP/k-stdio/again"
ok "stdio: the kernel prepares its run" run_timeout 120 "$IOA_MPIEXEC" -n 4 \
	"$TEST_TMP/k-stdio/kernel" --prepare --data-dir "$TEST_TMP/k-stdio/again"
is "$(find "$TEST_TMP/k-stdio/again" -type f -printf '%s\n')" "0
0" "stdio: --prepare makes the log the job found there (empty) and the folder it stats (a file), nothing else"
ok "stdio: the kernel runs" run_timeout 120 "$IOA_MPIEXEC" -n 4 \
	"$TEST_TMP/k-stdio/kernel" --data-dir "$TEST_TMP/k-stdio/again"
is "$(find "$TEST_TMP/k-stdio/again" -type f -printf '%s\n' | sort -n)" "0
1024" "stdio: and leaves the job's files: the log, 1 KiB appended, no input made by its failed fopen"
# The job's 100 ms of compute before its first call are spent before the kernel's run; the
# 200 ms before MPI_Init, after the kernel's MPI_Init, once: before the loop of stats that
# comes first, not on each of its passes (3 times 200 ms).  Timed in t6012, on cores of its own.
# (A kernel's gap is its histogram bin's value: 0.197 s was seen for the 200 ms.)
in_kernel stdio 'static const double start_gap = 0\.(09|1[0-9])[0-9]*;' \
	"the 100 ms before the job's first call spent before the run"
# A list of rank 0's sizes beside the others' one size: a row per rank, each of its 3 writes.
in_kernel lists $'^\t\\{4096, 4096, 8192\\},$' "rank 0's row of its sizes"
is "$(grep -c $'^\t{4096, 4096, 4096}' "$TEST_TMP/k-lists/kernel.c")" 3 \
	"lists: each other rank's row its one size, 3 times (not {0})"
in_kernel lists 'k_dup\(FILE_OF\([^)]*\), 1\);' "the duplicated descriptor replayed"
in_kernel lists 'k_fcntl\(FILE_OF\([^)]*\), 1, 4, 1\);' "the file set to append (F_SETFL) replayed"
stats_loop=$(awk '/k_gap\(0\.(19|2[0-9])[0-9]*\);/ { g = NR }
	/for \(i0 = 0; i0 < 3; i0\+\+\) \{/ { f = NR; inside = 1; next }
	inside && /k_gap\(0\.[1-9]/ { slow = 1 }
	inside && /k_stat\(/ { stat = 1 }
	inside && /^\t\}/ { if (stat) { print (g && f - g <= 2 ? "before" : "not before"), (slow ? "and inside" : "only"); exit }
		inside = 0; slow = 0 }' "$TEST_TMP/k-stdio/kernel.c")
is "$stats_loop" "before only" \
	"stdio: the 200 ms before MPI_Init spent once, before the loop of stats, not in it"

in_kernel view3d 'k_view_type\(2, 8, 3\);' "the file view's filetype, a 3-D subarray of 8-byte elements"
in_kernel view3d 'k_view_dim\(16, 8, \(0 \+ 8 \* \(R / 2\)\)\);' \
	"each rank's start in it found from its block"
in_kernel view3d 'k_mpi_set_view\(FILE_OF\([0-9]+\), 0 \+ 32768 \* i0, 8\);' \
	"the view set at each checkpoint's displacement"
mpicc=$(command -v mpicc.mpich || command -v mpicc)
is "$("$mpicc" -O2 -Wall -Wextra -c "$TEST_TMP/k-halo/kernel.c" -o "$TEST_TMP/halo.o" 2>&1)" "" \
	"a kernel compiles without a warning under -Wall -Wextra"
in_kernel collective 'k_mpi_open\(FILE_OF\([0-9]+\), [0-9]+, [0-9]+, "cb_config_list=\*:1' \
	"MPI-IO opened with the job's hints"

# Gaps where they happened: trace-ops' time before each write grows from 2 to
# 8 ms; the kernel replays each write's gap in its place (the program's own
# measure of them, DIR/gaps.RANK, is the reference).
ops="$IOA_BUILD_DIR/tests/workloads/trace-ops"
mkdir -p "$TEST_TMP/logs-growing" "$TEST_TMP/data-growing" "$TEST_TMP/logs-kgrowing" \
	"$TEST_TMP/run-growing"
ok "growing: the job runs" ioa_mpi_preload "$TEST_TMP/logs-growing" 2 120 \
	-genv IOATLAS_INCLUDE_PATHS "" "$ops" growing 40 "$TEST_TMP/data-growing"
log=$(ioa_only_log "$TEST_TMP/logs-growing") || log=/nonexistent
k="$TEST_TMP/k-growing"
ok "growing: a kernel is generated" "$kernel" gen "$log" -o "$k"
in_kernel growing 'k_gap\(k_order\(og[0-9_]+, oe[0-9_]+, 40,' \
	"the writes' gaps as a table of 40, in order"
ok "growing: built, run and validated" \
	run_timeout 300 "$kernel" validate "$k" "$log" --runtime "$runtime"
ok "growing: the kernel runs under the runtime" \
	ioa_mpi_preload "$TEST_TMP/logs-kgrowing" 2 120 -genv IOATLAS_INCLUDE_PATHS "" \
	"$k/kernel" --data-dir "$TEST_TMP/run-growing"
klog=$(ioa_only_log "$TEST_TMP/logs-kgrowing") || klog=/nonexistent
# The kernel's table against the program's own measure (the ranks' mean):
# 90% of the 40 gaps within 10%, in order.
err=$(sed -n 's/^static const double og[0-9_]*\[40\] = {\(.*\)};$/\1/p' "$k/kernel.c" |
	tr ',' '\n' | paste - "$TEST_TMP/data-growing/gaps.0" "$TEST_TMP/data-growing/gaps.1" |
	awk 'NF == 3 { m = ($2 + $3) / 2; e = ($1 - m) / m; print e < 0 ? -e : e }' |
	sort -g | awk '{ a[NR] = $1 } END { print NR == 40 ? a[36] : 1 }')
ok "growing: the kernel's gaps are the program's, in order (90% within 10%: $err)" \
	awk -v e="$err" 'BEGIN { exit !(e <= 0.10) }'
# Replayed (spinning: a loaded machine stretches single gaps, the short
# ones most: with a package build beside it, the sums of the first and last
# ten came within 10% of each other), the least stretched of the last ten
# gaps is still well over the least stretched of the first ten (the
# program's: 6.6 against 2 ms; the mean gap everywhere would make them equal).
rise=$(for r in 0 1; do
	"$IOA_CMD" trace --expand --rank "$r" "$klog" |
		awk '/^#/ { next } $4 == "pwrite" && $6 == 4096 { print $8 - end } { end = $8 + $9 }' |
		awk 'NR == 1 || (NR <= 10 && $1 < a) { a = $1 } NR == 31 || (NR > 31 && $1 < b) { b = $1 }
			END { print (NR == 40 && a > 0 ? b / a : 0) }'
done | sort -g | head -n 1)
ok "growing: replayed, each rank's shortest of its last ten gaps is 1.5 times its first ten's or more ($rise)" \
	awk -v r="$rise" 'BEGIN { exit !(r >= 1.5) }'

# A job whose calls the kernel cannot all make (posix-ops every: renames,
# mkstemp, tmpfile, mmap ...): validate names each call left out, by
# layer, prints the layers' totals beside the job's, and fails.
mkdir -p "$TEST_TMP/logs-every" "$TEST_TMP/data-every"
ok "every: the job runs" env IOATLAS_NONMPI=1 IOATLAS_LOGDIR="$TEST_TMP/logs-every" \
	LD_PRELOAD="$runtime" "$IOA_BUILD_DIR/tests/workloads/posix-ops" every "$TEST_TMP/data-every"
log=$(ioa_only_log "$TEST_TMP/logs-every") || log=/nonexistent
ok "every: a kernel is generated" "$kernel" gen "$log" -o "$TEST_TMP/k-every"
run_timeout 300 "$kernel" validate "$TEST_TMP/k-every" "$log" --runtime "$runtime" \
	>"$TEST_TMP/every.out" 2>&1
is "$?" 1 "every: validate fails"
for call in "POSIX rename" "POSIX mkstemp" "STDIO tmpfile" "POSIX mmap"; do
	like "$(cat "$TEST_TMP/every.out")" "not replayed: $call, in [0-9]+ places? of the kernel" \
		"every: it says $call is left out"
done
unlike "$(cat "$TEST_TMP/every.out")" "not replayed: POSIX (dup|fcntl)" \
	"every: its dup, dup2, dup3 and fcntl(F_DUPFD) are replayed"
like "$(cat "$TEST_TMP/every.out")" "calls not replayed in [0-9]+ places \(above\)" \
	"every: and sums them up"
like "$(cat "$TEST_TMP/every.out")" $'\nPOSIX +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+\n' \
	"every: the layers' reads and writes and bytes, job beside kernel"

# The knobs: more iterations, other modes, the names kept when asked.
log=$(ioa_only_log "$TEST_TMP/logs-fpp")
k="$TEST_TMP/k-fpp"
mkdir -p "$TEST_TMP/run2"
ok "the kernel runs twice over (--iterations 2), as fast as possible" \
	run_timeout 120 "$IOA_MPIEXEC" -n 4 "$k/kernel" --iterations 2 --mode fast --data-dir "$TEST_TMP/run2"
is "$(stat -c %s "$TEST_TMP/run2/f0")" 1048576 "it writes what the job wrote, again"
ok "think-limited mode (no synchronization)" \
	run_timeout 120 "$IOA_MPIEXEC" -n 4 "$k/kernel" --mode think --compute-scale 0.5 \
	--data-dir "$TEST_TMP/run2"
fails "the wrong rank count is refused" run_timeout 120 "$IOA_MPIEXEC" -n 2 "$k/kernel"
like "$(cat "$TEST_TMP/last.out")" "made for 4 ranks, run with 2" "with a message"
fails "--ranks is refused where the ranks have files of their own" \
	run_timeout 120 "$IOA_MPIEXEC" -n 2 "$k/kernel" --ranks 2
like "$(cat "$TEST_TMP/last.out")" "made for 4 ranks and cannot change: ranks use files of their own" \
	"saying why"
fails "and where a number follows a decomposition of the ranks" \
	run_timeout 120 "$IOA_MPIEXEC" -n 2 "$TEST_TMP/k-block3d/kernel" --ranks 2
mkdir -p "$TEST_TMP/run8"
in_kernel collective '\(262144 \* \(int64_t\)size\) \* i0' \
	"the checkpoint step is the ranks' blocks together, in terms of the rank count"
ok "the collective kernel runs as a 2-rank job (--ranks 2)" \
	run_timeout 120 "$IOA_MPIEXEC" -n 2 "$TEST_TMP/k-collective/kernel" --ranks 2 --mode fast \
	--data-dir "$TEST_TMP/run8"
is "$(stat -c %s "$TEST_TMP"/run8/f*)" $((3 * 2 * 262144)) \
	"and writes what 2 ranks of the job would have written"
# As epochs (kgen_compact.c, the form of a kernel too long for --max-size):
# a stream's calls between its other calls as their totals (stdio: in-place
# updates, reads after a rewind), MPI calls as their time but a barrier per
# epoch (interleaved, token, barriers) give the same I/O counters.
for mode in stdio interleaved token barriers; do
	elog=$(ioa_only_log "$TEST_TMP/logs-$mode")
	ok "$mode as epochs: generated" "$kernel" gen "$elog" --epochs 3 -o "$TEST_TMP/e-$mode"
	like "$(cat "$TEST_TMP/last.out")" "compact, in [0-9]+ epochs" "$mode as epochs: it says so"
	ok "$mode as epochs: built, run and validated" \
		run_timeout 300 "$kernel" validate "$TEST_TMP/e-$mode" "$elog" --runtime "$runtime"
	like "$(cat "$TEST_TMP/last.out")" "counters compared: identical" "$mode as epochs: the same counters"
done
like "$(cat "$TEST_TMP/e-stdio/kernel.c")" 'k_fagg\(FILE_OF\(' "stdio as epochs: its stream calls as totals"
# One epoch asked: the Bcast after rank 0's writes to the file the others
# read still ends one (the MPI calls between are only time), and the
# readers' stream is where the job's was after its totals (a rewind, then
# an fstat on its descriptor, then a read of the whole file).
elog=$(ioa_only_log "$TEST_TMP/logs-handoff")
ok "handoff as one epoch: generated" "$kernel" gen "$elog" --epochs 1 -o "$TEST_TMP/e-handoff"
like "$(cat "$TEST_TMP/e-handoff/kernel.c")" 'k_barrier\(0\)' "a barrier where the file was handed over"
ok "handoff as one epoch: validated" \
	run_timeout 300 "$kernel" validate "$TEST_TMP/e-handoff" "$elog" --runtime "$runtime"
like "$(cat "$TEST_TMP/last.out")" "counters compared: identical" "handoff as one epoch: the same counters"
fails "an MPI-IO job is not written as epochs" \
	"$kernel" gen "$(ioa_only_log "$TEST_TMP/logs-mpiio")" --epochs 3 -o "$TEST_TMP/e-mpiio"
like "$(cat "$TEST_TMP/last.out")" "no kernel as epochs: those replay jobs of POSIX and STDIO" \
	"... and says why"
fails "--epochs out of range" "$kernel" gen "$log" --epochs 65 -o "$TEST_TMP/e-bad"
fails "--max-size not a size" "$kernel" gen "$log" --max-size lots -o "$TEST_TMP/e-bad"

ok "--keep-names" "$kernel" gen "$log" -o "$TEST_TMP/k-named" --keep-names
like "$(cat "$TEST_TMP/k-named/kernel.c")" '"fpp\.0",' "keeps the files' own names"
# Files of one basename in different folders stay apart: GNU tar extracts
# a/data.bin and b/data.bin, and the kernel names the second f<number>_data.bin.
tar_dir="$TEST_TMP/tar"
mkdir -p "$tar_dir/src/a" "$tar_dir/src/b" "$tar_dir/out" "$TEST_TMP/logs-tar"
head -c 3000 /dev/urandom >"$tar_dir/src/a/data.bin"
head -c 70000 /dev/urandom >"$tar_dir/src/b/data.bin"
tar -cf "$tar_dir/in.tar" -C "$tar_dir/src" a b
# (tar leaves its memory to the exit: a sanitizer build's leak check stays off for it.)
ok "tar: the job runs" env IOATLAS_NONMPI=1 IOATLAS_LOGDIR="$TEST_TMP/logs-tar" \
	${IOA_SANITIZE:+ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"} \
	LD_PRELOAD="$runtime" tar -xf "$tar_dir/in.tar" -C "$tar_dir/out"
log=$(ioa_only_log "$TEST_TMP/logs-tar") || log=/nonexistent
ok "tar: a kernel with the job's names" "$kernel" gen "$log" --keep-names -o "$TEST_TMP/k-tar"
like "$(tr -d '\n' <"$TEST_TMP/k-tar/kernel.c")" '"data\.bin",[[:space:]]*"f[0-9]+_data\.bin",' \
	"tar: the second data.bin named apart"
ok "tar: validated" run_timeout 300 "$kernel" validate "$TEST_TMP/k-tar" "$log" --runtime "$runtime"
like "$(cat "$TEST_TMP/last.out")" "counters compared: identical" \
	"tar: each data.bin written as the job wrote it"

untraced=$(mkdir -p "$TEST_TMP/logs-u" "$TEST_TMP/data-u" &&
	ioa_mpi_preload "$TEST_TMP/logs-u" 4 120 -genv IOATLAS_TRACE 0 "$gt" fpp "$TEST_TMP/data-u" \
		>/dev/null && ioa_only_log "$TEST_TMP/logs-u")
fails "a log without a trace" "$kernel" gen "$untraced" -o "$TEST_TMP/k-u"
like "$(cat "$TEST_TMP/last.out")" "holds no operation trace" "is a clear error"

# validate ended by a signal while the kernel runs (a batch system's limit, a
# test's timeout): the kernel's ranks end with it.  The job: 2 ranks, 160
# reads 20 ms of compute apart (3.2 s).
mkdir -p "$TEST_TMP/logs-long" "$TEST_TMP/data-long"
IOATLAS_LOGDIR="$TEST_TMP/logs-long" mpi_run 2 120 -genv LD_PRELOAD "$runtime" \
	-genv IOATLAS_LOGDIR "$TEST_TMP/logs-long" "$shapes" compute "$TEST_TMP/data-long" 20 >/dev/null
ok "a job of 3 s has its kernel" "$kernel" gen "$(ioa_only_log "$TEST_TMP/logs-long")" \
	-o "$TEST_TMP/k-long"
"$kernel" validate "$TEST_TMP/k-long" "$(ioa_only_log "$TEST_TMP/logs-long")" \
	--runtime "$runtime" >/dev/null 2>&1 &
validator=$!
# validate builds the kernel first: on a loaded machine that takes a while.
deadline=$((SECONDS + 180))
while [ "$SECONDS" -lt "$deadline" ] && kill -0 "$validator" 2>/dev/null; do
	pgrep -f "$TEST_TMP/k-long/kernel " >/dev/null && break
	sleep 0.05
done
ok "ground truth: validate runs the kernel's ranks" pgrep -f "$TEST_TMP/k-long/kernel "
kill -TERM "$validator"
wait "$validator"
is "$?" 143 "validate, sent SIGTERM, ends by it"
is "$(pgrep -f "$TEST_TMP/k-long/kernel " | wc -l)" 0 "and the kernel's ranks have ended with it"
done_testing
