# debroot-lib.sh — a clean Debian 12 root for tests and benchmarks that
# need a fresh machine (t9004, tests/perf/run-bench-quickstart): made with
# debootstrap, entered with chroot, released with its processes and mounts.
# Needs root and Debian's package archive.  The caller sets $root (the
# folder) and may set $root_timeout (seconds for in_root, default 300).
#
#	root=$TEST_TMP/root
#	debroot_make "$mirror" "$TEST_TMP/debootstrap.log" || ...
#	in_root -u alice 'mpiexec.mpich -n 2 ./app'
#	debroot_release || ...     # 1 when a mount is left: keep the folder

# debroot_make MIRROR LOG: a minbase root at $root whose packages start no
# services (the caller starts what it needs), with /proc, a read-only /sys
# and a /dev/shm of its own mounted; debootstrap's output goes to LOG, and
# it has 15 minutes.
debroot_make() {
	timeout --kill-after=10 900 debootstrap --variant=minbase bookworm "$root" "$1" >"$2" 2>&1 ||
		return 1
	cp /etc/resolv.conf "$root/etc/resolv.conf"
	printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
	chmod 755 "$root/usr/sbin/policy-rc.d"
	mount -t proc proc "$root/proc" &&
		mount -t sysfs -o ro sysfs "$root/sys" &&
		mount -t tmpfs -o size=256m shm "$root/dev/shm"
}

# debroot_release: kills what still runs in the root (a server, a daemon)
# and unmounts what debroot_make mounted; 1 when a mount is left under it,
# so that nobody deletes through it.
debroot_release() {
	local pid m
	for pid in /proc/[0-9]*; do
		[ "$(readlink "$pid/root" 2>/dev/null)" != "$root" ] || kill -9 "${pid#/proc/}" 2>/dev/null
	done
	sleep 1
	for m in dev/shm sys proc; do
		! mountpoint -q "$root/$m" || umount -l "$root/$m"
	done
	! findmnt -rno TARGET | grep -q "^$root/"
}

# in_root [-u USER] [-l] COMMAND: a shell command in the root, as root or
# USER, with a clean environment and under a timeout ($root_timeout); -l
# through a login shell, which reads /etc/profile.d.
in_root() {
	local login= user=root home=/root
	[ "$1" != -u ] || { user=$2; shift 2; }
	[ "$1" != -l ] || { login=l; shift; }
	[ "$user" = root ] || home=$(chroot "$root" getent passwd "$user" | cut -d: -f6)
	timeout --kill-after=10 "${root_timeout:-300}" chroot "$root" /usr/sbin/runuser -u "$user" -- \
		/usr/bin/env -i HOME="$home" PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 \
		TERM=dumb /bin/bash -${login}c "$*"
}
