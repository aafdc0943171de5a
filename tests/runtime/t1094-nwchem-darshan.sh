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
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
require_mpi
require_cmd nwchem.mpich
tools=${IOATLAS_DARSHAN_TOOLS:-$IOA_SOURCE_DIR/../shared/tools}/darshan-3.5.0-debian12-mpich.tar.gz
[ -r "$tools" ] || skip_all "no Darshan build to check against ($tools)"

plan 9

export IOATLAS_CONF=/dev/null
ioa_sanitized_programs # NWChem leaks by design: no leak check on it
mkdir -p "$TEST_TMP/darshan" "$TEST_TMP/dlogs"
ok "Darshan 3.5.0's tools unpack" tar -xzf "$tools" -C "$TEST_TMP/darshan"
D="$TEST_TMP/darshan/darshan-3.5.0"

# One run folder per tool, the same layout: the input, scratch and permanent folders.  Their
# names are as long as each other: NWChem writes its paths into its database.
for side in ours-ioatlas theirs-darsh; do
	dir="$TEST_TMP/$side"
	mkdir -p "$dir/work" "$dir/scratch" "$dir/perm" "$dir/home"
	sed -e "s|@SCRATCH@|$dir/scratch|" -e "s|@PERMANENT@|$dir/perm|" \
		"$IOA_SOURCE_DIR/tests/workloads/nwchem-h2o.nw" >"$dir/work/h2o.nw"
done
# ARMCI-MPI's shared-memory windows give NWChem wrong sums on Debian 12's MPICH: plain windows.
logs=$(ioa_logdir)
ok "NWChem runs under ioatlas on 2 ranks" sh -c "cd '$TEST_TMP/ours-ioatlas/work' && HOME='$TEST_TMP/ours-ioatlas/home' \
	IOATLAS_LOGDIR='$logs' timeout 180 '$IOA_MPIEXEC' -n 2 \
	-genv LD_PRELOAD '$(ioa_preload_list "$IOA_RUNTIME_SO")' -genv IOATLAS_LOGDIR '$logs' \
	-genv ARMCI_USE_WIN_ALLOCATE 0 nwchem.mpich h2o.nw >../out 2>&1"
ok "NWChem runs under Darshan on 2 ranks" sh -c "cd '$TEST_TMP/theirs-darsh/work' && \
	HOME='$TEST_TMP/theirs-darsh/home' timeout 180 '$IOA_MPIEXEC' -n 2 -genv LD_LIBRARY_PATH '$D/lib' \
	-genv LD_PRELOAD '$D/lib/libdarshan.so' -genv DARSHAN_LOGPATH '$TEST_TMP/dlogs' \
	-genv ARMCI_USE_WIN_ALLOCATE 0 nwchem.mpich h2o.nw >../out 2>&1"

log=$(ioa_only_log "$logs") || log=/nonexistent
dlog=$(find "$TEST_TMP/dlogs" -name '*.darshan' | head -n 1)
ioa_darshan_compare "$log" "$TEST_TMP/ours-ioatlas" "${dlog:-/nonexistent}" "$TEST_TMP/theirs-darsh" "$D"
like "$(awk -F '\t' '$1 == "listed" && $6 ~ /SEEKS|OPENS|META_TIME/' "$TEST_TMP/diff")" '^$' \
	"seeks, opens and metadata times agree, none excused"
# The case in point: the database's ftell calls, in the trace, are not among its seeks.
tells=$("$IOA_CMD" trace --expand "$log" | awk '!/^#/ && $4 == "ftell" && $NF ~ /perm\/h2o.db$/' | wc -l)
ok "NWChem called ftell on its database ($tells times), and the seeks still agree" test "$tells" -gt 0
done_testing
