# t1006-time-bins — the time-resolved view: a program that writes steadily
# for over two seconds gets its bytes spread over the bins of its record,
# the bins widen to span the whole run, and they add up exactly to the
# record's counters.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"

ops="$IOA_BUILD_DIR/tests/workloads/posix-ops"
work="$TEST_TMP/work"
mkdir -p "$work"

plan 6

logs=$(ioa_logdir)
ok "11 writes over 2 seconds run unchanged" ioa_preload "$logs" "$ops" paced "$work" 11
log=$(ioa_only_log "$logs")
bins=$("$IOA_CMD" parse --bins "$log" | awk -F '\t' -v f="$work/paced" '$1 == "BIN" && $12 == f')
is "$(awk -F '\t' '{ s += $9 } END { print s }' <<<"$bins")" 11000 \
	"the bins' bytes add up to the bytes written"
is "$(awk -F '\t' '{ s += $11 } END { print s }' <<<"$bins")" 11 \
	"and their write counts to the writes"
used=$(wc -l <<<"$bins")
ok "the writes spread over several bins ($used)" test "$used" -ge 4
# 16 bins per record; each BIN line gives its bin's start and end.
span=$(head -n 1 <<<"$bins" | awk -F '\t' '{ printf "%.3f", ($7 - $6) * 16 }')
ok "the bins widened to span the whole run (${span} s)" \
	awk -v s="$span" 'BEGIN { exit !(s >= 2.0 && s <= 8.0) }'
last=$(tail -n 1 <<<"$bins" | cut -f 7)
ok "the last write falls in a bin ending after 2 s ($last s)" \
	awk -v e="$last" 'BEGIN { exit !(e >= 2.0) }'

done_testing
