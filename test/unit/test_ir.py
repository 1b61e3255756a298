"""convopt.ir.core and Builder: use lists stay exact through every edit."""

from __future__ import annotations

import pytest

from convopt.ir import Block, Builder, IRError, Operation, Region, Value
from convopt.ir.types import f32, i64


def uses(v: Value) -> list[tuple[str, int]]:
    return sorted((op.name, i) for op, i in v.uses)


@pytest.fixture
def block() -> Block:
    """A block with two f32 arguments, inside a region."""
    b = Block([f32, f32])
    Region([b])
    return b


def test_operands_register_uses(block):
    a, b = block.args
    op = block.append(Operation("t.add", [a, b, a], [f32]))
    assert uses(a) == [("t.add", 0), ("t.add", 2)]
    assert uses(b) == [("t.add", 1)]
    assert op.result.owner is op and a.owner is None
    assert a.users() == [op]


def test_set_operand_moves_the_use(block):
    a, b = block.args
    op = block.append(Operation("t.neg", [a], [f32]))
    op.set_operand(0, b)
    assert op.operands == (b,)
    assert a.uses == [] and uses(b) == [("t.neg", 0)]


def test_replace_all_uses_with(block):
    a, b = block.args
    first = block.append(Operation("t.x", [a, a], [f32]))
    second = block.append(Operation("t.y", [first.result, a], [f32]))
    a.replace_all_uses_with(b)
    assert not a.has_uses()
    assert uses(b) == [("t.x", 0), ("t.x", 1), ("t.y", 1)]
    assert first.operands == (b, b) and second.operands == (first.result, b)
    b.replace_all_uses_with(b)  # replacing a value by itself changes nothing
    assert len(b.uses) == 3


def test_erase_refuses_op_with_used_results(block):
    a, _ = block.args
    producer = block.append(Operation("t.p", [a], [f32]))
    block.append(Operation("t.c", [producer.result], []))
    with pytest.raises(IRError, match="still has uses"):
        producer.erase()
    assert producer.parent is block and uses(a) == [("t.p", 0)]


def test_erase_drops_operand_uses(block):
    a, b = block.args
    producer = block.append(Operation("t.p", [a, b], [f32]))
    consumer = block.append(Operation("t.c", [producer.result, a], []))
    consumer.erase()
    assert consumer.parent is None and consumer not in block.ops
    assert not producer.result.has_uses()
    assert uses(a) == [("t.p", 0)]
    producer.erase()
    assert block.ops == [] and a.uses == [] and b.uses == []


def test_erase_drops_uses_inside_regions(block):
    a, _ = block.args
    inner = Block()
    inner.append(Operation("t.use", [a], []))
    outer = block.append(Operation("t.wrap", [], [], regions=[Region([inner])]))
    assert uses(a) == [("t.use", 0)]
    outer.erase()
    assert a.uses == []


def test_replace_with(block):
    a, b = block.args
    old = block.append(Operation("t.old", [a], [f32, f32]))
    user = block.append(Operation("t.user", [old.results[1], old.results[0]], []))
    old.replace_with([b, a])
    assert user.operands == (a, b)
    assert old.parent is None
    with pytest.raises(IRError):
        user.replace_with([a])  # one value for zero results


def test_op_can_only_be_in_one_block(block):
    op = block.append(Operation("t.op"))
    with pytest.raises(IRError, match="already in a block"):
        Block().append(op)


def test_erase_block_argument(block):
    a, b = block.args
    block.append(Operation("t.use", [b], []))
    with pytest.raises(IRError):
        block.erase_arg(1)
    block.erase_arg(0)
    assert block.args == [b] and b.index == 0


def test_walk_is_preorder(block):
    inner = Block()
    inner.append(Operation("t.inner"))
    block.append(Operation("t.first", regions=[Region([inner])]))
    block.append(Operation("t.second"))
    outer = Operation("t.top", regions=[block.parent])
    assert [op.name for op in outer.walk()] == ["t.top", "t.first", "t.inner", "t.second"]
    assert inner.ops[0].parent_op.name == "t.first"
    assert inner.ops[0].ancestor("t.top") is outer


def test_builder_inserts_in_order(block):
    a, b = block.args
    end = block.append(Operation("t.end", [a], []))
    builder = Builder.before(end)
    x = builder.value("arith.addf", [a, b], f32)
    y = builder.value("arith.negf", [x], i64)
    assert [op.name for op in block.ops] == ["arith.addf", "arith.negf", "t.end"]
    assert y.owner.operands == (x,) and uses(x) == [("arith.negf", 0)]


def test_builder_at_end_and_position(block):
    a, _ = block.args
    marker = object()
    builder = Builder.at_end(block, pos=marker)  # type: ignore[arg-type]
    op = builder.create("linalg.yield", [a])
    assert block.ops[-1] is op and op.pos is marker
    builder.create("tensor.yield")
    assert [o.name for o in block.ops] == ["linalg.yield", "tensor.yield"]


def test_builder_before_inherits_location(block):
    from convopt.ir.attributes import NameLoc

    anchor = block.append(Operation("t.anchor", loc=NameLoc("here")))
    new = Builder.before(anchor).create("func.return")
    assert new.loc == NameLoc("here")
    assert block.ops == [new, anchor]


def test_builder_refuses_names_no_definition_registers(block):
    """A misspelt op is an error where it is built; so is an op its dialect
    only knows generically (printed generically, built by no one)."""
    builder = Builder.at_end(block)
    for name in ("linalg.matmull", "tensor.bogus", "torch.aten.not_an_op", "t.x"):
        with pytest.raises(IRError, match=f"cannot build '{name}'"):
            builder.create(name)
    assert block.ops == []


def test_result_accessor(block):
    two = Operation("t.two", [], [f32, f32])
    with pytest.raises(IRError):
        _ = two.result
    assert [r.index for r in two.results] == [0, 1]
