"""The interpreter proper: runs a `func.func` of a module one op at a time.

    interp = Interpreter(module)
    results = interp.call("main", [array0, array1])

Each op is executed by the handler registered for its name (`@handler`),
with the runtime values of its operands; the results it returns are converted
to the types the op declares (so an `arith.addf` on f16 rounds to f16) and
checked against their static shapes.  An op without a handler, or a value
the op cannot take (an out-of-bounds slice, a division by zero), is an
`InterpError` located at the op.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Optional

import numpy as np

from ..diagnostics import ConvoptError, Diagnostic, position_of
from ..dialects import func, torch_c
from ..ir.attributes import Attribute, StringAttr, SymbolRefAttr, TypeAttr
from ..ir.core import Block, Operation, Value
from ..ir.types import FunctionType
from .values import TypeNotSupported, convert, is_tensor, shape_of


class InterpError(ConvoptError):
    """A located error while interpreting (unknown op, invalid runtime value)."""

    def __init__(self, message: str, at: object = None):
        super().__init__(Diagnostic("error", message, position_of(at)))

    def __str__(self) -> str:
        return self.diagnostic.render()


TORCH_HINT = (
    "convopt-run runs lowered IR: on a raw torch import run `convopt --lower-conv-bwd --torch-mlir-stages` "
    "(pure linalg) first; of the torch ops `convopt --lower-conv-bwd` leaves, it runs those of convopt/interp/torch_ops.py"
)

Handler = Callable[["Interpreter", Operation, list], list]
HANDLERS: dict[str, Handler] = {}
"""Op name -> handler(interp, op, operand values) -> result values."""


def handler(*names: str) -> Callable[[Handler], Handler]:
    """Register the decorated function as the handler of the named ops."""

    def register(fn: Handler) -> Handler:
        for name in names:
            HANDLERS[name] = fn
        return fn

    return register


def attr(op: Operation, name: str) -> Optional[Attribute]:
    """An inherent attribute, wherever the parser put it (attributes or properties)."""
    value = op.attributes.get(name)
    if value is None and op.properties:
        value = op.properties.get(name)
    return value


def describe(op: Operation) -> str:
    return f"'{op.name}'"


class Interpreter:
    """Runs the functions of one module (a `builtin.module` op)."""

    def __init__(self, module: Operation, resources: Optional[dict[str, bytes]] = None):
        self.module = module
        self.resources = resources or {}  # dense_resource blobs by handle (values.resource_blobs)
        self.functions: dict[str, Operation] = {}
        for op in module.walk():
            if op.name == func.FUNC:
                sym = attr(op, "sym_name")
                if isinstance(sym, StringAttr):
                    self.functions.setdefault(sym.value, op)
        self.depth = 0
        self.current: dict[int, Any] = {}  # the values of the function body being run

    def outer_value(self, v: Value, op: Operation) -> Any:
        """The value of v in the function body running op (for a value a
        region uses from outside)."""
        return self.lookup(self.current, v, op)

    # -- functions ------------------------------------------------------------------------
    def function(self, name: str, at: object = None) -> Operation:
        func = self.functions.get(name)
        if func is None:
            known = ", ".join("@" + n for n in self.functions) or "none"
            raise InterpError(f"no function named '@{name}' (functions: {known})", at)
        if not func.regions or not func.regions[0].blocks:
            raise InterpError(f"function '@{name}' is only declared: nothing to run", func)
        return func

    @staticmethod
    def signature(func: Operation) -> FunctionType:
        ft = attr(func, "function_type")
        assert isinstance(ft, TypeAttr) and isinstance(ft.type, FunctionType)
        return ft.type

    def call(self, name: str, args: Sequence[Any], at: object = None) -> list:
        """Run function `name` on args (arrays or scalars, converted to the
        argument types); returns its results."""
        func = self.function(name, at)
        sig = self.signature(func)
        if len(args) != len(sig.inputs):
            raise InterpError(f"'@{name}' takes {len(sig.inputs)} arguments, got {len(args)}", at if at is not None else func)
        if len(func.regions[0].blocks) != 1:
            raise InterpError(f"'@{name}' has {len(func.regions[0].blocks)} blocks; only single-block functions can be run", func)
        block = func.regions[0].blocks[0]
        env: dict[int, Any] = {}
        for i, (arg, value, t) in enumerate(zip(block.args, args, sig.inputs)):
            try:
                env[id(arg)] = self.check(convert(value, t), t, f"argument #{i} of '@{name}'", at if at is not None else func)
            except TypeNotSupported as e:
                raise InterpError(f"argument #{i} of '@{name}': {e}", func) from None
        self.depth += 1
        if self.depth > 200:
            raise InterpError("call depth exceeds 200 (recursion?)", at)
        try:
            with np.errstate(all="ignore"):
                results = self.run_block(block, env)
        finally:
            self.depth -= 1
        if len(results) != len(sig.results):
            raise InterpError(f"'@{name}' returns {len(results)} values for {len(sig.results)} result types", func)
        # Copies: a result may be (a view of) an argument.
        return [np.array(self.check(r, t, f"result #{i} of '@{name}'", func)) if isinstance(r, np.ndarray) else r for i, (r, t) in enumerate(zip(results, sig.results))]

    def run_block(self, block: Block, env: dict[int, Any]) -> list:
        """Execute the ops of a function body; the values its `func.return` returns."""
        for op in block.ops:
            if op.name == func.RETURN:
                return [self.lookup(env, v, op) for v in op.operands]
            self.execute(op, env)
        raise InterpError(f"function body does not end with '{func.RETURN}'", block.parent_op)

    # -- ops ----------------------------------------------------------------------------------
    def lookup(self, env: dict[int, Any], v: Value, op: Operation) -> Any:
        try:
            return env[id(v)]
        except KeyError:
            raise InterpError(f"operand of {describe(op)} has no value (defined in a region the interpreter did not run)", op) from None

    def execute(self, op: Operation, env: dict[int, Any]) -> None:
        fn = HANDLERS.get(op.name)
        if fn is None:
            error = InterpError(f"the interpreter does not support {describe(op)}", op)
            if op.name.startswith(("torch.", "torch_c.")):
                error.diagnostic.note(TORCH_HINT, op)
            raise error
        args = [self.lookup(env, v, op) for v in op.operands]
        outer, self.current = self.current, env
        try:
            results = fn(self, op, args)
        except ConvoptError:
            raise
        except TypeNotSupported as e:
            raise InterpError(f"{describe(op)}: {e}", op) from None
        except Exception as e:  # a bug of the interpreter: say where it happened
            raise InterpError(f"internal error of the interpreter in {describe(op)}: {type(e).__name__}: {e}", op) from e
        finally:
            self.current = outer
        if len(results) != len(op.results):
            raise InterpError(f"internal error: {describe(op)} produced {len(results)} values for {len(op.results)} results", op)
        for i, (r, value) in enumerate(zip(op.results, results)):
            env[id(r)] = self.check(convert(value, r.type), r.type, f"result #{i} of {describe(op)}", op)

    def check(self, value: Any, t: Any, what: str, at: object) -> Any:
        """value, after checking a tensor's runtime shape against type t."""
        if is_tensor(t):
            shape = shape_of(t)
            got = np.shape(value)
            if len(got) != len(shape) or any(s is not None and s != g for s, g in zip(shape, got)):
                raise InterpError(f"{what} has shape {_shape(got)}, which does not match its type '{t}'", at)
        return value


def _shape(shape: Sequence[int]) -> str:
    return "x".join(map(str, shape)) if shape else "scalar"


def callee(op: Operation) -> str:
    ref = attr(op, "callee")
    if not isinstance(ref, SymbolRefAttr):
        raise InterpError(f"{describe(op)} has no callee", op)
    return ref.root


@handler(func.CALL)
def _call(interp: Interpreter, op: Operation, args: list) -> list:
    return interp.call(callee(op), args, op)


@handler(torch_c.TO_BUILTIN_TENSOR, torch_c.FROM_BUILTIN_TENSOR)
def _identity(interp: Interpreter, op: Operation, args: list) -> list:
    return [args[0]]
