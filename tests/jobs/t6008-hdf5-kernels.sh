# t6008-hdf5-kernels — kernels at HDF5's level from real programs nobody
# here wrote:
#   - HDF5's parallel example (ph5example.c of libhdf5-doc, h5pcc.mpich
#     -shlib) on 4 MPICH ranks: files on two split communicators and on the
#     world, 2-D datasets written and read independently and collectively;
#   - h5py's MPI-IO driver on 2 Open MPI ranks (tests/workloads/h5py-mpio.py).
# Ground truth: ltrace of the program and of its kernel, neither under the
# runtime.  Asserted: the kernel calls HDF5 (the level `gen` picks for a job
# that did); per rank it makes the program's HDF5 calls in the program's
# order (creates and opens with their flags, dataset creates, opens, reads,
# writes, closes), each read and write with the program's file selection
# (start and count per dimension) and transfer mode; validated under the
# runtime it gives the job's counters of every layer, HDF5's included, and
# validate fails against a run that read nothing back (so the HDF5 records
# are compared).  h5py's kernel, replayed on MPICH, gives its HDF5 and MPI-IO
# counters (the POSIX calls under them are Open MPI's own, and Python's
# start-up files are outside HDF5).  --level mpiio makes a kernel without
# HDF5, which opens each file on the communicator the job's HDF5 opened it
# on (copies of split ones), and --level hdf5 refuses a log whose trace
# holds no HDF5 call.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
require_mpi
require_cmd h5pcc.mpich
require_cmd mpicc.mpich
require_cmd mpiexec.openmpi
require_cmd ltrace
require_cmd pkg-config
h5ex=/usr/share/doc/libhdf5-doc/examples/ph5example.c.gz
[ -r "$h5ex" ] || skip_all "no $h5ex (libhdf5-doc)"
pkg-config --exists hdf5-mpich || skip_all "no hdf5-mpich.pc (libhdf5-mpich-dev)"
python=/usr/bin/python3
H5PY_ALWAYS_USE_MPI=1 "$python" -c 'import sys, h5py; sys.exit(not h5py.get_config().mpi)' \
	2>/dev/null || skip_all "no h5py with MPI for $python (python3-h5py-mpi)"

plan 26

kernel="$IOA_BUILD_DIR/libexec/ioatlas/ioatlas-kernel"
runtime=$(ioa_preload_list "$IOA_RUNTIME_SO")
work="$TEST_TMP/work"
mkdir -p "$work/job" "$work/lt-job" "$work/lt-kernel" "$work/noread"
cd "$work" || exit 1
export IOATLAS_CONF=/dev/null
# The program and the kernels (make takes CFLAGS) with this build's sanitizers.
ioa_sanitized_programs
[ -z "$san" ] || export CFLAGS="-O2 $san"

gzip -dc "$h5ex" >ph5example.c
ok "ph5example builds with h5pcc.mpich -shlib" h5pcc.mpich $san -shlib -o ph5 ph5example.c
logs=$(ioa_logdir)
ok "ph5example runs on 4 MPICH ranks under ioatlas" sh -c "cd '$work/job' && IOATLAS_LOGDIR='$logs' \
	timeout 120 mpiexec.mpich -n 4 -genv LD_PRELOAD '$runtime' -genv IOATLAS_LOGDIR '$logs' \
	'$work/ph5' -c -f '$work/job/' >'$work/job.out' 2>&1"
like "$(cat job.out)" "PHDF5 tests finished with no errors" "it checks what it wrote and read back"
log=$(ioa_only_log "$logs")

ok "a kernel is generated from its log" "$kernel" gen "$log" -o k
like "$(cat k/kernel.c)" '^#include <hdf5.h>$' "the kernel calls HDF5: the job did"
ok "it builds with its Makefile (pkg-config's hdf5-mpich)" make -s -C k MPICC=mpicc.mpich

# --- ground truth: the program's HDF5 calls and the kernel's, per rank, by ltrace.
calls='H5Fcreate+H5Fopen+H5Fclose+H5Dcreate2+H5Dopen2+H5Dread+H5Dwrite+H5Dclose+H5Pset_dxpl_mpio'
calls="$calls+H5Sselect_hyperslab"
ltrace_run() { # DIR PROGRAM ARGS...: 4 MPICH ranks under ltrace, one output per rank in DIR
	local dir=$1
	shift
	(cd "$dir" && timeout 300 mpiexec.mpich -n 4 sh -c "exec ltrace -s 4096 -F '$IOA_SOURCE_DIR/tests/lib/hdf5.ltrace.conf' \
		-e '$calls' -o \"$dir/lt.\$PMI_RANK\" \"\$@\"" sh "$@" >"$dir/out" 2>&1)
}
ok "ph5example runs under ltrace (no runtime)" ltrace_run "$work/lt-job" "$work/ph5" -c -f "$work/lt-job/"
ok "its kernel runs under ltrace (no runtime)" ltrace_run "$work/lt-kernel" "$work/k/kernel" \
	--data-dir "$work/lt-kernel" --mode fast
# Per rank: the file and dataset calls (creates and opens with their flags),
# each read and write with the hyperslab last selected on the file space it
# passed (start and count; "all" for H5S_ALL) and whether the transfer list
# it passed was set collective.
calls_of() {
	"$python" - "$1" <<'EOF'
import re, sys
call = re.compile(r'^(?:\S+->)?(H5\w+)\((.*)\)\s+= (-?\w+)')
sels, colls = {}, set()
for line in open(sys.argv[1]):
    m = call.match(line)
    if not m:
        continue
    name, args = m.group(1), m.group(2)
    first = args.split(',')[0].strip()
    if name == 'H5Sselect_hyperslab':
        arrays = re.findall(r'\[([^]]*)\]', args)
        sels[first] = 'start %s count %s' % (arrays[0].strip(), arrays[2].strip())
    elif name == 'H5Pset_dxpl_mpio':
        (colls.add if args.split(',')[-1].strip() == '1' else colls.discard)(first)
    elif name in ('H5Dread', 'H5Dwrite'):
        fspace, dxpl = (a.strip() for a in args.split(',')[3:5])
        print(name, 'all' if fspace == '0' else sels.get(fspace, 'unselected'),
              'collective' if dxpl in colls else 'independent')
    elif name in ('H5Fcreate', 'H5Fopen'):
        print(name, 'flags', args.split(',')[1].strip())
    else:
        print(name)
EOF
}
same=0
for r in 0 1 2 3; do
	calls_of "lt-job/lt.$r" >"job-calls.$r"
	calls_of "lt-kernel/lt.$r" >"kernel-calls.$r"
	cmp -s "job-calls.$r" "kernel-calls.$r" && same=$((same + 1))
done
is "$same" 4 "on each rank the kernel makes the program's HDF5 calls in order, with its selections" ||
	diag "$(diff job-calls.0 kernel-calls.0 | head -20)"
ok "ground truth: each rank wrote and read, some of it collectively (the check above compares calls)" \
	sh -c "for r in 0 1 2 3; do grep -q '^H5Dwrite.*independent' job-calls.\$r &&
		grep -q '^H5Dwrite.*collective' job-calls.\$r && grep -q '^H5Dread' job-calls.\$r || exit 1; done"
unlike "$(cat lt-kernel/out)" "HDF5-DIAG|error" "HDF5 reported no error to the kernel" ||
	diag "$(head -20 lt-kernel/out)"

ok "validated under the runtime: the job's counters, every layer" \
	run_timeout 300 "$kernel" validate k "$log" --runtime "$runtime"
like "$(cat "$TEST_TMP/last.out")" "counters compared: identical" "identical, it says"
# A run that writes and reads nothing back: the kernel's reads are told apart.
logs2=$(ioa_logdir)
ok "ph5example runs again without its reads (-r)" sh -c "cd '$work/noread' && \
	timeout 120 mpiexec.mpich -n 4 -genv LD_PRELOAD '$runtime' -genv IOATLAS_LOGDIR '$logs2' \
	'$work/ph5' -c -r -f '$work/noread/' >/dev/null 2>&1"
fails "validate against that run fails" \
	run_timeout 300 "$kernel" validate k "$(ioa_only_log "$logs2")" --runtime "$runtime"
like "$(cat "$TEST_TMP/last.out")" "H5D rank -?[0-9]+ H5D_READS: job 0, kernel [1-9]" \
	"and names the datasets' reads"

# --- h5py on Open MPI: its kernel, replayed on MPICH.
logs=$(ioa_logdir)
ok "h5py runs on 2 Open MPI ranks under ioatlas" ioa_ompi_preload "$logs" 2 120 \
	"$python" "$IOA_SOURCE_DIR/tests/workloads/h5py-mpio.py" "$work/py.h5" 65536 read
pylog=$(ioa_only_log "$logs")
ok "its kernel is generated" "$kernel" gen "$pylog" -o kpy
like "$(cat kpy/kernel.c)" '^#include <hdf5.h>$' "h5py's kernel calls HDF5"
run_timeout 300 "$kernel" validate kpy "$pylog" --runtime "$runtime" >pyval.out 2>&1
like "$(cat pyval.out)" "counters compared" "it is validated on MPICH" || diag "$(tail -20 pyval.out)"
unlike "$(cat pyval.out)" "(H5F|H5D|MPI-IO) rank" "with h5py's HDF5 and MPI-IO counters"

ok "--level mpiio makes a kernel without HDF5" "$kernel" gen "$log" -o kmpi --level mpiio
unlike "$(cat kmpi/kernel.c kmpi/Makefile)" "hdf5|k_h5_" "nothing of HDF5 in it"
# HDF5 opens each file with MPI_File_open on a copy of the communicator the
# program named (a split one for ParaEg0.h5's first tests): no traced call
# made it, the trace knows it by its members.
run_timeout 300 "$kernel" validate kmpi "$log" --runtime "$runtime" >mpival.out 2>&1
like "$(cat mpival.out)" "counters compared" \
	"it runs on 4 ranks, the files HDF5 opened on split communicators opened on them" ||
	diag "$(tail -20 mpival.out)"
unlike "$(cat mpival.out)" "MPI-IO rank -?[0-9]+ MPIIO_(COLL|INDEP)_OPENS" \
	"each file opened by the job's ranks, collectively or not, as often as in the job"
logs=$(ioa_logdir)
ioa_preload "$logs" sh -c "echo x >'$work/plain.txt'" 2>/dev/null
fails "--level hdf5 refuses a log whose trace holds no HDF5 call" \
	"$kernel" gen "$(ioa_only_log "$logs")" -o kno --level hdf5
