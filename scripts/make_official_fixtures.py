"""Write small checkpoints of the official Hyena and HyenaDNA code, with their configs and logits, as test fixtures.

A developer runs this once; the files it writes are committed and `tests/test_pretrained.py` converts each
checkpoint into this library's models and compares logits. Nothing here is imported by the library.

    python scripts/make_official_fixtures.py --safari PATH/safari --hyenadna PATH/hyena-dna \
        --flash-attn PATH/flash-attention --hyenadna-hf PATH/hyenadna-hf --out nbs/fixtures/official

Inputs, each a local copy:
- `--safari`: a clone of HazyResearch/safari (the Hyena LMs: `src/models/sequence/long_conv_lm.py`, `hyena.py`).
- `--hyenadna`: a clone of HazyResearch/hyena-dna (its training code under `src/`, which writes the Lightning
  `weights.ckpt`, and its character tokenizer).
- `--flash-attn`: a clone of Dao-AILab/flash-attention; only its Python modules are imported (`flash_attn.modules`,
  `flash_attn.utils`), for the Block, Mlp and embedding classes that `ConvLMHeadModel` is built from.
- `--hyenadna-hf`: a folder holding `modeling_hyena.py` and `configuration_hyena.py` of a LongSafari
  `hyenadna-*-hf` hub repository (the transformers remote code of the `-hf` checkpoints).

Developer-only requirements: einops, opt_einsum, hydra-core, omegaconf, rich, transformers (4.x).

Stubs, so that the official model files import on a CPU without their optional extensions (none of them is on the
path that computes the logits written here):
- `flash_attn_2_cuda` and `fused_dense_lib` (CUDA extensions imported at the top of `flash_attn/__init__.py` and
  `flash_attn/ops/fused_dense.py`): every layer here is a Hyena layer with plain Linear layers, so neither runs;
- flash-attn's fused LayerNorm kernel (CUDA-only), marked absent: flash-attn's Block catches the ImportError and uses
  torch's LayerNorm;
- `torchvision.ops.StochasticDepth`, replaced by the identity: the models are built with drop-path 0 and run in eval
  mode, where torchvision's module is the identity too;
- `pytorch_lightning` (imported by `src/utils/train.py` for `rank_zero_only`, a logging decorator).

The configs set `residual_in_fp32=False` (the released ones set True): in float32 the two are one function, and True
would cast the float64 reference's residual stream to float32.

Each fixture folder holds the official state dict (safetensors, the official key names), a config (json) and
`logits.safetensors` with the input ids and the official logits in float32 and, where the official code computes in
the parameters' dtype, in float64 too.
"""
from __future__ import annotations
import argparse, importlib, importlib.machinery, importlib.util, json, sys, types
from pathlib import Path
import torch
from safetensors.torch import save_file

SEED = 0
DNA_TEXT_CHARS = "ACGTNacgtnRYXZ-"  # every character class: bases, N, lowercase, other letters, punctuation


def stub_optional_modules():
    "Empty stand-ins for the CUDA extension, torchvision and Lightning (see the module docstring)."
    for ext in ("flash_attn_2_cuda", "fused_dense_lib"): sys.modules.setdefault(ext, types.ModuleType(ext))
    for fused in ("flash_attn.ops.triton.layer_norm", "flash_attn.ops.layer_norm"):
        sys.modules[fused] = None  # import raises ImportError: the official code falls back to its plain torch path
    tv, ops = types.ModuleType("torchvision"), types.ModuleType("torchvision.ops")

    class StochasticDepth(torch.nn.Identity):
        def __init__(self, p=0.0, mode="row"):
            super().__init__()
            if p: raise ValueError("this stub only stands for drop-path 0")

    ops.StochasticDepth, tv.ops = StochasticDepth, ops
    tv.__spec__, ops.__spec__ = (importlib.machinery.ModuleSpec(n, None) for n in ("torchvision", "torchvision.ops"))
    sys.modules["torchvision"], sys.modules["torchvision.ops"] = tv, ops
    pl, util = types.ModuleType("pytorch_lightning"), types.ModuleType("pytorch_lightning.utilities")
    util.rank_zero_only = lambda f: f
    pl.utilities = util
    sys.modules["pytorch_lightning"], sys.modules["pytorch_lightning.utilities"] = pl, util


def use_repo(root: Path):
    "Put one official `src` package on the path (safari and hyena-dna both call theirs `src`)."
    for name in [m for m in sys.modules if m == "src" or m.startswith("src.")]: del sys.modules[name]
    sys.path[:] = [p for p in sys.path if not p.endswith(("safari", "hyena-dna"))]
    sys.path.insert(0, str(root))


def save_state(sd: dict, path: Path, prefix: str = ""):
    "A state dict as safetensors: every key kept (tied ones included, as the official checkpoints keep them)."
    save_file({prefix + k: v.detach().clone().contiguous() for k, v in sd.items()}, str(path))


def write(out: Path, name: str, config: dict, state_file: str, sd: dict, ids, logits32, logits64=None, prefix=""):
    d = out / name
    d.mkdir(parents=True, exist_ok=True)
    (d / "config.json").write_text(json.dumps(config, indent=2) + "\n")
    save_state(sd, d / state_file, prefix)
    tensors = {"input_ids": ids, "logits_float32": logits32.float()}
    if logits64 is not None: tensors["logits_float64"] = logits64
    save_file({k: v.contiguous() for k, v in tensors.items()}, str(d / "logits.safetensors"))
    print(f"{name}: {len(sd)} tensors, logits {tuple(logits32.shape)}")


def conv_lm_logits(model, ids):
    model.eval()
    with torch.no_grad():
        l32 = model(ids)[0].logits
        l64 = model.double()(ids)[0].logits
    model.float()
    return l32, l64


def safari_lm(args, out: Path, order: int):
    "safari's ConvLMHeadModel with Hyena layers, as its Pile configs build it (order 2) and at order 3."
    use_repo(args.safari)
    from src.models.sequence.long_conv_lm import ConvLMHeadModel
    torch.manual_seed(SEED + order)
    layer = dict(_name_="hyena", emb_dim=5, filter_order=16, short_filter_order=3, l_max=256, order=order,
                 modulate=True, w=10, lr=6e-4, wd=0.0, lr_pos_emb=0.0)
    cfg = dict(d_model=32, n_layer=2, d_inner=128, vocab_size=50, resid_dropout=0.0, embed_dropout=0.1,
               layer_norm_epsilon=1e-5, pad_vocab_size_multiple=8, residual_in_fp32=False, fused_mlp=False,
               fused_dropout_add_ln=False, layer=layer)
    model = ConvLMHeadModel(**{**cfg, "layer": dict(layer)})
    with torch.no_grad():  # the init leaves filter biases at randn and LayerNorms at 1/0: move every tensor off its init
        for p in model.parameters(): p.add_(0.02 * torch.randn_like(p))
    ids = torch.randint(0, cfg["vocab_size"], (2, 128))
    l32, l64 = conv_lm_logits(model, ids)
    write(out, f"safari_lm_order{order}", cfg, "weights.safetensors", model.state_dict(), ids, l32, l64, prefix="model.")


def official_tokenizer(args):
    use_repo(args.hyenadna)
    path = args.hyenadna / "src/dataloaders/datasets/hg38_char_tokenizer.py"  # by path: its package imports the data stack
    spec = importlib.util.spec_from_file_location("hg38_char_tokenizer", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.CharacterTokenizer(characters=["A", "C", "G", "T", "N"], model_max_length=1026, add_special_tokens=False)


def dna_ids(tok, gen: torch.Generator, n: int = 2, L: int = 128):
    texts = ["".join(DNA_TEXT_CHARS[i] for i in torch.randint(0, len(DNA_TEXT_CHARS), (L,), generator=gen)) for _ in range(n)]
    return texts, torch.tensor([tok(t, add_special_tokens=False)["input_ids"] for t in texts])


def tokenizer_fixture(args, out: Path):
    "The official character tokenizer's ids on text with every character class, with and without special tokens."
    tok = official_tokenizer(args)
    text = "ACGTN acgtn RYKMSW xyz-*.0123\n" + DNA_TEXT_CHARS
    rec = dict(text=text, ids=tok(text, add_special_tokens=False)["input_ids"],
               ids_with_special_tokens=tok(text)["input_ids"], vocab=tok._vocab_str_to_int)
    (out / "hyenadna_tokenizer.json").write_text(json.dumps(rec) + "\n")
    print("tokenizer:", rec["ids"][:12], "...")


def hyenadna_lightning(args, out: Path):
    "hyena-dna's training model (`src/`, the code that wrote `weights.ckpt`), with a config.json as the released ones."
    tok = official_tokenizer(args)
    from src.models.sequence.long_conv_lm import ConvLMHeadModel
    torch.manual_seed(SEED + 10)
    layer = dict(_name_="hyena", emb_dim=5, filter_order=16, local_order=3, l_max=256, modulate=True, w=10,
                 lr=6e-4, wd=0.0, lr_pos_emb=0.0)
    cfg = dict(d_model=32, n_layer=2, d_inner=128, vocab_size=12, resid_dropout=0.0, embed_dropout=0.1,
               fused_mlp=False, fused_dropout_add_ln=True, checkpoint_mixer=False, checkpoint_mlp=False,
               residual_in_fp32=False, pad_vocab_size_multiple=8, layer=layer)
    built = {k: v for k, v in cfg.items() if k != "fused_dropout_add_ln"}  # the fused kernel is CUDA-only: same function unfused
    model = ConvLMHeadModel(**{**built, "layer": dict(layer)})
    with torch.no_grad():
        for p in model.parameters(): p.add_(0.02 * torch.randn_like(p))
    _, ids = dna_ids(tok, torch.Generator().manual_seed(SEED + 11))
    l32, l64 = conv_lm_logits(model, ids)
    write(out, "hyenadna_lightning", cfg, "weights.safetensors", model.state_dict(), ids, l32, l64, prefix="model.")


def hyenadna_hf(args, out: Path):
    "The `-hf` layout: transformers remote code, saved with `save_pretrained` as on the hub."
    tok = official_tokenizer(args)
    spec = importlib.util.spec_from_file_location("hyenadna_hf", args.hyenadna_hf / "__init__.py",
                                                  submodule_search_locations=[str(args.hyenadna_hf)])
    sys.modules["hyenadna_hf"] = importlib.util.module_from_spec(spec)  # the folder as a package: its relative import
    modeling = importlib.import_module("hyenadna_hf.modeling_hyena")
    config_mod = importlib.import_module("hyenadna_hf.configuration_hyena")
    torch.manual_seed(SEED + 20)
    config = config_mod.HyenaConfig(vocab_size=12, d_model=32, n_layer=2, d_inner=128, max_seq_len=256, emb_dim=5,
                                    filter_order=16, activation_freq=10, embed_dropout=0.1, pad_vocab_size_multiple=8,
                                    tie_word_embeddings=False)  # as its `from_original_config` sets it
    model = modeling.HyenaDNAForCausalLM(config).eval()
    with torch.no_grad():
        for p in model.parameters(): p.add_(0.02 * torch.randn_like(p))
    _, ids = dna_ids(tok, torch.Generator().manual_seed(SEED + 21))
    with torch.no_grad(): l32 = model(input_ids=ids).logits
    d = out / "hyenadna_hf"
    d.mkdir(parents=True, exist_ok=True)
    config.to_json_file(str(d / "config.json"))
    sd, seen = {}, set()
    for k, v in model.state_dict().items():  # shared tensors (the filter's one Sin) stored once, as the hub files hold them
        if v.data_ptr() in seen: continue
        seen.add(v.data_ptr())
        sd[k] = v
    save_state(sd, d / "model.safetensors")
    save_file({"input_ids": ids.contiguous(), "logits_float32": l32.contiguous()}, str(d / "logits.safetensors"))
    print(f"hyenadna_hf: logits {tuple(l32.shape)} (no float64: its fftconv computes in float32)")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for name in ("--safari", "--hyenadna", "--flash-attn", "--hyenadna-hf"): p.add_argument(name, type=Path, required=True)
    p.add_argument("--out", type=Path, default=Path("nbs/fixtures/official"))
    args = p.parse_args(argv)
    for name in ("safari", "hyenadna", "flash_attn", "hyenadna_hf"):
        if not getattr(args, name).is_dir(): raise ValueError(f"--{name.replace('_', '-')}: no folder {getattr(args, name)}")
    args.out.mkdir(parents=True, exist_ok=True)
    stub_optional_modules()
    sys.path.insert(0, str(args.flash_attn))
    torch.set_num_threads(1)
    for order in (2, 3): safari_lm(args, args.out, order)
    tokenizer_fixture(args, args.out)
    hyenadna_lightning(args, args.out)
    hyenadna_hf(args, args.out)


if __name__ == "__main__":
    main()
