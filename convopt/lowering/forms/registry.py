"""The registry of forms: the shapes a kernel can be emitted in, each a
module that registers itself.

A form is a `FormDef`: its name (the `--conv-form` value and the `form=` of
`--stats`), the kernels it serves, when it can emit a request (`fits`, what a
forced `--conv-form=NAME` checks), when `auto` considers it (`candidate`:
what the request's device profile, `req.choices.device`, builds), the
variants it can emit a request in, each with the work it does
(`variants`: peeled or padded pieces, one compact op; ../kernel/cost.py),
and its emitter.

`choose` is one argmin: under `auto`, over every candidate form serving the
kernel, each offering its variant of least `costs.within_form`, the least
`costs.total` of the device profile's `costs` (estimated run time plus
build cost, the build weighed more between a form's variants:
../kernel/cost.py); on equal cost the form of lower `priority`.  Below
the fitted range (a kernel of fewer multiply-adds than any measured) only
the nearly exact variants compete (cost.within_fit).  A forced form emits its own cheapest
variant, or, where it does not fit the request, FALLBACK's.

The built-in forms are the modules listed in BUILTIN, imported the first
time a form is looked up: the names are read without them, so that the
command line lists and checks `--conv-form` without importing the lowering.
A form registered from elsewhere (a test, a plug-in) calls `register` and
is a `--conv-form` choice from then on.

This module imports nothing of convopt at run time (the command line
imports it for the names).
"""

from __future__ import annotations

import contextlib
import importlib
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from ...ir.core import Value
    from ..kernel.cost import Work
    from ..kernel.emit import Emitter
    from ..kernel.relation import Kind
    from ..kernel.request import KernelRequest, KernelStats

AUTO = "auto"
"""The `--conv-form` that lets the registry choose per kernel."""

FALLBACK = "generic"
"""The form that fits every kernel and every profile builds: a forced form
that does not fit falls back to it, and it is a candidate of `auto`
everywhere."""

BUILTIN: dict[str, str] = {"generic": "generic_form", "named": "named_form", "im2col": "matmul_forms", "taps": "tap_matmul"}
"""The built-in forms, in `--conv-form` order: name -> the module of this
folder that registers it.  A new built-in form is one new module here plus
its line in this table."""

WINDOW_FORMS: dict[str, str] = {"gather": "pool_gather", "scatter": "pool_scatter", "reduction": "pool_max"}
"""The built-in forms of the window kernels (pooling.py: max pooling's
backward and forward), loaded with BUILTIN: `auto` chooses among them as among the
convolution's, but `--conv-form` (which names convolution forms) lists
none of them and a forced convolution form leaves their choice to `auto`."""


class Variant(NamedTuple):
    """One way a form can emit a request: its name (`peeled`, `padded`,
    `compact`...), the request the emitter gets (the original one, or one
    with another peel policy or profile) and the work it does."""

    name: str
    req: KernelRequest
    work: Work


class FormDef(NamedTuple):
    """One form.  fits(req): whether it can emit req (a forced form that
    does not fit falls back to FALLBACK); candidate(req): whether `auto`
    considers it for req (what req.choices.device builds); variants(req):
    the variants it can emit req in (at least one where it fits), each
    with its work; emit(em, req, stats): the sum in req.out_layout for a
    variant's request (a window kernel's: what pooling.py says), recording into stats what it emitted (stats starts
    with form=name).  No check may emit IR: they see only the request."""

    name: str
    kinds: frozenset[Kind]
    fits: Callable[[KernelRequest], bool]
    candidate: Callable[[KernelRequest], bool]
    variants: Callable[[KernelRequest], list[Variant]]
    emit: Callable[[Emitter, KernelRequest, KernelStats], Value]
    priority: int


class NoForm(Exception):
    """No variant competes for a request (`cheapest` got an empty set: no
    form, or every variant's work unusable, e.g. negative or NaN);
    forms/kernels.emit_kernel reports it at the op being lowered."""


class Pick(NamedTuple):
    """The choice for one kernel: the form, its variant and its cost (ns,
    ../kernel/cost.py Costs.total)."""

    form: FormDef
    variant: Variant
    cost: float


_FORMS: dict[str, FormDef] = {}
_loaded = False
_observers: list[Callable[[KernelRequest, Pick], None]] = []


@contextlib.contextmanager
def observing(observer: Callable[[KernelRequest, Pick], None]) -> Iterator[None]:
    """Call observer(req, pick) with every choice made in the block (what
    convopt-calibrate reads: the variant each candidate emitted and its work)."""
    _observers.append(observer)
    try:
        yield
    finally:
        _observers.remove(observer)


def register(form: FormDef) -> FormDef:
    """Add a form (a ValueError if its name is taken or is `auto`)."""
    if form.name == AUTO or form.name in _FORMS:
        raise ValueError(f"a form named '{form.name}' is already registered")
    _FORMS[form.name] = form
    return form


def unregister(name: str) -> None:
    """Remove a form registered from outside BUILTIN (a test's)."""
    if name in BUILTIN or name in WINDOW_FORMS:
        raise ValueError(f"'{name}' is a built-in form")
    del _FORMS[name]


def names() -> tuple[str, ...]:
    """The `--conv-form` choices: auto, the built-in forms, then the others
    registered, in registration order; imports no form."""
    return (AUTO, *BUILTIN, *(n for n, f in _FORMS.items() if n not in BUILTIN and not _window_only(f)))


def _window_only(form: FormDef) -> bool:
    """A form of window kernels only (pooling.py), which `--conv-form` does not name."""
    from ..kernel.relation import Kind  # the lowering's, imported when a form is registered

    return not any(isinstance(k, Kind) for k in form.kinds)


def _load() -> None:
    """Import the built-in form modules once; each registers its form."""
    global _loaded
    if _loaded:
        return
    for name, module in {**BUILTIN, **WINDOW_FORMS}.items():
        importlib.import_module(f"{__package__}.{module}")
        assert name in _FORMS, f"{module}.py registers no form '{name}'"
    _loaded = True


def form(name: str) -> FormDef:
    """The registered form of this name (KeyError if there is none)."""
    _load()
    return _FORMS[name]


def by_priority() -> list[FormDef]:
    """Every registered form, in the order `auto` tries them."""
    _load()
    return sorted(_FORMS.values(), key=lambda f: (f.priority, f.name))


def cheapest(forms: list[FormDef], req: KernelRequest) -> Pick:
    """The variant of least cost on req's device profile among the
    variants of these forms that compete (cost.within_fit: below the
    fitted range, only the nearly exact ones): each form's variant of
    least costs.within_form, then of those the least costs.total; the
    first of equal ones.  NoForm when none competes."""
    from ..kernel.cost import within_fit  # the lowering's, imported when a kernel is chosen

    costs = req.choices.device.costs
    variants = [(f, v) for f in forms for v in f.variants(req)]
    offered: dict[str, tuple[float, Pick]] = {}
    for (f, v), ok in zip(variants, within_fit([v.work for _, v in variants]) if variants else []):
        key = costs.within_form(v.work)
        if ok and (f.name not in offered or key < offered[f.name][0]):
            offered[f.name] = (key, Pick(f, v, costs.total(v.work)))
    if not offered:
        raise NoForm(f"no variant of {', '.join(f.name for f in forms) or 'any form'} competes ({len(variants)} offered)")
    return min((p for _, p in offered.values()), key=lambda p: p.cost)


def choose(req: KernelRequest) -> Pick:
    """The form and variant of one kernel, its emission decided
    (tiles.decide): under auto the cheapest variant
    of every candidate form serving req.kind (on equal cost the lower
    priority); a forced form's cheapest variant where it serves the kernel
    and fits, else FALLBACK's; auto's for a kernel FALLBACK does not serve
    (a window kernel: the forced form is a convolution's)."""
    from ..kernel.request import KernelRequest
    from ..kernel.tiles import decide  # the lowering's, imported when a kernel is chosen

    if isinstance(req, KernelRequest):  # a window kernel's request (pooling.py) has no emission to decide
        req = decide(req)
    requested = req.choices.form
    if requested == AUTO or req.kind not in form(FALLBACK).kinds:
        pick = cheapest([f for f in by_priority() if req.kind in f.kinds and f.candidate(req)], req)
    else:
        chosen = form(requested)
        pick = cheapest([chosen if req.kind in chosen.kinds and chosen.fits(req) else form(FALLBACK)], req)
    for observer in _observers:
        observer(req, pick)
    return pick
