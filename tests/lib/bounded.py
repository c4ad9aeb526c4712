#!/usr/bin/env python3
"""Runs a command on an endless input and says what it took, in measures that no load on
the machine changes: its exit status, its CPU time (user + system, from wait4), its peak
resident set, and the bytes it read and wrote (the counts of /proc/self/io, to which the
kernel adds those of a child once it is waited for), then its standard error.

usage: bounded.py SOURCE CMD...
SOURCE: yes, zero or urandom (yes, cat /dev/zero, cat /dev/urandom piped to CMD's standard
input, the producer ended after CMD), or none (standard input /dev/null).
Prints "rc cpu_seconds maxrss_kib rchar wchar" on the first line, then CMD's stderr.
A command that does not stop is stopped (SIGXCPU after 10 s of CPU, SIGKILL past 1 GiB of
resident memory) so that a regression fails the test without taking the machine down."""
import os
import resource
import signal
import subprocess
import sys
import threading
import time


def io_counts():
    counts = {}
    with open("/proc/self/io") as f:
        for line in f:
            key, value = line.split(":")
            counts[key] = int(value)
    return counts


source, cmd = sys.argv[1], sys.argv[2:]
producers = {"yes": ["yes"], "zero": ["cat", "/dev/zero"], "urandom": ["cat", "/dev/urandom"]}
producer = None
stdin = subprocess.DEVNULL
if source != "none":
    producer = subprocess.Popen(producers[source], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    stdin = producer.stdout
before = io_counts()
child = subprocess.Popen(cmd, stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_CPU, (10, 10)))


def watch(pid, pidfd):
    """The safety net for memory: polled, not measured (wait4 measures). The signal goes
    through a pidfd: never to another process that got the pid once the child is reaped."""
    while child.returncode is None:
        try:
            with open(f"/proc/{pid}/statm") as f:
                if int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") > (1 << 30):
                    signal.pidfd_send_signal(pidfd, signal.SIGKILL)
        except (OSError, ValueError, IndexError):
            return
        time.sleep(0.01)


threading.Thread(target=watch, args=(child.pid, os.pidfd_open(child.pid)), daemon=True).start()
if producer:
    producer.stdout.close()  # the child holds the pipe alone: its end is the producer's EPIPE
err = child.stderr.read()
_, status, usage = os.wait4(child.pid, 0)
child.returncode = os.waitstatus_to_exitcode(status)
after = io_counts()  # before the producer is waited for: its counts stay out
if producer:
    producer.kill()
    producer.wait()
cpu = usage.ru_utime + usage.ru_stime
print(child.returncode, f"{cpu:.3f}", usage.ru_maxrss, after["rchar"] - before["rchar"] - len(err),
      after["wchar"] - before["wchar"])
sys.stdout.write(err.decode("utf-8", "replace"))
