# t9001-install-tree — `cmake --install` into a prefix lays out exactly the
# expected tree (GNUInstallDirs), nothing from the build or the tests leaks
# into it, and the installed pieces work from there: the command finds its
# verbs, ioatlas-config and pkg-config point into the prefix.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
require_cmd cmake pkg-config

prefix="$TEST_TMP/prefix"
docdir=share/doc/ioatlas
libdir=$(sed -n 's/^CMAKE_INSTALL_LIBDIR:PATH=//p' "$IOA_BUILD_DIR/CMakeCache.txt")
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$IOA_BUILD_DIR/CMakeCache.txt")

plan 11

ok "cmake --install into a fresh prefix succeeds" \
	run_timeout 120 cmake --install "$IOA_BUILD_DIR" --prefix "$prefix"

programs="bin/ioatlas
bin/ioatlas-config
libexec/ioatlas/ioatlas-analyze
libexec/ioatlas/ioatlas-dashboard
libexec/ioatlas/ioatlas-diff
libexec/ioatlas/ioatlas-export
libexec/ioatlas/ioatlas-history
libexec/ioatlas/ioatlas-ingest
libexec/ioatlas/ioatlas-jobs
libexec/ioatlas/ioatlas-kernel
libexec/ioatlas/ioatlas-nightly
libexec/ioatlas/ioatlas-parse
libexec/ioatlas/ioatlas-recover
libexec/ioatlas/ioatlas-report
libexec/ioatlas/ioatlas-setup-logdir
libexec/ioatlas/ioatlas-trace
libexec/ioatlas/ioatlas-warehouse
libexec/ioatlas/own-logs
sbin/ioatlasd
share/ioatlas/slurm/ioatlas-epilog"
# Every page of docs/ is documentation to install, beside the README.
expected=$({
	echo "$programs"
	echo "$libdir/libioatlas.a"
	echo "$libdir/libioatlas.so"
	echo "$libdir/pkgconfig/ioatlas.pc"
	echo "share/lmod/modulefiles/ioatlas/$version.lua"
	echo "share/modulefiles/ioatlas/$version"
	echo "share/ioatlas/ioatlasd.service"
	echo "share/ioatlas/ioatlasd.cron"
	echo "share/ioatlas/ioatlas-nightly.service"
	echo "share/ioatlas/ioatlas-nightly.timer"
	echo "share/ioatlas/ioatlas-setup-logdir.service"
	echo "share/ioatlas/ioatlas-setup-logdir.timer"
	echo "share/ioatlas/ioatlas.conf"
	echo "share/ioatlas/site-default/StdEnv.lua"
	echo "share/ioatlas/site-default/lmod-z00-StdEnv.sh"
	echo "share/ioatlas/site-default/environment-modules-initrc"
	echo "share/man/man1/ioatlas.1"
	echo "share/man/man5/ioatlas.conf.5"
	echo "share/man/man8/ioatlasd.8"
	echo "$docdir/README.md"
	cd "$IOA_SOURCE_DIR/docs" && find . -name '*.md' | sed "s|^\\./|$docdir/|"
} | LC_ALL=C sort)
is "$(cd "$prefix" && find . -type f | sed 's|^\./||' | LC_ALL=C sort)" "$expected" \
	"the prefix holds exactly the expected files"

# (The Slurm epilog is a program that lives with the site's data, where slurm.conf names it.)
not_executable=$(cd "$prefix" && find share "$libdir" -type f ! -name '*.so' \
	! -path share/ioatlas/slurm/ioatlas-epilog -perm /0111)
is "$not_executable" "" "documentation and data are not executable"
unreadable=$(cd "$prefix" && find . -type f ! -perm -0444)
is "$unreadable" "" "everything is readable by everyone"
for p in $programs; do
	[ -x "$prefix/$p" ] || missing_x="$missing_x $p"
done
is "${missing_x:-}" "" "programs are executable"

like "$("$prefix/bin/ioatlas" --help 2>&1)" '^   parse$' "the installed command finds its verbs"
fails "an unknown verb is refused" "$prefix/bin/ioatlas" frobnicate
like "$(cat "$TEST_TMP/last.out")" "^ioatlas: 'frobnicate' is not an ioatlas verb; see 'ioatlas --help'$" \
	"with a message that says what to do"
is "$("$prefix/bin/ioatlas-config" --preload)" "$prefix/$libdir/libioatlas.so" \
	"ioatlas-config points into the prefix"
pc_libs=$(PKG_CONFIG_PATH="$prefix/$libdir/pkgconfig" pkg-config --libs ioatlas)
pc_libdir=$(printf '%s\n' $pc_libs | sed -n 's#/libioatlas\.a$##p')
is "$(cd "$pc_libdir" 2>/dev/null && pwd -P)" "$(cd "$prefix/$libdir" && pwd -P)" \
	"pkg-config's libioatlas.a is the prefix's"
like "$pc_libs" "--wrap=fwrite" "including the STDIO calls"

done_testing
