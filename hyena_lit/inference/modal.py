"""The former name of `hyena_lit.inference.distill` (nbs/inference/13e_distill.ipynb), kept for one release: it re-exports
that module's names and warns on import. Import `hyena_lit.inference.distill` instead."""
import warnings

from .distill import *  # noqa: F401,F403
from .distill import __all__  # noqa: F401

warnings.warn("hyena_lit.inference.modal is renamed hyena_lit.inference.distill; the old name goes in the next release",
              DeprecationWarning, stacklevel=2)
