"""Shared by the peer workloads (scripts/peers.sh runs them): timing and reporting.

Every workload runs in a process of its own and prints one JSON object on standard output.
Time is measured as this process's CPU time (all of its threads) and wall time over `frames`
frames after one warm-up frame, so "per core" holds however many threads a library uses.
"""

import json
import os
import sys
import time


def measure(name, frames, pixels, render, setup_cpu=0.0, setup_wall=0.0, **extra):
    """Calls render(i) for a warm-up frame and then for i = 1 … frames; returns the row."""
    render(0)
    walls = []
    cpu0, wall0 = time.process_time(), time.perf_counter()
    for i in range(1, frames + 1):
        start = time.perf_counter()
        render(i)
        walls.append(time.perf_counter() - start)
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    walls.sort()
    row = {
        "name": name,
        "frames": frames,
        "pixels": pixels,
        "cpuSeconds": cpu,
        "wallSeconds": wall,
        "medianWallMs": walls[len(walls) // 2] * 1e3,
        "nsCorePerPixel": cpu * 1e9 / (frames * pixels),
        "setupCPUSeconds": setup_cpu,
        "setupWallSeconds": setup_wall,
    }
    row.update(extra)
    return row


def emit(rows):
    json.dump({"rows": rows, "python": sys.version.split()[0], "pid": os.getpid()}, sys.stdout)
    sys.stdout.write("\n")


class Stopwatch:
    """CPU and wall time of a block (the untimed setup, reported beside the rows)."""

    def __enter__(self):
        self.cpu0, self.wall0 = time.process_time(), time.perf_counter()
        return self

    def __exit__(self, *exc):
        self.cpu = time.process_time() - self.cpu0
        self.wall = time.perf_counter() - self.wall0
        return False
