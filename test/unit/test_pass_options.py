"""The pass options are the one source of the command line's flags, the
Python API's keywords and the pipeline text (convopt/pass_options.py):
adding an option is adding a field."""

from __future__ import annotations

import inspect
from dataclasses import dataclass, field

import click
import pytest

from convopt import api, cli, passes
from convopt.lowering.choices import DEVICES, MATMUL_TILES, OPT_LEVELS, TARGETS, Device
from convopt.lowering.forms import registry
from convopt.pass_options import KernelOptions, flags, keywords, leaves, option, pipeline_options
from convopt.passes import Pass, PipelineError, describe_passes, make_pass
from convopt.pipelines import PipelineOptions, default_pipeline


@dataclass(frozen=True)
class ToyKernelOptions(KernelOptions):
    """The kernel options with one more: a toy int option."""

    unroll: int = option(1, "toy: how many times to unroll", help="Unroll N times (a toy option).", metavar="N")


@dataclass(frozen=True)
class ToyPipelineOptions(PipelineOptions):
    kernel: ToyKernelOptions = field(default_factory=ToyKernelOptions)


@dataclass(frozen=True)
class ToyPass(Pass, ToyKernelOptions):
    NAME = "convopt-toy"
    SUMMARY = "A pass with the toy kernel options"


def test_a_new_field_is_a_flag_of_the_generated_command():
    params = [cli.flag_param(leaf) for leaf in flags(ToyPipelineOptions).values()]
    command = click.Command("toy", params=params, callback=lambda **given: given)
    assert "--unroll N" in command.get_help(click.Context(command)) and "Unroll N times (a toy option)." in command.get_help(click.Context(command))
    given = command.main(["--lower-conv-bwd", "--unroll=4", "--device=gpu"], standalone_mode=False)
    given = {name.replace("_", "-"): value for name, value in given.items() if value is not None and value is not False}
    record = cli.pipeline_options(given, ToyPipelineOptions)
    assert record.kernel.unroll == 4 and record.kernel.device is Device.GPU
    assert "convopt-conv-bwd-to-linalg{device=gpu unroll=4}" in default_pipeline(record)
    assert "unroll" not in default_pipeline(ToyPipelineOptions(lower_conv_bwd=True))  # a default is not spelt


def test_a_new_field_is_a_keyword_of_the_api():
    allowed = keywords(ToyPipelineOptions)
    record = api.options_record("lower", {"unroll": 3, "device": "avx2"}, allowed, ToyPipelineOptions, lower_conv_bwd=True)
    assert record.kernel.unroll == 3 and record.kernel.device is Device.AVX2
    assert "convopt-torch-to-linalg" not in default_pipeline(record)
    assert "convopt-conv-bwd-to-linalg{device=avx2 unroll=3}" in default_pipeline(record)
    with pytest.raises(TypeError, match="lower\\(\\) got an unexpected keyword argument 'unrol'"):
        api.options_record("lower", {"unrol": 3}, allowed, ToyPipelineOptions)


def test_a_new_field_is_an_option_of_the_pass(monkeypatch):
    monkeypatch.setitem(passes.REGISTRY, ToyPass.NAME, f"{__name__}:ToyPass")
    toy = make_pass(ToyPass.NAME, {"unroll": "7", "device": "gpu"})
    assert toy.unroll == 7 and toy.device is Device.GPU  # typed by the fields' types
    with pytest.raises(PipelineError, match="option 'unroll' of pass 'convopt-toy' expects an integer, got 'x'"):
        make_pass(ToyPass.NAME, {"unroll": "x"})
    assert any(line.startswith("      unroll=1") and line.endswith("toy: how many times to unroll") for line in describe_passes().splitlines())
    text = f"builtin.module(func.func({ToyPass.NAME}{{{' '.join(pipeline_options(ToyKernelOptions(unroll=2, peel='never')))}}}))"
    assert text == "builtin.module(func.func(convopt-toy{peel=never unroll=2}))"
    (toy_pass,) = passes.PassManager.parse(text).passes()
    assert toy_pass.unroll == 2 and toy_pass.peel == "never"


def test_the_command_has_a_flag_per_option_and_the_api_a_keyword():
    """A flag main does not place itself is added all the same (before --version)."""
    names = [p.name for p in cli.main.params]
    assert {name.replace("-", "_") for name in cli.PIPELINE_FLAGS} <= set(names)
    assert names[-1] == "version"
    assert set(inspect.signature(api.lower).parameters) == {"module", "name", "torch_mlir_stages", *api.KEYWORDS}
    assert set(inspect.signature(api.decompose).parameters) == {"module", "name", "backend_legal_ops", "target"}
    # names do not collide: each option one flag, one keyword
    assert len({leaf.flag for leaf in leaves(PipelineOptions) if leaf.flag}) == len(cli.PIPELINE_FLAGS)
    opts = [opt for p in cli.main.params for opt in p.opts]
    assert len(opts) == len(set(opts)) and set(cli.PIPELINE_FLAGS) <= cli.long_options()
    assert cli.normalize_argv(["-lower-conv-bwd", "-device=gpu", "-split-input-file", "-o", "x"]) == ["--lower-conv-bwd", "--device=gpu", "--split-input-file", "-o", "x"]


def test_one_list_per_choice():
    choices = {p.name: p.type.choices for p in cli.main.params if isinstance(p.type, click.Choice)}
    assert choices["target"] == TARGETS and choices["device"] == DEVICES and choices["matmul_tiles"] == MATMUL_TILES
    assert choices["opt_level"] == OPT_LEVELS and choices["conv_form"] == registry.names()
    listing = describe_passes()
    for values in (TARGETS, DEVICES, MATMUL_TILES, OPT_LEVELS, registry.names()):
        assert "|".join(values) in listing
    with pytest.raises(ValueError, match=f"device must be one of {', '.join(DEVICES)}, not 'tpu'"):
        api.lower("", device="tpu")
    with pytest.raises(PipelineError, match=f"device must be one of {', '.join(DEVICES)}, not 'tpu'"):
        make_pass("convopt-conv-bwd-to-linalg", {"device": "tpu"})
    from convopt.dynamo.options import DEVICES as DYNAMO_DEVICES
    from convopt.lsp.analysis import _CHOICES

    assert DYNAMO_DEVICES is DEVICES and _CHOICES["device"] is DEVICES and _CHOICES["target"] is TARGETS


def test_a_form_registered_later_is_a_choice_everywhere(monkeypatch):
    monkeypatch.setitem(registry._FORMS, "late", registry.form("generic")._replace(name="late"))
    assert KernelOptions(conv_form="late").conv_form == "late"
    assert api.options_record("lower", {"conv_form": "late"}, api.KEYWORDS).kernel.conv_form == "late"
    assert "late" in next(p for p in cli.main.params if p.name == "conv_form").type.choices
    with pytest.raises(ValueError, match="conv_form must be one of auto, generic, named, im2col, taps, late, not 'fft'"):
        api.options_record("lower", {"conv_form": "fft"}, api.KEYWORDS)
