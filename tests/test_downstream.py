"""The downstream paths users take: `python -m hyena_lit.eval.downstream` (lm_eval's CLI with our model and tasks) and the
papermill notebook, on a tiny untrained run folder and the repository's fixtures, offline."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from hyena_lit.eval.downstream import HyenaEvalLM, evaluate_run, load_run, save_run
from hyena_lit.experiments.lm_training import TrainConfig
from hyena_lit.models.model import HyenaConfig, HyenaLM
from hyena_lit.core.paths import save_json
from hyena_lit.data.lm_data import shakespeare_texts

ROOT = Path(__file__).resolve().parents[1]
# children import this checkout, not whichever one the venv's editable install names
ENV = {k: v for k, v in os.environ.items() if k != "IN_TEST"} | {"OMP_NUM_THREADS": "1", "HF_DATASETS_OFFLINE": "1",
                                                                 "PYTHONPATH": str(ROOT)}


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory):
    "A finished run folder of an untrained tiny Hyena, whose params.json names a one-play corpus (for the cloze set)."
    d = tmp_path_factory.mktemp("runs")
    play = d / "hamlet.txt"
    play.write_bytes(next(p for p in shakespeare_texts() if "hamlet" in p.name).read_bytes())
    torch.manual_seed(0)
    run = save_run(HyenaLM(HyenaConfig.from_size("tiny", l_max=256)), d / "tiny-run", metrics=dict(tokens=0))
    p = json.loads((run / "params.json").read_text())
    save_json(p | dict(train=TrainConfig(size="tiny", dataset=str(play), seq_len=64).__dict__), run / "params.json")
    return run


def test_cli_evaluates_a_run_on_the_fixtures(tiny_run, tmp_path):
    args = [sys.executable, "-m", "hyena_lit.eval.downstream", "--model", "hyena_lit", "--model_args", f"run={tiny_run}", "--batch_size", "4",
            "--tasks", "hyena_boolq,hyena_wsc_3shot,hyena_lambada", "--metadata", "data_dir=fixtures", "--limit", "2",
            "--output_path", str(tmp_path / "out")]
    r = subprocess.run(args, capture_output=True, text=True, env=ENV, cwd=tmp_path)
    assert r.returncode == 0, r.stderr[-3000:]
    res = json.loads(next((tmp_path / "out").rglob("results_*.json")).read_text())
    assert set(res["results"]) == {"hyena_boolq", "hyena_wsc_3shot", "hyena_lambada"}
    assert res["configs"]["hyena_wsc_3shot"]["num_fewshot"] == 3
    assert all(0 <= res["results"][t]["acc,none"] <= 1 for t in res["results"])


def test_missing_task_data_names_the_expected_files(tiny_run, tmp_path):
    with pytest.raises(FileNotFoundError, match=r"rte/train\.jsonl.*rte/validation\.jsonl"):
        evaluate_run(tiny_run, "hyena_rte", data_dir=tmp_path)


def test_unfinished_run_is_refused(tiny_run, tmp_path):
    half = tmp_path / "half"; (half / "checkpoint").mkdir(parents=True)
    for f in ("params.json", "checkpoint/model.safetensors"): (half / f).write_bytes((tiny_run / f).read_bytes())
    with pytest.raises(FileNotFoundError, match="metrics.json.*allow_unfinished"):
        HyenaEvalLM(run=str(half))
    assert load_run(half, allow_unfinished=True).cfg == load_run(tiny_run).cfg


def test_papermill_writes_a_downstream_run(tiny_run, tmp_path):
    out = tmp_path / "nb.ipynb"
    params = ["-p", "run", str(tiny_run), "-p", "tasks", "lambada_cloze,hyena_cb", "-p", "data_dir", "fixtures",
              "-p", "out_root", str(tmp_path / "downstream"), "-p", "run_name", "t1", "-p", "cloze_examples", "8", "-p", "batch_size", "4"]
    r = subprocess.run([sys.executable, "-m", "papermill", str(ROOT / "nbs/eval/60_downstream.ipynb"), str(out), *params],
                       capture_output=True, text=True, env=ENV, cwd=ROOT)  # as users run it: from the project
    assert r.returncode == 0, r.stderr[-3000:]
    d = tmp_path / "downstream" / "t1" / "tiny-run"
    m, p = json.loads((d / "metrics.json").read_text()), json.loads((d / "params.json").read_text())
    assert m["lambada_cloze"]["n"] == p["lambada_cloze"]["passages"] == 8 and m["hyena_cb"]["n"] == 4
    assert p["data_dir"] == "hyena_lit/eval/lm_eval_tasks/fixtures"  # relative to the project root
    again = subprocess.run([sys.executable, "-m", "papermill", str(ROOT / "nbs/eval/60_downstream.ipynb"), str(out), *params],
                           capture_output=True, text=True, env=ENV, cwd=ROOT)
    assert again.returncode != 0 and "FileExistsError" in again.stderr + again.stdout


def test_papermill_rejects_bad_parameters(tmp_path):
    r = subprocess.run([sys.executable, "-m", "papermill", str(ROOT / "nbs/eval/60_downstream.ipynb"), str(tmp_path / "o.ipynb"),
                        "-p", "num_fewshot", "-2"], capture_output=True, text=True, env=ENV, cwd=tmp_path)
    assert r.returncode != 0 and "num_fewshot must be -1" in r.stderr + r.stdout
