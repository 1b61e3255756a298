"""Channel roles of the kernels, and the reshapes between PyTorch's layout
and one dim per role.

Channels: A is [N, G*Ca, s...], B is [N, G*Cb, b...], W is [G*Ca, Cb, k...]
(for a regular convolution Ca = Cout/G, Cb = Cin/G; transposed Ca = Cin/G,
Cb = Cout/G), expanded to separate groups when G > 1.  A kernel's loops and
operands are named by the roles n, g, ca, cb; a role of static size 1 gets
no loop (and no dim).
"""

from __future__ import annotations

from dataclasses import dataclass

from ...ir.core import Value
from ...ir.types import ranked
from .emit import Emitter, Ix, unit_groups
from .relation import Kind

Layout = tuple[tuple[str, ...], ...]
"""The roles in each leading (non-spatial) dim of a tensor, e.g. grad_output
of a grouped convolution is ((n,), (g, ca)): [N, G*Ca, spatial...]."""

A_LAYOUT: Layout = (("n",), ("g", "ca"))  # [N, G*Ca, s...]
B_LAYOUT: Layout = (("n",), ("g", "cb"))  # [N, G*Cb, b...]
W_LAYOUT: Layout = (("g", "ca"), ("cb",))  # [G*Ca, Cb, k...]


@dataclass(frozen=True)
class KernelDef:
    """Loop dims by role: non-spatial parallel roles, then one output loop per
    spatial dim, then non-spatial reduction roles, then one reduction loop
    per spatial dim.  Operand and output dims are named by role; their
    spatial dims follow."""

    parallel: tuple[str, ...]
    reduction: tuple[str, ...]
    inputs: tuple[tuple[str, ...], tuple[str, ...]]
    output: tuple[str, ...]


KERNELS: dict[Kind, KernelDef] = {
    # out A[n, g, ca, s] = sum_{cb, k} B[n, g, cb, S*s + D*k - P] * W[g, ca, cb, k]
    Kind.GATHER: KernelDef(parallel=("n", "g", "ca"), reduction=("cb",), inputs=(("n", "g", "cb"), ("g", "ca", "cb")), output=("n", "g", "ca")),
    # out B[n, g, cb, S*s + D*k - P] += sum_{ca} A[n, g, ca, s] * W[g, ca, cb, k]   (one op per tap k)
    Kind.SCATTER: KernelDef(parallel=("n", "g", "cb"), reduction=("ca",), inputs=(("n", "g", "ca"), ("g", "ca", "cb")), output=("n", "g", "cb")),
    # out W[g, ca, cb, k] = sum_{n, s} A[n, g, ca, s] * B[n, g, cb, S*s + D*k - P]
    Kind.WEIGHT: KernelDef(parallel=("g", "ca", "cb"), reduction=("n",), inputs=(("n", "g", "ca"), ("n", "g", "cb")), output=("g", "ca", "cb")),
}


def present(roles: dict[str, Ix]) -> set[str]:
    """Roles that become loops: every role not statically of size 1."""
    return {r for r, size in roles.items() if size != 1}


def _fold_units(keep: list[bool], rank: int) -> tuple[list[list[int]], list[list[int]]]:
    """Reassociation of a [lead..., spatial...] tensor of this rank that folds
    the lead dims whose `keep` is False into a neighbour: the kept lead dim
    after them, else the last kept one, else the first spatial dim.  Returns
    (lead groups, spatial groups)."""
    groups, trailing = unit_groups(keep)
    spatial = [[i] for i in range(len(keep), rank)]
    if trailing:
        if groups:
            groups[-1] += trailing
        else:
            spatial[0] = trailing + spatial[0]
    return groups, spatial


def to_roles(em: Emitter, v: Value, layout: Layout, roles: dict[str, Ix]) -> Value:
    """Reshape v from `layout` to one dim per present role (unit roles
    dropped, grouped roles split), spatial dims unchanged."""
    live = present(roles)
    # Merge dims that hold no present role into a neighbour (collapse).
    groups, spatial = _fold_units([any(r in live for r in names) for names in layout], ranked(v.type).rank)
    merged = [[r for i in g for r in layout[i] if r in live] for g in groups]
    if any(len(g) > 1 for g in groups) or (spatial and len(spatial[0]) > 1):
        v = em.collapse(v, groups + spatial)
    # Split dims that hold several present roles (expand).
    if any(len(m) > 1 for m in merged):
        reassoc, shape, k = [], [], 0
        for m in merged:
            reassoc.append(list(range(k, k + len(m))))
            shape += [roles[r] for r in m]
            k += len(m)
        spatial_sizes = em.shape(v)[len(merged):]
        reassoc += [[k + i] for i in range(len(spatial_sizes))]
        v = em.expand(v, reassoc, shape + spatial_sizes)
    return v


def from_roles(em: Emitter, v: Value, layout: Layout, roles: dict[str, Ix]) -> Value:
    """The inverse of to_roles: from one dim per present role to `layout`."""
    live = present(roles)
    per_dim = [[r for r in names if r in live] for names in layout]
    n_present = sum(len(p) for p in per_dim)
    rank = ranked(v.type).rank
    n_spatial = rank - n_present
    if any(len(p) > 1 for p in per_dim):
        groups, k = [], 0
        for p in per_dim:
            if p:
                groups.append(list(range(k, k + len(p))))
                k += len(p)
        v = em.collapse(v, groups + [[k + i] for i in range(n_spatial)])
    if any(not p for p in per_dim):
        sizes = em.shape(v)
        kept = iter(sizes)
        shape: list[Ix] = [next(kept) if p else 1 for p in per_dim]
        reassoc, spatial = _fold_units([bool(p) for p in per_dim], len(layout) + n_spatial)
        v = em.expand(v, reassoc + spatial, shape + list(kept))
    return v
