# t1035-tree-ingest — the collector takes a process tree's log as it takes
# an MPI job's: a shell pipeline and a Python pool of 4 forked workers go
# into a throwaway warehouse, each one job with its processes as ranks and
# every record, trace and time bin.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
require_pg
require_cmd /usr/bin/python3
case ",${IOA_SANITIZE:-}," in
*,address,*) export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" ;;
esac

plan 9

daemon="$IOA_BUILD_DIR/sbin/ioatlasd"
export IOATLAS_CONF=/dev/null
pg_warehouse
q() { psql -X -t -A -U ioatlas -c "$1"; }

logs=$(ioa_logdir)
work="$TEST_TMP/work"
mkdir -p "$work"
seq 1 10000 >"$work/in"
cat >"$TEST_TMP/pool.py" <<'PY'
import multiprocessing as mp, os, sys
def work(i):
    with open(os.path.join(sys.argv[1], "own-%d" % i), "wb") as f:
        f.write(b"x" * 10000)
if __name__ == "__main__":
    pool = mp.get_context("fork").Pool(4)
    pool.map(work, range(4), chunksize=1)
    pool.close()
    pool.join()
PY
preload="LD_PRELOAD=$(ioa_preload_list "$IOA_RUNTIME_SO")"
run_timeout 30 env IOATLAS_NONMPI=1 IOATLAS_LOGDIR="$logs" "$preload" \
	sh -c "cat '$work/in' | gzip > '$work/out'"
run_timeout 60 env IOATLAS_NONMPI=1 IOATLAS_LOGDIR="$logs" "$preload" \
	/usr/bin/python3 "$TEST_TMP/pool.py" "$work"
is "$(ioa_logs "$logs" | wc -l)" 2 "two trees, two logs"

export IOATLAS_LOGDIR=$logs
ok "ioatlasd --once ingests them" run_timeout 120 "$daemon" --once
is "$(q "SELECT count(*) FROM ingest_ledger WHERE status = 'ingested'")" 2 "both are ingested"
is "$(q "SELECT string_agg(nprocs::text, ',' ORDER BY nprocs) FROM jobs")" 3,5 \
	"as jobs of 3 and 5 processes"
# Every record of every log, as `ioatlas parse` reads them (as t2001 counts).
want=$(for log in $(ioa_logs "$logs"); do
	"$IOA_CMD" parse "$log" | awk -F '\t' '$1 ~ /^(POSIX|STDIO|MPI-IO)$/ { n[$1 "|" $2 "|" $3]++ }
		END { print length(n) }'
done | awk '{ sum += $1 } END { print sum }')
is "$(q 'SELECT count(*) FROM records')" "$want" "every module record of every process is in"
is "$(q "SELECT count(*) FROM records r JOIN file_names f ON f.sha256 = r.file
	WHERE f.display LIKE '%/own-%' AND r.rank BETWEEN 1 AND 4")" 4 \
	"the workers' 4 files, each under a worker's rank (1 to 4)"
is "$(q "SELECT sum(bytes_written) FROM records r JOIN file_names f ON f.sha256 = r.file
	WHERE f.display LIKE '%/own-%'")" 40000 "with the bytes they wrote"
