"""Stand-ins for a GPU check's part, for `supervise`'s tests (its spawned processes import this module: `sys.path`
gets tests/). Each counts its starts in OUT/starts.txt."""
import os, pathlib, time


def _start(out) -> int:
    os.setsid()  # as gpu_check's `_run`: its own process group, which `supervise` stops at the deadline
    f = pathlib.Path(out) / "starts.txt"
    n = int(f.read_text()) + 1 if f.exists() else 1
    f.write_text(str(n))
    return n


def poisoned_twice(part, out, deadline, dry, names, jobs):
    "Exits POISONED on its first two starts (a fault left the context unusable), then finishes."
    if _start(out) <= 2: os._exit(3)


def sleeps(part, out, deadline, dry, names, jobs):
    "Runs past any deadline."
    _start(out)
    time.sleep(600)
