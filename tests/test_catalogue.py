"""Careless-user probes: every bad input to an entry point ends in a sentence naming the value (ValueError,
FileExistsError, FloatingPointError), never a raw traceback from deep inside, and never silently."""
import json
import subprocess
import sys
from pathlib import Path

import pytest
import torch

ROOT = Path(__file__).resolve().parents[1]


def refuses(call, exc=ValueError, words=()):
    with pytest.raises(exc) as e: call()
    msg = str(e.value)
    assert all(w in msg for w in words), msg
    return msg


def test_training_numbers_are_checked():
    from hyena_lit.engine import Recipe, get_recipe
    from hyena_lit.lm_training import TrainConfig
    refuses(lambda: get_recipe("paper-synthetics", lr=-1e-3), words=["lr"])
    refuses(lambda: get_recipe("paper-synthetics", grad_clip=-1.0), words=["grad_clip"])
    refuses(lambda: get_recipe("paper-synthetics", epochs=0), words=["epochs"])
    refuses(lambda: get_recipe("paper-syntetics"), words=["known recipes"])
    refuses(lambda: TrainConfig(lr=-1.0), words=["lr", "-1.0"])
    refuses(lambda: TrainConfig(grad_clip=-1.0), words=["grad_clip"])
    refuses(lambda: TrainConfig(max_steps=-3), words=["max_steps"])
    refuses(lambda: TrainConfig(device="cuda:7"), words=["not available", "cpu"])
    refuses(lambda: TrainConfig(size="2B"), words=["size"])


def test_entry_point_helpers():
    from hyena_lit.runs import int_list, pick_threads, one_of
    refuses(lambda: int_list("lengths", [-8]), words=["lengths", "-8"])
    refuses(lambda: pick_threads(-2), words=["threads", "-2"])
    refuses(lambda: one_of("size", "gpt-tiny", ["tiny", "small"]), words=["gpt-tiny"])


def test_model_inputs():
    from hyena_lit.operator import HyenaOperator
    from hyena_lit.synthetics import generate, assert_disjoint
    op = HyenaOperator(8, 16)
    refuses(lambda: op(torch.randn(1, 16, 8, dtype=torch.float16)), words=["float16", "float32"])
    refuses(lambda: op(torch.randn(1, 17, 8)), words=["l_max"])
    a, b = generate("associative_recall", 50, 2, 4, 0), generate("associative_recall", 50, 2, 4, 1)
    refuses(lambda: assert_disjoint(a[0], b[0]), words=["distinct sequences"])


def test_finished_and_foreign_runs_are_refused(tmp_path):
    from hyena_lit.runs import check_run
    d = tmp_path / "r"; d.mkdir()
    (d / "params.json").write_text(json.dumps({"d_model": 64}))
    refuses(lambda: check_run(d, {"d_model": 128}), words=["d_model", "64", "128"])
    (d / "metrics.json").write_text("{}")
    refuses(lambda: check_run(d, {"d_model": 64}), FileExistsError, words=["finished"])


def test_lmtrain_refuses_a_finished_run_before_any_work(tmp_path):
    run = ROOT / "runs/pile/cpu-mini/mini-500k"
    before = {p.name: p.read_bytes() for p in run.iterdir()}
    r = subprocess.run([sys.executable, "-m", "hyena_lit.lm_training", "--size", "mini", "--seq_len", "512", "--out_dir", str(run)],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode != 0 and "finished run" in r.stderr, r.stderr[-2000:]
    assert {p.name: p.read_bytes() for p in run.iterdir()} == before  # untouched


def test_a_nan_names_where_it_entered():
    from hyena_lit.engine import locate_nonfinite
    from hyena_lit.model import HyenaConfig, HyenaLM
    m = HyenaLM(HyenaConfig(vocab_size=10, d_model=16, n_layer=2, d_inner=32, l_max=40, emb_dim=5))
    with torch.no_grad(): m.blocks[1].fc1.weight[0, 0] = float("nan")
    where = locate_nonfinite(m, torch.randint(0, 10, (2, 40)))
    assert where.startswith("output of blocks.1.fc1") and "from finite inputs" in where, where
