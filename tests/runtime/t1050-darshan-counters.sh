# t1050-darshan-counters — ioatlas's counters are Darshan's: the programs that
# wrote the Darshan 3.5.0 logs of tests/data/darshan run under libioatlas with
# the same ranks and arguments, and every Darshan-named counter of every record
# (per rank and shared, POSIX, STDIO, MPI-IO) is compared with darshan-parser's
# output by darshan-compare: integers equal, floating-point counters zero where
# Darshan's are, records one to one.  What differs must be listed in
# common/darshan-differences.h (the table docs/counters.md prints), and an
# entry that must always show and no longer does fails too, so the list stays
# true.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
require_mpi
require_cmd mpicc.mpich
require_cmd cc

data="$IOA_SOURCE_DIR/tests/data/darshan"
compare="$IOA_BUILD_DIR/tests/runtime/darshan-compare"
work="$TEST_TMP/work"
mkdir -p "$work/bin" "$work/run"

# The runs of the logs (their README): name:ranks (0: no MPI):program; each
# program's one argument is its run's folder.
runs="mix4:4:mix collective4:4:collective mix2-dxt:2:mix serial-nonmpi:0:serial"

ok "the programs build (mpicc.mpich; serial.c with cc)" sh -c "
	mpicc.mpich -o '$work/bin/mix' '$data/src/mix.c' &&
	mpicc.mpich -o '$work/bin/collective' '$data/src/collective.c' &&
	cc -o '$work/bin/serial' '$data/src/serial.c'"

seen="$work/seen"
: >"$seen"
for run in $runs; do
	IFS=: read -r name ranks prog <<-EOF
	$run
	EOF
	# What Darshan's log says it ran, so a run that drifted from the README shows.
	is "$(sed -n 's/^# exe: //p' "$data/$name.parser.txt" | sed 's/[[:space:]]*$//')" \
		"/scratch/apps/$prog /scratch/run/$name" "$name: Darshan's log ran $prog on /scratch/run/$name"
	is "$(sed -n 's/^# nprocs: //p' "$data/$name.parser.txt")" "$((ranks > 0 ? ranks : 1))" \
		"$name: Darshan's log has $((ranks > 0 ? ranks : 1)) process(es)"

	logs="$work/logs-$name"
	dir="$work/run/$name"
	mkdir -p "$logs" "$dir"
	if [ "$ranks" -gt 0 ]; then
		ok "$name: runs under ioatlas on $ranks ranks" \
			ioa_mpi_preload "$logs" "$ranks" 60 "$work/bin/$prog" "$dir"
	else
		ok "$name: runs under ioatlas without MPI (nonmpi)" \
			run_timeout 60 env IOATLAS_NONMPI=1 IOATLAS_LOGDIR="$logs" \
			LD_PRELOAD="$(ioa_preload_list "$IOA_RUNTIME_SO")" "$work/bin/$prog" "$dir"
	fi
	log=$(ioa_only_log "$logs") && "$IOA_CMD" parse --json "$log" >"$work/$name.json"
	ok "$name: ioatlas parse --json reads its log" test -s "$work/$name.json"

	"$compare" "$work/$name.json" "$dir" "$data/$name.parser.txt" "/scratch/run/$name" \
		>"$work/$name.diff" 2>&1
	status=$?
	is "$status $(grep -v '^listed\|^compared' "$work/$name.diff")" "0 " \
		"$name: every Darshan counter agrees, or differs as listed"
	grep '^listed' "$work/$name.diff" | cut -f2 >>"$seen"
	diag "$name: $(grep -c '^listed' "$work/$name.diff") listed differences;\
 $(grep '^compared' "$work/$name.diff" | cut -f2- | tr '\t' ' ')"
done

# Each listed difference that must always show still does somewhere.
"$compare" --entries >"$work/entries"
ok "the table of differences has entries" test -s "$work/entries"
while IFS='	' read -r index kind module counters files; do
	[ "$kind" = always ] || continue
	ok "listed difference $index ($module $counters on $files) still shows" \
		grep -qx "$index" "$seen"
done <"$work/entries"

done_testing
