"""How much of a CPU training step AdamW's update takes, in its default form and its fused one (`adamw` in
nbs/train/18g_recipes.ipynb), on the synthetic tasks' models: Hyena's official-recipe recall model at L = 256 (batch 32;
scripts/pairing_bench.py's recall job, the same model and batch) and Table 11's Hyena and attention under the Mamba
protocol (L = 256, batch 8, the positional tables sized for the longest test, 16384). Each (model, form) trains on one
fixed batch for SECONDS in its own process, the forms alternating, REPEATS times, with nothing else running; the
median is reported. Writes runs/associative_recall/cpu-speed/adamw-<time>.csv (ms a step, tokens per second, the load
before).
usage: python3 scripts/adamw_bench.py [SECONDS] [THREADS] [REPEATS]"""
import os, statistics, subprocess, sys, time
from pathlib import Path

from pairing_bench import ROOT, recall_job

JOBS = ("recall-hyena", "table11-hyena", "table11-attention")


def job(kind: str, fused: bool, threads: int, seconds: float) -> float:
    "Milliseconds a training step of `kind` takes with AdamW's `fused` form (else the default), on `threads` threads."
    import torch
    torch.set_num_threads(threads)
    if kind == "recall-hyena":
        model, x, y, loss_fn = recall_job()
    else:
        from hyena_lit.data.synthetics import generate
        from hyena_lit.experiments.mechanistic import model_config
        from hyena_lit.models.model import HyenaLM
        from hyena_lit.train.engine import scored_cross_entropy
        c = dict(task="induction_heads", mixer=kind.split("-")[1], seq_len=256, vocab_size=16, d_model=64, n_layer=2,
                 d_inner=128, test_lens=[2 ** k for k in range(6, 15)])
        x, y = generate("induction_heads", 8, 256, 16, seed=0)
        torch.manual_seed(0)
        model, loss_fn = HyenaLM(model_config(c)), scored_cross_entropy
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4, fused=True if fused else None)

    def step():
        loss = loss_fn(model(x), y); opt.zero_grad(); loss.backward(); opt.step()
    for _ in range(3): step()
    n, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds: step(); n += 1
    return 1e3 * (time.perf_counter() - t0) / n


if __name__ == "__main__":
    if sys.argv[1:2] == ["--job"]:
        print(job(sys.argv[2], sys.argv[3] == "fused", int(sys.argv[4]), float(sys.argv[5]))); sys.exit()
    import pandas as pd
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 20.0
    threads = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    repeats = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    load = os.getloadavg()[0]
    rows = []
    for kind in JOBS:
        ms = {"default": [], "fused": []}
        for _ in range(repeats):
            for form in ms:
                out = subprocess.run([sys.executable, __file__, "--job", kind, form, str(threads), str(seconds)],
                                     capture_output=True, text=True, check=True,
                                     env={**os.environ, "OMP_NUM_THREADS": str(threads)})
                ms[form].append(float(out.stdout.split()[-1]))
        tokens = 32 * 256 if kind == "recall-hyena" else 8 * 256
        for form, v in ms.items():
            m = statistics.median(v)
            rows.append(dict(job=kind, adamw=form, threads=threads, ms_per_step=round(m, 2),
                             tokens_per_second=round(tokens / m * 1e3), repeats=repeats))
            print(f"{kind:18} {form:7}: {m:7.2f} ms a step ({', '.join(f'{t:.1f}' for t in v)})", flush=True)
    out = ROOT / "runs" / "associative_recall" / "cpu-speed" / f"adamw-{time.strftime('%Y%m%d-%H%M%S', time.gmtime())}.csv"
    df = pd.DataFrame(rows).assign(seconds=seconds, load_before=round(load, 2), cpus=os.cpu_count())
    df.to_csv(out, index=False); print("wrote", out.relative_to(ROOT))
