"""Without a GPU, Triton kernels run in its interpreter, which must be on before anything imports triton: some tests
import it in this process (torch.compile, the GPU check's dry run) before the kernel notebooks run here.

A test session's temporary files (pytest's tmp_path, the notebooks' and scripts' temporary run folders, Ray's session,
compile caches) go under one folder of the session's own, removed when it ends: a test run leaves nothing behind in
the system's temporary folder. pytest-xdist's workers inherit the folder from the controller, which removes it (a
short path: Ray's sockets live under it, and a socket's path may not exceed 107 bytes)."""
import atexit
import os
import shutil
import tempfile

if shutil.which("nvidia-smi") is None: os.environ.setdefault("TRITON_INTERPRET", "1")

if "HYENA_LIT_TEST_TMP" not in os.environ:  # the controller (or the only process): a folder of its own
    os.environ["HYENA_LIT_TEST_TMP"] = tempfile.mkdtemp(prefix="hl-tests-")
    atexit.register(shutil.rmtree, os.environ["HYENA_LIT_TEST_TMP"], ignore_errors=True)
os.environ["TMPDIR"] = os.environ["HYENA_LIT_TEST_TMP"]
tempfile.tempdir = None  # read TMPDIR again at the next use
