# t1049-application-io-kept — what the MPI library's own I/O is kept out of
# (t1048) does not hide the application's: on MPICH and on Open MPI, 2
# ranks, a program's own /dev/shm scratch file and its files in a work
# folder are recorded with the bytes it says it wrote; an MPI_File_open with
# MPI_MODE_CREATE of a new file leaves no failed call of the application
# (ROMIO's failed probes of the file, which strace shows, are listed as the
# MPI library's, exactly as many); and a program's own fopen of a missing
# file is reported as failed, on each rank that says it failed, in the log
# and in the report.  The site file and IOATLAS_EXCLUDE_PATHS change the
# exclusions (name patterns, $TMPDIR), and ioatlas parse states them.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
require_mpi
require_cmd strace
require_cmd mpicc.mpich
require_cmd mpiexec.mpich
require_cmd mpicc.openmpi
require_cmd mpiexec.openmpi
[ -d /dev/shm ] && [ -w /dev/shm ] || skip_all "no writable /dev/shm"

plan 32

src="$IOA_SOURCE_DIR/tests/workloads/mpi-noise.c"
ok "mpi-noise builds with mpicc.mpich" mpicc.mpich -o "$TEST_TMP/noise-mpich" "$src"
ok "and with mpicc.openmpi" mpicc.openmpi -o "$TEST_TMP/noise-openmpi" "$src"
shm="/dev/shm/ioatlas-t1049-$$"
at_exit "rm -f '$shm'*"

# job FAMILY LOGS [strace PREFIX] ARGS...: mpi-noise on 2 ranks under the runtime.
job() {
	local family=$1 logs=$2 preload
	shift 2
	preload=$(ioa_preload_list "$IOA_RUNTIME_SO")
	if [ "$1" = strace ]; then
		set -- strace -ff -o "$2" "$TEST_TMP/noise-$family" "${@:3}"
	else
		set -- "$TEST_TMP/noise-$family" "$@"
	fi
	if [ "$family" = mpich ]; then
		# LeakSanitizer cannot run under ptrace (strace; sanitizer builds).
		run_timeout 120 mpiexec.mpich -n 2 -genv LD_PRELOAD "$preload" \
			${IOA_SANITIZE:+-genv ASAN_OPTIONS "${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"} \
			-genv IOATLAS_LOGDIR "$logs" ${IOATLAS_CONF:+-genv IOATLAS_CONF "$IOATLAS_CONF"} \
			${IOATLAS_EXCLUDE_PATHS:+-genv IOATLAS_EXCLUDE_PATHS "$IOATLAS_EXCLUDE_PATHS"} \
			${TMPDIR:+-genv TMPDIR "$TMPDIR"} "$@"
	else
		ompi_run 2 120 -x LD_PRELOAD="$preload" -x IOATLAS_LOGDIR="$logs" "$@"
	fi
}

# written LOG PREFIX: "rank path bytes" of the POSIX records under PREFIX.
written() {
	"$IOA_CMD" parse "$1" | awk -F '\t' -v p="$2" \
		'$1 == "POSIX" && $4 == "POSIX_BYTES_WRITTEN" && index($6, p) == 1 { print $2, $6, $5 }' |
		LC_ALL=C sort
}

# said OUT: "rank path 4096" for each file the program says it wrote.
said() {
	awk '$3 == "wrote" && $5 == 0 { sub(":", "", $2); print $2, $4, 4096 }' "$1" | LC_ALL=C sort
}

for family in mpich openmpi; do
	work="$TEST_TMP/work-$family"
	mkdir -p "$work"

	# The application's own scratch files: recorded, in /dev/shm too.
	logs=$(ioa_logdir)
	job "$family" "$logs" scratch "$shm-$family" "$work" >"$work/scratch.out" 2>"$work/scratch.err"
	is "$?" 0 "$family: the scratch job runs" || diag "$(cat "$work/scratch.err")"
	log=$(ioa_only_log "$logs")
	is "$(written "$log" "$shm-$family")" "$(said "$work/scratch.out" | grep " $shm")" \
		"$family: its /dev/shm scratch files are recorded with the bytes it wrote"
	is "$(written "$log" "$work/")" "$(said "$work/scratch.out" | grep " $work/")" \
		"$family: and so are its files in the work folder"
	is "$("$IOA_CMD" parse "$log" | grep -c '^FAILED')" 0 "$family: with no failed call"

	# MPI_File_open(MPI_MODE_CREATE) of a new file: ROMIO's probes are the library's.
	logs=$(ioa_logdir)
	new="$work/new.dat"
	job "$family" "$logs" strace "$work/st" create "$new" >"$work/create.out" 2>"$work/create.err"
	is "$?:$(grep -c "created $new 0" "$work/create.out")" 0:2 \
		"$family: the MPI-IO job creates its file on both ranks" || diag "$(cat "$work/create.err")"
	is "$(stat -c %s "$new")" 8192 "$family: and writes what it says"
	log=$(ioa_only_log "$logs")
	is "$("$IOA_CMD" parse "$log" | grep -c '^FAILED')" 0 \
		"$family: the log holds no failed call of the application"
	is "$("$IOA_CMD" parse "$log" | awk -F '\t' '$4 ~ /_FAILED_CALLS$/ { s += $5 } END { print s + 0 }')" 0 \
		"$family: and no record counts one"
	# The stat family is intercepted (statfs, which ROMIO also calls, is not).
	probes=$(cat "$work/st".* | grep -E "^(stat|lstat|newfstatat|statx)\([^\"]*\"$new\".*= -1 E" | wc -l)
	listed=$("$IOA_CMD" parse "$log" | awk -F '\t' -v f="$new" \
		'$1 == "#MPILIB" && $8 == f && $5 ~ /stat/ { s += $7 } END { print s + 0 }')
	is "$listed" "$probes" "$family: the failed probes of the file strace shows ($probes) are the MPI library's"

	# The application's own failure: reported, on every rank that says so.
	logs=$(ioa_logdir)
	job "$family" "$logs" missing "$work/missing" >"$work/missing.out" 2>"$work/missing.err"
	is "$?" 0 "$family: the job that opens a missing file runs" || diag "$(cat "$work/missing.err")"
	log=$(ioa_only_log "$logs")
	is "$("$IOA_CMD" parse "$log" | awk -F '\t' -v f="$work/missing" \
		'$1 == "FAILED" && $5 ~ /^fopen/ && $8 == f { print $3, $6, $7 }' | LC_ALL=C sort)" \
		"$(awk '$3 == "fopen" { sub(":", "", $2); print $2, $5, 1 }' "$work/missing.out" | LC_ALL=C sort)" \
		"$family: its failed fopen is reported for each rank, with the errno the program saw"
	like "$("$IOA_CMD" report "$log" --json -o - | python3 -c '
import json, sys
for f in json.load(sys.stdin)["findings"]:
    if f["code"] == "failed_calls":
        print(f["text"])')" '^fopen failed 2 times with ENOENT' \
		"$family: and the report finds it"
done

# The site file replaces the exclusions: a pattern inside /dev/shm.
work="$TEST_TMP/work-site"
mkdir -p "$work"
printf 'exclude_paths = /proc:/sys:/dev:%s-*\n' "$shm" >"$TEST_TMP/site.conf"
logs=$(ioa_logdir)
IOATLAS_CONF="$TEST_TMP/site.conf" job mpich "$logs" scratch "$shm-site" "$work" >"$work/out" 2>&1
log=$(ioa_only_log "$logs")
is "$(written "$log" "$shm-site")" "" "a site file's pattern keeps the matching /dev/shm files out"
is "$(written "$log" "$work/")" "$(said "$work/out" | grep " $work/")" "and the other files in"
like "$("$IOA_CMD" parse "$log" | grep '^# exclusions: ')" \
	"^# exclusions: paths not recorded: /proc:/sys:/dev:$shm-\\* \\(recorded even so: /dev/shm:" \
	"ioatlas parse states the site's exclusions"

# IOATLAS_EXCLUDE_PATHS overrides the file; $TMPDIR is the job's temporary folder.
work="$TEST_TMP/work-env"
mkdir -p "$work/mine.d"
logs=$(ioa_logdir)
TMPDIR="$work" IOATLAS_EXCLUDE_PATHS='/proc:/sys:$TMPDIR/mine.*' \
	job mpich "$logs" scratch "$shm-env" "$work/mine.d" >"$work/out" 2>&1
log=$(ioa_only_log "$logs")
is "$(written "$log" "$work/") $(written "$log" "$shm-env" | wc -l)" " 2" \
	"\$TMPDIR/mine.* keeps out the files under \$TMPDIR/mine.d, not the /dev/shm ones"
like "$("$IOA_CMD" parse "$log" | grep '^# exclusions: ')" \
	"^# exclusions: paths not recorded: /proc:/sys:$work/mine\\.\\* " \
	"ioatlas parse states the exclusion with \$TMPDIR replaced"

# A pattern's name may start with a wildcard.
work="$TEST_TMP/work-wild"
mkdir -p "$work/mine.d"
logs=$(ioa_logdir)
IOATLAS_EXCLUDE_PATHS="/proc:/sys:$work/?ine.*" \
	job mpich "$logs" scratch "$shm-wild" "$work/mine.d" >"$work/out" 2>&1
log=$(ioa_only_log "$logs")
is "$(written "$log" "$work/") $(written "$log" "$shm-wild" | wc -l)" " 2" \
	"a pattern whose name starts with a wildcard (?ine.*) keeps out the files under mine.d"
