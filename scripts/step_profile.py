"""Aten operators (on a GPU: kernels) per block forward+backward, and a whole training step's kernels, by torch.profiler.

usage: python scripts/step_profile.py --out DIR [--blocks hyena,attention] [--d-model 768] [--L 1024] [--batch 1]
                                      [--dtype bfloat16] [--device cpu] [--reps 1] [--compile off|default]
                                      [--fftconv-impl auto|monarch|monarch_long|...]

One pre-norm block of the model (`Block` of 13_model: Hyena-125M's or GPT-125M's, at `--d-model`), one warm-up
forward+backward, then `--reps` forward+backward passes under torch.profiler with autocast to `--dtype` (float32: off).
On a CPU every aten operator the dispatcher runs is an event; on a GPU each of them launches one or more kernels, so the
count of aten events is the CPU proxy for the launches of a step. With `--compile default` the block runs under
torch.compile: the aten events left are the calls inductor does not generate (matrix products, FFTs, the convolution,
views), and each kernel it generates is one more launch a pass (`compiled_kernels`, inductor's own count), so the
proxy is `ops` = aten events + generated kernels. With `--fftconv-impl` naming a Triton kernel (`monarch`, ...), the
Hyena block's long convolutions run by it and its short filter by 24_short_conv's kernel (under Triton's interpreter on
a CPU), and each of their launches is one more op (`triton_launches`, counted while the profiler records).
Writes (refusing files that exist):
- DIR/aten_ops.csv: one row per block: aten events, generated kernels, Triton launches, their sum (`ops`) and
  distinct operators per forward+backward, milliseconds, device, the compile mode, the long convolution's
  `fftconv_impl` (Hyena's block), torch version;
- DIR/aten_ops_by_name.csv: per block and operator name, calls per forward+backward.
With `--counter dispatch` the ops are counted where each reaches the backend instead (`dispatch_counts`: the same on
every processor, gradients set to None between passes as a training step does), views and allocations apart from the
ops that launch a kernel, with the bytes each moves at least; it writes DIR/dispatch_ops.csv (one row per block:
launching ops, views and allocations, megabytes moved, the commit of the code counted) and DIR/dispatch_ops_by_name.csv
(per block and operator: calls and megabytes), eager only.
`profile_step` (used by scripts/gpu_check.py) profiles a whole HyenaLM training step the same way and returns its
kernels (on CUDA) or operators (on CPU) by time, with the number of launches and the peak memory."""
import argparse, contextlib, os, pathlib, sys, time

ROOT = pathlib.Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path: sys.path.insert(0, str(ROOT))

BLOCKS = {"hyena": "125M", "attention": "gpt-125M"}  # the named sizes whose block is profiled
DTYPES = ("bfloat16", "float16", "float32")

def _autocast(device: str, dtype: str):
    import torch
    return torch.autocast(torch.device(device).type, dtype=getattr(torch, dtype), enabled=dtype != "float32")

def block_events(block: str, d_model: int = 768, L: int = 1024, batch: int = 1, dtype: str = "bfloat16",
                 device: str = "cpu", reps: int = 1, compile: str = "off", **overrides):
    """(profiler events of `reps` forward+backward passes of one `block` ('hyena' or 'attention') block, ms per
    pass). `compile`: "off", or a torch.compile mode for the block (inductor's generated-kernel counter is reset before
    the warm-up pass, which compiles: read it with `generated_kernels()`). `overrides` go to the HyenaConfig."""
    import torch
    from torch.profiler import ProfilerActivity, profile
    from hyena_lit.models.model import Block, HyenaConfig
    torch.manual_seed(0)
    heads = max(1, d_model // 64)
    cfg = HyenaConfig.from_size(BLOCKS[block], d_model=d_model, d_inner=4 * d_model, n_heads=heads,
                                l_max=max(L, 2048), **overrides)
    dev = torch.device(device)
    m = Block(cfg).to(dev)
    if compile != "off":
        from torch._inductor import config, metrics
        config.fx_graph_cache = False  # a cached graph generates no kernels: the count must see every one compiled
        import torch._functorch.config as fconfig
        if hasattr(fconfig, "enable_autograd_cache"): fconfig.enable_autograd_cache = False
        m = torch.compile(m, mode=compile)
        metrics.reset()
    h = torch.randn(batch, L, d_model, device=dev, requires_grad=True)
    g = torch.randn(batch, L, d_model, device=dev)

    def fwdbwd():
        with _autocast(device, dtype):
            y = m(h)
        y.backward(g.to(y.dtype))

    fwdbwd()
    acts = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if dev.type == "cuda" else [])
    if dev.type == "cuda": torch.cuda.synchronize(dev)
    t0 = time.perf_counter()
    with profile(activities=acts) as prof:
        for _ in range(reps): fwdbwd()
        if dev.type == "cuda": torch.cuda.synchronize(dev)
    return prof.events(), 1e3 * (time.perf_counter() - t0) / reps

def generated_kernels() -> int:
    "The kernels inductor generated since the last compiled `block_events` began: each is launched once a pass."
    from torch._inductor import metrics
    return int(metrics.generated_kernel_count)

LAUNCH_EVENT = "triton kernel launch"  # the profiler range around each counted launch (`counted_launches`)

def _under_launch(e) -> bool:
    while e is not None:
        if e.name == LAUNCH_EVENT: return True
        e = e.cpu_parent
    return False

def count_aten(events, reps: int = 1) -> tuple[int, dict]:
    """(aten events per pass, {operator name: calls per pass}) of a profile's CPU events, less those inside a counted
    Triton launch (`LAUNCH_EVENT`: the launch is one op, counted apart)."""
    by_name = {}
    for e in events:
        if e.name.startswith("aten::") and e.device_type.name == "CPU" and not _under_launch(e):
            by_name[e.name] = by_name.get(e.name, 0) + 1
    return sum(by_name.values()) // reps, {k: v // reps for k, v in sorted(by_name.items(), key=lambda kv: -kv[1])}

def _launches(func) -> bool:
    """Whether an aten operator reaching the backend runs a kernel on a GPU: not a view (its result aliases an input
    without writing it: view, transpose, slice, detach, ...) nor a bare allocation (empty, empty_strided, ...)."""
    import torch
    name = func.overloadpacket.__name__
    if name.startswith(("empty", "new_empty")) or name == "_unsafe_view": return False  # _unsafe_view: a view unmarked
    if not any(isinstance(r.type, (torch.TensorType, torch.ListType)) for r in func._schema.returns): return False
    return not any(r.alias_info is not None and not r.alias_info.is_write for r in func._schema.returns)

# in-place operators that overwrite their first argument without reading it
WRITE_ONLY = ("zero_", "fill_", "copy_", "normal_", "uniform_", "random_", "bernoulli_", "exponential_")

def _traffic(args, kwargs, out, name: str | None = None) -> int:
    """Bytes an operator reads and writes at least: its tensor inputs, each once (a view counts its own elements),
    and its outputs (an in-place result that is an input counts once more, as written). A destination is written,
    not read: the tensors of an `out=` argument, and the first argument of an operator `name` in `WRITE_ONLY`."""
    import torch
    from torch.utils._pytree import tree_leaves
    kwargs = dict(kwargs or {})
    written = {id(t) for t in tree_leaves(kwargs.pop("out", None)) if isinstance(t, torch.Tensor)}
    if name in WRITE_ONLY and args and isinstance(args[0], torch.Tensor): written.add(id(args[0]))
    ins = {}
    for t in tree_leaves((args, kwargs)):
        if isinstance(t, torch.Tensor) and id(t) not in written: ins[id(t)] = t.numel() * t.element_size()
    return sum(ins.values()) + sum(t.numel() * t.element_size() for t in tree_leaves(out) if isinstance(t, torch.Tensor))

_FAKE = []  # one FakeTensorMode for the process: the operator caches index tensors between models (BlockedMix)

def fake_mode():
    "The process's FakeTensorMode (tensors with shapes and dtypes, nothing computed)."
    from torch._subclasses.fake_tensor import FakeTensorMode
    if not _FAKE: _FAKE.append(FakeTensorMode())
    return _FAKE[0]

def counting_mode(on_op):
    """A TorchDispatchMode that calls `on_op(func, args, kwargs, out)` for each aten operator that reaches the backend
    from outside another one (what an operator does inside, and queries such as prim::device, are not operators of
    the graph), after running it."""
    from torch.utils._python_dispatch import TorchDispatchMode

    class Counting(TorchDispatchMode):
        inside = False
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            kwargs = kwargs or {}
            if self.inside or func.namespace != "aten": return func(*args, **kwargs)
            self.inside = True
            try: out = func(*args, **kwargs)
            finally: self.inside = False
            on_op(func, args, kwargs, out)
            return out
    return Counting()

def dispatch_counts(block: str, d_model: int = 768, L: int = 1024, batch: int = 1, dtype: str = "bfloat16",
                    device: str = "cpu", fake: bool = True, **overrides) -> tuple[int, int, dict, dict]:
    """(launching operators, views and allocations, {operator: calls}, {operator: bytes moved}) of one
    forward+backward of one `block` block, counted where each operator reaches the backend (`counting_mode`, below
    autograd and autocast): a composite operator counts as the operators it runs, and what a CPU kernel does inside
    (oneDNN's bfloat16, or a per-channel loop where the processor lacks it) is not seen, so the count is the same on
    every processor and is what a GPU would be asked to launch. The block and its tensors are fake (`fake_mode`;
    `fake=False` computes), so a count at the paper's sizes takes a second. After a warm-up pass the gradients are set
    to None, as a training step's `zero_grad` does, so accumulating them adds nothing. `overrides` go to the
    HyenaConfig."""
    import torch
    from hyena_lit.models.model import Block, HyenaConfig
    torch.manual_seed(0)
    cfg = HyenaConfig.from_size(BLOCKS[block], d_model=d_model, d_inner=4 * d_model, n_heads=max(1, d_model // 64),
                                l_max=max(L, 2048), **overrides)
    dev = torch.device(device)
    ctx = fake_mode() if fake else contextlib.nullcontext()
    with ctx, dev:  # built on the device (as fakes)
        m = Block(cfg)
        h = torch.randn(batch, L, d_model, device=dev, requires_grad=True)
        g = torch.randn(batch, L, d_model, device=dev)
    counts = dict(ops=0, other=0, names={}, bytes={})

    def on_op(func, args, kwargs, out):
        if not _launches(func):
            counts["other"] += 1
            return
        name = func.overloadpacket.__name__
        counts["ops"] += 1
        counts["names"][name] = counts["names"].get(name, 0) + 1
        counts["bytes"][name] = counts["bytes"].get(name, 0) + _traffic(args, kwargs, out, name)

    def fwdbwd():
        with _autocast(device, dtype):
            y = m(h)
        y.backward(g.to(y.dtype))

    with ctx:
        fwdbwd()
        for p in [h, *m.parameters()]: p.grad = None
        with counting_mode(on_op): fwdbwd()
    return counts["ops"], counts["other"], dict(sorted(counts["names"].items(), key=lambda kv: -kv[1])), counts["bytes"]

# the modules whose Triton kernels the operator may launch (fftconv_impl), and how a launched kernel is named there
TRITON_MODULES = ("hyena_lit.kernels.monarch_fftconv", "hyena_lit.kernels.monarch_long", "hyena_lit.kernels.fftconv_triton",
                  "hyena_lit.kernels.short_conv")

@contextlib.contextmanager
def counted_launches():
    """Counts, in the one-element list it yields, the launches of the Triton kernels of `TRITON_MODULES` made while
    torch.profiler records (module attributes named `*_kernel`, replaced by a counting wrapper of their
    `kernel[grid](...)` launch while inside; the device functions they call are left alone). A launch is one GPU
    kernel that no aten event shows."""
    import importlib, torch
    n, saved = [0], []
    class Counted:
        def __init__(self, kernel): self.kernel = kernel
        def __getitem__(self, grid):
            launch = self.kernel[grid]
            def counted(*a, **kw):
                n[0] += torch.autograd._profiler_enabled()  # the profiled passes', not the warm-up's
                # the launch's own events (under Triton's interpreter: its copies) are not the block's ops
                with torch.profiler.record_function(LAUNCH_EVENT): return launch(*a, **kw)
            return counted
    for name in TRITON_MODULES:
        mod = importlib.import_module(name)
        for attr, v in list(vars(mod).items()):
            if attr.endswith("_kernel") and hasattr(v, "__getitem__") and hasattr(v, "fn"):
                saved.append((mod, attr, v))
                setattr(mod, attr, Counted(v))
    try: yield n
    finally:
        for mod, attr, v in saved: setattr(mod, attr, v)

def block_rows(blocks=tuple(BLOCKS), d_model: int = 768, L: int = 1024, batch: int = 1, dtype: str = "bfloat16",
               device: str = "cpu", reps: int = 1, compile: str = "off",
               fftconv_impls=("auto",)) -> tuple[list[dict], list[dict]]:
    """(one summary row per block, one row per block and operator): what `main` writes. Hyena's block runs once for
    each long convolution of `fftconv_impls` (12_operator's `fftconv_impl`); a forced Triton kernel's launches count
    as ops."""
    import torch
    rows, by = [], []
    for b, fftconv_impl in [(b, i) for b in blocks for i in (fftconv_impls if b == "hyena" else ("",))]:
        over = dict(fftconv_impl=fftconv_impl) if b == "hyena" else {}
        with counted_launches() as launches:
            ev, ms = block_events(b, d_model, L, batch, dtype, device, reps, compile, **over)
        t = launches[0] // reps
        n, names = count_aten(ev, reps)
        k = generated_kernels() if compile != "off" else 0
        rows.append(dict(block=b, d_model=d_model, L=L, batch=batch, dtype=dtype, device=device, compile=compile,
                         fftconv_impl=fftconv_impl, aten_ops=n, compiled_kernels=k,
                         triton_launches=t, ops=n + k + t, distinct_ops=len(names), ms=round(ms, 2),
                         torch=torch.__version__))
        by += [dict(block=b, fftconv_impl=fftconv_impl, op=k, calls=v) for k, v in names.items()]
    return rows, by

def profile_step(size: str, L: int, batch: int, device: str = "cuda", dtype: str = "bfloat16",
                 top: int = 30, compile: str = "off") -> tuple[list[dict], dict]:
    """One AdamW training step of HyenaLM(`size`) at context L after a warm-up, profiled: (the `top` kernels (CUDA) or
    operators (CPU) by self time, with calls and share; a summary: step ms, launches or aten events, peak memory).
    `compile`: HyenaConfig's torch.compile mode for the blocks (the warm-up step compiles). AdamW is the training
    loop's: fused on a GPU (`adamw`, 18g_recipes)."""
    import torch
    import torch.nn.functional as F
    from torch.profiler import ProfilerActivity, profile
    from hyena_lit.models.model import HyenaConfig, HyenaLM
    from hyena_lit.train.recipes import adamw
    dev = torch.device(device)
    torch.manual_seed(0)
    cfg = HyenaConfig.from_size(size, l_max=max(L, HyenaConfig.from_size(size).l_max), compile=compile)
    model = HyenaLM(cfg).to(dev)
    opt = adamw(model.parameters(), lr=1e-4)
    x = torch.randint(0, cfg.vocab_size, (batch, L + 1), device=dev)

    def step():
        with _autocast(device, dtype):
            loss = F.cross_entropy(model(x[:, :-1]).float().flatten(0, 1), x[:, 1:].flatten())
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)

    step()
    cuda = dev.type == "cuda"
    if cuda:
        torch.cuda.synchronize(dev)
        torch.cuda.reset_peak_memory_stats(dev)
    acts = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if cuda else [])
    t0 = time.perf_counter()
    with profile(activities=acts) as prof:
        step()
        if cuda: torch.cuda.synchronize(dev)
    ms = 1e3 * (time.perf_counter() - t0)
    ev = prof.events()
    kernels = [e for e in ev if e.device_type.name == "CUDA"] if cuda else [
        e for e in ev if e.name.startswith("aten::")]
    by = {}
    for e in kernels:
        t = e.self_device_time_total if cuda else e.self_cpu_time_total
        c, s = by.get(e.name, (0, 0.0))
        by[e.name] = (c + 1, s + t)
    total = sum(s for _, s in by.values()) or 1.0
    rows = [dict(size=size, L=L, batch=batch, compile=compile, kernel=k[:200], calls=c, ms=round(s / 1e3, 3), share=round(s / total, 4))
            for k, (c, s) in sorted(by.items(), key=lambda kv: -kv[1][1])[:top]]
    peak = torch.cuda.max_memory_allocated(dev) / 2**30 if cuda else float("nan")  # the allocator's, on a GPU
    summary = dict(size=size, mixer=cfg.mixer, L=L, batch=batch, dtype=dtype, device=device, compile=compile,
                   step_ms=round(ms, 2),
                   launches=len(kernels), distinct=len(by), peak_gb=round(peak, 3), torch=torch.__version__)
    return rows, summary

def code_commit() -> str:
    "The commit of the checkout whose hyena_lit is counted, with '+' when its tracked files differ from it."
    import subprocess
    git = lambda *a: subprocess.run(["git", *a], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    head = git("rev-parse", "--short=7", "HEAD") or "unknown"
    return head + ("+" if git("status", "--porcelain", "--untracked-files=no", "hyena_lit") else "")

def dispatch_rows(blocks=tuple(BLOCKS), d_model: int = 768, L: int = 1024, batch: int = 1, dtype: str = "bfloat16",
                  device: str = "cpu") -> tuple[list[dict], list[dict]]:
    "(one row per block, one row per block and operator) of `dispatch_counts`: what `main --counter dispatch` writes."
    import torch
    rows, by, code = [], [], code_commit()
    for b in blocks:
        ops, other, names, nbytes = dispatch_counts(b, d_model, L, batch, dtype, device)
        rows.append(dict(block=b, d_model=d_model, L=L, batch=batch, dtype=dtype, device=device, launching_ops=ops,
                         views_allocs=other, distinct_ops=len(names), mb_moved=round(sum(nbytes.values()) / 1e6, 1),
                         code=code, torch=torch.__version__))
        by += [dict(block=b, op=k, calls=v, mb_moved=round(nbytes[k] / 1e6, 2)) for k, v in names.items()]
    return rows, by

def write_new(path: pathlib.Path, rows: list[dict]):
    "Write `rows` as a CSV at `path`, refusing a file that exists."
    import pandas as pd
    if path.exists(): raise SystemExit(f"error: {path} exists: a profile is not overwritten")
    path.parent.mkdir(parents=True, exist_ok=True)
    pd.DataFrame(rows).to_csv(path, index=False)

def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", required=True, help="folder for aten_ops.csv and aten_ops_by_name.csv")
    p.add_argument("--blocks", default=",".join(BLOCKS))
    p.add_argument("--d-model", type=int, default=768)
    p.add_argument("--L", type=int, default=1024)
    p.add_argument("--batch", type=int, default=1)
    p.add_argument("--dtype", default="bfloat16")
    p.add_argument("--device", default="cpu")
    p.add_argument("--reps", type=int, default=1)
    p.add_argument("--compile", default="off", help="off, or a torch.compile mode for the block (default, ...)")
    p.add_argument("--fftconv-impl", default="auto", help="comma-separated long convolutions for the Hyena block "
                   "(12_operator's fftconv_impl), one row each; a forced Triton kernel runs under Triton's interpreter "
                   "on a CPU")
    p.add_argument("--counter", default="profiler", help="profiler (aten events under torch.profiler) or dispatch "
                   "(ops where they reach the backend, any processor alike; eager, torch.fft's path)")
    a = p.parse_args(argv)
    if a.counter not in ("profiler", "dispatch"): raise SystemExit(f"error: --counter must be profiler or dispatch, got {a.counter!r}")
    if a.counter == "dispatch" and (a.compile != "off" or a.fftconv_impl != "auto" or a.reps != 1):
        raise SystemExit("error: --counter dispatch counts the eager block on torch.fft's path once: leave --compile, "
                         "--fftconv-impl and --reps at their defaults")
    impls = a.fftconv_impl.split(",")
    if a.counter == "profiler":  # (the dispatch counter may count an older checkout, before these names)
        from hyena_lit.core.operator import FFTCONV_IMPLS, KERNEL_IMPLS  # imports no kernel module
        if not all(i in FFTCONV_IMPLS for i in impls) or len(set(impls)) < len(impls):
            raise SystemExit(f"error: --fftconv-impl takes distinct names from {FFTCONV_IMPLS}, got {a.fftconv_impl!r}")
        if set(impls) & set(KERNEL_IMPLS) and a.device == "cpu": os.environ["TRITON_INTERPRET"] = "1"
    if a.compile not in ("off", "default", "reduce-overhead", "max-autotune"):
        raise SystemExit(f"error: --compile must be off, default, reduce-overhead or max-autotune, got {a.compile!r}")
    blocks = a.blocks.split(",")
    if any(b not in BLOCKS for b in blocks): raise SystemExit(f"error: --blocks takes names from {list(BLOCKS)}, got {a.blocks!r}")
    if a.dtype not in DTYPES: raise SystemExit(f"error: --dtype must be one of {DTYPES}, got {a.dtype!r}")
    for name in ("d_model", "L", "batch", "reps"):
        if getattr(a, name) < 1: raise SystemExit(f"error: --{name.replace('_', '-')} must be >= 1, got {getattr(a, name)}")
    if a.d_model % 64 and a.d_model >= 64: raise SystemExit(f"error: --d-model must be a multiple of 64 (heads of 64), got {a.d_model}")
    out = pathlib.Path(a.out)
    names = ("dispatch_ops.csv", "dispatch_ops_by_name.csv") if a.counter == "dispatch" else ("aten_ops.csv", "aten_ops_by_name.csv")
    for f in names:
        if (out / f).exists(): raise SystemExit(f"error: {out / f} exists: a profile is not overwritten")
    if a.counter == "dispatch":
        rows, by = dispatch_rows(blocks, a.d_model, a.L, a.batch, a.dtype, a.device)
        write_new(out / names[0], rows)
        write_new(out / names[1], by)
        for r in rows: print(f"{r['block']:9}: {r['launching_ops']} launching ops per forward+backward ({r['views_allocs']} "
                             f"views and allocations besides), {r['mb_moved']} MB moved at least; code {r['code']}")
        return
    rows, by = block_rows(blocks, a.d_model, a.L, a.batch, a.dtype, a.device, a.reps, a.compile, impls)
    write_new(out / "aten_ops.csv", rows)
    write_new(out / "aten_ops_by_name.csv", by)
    for r in rows: print(f"{r['block']:9} {r['fftconv_impl']:12}: {r['ops']} ops per forward+backward ({r['aten_ops']} aten events, "
                         f"{r['compiled_kernels']} generated kernels, {r['triton_launches']} Triton launches; "
                         f"{r['distinct_ops']} distinct aten ops), {r['ms']} ms")

if __name__ == "__main__":
    main()
