# SPDX-License-Identifier: MIT
# systemd-root.sh - sourced by guest/init (PID 1) for run.sh --set systemd:
# turns the host's root (9p, read-only, at $HR) into a writable root with an
# overlay on a tmpfs, adds the test's units, and hands PID 1 to systemd.
# Nothing written in the guest reaches the host.
#
# Inside the new root:
#   rasfdr-test.target    what the kernel command line boots (systemd.unit=):
#                         basic.target plus rasfdr-test.service
#   rasfdr-test.service   runs guest/systemd-tests.sh, then powers off
#   /mnt/results          the results share, moved over from the initramfs
# The host's /usr/sbin/policy-rc.d (a container image's "never start services
# from a package") is removed, so the package's postinst starts rasd the way it
# would on a real machine; /etc/fstab is emptied (the host's disks are not here).
# The host's own enabled services are left alone: systemd boots only
# rasfdr-test.target (--unit=, also on the kernel command line).
NEW=/newroot

sd_die() {
    echo "SYSTEMD-ROOT: $*"
    echo "SYSTEMD-ROOT: failed" > "$RES/systemd-root.failed"
    sync; poweroff -f
}

modprobe overlay || sd_die "no overlay module"
mkdir -p /ovl "$NEW"
mount -t tmpfs -o size=600m tmpfs /ovl || sd_die "tmpfs"
mkdir -p /ovl/upper /ovl/work
mount -t overlay overlay -o "lowerdir=$HR,upperdir=/ovl/upper,workdir=/ovl/work" "$NEW" ||
    sd_die "cannot mount the overlay on the host root"

rm -f "$NEW/usr/sbin/policy-rc.d"
# A fresh machine: a ras-fdr the host has (make install, the package) would
# shadow the one under test (units in /usr/local/lib/systemd/system and /etc
# win over the package's), so every trace of it goes from the overlay.
if [ -n "$(chroot "$NEW" dpkg-query -W -f='${Status}' ras-fdr 2>/dev/null | grep ' installed')" ]; then
    chroot "$NEW" dpkg --purge ras-fdr > /dev/null 2>&1 || echo "SYSTEMD-ROOT: cannot purge the host's ras-fdr"
fi
rm -rf "$NEW/usr/local/sbin/rasd" "$NEW/usr/local/bin/ras-fdr-ctl" \
    "$NEW/usr/local/lib/systemd/system/rasd.service" "$NEW/usr/local/lib/systemd/catalog/ras-fdr.catalog" \
    "$NEW/usr/local/share/bash-completion/completions/ras-fdr-ctl" "$NEW/usr/local/share/ras-fdr" \
    "$NEW/etc/ras-fdr" "$NEW/var/lib/ras-fdr" "$NEW/etc/systemd/system/rasd.service" \
    "$NEW"/etc/systemd/system/*.wants/rasd.service "$NEW/etc/systemd/system/rasd.service.d"
# man-db's dpkg trigger would index every man page over 9p: minutes under TCG
rm -f "$NEW/var/lib/man-db/auto-update"
# The host may be a container image: with /.dockerenv systemd believes it runs
# in a container and ignores the kernel command line.
rm -f "$NEW/.dockerenv" "$NEW/run/.containerenv"
# The source tree may live under /tmp (a CI clone), which the tmpfs below
# hides: the checks are copied out of it first.
mkdir -p "$NEW/usr/local/lib/rasfdr-test"
cp "$NEW$QT_SRCDIR/tests/qemu/guest/systemd-tests.sh" "$NEW/usr/local/lib/rasfdr-test/" ||
    sd_die "cannot copy guest/systemd-tests.sh"
# The README scenario runs make install from the build directory, which may
# be under /tmp too (with the sources, for a CI clone): both are held outside
# /tmp now, and bound back to their paths by the test, after systemd-tmpfiles
# has run.
H=$NEW/usr/local/lib/rasfdr-test/hold
for d in "$QT_SRCDIR" "${QT_BUILDDIR:-}"; do
    case "$d" in
    /tmp/*) mkdir -p "$H$d" && mount --bind "$NEW$d" "$H$d" || sd_die "cannot hold $d" ;;
    esac
done
# systemd-tmpfiles empties /tmp at boot (Debian's tmp.conf: D /tmp): give it an
# empty tmpfs instead of the host's /tmp, which it would delete file by file
# into the overlay (a minute under TCG).
mount -t tmpfs -o mode=1777 tmpfs "$NEW/tmp" || sd_die "tmpfs on /tmp"
: > "$NEW/etc/fstab"
U=$NEW/etc/systemd/system
cat > "$U/rasfdr-test.target" <<EOT
[Unit]
Description=ras-fdr under systemd: the test target
Requires=basic.target rasfdr-test.service
After=basic.target
AllowIsolate=yes
EOT
cat > "$U/rasfdr-test.service" <<EOT
[Unit]
Description=ras-fdr under systemd: the checks
After=basic.target

[Service]
Type=oneshot
ExecStart=/bin/bash /usr/local/lib/rasfdr-test/systemd-tests.sh
ExecStopPost=/bin/systemctl --no-block poweroff
StandardOutput=tty
StandardError=tty
TTYPath=/dev/ttyS0
TimeoutStartSec=infinity
EOT

umount "$HR$RES" 2>/dev/null
mkdir -p "$NEW/mnt/results"
mount --move "$RES" "$NEW/mnt/results" || sd_die "cannot move the results share"
for d in dev proc sys; do
    umount -l "$HR/$d" 2>/dev/null
    mount --move "/$d" "$NEW/$d" || echo "SYSTEMD-ROOT: cannot move /$d"
done
echo "SYSTEMD-ROOT: switching to systemd at $(cut -d' ' -f1 "$NEW/proc/uptime")s"
exec switch_root "$NEW" /lib/systemd/systemd --unit=rasfdr-test.target
