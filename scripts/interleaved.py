#!/usr/bin/env python3
"""Times commands interleaved: round after round, each command runs once in
turn (after WARMUP untimed rounds), so that a machine whose speed drifts
while we measure slows every command alike; every other round runs them in
reverse order, so that none always runs right after the same other one. Each run's wall time is taken
from just before its spawn to just after it is reaped; its stdout goes to a
pipe this script drains and discards (as `hyperfine --output=pipe` does), its
stderr to /dev/null. Prints JSON: each command's median and minimum, and for
every pair the median of the per-round ratios (A's time over B's in the same
round), the figure a goal such as "inspect <= 2x dd" is judged on.

    scripts/interleaved.py --runs 15 --warmup 2 -- CMD1 ARG... -- CMD2 ARG...
"""

import json
import os
import statistics
import sys
import time


# One buffer for every read: a fresh one per read would cost the reader
# (running beside the command) an allocation and its page faults each time.
DRAIN = bytearray(1 << 16)


def run_once(argv):
    """Wall seconds of one run of `argv`; fails loudly on a non-zero exit."""
    read_end, write_end = os.pipe()
    devnull = os.open(os.devnull, os.O_WRONLY)
    actions = [
        (os.POSIX_SPAWN_DUP2, write_end, 1),
        (os.POSIX_SPAWN_DUP2, devnull, 2),
        (os.POSIX_SPAWN_CLOSE, read_end),
    ]
    start = time.perf_counter()
    pid = os.posix_spawnp(argv[0], argv, os.environ, file_actions=actions)
    os.close(write_end)
    while os.readv(read_end, [DRAIN]):
        pass
    _, status = os.waitpid(pid, 0)
    elapsed = time.perf_counter() - start
    os.close(read_end)
    os.close(devnull)
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        sys.exit(f"interleaved.py: `{' '.join(argv)}` exited with {code}")
    return elapsed


def main(args):
    runs, warmup = 10, 1
    while args and args[0] != "--":
        flag, value, args = args[0], args[1], args[2:]
        if flag == "--runs":
            runs = int(value)
        elif flag == "--warmup":
            warmup = int(value)
        else:
            sys.exit(f"interleaved.py: unknown option {flag}")
    commands, current = [], None
    for arg in args:
        if arg == "--":
            current = []
            commands.append(current)
        else:
            current.append(arg)
    if not commands or not all(commands) or runs < 1:
        sys.exit(__doc__)
    times = [[] for _ in commands]
    for round_index in range(warmup + runs):
        # Every other round in reverse (A B, B A, A B, ...): each command
        # follows the others as often as it follows itself, so none always
        # inherits the state (an idle or a busy CPU) another leaves behind.
        order = list(enumerate(commands))
        if round_index % 2:
            order.reverse()
        for index, argv in order:
            elapsed = run_once(argv)
            if round_index >= warmup:
                times[index].append(elapsed)
    result = {
        "runs": runs,
        "commands": [
            {
                "command": " ".join(argv),
                "median_s": statistics.median(samples),
                "min_s": min(samples),
            }
            for argv, samples in zip(commands, times)
        ],
        "ratios": {
            f"{a}/{b}": statistics.median(x / y for x, y in zip(times[a], times[b]))
            for a in range(len(commands))
            for b in range(len(commands))
            if a != b
        },
    }
    json.dump(result, sys.stdout, indent=2)
    print()


if __name__ == "__main__":
    main(sys.argv[1:])
