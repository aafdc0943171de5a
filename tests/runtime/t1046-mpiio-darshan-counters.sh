# t1046-mpiio-darshan-counters — the counters Darshan defines in ways easy
# to get wrong follow Darshan's definitions (checked against Darshan 3.5.0 on
# the same program; the expected values here are worked out from the
# program's pattern, tests/workloads/mpi-io-darshan.c):
# - MPIIO_HINTS counts the opens and set_views given an info other than
#   MPI_INFO_NULL (an empty one too), once each whatever the hints, and not
#   MPI_File_set_info (Darshan 4 for its collective4 log where we said 12);
# - every MPIIO counter of a shared file written strided with collective
#   calls, combined over the ranks (rank -1);
# - a stride counts only when an access starts past the end of the previous
#   one of its direction, not right after it and not first (no stride of 0);
# - a shared file's record keeps the strides (they were lost) and merges
#   the ranks' four most common strides and access sizes by value.
# On MPICH with 4 ranks and Open MPI with 2.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
require_mpi
require_cmd mpicc.mpich
require_cmd mpicc.openmpi
require_cmd mpiexec.openmpi

plan 16

# The four most common strides of merge.dat over N ranks: 100 (3 per rank),
# 200 + R (R + 1 on rank R); by count, then the larger value.
merge_strides() {
	awk -v n="$1" 'BEGIN {
		c[100] = 3 * n
		for (r = 0; r < n; r++) c[200 + r] = r + 1
		for (k = 1; k <= 4; k++) {
			best = ""
			for (v in c) if (best == "" || c[v] > c[best] || (c[v] == c[best] && v + 0 > best + 0)) best = v
			if (best == "") { s[k] = 0; n4[k] = 0 } else { s[k] = best; n4[k] = c[best]; delete c[best] }
		}
		printf "%s %s %s %s / %s %s %s %s", s[1], s[2], s[3], s[4], n4[1], n4[2], n4[3], n4[4]
	}'
}

# check FAMILY RANKS (8 checks).
check() {
	local family=$1 ranks=$2 prog logs work out log parsed n k b amode d
	prog="$TEST_TMP/darshan-$family"
	logs=$(ioa_logdir)
	work=$(mktemp -d "$TEST_TMP/work.XXXXXX")
	"mpicc.$family" -o "$prog" "$IOA_SOURCE_DIR/tests/workloads/mpi-io-darshan.c" || {
		fails "$family: the program builds"
		return
	}
	if [ "$family" = openmpi ]; then
		out=$(ioa_ompi_preload "$logs" "$ranks" 120 "$prog" "$work" 2>"$TEST_TMP/$family.err")
	else
		out=$(ioa_mpi_preload "$logs" "$ranks" 120 "$prog" "$work" 2>"$TEST_TMP/$family.err")
	fi
	is "$?" 0 "$family: the job runs" || diag "$(cat "$TEST_TMP/$family.err")"
	read -r n k b amode <<<"$(sed -n 's/^ranks=\([0-9]*\) blocks=\([0-9]*\) block=\([0-9]*\) amode=\([0-9]*\)$/\1 \2 \3 \4/p' <<<"$out")"
	log=$(ioa_only_log "$logs")
	parsed="$TEST_TMP/$family.parsed"
	"$IOA_CMD" parse "$log" >"$parsed"
	# c MODULE RANK FILE COUNTER...: the counters' values, space-separated.
	c() {
		local m=$1 r=$2 f=$3 name
		shift 3
		for name; do
			awk -F '\t' -v m="$m" -v r="$r" -v f="$work/$f" -v c="$name" \
				'$1 == m && $2 == r && $6 == f && $4 == c { print $5; exit }' "$parsed"
		done | paste -sd ' '
	}

	is "$(c MPI-IO -1 coll.dat MPIIO_COLL_OPENS MPIIO_INDEP_OPENS MPIIO_HINTS MPIIO_VIEWS \
		MPIIO_MODE MPIIO_SYNCS)" "$n 0 $n 0 $amode $n" \
		"$family: coll.dat: collective opens, hints (one per open with an info), views, mode, syncs"
	is "$(c MPI-IO -1 coll.dat MPIIO_COLL_WRITES MPIIO_INDEP_WRITES MPIIO_COLL_READS \
		MPIIO_INDEP_READS MPIIO_BYTES_WRITTEN MPIIO_BYTES_READ MPIIO_RW_SWITCHES \
		MPIIO_SIZE_WRITE_AGG_1K_10K MPIIO_SIZE_READ_AGG_1K_10K MPIIO_MAX_WRITE_TIME_SIZE \
		MPIIO_MAX_READ_TIME_SIZE)" \
		"$((n * k)) 0 $((2 * n)) $((4 * n)) $((n * k * b)) $((6 * n * b)) $n $((n * k)) $((6 * n)) $b $b" \
		"$family: coll.dat: calls, bytes, switches, size bins and slowest sizes over the ranks"
	is "$(c MPI-IO -1 coll.dat MPIIO_ACCESS1_ACCESS MPIIO_ACCESS1_COUNT MPIIO_ACCESS2_COUNT)" \
		"$b $((n * (k + 6))) 0" "$family: coll.dat: the common access size, over the ranks"
	d=""
	for ((r = 0; r < n; r++)); do
		d="$d$(c MPI-IO "$r" "hints-null.$r" MPIIO_HINTS) $(c MPI-IO "$r" "hints-empty.$r" MPIIO_HINTS) $(
			c MPI-IO "$r" "hints-view.$r" MPIIO_HINTS MPIIO_VIEWS);"
	done
	is "$d" "$(for ((r = 0; r < n; r++)); do printf '0 1 1 2;'; done)" \
		"$family: MPI_INFO_NULL counts no hint, an empty info one, set_info none, set_view's info one"
	is "$(c POSIX -1 strided.dat POSIX_STRIDE1_STRIDE POSIX_STRIDE1_COUNT POSIX_STRIDE2_COUNT \
		POSIX_ACCESS1_ACCESS POSIX_ACCESS1_COUNT)" \
		"$(((n - 1) * b)) $((n * (k - 1))) 0 $b $((n * (k + 1)))" \
		"$family: strided.dat (rank -1) keeps its stride, counted over the ranks, and no 0 stride"
	is "$(c POSIX -1 merge.dat POSIX_STRIDE1_STRIDE POSIX_STRIDE2_STRIDE POSIX_STRIDE3_STRIDE \
		POSIX_STRIDE4_STRIDE) / $(c POSIX -1 merge.dat POSIX_STRIDE1_COUNT POSIX_STRIDE2_COUNT \
		POSIX_STRIDE3_COUNT POSIX_STRIDE4_COUNT)" "$(merge_strides "$n")" \
		"$family: merge.dat: the ranks' strides merge by value into the four most common"
	d=""
	for ((r = 0; r < n; r++)); do
		d="$d$(c POSIX "$r" "seq.$r" POSIX_STRIDE1_COUNT POSIX_STRIDE2_COUNT) / $(c POSIX "$r" \
			"gaps.$r" POSIX_STRIDE1_STRIDE POSIX_STRIDE1_COUNT POSIX_STRIDE2_STRIDE \
			POSIX_STRIDE2_COUNT POSIX_STRIDE3_STRIDE POSIX_STRIDE3_COUNT POSIX_STRIDE4_COUNT);"
	done
	is "$d" "$(for ((r = 0; r < n; r++)); do printf '0 0 / 20 2 85 1 10 1 0;'; done)" \
		"$family: sequential I/O has no stride; a backward access none; gaps 10, 20, 85, 20 do"
}

check mpich 4
check openmpi 2
