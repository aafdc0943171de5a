# t1047-error-names — every kind of recorded error reads as what it is
# (docs/log-format.md#errors), in `ioatlas parse` and in the report's
# failed-call findings: an errno by its name, an MPI error class by MPI's
# name, a class the runtime's table does not list by its number, and a log
# written before the class codes by the MPI library's number, never as the
# errno that number happens to be (37: ENOLCK).  The log is written by
# errors-log, which holds one failure of each kind on a file named after it.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
require_cmd python3

plan 6

log="$TEST_TMP/errors.ioa"
ok "errors-log writes its log" "$IOA_BUILD_DIR/tests/runtime/errors-log" "$log"
parsed=$("$IOA_CMD" parse "$log")
is "$?" 0 "ioatlas parse reads it"
# "module operation error file", in the errors region's order.
is "$(awk -F '\t' '$1 == "FAILED" { print $2, $5, $6, $8 }' <<<"$parsed")" \
	"POSIX open ENOENT /work/posix-enoent
MPI-IO File_open MPI_ERR_NO_SUCH_FILE /work/mpi-coded
MPI-IO File_write unknown MPI error class 99 /work/mpi-unlisted
MPI-IO File_open MPI error class 37 /work/mpi-before-codes" \
	"ioatlas parse names an errno, a class, an unlisted class and an old log's class"
unlike "$parsed" "ENOLCK" "an old log's MPI class 37 never reads as ENOLCK"
report=$("$IOA_CMD" report "$log" --json -o -)
is "$?" 0 "ioatlas report reads it"
is "$(python3 -c '
import json, sys
for f in json.load(sys.stdin)["findings"]:
    if f["code"] == "failed_calls":
        print(f["text"])' <<<"$report" | sort)" \
	"File_open failed 1 time with MPI error class 37 on 1 rank
File_open failed 1 time with MPI_ERR_NO_SUCH_FILE on 1 rank
File_write failed 1 time with unknown MPI error class 99 on 1 rank
open failed 1 time with ENOENT on 1 rank" \
	"the report's failed-call findings name them the same"
