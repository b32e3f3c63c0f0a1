"""Why Conv1d, TransferFunc and H3 predict the in-context lookups of associative recall and miss its answer.
Runs `probe_checkpoint` (nbs/eval/34_synthetics_results.ipynb) over the finished runs of a sweep that still hold a
checkpoint, and writes <out>/probe.csv and <out>/params.json; nbs/eval/34a_figure_4_1.ipynb ("Lookups and answers")
reads them.

The checkpoints probed are not the runs' final weights: they are the epoch-297..397 checkpoints of a GPU sweep
(runs/associative_recall/gpu-h200-20261126), left in the run folders of the sweep that finished the runs. Checkpoints are not committed (gitignored), so this reruns only where they are; the CSV records each
checkpoint's epoch and the accuracies the run's history recorded at that epoch, which the probe must reproduce.
usage: python scripts/answer_phase_probe.py [--sweep runs/associative_recall/fig4.1-official] [--out runs/associative_recall/answer-phase-probe]"""
import argparse, datetime, json, subprocess, sys
from pathlib import Path
import pandas as pd, torch
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from hyena_lit.eval.synthetics_results import probe_checkpoint
from hyena_lit.core.paths import save_json, relative, is_finished

ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
ap.add_argument("--sweep", default="runs/associative_recall/fig4.1-official")
ap.add_argument("--out", default="runs/associative_recall/answer-phase-probe")
ap.add_argument("--threads", type=int, default=1)
a = ap.parse_args()
sweep, out = ROOT / a.sweep, ROOT / a.out
if not sweep.is_dir(): sys.exit(f"--sweep {a.sweep}: no such folder")
runs = sorted(r for r in sweep.iterdir() if (r / "checkpoint" / "model.safetensors").exists() and is_finished(r))
if not runs: sys.exit(f"no finished run under {a.sweep} still holds a checkpoint: nothing to probe")
torch.set_num_threads(a.threads)
rows = []
for i, r in enumerate(runs, 1):
    rows.append(probe_checkpoint(r)); print(f"[{i}/{len(runs)}]", rows[-1], flush=True)
out.mkdir(parents=True, exist_ok=True)
pd.DataFrame(rows).to_csv(out / "probe.csv", index=False)
commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
save_json(dict(kind="answer_probe", command="python scripts/answer_phase_probe.py " + " ".join(sys.argv[1:]), sweep=relative(sweep), runs=[r.name for r in runs],
               git_commit=commit, torch=torch.__version__, threads=a.threads, date=datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
               test_set="each run's own: generate('associative_recall', num_test, seq_len, vocab_size, seed=10_000 + seed, score='last')",
               variants={"sep_off": "... k v => q (the task)", "nosep_on": "... k v q", "sep_on": "... k v v => q (last value repeated, first pair dropped)", "nosep_off": "... k v v q (last value repeated)"}),
          out / "params.json")
print("wrote", relative(out / "probe.csv"))
