# t1090-job-clock — one clock per job: four ranks launched 0.3 s apart
# (each sleeps 0.3 s x its rank before its program starts) pass a token
# down a chain, each reading the file the previous rank wrote.  On MPICH and
# on Open MPI the log puts every rank's read after the write it reads, and
# each rank's first read and last write where the program's own wall-clock
# readings put them (on one host: within 2 ms); the trace places the reads
# within its stated precision; the log says how its clock was made; the
# analyses' MPI start-up ends where the ranks' MPI_Init returned.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
require_mpi
require_cmd mpiexec.openmpi
require_cmd mpicc.openmpi

src="$IOA_SOURCE_DIR/tests/workloads/token-chain.c"
skew="$TEST_TMP/skew"
cat >"$skew" <<'SH'
#!/bin/sh
rank=${PMI_RANK:-${OMPI_COMM_WORLD_RANK:-0}}
sleep "$(awk -v r="$rank" 'BEGIN { print r * 0.3 }')"
exec "$@"
SH
chmod +x "$skew"

plan 19

# Seconds from the log's start to a wall-clock instant (ns since the epoch).
since() { awk -v t="$1" -v s="$2" 'BEGIN { printf "%.6f", (t - s) * 1e-9 }'; }
# near A B TOLERANCE: |A - B| <= TOLERANCE.
near() { awk -v a="$1" -v b="$2" -v d="$3" 'BEGIN { exit !((a - b) <= d && (b - a) <= d) }'; }

# check NAME LOG OUT: the log of a finished 4-rank chain against the program's output.
check() {
	local name=$1 log=$2 out=$3 start parsed k bad=
	parsed=$TEST_TMP/$name.parsed
	"$IOA_CMD" parse "$log" >"$parsed"
	like "$(grep '^# clock:' "$parsed")" '^# clock: base=rank0 uncertainty_ns=[0-9]+ drift_ns=[0-9]+ ranks=4 unmeasured=0$' \
		"$name: the log says its ranks were put on one clock"
	start=$(sed -n 's/^# start_time_ns: //p' "$parsed")
	# The chain's files are read by one rank and written by another: one record each.
	c() { awk -F '\t' -v f="$work/chain.$1" -v c="$2" '$1 == "POSIX" && $6 == f && $4 == c { print $5 }' "$parsed"; }
	truth() { awk -v r="$1" -v f="$2" '$1 == "rank" && $2 == r { for (i = 3; i < NF; i += 2) if ($i == f) print $(i + 1) }' "$out"; }
	for k in 0 1 2; do
		awk -v r="$(c "$k" POSIX_F_READ_START_TIMESTAMP)" -v w="$(c "$k" POSIX_F_WRITE_END_TIMESTAMP)" \
			'BEGIN { exit !(r > 0 && w > 0 && r >= w) }' || bad="$bad chain.$k"
	done
	is "$bad" "" "$name: every read of a chain file after the write it reads"
	bad=
	for k in 0 1 2 3; do
		near "$(c "$k" POSIX_F_WRITE_END_TIMESTAMP)" "$(since "$(truth "$k" write_end_ns)" "$start")" 0.002 ||
			bad="$bad write:$k($(c "$k" POSIX_F_WRITE_END_TIMESTAMP)/$(since "$(truth "$k" write_end_ns)" "$start"))"
		[ "$k" = 0 ] && continue
		near "$(c $((k - 1)) POSIX_F_READ_START_TIMESTAMP)" "$(since "$(truth "$k" read_start_ns)" "$start")" 0.002 ||
			bad="$bad read:$k($(c $((k - 1)) POSIX_F_READ_START_TIMESTAMP)/$(since "$(truth "$k" read_start_ns)" "$start"))"
	done
	is "$bad" "" "$name: each rank's read and write where its own clock readings put them (2 ms)"
	# The trace rebuilds times from binned gaps and durations, each within 3.1%.
	bad=
	for k in 1 2 3; do
		t=$("$IOA_CMD" trace --expand --rank "$k" "$log" |
			awk '$3 == "POSIX" && $4 == "read" { print $8; exit }')
		want=$(since "$(truth "$k" read_start_ns)" "$start")
		near "${t:--1}" "$want" "$(awk -v w="$want" 'BEGIN { print w * 0.031 + 0.002 }')" ||
			bad="$bad rank$k(${t:-none}/$want)"
	done
	is "$bad" "" "$name: the trace puts each rank's read when it happened, within its precision"
	# MPI start-up, which the analyses leave out of the run: until the median rank's
	# MPI_Init returned (the median of 4: the mean of the middle two), within the
	# trace's precision.
	want=$(for k in 0 1 2 3; do since "$(truth "$k" init_end_ns)" "$start"; echo; done | sort -g |
		awk 'NR == 2 || NR == 3 { s += $1 } END { printf "%.6f", s / 2 }')
	"$IOA_CMD" report "$log" --json -o "$TEST_TMP/$name.json"
	t=$(ioa_result "$TEST_TMP/$name.json" insights 'r["mpi_startup"]')
	ok "$name: MPI start-up ends where the ranks' MPI_Init returned ($t s, program: $want s)" \
		near "${t:--1}" "$want" "$(awk -v w="$want" 'BEGIN { print w * 0.031 + 0.003 }')"
}

# run NAME RUNNER PROGRAM: the chain under the runtime, ranks launched apart.
run() {
	local name=$1 runner=$2 program=$3 logs
	work=$TEST_TMP/$name
	mkdir -p "$work"
	logs=$(ioa_logdir)
	"$runner" "$logs" 4 120 "$skew" "$program" "$work" >"$TEST_TMP/$name.out" 2>"$TEST_TMP/$name.err"
	is "$?" 0 "$name: 4 ranks launched 0.3 s apart run the chain under the runtime" ||
		diag "$(cat "$TEST_TMP/$name.err")"
	is "$(grep -c '^rank [0-3] ' "$TEST_TMP/$name.out")" 4 "$name: every rank says when it read and wrote"
	log=$(ioa_only_log "$logs")
	ok "$name: one log" test -n "$log"
	check "$name" "$log" "$TEST_TMP/$name.out"
	# The launch really was staggered: rank 3's MPI_Init began some 0.9 s after
	# rank 0's (less the launcher's own jitter in starting them).
	init() { "$IOA_CMD" trace --expand --rank "$1" "$log" | awk '$3 == "MPI" && $4 == "Init" { print $8; exit }'; }
	ok "$name: rank 3 started at least 0.5 s after rank 0 ($(init 0) s, $(init 3) s)" \
		awk -v a="$(init 0)" -v b="$(init 3)" 'BEGIN { exit !(a != "" && b - a >= 0.5) }' 
}

run mpich ioa_mpi_preload "$IOA_BUILD_DIR/tests/workloads/token-chain"
ok "the chain builds with mpicc.openmpi" mpicc.openmpi -o "$TEST_TMP/token-chain-openmpi" "$src"
run openmpi ioa_ompi_preload "$TEST_TMP/token-chain-openmpi"
