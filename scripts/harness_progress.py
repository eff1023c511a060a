"""Progress of a long harness run, on stderr: `LABEL: DONE/TOTAL UNIT done`
after every STEP finished items (about twenty lines a run, and the last
one), with how many did not pass so far when the caller says. stdout keeps
only the tables and lines tests parse (tests/it/sim/iree_cts.rs,
iree_e2e.rs). Used by scripts/iree-cts/run.py, run_amdgpu.py and
scripts/iree-e2e/run.py; items finish on worker threads, hence the lock.
"""
import sys
import threading

# About this many progress lines per run (and one for the last item).
LINES_PER_RUN = 20


class Progress:
    """Counts finished items out of `total` and says so every `step`."""

    def __init__(self, label, total, unit, stream=None):
        self.label = label
        self.total = total
        self.unit = unit
        self.stream = stream if stream is not None else sys.stderr
        self.step = max(1, -(-total // LINES_PER_RUN))
        self.finished = 0
        self.not_passing = 0
        self.next_line = self.step
        self.lock = threading.Lock()

    def done(self, count=1, not_passing=0):
        """`count` more items finished, `not_passing` of them not passing."""
        with self.lock:
            self.finished += count
            self.not_passing += not_passing
            if self.finished < self.next_line and self.finished < self.total:
                return
            while self.next_line <= self.finished:
                self.next_line += self.step
            extra = f" ({self.not_passing} not passing)" if self.not_passing else ""
            print(f"{self.label}: {self.finished}/{self.total} {self.unit} done{extra}",
                  file=self.stream, flush=True)
