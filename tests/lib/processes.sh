# Shell helpers for integration tests that signal a running target: they wait for what
# the test needs (a process started, an amount of its CPU time), never for wall time, so
# that a test holds however busy the machine is. Source it; the caller defines fail().

# The pid of the child of process $1 once it runs program $2 (its exec'd name).
child_of() {
    local c
    until c=$(pgrep -P "$1" -x "$2"); do
        kill -0 "$1" 2>/dev/null || fail "process $1 ended before starting $2"
        sleep 0.02
    done
    echo "$c"
}

# Waits until process $1 has run $2 ms of CPU time (/proc/PID/schedstat).
wait_cpu_ms() {
    local ns
    while ns=$(cut -d' ' -f1 "/proc/$1/schedstat" 2>/dev/null) && [ "$ns" -lt $(($2 * 1000000)) ]; do sleep 0.02; done
    [ -n "$ns" ] || fail "process $1 ended before running $2 ms of CPU time"
}

# Waits until process $1 has a perf event open (it has set up its counters and signal handlers).
wait_perf_open() {
    until grep -q 'perf_event' <(ls -l "/proc/$1/fd" 2>/dev/null); do
        kill -0 "$1" 2>/dev/null || fail "process $1 ended before opening a perf event"
        sleep 0.02
    done
}

# Waits until process $1 runs program $2 (has exec'd it).
wait_exec() {
    until [ "$(cat "/proc/$1/comm" 2>/dev/null)" = "$2" ]; do
        kill -0 "$1" 2>/dev/null || fail "process $1 ended before running $2"
        sleep 0.02
    done
}
