"""Without a GPU, Triton kernels run in its interpreter, which must be on before anything imports triton: some tests
import it in this process (torch.compile, the GPU check's dry run) before the kernel notebooks run here."""
import os
import shutil

if shutil.which("nvidia-smi") is None: os.environ.setdefault("TRITON_INTERPRET", "1")
