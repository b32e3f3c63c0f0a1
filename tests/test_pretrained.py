"""Official Hyena / HyenaDNA checkpoints (the committed fixtures of scripts/make_official_fixtures.py) convert into
HyenaLM with the official logits; our own models round-trip through save_pretrained / from_pretrained bit for bit."""
import json
import math
import subprocess
import sys
from pathlib import Path

import pytest
import torch
from safetensors.torch import load_file

from hyena_lit.models.dna_models import dna_lm
from hyena_lit.train.checkpoints import save_checkpoint
from hyena_lit.models.model import HyenaConfig, HyenaLM
from hyena_lit.inference.pretrained import (config_from_lightning, export_run, from_lightning, hyenadna_encode, load_official,
                                  map_state)

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "nbs" / "fixtures" / "official"
FAMILIES = ["safari_lm_order2", "safari_lm_order3", "hyenadna_lightning", "hyenadna_hf"]
torch.set_num_threads(1)


def bound(dtype, L, scale):
    "10 unit roundoffs grown by the FFT's depth log2(2L), relative to the largest logit."
    return 10 * torch.finfo(dtype).eps * math.log2(2 * L) * max(1.0, scale)


def max_error(model, ref, key):
    V = model.cfg.vocab_size
    with torch.no_grad(): return (model(ref["input_ids"]) - ref[key][..., :V]).abs().max().item()


@pytest.mark.parametrize("name", FAMILIES)
def test_official_logits(name):
    ref = load_file(str(FIXTURES / name / "logits.safetensors"))
    L, scale = ref["input_ids"].shape[1], ref["logits_float32"].abs().max().item()
    model = load_official(FIXTURES / name)
    err32 = max_error(model, ref, "logits_float32")
    assert err32 <= bound(torch.float32, L, scale) and err32 <= 1e-5, err32
    if "logits_float64" in ref:
        err64 = max_error(model.double(), ref, "logits_float64")
        assert err64 <= bound(torch.float64, L, scale) and err64 <= 1e-10, err64


def test_lightning_ckpt_file_and_activation_checkpointing_names(tmp_path):
    "A real weights.ckpt is a torch pickle with a state_dict; checkpointed runs name blocks .mixer.layer / .mlp.layer."
    src = FIXTURES / "hyenadna_lightning"
    sd = load_file(str(src / "weights.safetensors"))
    sd = {k.replace(".mixer.", ".mixer.layer.", 1).replace(".mlp.", ".mlp.layer.", 1): v for k, v in sd.items()}
    (tmp_path / "config.json").write_text((src / "config.json").read_text())
    sd["decoder.0.weight"] = torch.zeros(3)  # a task module outside the model: skipped
    torch.save({"state_dict": sd, "epoch": 3}, tmp_path / "weights.ckpt")
    ref = load_file(str(src / "logits.safetensors"))
    assert max_error(load_official(tmp_path), ref, "logits_float32") <= 1e-5


def test_each_difference_matters():
    "Without the channel permutation, or with the other window shift, the logits are far off: the options are needed."
    name = "safari_lm_order3"
    cfg = json.loads((FIXTURES / name / "config.json").read_text())
    state, ref = load_file(str(FIXTURES / name / "weights.safetensors")), load_file(str(FIXTURES / name / "logits.safetensors"))
    plain = HyenaLM(config_from_lightning(cfg)).eval()
    plain.load_state_dict(map_state(plain, state, "model.", interleaved=False))
    assert max_error(plain, ref, "logits_float32") > 1e-2
    for fam, shift in (("hyenadna_hf", 0.0), ("hyenadna_lightning", 0.05)):
        ref = load_file(str(FIXTURES / fam / "logits.safetensors"))
        assert max_error(load_official(FIXTURES / fam, filter_shift=shift), ref, "logits_float32") > 1e-3


def test_bad_checkpoints_are_refused():
    name = "safari_lm_order2"
    cfg = json.loads((FIXTURES / name / "config.json").read_text())
    state = load_file(str(FIXTURES / name / "weights.safetensors"))
    with pytest.raises(ValueError, match="missing"):
        from_lightning({k: v for k, v in state.items() if "ln_f" not in k}, cfg)
    with pytest.raises(ValueError, match="not understood"):
        from_lightning({**state, "model.backbone.extra.weight": torch.zeros(1)}, cfg)
    with pytest.raises(ValueError, match="tie_embeddings=False"):
        from_lightning({**state, "model.lm_head.weight": torch.randn_like(state["model.lm_head.weight"])}, cfg)
    with pytest.raises(ValueError, match="num_heads"):
        from_lightning(state, {**cfg, "layer": {**cfg["layer"], "num_heads": 2}})


def test_tokenizer_matches_official():
    tok = json.loads((FIXTURES / "hyenadna_tokenizer.json").read_text())
    assert hyenadna_encode(tok["text"]) == tok["ids"]
    assert hyenadna_encode(tok["text"], add_special_tokens=True) == tok["ids_with_special_tokens"]


MODELS = {
    "hyena": lambda: HyenaLM(HyenaConfig.from_size("tiny", vocab_size=12)),
    "gpt": lambda: HyenaLM(HyenaConfig.from_size("gpt-tiny", vocab_size=12)),
    "hyena-untied-shift": lambda: HyenaLM(HyenaConfig.from_size("tiny", vocab_size=12, tie_embeddings=False, filter_shift=0.05)),
    "longconv": lambda: HyenaLM(HyenaConfig.from_size("tiny", vocab_size=12, mixer="longconv:h3")),
    "h3": lambda: HyenaLM(HyenaConfig.from_size("tiny", vocab_size=12, mixer="h3")),
    **{f"dna-{m}": (lambda m=m: dna_lm(m, 2, 32, 64)) for m in ("hyenadna", "transformer++", "mamba")},
}


@pytest.mark.parametrize("name", list(MODELS))
def test_round_trip_bit_for_bit(name, tmp_path):
    torch.manual_seed(0)
    m = MODELS[name]().eval()
    m.save_pretrained(tmp_path)
    back = HyenaLM.from_pretrained(tmp_path, strict=True)
    a, b = m.state_dict(), back.state_dict()
    assert back.cfg == m.cfg and list(a) == list(b) and all(torch.equal(a[k], b[k]) for k in a)
    ids = torch.randint(0, 12, (2, 33))
    assert torch.equal(m(ids), back(ids))


def test_export_run_and_generate_cli(tmp_path):
    m = HyenaLM(HyenaConfig.from_size("tiny", vocab_size=256)).eval()
    run = tmp_path / "run"
    run.mkdir()
    (run / "params.json").write_text(json.dumps({"config": m.cfg.to_dict()}))
    save_checkpoint(run / "checkpoint", m, torch.optim.AdamW(m.parameters()))
    with pytest.raises(ValueError, match="not a finished run"): export_run(run, tmp_path / "model")
    (run / "metrics.json").write_text("{}")
    out = export_run(run, tmp_path / "model")
    back = HyenaLM.from_pretrained(out, strict=True)
    assert all(torch.equal(x, y) for x, y in zip(m.state_dict().values(), back.state_dict().values()))
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    r = subprocess.run([sys.executable, "-m", "hyena_lit.inference.generate", "--model", str(out), "--prompt", "ab", "--max_new_tokens", "5"],
                       capture_output=True, text=True, env=env, cwd=ROOT)
    assert r.returncode == 0, r.stderr[-2000:]
    with torch.no_grad(): greedy = m.generate(torch.tensor([[97, 98]]), 5, temperature=0.0)[0].tolist()
    assert r.stdout.rstrip("\n") == bytes(greedy).decode("utf-8", "replace")
    with pytest.raises(FileNotFoundError, match="checkpoint"): export_run(tmp_path / "missing", tmp_path / "x")


def test_missing_folder_is_named():
    with pytest.raises(FileNotFoundError, match="not a hub id"): load_official(ROOT / "no" / "such" / "folder")


@pytest.mark.parametrize("name", FAMILIES)
def test_converted_models_save_and_load(name, tmp_path):
    "A converted model (permuted filter channels, untied head, window shift) keeps the official logits through a folder."
    ref = load_file(str(FIXTURES / name / "logits.safetensors"))
    load_official(FIXTURES / name).save_pretrained(tmp_path)
    assert max_error(HyenaLM.from_pretrained(tmp_path, strict=True), ref, "logits_float32") <= 1e-5


@pytest.mark.parametrize("model", ["vit", "hyena-vit", "hyena-iso", "s4nd-iso"])
def test_image_models_round_trip_bit_for_bit(model, tmp_path):
    from hyena_lit.models.image_models import ImageConfig, build_model
    torch.manual_seed(0)
    net = build_model(ImageConfig(model=model, image_size=8, channels=1, num_classes=3, patch=2, d_model=16,
                                  n_layer=1, d_inner=32, n_heads=2)).eval()
    net.save_pretrained(tmp_path)
    back = type(net).from_pretrained(tmp_path).eval()
    x = torch.rand(2, 1, 8, 8)
    assert all(torch.equal(a, b) for a, b in zip(net.state_dict().values(), back.state_dict().values()))
    assert torch.equal(net(x), back(x))


def test_dna_fine_tuning_starts_from_a_pretrained_folder(tmp_path):
    "82_dna's `init_from` takes a save_pretrained folder (a converted HyenaDNA) as well as a pretraining run."
    from hyena_lit.experiments.dna import run_dna
    from hyena_lit.models.dna_models import DNA_SIZES
    n, d, _ = DNA_SIZES[0]
    dna_lm("hyenadna", n, d, 1024).save_pretrained(tmp_path / "pre")
    p = dict(data="fixture", task="species", model="hyenadna", seq_len=32, size=0, steps=0, tokens_per_step=0, slw_from=0,
             epochs=1, steps_per_epoch=2, batch_size=8, lr=6e-4, micro_batch=0, n_test=16, n_regions=10, min_contig=0,
             kmer_k=3, init_from=str(tmp_path / "pre"), seed=0, threads=1)
    m = run_dna(p, tmp_path / "run")
    assert m["task"] == "species" and 0 <= m["final"] <= 1 and m["epochs_run"] == 1
