# lit configuration for convopt's FileCheck tests (test/lit).
#
#   lit test/lit            (make test runs it)
#
# Substitutions: %convopt (the tool), FileCheck (the `filecheck` Python
# package), %mlir-verify (torch-mlir-opt parsing and verifying IR on stdin,
# so output real MLIR tools reject fails the test).
import os
import shutil
import sys

import lit.formats

config.name = "convopt"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
# Tests live in test/lit; everything else with a .mlir suffix is data.
config.excludes = ["Inputs", "Output", "inputs", "examples", "bench", ".venv", "build"]
config.test_source_root = os.path.dirname(os.path.abspath(__file__))

bindir = os.path.dirname(sys.executable)
config.environment["PATH"] = bindir + os.pathsep + os.environ.get("PATH", "")
for var in ("HOME", "TMPDIR", "CONVOPT_CACHE_DIR", "PYTHONPATH"):  # PYTHONPATH: test a worktree with the main venv
    if var in os.environ:
        config.environment[var] = os.environ[var]


def tool(name):
    path = shutil.which(name, path=config.environment["PATH"])
    if path is None:
        lit_config.fatal(f"'{name}' not found next to {sys.executable}; run `make test` to install the test tools")
    return path


convopt = tool("convopt")
if "PYTHONPATH" in config.environment:
    # lit's out-of-process builtins (`diff`, `cat`) set PYTHONPATH to lit's own
    # folder for every later command of the test (lit 23's TestRunner), so a
    # worktree's convopt after a `diff` would be the main checkout's: each
    # convopt gets ours explicitly.
    import shlex

    convopt = f"env PYTHONPATH={shlex.quote(config.environment['PYTHONPATH'])} {convopt}"
config.substitutions.append(("%convopt", convopt))
config.substitutions.append(("FileCheck", tool("filecheck")))
# %mlir-verify: real MLIR tools must accept the IR (torch-mlir is a test
# dependency: without torch-mlir-opt lit stops, as without FileCheck).
config.substitutions.append(("%mlir-verify", tool("torch-mlir-opt") + " -o /dev/null"))
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "test", "inputs")))
