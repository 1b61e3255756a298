"""The test tiers, as pytest markers (registered in pyproject.toml, which
runs pytest with --strict-markers):

  fast  no IREE build or run (make test-fast)
  iree  builds or runs a module with IREE (make test: fast and iree)
  full  a case of a long sweep beyond the slice make test runs (make test-full)

Every test is given one of fast and iree here, never by hand: iree where
IREE_TESTS names its file (and function), fast otherwise; a fast test that
starts an IREE tool fails (the audit hook below), so the table cannot go
stale silently.  A case of a long sweep carries `sweep(name[, index])` in its
module's parametrization; it is `full` unless the sweep's option selects it:

  sweep("e2e-random", i)  the i-th seeded random e2e row   --e2e-random=N (rows 0..N-1)
  sweep("e2e-forms")      a row beyond FORM_ROWS / FAST     --e2e-forms=all
  sweep("models")         a model beyond FAST_MODELS        --models=all
  sweep("gpu")            a GPU build or lowp step          --gpu-full

pyproject.toml's addopts deselect `full`: run such a case by name with its
option or with `-m ""`.
"""

from __future__ import annotations

import os
import re
import sys

import pytest

SWEEPS = {
    "e2e-random": lambda config, index: index < config.getoption("e2e_random"),
    "e2e-forms": lambda config: config.getoption("e2e_forms") == "all",
    "models": lambda config: config.getoption("models") == "all",
    "gpu": lambda config: config.getoption("gpu_full"),
}
"""Sweep name -> whether the options put a case of it into the run of `-m "not full"`."""

IREE_TESTS: dict[str, tuple[str, ...]] = {
    "unit/test_print_generic.py": ("test_iree_opt_reads_the_generic_form_back_to_the_same_module", "test_named_ops_spell_out_their_bodies",
                                   "test_mlir_generic_output_reads_as_convopt_custom_form"),
    "unit/test_quickstart.py": (),
    "unit/test_recipes.py": ("test_sh_recipe", "test_python_example"),
    "e2e/test_conv_bwd.py": (),
    "e2e/test_avg_pool_bwd.py": (),
    "e2e/test_gpu_forms.py": ("test_gpu_form_numerics",),
    "e2e/test_max_pool_bwd.py": ("test_max_pool3d_backward_iree",),
    "e2e/test_max_pool_fwd_iree.py": (),
    "models/test_models.py": ("test_model", "test_strided_kx1x1_forward_conv"),
    "models/test_lowp.py": ("test_lowp_step",),
    "fuzz/test_packed_sweep_slice.py": (),
    "gpu/test_gpu_compile.py": ("test_gpu_build", "test_gpu_build_decomposed", "test_gpu_build_lowp", "test_gpu_build_pool",
                                "test_known_failures_are_reproduced", "test_small_lowp_weight_kernel_builds_for_rocm",
                                "test_channels_first_weight_accumulator_still_fails", "test_failure_names_the_op",
                                "test_cuda_tap_copy_failure_is_reproduced", "test_vulkan_three_tap_reduction_failure_is_reproduced"),
    "gpu/test_gpu_run.py": ("test_cpu_rehearsal",),
    "gpu/test_mma.py": ("test_iree_dump",),
    "dynamo/test_backend.py": ("test_an_op_nobody_lowers_runs_in_eager_after_one_warning", "test_fallback_false_is_a_clear_error",
                               "test_both_cpu_drivers_compute_the_same_bits",
                               "test_a_second_backend_instance_compiles_nothing", "test_a_frozen_layer_gets_no_gradient",
                               "test_registered_by_entry_point_and_by_hand", "test_a_result_that_is_an_argument_does_not_alias_it",
                               "test_local_sync_runs_in_the_calling_thread", "test_a_module_failing_at_run_time_falls_back_once"),
    "dynamo/test_ddp.py": (),
    "dynamo/test_readme.py": (),
    "dynamo/test_train.py": (),
}
"""File (relative to test/) -> the test functions in it that run an IREE
tool, in process or in a subprocess (() for all of them)."""


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("convopt", "convopt's sweeps: the cases each selects stop being `full`")
    group.addoption("--e2e-random", type=int, default=8, metavar="N", help="seeded random e2e rows of harness.RANDOM_ROWS (default 8)")
    group.addoption("--e2e-forms", choices=("feature-rows", "all"), default="feature-rows",
                    help="the forced forms, the other paths and the pool rows on one named row per feature (default) or on all")
    group.addoption("--models", choices=("fast", "all"), default="fast", help="the model suite on FAST_MODELS (default) or every model on every pipeline")
    group.addoption("--gpu-full", action="store_true", help="every GPU build and low-precision step (test/gpu, test/models/test_lowp.py)")


def pytest_configure(config: pytest.Config) -> None:
    sys.addaudithook(_audit)


def uses_iree(item: pytest.Item) -> bool:
    rel = os.path.relpath(item.path, os.path.dirname(__file__))
    functions = IREE_TESTS.get(rel)
    return functions is not None and (not functions or item.originalname in functions)  # type: ignore[attr-defined]


def in_slice(config: pytest.Config, mark: pytest.Mark) -> bool:
    name, *args = mark.args
    if name not in SWEEPS:
        raise pytest.UsageError(f"unknown sweep {name!r} (test/conftest.py SWEEPS)")
    return SWEEPS[name](config, *args)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        item.add_marker(pytest.mark.iree if uses_iree(item) else pytest.mark.fast)
        if not all(in_slice(config, m) for m in item.iter_markers("sweep")):
            item.add_marker(pytest.mark.full)


class IreeInFastTest(BaseException):
    """A fast test started an IREE tool (a BaseException: the test's own
    `except Exception` must not swallow it)."""


_fast_test: list[str] = []
"""The node id of the fast test running in this process, if one is."""


IREE_TOOL = re.compile(r"(?:^|[\s/;|&(])(iree-(?:compile|opt|run-module|run-mlir|benchmark-module))\b")
"""An IREE tool in a command line: run directly or named in a shell command."""


def _audit(event: str, args: tuple) -> None:
    if event != "subprocess.Popen" or not _fast_test:
        return
    executable, argv = args[0], args[1]
    words = [executable, *(argv if isinstance(argv, (list, tuple)) else [argv])]
    found = [m.group(1) for w in words if w for m in [IREE_TOOL.search(os.fsdecode(w))] if m]
    if found:
        raise IreeInFastTest(f"{_fast_test[0]} runs {found[0]}: name it in test/conftest.py IREE_TESTS (the iree tier)")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem):
    if item.get_closest_marker("fast"):
        _fast_test.append(item.nodeid)
    try:
        yield
    finally:
        _fast_test.clear()
