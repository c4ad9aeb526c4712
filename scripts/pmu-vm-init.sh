#!/bin/busybox sh
# /init of the guest that scripts/pmu-vm boots (busybox sh, PID 1). Runs the job that
# pmu-vm packed into /job, then prints its stdout, stderr, exit status and out/ as one
# gzipped tar in base64 between two marker lines on the console, and powers off.
/bin/busybox --install -s /bin
export PATH=/opt/pmuscope/bin:/usr/bin:/bin:/sbin
mkdir -p /proc /sys /dev /tmp
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tmpfs tmpfs /tmp
# Only emergencies on the console: the result below must not be interleaved with messages.
echo 1 > /proc/sys/kernel/printk
# No address-space randomisation: user-space instruction counts then repeat exactly.
echo 0 > /proc/sys/kernel/randomize_va_space

mkdir -p /work/out /result
[ -d /job/files ] && cp -a /job/files/. /work/
cd /work
export HOME=/work PMS_GUEST=1
sh /job/cmd > /result/stdout 2> /result/stderr < /dev/null
echo $? > /result/status
cp -a /work/out /result/out

echo "@@pmu-vm-result-begin@@"
tar -C /result -cf - . | gzip -1 | base64
echo "@@pmu-vm-result-end@@"
sync
poweroff -f
