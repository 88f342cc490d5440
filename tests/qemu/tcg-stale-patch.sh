#!/bin/bash
# SPDX-License-Identifier: MIT
# tcg-stale-patch.sh - shows the TCG hang guest/init's rasfdr_pin avoids (not
# part of make check-qemu). Boots Debian's 6.1 kernel under QEMU (TCG, as
# run.sh does) RUNS times per mode with a busybox /init that enables and
# disables signal_generate in an instance 3,000 times while processes come and
# go on both vCPUs, and prints how far each boot got. "nopin": every toggle
# flips the sched_switch and signal_generate jump labels (text_poke_bp in
# __schedule); "pin": another instance holds signal_generate enabled first,
# as guest/init does, so nothing hot is patched. A boot that stops printing
# is killed after TIMEOUT seconds (rc 124).
#
#   tests/qemu/tcg-stale-patch.sh [RUNS] [TIMEOUT]     (needs qemu-system-x86, busybox-static)
set -eu
runs=${1:-3} tmo=${2:-90}
kver=$(ls /lib/modules | sort -V | grep '^6\.1\.' | tail -n 1)
[ -n "$kver" ] && [ -f "/boot/vmlinuz-$kver" ] || { echo "no Debian 6.1 kernel in /boot" >&2; exit 77; }
w=$(mktemp -d /tmp/tcg-stale-patch-XXXXXX)
trap 'rm -rf "$w"' EXIT
mkdir -p "$w/root/bin"
cp /bin/busybox "$w/root/bin/"
cat > "$w/root/init" <<'INIT'
#!/bin/busybox sh
/bin/busybox --install -s /bin
mkdir -p /proc /sys; mount -t proc proc /proc; mount -t sysfs sysfs /sys
T=/sys/kernel/tracing; mount -t tracefs tracefs $T
mode=$(sed -n 's/.*tcgx=\([a-z]*\).*/\1/p' /proc/cmdline)
if [ "$mode" = pin ]; then
    mkdir $T/instances/pin; echo 4 > $T/instances/pin/buffer_size_kb
    echo 'sig == 0' > $T/instances/pin/events/signal/signal_generate/filter
    echo 1 > $T/instances/pin/events/signal/signal_generate/enable
fi
mkdir $T/instances/x
for j in 1 2 3; do ( while :; do /bin/true; usleep 1000; done ) & done
i=0
while [ $i -lt 3000 ]; do
    echo 1 > $T/instances/x/events/signal/signal_generate/enable
    echo 0 > $T/instances/x/events/signal/signal_generate/enable
    i=$((i + 1))
    [ $((i % 100)) = 0 ] && echo "TCGX: $i toggles at $(cut -d' ' -f1 /proc/uptime) s"
done
echo "TCGX: done"
poweroff -f
INIT
chmod 755 "$w/root/init"
(cd "$w/root" && find . | cpio -o -H newc --quiet | gzip -1) > "$w/initramfs.gz"
for mode in nopin pin; do
    for k in $(seq 1 "$runs"); do
        rc=0
        timeout "$tmo" qemu-system-x86_64 -machine q35 -cpu Skylake-Server -smp 2 -m 512M -accel tcg \
            -display none -no-reboot -nic none -monitor none -kernel "/boot/vmlinuz-$kver" \
            -initrd "$w/initramfs.gz" -append "console=ttyS0 panic=-1 loglevel=4 tcgx=$mode" \
            -serial "file:$w/$mode-$k.log" > /dev/null 2>&1 || rc=$?
        echo "$mode boot $k: rc $rc, $(grep TCGX "$w/$mode-$k.log" | tail -n 1 | tr -d '\r')"
    done
done
