"""How fast a machine trains the two kinds of job of the recall grids, alone and side by side: Hyena's official-recipe recall
model at L = 256 (batch 32; the model of runs/associative_recall/official-L256/12-official_L256_V30_s0) and the MQAR
model of the walk's 2023 step (Zoology's Hyena with a 4d tanh MLP, L = 64, batch 1024). Each job trains on one fixed
batch for SECONDS and reports tokens per second: alone on one thread, beside the other kind, beside its own kind, and
alone on two threads. Run it with the campaign's workers paused (SIGSTOP their papermill and kernel processes, SIGCONT
after), or the numbers measure the workers too. Writes runs/associative_recall/cpu-speed/pairing-<time>.csv.
usage: python3 scripts/pairing_bench.py [SECONDS]"""
import json, os, subprocess, sys, time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RECALL_PARAMS = "runs/associative_recall/official-L256/12-official_L256_V30_s0/params.json"

def recall_job():
    "The recall job's model (seed 0), one fixed batch (x, y) and its loss: RECALL_PARAMS's model at batch 32."
    import torch
    from hyena_lit.experiments.associative_recall import setting_model
    from hyena_lit.models.model import HyenaLM
    from hyena_lit.data.synthetics import generate
    from hyena_lit.train.engine import scored_cross_entropy
    cfg = json.loads((ROOT / RECALL_PARAMS).read_text())
    x, y = generate("associative_recall", 32, cfg["seq_len"], cfg["vocab_size"], seed=0)
    torch.manual_seed(0)
    return HyenaLM(setting_model(cfg, l_max=x.shape[1])), x, y, scored_cross_entropy

def job(kind: str, threads: int, seconds: float) -> float:
    "Tokens per second of `kind` ('recall' or 'mqar') training on one thread count for `seconds` (run in a child process)."
    import torch
    torch.set_num_threads(threads)
    if kind == "recall":
        model, x, y, loss_fn = recall_job()
    else:
        from hyena_lit.experiments.mqar import mqar_runs, mqar_model_config, ScoredLM, scored_loss
        from hyena_lit.data.synthetics import generate
        c = mqar_runs(["hyena"], [[64, 4]], [64], [1e-2], [0], 8192, 100_000, 3_000, 64, None, 1024, 0.0, mlp_ratio=4, emb_dim=3,
                      l_max_pad=0, param_hints=False, mlp_activation="tanh", weight_decay=0.01)[0]
        x, y = generate("mqar", 1024, seq_len=64, vocab_size=8192, seed=0, num_kv=4)
        torch.manual_seed(0); model = ScoredLM(mqar_model_config(c)); loss_fn = scored_loss(model)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    def step():
        loss = loss_fn(model(x), y); opt.zero_grad(); loss.backward(); opt.step()
    step(); n, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds: step(); n += 1
    return n * x.numel() / (time.perf_counter() - t0)

def run(jobs: list[tuple[str, int]], seconds: float) -> list[float]:
    "Start every (kind, threads) job at once in its own process; their tokens per second."
    procs = [subprocess.Popen([sys.executable, __file__, "--job", k, str(t), str(seconds)], stdout=subprocess.PIPE, text=True,
                              env={**os.environ, "OMP_NUM_THREADS": str(t)}) for k, t in jobs]
    return [float(p.communicate()[0].split()[-1]) for p in procs]

if __name__ == "__main__":
    if sys.argv[1:2] == ["--job"]:
        print(job(sys.argv[2], int(sys.argv[3]), float(sys.argv[4]))); sys.exit()
    import pandas as pd
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 25.0
    load = os.getloadavg()[0]
    rows = []
    for label, jobs in [("alone", [("recall", 1)]), ("alone", [("mqar", 1)]), ("beside the other kind", [("recall", 1), ("mqar", 1)]),
                        ("beside its own kind", [("recall", 1), ("recall", 1)]), ("beside its own kind", [("mqar", 1), ("mqar", 1)]),
                        ("alone, two threads", [("recall", 2)]), ("alone, two threads", [("mqar", 2)])]:
        for (kind, threads), tps in zip(jobs, run(jobs, seconds)):
            rows.append(dict(job=kind, threads=threads, setting=label, tokens_per_second=round(tps)))
            print(f"{kind:6} {threads} thread(s), {label:22}: {tps:9,.0f} tokens/s", flush=True)
    out = ROOT / "runs" / "associative_recall" / "cpu-speed" / f"pairing-{time.strftime('%Y%m%d-%H%M%S', time.gmtime())}.csv"
    df = pd.DataFrame(rows).assign(seconds=seconds, load_before=round(load, 2), cpus=os.cpu_count())
    df.to_csv(out, index=False); print("wrote", out.relative_to(ROOT))
