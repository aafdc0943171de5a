# t2006-fault-sweep — every fault point of the collector and the log reader
# (IOA_FAULT: each allocation, read, rename and PostgreSQL call) fails in
# turn during an ingest: for each point and several `after` counts, the
# collector (built with the points, tests/collector/ioatlasd-fault) takes a
# fresh set of logs with the point armed (IOATLAS_FAULT=NAME:AFTER), then
# again without it.  It never crashes or hangs, says what failed, exits 0
# only when it took every log, and in
# the end each log is in the warehouse exactly once or quarantined with a
# reason, never both, and a good log is never quarantined for the
# collector's own failure.  The points are read from the sources, so a new
# one is swept without touching this test.  One cluster for the sweep, two
# points swept at once, each on trees of its own.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
require_pg

daemon="$IOA_BUILD_DIR/tests/collector/ioatlasd-fault"
ops="$IOA_BUILD_DIR/tests/workloads/posix-ops"
counts="0 1 4 16 64 256"

# IOATLAS_SWEEP_POINTS="a b" sweeps only those (to look into one).
points=${IOATLAS_SWEEP_POINTS:-$(cd "$IOA_SOURCE_DIR" && grep -ohE 'IOA_FAULT\("[a-z0-9-]+"\)|faulty\([a-z]+, "[a-z0-9-]+"\)' \
	collector/*.c common/ioa_logr.c common/ioa_buf.c | grep -oE '"[a-z0-9-]+"' | tr -d '"' | sort -u)}
npoints=$(printf '%s\n' $points | wc -l)
[ -n "${IOATLAS_SWEEP_POINTS:-}" ] ||
for want in buf-alloc col-alloc col-rename db-connect db-copy db-query logr-alloc logr-read; do
	case " $(echo $points) " in *" $want "*) ;; *) bail "fault point $want is gone from the sources" ;; esac
done

export IOATLAS_CONF=/dev/null
pg_warehouse
export IOATLAS_COLLECTOR_SUMMARY=1h
q() { psql -X -t -A -U ioatlas -c "$1"; }

# The pool: two fresh jobs' logs per run (each log's content is its own).
pool=$(ioa_logdir)
runs=$((npoints * $(echo $counts | wc -w)))
make_pool() {
	local i
	for i in $(seq "$runs"); do
		ioa_preload "$pool" "$ops" basic "$TEST_TMP/work" >/dev/null || return 1
		ioa_preload "$pool" touch "$TEST_TMP/work/t$i" >/dev/null || return 1
	done
}
mkdir -p "$TEST_TMP/work"
ok "$((2 * runs)) jobs for $npoints points x $(echo $counts | wc -w) counts" make_pool
template="$TEST_TMP/template.ioa"
cp "$(ioa_logs "$pool" | head -n 1)" "$template"
size=$(stat -c %s "$template")

# check_run TREE GOOD... : what is wrong with the tree's logs after the two
# runs (one query: each ledger row of the tree, with its jobs).
check_run() {
	local tree=$1 rows log row st err qpath jobs
	shift
	rows=$(q "SELECT l.path, l.status, coalesce(l.error, ''), coalesce(l.quarantine_path, ''),
		(SELECT count(*) FROM jobs j WHERE j.ledger = l.id)
		FROM ingest_ledger l WHERE l.path LIKE '$tree/%'")
	for log in "$@" "$tree/2026/01/01/corrupt.ioa"; do
		row=$(printf '%s\n' "$rows" | grep -F "$log|")
		[ "$(printf '%s' "$row" | grep -c '^')" = 1 ] ||
			{ echo "$(basename "$log"): $(printf '%s' "$row" | grep -c '^') ledger rows"; continue; }
		IFS='|' read -r _ st err qpath jobs <<<"$row"
		case $log in
		*/corrupt.ioa)
			[ "$st:$qpath" = "quarantined:$tree/quarantine/corrupt.ioa" ] && [ -n "$err" ] ||
				echo "corrupt.ioa: $st ($err) to '$qpath'"
			[ -f "$tree/quarantine/corrupt.ioa" ] && [ ! -e "$log" ] || echo "corrupt.ioa not moved"
			;;
		*)
			# A log that stays unreadable the whole collector.unreadable_wait is
			# quarantined (t2005): the one way a good log may be, and then it has no job.
			if [ "$st" = quarantined ] && [ "${err#unreadable after }" != "$err" ]; then
				[ "$jobs" = 0 ] || echo "$(basename "$log"): quarantined with $jobs jobs"
			else
				[ "$st" = ingested ] || echo "$(basename "$log"): $st, not ingested ($err)"
				[ "$jobs" = 1 ] || echo "$(basename "$log"): $jobs jobs"
			fi
			;;
		esac
	done
}

# stage K: tree t.K, with the Kth posix-ops and touch logs of the pool
# (each tree its own) and a corrupt one; the good logs' paths in t.K/goods.
mapfile -t pool_ops < <(ioa_logs "$pool" | grep posix-ops)
mapfile -t pool_touch < <(ioa_logs "$pool" | grep touch)
stage() {
	local tree="$TEST_TMP/t.$1" good1=${pool_ops[$1 - 1]} good2=${pool_touch[$1 - 1]}
	mkdir -p "$tree/2026/01/01"
	mv "$good1" "$good2" "$tree/2026/01/01/"
	cp "$template" "$tree/2026/01/01/corrupt.ioa"
	printf 'XXXXXXXX' | dd of="$tree/2026/01/01/corrupt.ioa" bs=1 seek=$((size / 2)) \
		conv=notrunc 2>/dev/null
	printf '%s\n' "$tree/2026/01/01/$(basename "$good1")" "$tree/2026/01/01/$(basename "$good2")" \
		>"$tree/goods"
}

# sweep_point POINT K: the runs of one point over trees t.K, t.K+1 ... (one
# per count), each tree its own, so that two points are swept at once (the
# collector mostly waits on the server, and on its retry and unreadable
# waits).  What went wrong goes to sweep.POINT.bad, the diagnostics to
# sweep.POINT.out, and sweep.POINT.fired is made when the point fired.
sweep_point() {
	local point=$1 k=$2 after tree g1 g2 armed done_armed clean problems bad_runs=""
	for after in $counts; do
		tree="$TEST_TMP/t.$k"
		stage "$k"
		k=$((k + 1))
		{ read -r g1 && read -r g2; } <"$tree/goods"

		IOATLAS_LOGDIR=$tree IOATLAS_FAULT="$point:$after" IOATLAS_COLLECTOR_RETRY_MAX=0.2 \
			IOATLAS_COLLECTOR_UNREADABLE_WAIT=0.5 run_timeout 60 "$daemon" --once \
			>"$tree/armed.out" 2>&1
		armed=$?
		# A run that ends well has left no log behind.
		done_armed=$(q "SELECT count(*) FROM ingest_ledger WHERE path LIKE '$tree/%'")
		IOATLAS_LOGDIR=$tree run_timeout 60 "$daemon" --once >"$tree/clean.out" 2>&1
		clean=$?
		problems=""
		[ "$armed" -lt 124 ] || problems="$problems armed run: status $armed (crash or hang);"
		[ "$armed" != 0 ] || [ "$done_armed" = 3 ] ||
			problems="$problems armed run: status 0 with $((3 - done_armed)) logs not taken;"
		grep -qE 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$tree/armed.out" "$tree/clean.out" &&
			problems="$problems sanitizer report;"
		[ "$clean" = 0 ] || problems="$problems second run: status $clean;"
		if grep -q "fault point '$point' fired" "$tree/armed.out"; then
			: >"$TEST_TMP/sweep.$point.fired"
			# Whatever failed is said, unless nothing was lost by it.
			grep -E '^ioatlasd: ' "$tree/armed.out" | grep -qvE '^ioatlasd: (info|debug):' ||
				[ "$(grep -c "^ioatlasd: info: ingested '" "$tree/armed.out")" = 2 ] ||
				problems="$problems the fault left no message;"
		fi
		problems="$problems$(check_run "$tree" "$g1" "$g2" | tr '\n' ';')"
		if [ -n "$problems" ]; then
			bad_runs="$bad_runs
after $after:$problems"
			diag "--- $point:$after, armed run:" "$(sed -n '1,15p' "$tree/armed.out")" \
				"--- second run:" "$(sed -n '1,10p' "$tree/clean.out")"
		fi
	done >"$TEST_TMP/sweep.$point.out"
	printf '%s' "$bad_runs" >"$TEST_TMP/sweep.$point.bad"
}

# sweep_lane N: every other point, from the Nth (0 or 1).
sweep_lane() {
	local i=0 k=1 point
	for point in $points; do
		[ $((i % 2)) != "$1" ] || sweep_point "$point" "$k"
		i=$((i + 1))
		k=$((k + $(echo $counts | wc -w)))
	done
}

started=$(date +%s)
sweep_lane 0 &
lane0=$!
sweep_lane 1 &
lane1=$!
at_exit "kill $lane0 $lane1 2>/dev/null"
wait "$lane0" "$lane1"
fired_points=""
for point in $points; do
	cat "$TEST_TMP/sweep.$point.out" 2>/dev/null
	[ -e "$TEST_TMP/sweep.$point.fired" ] && fired_points="$fired_points $point"
	is "$(cat "$TEST_TMP/sweep.$point.bad" 2>/dev/null || echo "the sweep did not finish")" "" \
		"fault point $point, after $counts passes: no crash, said, each log once"
done
took=$(($(date +%s) - started))
diag "swept $npoints points x $(echo $counts | wc -w) counts in $took s"

never=""
for point in $points; do
	case " $fired_points " in *" $point "*) ;; *) never="$never $point" ;; esac
done
is "${never:-none}" "none" "every fault point was reached by the sweep"
is "$(q 'SELECT count(*) FROM jobs j LEFT JOIN ingest_ledger l ON l.id = j.ledger
	WHERE l.id IS NULL OR l.status <> '"'ingested'")" 0 "no job without its ledger row"
unreadable=$(q "SELECT count(*) FROM ingest_ledger WHERE error LIKE 'unreadable after %'
	AND path NOT LIKE '%/corrupt.ioa'")
is "$(q "SELECT count(*) FROM ingest_ledger WHERE status = 'ingested'"):$(q 'SELECT count(*) FROM jobs')" \
	"$((2 * runs - unreadable)):$((2 * runs - unreadable))" \
	"every good log is in once, one job each (but $unreadable left unreadable throughout)"

done_testing
