"""The scaling grid (grids/scaling.py) keeps its protocol: every family swept over the same five rates at the
two smallest sizes, 20 tokens per non-embedding parameter at context 512, sizes matched within 2.5% and spanning at
least 1.5 decades of training FLOPs, larger sizes only at the rate their family chose on validation loss."""
import json
import math
import runpy
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path: sys.path.insert(0, str(ROOT))
from hyena_lit.models.families import FAMILIES, config_for, non_embedding_params  # noqa: E402
from hyena_lit.models.flops import forward_flops, training_flops  # noqa: E402
from hyena_lit.models.model import HyenaConfig  # noqa: E402

GRID = runpy.run_path(str(ROOT / "grids" / "scaling.py"))


@pytest.fixture(scope="module")
def sweep(tmp_path_factory):
    "The CPU grid under an empty runs folder: the sweep cells only."
    root = tmp_path_factory.mktemp("runs")
    return root, GRID["cpu_cells"](str(root))


def test_sweep_is_the_same_for_every_family(sweep):
    _, cells = sweep
    names = {Path(c["run"]).name for c in cells}
    assert len(cells) == len(FAMILIES) * len(GRID["SWEPT"]) * len(GRID["RATES"]) == 60
    for fam in FAMILIES:
        for size in GRID["SWEPT"]:
            assert {GRID["run_name"](fam, size, r) for r in GRID["RATES"]} <= names
    assert sorted(GRID["RATES"]) == [1e-3, 3e-3, 1e-2, 3e-2, 1e-1]
    assert Path(cells[0]["run"]).name == "transformer-0.05M-lr3e-03"  # the middle rate of the smallest size first


def test_cells_follow_the_protocol(sweep):
    _, cells = sweep
    for c in cells:
        p = c["params"]
        size = p["size"].rsplit("-", 1)[1]
        n = non_embedding_params(HyenaConfig(**json.loads(p["model"])))
        assert abs(n / GRID["SIZES"][size] - 1) < 0.025, (c["run"], n)
        assert p["tokens"] == 20 * GRID["SIZES"][size] and p["seq_len"] == 512
        assert (p["val_split"], p["test_split"], p["final_eval_windows"]) == ("validation", "test", 0)
        peak = p["lr"] * (5 if p["recipe"] == "improved" else 1)
        assert any(math.isclose(peak, r) for r in GRID["RATES"]), (c["run"], peak)


def test_compute_spans_one_and_a_half_decades():
    small, large = min(GRID["SIZES"].values()), max(GRID["SIZES"].values())
    for fam in FAMILIES:
        f = [training_flops(forward_flops(config_for(fam, n, vocab_size=1024), 512), 20 * n, 512) for n in (small, large)]
        assert math.log10(f[1] / f[0]) >= 1.5, (fam, f)


def test_larger_sizes_take_the_chosen_rate(sweep):
    root, cells = sweep
    fam, losses = "hyena", {1e-3: 3.1, 3e-3: 2.9, 1e-2: 3.0, 3e-2: 3.2, 1e-1: 3.4}
    for r, loss in losses.items():
        d = root / "scaling" / "cpu" / GRID["run_name"](fam, GRID["RULE_SIZE"], r)
        d.mkdir(parents=True)
        (d / "metrics.json").write_text(json.dumps({"val_loss": loss}))
    assert GRID["chosen_rate"](fam, str(root)) == 3e-3 and GRID["chosen_rate"]("mamba", str(root)) is None
    more = [c for c in GRID["cpu_cells"](str(root)) if c not in cells]
    assert sorted(Path(c["run"]).name for c in more) == ["hyena-0.25M-lr3e-03", "hyena-0.5M-lr3e-03"]


def test_lead_cells_change_one_thing(tmp_path):
    "Each lead ablation differs from the run it explains in the one setting its rule names, nothing else."
    for r, loss in {1e-3: 3.1, 3e-3: 2.9, 1e-2: 3.0, 3e-2: 3.2, 1e-1: 3.4}.items():
        d = tmp_path / "scaling" / "cpu" / GRID["run_name"]("transformer", GRID["RULE_SIZE"], r)
        d.mkdir(parents=True)
        (d / "metrics.json").write_text(json.dumps({"val_loss": loss}))
    base = {Path(c["run"]).name: c for c in GRID["cpu_cells"](str(tmp_path))}
    rope = GRID["position_cells"](str(tmp_path))
    assert [Path(c["run"]).name for c in rope] == [f"transformer-{s}-lr3e-03-rope" for s in GRID["LEAD_SIZES"]]
    for c in rope:
        b = base[Path(c["run"]).name.removesuffix("-rope")]["params"]
        assert {k for k in b if b[k] != c["params"][k]} == {"model"}
        m, mb = json.loads(c["params"]["model"]), json.loads(b["model"])
        assert {k for k in m.keys() | mb.keys() if m.get(k) != mb.get(k)} == {"pos"} and m["pos"] == "rope"
    fig = runpy.run_path(str(ROOT / "grids" / "figure_4_2.py"))
    base = {Path(c["run"]).name: c["params"] for c in fig["cells"](str(tmp_path)) if "/cpu-mini/" in c["run"]}
    lead = {Path(c["run"]).name: c["params"] for c in fig["lead_cells"](str(tmp_path))}
    changed = {n: {k for k in p if p[k] != base[n.replace("-lr2e-03", "").replace("-rope", "")][k]}
               for n, p in lead.items()}
    assert changed == {"mini-lr2e-03-500k": {"lr"}, "gpt-mini-lr2e-03-500k": {"lr"}, "gpt-mini-rope-500k": {"model"}}
    assert json.loads(lead["gpt-mini-rope-500k"]["model"])["pos"] == "rope"


def test_pile_lead_seeds_change_only_the_seed(tmp_path):
    "grids/seeds.py's pile_lead repeats Table 4.4's pair and the rotary GPT at 0.5M tokens with seeds 1 and 2, nothing else."
    fig = runpy.run_path(str(ROOT / "grids" / "figure_4_2.py"))
    seed0 = {c["run"]: c for c in fig["cells"](str(tmp_path))}
    got = runpy.run_path(str(ROOT / "grids" / "seeds.py"))["pile_lead"](str(tmp_path))
    sides = ("cpu-mini/mini-500k", "cpu-mini/gpt-mini-500k", "cpu-mini-lead/gpt-mini-rope-500k")
    assert [c["run"] for c in got] == [f"{tmp_path}/pile/{r}_s{s}" for s in (1, 2) for r in sides]
    for c in got:
        base = seed0[c["run"].rsplit("_s", 1)[0]]
        assert c["experiment"] == base["experiment"] == "lm" and base["params"]["seed"] == 0
        assert {k for k in base["params"] if base["params"][k] != c["params"][k]} == {"seed"}


def test_profile_step_reads_a_run_and_keeps_what_exists(tmp_path):
    "profile_step rebuilds a run's model from its params.json, writes its top operators once and refuses to overwrite."
    from hyena_lit.experiments.runtime import profile_step
    run = tmp_path / "run"
    run.mkdir()
    model = json.dumps(dict(vocab_size=64, d_model=16, n_layer=1, d_inner=32, l_max=32, mixer="hyena"))
    (run / "params.json").write_text(json.dumps({"train": dict(size="x", model=model, seq_len=32, micro_batch=2,
                                                               global_batch=2, tokens=64, unknown_key=1)}))
    with pytest.raises(FileNotFoundError, match="metrics.json"): profile_step(run, tmp_path / "p.csv")
    (run / "metrics.json").write_text("{}")
    t = profile_step(run, tmp_path / "p.csv", steps=1, top=5)
    assert len(t) == 5 and list(t.share) == sorted(t.share, reverse=True) and 0 < t.share.sum() <= 1
    meta = json.loads((tmp_path / "p.json").read_text())
    assert (meta["micro_batch"], meta["seq_len"], meta["threads"]) == (2, 32, 1) and meta["step_ms"] > 0
    with pytest.raises(FileExistsError): profile_step(run, tmp_path / "p.csv")
