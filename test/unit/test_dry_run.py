"""A form's work read off a dry run of its emitter (convopt/lowering/kernel/dry.py):
the dry run builds the ops the real emitter builds, and `counted` prices
each op by one rule."""

from __future__ import annotations

import collections
import re

import pytest

from convopt.dialects import linalg, tensor
from convopt.ir.types import FloatType, RankedTensorType
from convopt.lowering.forms import registry
from convopt.lowering.forms.matmul_forms import emit_im2col, im2col_work
from convopt.lowering.kernel.cost import Work
from convopt.lowering.kernel.dry import Built, counted, dry_run
from convopt.lowering.kernel.relation import Kind, Rel
from convopt.lowering.kernel.request import KernelChoices, Peel, sized
from convopt.lowering.kernel.tiles import decide

F32 = FloatType("f32")


def t(*shape: int) -> RankedTensorType:
    return RankedTensorType(tuple(shape), F32)


WORKED = ("linalg.matmul", "linalg.batch_matmul", "linalg.transpose", "linalg.generic", "tensor.insert_slice", "tensor.pad")
"""The ops of the matmul forms that count (kernel/dry.py COPIES and the matmuls)."""


def _spied(harness, cfg, extra: tuple[str, ...]) -> tuple[str, list]:
    """The lowered text of cfg and the picks registry.choose made."""
    picked: list = []
    with registry.observing(lambda req, pick: picked.append(pick)):
        text = harness.lower(harness.torch_ir(cfg), ("--lower-conv-bwd", "--conv-form=im2col", *extra))
    return text, picked


CONFIGS = [
    # (cin, cout, spatial, kernel, stride, padding, mask): a scatter by col2im's window, a strided one,
    # a 1x1 strided scatter (the weight transposed for the matmul), weight kernels (one peeled into pieces)
    (8, 16, 10, 3, 1, 1, (True, False, False)),
    (8, 16, 11, 3, 2, 1, (True, False, False)),
    (8, 16, 12, 1, 2, 0, (True, False, False)),
    (8, 16, 9, 3, 1, 2, (False, True, False)),
    (4, 4, 7, 5, 3, 2, (False, True, False)),
]


@pytest.mark.parametrize("case", CONFIGS, ids=lambda c: f"k{c[3]}-s{c[4]}-p{c[5]}-{'gi' if c[6][0] else 'gw'}")
def test_the_dry_run_builds_what_the_emitter_builds(case):
    """Op for op (by name) the dry run of the chosen variant is the IR the
    real emission put in the function: no hand mirror to drift from it."""
    from bench.testsupport import load

    harness = load("harness")
    cin, cout, n, k, s, p, mask = case
    cfg = harness.Config("dry", 2, cin, cout, (n, n), (k, k), (s, s), (p, p), (1, 1), mask=mask)
    text, picked = _spied(harness, cfg, ())
    assert len(picked) == 1 and picked[0].form.name == "im2col"
    emitted = collections.Counter(name for name in re.findall(r"= ((?:linalg|tensor)\.[a-z_]+)", text) if name in WORKED)
    dry = collections.Counter(op.name for op in dry_run(emit_im2col, picked[0].variant.req) if op.name in WORKED)
    assert emitted == dry and sum(dry.values()) > 2


def test_a_transpose_read_only_by_a_matmul_is_free():
    """IREE folds the transposed operand into the matmul; a transpose read
    by anything else is a copy of its own."""
    into_matmul = [Built(linalg.TRANSPOSE, (t(4, 8),), (t(8, 4),), False, (-1,)),
                   Built(tensor.COLLAPSE_SHAPE, (t(8, 4),), (t(8, 4),), False, (0,)),
                   Built(linalg.MATMUL, (t(8, 4), t(4, 2), t(8, 2)), (t(8, 2),), False, (1, -1, -1))]
    assert counted(into_matmul) == Work(matmul=64.0, matmul_result=16.0, matmul_op=1.0, dispatch=1.0)
    into_copy = [into_matmul[0], Built(linalg.GENERIC, (t(8, 4), t(8, 4)), (t(8, 4),), False, (0, -1))]
    assert counted(into_copy) == Work(copy_byte=2 * 4 * 32.0, dispatch=2.0)


def test_a_pad_is_a_copy_and_a_reduction_has_no_rule():
    assert counted([Built(tensor.PAD, (t(4, 4),), (t(6, 6),), False, (-1,))]) == Work(copy_byte=4 * 36.0, dispatch=1.0)
    assert counted([Built(tensor.EXTRACT_SLICE, (t(6, 6),), (t(4, 4),), False, (-1,))]) == Work()
    with pytest.raises(ValueError, match="no rule for linalg.generic"):
        counted([Built(linalg.GENERIC, (t(4, 4), t(4)), (t(4),), True, (-1, -1))])


def test_peeled_tiles_count_their_own_ops():
    """A weight kernel peeled into pieces: one im2col, one matmul and one
    insert per piece; its padded variant one of each and no insert."""
    rels = [Rel(S=1, D=1, P=1, K=3, Ns=8, Nb=8)] * 2
    peeled = im2col_work(decide(sized(Kind.WEIGHT, {"n": 2, "g": 1, "ca": 8, "cb": 8}, rels, KernelChoices(peel=Peel.ALWAYS))))
    padded = im2col_work(decide(sized(Kind.WEIGHT, {"n": 2, "g": 1, "ca": 8, "cb": 8}, rels, KernelChoices(peel=Peel.NEVER))))
    assert padded.matmul_op == 1 and peeled.matmul_op > 1
    assert peeled.dispatch > padded.dispatch and peeled.matmul < padded.matmul
