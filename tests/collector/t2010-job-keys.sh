# t2010-job-keys — the job keys 33 `clock` and 34 `io_libraries` (crafted
# by tests/common/craft-log) in a throwaway warehouse: the collector stores
# how the job's times were put on one clock (jobs.clock_base, its
# uncertainty and drift) and the I/O libraries its program used
# (jobs.io_libraries) as the log says them; a hostile key (markup, NUL,
# bytes that are not text, numbers out of range, unknown words) never
# fails the ingest of its otherwise good log: a malformed clock is none
# (NULL), unknown library names are left out; `ioatlas report` of the
# job then states the clock's precision and advises for the library on top.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
require_pg

craft="$IOA_BUILD_DIR/tests/common/craft-log"
ingest="$IOA_BUILD_DIR/libexec/ioatlas/ioatlas-ingest"
export IOATLAS_CONF=/dev/null

plan 12
pg_warehouse
q() { psql -X -t -A -U ioatlas -F '|' -c "$1"; }
cd "$TEST_TMP" || exit 1

printf 'base=rank0 uncertainty_ns=1500 drift_ns=20 ranks=1 unmeasured=0' >clock.txt
printf 'hdf5 adios' >libs.txt
printf 'base=wall' >wall.txt
printf 'base=rank0 uncertainty_ns=1180591620717411303424 <script>' >bad-clock.txt
printf '<script>alert(1)</script> \000hdf5 \377\376 pnetcdf hdf5x' >bad-libs.txt
ok "four crafted logs: a clock and libraries, a wall clock, hostile keys, none" sh -c "
	'$craft' good rank0.ioa --clock clock.txt --libraries libs.txt &&
	'$craft' good wall.ioa --clock wall.txt &&
	'$craft' good hostile.ioa --clock bad-clock.txt --libraries bad-libs.txt &&
	'$craft' good plain.ioa"
ok "they are ingested" run_timeout 120 "$ingest" "$TEST_TMP/rank0.ioa" "$TEST_TMP/wall.ioa" \
	"$TEST_TMP/hostile.ioa" "$TEST_TMP/plain.ioa"
is "$(q "SELECT status, count(*) FROM ingest_ledger GROUP BY 1")" "ingested|4" \
	"every one of them, none quarantined"

# columns LOG: the job's clock and library columns, as psql prints them.
columns() {
	q "SELECT j.clock_base, j.clock_uncertainty_ns, j.clock_drift_ns,
		array_to_string(j.io_libraries, ',')
		FROM jobs j JOIN ingest_ledger l ON l.job = j.id WHERE l.path = '$TEST_TMP/$1'"
}
is "$(columns rank0.ioa)" "rank0|1500|20|hdf5,adios" "rank 0's clock with its precision; HDF5 and ADIOS"
is "$(columns wall.ioa)" "wall|||" "a wall clock: no precision to state"
is "$(columns hostile.ioa)" "|||pnetcdf" \
	"hostile keys: the malformed clock is none, only the library named whole is kept"
is "$(columns plain.ioa)" "|||" "no keys: NULL"

"$IOA_CMD" report "$TEST_TMP/rank0.ioa" --json -o rank0.json
like "$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["job"]["clock"]["sentence"])' rank0.json)" \
	'within 0.0015 ms' "the report states the clock's precision"
is "$(ioa_result rank0.json insights 'r["advice_for"]')" adios "and advises for ADIOS, the library on top of HDF5"
ok "a second pass over them changes nothing" run_timeout 60 "$ingest" "$TEST_TMP/rank0.ioa" "$TEST_TMP/hostile.ioa"
