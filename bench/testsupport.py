"""The test suite's helpers that bench reuses, imported from their files.

test/ is not a package (its folders hold pytest's rootdir-relative modules),
so bench names here, once, the helper files it reads and imports each under
the module name the tests give it (`harness`, `model_zoo`, ...): a test and
a benchmark running in one process share one module object.  Nothing is
added to sys.path.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

TEST = Path(__file__).resolve().parent.parent / "test"

FILES = {
    "harness": "e2e/harness.py",  # one convolution_backward as torch IR, its inputs and reference
    "pool_harness": "e2e/pool_harness.py",  # the same for the pooling window ops
    "model_zoo": "models/model_zoo.py",  # the model suite's modules and their training steps
    "model_pipelines": "models/model_pipelines.py",  # IREE compile/run of a model step
    "generate": "models/generate.py",  # a model step's raw FX import as text
    "gpu_compile": "gpu/gpu_compile.py",  # iree-compile for the GPU targets
    "training": "dynamo/training.py",  # small seeded training loops
}
"""module name -> its file under test/."""

NEEDS = {"pool_harness": ("harness",), "gpu_compile": ("harness",), "generate": ("model_zoo",)}
"""The helpers a helper imports by its plain name (loaded first)."""


def load(name: str) -> ModuleType:
    """The helper `name` of FILES, imported once per process."""
    if name in sys.modules:
        return sys.modules[name]
    for dep in NEEDS.get(name, ()):
        load(dep)
    spec = importlib.util.spec_from_file_location(name, TEST / FILES[name])
    assert spec is not None and spec.loader is not None, name
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module
