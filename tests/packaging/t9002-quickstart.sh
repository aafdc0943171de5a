# t9002-quickstart — the README's quick start works from a checkout: it
# builds and installs ioatlas into its own var/ directory, runs the sample
# MPI programs under `module load ioatlas`, shows their logs, and ingests
# them into a private PostgreSQL cluster under var/pg, and prints what the
# analyses find in them.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
require_mpi

var="$TEST_TMP/var"

plan 18

# The private cluster's server runs unprivileged when the test is root: it must reach var/.
[ "$(id -u)" -eq 0 ] && chmod 711 "$TEST_TMP"
pg_ctl_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)/pg_ctl
stop_pg() {
	[ -d "$var/pg/data" ] || return 0
	if [ "$(id -u)" -eq 0 ]; then
		runuser -u nobody -- "$pg_ctl_bin" -D "$var/pg/data" -m fast stop >/dev/null 2>&1
	else
		"$pg_ctl_bin" -D "$var/pg/data" -m fast stop >/dev/null 2>&1
	fi
	return 0
}
at_exit stop_pg
unset IOATLAS_WAREHOUSE_CONNINFO PGHOST PGUSER PGDATABASE
IOATLAS_VAR="$var" run_timeout 900 "$IOA_SOURCE_DIR/packaging/quickstart" >"$TEST_TMP/out" 2>&1
is "$?" 0 "packaging/quickstart succeeds"
out=$(cat "$TEST_TMP/out")
like "$out" '^==> \[9/9\] done$' "it shows its progress to the last step"
logs=$(find "$var/logs" -name '*.ioa' | wc -l)
is "$logs" 3 "the three sample jobs left one log each"
is "$(find "$var/logs" -mindepth 3 -maxdepth 3 -type d ! -perm 3773 | wc -l)" 0 \
	"in a log tree made as a site makes it (setup-logdir: mode 3773)"
like "$out" "	POSIX	-1	4	0	16384	$var/work/posix-shared.dat$" \
	"it prints the shared file the sample wrote from 4 ranks"
like "$out" "^  MPI-IO File_write_at_all $var/work/shared.dat offset=" \
	"it prints the trace of the sample job, MPI-IO calls and all"
like "$out" "^Read one: +$var/prefix/bin/ioatlas parse $var/logs/" "and says where to look next"
like "$out" "^warehouse: applied 0001_schema$" "it builds the warehouse in a private cluster"
is "$(printf '%s\n' "$out" | grep -c "^ioatlasd: info: ingested '$var/logs/")" 3 \
	"and ingests the sample jobs"
like "$out" "^ +[0-9]+ \| [^|]+ \| $var/build/tests/workloads/mpi-io +\| +4 \|" \
	"and shows them with a query over the warehouse"
like "$out" "^  checkpoints +5 checkpoints, one every" "it prints the analyses' findings: checkpoints"
like "$out" "^  amr +adaptive mesh refinement likely" "and the AMR job as such"
like "$out" "^Report: +file://$var/reports/job-[0-9]+\\.html " "it writes the AMR job's report and says where"
ok "the report is there" test -s "$(printf '%s\n' "$out" | sed -n 's|^Report: *file://\([^ ]*\) .*|\1|p')"
ok "and the site dashboard" test -s "$var/www/index.html"
like "$out" "^pulled amr-sample@[0-9]+ into $var/pulled-kernel-[0-9]+ \\(checksums verified\\)" \
	"it publishes the sample's validated kernel and pulls it back over HTTP"
like "$out" "^published amr-sample@[0-9]+ into $var/kernels \\(validated: the job's counters, identical\\)" \
	"the kernel matched the job before it was published"
like "$out" "^Stop the private cluster: " "and how to stop the cluster it leaves running"

done_testing
