#!/usr/bin/env python3
"""Who held the CPU while the hook's threads waited for it: reads `perf sched timehist` output
(a recording of the expensive-requests round, scripts/bench-hook-expensive.sh --sched) and, for
every wait of a hook thread (NIO event loops, Swift's cooperative pool) longer than --over ms
between waking and running, adds up the time each other task ran on that CPU in the wait.

    perf sched timehist -i FILE | sched-blame.py [--over MS]

Prints one line per task name, most time first:
    BLAME waits=<n> over_ms=<ms> <task>=<ms> ...
"""

import argparse
import collections
import re
import sys

ROW = re.compile(r"\s*([\d.]+)\s+\[(\d+)\]\s+(.+?)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s*$")
HOOK = re.compile(r"NIO-|qos")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--over", type=float, default=4.0, help="the waits counted, in ms (default 4)")
    args = parser.parse_args()
    # A row: at `end` on `cpu`, `task` stopped after running `run` ms, having waited `delay` ms
    # between its wake-up and its start.
    rows = []
    for line in sys.stdin:
        m = ROW.match(line)
        if m:
            end, run, delay = float(m[1]), float(m[6]) / 1000, float(m[5]) / 1000
            rows.append((int(m[2]), re.sub(r"\[.*", "", m[3]).strip(), end - run, end, delay))
    by_cpu = collections.defaultdict(list)
    for cpu, task, start, end, _ in rows:
        by_cpu[cpu].append((task, start, end))
    blame = collections.Counter()
    waits = 0
    for cpu, task, start, _, delay in rows:
        if not HOOK.search(task) or delay * 1000 <= args.over:
            continue
        waits += 1
        for other, a, b in by_cpu[cpu]:
            overlap = min(b, start) - max(a, start - delay)
            if overlap > 0:
                blame[other] += overlap * 1000
    print(f"BLAME waits={waits} over_ms={args.over:g} "
          + " ".join(f"{task.replace(' ', '_')}={ms:.1f}" for task, ms in blame.most_common(8)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
