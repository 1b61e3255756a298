"""convopt.rewrite: patterns by root op definition, one greedy applier, dead-op
removal; and the lowerings as patterns."""

from __future__ import annotations

from pathlib import Path

from convopt.diagnostics import DiagnosticEngine, SourceFile
from convopt.dialects import OpDef
from convopt.driver import Options, process
from convopt.ir import Block, Builder, Operation, Region
from convopt.ir.types import f32
from convopt.rewrite import RewritePattern, Rewriter, apply_patterns, apply_patterns_to

INPUTS = Path(__file__).resolve().parents[1] / "inputs"


def make_block() -> Block:
    b = Block([f32, f32])
    Region([b])
    return b


class Negate(RewritePattern):
    """t.neg(x) -> arith.negf(x), recording the new op."""

    root = OpDef("t.neg")

    def match_and_rewrite(self, op: Operation, rewriter: Rewriter) -> bool:
        new = Builder.before(op).create("arith.negf", [op.operands[0]], [f32])
        rewriter.notify_created([new])
        rewriter.replace_op(op, [new.results[0]])
        return True


class Refuse(RewritePattern):
    root = OpDef("t.neg")

    def __init__(self) -> None:
        self.seen: list[Operation] = []

    def match_and_rewrite(self, op: Operation, rewriter: Rewriter) -> bool:
        self.seen.append(op)
        return False


def test_patterns_apply_by_root_and_first_success_wins():
    block = make_block()
    a, _ = block.args
    neg = block.append(Operation("t.neg", [a], [f32]))
    other = block.append(Operation("t.other", [neg.results[0]], [f32]))
    refuse = Refuse()
    created = apply_patterns(list(block.ops), [refuse, Negate(), Negate()])
    assert refuse.seen == [neg]
    assert [op.name for op in block.ops] == ["arith.negf", "t.other"]
    assert created == [block.ops[0]] and other.operands[0] is block.ops[0].results[0]


def test_ops_erased_by_an_earlier_rewrite_are_skipped():
    block = make_block()
    a, _ = block.args
    first = block.append(Operation("t.fold", [a], [f32]))
    second = block.append(Operation("t.neg", [first.results[0]], [f32]))

    class FoldNext(RewritePattern):
        root = OpDef("t.fold")

        def match_and_rewrite(self, op: Operation, rewriter: Rewriter) -> bool:
            user = op.results[0].uses[0][0]
            rewriter.replace_op(user, [op.operands[0]])
            rewriter.erase_op(op)
            return True

    refuse = Refuse()
    apply_patterns(list(block.ops), [FoldNext(), refuse])
    assert refuse.seen == [] and block.ops == [] and second.parent is None


def test_dead_pure_operands_are_erased_transitively_and_nothing_else():
    block = make_block()
    a, b = block.args
    c = block.append(Operation("arith.addf", [a, b], [f32]))
    d = block.append(Operation("arith.mulf", [c.results[0], c.results[0]], [f32]))
    impure = block.append(Operation("t.effect", [a], [f32]))
    unrelated = block.append(Operation("arith.subf", [a, b], [f32]))
    root = block.append(Operation("t.neg", [d.results[0], impure.results[0]], [f32]))

    class Erase(RewritePattern):
        root = OpDef("t.neg")

        def match_and_rewrite(self, op: Operation, rewriter: Rewriter) -> bool:
            rewriter.erase_op(op)
            return True

    apply_patterns([root], [Erase()], erase_dead=False)
    assert len(block.ops) == 4  # nothing else touched
    block2 = make_block()
    a, b = block2.args
    c = block2.append(Operation("arith.addf", [a, b], [f32]))
    d = block2.append(Operation("arith.mulf", [c.results[0], c.results[0]], [f32]))
    impure = block2.append(Operation("t.effect", [a], [f32]))
    unrelated = block2.append(Operation("arith.subf", [a, b], [f32]))
    root = block2.append(Operation("t.neg", [d.results[0], impure.results[0]], [f32]))
    apply_patterns([root], [Erase()])
    assert block2.ops == [impure, unrelated]


def test_apply_patterns_to_walks_nested_ops_in_a_snapshot():
    block = make_block()
    a, _ = block.args
    for _ in range(3):
        block.append(Operation("t.neg", [a], [f32]))
    holder = Operation("t.holder", regions=[block.parent])  # type: ignore[list-item]
    created = apply_patterns_to(holder, [Negate()])
    assert [op.name for op in block.ops] == ["arith.negf"] * 3 and created == block.ops


def run(text: str, pipeline: str) -> str:
    engine = DiagnosticEngine()
    out = process(SourceFile("in.mlir", text), Options(pipeline=pipeline), engine)
    assert out is not None, [d.render() for d in engine.diagnostics]
    return out


def test_decompose_lower_equals_decompose_then_torch_to_linalg():
    """lower=true applies the torch-to-linalg patterns to what the
    decomposition created: here, where nothing else is torch, the same IR as
    the two passes one after the other."""
    text = (INPUTS / "conv_transpose.mlir").read_text()
    fused = run(text, "builtin.module(func.func(convopt-decompose-conv-bwd{lower=true}, convopt-cleanup))")
    split = run(text, "builtin.module(func.func(convopt-decompose-conv-bwd, convopt-torch-to-linalg, convopt-cleanup))")
    assert "torch.aten.convolution" not in fused
    assert fused == split


def test_patterns_name_registered_definitions_and_read_operands_by_name():
    """A pattern's root is an op definition (a misspelt name fails where
    the pattern is written); torch operands are read by their names."""
    import pytest

    from convopt.dialects import definition, torch
    from convopt.dialects.base import VerifyError
    from convopt.ir.types import TORCH_INT

    with pytest.raises(KeyError, match="torch.aten.slice.Tensorr"):
        definition("torch.aten.slice.Tensorr")
    block = make_block()
    ints = [block.append(Operation(torch.CONSTANT_INT, [], [TORCH_INT])).results[0] for _ in range(4)]
    a, _ = block.args
    sl = block.append(Operation(torch.SLICE_TENSOR, [a, *ints], [f32]))
    args = definition(torch.SLICE_TENSOR).args(sl)
    assert (args.self, args.dim, args.start, args.end, args.step) == (a, *ints)
    short = block.append(Operation(torch.SLICE_TENSOR, [a, *ints[:3]], [f32]))
    with pytest.raises(VerifyError, match="expected 5 operands \\(self, dim, start, end, step\\), but found 4"):
        torch.args(short)
