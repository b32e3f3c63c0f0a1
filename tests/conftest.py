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

# pytest-xdist's workers share the cores: each worker's torch, and every process a test starts, gets its share of them
# rather than all of them (a parallel op whose threads wait on a core the other worker holds runs slower, not faster).
# A test that needs another count sets it itself.
_workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
if _workers > 1: os.environ.setdefault("OMP_NUM_THREADS", str(max(1, (os.cpu_count() or 1) // _workers)))


def pytest_addoption(parser):
    parser.addoption("--slow", action="store_true",
                     help="also run the tests marked slow (checks that a GPU run repeats at full size: `make test-slow`)")


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: minutes on a CPU and repeated by the GPU benchmark's own checks; "
                                       "run with --slow")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--slow"): return
    import pytest
    skip = pytest.mark.skip(reason="marked slow: run with --slow (make test-slow)")
    for item in items:
        if item.get_closest_marker("slow"): item.add_marker(skip)
