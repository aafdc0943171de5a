# t9004-debian-package — the Debian packages build with the standard tools
# (packaging/build-deb: dpkg-buildpackage, debhelper) and install with apt
# into a clean Debian 12 root made by debootstrap, where the installed
# runtime works: the real Environment Modules (Tcl) find the packaged
# modulefile, an MPI job started after `module load ioatlas` leaves a log
# the packaged tools read, opting out leaves none, the site-wide default
# (conf/site-default/) turns it on at login; the collector's account, the
# site file and the manual pages are in place; purge removes it all.
#
# Needs Debian's package archive (IOATLAS_DEBIAN_MIRROR, default
# http://deb.debian.org/debian) and root (chroot, mounts).
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
[ "$(id -u)" = 0 ] || skip_all "debootstrap and chroot need root"
require_cmd debootstrap
require_cmd dpkg-buildpackage
require_cmd mpicc.mpich

mirror=${IOATLAS_DEBIAN_MIRROR:-http://deb.debian.org/debian}
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$IOA_BUILD_DIR/CMakeCache.txt")
root="$TEST_TMP/root"
debs="$TEST_TMP/debs"

# The root's mounts go before the folder does; a mount left behind keeps
# the folder (and fails the test) rather than deleting through it.
unmount_root() {
	local m
	for m in dev/shm sys proc; do
		! mountpoint -q "$root/$m" || umount -l "$root/$m"
	done
	if findmnt -rno TARGET | grep -q "^$root/"; then
		echo "# mounts left under $root: kept" >&2
		IOATLAS_TEST_KEEP=1
	fi
}
at_exit unmount_root

# in_root [-l] COMMAND: a shell command in the root, under a timeout
# ($root_timeout); -l through a login shell, which reads /etc/profile.d.
root_timeout=300
in_root() {
	local login=
	[ "$1" != -l ] || { login=l; shift; }
	timeout --kill-after=10 "$root_timeout" chroot "$root" /usr/bin/env -i HOME=/root \
		PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 TERM=dumb /bin/bash -${login}c "$*"
}

plan 28

ok "packaging/build-deb builds the packages" \
	run_timeout 900 "$IOA_SOURCE_DIR/packaging/build-deb" --out "$debs" -j 2
for p in ioatlas-runtime ioatlas-dev ioatlas-tools ioatlas-collector; do
	[ -f "$debs/${p}_${version}_$(dpkg --print-architecture).deb" ] || missing="${missing:-} $p"
done
[ -f "$debs/ioatlas-doc_${version}_all.deb" ] || missing="${missing:-} ioatlas-doc"
is "${missing:-none}" "none" "runtime, dev, tools, collector and doc packages, version $version"
is "$(dpkg-deb -f "$debs/ioatlas-runtime_${version}_"*.deb Depends | grep -c -i 'mpi\|libpq\|curl')" 0 \
	"the runtime package pulls in no MPI, libpq or libcurl"

ok "debootstrap makes a clean Debian 12 root" \
	run_timeout 900 debootstrap --variant=minbase bookworm "$root" "$mirror"
cp /etc/resolv.conf "$root/etc/resolv.conf"
mount -t proc proc "$root/proc"
mount -t sysfs -o ro sysfs "$root/sys"
mount -t tmpfs -o size=64m shm "$root/dev/shm"
mkdir -p "$root/tmp/debs"
cp "$debs"/*.deb "$root/tmp/debs/"
# A small MPI program, built here against MPICH, run there against its own.
mpicc.mpich -O1 -o "$root/usr/local/bin/mpi-io" "$IOA_SOURCE_DIR/tests/workloads/mpi-io.c"

root_timeout=900
ok "apt installs the packages there with their dependencies" \
	in_root "apt-get update -q && DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -q --no-install-recommends mpich environment-modules \
		/tmp/debs/ioatlas-{runtime,dev,tools,collector}_*.deb /tmp/debs/ioatlas-doc_*.deb"
is "$(in_root ioatlas --version)" "ioatlas $version" "the installed ioatlas runs"
like "$(in_root ioatlas --help | tr '\n' ' ')" "analyze.*dashboard.*ingest.*kernel.*nightly.*parse.*report.*setup-logdir.*trace.*warehouse" \
	"with every verb of the tools and the collector"
root_timeout=120
like "$(in_root ioatlasd --help)" "usage: ioatlasd" "ioatlasd is installed"
like "$(in_root getent passwd ioatlas)" "^ioatlas:.*:/var/lib/ioatlas:" \
	"the collector's system account is made"
like "$(in_root "dpkg-query -W -f='\${Conffiles}' ioatlas-runtime")" "/etc/ioatlas/ioatlas.conf" \
	"/etc/ioatlas/ioatlas.conf is the runtime package's conffile"
ok "the manual pages are there" \
	test -f "$root/usr/share/man/man1/ioatlas.1.gz" -a -f "$root/usr/share/man/man5/ioatlas.conf.5.gz" \
	-a -f "$root/usr/share/man/man8/ioatlasd.8.gz"
ok "the units are installed, not enabled" \
	test -f "$root/lib/systemd/system/ioatlasd.service" -a ! -e \
	"$root/etc/systemd/system/multi-user.target.wants/ioatlasd.service"
is "$(in_root ioatlas-config --preload)" "/usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH)/libioatlas.so" \
	"ioatlas-config names the packaged runtime"
ok "setup-logdir makes today's folder for the collector" \
	in_root ioatlas setup-logdir --days 1 --owner ioatlas --group ioatlas

today=/var/log/ioatlas/$(date -u +%Y/%m/%d)
count_logs() { find "$root$today" -name '*.ioa' | wc -l; }
mkdir -p "$root/tmp/w"
job='mpiexec.mpich -n 2 /usr/local/bin/mpi-io shared /tmp/w'
modules='. /usr/share/modules/init/bash'

out=$(in_root "$modules; module load ioatlas && echo \"\$LD_PRELOAD|\$IOATLAS_LOGDIR\"")
is "$out" "/usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH)/libioatlas.so|/var/log/ioatlas" \
	"Environment Modules load the packaged modulefile from their default path"
like "$(in_root "$modules; module help ioatlas 2>&1")" "IOATLAS_DISABLE=1" "module help says how to opt out"
like "$(in_root "$modules; module whatis ioatlas 2>&1")" "I/O characterization" "module whatis describes it"
ok "an MPI job after module load runs" in_root "$modules; module load ioatlas && $job"
is "$(count_logs)" 1 "and leaves one log"
log=$(find "$root$today" -name '*.ioa' | sed "s|^$root||")
out=$(in_root ioatlas parse --total "$log")
like "$out" "total_MPIIO_BYTES_WRITTEN: 8192" "the packaged tools read it: 2 ranks x 4 KiB through MPI-IO"

in_root "$modules; module load ioatlas && IOATLAS_DISABLE=1 $job"
is "$(count_logs)" 1 "IOATLAS_DISABLE=1 opts a job out"
in_root "$modules; module load ioatlas && module unload ioatlas && $job"
is "$(count_logs)" 1 "module unload opts a job out"

# The site-wide default: every login shell loads ioatlas.
cp "$IOA_SOURCE_DIR/conf/site-default/environment-modules-initrc" "$root/tmp/initrc"
in_root 'cat /tmp/initrc >>/etc/environment-modules/initrc'
like "$(in_root -l 'echo "$LOADEDMODULES|$LD_PRELOAD"')" "ioatlas/$version\\|.*libioatlas.so" \
	"with the site-wide recipe, a login shell has ioatlas loaded"
ok "and its MPI job runs" in_root -l "$job"
is "$(count_logs)" 2 "and leaves a log without any module command"

root_timeout=300
ok "apt purges the packages" \
	in_root "DEBIAN_FRONTEND=noninteractive apt-get purge -y -q \
		ioatlas-runtime ioatlas-dev ioatlas-tools ioatlas-collector ioatlas-doc"
left=$(find "$root/usr" "$root/etc/ioatlas" "$root/lib/systemd" -name '*ioatlas*' 2>/dev/null |
	grep -v "^$root/var/log" | sed "s|^$root||")
is "${left:-nothing}" "nothing" "and nothing of theirs is left"
is "$(count_logs)" 2 "the logs stay"

done_testing
