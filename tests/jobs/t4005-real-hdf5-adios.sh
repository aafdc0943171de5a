# t4005-real-hdf5-adios — two real programs nobody here wrote, from Debian:
# HDF5's parallel example (ph5example.c of libhdf5-doc, built with
# libhdf5-mpich's h5pcc) and ADIOS 1's global-array-time writer
# (adios_globaltime.c of libadios-examples, on libadios-mpich), each on 4
# MPICH ranks under the runtime and, for ground truth, under Darshan 3.5
# (the team's build in shared/tools).  Asserted against what the programs
# are (nm, ldd), what they print, and what Darshan counted:
#   - every Darshan-named counter of every record of both programs is
#     Darshan's, or differs as common/darshan-differences.h lists;
#   - the I/O library each program used is recorded (io_libraries), linked
#     statically (h5pcc's default; ADIOS 1 is only static) or shared
#     (h5pcc -shlib), and the insights' advice is for that library;
#   - ph5example: the file Darshan saw reached only through independent
#     MPI-IO calls is named by no_collective_io, the one with collective
#     calls is not; our MPI-IO and POSIX counters of both files are Darshan's;
#   - adios_globaltime: one checkpoint per time step it says it wrote (13);
#     not AMR (every rank writes the same array each step: the growth is
#     rank 0's index, the head writer); the .bp file, which Darshan saw
#     written only independently and several times over (each appended step
#     rewrites the index), named by no_collective_io and redundant_writes,
#     the latter with Darshan's bytes-to-size ratio.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
require_mpi
require_cmd h5pcc.mpich
require_cmd mpicc.mpich
require_cmd pkg-config
require_cmd nm
h5ex=/usr/share/doc/libhdf5-doc/examples/ph5example.c.gz
adex=/usr/share/doc/libadios-examples/examples/C/global-array-time
[ -r "$h5ex" ] || skip_all "no $h5ex (libhdf5-doc)"
[ -r "$adex/adios_globaltime.c" ] || skip_all "no $adex (libadios-examples)"
pkg-config --exists adios-mpich || skip_all "no adios-mpich.pc (libadios-mpich-dev)"
tools=${IOATLAS_DARSHAN_TOOLS:-$IOA_SOURCE_DIR/../shared/tools}/darshan-3.5.0-debian12-mpich.tar.gz
[ -r "$tools" ] || skip_all "no Darshan build to check against ($tools)"

plan 34

work="$TEST_TMP/work"
mkdir -p "$work/darshan" "$work/h5" "$work/h5shared" "$work/adios" "$work/d5" "$work/dadios"
cd "$work" || exit 1
export IOATLAS_CONF=/dev/null
ok "Darshan 3.5.0's tools unpack" tar -xzf "$tools" -C "$work/darshan"
D="$work/darshan/darshan-3.5.0"
dparser() { LD_LIBRARY_PATH="$D/lib" "$D/bin/darshan-parser" "$@"; }

# --- build both from Debian's sources, as their makefiles would.  A sanitized runtime
# needs the sanitizers' runtimes loaded first: preloaded into these programs
# uninstrumented, MPI_Init deadlocks in glibc's locale lock (ASan alone does it, without
# ioatlas), so in sanitizer builds they are built with the same sanitizers.
ioa_sanitized_programs
gzip -dc "$h5ex" >ph5example.c
cp "$adex/adios_globaltime.c" "$adex/gwrite_restart.ch" "$adex/adios_globaltime.xml" adios/
ok "ph5example builds with h5pcc.mpich (static HDF5) and -shlib (shared)" \
	sh -c "h5pcc.mpich $san -o ph5example ph5example.c && h5pcc.mpich $san -shlib -o ph5shared ph5example.c"
# ADIOS's pkg-config file names its MPICH library's folder after the generic one: put it first.
adlib=$(pkg-config --variable=libdir adios-mpich)/adios/mpich
ok "adios_globaltime builds on libadios-mpich" \
	sh -c "mpicc.mpich $san -o adios/adios_globaltime adios/adios_globaltime.c \
		\$(pkg-config --cflags adios-mpich) -L'$adlib' \$(pkg-config --libs adios-mpich)"

# What the programs are: HDF5 and ADIOS linked into them, or loaded from a shared library.
defines() { nm "$1" 2>/dev/null | awk -v s="$2" '$3 == s && $2 ~ /^[TW]$/ { f = 1 } END { exit !f }'; }
ok "ground truth: ph5example defines H5open (HDF5 linked in)" defines ph5example H5open
ok "ground truth: ph5shared loads libhdf5 (shared)" sh -c 'ldd ph5shared | grep -q "libhdf5[._]"'
ok "ground truth: adios_globaltime defines adios_open (ADIOS linked in)" \
	defines adios/adios_globaltime adios_open

# under RUNTIME DIR PROGRAM...: 4 MPICH ranks in DIR, under ioatlas (RUNTIME=ioatlas, the log
# in DIR.log) or Darshan (RUNTIME=darshan, its log in DIR.darshan).
under() {
	local runtime=$1 dir=$2
	shift 2
	if [ "$runtime" = darshan ]; then
		(cd "$dir" && timeout 120 mpiexec.mpich -n 4 -genv LD_PRELOAD "$D/lib/libdarshan.so" \
			-genv DARSHAN_LOGFILE "$dir.darshan" "$@") >"$dir.out" 2>&1
	else
		local logs
		logs=$(ioa_logdir)
		(cd "$dir" && ioa_mpi_preload "$logs" 4 120 "$@") >"$dir.out" 2>&1 &&
			ioa_only_log "$logs" >"$dir.log"
	fi
}
ok "ph5example runs under ioatlas" under ioatlas "$work/h5" "$work/ph5example" -c -f "$work/h5/"
ok "ph5example (shared HDF5) runs under ioatlas" \
	under ioatlas "$work/h5shared" "$work/ph5shared" -c -f "$work/h5shared/"
# (d5 as long a name as h5: ph5example prints its files' paths.)
ok "ph5example runs under Darshan" under darshan "$work/d5" "$work/ph5example" -c -f "$work/d5/"
ok "adios_globaltime runs under ioatlas" under ioatlas "$work/adios" "$work/adios/adios_globaltime"
cp adios/adios_globaltime.xml dadios/
ok "adios_globaltime runs under Darshan" \
	under darshan "$work/dadios" "$work/adios/adios_globaltime"
ok "ph5example checks what it wrote and read back" grep -q "PHDF5 tests finished with no errors" h5.out

# Every Darshan-named counter of every record, as t1050 compares them (darshan-compare):
# equal to darshan-parser's, or different as common/darshan-differences.h lists.
for pair in h5:d5 adios:dadios; do
	ours=${pair%%:*} theirs=${pair#*:}
	"$IOA_CMD" parse --json "$(cat "$ours.log")" >"$ours.parse.json"
	dparser "$theirs.darshan" >"$theirs.parser.txt"
	"$IOA_BUILD_DIR/tests/runtime/darshan-compare" "$ours.parse.json" "$work/$ours" \
		"$theirs.parser.txt" "$work/$theirs" >"$ours.diff" 2>&1
	status=$?
	is "$status $(grep -v '^listed\|^compared' "$ours.diff")" "0 " \
		"$ours: every Darshan counter agrees, or differs as listed ($(grep '^compared' "$ours.diff" | cut -f2- | tr '\t' ' '))"
done

libs() { "$IOA_CMD" parse "$(cat "$1.log")" | sed -n 's/^# io_libraries: //p'; }
like "$(libs h5)" '(^| )hdf5( |$)' "ph5example: HDF5 recorded among the I/O libraries"
like "$(libs h5shared)" '(^| )hdf5( |$)' "ph5shared: HDF5 recorded among the I/O libraries"
like "$(libs adios)" '(^| )adios( |$)' "adios_globaltime: ADIOS recorded among the I/O libraries"

for run in h5 h5shared adios; do
	"$IOA_CMD" report "$(cat "$run.log")" --json -o "$run.json"
done
# result RUN ANALYSIS EXPR: a Python expression over the analysis's result r (ioa_result).
result() { ioa_result "$work/$1.json" "$2" "$3"; }

# dsum LOG COUNTER FILE: Darshan's counter for FILE, summed over its records.
dsum() { dparser "$1" | awk -v c="$2" -v f="$3" '$4 == c && $6 == f { s += $5 } END { print s + 0 }'; }
osum() { "$IOA_CMD" parse "$(cat "$1")" | awk -v c="$2" -v f="$3" '$4 == c && $6 == f { s += $5 } END { print s + 0 }'; }

# --- ph5example: which file saw collective MPI-IO, by Darshan
indep_only= with_coll=
for n in 0 1; do
	file="$work/d5/ParaEg$n.h5"
	coll=$(($(dsum d5.darshan MPIIO_COLL_WRITES "$file") + $(dsum d5.darshan MPIIO_COLL_READS "$file")))
	indep=$(($(dsum d5.darshan MPIIO_INDEP_WRITES "$file") + $(dsum d5.darshan MPIIO_INDEP_READS "$file")))
	if [ "$coll" -eq 0 ] && [ "$indep" -ge 16 ]; then indep_only=ParaEg$n.h5; else with_coll=ParaEg$n.h5; fi
done
ok "ground truth: Darshan saw one file only independently, the other with collective calls" \
	test -n "$indep_only" -a -n "$with_coll"
for c in MPIIO_INDEP_WRITES MPIIO_COLL_WRITES MPIIO_INDEP_READS MPIIO_COLL_READS POSIX_BYTES_WRITTEN; do
	ours="$(osum h5.log "$c" "$work/h5/ParaEg0.h5") $(osum h5.log "$c" "$work/h5/ParaEg1.h5")"
	theirs="$(dsum d5.darshan "$c" "$work/d5/ParaEg0.h5") $(dsum d5.darshan "$c" "$work/d5/ParaEg1.h5")"
	is "$ours" "$theirs" "ph5example: $c of both files as Darshan counted"
done
is "$(result h5 insights "[x['file'].rsplit('/', 1)[1] for x in f('no_collective_io')['evidence']['files']]")" \
	"['$indep_only']" "ph5example: no_collective_io names $indep_only alone"
is "$(result h5 insights "sorted(set(x.get('advice_for') for x in r['findings']))")" "['hdf5']" \
	"ph5example: every insight's advice is for HDF5"
like "$(result h5 insights "f('no_collective_io')['recommendation']")" "H5Pset_dxpl_mpio" \
	"ph5example: set a collective transfer property, says the advice"
# With shared HDF5 the runtime records the datasets: those of the file reached
# only independently, every one of them (each is written and read back).
is "$(result h5shared insights "sorted(x['name'] for x in f('no_collective_io')['evidence']['files'][0]['datasets'])")" \
	"$(/usr/bin/python3 -c 'import sys, h5py; print(sorted("/" + k for k in h5py.File(sys.argv[1], "r")))' \
		"$work/h5shared/$indep_only")" \
	"ph5example (shared HDF5): no_collective_io names the datasets of $indep_only, as h5py lists them"

# --- adios_globaltime
steps=$(grep -c "^Timestep [0-9]* written" adios.out)
is "$steps" 13 "ground truth: adios_globaltime says it wrote 13 time steps"
is "$(result adios checkpoints "r['checkpoints']")" "$steps" "adios_globaltime: one checkpoint per step"
is "$(result adios amr "(r['classification'], r['head_writer'])")" "('not_amr', 0)" \
	"adios_globaltime: not AMR; rank 0 the head writer (ADIOS's index)"
bp="$work/dadios/adios_globaltime.bp"
ok "ground truth: Darshan saw the .bp written only independently, 16 times or more" \
	test "$(dsum dadios.darshan MPIIO_COLL_WRITES "$bp")" -eq 0 -a \
	"$(dsum dadios.darshan MPIIO_INDEP_WRITES "$bp")" -ge 16
is "$(result adios insights "[x['file'] for x in f('no_collective_io')['evidence']['files']]")" \
	"['$work/adios/adios_globaltime.bp']" "adios_globaltime: no_collective_io names the .bp file"
ratio=$(awk -v w="$(dsum dadios.darshan POSIX_BYTES_WRITTEN "$bp")" \
	-v m="$(dsum dadios.darshan POSIX_MAX_BYTE_WRITTEN "$bp")" 'BEGIN { printf "%.2f", w / (m + 1) }')
is "$(result adios insights "'%.2f' % (f('redundant_writes')['evidence']['bytes_written'] / f('redundant_writes')['evidence']['file_size'])")" \
	"$ratio" "adios_globaltime: the .bp written ${ratio} times over, as Darshan counted"
is "$(result adios insights "(f('no_collective_io')['advice_for'], 'MPI_AGGREGATE' in f('no_collective_io')['recommendation'])")" \
	"('adios', True)" "adios_globaltime: the advice is ADIOS's (its MPI_AGGREGATE method)"
