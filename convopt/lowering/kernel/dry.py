"""A dry run of an emitter: the ops it would build, recorded, no IR built,
and the work the cost model reads off them (cost.py's `Work`).

`DryEmitter` is an Emitter whose op-building primitives record a `Built`
(the op's name, its operand and result types, whether it reduces) and
return a fresh typed Value that belongs to no block.  Its inputs have every
dynamic size cost.DYNAMIC_SIZE (`dry_request`), so the index arithmetic
folds and the emitter takes the control flow of a static kernel.  Bodies
of linalg.generic are not built.

`counted` is the one rule from ops to work: what a form does is what its
emitter builds, so a form's work estimate is `dry_work(emit, req)` and no
hand mirror of its control flow.
"""

from __future__ import annotations

import builtins
import dataclasses
import math
from collections.abc import Callable, Sequence
from typing import NamedTuple, Optional

from ...dialects import linalg, tensor
from ...ir.affine import AffineMap
from ...ir.attributes import Attribute
from ...ir.builder import Builder
from ...ir.core import Value
from ...ir.types import RankedTensorType, Type, index, ranked
from .cost import DYNAMIC_SIZE, Work
from .emit import Emitter, Ix
from .request import KernelRequest, KernelStats


class Built(NamedTuple):
    """One op a dry run would build: its name, its operands' and results'
    types, whether it has a reduction loop (a linalg.generic's), and for
    each operand the index in `built` of the op that made it (-1: an input
    or a constant)."""

    name: str
    ins: tuple[Type, ...]
    outs: tuple[Type, ...]
    reduces: bool = False
    sources: tuple[int, ...] = ()


class DryEmitter(Emitter):
    """Records the ops an emitter would build (`built`, in order)."""

    def __init__(self) -> None:  # no function to emit into
        self._sizes = {}
        self._constants = {}
        self.built: list[Built] = []
        self._maker: dict[int, int] = {}  # id of a Value made here -> its op's index
        self._made: list[Value] = []  # kept alive, so that no id is reused

    def _record(self, name: str, ins: Sequence[Value], out: Type, reduces: bool = False) -> Value:
        sources = tuple(self._maker.get(id(v), -1) for v in ins)
        self.built.append(Built(name, tuple(v.type for v in ins), (out,), reduces, sources))
        value = Value(out)
        self._maker[id(value)] = len(self.built) - 1
        self._made.append(value)
        return value

    def constant(self, attr: Attribute, type: Type) -> Value:
        return Value(type)

    def _binary(self, name: str, a: Ix, b: Ix, fold: Callable[[int, int], int]) -> Ix:
        return fold(a, b) if isinstance(a, int) and isinstance(b, int) else Value(index)

    def dim(self, t: Value, i: int) -> Ix:
        size = ranked(t.type).shape[i]
        if size is not None:
            return size
        known = self._known(t)
        if known is None:
            known = [Value(index) if s is None else s for s in ranked(t.type).shape]
            self.remember(t, known)
        return known[i]

    def refine(self, t: Value, sizes: Sequence[Optional[int]]) -> Value:
        return t

    def empty(self, shape: Sequence[Ix], element: Type) -> Value:
        return self._record(tensor.EMPTY, [], self.tensor_type(shape, element))

    def extract_slice(self, src: Value, offsets: Sequence[Ix], sizes: Sequence[Ix], strides: Sequence[int]) -> Value:
        if self.is_whole(src, offsets, sizes, strides):
            return src
        return self._record(tensor.EXTRACT_SLICE, [src], self.tensor_type(sizes, ranked(src.type).element_type))

    def insert_slice(self, src: Value, dest: Value, offsets: Sequence[Ix], sizes: Sequence[Ix], strides: Sequence[int]) -> Value:
        if self.is_whole(dest, offsets, sizes, strides):
            return src
        return self._record(tensor.INSERT_SLICE, [src, dest], dest.type)

    def pad(self, src: Value, low: Sequence[Ix], high: Sequence[Ix], fill: builtins.float = 0.0) -> Value:
        if all(x == 0 for x in list(low) + list(high)):
            return src
        shape = [self.add(self.add(lo, d), hi) for lo, d, hi in zip(low, self.shape(src), high)]
        return self._record(tensor.PAD, [src], self.tensor_type(shape, ranked(src.type).element_type))

    def expand(self, src: Value, groups: Sequence[Sequence[int]], shape: Sequence[Ix]) -> Value:
        return self._record(tensor.EXPAND_SHAPE, [src], self.tensor_type(shape, ranked(src.type).element_type))

    def collapse(self, src: Value, groups: Sequence[Sequence[int]]) -> Value:
        shape = self.shape(src)
        sizes: list[Ix] = []
        for g in groups:
            part = [shape[i] for i in g]
            sizes.append(math.prod(part) if all(isinstance(x, int) for x in part) else Value(index))  # type: ignore[arg-type]
        return self._record(tensor.COLLAPSE_SHAPE, [src], self.tensor_type(sizes, ranked(src.type).element_type))

    def structured(self, name: str, ins: Sequence[Value], outs: Sequence[Value], attributes: Optional[dict[str, Attribute]] = None) -> list[Value]:
        return [self._record(name, [*ins, *outs], o.type) for o in outs]

    def generic(self, ins: Sequence[Value], outs: Sequence[Value], maps: Sequence[AffineMap], iterators: Sequence[str],
                body: Callable[[Builder, list[Value]], list[Value]]) -> list[Value]:
        reduces = any(it != "parallel" for it in iterators)
        return [self._record(linalg.GENERIC, [*ins, *outs], o.type, reduces) for o in outs]


def elements(t: Type) -> int:
    """The elements of a tensor type of a dry run (a dynamic size: DYNAMIC_SIZE)."""
    return math.prod([DYNAMIC_SIZE if s is None else s for s in ranked(t).shape])


def written_bytes(t: Type) -> int:
    """The bytes of a tensor type of a dry run."""
    return elements(t) * max(1, getattr(ranked(t).element_type, "width", 32) // 8)


def dry_request(req: KernelRequest) -> KernelRequest:
    """req with inputs of their types but every dynamic size DYNAMIC_SIZE
    (no uses are added to the real values), dynamic roles DYNAMIC_SIZE,
    and no packed matmul tiles (a variant's packing is priced apart)."""
    a, b = (Value(RankedTensorType(tuple(DYNAMIC_SIZE if s is None else s for s in ranked(v.type).shape), ranked(v.type).element_type)) for v in req.ins)
    roles: dict[str, Ix] = {k: (v if isinstance(v, int) else DYNAMIC_SIZE) for k, v in req.roles.items()}
    return dataclasses.replace(req, ins=(a, b), roles=roles, choices=dataclasses.replace(req.choices, tiles=()))


def dry_run(emit: Callable[[Emitter, KernelRequest, KernelStats], Value], req: KernelRequest) -> list[Built]:
    """The ops emit(em, req, stats) would build for req's dry request."""
    em = DryEmitter()
    emit(em, dry_request(req), KernelStats())
    return em.built


VIEWS = frozenset({tensor.EMPTY, tensor.EXTRACT_SLICE, tensor.EXPAND_SHAPE, tensor.COLLAPSE_SHAPE, linalg.FILL})
"""Ops that are no work of their own: views of a tensor, and the fill of
a matmul's accumulator (in the matmul's dispatch)."""

COPIES = frozenset({linalg.TRANSPOSE, linalg.GENERIC, tensor.INSERT_SLICE, tensor.PAD, linalg.PACK, linalg.UNPACK})
"""Ops that write a tensor of their own (a linalg.generic: one without a
reduction loop)."""


def _matmul(op: Built) -> Work:
    """A matmul (linalg.MATMULS' index letters): multiply-adds = the
    product of every index's size, result = its elements, one op, one dispatch."""
    size: dict[str, int] = {}
    for letters, t in zip(linalg.MATMULS[op.name], op.ins):
        for ch, s in zip(letters, ranked(t).shape):
            size[ch] = DYNAMIC_SIZE if s is None else s
    field = "packed" if op.name == linalg.MMT4D else "matmul"
    return Work(**{field: float(math.prod(list(size.values())))}, matmul_result=float(elements(op.outs[0])), matmul_op=1.0, dispatch=1.0)


def _copy(op: Built) -> Work:
    """A copy: the bytes it writes (an insert: the slice's) and one dispatch."""
    written = op.ins[0] if op.name == tensor.INSERT_SLICE else op.outs[0]
    return Work(copy_byte=float(written_bytes(written)), dispatch=1.0)


def _readers(built: Sequence[Built]) -> list[list[int]]:
    """Per op, the ops that read its result, looking through VIEWS."""
    direct: list[list[int]] = [[] for _ in built]
    for j, op in enumerate(built):
        for i in op.sources:
            if i >= 0:
                direct[i].append(j)
    out: list[list[int]] = [[] for _ in built]
    for i in reversed(range(len(built))):  # a reader comes after what it reads
        for j in direct[i]:
            out[i] += out[j] if built[j].name in VIEWS else [j]
    return out


def counted(built: Sequence[Built]) -> Work:
    """The work of a dry run, one rule per op, as IREE's dispatches form
    (docs/decisions.md, dry_work):

        matmul, batch_matmul, mmt4d   b*m*k*n multiply-adds (matmul; mmt4d: packed), b*m*n result elements, 1 op, 1 dispatch
        transpose read only by matmuls  nothing (IREE folds it into the matmul)
        COPIES otherwise              the bytes written (an insert: the slice's), 1 dispatch
        VIEWS                         nothing

    A ValueError for any other op, or a linalg.generic that reduces: the
    rule for it is not written."""
    readers = _readers(built)
    work = Work()
    for i, op in enumerate(built):
        if op.name in linalg.MATMULS:
            work += _matmul(op)
        elif op.name == linalg.TRANSPOSE and readers[i] and all(built[j].name in linalg.MATMULS for j in readers[i]):
            continue
        elif op.name in COPIES and not op.reduces:
            work += _copy(op)
        elif op.name not in VIEWS:
            raise ValueError(f"dry_work has no rule for {op.name}{' (reducing)' if op.reduces else ''}")
    return work


def dry_work(emit: Callable[[Emitter, KernelRequest, KernelStats], Value], req: KernelRequest) -> Work:
    """The work of emit(em, req, stats): counted over its dry run."""
    return counted(dry_run(emit, req))
