# t0013-parse-partial — `ioatlas parse` of partial logs (job key 31, a log
# recovered from a killed job; crafted by tests/common/craft-log): a
# "# partial:" line among the job's lines saying how the job ended and
# until when its ranks recorded, and in --json a "partial" object whose
# numbers are JSON numbers; each way a job ends in its words; a hostile
# value (markup, control bytes, 2^70, bytes that are not UTF-8, NUL) keeps
# one line and strict JSON; a complete log has neither.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
require_cmd python3

craft="$IOA_BUILD_DIR/tests/common/craft-log"
parse="$IOA_BUILD_DIR/libexec/ioatlas/ioatlas-parse"
export IOATLAS_CONF=/dev/null
cd "$TEST_TMP" || exit 1

plan 23

# 2026-11-28 06:01:00 UTC to 10:00:02 UTC; the ranks recorded until 10:00:01.
start=1795845660000000000
end=1795860002000000000
printf 'how=signal\nsignal=15\nreason=TIMEOUT\nranks=0-3\nmissing=4-7\nuntil_first_ns=1795860001000000000\nuntil_last_ns=1795860001000000000\n' \
	>signal.txt
ok "a partial log is crafted" "$craft" good signal.ioa --partial signal.txt --start $start --end $end
ok "parse reads it" "$parse" signal.ioa
out=$(cat "$TEST_TMP/last.out")
is "$(grep '^# partial' <<<"$out")" \
	"# partial: killed by signal 15 (SIGTERM), scheduler says TIMEOUT; ranks 0-3 recorded until 2026-11-28T10:00:01Z; ranks 4-7 left nothing" \
	"a '# partial:' line says how the job ended and until when its ranks recorded"
is "$(sed -n '/^# hostnames/{n;p}' <<<"$out")" "$(grep '^# partial' <<<"$out")" \
	"among the job's lines"

# json FILE EXPR: a Python expression over the parsed JSON (j), strictly parsed.
json() {
	python3 -c 'import json, sys
j = json.load(open(sys.argv[1]), parse_constant=lambda c: sys.exit("not JSON: " + c))
print(eval(sys.argv[2]))' "$@"
}
"$parse" --json signal.ioa >signal.json
is "$(json signal.json 'j["job"]["partial"]["how"], j["job"]["partial"]["signal"], j["job"]["partial"]["signal_name"]')" \
	"('signal', 15, 'SIGTERM')" "--json: how, and the signal as a number with its name"
is "$(json signal.json 'j["job"]["partial"]["reason"], j["job"]["partial"]["ranks"], j["job"]["partial"]["missing"]')" \
	"('TIMEOUT', '0-3', '4-7')" "the scheduler's reason and the rank lists"
is "$(json signal.json 'j["job"]["partial"]["until_first_ns"], j["job"]["partial"]["until_last_ns"], j["job"]["partial"]["dropped"]')" \
	"('1795860001000000000', '1795860001000000000', 0)" \
	"the times as their exact digits (JSON tools round numbers past 2^53), nothing dropped"
like "$(json signal.json 'j["job"]["partial"]["description"]')" "^killed by signal 15 \(SIGTERM\)" \
	"and the line's words"

# Each way a job ends.
check_end() { # VALUE LINE
	printf "$1" >end.txt
	"$craft" good end.ioa --partial end.txt --start $start --end $end &&
		"$parse" end.ioa | grep '^# partial:'
}
is "$(check_end 'how=killed\nranks=0-1\nuntil_last_ns=1795860001000000000\n')" \
	"# partial: killed without warning (SIGKILL, out of memory or a crash); ranks 0-1 recorded until 2026-11-28T10:00:01Z" \
	"how=killed"
is "$(check_end 'how=exit\nranks=0\n')" "# partial: ended by exit() without MPI_Finalize; rank 0 recorded" \
	"how=exit"
is "$(check_end 'how=abort\nabort_code=3\nuntil_first_ns=1795859990000000000\nuntil_last_ns=1795860001000000000\n')" \
	"# partial: ended by MPI_Abort (error code 3); recorded until 2026-11-28T10:00:01Z (the least current rank until 2026-11-28T09:59:50Z)" \
	"how=abort, with the least and the most current rank's times"
"$parse" --json end.ioa >end.json
is "$(json end.json 'j["job"]["partial"]["abort_code"], "signal" in j["job"]["partial"]')" "(3, False)" \
	"--json: the abort code as a number, no signal"

# Hostile: markup, CR and ESC, 2^70, not UTF-8 (an invalid byte, a surrogate), NUL, garbage lines.
{
	printf 'how=signal\nsignal=1180591620717411303424\nabort_code=-1180591620717411303424\n'
	printf 'reason=<script>alert(1)</script> "q'"'"'uote & \377\376\355\240\200 \033[2J\r\000x\n'
	printf 'ranks=0-3,<b>\nmissing=1180591620717411303424\nuntil_first_ns=1180591620717411303424\n'
	printf 'until_last_ns=-5\ngarbage line\n\n\n<script>=x\n\377=\377\nsignal=15\000\n'
} >hostile.txt
ok "a log with a hostile partial key is crafted" "$craft" good hostile.ioa --partial hostile.txt
ok "parse reads it" "$parse" hostile.ioa
out=$(cat "$TEST_TMP/last.out")
is "$(grep -c '^# partial:' <<<"$out")" 1 "one '# partial:' line"
is "$(grep '^# partial:' <<<"$out")" \
	'# partial: killed by a signal, scheduler says <script>alert(1)</script> "q'"'"'uote & \xff\xfe\xed\xa0\x80 \x1b[2J\x0d\x00x' \
	"what is malformed dropped, the reason escaped: control bytes and what is not UTF-8 as \\xNN"
is "$(grep -c $'\033\|\r' <<<"$out")" 0 "no control byte reaches the terminal"
ok "--json reads it" "$parse" --json hostile.ioa
"$parse" --json hostile.ioa >hostile.json
is "$(json hostile.json 'sorted(j["job"]["partial"])')" \
	"['description', 'dropped', 'how', 'reason']" "its JSON is strict and holds only the well-formed fields"
is "$(json hostile.json 'j["job"]["partial"]["dropped"]')" 8 "and counts those dropped"

# A complete log: neither.
ok "a complete log" "$craft" good complete.ioa
is "$("$parse" complete.ioa | grep -c 'partial')" 0 "has no '# partial:' line"
"$parse" --json complete.ioa >complete.json
is "$(json complete.json '"partial" in j["job"]')" False "nor a partial object in JSON"

done_testing
