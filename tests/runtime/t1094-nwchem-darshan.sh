# t1094-nwchem-darshan — NWChem (nwchem-mpich: an SCF and DFT of water on 2
# MPICH ranks, tests/workloads/nwchem-h2o.nw), a real program nobody here
# wrote, run under libioatlas and under Darshan 3.5 (the team's build in
# shared/tools): every Darshan-named counter of every record, per rank and
# shared, agrees with darshan-parser's, or differs as
# common/darshan-differences.h lists (darshan-compare, as t1050).  Its
# runtime database is a C stdio file kept with fseek, ftell, fread and
# fwrite; its output goes through fortified printf and fflush.  Before,
# ioatlas counted the database's 800 ftell calls as seeks (Darshan counts
# fseek, fseeko, fsetpos and rewind), put the time of 450 flushes of
# stdout into metadata time (Darshan: write time), and counted stdout and
# stderr as never opened (Darshan: opened once, before the program ran).
# NWChem's probe of its scratch disk repeats when another process frees
# space meanwhile; strace tells, and only runs that did the same are compared.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
require_mpi
require_cmd nwchem.mpich
tools=${IOATLAS_DARSHAN_TOOLS:-$IOA_SOURCE_DIR/../shared/tools}/darshan-3.5.0-debian12-mpich.tar.gz
[ -r "$tools" ] || skip_all "no Darshan build to check against ($tools)"

plan 9

export IOATLAS_CONF=/dev/null
ioa_sanitized_programs # NWChem leaks by design: no leak check on it
mkdir -p "$TEST_TMP/darshan"
ok "Darshan 3.5.0's tools unpack" tar -xzf "$tools" -C "$TEST_TMP/darshan"
D="$TEST_TMP/darshan/darshan-3.5.0"

# nwchem_pair TRY: one run under each tool, in $TEST_TMP/TRY/ours-ioatlas and
# $TEST_TMP/TRY/theirs-darsh, the same layout (the input, scratch and
# permanent folders), their names as long as each other: NWChem writes its
# paths into its database.  Each run under strace, its opens in its folder's
# file "opens"; the runs' results in the files "status".
# ARMCI-MPI's shared-memory windows give NWChem wrong sums on Debian 12's MPICH: plain windows.
nwchem_pair() {
	local side dir
	for side in ours-ioatlas theirs-darsh; do
		dir="$TEST_TMP/$1/$side"
		mkdir -p "$dir/work" "$dir/scratch" "$dir/perm" "$dir/home"
		sed -e "s|@SCRATCH@|$dir/scratch|" -e "s|@PERMANENT@|$dir/perm|" \
			"$IOA_SOURCE_DIR/tests/workloads/nwchem-h2o.nw" >"$dir/work/h2o.nw"
	done
	dir="$TEST_TMP/$1/ours-ioatlas"
	mkdir -p "$dir/logs"
	(cd "$dir/work" && HOME="$dir/home" IOATLAS_LOGDIR="$dir/logs" run_timeout 180 \
		strace -f --seccomp-bpf -qq -e trace=openat -e status=successful -o "$dir/opens" \
		"$IOA_MPIEXEC" -n 2 -genv LD_PRELOAD "$(ioa_preload_list "$IOA_RUNTIME_SO")" \
		-genv IOATLAS_LOGDIR "$dir/logs" -genv ARMCI_USE_WIN_ALLOCATE 0 nwchem.mpich h2o.nw \
		>../out 2>&1)
	echo $? >"$dir/status"
	dir="$TEST_TMP/$1/theirs-darsh"
	mkdir -p "$dir/dlogs"
	(cd "$dir/work" && HOME="$dir/home" run_timeout 180 \
		strace -f --seccomp-bpf -qq -e trace=openat -e status=successful -o "$dir/opens" \
		"$IOA_MPIEXEC" -n 2 -genv LD_LIBRARY_PATH "$D/lib" -genv LD_PRELOAD "$D/lib/libdarshan.so" \
		-genv DARSHAN_LOGPATH "$dir/dlogs" -genv ARMCI_USE_WIN_ALLOCATE 0 nwchem.mpich h2o.nw \
		>../out 2>&1)
	echo $? >"$dir/status"
}

# NWChem sizes its integral file by writing 16 MB per rank to h2o.junk.RANK and
# asking the file system how much its free space fell; when another process
# freed space meanwhile, it tries again (util_scratch_dir_avail_for_me).  The
# two runs are compared only when they did the same: the pair runs again
# (three tries at most) while strace saw one probe the scratch disk more
# often than the other.
try=0
while :; do
	try=$((try + 1))
	nwchem_pair "try$try"
	ours_junk=$(grep -c '"[^"]*/scratch/h2o\.junk\.[0-9]*"' "$TEST_TMP/try$try/ours-ioatlas/opens")
	theirs_junk=$(grep -c '"[^"]*/scratch/h2o\.junk\.[0-9]*"' "$TEST_TMP/try$try/theirs-darsh/opens")
	[ "$ours_junk" != "$theirs_junk" ] && [ "$try" -lt 3 ] || break
	diag "NWChem probed its scratch disk with $ours_junk opens under ioatlas, $theirs_junk under Darshan: both again"
done
run=$TEST_TMP/try$try
is "$(cat "$run/ours-ioatlas/status")" 0 "NWChem runs under ioatlas on 2 ranks"
is "$(cat "$run/theirs-darsh/status")" 0 "NWChem runs under Darshan on 2 ranks"

log=$(ioa_only_log "$run/ours-ioatlas/logs") || log=/nonexistent
dlog=$(find "$run/theirs-darsh/dlogs" -name '*.darshan' | head -n 1)
ioa_darshan_compare "$log" "$run/ours-ioatlas" "${dlog:-/nonexistent}" "$run/theirs-darsh" "$D"
like "$(awk -F '\t' '$1 == "listed" && $6 ~ /SEEKS|OPENS|META_TIME/' "$TEST_TMP/diff")" '^$' \
	"seeks, opens and metadata times agree, none excused"
# The case in point: the database's ftell calls, in the trace, are not among its seeks.
tells=$("$IOA_CMD" trace --expand "$log" | awk '!/^#/ && $4 == "ftell" && $NF ~ /perm\/h2o.db$/' | wc -l)
ok "NWChem called ftell on its database ($tells times), and the seeks still agree" test "$tells" -gt 0
done_testing
