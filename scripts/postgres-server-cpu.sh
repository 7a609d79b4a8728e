#!/usr/bin/env bash
# CPU seconds used so far by a PostgreSQL server: the postmaster's own and its reaped children's
# time plus its live children's (backends, WAL writer, checkpointer, autovacuum), from /proc.
# Read it before and after a run; the difference is the server's share (docs/performance.md).
#
#   scripts/postgres-server-cpu.sh PID      # PID: the first line of DATA/postmaster.pid
set -euo pipefail
pid=${1:?usage: scripts/postgres-server-cpu.sh POSTMASTER_PID}
ticks=$(getconf CLK_TCK)
# Fields after the command name: state is field 3, ppid 4, utime 14, stime 15, cutime 16, cstime 17.
own=$(sed 's/.*) //' "/proc/$pid/stat" | awk '{print $12 + $13 + $14 + $15}')
children=0
for stat in /proc/[0-9]*/stat; do
    fields=$(sed 's/.*) //' "$stat" 2>/dev/null) || continue
    read -r -a f <<<"$fields"
    [[ ${f[1]:-} == "$pid" ]] && children=$((children + f[11] + f[12]))
done
awk -v t="$ticks" -v a="$own" -v b="$children" 'BEGIN { printf "%.2f\n", (a + b) / t }'
