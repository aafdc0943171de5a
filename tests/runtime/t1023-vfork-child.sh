# t1023-vfork-child — a vfork child shares the parent's memory: its dup2,
# close and open must not change the parent's records (the runtime does not
# record in it), and neither must posix_spawn's file actions.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"

ops="$IOA_BUILD_DIR/tests/runtime/harm-ops"
work="$TEST_TMP/work"
mkdir -p "$work"

plan 7

# Only the program itself writes a log, not the programs its children exec.
only_me() { IOATLAS_NONMPI=0 IOATLAS_NONMPI_EXES=harm-ops "$@"; }

logs=$(ioa_logdir)
ok "vfork children and posix_spawn run unchanged" only_me ioa_preload "$logs" "$ops" vfork "$work"
log=$(ioa_only_log "$logs")
is "$(ioa_counter "$log" POSIX 0 "$work/parent" POSIX_WRITES)" 4 \
	"the parent's writes to DIR/parent land on its record, whatever its children dup2'ed"
is "$(ioa_counter "$log" POSIX 0 "$work/other" POSIX_WRITES)" 4 \
	"and its writes to DIR/other are all counted, whatever its children closed"
is "$(ioa_counter "$log" POSIX 0 "$work/parent" POSIX_BYTES_WRITTEN)" 400 "bytes on DIR/parent"
is "$(ioa_counter "$log" POSIX 0 "$work/parent" POSIX_DUPS):$(ioa_counter "$log" POSIX 0 "$work/other" POSIX_DUPS)" \
	0:0 "the children's dup2s are not the parent's"
is "$(ioa_counter "$log" POSIX 0 "$work/child" POSIX_OPENS)" "" \
	"the vfork child's open is not recorded"
is "$(ioa_counter "$log" POSIX 0 "$work/parent" POSIX_OPENS):$(ioa_counter "$log" POSIX 0 "$work/other" POSIX_OPENS)" \
	1:1 "each of the parent's files opened once"

done_testing
