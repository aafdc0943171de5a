# t9001-install-tree — `cmake --install` into a prefix lays out exactly the
# expected tree (GNUInstallDirs), and nothing from the build or the tests
# leaks into it.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
require_cmd cmake

prefix="$TEST_TMP/prefix"
docdir=share/doc/ioatlas

plan 3

ok "cmake --install into a fresh prefix succeeds" \
	run_timeout 120 cmake --install "$IOA_BUILD_DIR" --prefix "$prefix"

# Every page of docs/ is documentation to install, beside the README.
expected=$({
	echo "$docdir/README.md"
	cd "$IOA_SOURCE_DIR/docs" && find . -name '*.md' | sed "s|^\./|$docdir/|"
} | LC_ALL=C sort)
is "$(cd "$prefix" && find . -type f | sed 's|^\./||' | LC_ALL=C sort)" "$expected" \
	"the prefix holds exactly the expected files"
ok "installed files are readable by everyone and not executable" \
	test -z "$(find "$prefix" -type f \( ! -perm -0444 -o -perm /0111 \))"

done_testing
