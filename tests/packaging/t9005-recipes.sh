# t9005-recipes — the RPM spec and the Spack recipe: the spec parses with
# rpmspec and builds with rpmbuild from the release tarball (packaging/dist)
# with nothing installed left out of its packages (here on Debian, the
# build requirements unchecked); the Spack recipe is checked for what Spack
# reads from it (tests/packaging/spack-check.py: Spack is not packaged for
# Debian).  The versions of all recipes are the project's.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
require_cmd rpmspec
require_cmd rpmbuild
require_cmd mpicc.mpich
require_cmd mpicc.openmpi

spec="$IOA_SOURCE_DIR/packaging/rpm/ioatlas.spec"
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$IOA_BUILD_DIR/CMakeCache.txt")
top="$TEST_TMP/rpm"
mkdir -p "$top/SOURCES" "$top/mpich"
# Where the spec expects MPICH on RHEL (%{_libdir}/mpich/bin), Debian's.
ln -s "$(command -v mpicc.mpich)" "$top/mpich/mpicc"
ln -s "$(command -v mpiexec.mpich)" "$top/mpich/mpiexec"

plan 13

ok "rpmspec parses the spec" rpmspec --parse "$spec"
is "$(rpmspec -q --srpm --qf '%{version}' "$spec" 2>/dev/null)" "$version" "the spec's version is the project's"
is "$(dpkg-parsechangelog -l "$IOA_SOURCE_DIR/packaging/debian/changelog" -S Version)" "$version" \
	"the Debian changelog's too"
ok "packaging/dist makes the release tarball" "$IOA_SOURCE_DIR/packaging/dist" --out "$top/SOURCES"
ok "rpmbuild builds the packages from it, every installed file packaged" \
	run_timeout 900 rpmbuild -bb --nodeps --define "_topdir $top" \
	--define "_unitdir /usr/lib/systemd/system" --define "mpich_bin $top/mpich" \
	--define "openmpi_include $(mpicc.openmpi --showme:incdirs | cut -d' ' -f1)" "$spec"
arch=$(rpm --eval '%{_arch}')
rpms=$(cd "$top/RPMS" 2>/dev/null && find . -name '*.rpm' -printf '%f\n' | sort | tr '\n' ' ')
is "$rpms" "ioatlas-$version-1.$arch.rpm ioatlas-collector-$version-1.$arch.rpm ioatlas-devel-$version-1.$arch.rpm ioatlas-doc-$version-1.noarch.rpm ioatlas-tools-$version-1.$arch.rpm " \
	"runtime, collector, devel, doc and tools packages"
rpm_files() { rpm -qlp "$top/RPMS/$1" 2>/dev/null | tr '\n' ' '; }
like "$(rpm_files "$arch/ioatlas-$version-1.$arch.rpm")" "libioatlas.so .*/modulefiles/ioatlas" \
	"the runtime package holds the library and the modulefiles"
is "$(rpm -qcp "$top/RPMS/$arch/ioatlas-$version-1.$arch.rpm" 2>/dev/null)" "/etc/ioatlas/ioatlas.conf" \
	"and the site file, as a configuration file"
like "$(rpm_files "$arch/ioatlas-collector-$version-1.$arch.rpm")" "ioatlasd.service .*/usr/sbin/ioatlasd" \
	"the collector package holds the daemon and its units"
like "$(rpm -qp --scripts "$top/RPMS/$arch/ioatlas-collector-$version-1.$arch.rpm" 2>/dev/null)" \
	"useradd -r -g ioatlas" "and makes its system account"
is "$(rpm -qp --requires "$top/RPMS/$arch/ioatlas-$version-1.$arch.rpm" 2>/dev/null | grep -c -i 'mpi\|libpq\|curl')" 0 \
	"the runtime package needs no MPI, libpq or libcurl"

ok "the Spack recipe compiles and maps its variants onto the CMake options" \
	python3 "$IOA_SOURCE_DIR/tests/packaging/spack-check.py" \
	"$IOA_SOURCE_DIR/packaging/spack/packages/ioatlas/package.py" "$IOA_SOURCE_DIR/CMakeLists.txt"
sed 's/IOATLAS_WITH_CURL/IOATLAS_WITH_KURL/' "$IOA_SOURCE_DIR/packaging/spack/packages/ioatlas/package.py" \
	>"$TEST_TMP/package.py"
fails "and the check catches a variant mapped onto no option" \
	python3 "$IOA_SOURCE_DIR/tests/packaging/spack-check.py" "$TEST_TMP/package.py" \
	"$IOA_SOURCE_DIR/CMakeLists.txt"

done_testing
