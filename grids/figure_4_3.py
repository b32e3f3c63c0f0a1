"""Figure 4.3 on a CPU (50_runtime): forward and forward-backward time of the Hyena operator against attention
(written out, and PyTorch's fused sdpa) and the projections alone, width 768, batch 1, from 1k to 64k tokens; the
FFT convolution alone; and the operator with each CPU fast path switched off. Where does Hyena overtake attention?
The second run leaves written-out attention out and stops at 8k.

On a GPU (`device` is the machine's to give: `--only '*NVIDIA_H200*'` on a GPU node, or scripts/triton_gpu.py within
a device budget, whose results scripts/collect_gpu.py files under the same folders): batch 16 and 1, under bfloat16
autocast (SDPA then takes FlashAttention, the paper's contender) and in float32, with the fused Triton kernels as a
further contender, 50_runtime's GPU_SWEEP; and the GPU check's sweep (scripts/gpu_check.py, GPU_CHECK_SWEEP: batch 64
as the paper, order 2 and 3, bf16 and float32), whose runs scripts/figure43_runs.py makes from the check's folder."""
from grids._common import cell, folder
from hyena_lit.experiments.runtime import GPU_CHECK_SWEEP, GPU_SWEEP, gpu_sweep_name

POWERS = [2**k for k in range(10, 17)]  # 1024 ... 65536
BASE = dict(  # 50_runtime's parameters
    batch=1, d_model=768, n_heads=12, lengths=POWERS, ops=["hyena", "projections", "attention", "sdpa"],
    passes=["fwd", "fwdbwd"], reps=5, fftconv_reps=10, max_seconds_per_point=240.0, memory_budget_gb=18.0,
    fftconv_lengths=POWERS, ablation_lengths=[1024, 8192, 32768])


def cells(root="runs") -> list[dict]:
    short = dict(BASE, lengths=POWERS[:4], ops=["hyena", "projections", "sdpa"])
    gpu = {k: v for k, v in GPU_SWEEP.items() if k not in ("batches", "dtypes")} | dict(passes=BASE["passes"])
    check = {k: v for k, v in GPU_CHECK_SWEEP.items() if k not in ("batches", "dtypes")} | dict(passes=BASE["passes"])
    return [cell("runtime", folder(root, "runtime", "cpu", "cpu-b1"), BASE),
            cell("runtime", folder(root, "runtime", "cpu", "cpu-b1-v2"), short)] + [
        cell("runtime", folder(root, "runtime", "NVIDIA_H200", f"h200-{gpu_sweep_name(B, dt)}"),
             dict(gpu, batch=B, **({"dtype": dt} if dt != "float32" else {})))
        for dt in GPU_SWEEP["dtypes"] for B in GPU_SWEEP["batches"]] + [
        cell("runtime", folder(root, "runtime", "NVIDIA_H200", f"gpu-check-{gpu_sweep_name(B, dt)}"),
             dict(check, batch=B, **({"dtype": dt} if dt != "float32" else {})))
        for dt in GPU_CHECK_SWEEP["dtypes"] for B in GPU_CHECK_SWEEP["batches"]]
