"""The experiment path users take: papermill with -p parameters, artifacts in a fresh run folder, never overwritten."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def child_env() -> dict:
    """The environment of a papermill process: without nbdev's IN_TEST (its runner sets it in this process), with
    PYTHONPATH naming this checkout, so that a kernel started outside the root imports this hyena_lit and not the
    one the environment's editable install names (the checkout that last ran `pip install -e .`)."""
    env = {k: v for k, v in os.environ.items() if k != "IN_TEST"}
    return env | {"PYTHONPATH": os.pathsep.join([str(ROOT), *filter(None, [env.get("PYTHONPATH")])])}


def papermill(tmp_path, *params):
    out = tmp_path / "out.ipynb"
    args = [sys.executable, "-m", "papermill", str(ROOT / "nbs/experiments/19_quickstart.ipynb"), str(out), "--cwd", str(tmp_path)]
    for k, v in params: args += ["-p", k, str(v)]
    return subprocess.run(args, capture_output=True, text=True, env=child_env())


def test_quickstart_papermill_writes_a_run_and_refuses_to_overwrite(tmp_path):
    text = tmp_path / "corpus.txt"
    text.write_text("to be, or not to be, that is the question.\n" * 400)
    params = [("dataset", text), ("out_root", tmp_path / "runs"), ("run_name", "r1"), ("max_steps", 40),
              ("warmup_steps", 10), ("max_seconds", 600), ("seq_len", 64), ("eval_every", 10), ("eval_batches", 2), ("batch_size", 8),
              ("threads", 1)]  # not 0 (cores minus the load average): the same arithmetic on any machine
    r = papermill(tmp_path, *params)
    assert r.returncode == 0, r.stderr[-3000:]
    run = tmp_path / "runs" / "r1"
    assert {p.name for p in run.iterdir()} >= {"params.json", "metrics.json", "history.csv", "loss_curve.png", "sample.txt"}
    p, m = json.loads((run / "params.json").read_text()), json.loads((run / "metrics.json").read_text())
    assert p["seq_len"] == 64 and p["max_steps"] == 40 and p["kind"] == "quickstart"  # the -p values reached the notebook
    assert m["steps"] == 40 and m["final_val_loss"] < m["init_val_loss"] - 1.0
    again = papermill(tmp_path, *params)
    assert again.returncode != 0 and "FileExistsError" in again.stderr + again.stdout
    assert json.loads((run / "metrics.json").read_text()) == m  # untouched


def test_quickstart_rejects_bad_parameters(tmp_path):
    r = papermill(tmp_path, ("seq_len", 0), ("out_root", tmp_path / "runs"))
    assert r.returncode != 0 and "seq_len must be an integer >= 1, got 0" in r.stderr + r.stdout


# The design card's commands, as typed from the repository root: every experiment notebook is also nbs/NN_name.ipynb
# (a committed link to its layer folder), and a paper-size run on a CPU is refused, with its cost, before any work.
DESIGN_CARD = [
    ("nbs/40_pile.ipynb", ["-p", "size", "355M"], "359.5M"),
    ("nbs/41_wikitext103.ipynb", ["-p", "size", "125M"], "133.0M"),  # the first run planned: order-3 Hyena-125M
    ("nbs/42_pg19.ipynb", ["-p", "size", "153M", "-r", "contexts", "16384"], "162.2M"),
]


@pytest.mark.parametrize("nb,params,n_params", DESIGN_CARD, ids=[Path(c[0]).stem for c in DESIGN_CARD])
def test_the_design_cards_command_refuses_a_paper_size_run_on_cpu_with_its_cost(tmp_path, nb, params, n_params):
    import re
    import torch
    if torch.cuda.is_available(): pytest.skip("on a GPU the command trains")
    r = subprocess.run([sys.executable, "-m", "papermill", nb, str(tmp_path / "out.ipynb"), *params],
                       cwd=ROOT, capture_output=True, text=True, env=child_env())
    out = r.stdout + r.stderr
    assert r.returncode != 0 and "No such file" not in out, out[-3000:]
    m = re.search(r"ValueError: ([\d.]+M) parameters, .*? FLOPs: about ([\d.e+]+) h at .*?run it on a GPU node", out)
    assert m, out[-3000:]
    assert m.group(1) == n_params and float(m.group(2)) > 24  # the cost, in hours, beyond the CPU's day
    assert "check_budget" in out  # refused by the plan's budget check, which runs before any training


def test_every_experiment_notebook_runs_from_nbs_and_is_tested_once():
    "Each experiment notebook has its link nbs/NN_name.ipynb; nbs/.notest keeps nbdev_test off the links."
    import json
    from nbdev.doclinks import nbglob
    from nbdev.test import _keep_file
    nbs = ROOT / "nbs"
    experiments = [p for p in nbs.glob("*/[0-9]*.ipynb")
                   if json.loads(p.read_text())["metadata"].get("hyena_lit", {}).get("genre") == "experiment"]
    assert len(experiments) >= 10, experiments
    for p in experiments:
        link = nbs / p.name
        assert link.is_symlink() and link.resolve() == p.resolve(), f"error: {link} is not a link to {p}"
    assert {p.name for p in nbs.glob("*.ipynb") if p.is_symlink()} == {p.name for p in experiments}
    assert (nbs / ".notest").exists()
    tested = [Path(f) for f in nbglob(nbs, as_path=True) if _keep_file(Path(f), ".notest")]
    assert not [f for f in tested if f.is_symlink()] and len({f.resolve() for f in tested}) == len(tested)
