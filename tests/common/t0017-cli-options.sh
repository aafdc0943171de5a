# t0017-cli-options — the verbs read their arguments by one
# convention (common/ioa_opts.h, ioatlas(1) EXIT STATUS): a long option's
# value joined (--rank=0) or apart (--rank 0), short options bundled
# (-ej) or with their value joined (-r0), options after the operand, each
# giving the same output as the spelled-out form; --help and -h print the
# usage on stdout with status 0; an unknown option, a value missing or one
# given to an option that takes none is named on stderr with the usage,
# status 2; a log that cannot be read is status 1.  The front command
# stops at the verb: the verb's own options pass through.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"

bin="$IOA_BUILD_DIR/bin/ioatlas"
log="$IOA_SOURCE_DIR/tests/fuzz/corpus/seed-7.ioa"
export IOATLAS_CONF=/dev/null

plan 34

# alike DESCRIPTION "ARGS A" "ARGS B": both spellings print the same (and something).
alike() {
	local a b
	a=$(eval "\"\$bin\" $2" 2>&1)
	b=$(eval "\"\$bin\" $3" 2>&1)
	ok "$1" test -n "$a" -a "$a" = "$b"
}

alike "trace: --rank=0 is --rank 0" "trace --expand --rank=0 '$log'" "trace --expand --rank 0 '$log'"
alike "trace: -r0 is --rank 0" "trace --expand -r0 '$log'" "trace --expand --rank 0 '$log'"
alike "trace: -ej (bundled) is --expand --json" "trace -ej '$log'" "trace --expand --json '$log'"
alike "trace: options after the log" "trace '$log' --expand --max-calls=2000" \
	"trace --expand --max-calls 2000 '$log'"
alike "trace: a unique prefix (--exp) is its option" "trace --exp '$log'" "trace --expand '$log'"
alike "parse: -tp is --total --perf" "parse -tp '$log'" "parse --total --perf '$log'"
alike "parse: -a is --all" "parse -a '$log'" "parse --all '$log'"
alike "report: -jo - (bundled, value apart) is --json --output=-" "report -jo - '$log'" \
	"report --json --output=- '$log'"

for verb in parse trace setup-logdir report dashboard analyze nightly warehouse ingest export recover kernel; do
	out=$("$bin" "$verb" --help 2>/dev/null)
	st=$?
	ok "$verb: --help prints the usage on stdout, status 0" \
		test "$st" = 0 -a "${out#usage: ioatlas $verb}" != "$out"
done
is "$("$bin" trace -h 2>/dev/null | head -n 1 | cut -c1-20)" "usage: ioatlas trace" "-h too"

# fails_with STATUS TEXT DESCRIPTION ARGS...: the status and the message on stderr.
fails_with() {
	local want=$1 text=$2 what=$3 err st
	shift 3
	err=$("$bin" "$@" 2>&1 >/dev/null)
	st=$?
	ok "$what (status $st: $(echo "$err" | head -n 1))" \
		eval 'test "$st" = "$want" && printf "%s\n" "$err" | grep -q -- "$text"'
}
fails_with 2 "unknown option '--bogus'" "trace: an unknown long option" trace --bogus "$log"
fails_with 2 "unknown option '-x'" "parse: an unknown short option in a bundle" parse -tx "$log"
fails_with 2 "option '--rank' needs a value" "trace: a missing value" trace "$log" --rank
fails_with 2 "option '-d' needs a value" "setup-logdir: a missing short value" setup-logdir -d
fails_with 2 "option '--json' takes no value" "parse: a value to a flag" parse --json=1 "$log"
fails_with 2 "usage: ioatlas trace" "trace: no log is a usage error" trace
fails_with 1 "cannot read log" "trace: a log that is not one fails" trace "$IOA_SOURCE_DIR/README.md"
fails_with 2 "unknown option '-x'" "the front command: an unknown option before the verb" -x parse
fails_with 2 "option '--days' needs a value" "recover: a missing value" recover --days
fails_with 2 "unknown option '--bogus'" "kernel gen: an unknown option" kernel gen --bogus "$log"
fails_with 2 "only push anonymizes" "kernel pull: an option of push's" kernel pull x --from file:///x --anonymize

is "$("$bin" -V)" "$("$bin" --version)" "-V is --version"
like "$("$bin" --version)" "^ioatlas [0-9]" "which says the version"
done_testing
