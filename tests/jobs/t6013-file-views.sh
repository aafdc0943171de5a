# t6013-file-views — file views of any filetype replayed by the kernels: the
# runtime flattens a filetype that is not a vector or a subarray into the
# byte runs of its type map (its lower bound and extent beside them), and
# the kernel sets the same view from those runs.  Ground truth is the job's
# own I/O: each kernel, run under the runtime, must give every counter of
# its job, POSIX's included (offsets, sizes, sequential and consecutive
# accesses, the MPI library's writes of each run), on the MPI the job ran:
#   - tests/jobs/kernel-shapes types (indexed, an hvector of vectors
#     resized, a struct; independent writes with data sieving off, and
#     collective) on 4 MPICH ranks, and built with mpicc.openmpi on 4
#     Open MPI ranks;
#   - PnetCDF's own examples (Debian's source of the libpnetcdf-dev the
#     tests install, built on Open MPI): column_wise (strided columns),
#     transpose (a mapped write of a transposed 3-D array), vard_int (a
#     variable written through MPI derived types) and put_varn_int (several
#     subarrays in one call), on 4 Open MPI ranks.
# A filetype the runtime does not flatten (a darray; a 4-D subarray of
# 2^30 rows, whose walk the runtime cuts short instead of stalling the
# job) is named by `gen` and by `validate`, which fails.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
require_mpi
require_cmd mpicc.openmpi
require_cmd mpiexec.openmpi
src=/var/cache/ioatlas/sources/pnetcdf_1.12.3.orig.tar.xz
[ -r "$src" ] || skip_all "no $src (packaging/install-deps fetches it)"
[ -r /usr/include/pnetcdf.h ] || skip_all "no pnetcdf.h (libpnetcdf-dev)"

plan 37

kernel="$IOA_BUILD_DIR/libexec/ioatlas/ioatlas-kernel"
export IOATLAS_CONF=/dev/null
runtime=$(ioa_preload_list "$IOA_RUNTIME_SO")
# Open MPI leaks by design at exit (see ompi_run): the kernels' ranks inherit this.
[ -z "${IOA_SANITIZE:-}" ] || export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"

# kernel_of NAME LOG [validate options]: generates NAME's kernel and validates it.
kernel_of() {
	local name=$1 log=$2
	shift 2
	ok "$name: a kernel is generated" "$kernel" gen "$log" -o "$TEST_TMP/k-$name"
	like "$(cat "$TEST_TMP/last.out")" ", 0 calls not replayed," "$name: every call replayed"
	ok "$name: its views from the filetypes' runs" \
		grep -qE 'k_view_run\(.*\); /\* File_view_run' "$TEST_TMP/k-$name/kernel.c"
	ok "$name: built, run and validated" \
		run_timeout 300 "$kernel" validate "$TEST_TMP/k-$name" "$log" --runtime "$runtime" "$@"
	like "$(cat "$TEST_TMP/last.out")" "counters compared: identical" "$name: the job's counters"
}

mkdir -p "$TEST_TMP/data"
logs=$(ioa_logdir)
ok "types: the job runs on MPICH" \
	ioa_mpi_preload "$logs" 4 120 "$IOA_BUILD_DIR/tests/jobs/kernel-shapes" types "$TEST_TMP/data"
kernel_of types "$(ioa_only_log "$logs")"

ok "types: built with mpicc.openmpi" \
	mpicc.openmpi -O1 -o "$TEST_TMP/shapes" "$IOA_SOURCE_DIR/tests/jobs/kernel-shapes.c"
logs=$(ioa_logdir)
ok "and run on Open MPI" ioa_ompi_preload "$logs" 4 120 "$TEST_TMP/shapes" types "$TEST_TMP/data"
kernel_of types-ompi "$(ioa_only_log "$logs")" --mpiexec mpiexec.openmpi

cd "$TEST_TMP" || exit 1
tar -xJf "$src" pnetcdf-1.12.3/examples/C
for p in column_wise transpose vard_int put_varn_int; do
	logs=$(ioa_logdir)
	if ! mpicc.openmpi -O2 -o "$p" "pnetcdf-1.12.3/examples/C/$p.c" -lpnetcdf ||
		! ioa_ompi_preload "$logs" 4 120 "./$p" -q "$TEST_TMP/data/$p.nc"; then
		ok "PnetCDF's $p builds and runs" false
		continue
	fi
	kernel_of "$p" "$(ioa_only_log "$logs")" --mpiexec mpiexec.openmpi
done

logs=$(ioa_logdir)
ok "darray: the job runs (the subarray's walk cut short: seconds, not minutes)" \
	ioa_mpi_preload "$logs" 4 30 "$IOA_BUILD_DIR/tests/jobs/kernel-shapes" darray "$TEST_TMP/data"
log=$(ioa_only_log "$logs") || log=/nonexistent
"$kernel" gen "$log" -o "$TEST_TMP/k-darray" >"$TEST_TMP/gen.out" 2>&1
like "$(cat "$TEST_TMP/gen.out")" ", 2 calls not replayed," \
	"darray: gen counts the two views it could not make"
run_timeout 300 "$kernel" validate "$TEST_TMP/k-darray" "$log" --runtime "$runtime" \
	>"$TEST_TMP/darray.out" 2>&1
is "$?" 1 "darray: validate fails ..."
like "$(cat "$TEST_TMP/darray.out")" "not replayed: MPI-IO File_set_view's filetype" \
	"... and names the filetype it left out"
