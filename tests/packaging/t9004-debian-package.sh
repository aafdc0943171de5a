# t9004-debian-package — the Debian packages build with the standard tools
# (packaging/build-deb: dpkg-buildpackage, debhelper) and install with apt
# into a clean Debian 12 root made by debootstrap, where the installed
# runtime works: the real Environment Modules (Tcl) find the packaged
# modulefile, a user's MPI job started after `module load ioatlas` leaves a
# log the packaged tools read, opting out leaves none, the site-wide
# default (conf/site-default/) turns it on at login; the collector's
# account, the site file and the manual pages are in place.  Then the
# admin's day of docs/admin.md, step by step: a PostgreSQL warehouse, the
# collector ingesting the users' logs, the first nightly batch with its
# analyses, kernels and dashboard.  Purge removes the packages.
#
# Needs Debian's package archive (IOATLAS_DEBIAN_MIRROR, default
# http://deb.debian.org/debian) and root (chroot, mounts).
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/debroot-lib.sh"
[ "$(id -u)" = 0 ] || skip_all "debootstrap and chroot need root"
require_cmd debootstrap
require_cmd dpkg-buildpackage
require_cmd mpicc.mpich

mirror=${IOATLAS_DEBIAN_MIRROR:-http://deb.debian.org/debian}
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$IOA_BUILD_DIR/CMakeCache.txt")
root="$TEST_TMP/root"
debs="$TEST_TMP/debs"

# The root's processes (PostgreSQL, a collector) and mounts go before the
# folder does; a mount left behind keeps the folder (and fails the test)
# rather than deleting through it.
at_exit 'debroot_release || exit 1'
root_timeout=300

plan 50

ok "packaging/build-deb builds the packages" \
	run_timeout 900 "$IOA_SOURCE_DIR/packaging/build-deb" --out "$debs" -j 2
for p in ioatlas-runtime ioatlas-dev ioatlas-tools ioatlas-collector; do
	[ -f "$debs/${p}_${version}_$(dpkg --print-architecture).deb" ] || missing="${missing:-} $p"
done
[ -f "$debs/ioatlas-doc_${version}_all.deb" ] || missing="${missing:-} ioatlas-doc"
is "${missing:-none}" "none" "runtime, dev, tools, collector and doc packages, version $version"
is "$(dpkg-deb -f "$debs/ioatlas-runtime_${version}_"*.deb Depends | grep -c -i 'mpi\|libpq\|curl')" 0 \
	"the runtime package pulls in no MPI, libpq or libcurl"

# Services are started by the test, not by their packages' scripts.
ok "debootstrap makes a clean Debian 12 root" \
	debroot_make "$mirror" "$TEST_TMP/debootstrap.log"
mkdir -p "$root/tmp/debs"
cp "$debs"/*.deb "$root/tmp/debs/"
# A small MPI program, built here against MPICH, run there against its own.
mpicc.mpich -O1 -o "$root/usr/local/bin/mpi-io" "$IOA_SOURCE_DIR/tests/workloads/mpi-io.c"

# What a login node's install pulls in, recommends and all (apt's default):
# the runtime and the user tools into the clean root, answered no.
root_timeout=900
sim=$(in_root "apt-get update -q >/dev/null && apt-get install --assume-no \
	-o APT::Install-Recommends=true /tmp/debs/ioatlas-runtime_*.deb \
	/tmp/debs/ioatlas-tools_*.deb 2>&1")
pulled=$(sed -n 's/^[0-9]* upgraded, \([0-9]*\) newly installed.*/\1/p' <<<"$sim")
disk=$(sed -n 's/^After this operation, \(.*\) of additional disk space.*/\1/p' <<<"$sim")
ok "a user's install with recommends stays small: $pulled packages, $disk (154 / 611 MB before)" \
	test "${pulled:-999}" -le 60

# docs/admin.md 1: install (the tools' recommended MPICH, to build kernels).
ok "apt installs the packages there with their dependencies" \
	in_root "apt-get update -q && DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -q --no-install-recommends environment-modules postgresql \
		mpich libmpich-dev make \
		/tmp/debs/ioatlas-{runtime,dev,tools,collector}_*.deb /tmp/debs/ioatlas-doc_*.deb"
root_timeout=120
is "$(in_root ioatlas --version)" "ioatlas $version" "the installed ioatlas runs"
like "$(in_root ioatlas --help | tr '\n' ' ')" "analyze.*dashboard.*ingest.*kernel.*nightly.*parse.*report.*setup-logdir.*trace.*warehouse" \
	"with every verb of the tools and the collector"
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
ok "the log tree's daily unit and timer too" \
	test -f "$root/lib/systemd/system/ioatlas-setup-logdir.service" -a \
	-f "$root/lib/systemd/system/ioatlas-setup-logdir.timer" -a ! -e \
	"$root/etc/systemd/system/timers.target.wants/ioatlas-setup-logdir.timer"
is "$(dpkg-deb -f "$debs/ioatlas-tools_${version}_"*.deb Recommends | grep -c -i 'mpi\|make')" 0 \
	"the tools recommend no MPI or build tools (the collector, which builds kernels, does)"
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
is "$(in_root ioatlas-config --preload)" "/usr/lib/$multiarch/libioatlas.so" \
	"ioatlas-config names the packaged runtime"

# docs/admin.md 2: the site file and the log tree.
in_root 'printf "log_group = ioatlas\n" >>/etc/ioatlas/ioatlas.conf'
ok "setup-logdir makes the coming days' folders for the collector" \
	in_root ioatlas setup-logdir --days 7 --owner ioatlas --group ioatlas
today=/var/log/ioatlas/$(date -u +%Y/%m/%d)
is "$(in_root stat -c "'%a %U %G'" "$today")" "3773 ioatlas ioatlas" "mode 3773, the collector's"

# docs/admin.md 3: on for every job; a user, alice, runs them.
in_root 'useradd -m alice && runuser -u alice -- mkdir /home/alice/w'
count_logs() { find "$root$today" -name '*.ioa' | wc -l; }
job='mpiexec.mpich -n 2 /usr/local/bin/mpi-io shared /home/alice/w'
modules='. /usr/share/modules/init/bash'

out=$(in_root -u alice "$modules; module load ioatlas && echo \"\$LD_PRELOAD|\${IOATLAS_LOGDIR-unset}\"")
is "$out" "/usr/lib/$multiarch/libioatlas.so|unset" \
	"Environment Modules load the packaged modulefile from their default path (the logdir is the site file's)"
like "$(in_root -u alice "$modules; module help ioatlas 2>&1")" "IOATLAS_DISABLE=1" "module help says how to opt out"
like "$(in_root -u alice "$modules; module whatis ioatlas 2>&1")" "I/O characterization" "module whatis describes it"
ok "a user's MPI job after module load runs" in_root -u alice "$modules; module load ioatlas && $job"
is "$(count_logs)" 1 "and leaves one log"
log=$(find "$root$today" -name '*.ioa' | sed "s|^$root||")
is "$(in_root stat -c "'%a %U %G'" "$log")" "440 alice ioatlas" "the user's, readable by the collector's group"
like "$(in_root -u alice ioatlas parse --total "$log")" "total_MPIIO_BYTES_WRITTEN: 8192" \
	"the packaged tools read it: 2 ranks x 4 KiB through MPI-IO"
in_root -u alice "$modules; module load ioatlas && IOATLAS_DISABLE=1 $job"
is "$(count_logs)" 1 "IOATLAS_DISABLE=1 opts a job out"
in_root -u alice "$modules; module load ioatlas && module unload ioatlas && $job"
is "$(count_logs)" 1 "module unload opts a job out"

cp "$root/usr/share/ioatlas/site-default/environment-modules-initrc" "$root/tmp/initrc"
in_root 'cat /tmp/initrc >>/etc/environment-modules/initrc'
like "$(in_root -u alice -l 'echo "$LOADEDMODULES|$LD_PRELOAD"' 2>/dev/null)" \
	"ioatlas/$version\\|.*libioatlas.so" "with the site-wide recipe, a login shell has ioatlas loaded"
ok "and its MPI job runs" in_root -u alice -l "$job"
is "$(count_logs)" 2 "and leaves a log without any module command"

# docs/admin.md 4: the warehouse, on a socket only (the host may have a
# PostgreSQL on the usual port).
in_root "sed -i \"s/^#listen_addresses = .*/listen_addresses = ''/\" /etc/postgresql/*/main/postgresql.conf"
ok "PostgreSQL starts in the root" in_root 'pg_ctlcluster "$(ls /etc/postgresql)" main start'
ok "createdb, ioatlas warehouse migrate and the collector's role, as postgres" \
	in_root -u postgres "createdb ioatlas && \
		IOATLAS_WAREHOUSE_CONNINFO=dbname=ioatlas ioatlas warehouse migrate && \
		psql -q -d ioatlas -c 'CREATE ROLE ioatlas LOGIN BYPASSRLS IN ROLE ioatlas_ingest, ioatlas_reader'"
in_root 'printf "warehouse.conninfo = dbname=ioatlas\n" >>/etc/ioatlas/ioatlas.conf'
like "$(in_root -u ioatlas ioatlas warehouse status)" "warehouse schema: [1-9]" \
	"the collector's account reaches the warehouse"

# docs/admin.md 5: the collector, as its unit runs it.
in_root -u ioatlas 'exec /usr/sbin/ioatlasd' >"$TEST_TMP/ioatlasd.out" 2>&1 &
for _ in $(seq 60); do
	status=$(in_root -u ioatlas ioatlas ingest --status 2>&1)
	case $status in *"backlog 0"*) break ;; esac
	sleep 1
done
like "$status" "log tree /var/log/ioatlas: 2 logs, backlog 0" "ioatlasd ingests the users' logs"
like "$(echo "$status" | tr '\n' ' ')" "ingested: *2" "both, none quarantined"
pkill -TERM -f "^/usr/sbin/ioatlasd" || true

# docs/admin.md 6 and 7: the nightly batch, run now, as its unit runs it.
in_root 'printf "nightly.dashboard_out = /var/www/ioatlas\nkernel.repository = /srv/ioatlas/kernels\nkernel.repository_url = https://hpc.example.org/ioatlas/kernels\n" >>/etc/ioatlas/ioatlas.conf &&
	install -d -o ioatlas -g ioatlas /var/www/ioatlas /srv/ioatlas/kernels'
root_timeout=600
ok "the first nightly batch runs every step" in_root -u ioatlas ioatlas nightly
root_timeout=120
like "$(cat "$TEST_TMP/last.out")" "all steps done" "and says so"
ok "the dashboard is written" test -s "$root/var/www/ioatlas/index.html"
ok "with alice's job reports" test -n "$(find "$root/var/www/ioatlas/users/alice" -name '*.html')"
# docs/reports.md, Your jobs: alice by peer authentication, her role made by the nightly.
jobs=$(in_root -u alice 'ioatlas jobs --json' 2>&1)
like "$jobs" '"source":"warehouse".*"user":"alice"' "alice's ioatlas jobs lists her jobs from the warehouse"
alice_job=$(echo "$jobs" | python3 -c 'import json, sys; print(json.load(sys.stdin)["jobs"][0]["job"])' 2>/dev/null)
ok "and ioatlas report makes the page of one" \
	in_root -u alice "cd /home/alice && ioatlas report $alice_job && test -s job-$alice_job.html"
like "$(in_root -u alice 'ioatlas jobs --logs' 2>&1)" "^/var/log/ioatlas/.*mpi-io" \
	"her logs too, through own-logs set-group-ID by the package"
like "$(cat "$root/srv/ioatlas/kernels/index.json")" '"name":"mpi-io"' "the night's kernel is published"
like "$(in_root -u postgres "psql -tA -d ioatlas -c 'SELECT count(*) FROM ioatlas.analysis_results'")" \
	"^[1-9]" "and the analyses' results are stored"

# docs/admin.md, Removal: a collector still running (started by hand, as
# without systemd) is stopped by the package, not left running without its program.
in_root -u ioatlas 'exec /usr/sbin/ioatlasd' >>"$TEST_TMP/ioatlasd.out" 2>&1 &
for _ in $(seq 30); do pgrep -f "^/usr/sbin/ioatlasd" >/dev/null && break; sleep 1; done
ok "a collector runs before the purge" pgrep -f "^/usr/sbin/ioatlasd"
root_timeout=300
ok "apt purges the packages" \
	in_root "DEBIAN_FRONTEND=noninteractive apt-get purge -y -q \
		ioatlas-runtime ioatlas-dev ioatlas-tools ioatlas-collector ioatlas-doc"
ok "and stops the collector" sh -c '! pgrep -f "^/usr/sbin/ioatlasd"'
left=$(find "$root/usr" "$root/etc" "$root/lib/systemd" -name '*ioatlas*' 2>/dev/null | sed "s|^$root||")
is "${left:-nothing}" "nothing" "and nothing of theirs is left"
# The site-wide recipe appended to initrc stays (the admin's edit), and a
# login shell still starts, without ioatlas and without an error.
is "$(in_root -u alice -l 'echo "${LOADEDMODULES:-none}|${LD_PRELOAD:-none}"' 2>&1)" "none|none" \
	"a login shell after the purge starts cleanly, the site's recipe left in place"
is "$(count_logs)" 2 "the logs stay"

done_testing
