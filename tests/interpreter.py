"""Children under Triton's interpreter for the kernel tests: the interpreter must be on before anything imports triton,
so a test that launches a kernel on a CPU runs its code in a fresh process."""
import os, pathlib, subprocess, sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
ENV = dict(os.environ, TRITON_INTERPRET="1", PYTHONPATH=str(ROOT))

def child(code: str, timeout: int = 300) -> str:
    "Run `code` with `python -c` in the repository under the interpreter; its stdout (a failure shows its stderr)."
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=ENV, cwd=ROOT, timeout=timeout)
    assert r.returncode == 0, r.stderr[-3000:]
    return r.stdout
