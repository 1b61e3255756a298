"""The registry of forms: the shapes a kernel can be emitted in, each a
module that registers itself.

A form is a `FormDef`: its name (the `--conv-form` value and the `form=` of
`--stats`), the kernels it serves, when it can emit a request (`fits`, what a
forced `--conv-form=NAME` checks), when `auto` picks it (`auto`: the
measured cost model, reading the request's device profile,
`req.choices.device`) and its emitter.  Under `auto` the forms are tried in
increasing `priority`; the first that serves the kernel and whose `auto`
holds is emitted, and `generic` (the last, fitting everything) always does.
A forced form that does not fit the request falls back to `generic`.

The built-in forms are the modules listed in BUILTIN, imported the first
time a form is looked up: the names are read without them, so that the
command line lists and checks `--conv-form` without importing the lowering.
A form registered from elsewhere (a test, a plug-in) calls `register` and
is a `--conv-form` choice from then on.

This module imports nothing of convopt at run time (the command line
imports it for the names).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from ...ir.core import Value
    from ..kernel.emit import Emitter
    from ..kernel.relation import Kind
    from ..kernel.request import KernelRequest, KernelStats

AUTO = "auto"
"""The `--conv-form` that lets the registry choose per kernel."""

FALLBACK = "generic"
"""The form that fits every kernel: a forced form that does not fit falls
back to it, and `auto` ends with it."""

BUILTIN: dict[str, str] = {"generic": "generic_form", "named": "named_form", "im2col": "matmul_forms"}
"""The built-in forms, in `--conv-form` order: name -> the module of this
folder that registers it.  A new built-in form is one new module here plus
its line in this table."""


class FormDef(NamedTuple):
    """One form.  fits(req): whether it can emit req (a forced form that
    does not fit falls back to FALLBACK); auto(req): whether `auto` picks it
    for req (its cost model, on req.choices.device); emit(em, req, stats):
    the sum in req.out_layout, recording into stats what it emitted (stats
    starts with form=name).  Neither check may emit IR: they see only the
    request."""

    name: str
    kinds: frozenset[Kind]
    fits: Callable[[KernelRequest], bool]
    auto: Callable[[KernelRequest], bool]
    emit: Callable[[Emitter, KernelRequest, KernelStats], Value]
    priority: int


_FORMS: dict[str, FormDef] = {}
_loaded = False


def register(form: FormDef) -> FormDef:
    """Add a form (a ValueError if its name is taken or is `auto`)."""
    if form.name == AUTO or form.name in _FORMS:
        raise ValueError(f"a form named '{form.name}' is already registered")
    _FORMS[form.name] = form
    return form


def unregister(name: str) -> None:
    """Remove a form registered from outside BUILTIN (a test's)."""
    if name in BUILTIN:
        raise ValueError(f"'{name}' is a built-in form")
    del _FORMS[name]


def names() -> tuple[str, ...]:
    """The `--conv-form` choices: auto, the built-in forms, then the others
    registered, in registration order; imports no form."""
    return (AUTO, *BUILTIN, *(n for n in _FORMS if n not in BUILTIN))


def _load() -> None:
    """Import the built-in form modules once; each registers its form."""
    global _loaded
    if _loaded:
        return
    for name, module in BUILTIN.items():
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


def choose(req: KernelRequest) -> FormDef:
    """The form of one kernel: under auto the first form by priority that
    serves req.kind and whose auto(req) holds; a forced form where it
    serves the kernel and fits, else FALLBACK."""
    requested = req.choices.form
    if requested == AUTO:
        return next(f for f in by_priority() if req.kind in f.kinds and f.auto(req))
    chosen = form(requested)
    return chosen if req.kind in chosen.kinds and chosen.fits(req) else form(FALLBACK)
