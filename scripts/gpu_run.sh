#!/usr/bin/env bash
# scripts/gpu_check.py on a GPU machine that reaches no package registry, in one call that packs what it made.
#
# usage: bash scripts/gpu_run.sh PART SECONDS [BUNDLE]
#   PART     main (the notebooks, the step profile, the step table, Figure 4.3) or kernels (the kernels' benchmarks,
#            Nsight Compute where installed), or any comma-separated list of gpu_check's parts
#   SECONDS  the wall time this call may take; gpu_check's deadline is SECONDS less MARGIN (default 40) for the
#            packing, so the call ends within SECONDS with what finished
#   BUNDLE   a folder made by scripts/gpu_bundle.py where the registries are reached (default .gpu_bundle); used
#            when it exists (wheels and data caches the GPU image lacks)
# Environment: OUT (default runs/gpu-out) gets gpu-<PART>.tgz (gpu_check's folder <GPU name>/ for this part),
# log-<PART>.txt, nvidia-smi.txt and pip-freeze.txt; WORK (default a new temporary folder) is gpu_check's --out, never
# the project's runs/gpu, whose finished rows a second call would skip; DRY=1 runs gpu_check --dry on the CPU;
# NOTEBOOKS (comma-separated names, default all) the experiment notebooks the notebooks part runs, e.g. the ones an
# earlier call left unfinished: NOTEBOOKS=44_lm_training,35_mqar bash scripts/gpu_run.sh notebooks 300.
# HYENA_LIT_CODE (a commit) names the code where the copy that runs has no git history: params.json records it as
# `code`, beside `source_digest`, from which scripts/gpu_check.py's commit_of_digest finds the commit again.
# Bring OUT back and unpack it with `python scripts/gpu_unpack.py OUT [OUT2 ...]`: the calls of one session into one new
# check folder, runs/gpu/<GPU name>[-<n>], portable, which 52_gpu_step reads beside the earlier checks; commit it.
set -euo pipefail
cd "$(dirname "$0")/.."
part=${1:?usage: bash scripts/gpu_run.sh PART SECONDS [BUNDLE]}
seconds=${2:?usage: bash scripts/gpu_run.sh PART SECONDS [BUNDLE]}
bundle=${3:-.gpu_bundle}
margin=${MARGIN:-40}
case "$part" in
  main) parts=notebooks,profile,steps,figure43 ;;
  kernels) parts=kernels ;;
  *) parts=$part ;;
esac
for p in ${parts//,/ }; do
  case "$p" in
    notebooks|profile|steps|figure43|kernels) ;;
    *) echo "error: PART must be main, kernels or a comma-separated list of gpu_check's parts (notebooks, profile," \
            "steps, figure43, kernels), got '$part'" >&2; exit 2 ;;
  esac
done
[[ -n "$parts" && "$parts" != *,,* && "$parts" != ,* && "$parts" != *, ]] \
  || { echo "error: PART must name at least one part, got '$part'" >&2; exit 2; }
case "$seconds" in
  ''|*[!0-9]*) echo "error: SECONDS must be a whole number of seconds, got '$seconds'" >&2; exit 2 ;;
esac
case "$margin" in
  ''|*[!0-9]*) echo "error: MARGIN must be a whole number of seconds, got '$margin'" >&2; exit 2 ;;
esac
if (( seconds <= margin + 30 )); then
  echo "error: SECONDS must exceed the packing margin ($margin s) by at least 30, got $seconds" >&2; exit 2
fi
notebooks=${NOTEBOOKS:-}
if [[ -n "$notebooks" ]]; then
  [[ "$notebooks" =~ ^[0-9A-Za-z_]+(,[0-9A-Za-z_]+)*$ ]] \
    || { echo "error: NOTEBOOKS must be comma-separated notebook names, got '$notebooks'" >&2; exit 2; }
  for n in ${notebooks//,/ }; do
    [[ -f "nbs/experiments/$n.ipynb" || -f "nbs/eval/$n.ipynb" ]] \
      || { echo "error: NOTEBOOKS: no notebook '$n' in nbs/experiments or nbs/eval" >&2; exit 2; }
  done
fi
label=${part//,/-}
out=${OUT:-runs/gpu-out}
mkdir -p "$out"
work=${WORK:-}
[[ -n "$work" ]] || { work=$(mktemp -d); trap 'rm -rf "$work"' EXIT; }
python=${PYTHON:-python3}
minutes=$("$python" -c "print(round(($seconds - $margin) / 60, 2))")
flags=(--out "$work" --deadline-min "$minutes" --parts "$parts")
[[ -d "$bundle" ]] && flags+=(--bundle "$bundle")
[[ -n "$notebooks" ]] && flags+=(--notebooks "$notebooks")
[[ "${DRY:-0}" == 1 ]] && flags+=(--dry)
{ nvidia-smi 2>&1 || echo "nvidia-smi: not found"; } > "$out/nvidia-smi.txt"
"$python" -m pip freeze > "$out/pip-freeze.txt" 2>&1 || true
echo "gpu_check ${flags[*]}" | tee "$out/log-$label.txt"
set +e
timeout -k 10 $(( seconds - margin / 2 )) "$python" scripts/gpu_check.py "${flags[@]}" 2>&1 | tee -a "$out/log-$label.txt"
rc=${PIPESTATUS[0]}
set -e
echo "gpu_check exit code $rc" | tee -a "$out/log-$label.txt"
tar czf "$out/gpu-$label.tgz" -C "$work" .
echo "packed $(du -h "$out/gpu-$label.tgz" | cut -f1) into $out/gpu-$label.tgz"
exit "$rc"
