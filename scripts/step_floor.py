"""The roofline floor of a language model's training step on a named GPU, counted on a CPU.

usage: python scripts/step_floor.py --out DIR [--rows 125M:2048:8,gpt-125M:2048:8,...] [--gpu H200,A100-SXM4-80GB]
                                    [--dtype bfloat16] [--conv torch,fused] [--operators [--lengths ...] [--batch 64]]
                                    [--at COMMIT]

Each row (size:L:batch, a `HyenaConfig.from_size` name) runs one training step of HyenaLM on fake tensors (shapes and
dtypes, nothing computed): forward, cross-entropy on float32 logits and backward under autocast, as
`step_profile.profile_step` times it on a GPU, and in the graph a GPU runs (the operator's channels unblocked: it
blocks them on a CPU only; CPU autocast casts these models' operators as CUDA's does: products, convolutions and
attention in bfloat16, norms in float32). Every operator that reaches the backend and launches a kernel
(`step_profile._launches`) is charged the bytes it must move at least (`step_profile._traffic`) and its FLOPs: matrix
products and convolutions by torch's flop counter, attention at the products a causal kernel does (half of L^2),
FFTs at 2.5 n log2 n a real transform of n points. The step's floor is the sum over operators of the slower of bytes
over the GPU's HBM bandwidth and FLOPs over its rate (tensor cores for half-precision products, CUDA cores for float32
products and FFTs; `fftconv_checks.GPU_PEAKS`), plus a fused AdamW's pass over the parameters (28 bytes an element: reads
p, g, m, v and writes p, m, v). It is what no implementation of this graph can beat, and what fusion can lower: a
measured step over its floor says how far the kernels are from their bytes and FLOPs. With `--conv fused` the same
step is charged with the gated long convolution and the short filter as their fused kernels' least times instead of
their operators (the Monarch kernels' rooflines, the short filter kernel's bytes; one launch a call): the floor that
fusing them reaches. The fused rows' bytes and FLOPs leave those kernels out; their floor_ms includes them.

With `--operators` the points are Figure 4.3's instead (`operator_floor`): one operator with its projections at batch
64, forward and forward+backward, as the GPU check times them, into DIR/operator_floor.csv and
DIR/operator_floor_by_op.csv.
With `--at COMMIT` the code of that commit is counted (a GPU check's `code`, the graph it ran), in a temporary git
worktree with this checkout's counting scripts: `runs/gpu/step-floor/as-run/<check>/` holds such floors.
Writes (refusing files that exist): DIR/floor.csv (one row per size, L, batch: launching operators, GB moved, TFLOP,
floor ms, the commit of the code counted) and DIR/floor_by_op.csv (per row and operator: calls, MB, GFLOP, floor
ms)."""
import argparse, contextlib, math, os, pathlib, sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path: sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

# the H200 step table's rows (same tokens a step: 16K), then the lengths past it, at one sequence a step
ROWS = ",".join(f"{s}:{L}:{max(1, 16384 // L)}" for L in (2048, 4096, 8192, 16384, 32768, 65536) for s in ("125M", "gpt-125M")) \
    + "," + ",".join(f"{s}:{L}:{16384 // L}" for L in (2048, 8192, 16384) for s in ("355M", "gpt-355M"))
OPS = ("hyena", "hyena-o3", "sdpa")  # Figure 4.3's operators, as the GPU check times them (50_runtime's build)
FIG43_LENGTHS = (1024, 2048, 4096, 8192, 16384, 32768)
ADAMW_BYTES = 28  # a fused AdamW step per float32 parameter element: reads p, g, m, v (16), writes p, m, v (12)
_SDPA = ("_scaled_dot_product_flash_attention", "_scaled_dot_product_flash_attention_for_cpu",
         "_scaled_dot_product_efficient_attention", "_scaled_dot_product_cudnn_attention")


def _attention_flops(name: str, q, causal: bool) -> int:
    "FLOPs of exact attention on q (B, H, L, E): QK^T and PV forward (2 products), backward twice those; causal halves."
    B, H, L, E = q.shape
    f = 2 * 2 * B * H * L * L * E * (2 if name.endswith("_backward") else 1)
    return f // 2 if causal else f


def op_flops(func, args, kwargs, out) -> tuple[int, str]:
    """(FLOPs, the units that do them: 'half' tensor cores, 'fp32' CUDA cores or 'none') of one operator call."""
    import torch
    from torch.utils.flop_counter import flop_registry
    name = func.overloadpacket.__name__
    if name in ("_fft_r2c", "_fft_c2r"):
        x, dims = args[0], args[1]
        n = x.shape[dims[-1]] if name == "_fft_r2c" else args[3]  # the real length (c2r: its last_dim_size)
        rows = x.numel() // x.shape[dims[-1]]
        return int(2.5 * n * math.log2(max(n, 2)) * rows), "fp32"
    if name.removesuffix("_backward") in _SDPA:
        q = args[1] if name.endswith("_backward") else args[0]
        causal = bool(kwargs.get("is_causal", next((a for a in args if isinstance(a, bool)), False)))
        return _attention_flops(name, q, causal), "half" if q.dtype in (torch.bfloat16, torch.float16) else "fp32"
    if name == "convolution_backward":  # torch's formula misses the groups of a depthwise convolution's input gradient
        grad, x, w, _, stride, padding, dilation, transposed, output_padding, groups, mask = args[:11]
        fwd = flop_registry[torch.ops.aten.convolution](x, w, None, stride, padding, dilation, transposed,
                                                        output_padding, groups, out_val=grad)
        return int(fwd * (int(mask[0]) + int(mask[1]))), "half" if x.dtype in (torch.bfloat16, torch.float16) else "fp32"
    if func.overloadpacket in flop_registry:
        f = flop_registry[func.overloadpacket](*args, **(kwargs or {}), out_val=out)
        t = next((a for a in args if isinstance(a, torch.Tensor)), None)
        return int(f), "half" if t is not None and t.dtype in (torch.bfloat16, torch.float16) else "fp32"
    return 0, "none"


def _fused_ms(kind: str, backward: bool, u_shape, elem: int, peaks: dict) -> float:
    """The least ms of one fused kernel call in place of an autograd node's operators: the gated long convolution at
    the Monarch kernels' roofline (22_monarch_fftconv to its longest length, 23_monarch_long beyond), the short filter
    at its kernel's bytes (24_short_conv)."""
    from hyena_lit.kernels.monarch_fftconv import MONARCH_MAX_L, monarch_roofline
    from hyena_lit.kernels.monarch_long import long_roofline
    from hyena_lit.kernels.short_conv import short_conv_bytes
    B, C, L = u_shape
    if kind == "short":
        nbytes = short_conv_bytes(B, C, L, elem, True) - short_conv_bytes(B, C, L, elem, False) if backward else \
            short_conv_bytes(B, C, L, elem, False)
        return 1e3 * nbytes / peaks["bandwidth"]
    r = (monarch_roofline if L <= MONARCH_MAX_L else long_roofline)(B, C, L, peaks, "bf16" if elem == 2 else "fp32")
    return r["bwd_ms" if backward else "fwd_ms"]


class _Fused:
    """While inside, the forward and backward of the gated long convolution (FFTConvFn) and the short filter
    (ShortConvFn) are not charged operator by operator: each call is charged its fused kernel's least time
    (`_fused_ms`), collected in `calls`."""
    def __init__(self, peaks: dict):
        self.peaks, self.inside, self.calls, self.saved = peaks, False, [], []

    def __enter__(self):
        from hyena_lit.core import fftconv, operator
        for cls, kind in ((fftconv.FFTConvFn, "long"), (fftconv.ShortConvFn, "short")):
            for name in ("forward", "backward"):
                orig = getattr(cls, name)
                self.saved.append((cls, name, orig))
                setattr(cls, name, staticmethod(self._wrap(orig, kind, name == "backward")))
        # without a graph to build (the channel blocks' forward, BlockedMix) the operator's fftconv runs the transforms
        # itself, not through FFTConvFn: the whole call is one fused forward
        for name in ("fftconv", "gated_fftconv_packed"):
            if not hasattr(operator, name): continue  # the packed form is newer than some code counted
            orig = getattr(operator, name)
            self.saved.append((operator, name, orig))
            setattr(operator, name, self._whole_call(orig))
        return self

    def _whole_call(self, orig):
        "`orig` (the operator's fftconv or its packed form) charged as one fused forward where no FFTConvFn ran."
        def call(*a, **kw):
            n, was = len(self.calls), self.inside
            self.inside = True
            try: out = orig(*a, **kw)
            finally: self.inside = was
            if len(self.calls) == n: self._charge("long", False, out)
            return out
        return call

    def _charge(self, kind: str, backward: bool, first):
        self.calls.append(dict(op=f"fused {kind} {'backward' if backward else 'forward'}",
                               ms=_fused_ms(kind, backward, tuple(first.shape), first.element_size(), self.peaks)))

    def _wrap(self, orig, kind: str, backward: bool):
        def run(ctx, first, *rest):
            was, self.inside = self.inside, True
            try: out = orig(ctx, first, *rest)
            finally: self.inside = was
            # a call's size is its output's forward (a packed long convolution's input holds its gates too) and its
            # gradient's backward: (B, C, L)
            self._charge(kind, backward, first if backward else out)
            return out
        return run

    def __exit__(self, *exc):
        for owner, name, orig in self.saved:
            setattr(owner, name, orig if owner.__class__.__name__ == "module" else staticmethod(orig))


def _charged(peaks: dict, conv: str, run) -> dict:
    """{operator: dict(calls, bytes, flops, ms)} of the operators `run()` launches (`counting_mode`), each at the slower
    of its bytes over `peaks`' bandwidth and its FLOPs over its units' rate; `conv` "fused" charges the convolutions as
    their fused kernels (`_Fused`)."""
    from step_profile import _launches, _traffic, counting_mode
    by = {}
    fused = _Fused(peaks) if conv == "fused" else None

    def on_op(func, args, kwargs, out):
        if (fused is not None and fused.inside) or not _launches(func): return
        nbytes = _traffic(args, kwargs, out, func.overloadpacket.__name__)
        flops, unit = op_flops(func, args, kwargs, out)
        rate = peaks["half"] if unit == "half" else peaks["fp32"]
        r = by.setdefault(func.overloadpacket.__name__, dict(calls=0, bytes=0, flops=0, ms=0.0))
        r["calls"] += 1; r["bytes"] += nbytes; r["flops"] += flops
        r["ms"] += 1e3 * max(nbytes / peaks["bandwidth"], flops / rate)

    with fused if fused is not None else contextlib.nullcontext(), counting_mode(on_op): run()
    for c in fused.calls if fused is not None else []:
        r = by.setdefault(c["op"], dict(calls=0, bytes=0, flops=0, ms=0.0))
        r["calls"] += 1; r["ms"] += c["ms"]
    return by


def _as_on_a_gpu(model):
    """A GPU's graph: 12_operator mixes channels in blocks on a CPU only, and checks a leaf input for non-finite
    values (a host synchronisation) on a CPU only while training."""
    from hyena_lit.core.operator import HyenaOperator
    for m in model.modules():
        if isinstance(m, HyenaOperator): m.block_channels, m.nonfinite = 0, "off"
    return model


@contextlib.contextmanager
def _staying():
    """`build`'s `.to("cpu")` as the no-op it is on a CPU: on fake parameters Module.to would swap tensors, which
    FakeTensorMode's own references forbid."""
    import torch
    was = torch.nn.Module.to
    torch.nn.Module.to = lambda self, *a, **kw: self
    try: yield
    finally: torch.nn.Module.to = was


def _peaks(gpu: str, conv: str) -> dict:
    from hyena_lit.kernels.fftconv_checks import GPU_PEAKS
    if conv not in ("torch", "fused"): raise ValueError(f"conv must be torch or fused, got {conv!r}")
    if gpu not in GPU_PEAKS: raise ValueError(f"gpu must be one of {sorted(GPU_PEAKS)}, got {gpu!r}")
    return GPU_PEAKS[gpu]


def _summary(by: dict, key: dict, extra: dict | None = None) -> tuple[dict, list[dict]]:
    "(the summary row, the per-operator rows) of `_charged`'s table, `extra` (an operator charged apart) included."
    import torch
    from step_profile import code_commit
    ops = [dict(**key, op=k, calls=v["calls"], mb=round(v["bytes"] / 1e6, 2), gflop=round(v["flops"] / 1e9, 3),
                floor_ms=round(v["ms"], 4)) for k, v in by.items()]
    if extra: ops.append(dict(**key, op=extra["op"], calls=1, mb=round(extra["bytes"] / 1e6, 2), gflop=0.0,
                              floor_ms=round(extra["ms"], 4)))
    ops.sort(key=lambda r: -r["floor_ms"])
    e = extra or dict(bytes=0, ms=0.0)
    row = dict(**key, launching_ops=sum(v["calls"] for v in by.values()),
               gb_moved=round((sum(v["bytes"] for v in by.values()) + e["bytes"]) / 1e9, 3),
               tflop=round(sum(v["flops"] for v in by.values()) / 1e12, 3),
               floor_ms=round(sum(v["ms"] for v in by.values()) + e["ms"], 3), code=code_commit(), torch=torch.__version__)
    return row, ops


def step_floor(size: str, L: int, batch: int, gpu: str = "H200", dtype: str = "bfloat16",
               conv: str = "torch") -> tuple[dict, list[dict]]:
    """(one summary row, one row per operator) of the training step of HyenaLM(`size`) at context L, batch `batch`.
    `conv`: "torch", every operator the code runs; "fused", the same step with the gated long convolution and the short
    filter charged as fused kernels would be (`_Fused`): what fusing them can reach."""
    import torch
    import torch.nn.functional as F
    from hyena_lit.models.model import HyenaConfig, HyenaLM
    from step_profile import _autocast, fake_mode
    peaks = _peaks(gpu, conv)
    cfg = HyenaConfig.from_size(size, l_max=max(L, HyenaConfig.from_size(size).l_max))
    with fake_mode():
        torch.manual_seed(0)
        model = _as_on_a_gpu(HyenaLM(cfg))
        # the id check as a GPU's training step runs it (no host synchronisation; a CPU's min and max would read data)
        model._check_ids = lambda ids: ((ids >= 0) & (ids < cfg.vocab_size)).all()
        x = torch.randint(0, cfg.vocab_size, (batch, L + 1))

        def step():
            with _autocast("cpu", dtype):
                loss = F.cross_entropy(model(x[:, :-1]).float().flatten(0, 1), x[:, 1:].flatten())
            loss.backward()

        by = _charged(peaks, conv, step)
        params = sum(p.numel() for p in model.parameters())
    adamw = dict(op="adamw (fused)", bytes=ADAMW_BYTES * params, ms=1e3 * ADAMW_BYTES * params / peaks["bandwidth"])
    key = dict(size=size, mixer=cfg.mixer, L=L, batch=batch, dtype=dtype, conv=conv, gpu=gpu)
    row, ops = _summary(by, key, adamw)
    return row | dict(params=params), ops


def operator_floor(op: str, L: int, batch: int = 64, gpu: str = "H200", dtype: str = "bfloat16", conv: str = "torch",
                   d_model: int = 768, n_heads: int = 12, backward: bool = True) -> tuple[dict, list[dict]]:
    """(one summary row, one row per operator) of one Figure 4.3 point: 50_runtime's `build(op)` ('hyena',
    'hyena-o3' or 'sdpa', each with its projections) called as `bench_call` times it on a GPU (under autocast;
    forward, or forward and backward of the sum)."""
    import torch
    from hyena_lit.experiments.runtime import bench_call, build
    from step_profile import fake_mode
    if op not in ("hyena", "hyena-o3", "sdpa"): raise ValueError(f"op must be hyena, hyena-o3 or sdpa, got {op!r}")
    peaks = _peaks(gpu, conv)
    with fake_mode(), _staying():
        m = _as_on_a_gpu(build(op, d_model, n_heads, L))
        u = torch.randn(batch, L, d_model, requires_grad=backward)
        by = _charged(peaks, conv, lambda: bench_call(m, u, backward, dtype))
    key = dict(operator=op, **{"pass": "fwdbwd" if backward else "fwd"}, L=L, B=batch, D=d_model, dtype=dtype,
               conv=conv, gpu=gpu)
    return _summary(by, key)


def parse_rows(text: str) -> list[tuple[str, int, int]]:
    "'125M:2048:8,...' -> [(size, L, batch), ...], refusing what is not three fields with positive L and batch."
    out = []
    for item in text.split(","):
        parts = item.split(":")
        if len(parts) != 3 or not parts[1].isdigit() or not parts[2].isdigit() or int(parts[1]) < 1 or int(parts[2]) < 1:
            raise SystemExit(f"error: --rows takes size:L:batch items (L, batch positive integers), got {item!r}")
        out.append((parts[0], int(parts[1]), int(parts[2])))
    return out


def at_commit(commit: str, args: list[str], out: str):
    """Runs this script with `args` on the code of `commit`, checked out in a temporary git worktree with this
    checkout's step_floor.py and step_profile.py (the counting, as it is now): the floor of the graph that commit
    runs, each row's `code` naming it, written to `out`. The worktree is removed after, whatever happens."""
    import shutil, subprocess, tempfile
    git = lambda *a: subprocess.run(["git", *a], cwd=ROOT, capture_output=True, text=True)
    if not commit or commit.startswith("-") or git("rev-parse", "--verify", "--quiet", f"{commit}^{{commit}}").returncode:
        raise SystemExit(f"error: --at: {commit!r} is not a commit of this repository")
    with tempfile.TemporaryDirectory() as tmp:
        wt = pathlib.Path(tmp) / "code"
        r = git("worktree", "add", "--detach", str(wt), commit)
        if r.returncode: raise SystemExit(f"error: --at: git worktree add failed: {r.stderr.strip()}")
        try:
            for f in ("step_floor.py", "step_profile.py"): shutil.copy(ROOT / "scripts" / f, wt / "scripts" / f)
            r = subprocess.run([sys.executable, str(wt / "scripts" / "step_floor.py"), "--out",
                                str(pathlib.Path(out).resolve()), *args], cwd=wt, env={**os.environ, "PYTHONPATH": str(wt)})
            if r.returncode: raise SystemExit(f"error: --at {commit}: the count failed (exit {r.returncode})")
        finally:
            git("worktree", "remove", "--force", str(wt))

def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", required=True, help="folder for floor.csv and floor_by_op.csv")
    p.add_argument("--rows", default=ROWS, help="comma-separated size:L:batch")
    p.add_argument("--operators", action="store_true", help="Figure 4.3's points instead of training steps: "
                   f"operator_floor.csv and operator_floor_by_op.csv, the ops {OPS} at --lengths, --batch")
    p.add_argument("--lengths", default=",".join(map(str, FIG43_LENGTHS)), help="with --operators: comma-separated L")
    p.add_argument("--batch", type=int, default=64, help="with --operators: the batch (the paper's 64)")
    p.add_argument("--gpu", default="H200,A100-SXM4-80GB", help="comma-separated names of fftconv_checks.GPU_PEAKS")
    p.add_argument("--dtype", default="bfloat16", help="bfloat16 or float16 autocast")
    p.add_argument("--conv", default="torch,fused", help="comma-separated: torch (the operators the code runs), fused "
                   "(the long convolution and the short filter charged as their fused kernels)")
    p.add_argument("--at", default=None, help="count the code of this commit (a GPU check's `code`: the graph it ran) "
                   "with this checkout's counting scripts, in a temporary git worktree")
    a = p.parse_args(argv)
    if a.at is not None:  # the same count, rebuilt from the parsed options, on that commit's code
        same = ["--rows", a.rows, "--gpu", a.gpu, "--dtype", a.dtype, "--conv", a.conv] + (
            ["--operators", "--lengths", a.lengths, "--batch", str(a.batch)] if a.operators else [])
        return at_commit(a.at, same, a.out)
    convs = a.conv.split(",")
    if not convs or any(c not in ("torch", "fused") for c in convs) or len(set(convs)) < len(convs):
        raise SystemExit(f"error: --conv takes distinct names from torch, fused; got {a.conv!r}")
    if a.dtype not in ("bfloat16", "float16"): raise SystemExit(f"error: --dtype must be bfloat16 or float16, got {a.dtype!r}")
    from hyena_lit.kernels.fftconv_checks import GPU_PEAKS
    gpus = a.gpu.split(",")
    if any(g not in GPU_PEAKS for g in gpus): raise SystemExit(f"error: --gpu takes names from {sorted(GPU_PEAKS)}, got {a.gpu!r}")
    if a.operators:
        lengths = a.lengths.split(",")
        if not all(x.isdigit() and int(x) >= 1 for x in lengths) or a.batch < 1:
            raise SystemExit(f"error: --lengths takes positive integers and --batch a positive one, got {a.lengths!r}, {a.batch}")
        names = ("operator_floor.csv", "operator_floor_by_op.csv")
        points = [(op, int(L), bwd, c, g) for L in lengths for op in OPS for bwd in (False, True) for c in convs for g in gpus]
        fn = lambda op, L, bwd, c, g: operator_floor(op, L, a.batch, g, a.dtype, c, backward=bwd)
    else:
        rows = parse_rows(a.rows)
        from hyena_lit.models.model import HyenaConfig
        for size, _, _ in rows:
            try: HyenaConfig.from_size(size)
            except ValueError as e: raise SystemExit(f"error: --rows: {e}")
        names = ("floor.csv", "floor_by_op.csv")
        points = [(*r, c, g) for r in rows for c in convs for g in gpus]
        fn = lambda size, L, batch, c, g: step_floor(size, L, batch, g, a.dtype, c)
    out = pathlib.Path(a.out)
    for f in names:
        if (out / f).exists(): raise SystemExit(f"error: {out / f} exists: a floor is not overwritten")
    import pandas as pd
    from tqdm import tqdm
    summary, ops = [], []
    for point in tqdm(points, desc="floors"):
        r, o = fn(*point)
        summary.append(r); ops += o
    out.mkdir(parents=True, exist_ok=True)
    pd.DataFrame(summary).to_csv(out / names[0], index=False)
    pd.DataFrame(ops).to_csv(out / names[1], index=False)
    print(f"{len(summary)} floors in {out / names[0]}")


if __name__ == "__main__":
    main()
