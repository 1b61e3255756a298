"""The window kernels of max pooling, as the registry's forms see them
(registry.py): what is asked (`UnpoolRequest` for the backward,
`MaxPoolRequest` for the forward) and the index arithmetic every max-pool
lowering shares.

A max pool's forward returns, per output position s, the flat index of
its window's maximum, idx[n, c, s] = flat(b), with

    flat(b) = sum_i b_i * prod_{j > i} N_j      (N: the input's spatial sizes)

and its backward adds every grad_output value to the position its index
names (the "unpool" kernel, over the relation b = S*s + D*k - P of
../kernel/relation.py):

    grad_input[n, c, b] = sum_{s, k: b = S*s + D*k - P} (idx[n, c, s] == flat(b)) ? grad_output[n, c, s] : 0

Its forms: pool_scatter.py (the scatter of grad_output by its indices)
and pool_gather.py (one gather over the input positions).  The forward
(the kernel MAX_POOL) returns

    y[n, c, s]   = max_{k: 0 <= b < N} x[n, c, b]
    idx[n, c, s] = flat(b) of the window's first maximum (PyTorch's order)

its one form today pool_max.py (two reductions over the taps).  A new form
of either kernel is one module registering a FormDef with kinds {UNPOOL}
or {MAX_POOL} (and its line in registry.WINDOW_FORMS if it is built in).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Optional

from ...dialects import arith
from ...ir.builder import Builder
from ...ir.core import Value
from ...ir.types import FloatType, i64
from ..kernel.emit import Emitter, Ix
from ..kernel.relation import Choice, Rel
from ..kernel.request import DEFAULT_CHOICES, KernelChoices


class WindowKind(Choice):
    """The window kernels (module docstring); not convolution kernels:
    `--conv-form` names none of their forms."""

    UNPOOL = "unpool"
    MAX_POOL = "max_pool"


@dataclass(frozen=True)
class UnpoolRequest:
    """One max-pool backward to emit: grad_output and indices (builtin
    tensors [n, c, s...]), one relation per spatial dim (Ns: grad_output's
    sizes, Nb: the input's), the input's batch and channels where static
    (None: read from grad_output), grad_output's element type, the type
    sums are added in, whether the op had ceil_mode and a batch dim, and
    the options.  `ins` is empty in a request built from the op's types
    only (sizes_request), for a form's fits before anything is emitted."""

    rels: Sequence[Rel]
    lead: tuple[Optional[int], Optional[int]]
    dtype: FloatType
    acc_type: FloatType
    ceil_mode: bool
    batched: bool
    ins: tuple[Value, ...] = ()
    choices: KernelChoices = DEFAULT_CHOICES
    kind: WindowKind = WindowKind.UNPOOL

    def with_ins(self, grad: Value, indices: Value) -> UnpoolRequest:
        return replace(self, ins=(grad, indices))


@dataclass(frozen=True)
class MaxPoolRequest:
    """One max-pool forward to emit: the input (a builtin tensor
    [n, c, N...]), one relation per spatial dim (Ns: the output's sizes,
    Nb: the input's), the input's batch and channels where static (None:
    dynamic), its element type, whether the op had ceil_mode and returns
    the indices too, and the options.  `ins` is empty until with_ins."""

    rels: Sequence[Rel]
    lead: tuple[Optional[int], Optional[int]]
    dtype: FloatType
    ceil_mode: bool
    indices: bool
    ins: tuple[Value, ...] = ()
    choices: KernelChoices = DEFAULT_CHOICES
    kind: WindowKind = WindowKind.MAX_POOL

    def with_ins(self, x: Value) -> MaxPoolRequest:
        return replace(self, ins=(x,))


def product(em: Emitter, xs: Sequence[Ix]) -> Ix:
    """prod(xs), folded where static."""
    out: Ix = 1
    for x in xs:
        out = em.mul(out, x)
    return out


def add_term(b: Builder, flat: Optional[Value], pos: Value, stride: Optional[Value]) -> Value:
    """flat + pos * stride, inside a body: one step of flat(b) (module
    docstring), dim by dim from the outermost; stride None: the innermost
    dim's 1 (no multiply); flat None: the first term."""
    term = pos if stride is None else arith.same_type(b, arith.MULI, pos, stride)
    return term if flat is None else arith.same_type(b, arith.ADDI, flat, term)


def index_equals(b: Builder, index: Value, flat: Value) -> Value:
    """index (i64) == flat (an index value): whether the argmax the forward
    recorded is this position."""
    return arith.cmpi(b, "eq", index, arith.convert(b, arith.INDEX_CAST, flat, i64))
