# t6009-adios-kernel — the I/O kernel of a real ADIOS 1 writer nobody here
# wrote: adios_globaltime (libadios-examples, on libadios-mpich) on 4 MPICH
# ranks.  ADIOS 1's MPI method orders its writes with Gather, Gatherv,
# Scatter, Bcast and Isend/Recv pairs between its time steps, and writes at
# the individual file pointer after MPI_File_seek, sizing the file with
# MPI_File_get_size; its kernel made only 13 of its writes' offsets right
# and left 20 collectives out.  Now every call but MPI_Init is replayed and
# the kernel gives the job's counters, layer by layer, exactly.  Run again in
# the same folder, the writer first removes its last output: the kernel of
# that run makes the file before it starts, so that its unlink works as the
# job's did (it failed before: POSIX_UNLINKS 0 against 1).
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
require_mpi
require_cmd pkg-config
adex=/usr/share/doc/libadios-examples/examples/C/global-array-time
[ -r "$adex/adios_globaltime.c" ] || skip_all "no $adex (libadios-examples)"
pkg-config --exists adios-mpich || skip_all "no adios-mpich.pc (libadios-mpich-dev)"

plan 19

kernel="$IOA_BUILD_DIR/libexec/ioatlas/ioatlas-kernel"
export IOATLAS_CONF=/dev/null
runtime=$(ioa_preload_list "$IOA_RUNTIME_SO")
work="$TEST_TMP/work"
mkdir -p "$work/job"
cd "$work" || exit 1
ioa_sanitized_programs
cp "$adex/adios_globaltime.c" "$adex/gwrite_restart.ch" "$adex/adios_globaltime.xml" job/
# ADIOS's pkg-config file names its MPICH library's folder after the generic one: put it first.
adlib=$(pkg-config --variable=libdir adios-mpich)/adios/mpich
ok "adios_globaltime builds on libadios-mpich" \
	sh -c "mpicc.mpich $san -o adios_globaltime job/adios_globaltime.c \
		\$(pkg-config --cflags adios-mpich) -L'$adlib' \$(pkg-config --libs adios-mpich)"
logs=$(ioa_logdir)
# It reads its XML and writes its .bp file in the folder it runs in.
run_job() { (cd job && ioa_mpi_preload "$logs" 4 120 "$work/adios_globaltime") >job.out 2>&1; }
ok "it runs under the runtime on 4 ranks" run_job
log=$(ioa_only_log "$logs") || log=/nonexistent
ok "it says it wrote its 13 time steps" grep -q "Timestep 13 written" job.out

# Ground truth for what the kernel must replay: the job's own calls, from its trace.
calls=$("$IOA_CMD" trace --expand "$log" | awk '!/^#/ { print $3, $4 }' | sort | uniq -c)
for c in "MPI Gather" "MPI Gatherv" "MPI Scatter" "MPI-IO File_seek" "MPI-IO File_get_size"; do
	like "$calls" " $c\$" "the job's trace has $c"
done

ok "a kernel is generated" "$kernel" gen "$log" -o "$work/k"
is "$(grep -c 'not replayed' "$work/k/kernel.c")" 0 \
	"no call left out of it (MPI_Init the kernel makes itself)"
ok "built, run on 4 ranks and validated: the job's counters" \
	run_timeout 300 "$kernel" validate "$work/k" "$log" --runtime "$runtime"
like "$(cat "$TEST_TMP/last.out")" "counters compared: identical" "identical, per file and layer"

# ADIOS makes a communicator a time step (MPI_Comm_dup) and frees it.  The
# trace keeps no free, but gives a communicator the slot of one freed
# before it: the kernel frees what a slot held before it makes the next
# there.  It held every one, and MPICH, past a few tens, found each new
# communicator's context the slow way: 3 ms twice a run, its ranks waiting
# on each other.  Ground truth: the handles MPI_Comm_dup handed out, counted
# in front of each program (tests/workloads/count-shim.c; MPICH hands a
# freed communicator's handle out again).
shim=$(ioa_preload_list "$IOA_BUILD_DIR/tests/workloads/libcount-shim.so")
mkdir -p "$work/kdata"
(cd job && run_timeout 120 mpiexec.mpich -n 4 -genv LD_PRELOAD "$shim" "$work/adios_globaltime") \
	>/dev/null 2>shim-job.err
run_timeout 120 mpiexec.mpich -n 4 "$work/k/kernel" --prepare --data-dir "$work/kdata" >/dev/null 2>&1
run_timeout 120 mpiexec.mpich -n 4 -genv LD_PRELOAD "$shim" "$work/k/kernel" --data-dir "$work/kdata" \
	>/dev/null 2>shim-kernel.err
ok "ground truth: the job duplicates communicators, one at a time ($(shim_count shim-job.err dups) duplicates, $(shim_count shim-job.err handles) handles over 4 ranks)" \
	test "$(shim_count shim-job.err dups)" -gt "$(shim_count shim-job.err handles)" -a "$(shim_count shim-job.err handles)" -gt 0
is "$(shim_count shim-kernel.err dups) $(shim_count shim-kernel.err handles)" "$(shim_count shim-job.err dups) $(shim_count shim-job.err handles)" \
	"its kernel makes as many, as many at a time: those the job freed, freed"

# Again in the same folder: the writer first removes its last output (an unlink that
# works), which the kernel's --prepare must make for its unlink to work as well.
logs=$(ioa_logdir)
ok "it runs again in the same folder, its last output there" run_job
log=$(ioa_only_log "$logs") || log=/nonexistent
like "$("$IOA_CMD" trace "$log")" "POSIX unlink .*adios_globaltime\.bp .*\[remove\]" \
	"that run removed the last output first"
ok "its kernel is generated" "$kernel" gen "$log" -o "$work/k2"
ok "built, run and validated: the output there before it, removed as the job removed it" \
	run_timeout 300 "$kernel" validate "$work/k2" "$log" --runtime "$runtime"
like "$(cat "$TEST_TMP/last.out")" "counters compared: identical" "identical, the unlink's count too"
done_testing
