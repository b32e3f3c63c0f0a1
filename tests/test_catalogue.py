"""Careless-user probes: every bad input to an entry point ends in a sentence naming the value, never a raw traceback
from deep inside, and never silently.

`PROBES` is the catalogue: one bad input each, with the words its error must contain. A probe is *clear* when it
raises with those words, *raw* when it raises something else, *silent* when nothing stops it. `python
tests/test_catalogue.py` prints the counts; the test requires every probe to be clear. End-to-end cases (the command
line, papermill) follow as their own tests."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
import torch

ROOT = Path(__file__).resolve().parents[1]


def _tmp() -> Path: return Path(tempfile.mkdtemp(prefix="probe-"))


def _finished_run(tokens=500_000, checkpoint=True) -> Path:
    d = _tmp() / "r"; d.mkdir()
    if checkpoint: (d / "checkpoint").mkdir()
    (d / "params.json").write_text(json.dumps({"train": {"tokens": tokens, "seq_len": 512}}))
    (d / "metrics.json").write_text("{}")
    return d


def _broken_checkpoint(kind: str) -> Path:
    from hyena_lit.engine import save_checkpoint
    d = _tmp() / "ck"
    m = torch.nn.Linear(3, 2); opt = torch.optim.AdamW(m.parameters())
    save_checkpoint(d, m, opt, epoch=1)
    f = d / "model.safetensors"
    if kind == "truncated": f.write_bytes(f.read_bytes()[:40])
    else: f.write_bytes(b"")
    return d


def _load(d):
    from hyena_lit.engine import load_checkpoint
    m = torch.nn.Linear(3, 2)
    return load_checkpoint(d, m, torch.optim.AdamW(m.parameters()))


def _sweep_with(shared: dict) -> Path:
    d = _tmp() / "sweep"; d.mkdir()
    (d / "sweep.json").write_text(json.dumps(shared))
    return d


def _recall_args(**bad):
    a = dict(parametrizations=["hyena"], seq_lens=[128], vocab_sizes=[30], seeds=[0], n_layer=2, d_model=64, num_train=2000,
             num_test=200, epochs=200, workers=1)
    return a | bad


def _probes():
    from hyena_lit.engine import get_recipe
    from hyena_lit.lm_training import TrainConfig
    from hyena_lit.runs import (int_list, pick_threads, one_of, pick_device, number, positive_int, check_run, check_sweep,
                                extend_run, budget_estimate, check_budget)
    from hyena_lit.operator import HyenaOperator
    from hyena_lit.synthetics import generate, assert_disjoint
    from hyena_lit.pile import plan_runs, check_plan
    from hyena_lit.associative_recall import check_sweep_params
    from hyena_lit.mechanistic import settings_for
    from hyena_lit.synthetics import generate as make
    from hyena_lit.image_models import ImageConfig
    from hyena_lit.dna_models import dna_config
    from hyena_lit.downstream import check_eval_params
    op = HyenaOperator(8, 16)
    ev = dict(run="r", tasks="lambada", data_dir="", num_fewshot=0, limit=0, batch_size=1, device="cpu", dtype="float32", cloze_examples=1)

    def conflicting_run():
        d = _tmp(); (d / "params.json").write_text(json.dumps({"d_model": 64})); check_run(d, {"d_model": 128})

    def finished_run():
        d = _tmp(); (d / "params.json").write_text("{}"); (d / "metrics.json").write_text("{}"); check_run(d, {})

    def collide():
        a, b = generate("associative_recall", 50, 2, 4, 0), generate("associative_recall", 50, 2, 4, 1)
        assert_disjoint(a[0], b[0])

    return [
        # training numbers (recipes and the LM command line's config)
        ("recipe lr < 0", lambda: get_recipe("paper-synthetics", lr=-1e-3), ["lr"]),
        ("recipe grad_clip < 0", lambda: get_recipe("paper-synthetics", grad_clip=-1.0), ["grad_clip"]),
        ("recipe epochs 0", lambda: get_recipe("paper-synthetics", epochs=0), ["epochs"]),
        ("recipe betas", lambda: get_recipe("paper-synthetics", betas=(0.9, 1.5)), ["betas"]),
        ("recipe misspelt", lambda: get_recipe("paper-syntetics"), ["known recipes"]),
        ("lm lr < 0", lambda: TrainConfig(lr=-1.0), ["lr", "-1.0"]),
        ("lm grad_clip < 0", lambda: TrainConfig(grad_clip=-1.0), ["grad_clip"]),
        ("lm max_steps < 0", lambda: TrainConfig(max_steps=-3), ["max_steps"]),
        ("lm device missing", lambda: TrainConfig(device="cuda:7"), ["not available", "cpu"]),
        ("lm size unknown", lambda: TrainConfig(size="2B"), ["size", "2B"]),
        ("lm seq_len 0", lambda: TrainConfig(seq_len=0), ["seq_len"]),
        ("lm tokens 0", lambda: TrainConfig(tokens=0), ["tokens"]),
        ("lm recipe unknown", lambda: TrainConfig(recipe="fast"), ["recipe", "fast"]),
        ("lm order 1", lambda: TrainConfig(order=1), ["order"]),
        ("lm warmup_frac > 1", lambda: TrainConfig(warmup_frac=2.0), ["warmup_frac"]),
        ("lm weight_decay nan", lambda: TrainConfig(weight_decay=float("nan")), ["weight_decay"]),
        # the shared parameter helpers
        ("lengths [-8]", lambda: int_list("lengths", [-8]), ["lengths", "-8"]),
        ("lengths []", lambda: int_list("lengths", []), ["lengths"]),
        ("threads -2", lambda: pick_threads(-2), ["threads", "-2"]),
        ("size gpt in hyena quickstart", lambda: one_of("size", "gpt-tiny", ["tiny", "small"]), ["gpt-tiny"]),
        ("device tpu", lambda: pick_device("tpu"), ["tpu"]),
        ("device cuda:3", lambda: pick_device("cuda:3"), ["cuda:3"]),
        ("lr nan", lambda: number("lr", float("nan"), 0), ["lr", "nan"]),
        ("batch True", lambda: positive_int("batch_size", True), ["batch_size", "True"]),
        # model inputs
        ("float16 into float32 operator", lambda: op(torch.randn(1, 16, 8, dtype=torch.float16)), ["float16", "float32"]),
        ("longer than l_max", lambda: op(torch.randn(1, 17, 8)), ["l_max"]),
        ("train/test collide", collide, ["distinct sequences"]),
        # runs: finished, foreign, extended, too big for the CPU
        ("run with other settings", conflicting_run, ["d_model", "64", "128"]),
        ("finished run trained again", finished_run, ["finished"]),
        ("foreign setting in a sweep", lambda: check_sweep(_sweep_with({"d_model": 64}), {"d_model": 128}), ["d_model", "64", "128"]),
        ("extend to a smaller budget", lambda: extend_run(_finished_run(), {"tokens": 1000, "seq_len": 512}, key="train"), ["raise the budget"]),
        ("extend with other settings", lambda: extend_run(_finished_run(), {"tokens": 10**6, "seq_len": 256}, key="train"), ["seq_len"]),
        ("extend without checkpoint", lambda: extend_run(_finished_run(checkpoint=False), {"tokens": 10**6}, key="train"), ["no checkpoint"]),
        ("extend an unfinished run", lambda: extend_run(_tmp(), {"tokens": 10**6}), ["not a finished run"]),
        ("355M on a CPU", lambda: check_budget(budget_estimate(354e6, 1e19, 9536, 5 * 10**9, "cpu", rate=1e11)), ["354M", "force"]),
        ("pile seq_len into cpu-mini", lambda: check_plan(plan_runs("mini", seq_len=256, tokens="4M", out_dir=ROOT / "runs/pile/cpu-mini"),
                                                           ROOT / "runs/pile/cpu-mini"), ["seq_len", "512", "256"]),
        ("pile GPT as Hyena size", lambda: plan_runs("gpt-355M"), ["size", "gpt-355M"]),
        ("pile tokens 'lots'", lambda: plan_runs("mini", tokens="lots"), ["tokens", "lots"]),
        # checkpoints
        ("truncated checkpoint", lambda: _load(_broken_checkpoint("truncated")), ["model.safetensors", "start the run over"]),
        ("empty checkpoint", lambda: _load(_broken_checkpoint("empty")), ["cannot be read", "start the run over"]),
        # experiment parameters
        ("recall parametrization s4", lambda: check_sweep_params(**_recall_args(parametrizations=["s4"])), ["s4"]),
        ("recall vocab 3", lambda: check_sweep_params(**_recall_args(vocab_sizes=[3])), ["vocab_sizes"]),
        ("recall seq_len 1", lambda: check_sweep_params(**_recall_args(seq_lens=[1])), ["seq_lens"]),
        ("recall recipe misspelt", lambda: check_sweep_params(**_recall_args(), recipe="official"), ["official"]),
        ("recall ablation step", lambda: check_sweep_params(**_recall_args(), ablation_steps=["w=10"]), ["w=10"]),
        ("mechanistic preset", lambda: settings_for("table12", [], [], 0, [0], [], [], 2, []), ["preset", "table12"]),
        ("mechanistic mixer", lambda: settings_for("table11", ["s6"], [], 0, [0], [], [], 2, []), ["s6"]),
        ("task unknown", lambda: make("copying", 10, 64, 16, 0), ["copying"]),
        ("mqar V <= L", lambda: make("mqar", 10, 64, 32, 0), ["vocab_size"]),
        ("image patch", lambda: ImageConfig(model="hyena-vit", image_size=32, patch=5), ["patch"]),
        ("image dropout", lambda: ImageConfig(model="vit", dropout=1.5), ["dropout"]),
        ("dna model", lambda: dna_config("rnn", 2, 64, 1024), ["rnn"]),
        ("eval dtype", lambda: check_eval_params(**ev | dict(dtype="fp8")), ["fp8"]),
        ("eval limit < 0", lambda: check_eval_params(**ev | dict(limit=-1)), ["limit"]),
    ]


def classify(call, words) -> tuple[str, str]:
    "('clear' | 'raw' | 'silent', what happened)."
    try: call()
    except Exception as e:
        msg = f"{type(e).__name__}: {e}"
        return ("clear" if all(w in str(e) for w in words) else "raw"), msg
    return "silent", "no error"


@pytest.mark.parametrize("name", [p[0] for p in _probes()])
def test_probe_is_refused_with_a_sentence(name):
    _, call, words = next(p for p in _probes() if p[0] == name)
    kind, what = classify(call, words)
    assert kind == "clear", f"{name}: {kind} ({what}); expected the words {words}"


def test_a_nan_names_where_it_entered():
    from hyena_lit.engine import locate_nonfinite
    from hyena_lit.model import HyenaConfig, HyenaLM
    m = HyenaLM(HyenaConfig(vocab_size=10, d_model=16, n_layer=2, d_inner=32, l_max=40, emb_dim=5))
    with torch.no_grad(): m.blocks[1].fc1.weight[0, 0] = float("nan")
    where = locate_nonfinite(m, torch.randint(0, 10, (2, 40)))
    assert where.startswith("output of blocks.1.fc1") and "from finite inputs" in where, where


def _lmtrain(*args):
    env = {k: v for k, v in os.environ.items() if k != "IN_TEST"}
    return subprocess.run([sys.executable, "-m", "hyena_lit.lm_training", *args], capture_output=True, text=True, timeout=300, cwd=ROOT, env=env)


def _snapshot(d: Path) -> dict: return {p.relative_to(d): p.read_bytes() for p in d.rglob("*") if p.is_file()}


def test_lmtrain_refuses_a_finished_run_before_any_work():
    run = ROOT / "runs/pile/cpu-mini/mini-500k"
    before = _snapshot(run)
    r = _lmtrain("--size", "mini", "--seq_len", "512", "--out_dir", str(run))
    assert r.returncode != 0 and "finished run" in r.stderr and "--extend" in r.stderr, r.stderr[-2000:]
    r = _lmtrain("--size", "mini", "--seq_len", "512", "--global_batch", "8", "--ckpt_every", "50", "--eval_every", "25",
                 "--eval_batches", "4", "--tokens", "1000000", "--extend", "true", "--out_dir", str(run))
    assert r.returncode != 0 and "no checkpoint" in r.stderr, r.stderr[-2000:]   # checkpoints stay out of git
    assert _snapshot(run) == before  # untouched


def test_lmtrain_refuses_a_paper_size_run_on_cpu_before_any_work(tmp_path):
    r = _lmtrain("--size", "355M", "--seq_len", "2048", "--global_batch", "256", "--tokens", "5000000000", "--out_dir", str(tmp_path / "big"))
    assert r.returncode != 0 and "beyond this CPU" in r.stderr and "GiB" in r.stderr, r.stderr[-2000:]
    assert not (tmp_path / "big").exists()


def test_recall_sweep_refuses_a_foreign_setting(tmp_path):
    sweep = tmp_path / "runs" / "s"; sweep.mkdir(parents=True)
    (sweep / "sweep.json").write_text(json.dumps({"d_model": 64}))
    env = {k: v for k, v in os.environ.items() if k != "IN_TEST"}
    r = subprocess.run([sys.executable, "-m", "papermill", str(ROOT / "nbs/31_associative_recall.ipynb"), str(tmp_path / "o.ipynb"),
                        "--cwd", str(ROOT / "nbs"), "-p", "out_root", str(tmp_path / "runs"), "-p", "sweep", "s", "-p", "d_model", "32",
                        "-p", "train", "False"], capture_output=True, text=True, env=env, timeout=600)
    assert r.returncode != 0 and "other shared settings" in r.stdout + r.stderr, (r.stdout + r.stderr)[-3000:]
    assert [p.name for p in sweep.iterdir()] == ["sweep.json"]


if __name__ == "__main__":  # the catalogue's counts
    counts = {"clear": 0, "raw": 0, "silent": 0}
    for name, call, words in _probes():
        kind, what = classify(call, words)
        counts[kind] += 1
        print(f"{kind:6} {name:34} {what[:150]}")
    print(counts, f"of {sum(counts.values())} probes")
