"""A stand-in for a Triton kernel whose build does not fit the GPU: each launch raises OutOfResources, as loading such a
build does before it runs. The fallback tests' child processes import it (`sys.path` gets tests/)."""
import triton


class Refused:
    def __getitem__(self, grid):
        def launch(*a, **kw): raise triton.runtime.errors.OutOfResources(233472, 232448, "shared memory")
        return launch
