"""Issue 16: Figure 4.1's unfinished official-recipe cells on a GPU node for ONE device call, leaving them resumable on CPU.

usage (on the device): python3 scripts/gpu_grid_direct.py OUT_DIR [--stop-sec 500] [--seq-len 256] [--skip RUN ...] [--only RUN ...] [--device cuda]

Why not scripts/gpu_grid.sh: the device image has no papermill (nor ipykernel), and an L = 256 run of the official
recipe (400 epochs of 4000 examples) takes about 15 minutes on an H100 shared by 14 runs, longer than one device call.
So this script calls `run_setting` of nbs/31_associative_recall directly, one process per cell, all at once, with the
cell's settings taken from a run of the same sweep that the notebook wrote (`--template`): the sweep's settings minus
what `run_setting` adds, with the cell's parametrization, length, vocabulary and seed. The params.json it writes is
then the one the notebook would write (checked before any work: `check_run` against the template's settings), so the
CPU campaign (scripts/recall_grid_campaign.sh, papermill) accepts the run and resumes it from its checkpoint: fit()
saves the weights, the optimizer (on CPU), the schedule, the CPU generator that orders the batches and the epoch's
history after every epoch, so the run goes on at the next epoch on any device.
At --stop-sec the runs are stopped (SIGTERM; each keeps its last epoch's checkpoint) and every run folder this call
touched is packed WITH its checkpoint into OUT/runs.tgz.part-aa, -ab, ... (15 MB each: the device returns files of at
most 16 MiB). Here: `cat runs.tgz.part-* | tar xzf - -C runs/associative_recall`, then the CPU campaign finishes them.
"""
import argparse, json, os, pathlib, signal, subprocess, sys, time

ROOT = pathlib.Path(__file__).resolve().parent.parent
SWEEP = ROOT / "runs" / "associative_recall" / "fig4.1-official"
ADDED = ("dir", "epochs_used", "warmup_epochs_used", "params", "model", "recipe", "torch")  # what run_setting adds to cfg
ORDER = ["conv1d", "fno", "ckconv", "transferfunc", "h3", "hyena"]

def cell_cfg(template: dict, p: str, L: int, V: int, seed: int, device: str) -> dict:
    cfg = {k: v for k, v in template.items() if k not in ADDED}
    cfg.update(recipe=template["recipe"]["name"], parametrization=p, seq_len=L, vocab_size=V, seed=seed, device=device, threads=1)
    cfg["dir"] = str(SWEEP / f"{p}_L{L}_V{V}_s{seed}")
    return cfg

def todo(L: int, skip: set) -> list[tuple[str, int, int, int]]:
    "The cells of length L without metrics.json, in the CPU campaign's order (vocabulary 40, 10, 30, 20)."
    out = []
    for V in (40, 10, 30, 20):
        for p in ORDER:
            name = f"{p}_L{L}_V{V}_s0"
            if name in skip or (SWEEP / name / "metrics.json").exists(): continue
            if p == "hyena" and V in (30, 40): continue  # those cells are the ablation walk's last step
            out.append((p, L, V, 0))
    return out

def child(cfg_json: str):
    cfg = json.loads(cfg_json)
    from hyena_lit.associative_recall import run_setting
    print(run_setting(cfg), flush=True)

if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--child": child(sys.argv[2]); sys.exit(0)
    ap = argparse.ArgumentParser()
    ap.add_argument("out"); ap.add_argument("--stop-sec", type=float, default=500); ap.add_argument("--seq-len", type=int, default=256)
    ap.add_argument("--skip", nargs="*", default=[]); ap.add_argument("--device", default="cuda"); ap.add_argument("--max-cells", type=int, default=16)
    ap.add_argument("--template", default="conv1d_L256_V40_s0")
    ap.add_argument("--only", nargs="*", default=None, help="these runs alone (names such as h3_L256_V20_s0)")
    a = ap.parse_args()
    out = pathlib.Path(a.out); out.mkdir(parents=True, exist_ok=True)
    from hyena_lit.runs import params_conflicts, conflicts_text
    template = json.loads((SWEEP / a.template / "params.json").read_text())
    cells = [c for c in todo(a.seq_len, set(a.skip)) if a.only is None or f"{c[0]}_L{c[1]}_V{c[2]}_s{c[3]}" in a.only][: a.max_cells]
    cfgs = [cell_cfg(template, *c, a.device) for c in cells]
    for c in cfgs:  # a run started before (e.g. by an earlier call) must have been started with these settings
        p = pathlib.Path(c["dir"]) / "params.json"
        if p.exists():
            bad = params_conflicts(json.loads(p.read_text()), c)
            assert not bad, f"{c['dir']} was started with other settings: {conflicts_text(bad)}"
    print(f"{len(cfgs)} cells: {[pathlib.Path(c['dir']).name for c in cfgs]}", flush=True)
    t0 = time.time()
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT)] + [x for x in [os.environ.get("PYTHONPATH")] if x]), OMP_NUM_THREADS="1")
    logs = out / "logs"; logs.mkdir(exist_ok=True)
    procs = [subprocess.Popen([sys.executable, __file__, "--child", json.dumps(c)], env=env, cwd=ROOT,
                              stdout=open(logs / f"{pathlib.Path(c['dir']).name}.log", "w"), stderr=subprocess.STDOUT) for c in cfgs]
    while time.time() - t0 < a.stop_sec and any(p.poll() is None for p in procs): time.sleep(5)
    for p in procs:
        if p.poll() is None: p.send_signal(signal.SIGTERM)
    for p in procs:
        try: p.wait(30)
        except subprocess.TimeoutExpired: p.kill()
    print(f"stopped after {time.time() - t0:.0f} s", flush=True)
    for c in cfgs:
        d = pathlib.Path(c["dir"])
        ck = d / "checkpoint"
        if not ck.exists() and (d / "checkpoint.old").exists(): (d / "checkpoint.old").rename(ck)  # stopped between the renames
        h = d / "history.csv"
        n = sum(1 for _ in h.open()) - 1 if h.exists() else 0
        print(f"{d.name}: {n} epochs, metrics.json {'yes' if (d / 'metrics.json').exists() else 'no'}, checkpoint {'yes' if ck.exists() else 'no'}", flush=True)
    names = [str(pathlib.Path(c["dir"]).relative_to(SWEEP.parent)) for c in cfgs if pathlib.Path(c["dir"]).exists()]
    subprocess.run(f"tar czf - --exclude='checkpoint.tmp' {' '.join(names)} | split -b 15M - {out}/runs.tgz.part-", shell=True,
                   cwd=SWEEP.parent, check=True)
    subprocess.run(f"tar czf {out}/logs.tgz -C {out} logs && rm -r {out}/logs", shell=True, check=True)
