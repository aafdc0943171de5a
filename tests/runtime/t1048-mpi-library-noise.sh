# t1048-mpi-library-noise — an MPI job that does no I/O of its own
# (mpi-noise none: MPI_Init, MPI_Barrier, MPI_Finalize) leaves a log with no
# files and no failed calls, on MPICH and on Open MPI, with 2 ranks and with
# 1: what the MPI library touches while it starts (MPICH's
# /dev/shm/mpich_shar_tmp segments, hwloc's probes of /sys and /run/udev,
# Open MPI's session folder and its settings files) is the library's.  It is
# not lost: the log's MPI library line counts the calls, and strace of the
# same run, the ground truth, shows the library did touch files.  The
# per-job report finds no failed calls either.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
require_mpi
require_cmd strace
require_cmd mpicc.mpich
require_cmd mpiexec.mpich
require_cmd mpicc.openmpi
require_cmd mpiexec.openmpi

plan 36

src="$IOA_SOURCE_DIR/tests/workloads/mpi-noise.c"
ok "mpi-noise builds with mpicc.mpich" mpicc.mpich -o "$TEST_TMP/noise-mpich" "$src"
ok "and with mpicc.openmpi" mpicc.openmpi -o "$TEST_TMP/noise-openmpi" "$src"

# job FAMILY RANKS LOGS PREFIX: the no-I/O job under the runtime, each rank
# under strace -ff (one PREFIX.<tid> file per thread).
job() {
	local family=$1 ranks=$2 logs=$3 prefix=$4
	local preload
	preload=$(ioa_preload_list "$IOA_RUNTIME_SO")
	if [ "$family" = mpich ]; then
		# LeakSanitizer cannot run under ptrace (sanitizer builds).
		run_timeout 120 mpiexec.mpich -n "$ranks" -genv LD_PRELOAD "$preload" \
			${IOA_SANITIZE:+-genv ASAN_OPTIONS "${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"} \
			-genv IOATLAS_LOGDIR "$logs" strace -ff -o "$prefix" "$TEST_TMP/noise-mpich" none
	else
		ompi_run "$ranks" 120 -x LD_PRELOAD="$preload" -x IOATLAS_LOGDIR="$logs" \
			strace -ff -o "$prefix" "$TEST_TMP/noise-openmpi" none
	fi
}

# truth PREFIX LOGS: from strace, "<files> <failed>": successful opens of
# files in /dev/shm, /sys, /proc and /tmp other than the log tree's (the MPI
# library's: the program opens none), and failed file calls on paths that
# are not shared objects (the loader's search) nor the runtime's settings.
truth() {
	local prefix=$1 logs=$2
	cat "$prefix".* | awk -v logs="$logs" '
		$0 !~ /^(open|openat|creat|mkdir|stat|lstat|newfstatat|access|faccessat2?)\(/ { next }
		{
			if (!match($0, /"\/[^"]*"/)) next
			path = substr($0, RSTART + 1, RLENGTH - 2)
			if (index(path, logs) == 1 || path ~ /\.so(\.[0-9]+)*$/ || path ~ /^\/etc\/ioatlas\//) next
			failed = $0 ~ /= -1 E/
			if (failed) bad++
			else if ($0 ~ /^(open|openat|creat)\(/ && path ~ /^\/(dev\/shm|sys|proc|tmp)\//) opened++
		}
		END { printf "%d %d\n", opened, bad }'
}

# check FAMILY RANKS: 8 checks.
check() {
	local family=$1 ranks=$2 logs prefix log out calls failed opened bad
	logs=$(ioa_logdir)
	prefix="$TEST_TMP/strace-$family-$ranks"
	job "$family" "$ranks" "$logs" "$prefix" >"$prefix.out" 2>"$prefix.err"
	is "$?" 0 "$family, $ranks rank(s): the job runs under the runtime and strace" ||
		diag "$(cat "$prefix.err")"
	log=$(ioa_only_log "$logs")
	ok "$family, $ranks rank(s): and leaves its log" test -n "$log"
	out=$("$IOA_CMD" parse "$log")
	is "$(printf '%s\n' "$out" | grep -v '^#' | grep -c .)" 0 \
		"$family, $ranks rank(s): no record: the program touched no file" ||
		diag "$(printf '%s\n' "$out" | grep -v '^#' | cut -f1,2,6 | sort -u | head -20)"
	is "$(printf '%s\n' "$out" | grep -c '^FAILED')" 0 "$family, $ranks rank(s): no failed call"
	is "$("$IOA_CMD" parse --file-list "$log" | grep -v '^#' | grep -c .)" 0 \
		"$family, $ranks rank(s): ioatlas parse --file-list lists no file"
	is "$("$IOA_CMD" report "$log" --json -o - | python3 -c '
import json, sys
print(sum(1 for f in json.load(sys.stdin)["findings"] if f["code"] == "failed_calls"))')" 0 \
		"$family, $ranks rank(s): the report finds no failed calls"
	# The library's calls, counted: the "# mpi library:" line.
	calls=$(printf '%s\n' "$out" | sed -n 's/^# mpi library: \([0-9]*\) calls .*(\([0-9]*\) failed).*/\1/p')
	failed=$(printf '%s\n' "$out" | sed -n 's/^# mpi library: \([0-9]*\) calls .*(\([0-9]*\) failed).*/\2/p')
	read -r opened bad <<<"$(truth "$prefix" "$logs")"
	ok "$family, $ranks rank(s): strace shows the MPI library opening files ($opened) and the log counts its calls (${calls:-none})" \
		test "$opened" -gt 0 -a "${calls:-0}" -gt 0
	if [ "$bad" -gt 0 ]; then
		ok "$family, $ranks rank(s): strace shows $bad failed file calls and the log counts the library's (${failed:-none})" \
			test "${failed:-0}" -gt 0
	else
		is "${failed:-0}" 0 "$family, $ranks rank(s): strace shows no failed file call, nor does the log"
	fi
}

check mpich 2
check mpich 1
check openmpi 2
check openmpi 1

# The exclusions in force are a header line, and cover Darshan 3.5's
# (darshan-runtime: /etc/ /dev/ /usr/ /bin/ /boot/ /lib/ /opt/ /sbin/ /sys/
# /proc/ /var/) and the MPI shared-memory segments.
logs=$(ioa_logdir)
run_timeout 120 mpiexec.mpich -n 1 -genv LD_PRELOAD "$(ioa_preload_list "$IOA_RUNTIME_SO")" \
	-genv IOATLAS_LOGDIR "$logs" "$TEST_TMP/noise-mpich" none
header=$("$IOA_CMD" parse "$(ioa_only_log "$logs")" | grep '^# exclusions: ')
list=${header#*: paths not recorded: }
list=${list%% (recorded even so*}
missing=
for dir in /etc /dev /usr /bin /boot /lib /opt /sbin /sys /proc /var /run /dev/shm/mpich_shar_tmp\* \
	/dev/shm/vader_segment.\* /tmp/ompi.\*; do
	case ":$list:" in
	*":$dir:"*) ;;
	*) missing="$missing $dir" ;;
	esac
done
is "$missing" "" "the exclusions header names Darshan's and the MPI segments' paths" ||
	diag "$header"
like "$header" '\(recorded even so: /dev/shm(:|\))' "and says /dev/shm is recorded even so"
