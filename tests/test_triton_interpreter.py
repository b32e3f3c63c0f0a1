"""The half-precision kernels under Triton's interpreter, against float64 within c u log2 N (a child process: the
interpreter must be switched on before anything imports triton)."""
import os, subprocess, sys, pathlib

ROOT = pathlib.Path(__file__).resolve().parents[1]
CODE = """
import torch; torch.set_num_threads(1)
from hyena_lit.kernels.fftconv_checks import correctness_rows
rows = correctness_rows([(2, 3, 63, None), (1, 3, 300, True)], (torch.float16, torch.bfloat16))
bad = [r for r in rows if not r["triton"] <= r["bound"]]
print(len(rows), max(r["share"] for r in rows))
assert len(rows) == 24 and not bad, bad
"""

def test_half_precision_kernels_within_bound():
    env = dict(os.environ, TRITON_INTERPRET="1", PYTHONPATH=str(ROOT))
    r = subprocess.run([sys.executable, "-c", CODE], capture_output=True, text=True, env=env, cwd=ROOT, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
