"""Mutations of MLIR text for the syntactic fuzzer (test/fuzz/fuzz.py).

Every mutator is `f(rng, text) -> text` and depends only on `rng` (a
`random.Random`) and the text, so a case is reproducible from its seed.

Two families:

- byte/line level: delete, insert, duplicate or swap characters, tokens,
  ranges and lines; truncate the file; bit flips;
- grammar aware: swapped types, dropped or duplicated operands, changed
  dims in shapes (`[2,?,8]`, `tensor<2x?x8xf32>`), changed
  `torch.constant.int` values and `ListConstruct` lists (consistently with
  their type lists or not), flipped bools, changed element types, truncated
  regions and blocks, swapped SSA names, op names changed to near misses,
  huge integers.

Grammar-aware mutators prefer the "hot" lines of a file half of the time:
the `convolution*` ops and the ops defining their operands (two levels:
lists and their constants), so that mutations of a large model reach the
conv lowering rather than an unrelated `aten.mul`.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Optional

Mutator = Callable[[random.Random, str], str]

TOKEN = re.compile(r'%[\w.$#:-]+|@[\w.$-]+|"[^"\n]*"|[A-Za-z_][\w.$]*|-?\d+(?:\.\d+)?(?:e[-+]?\d+)?|\S')
SSA = re.compile(r"%[\w.$-]+(?:#\d+)?")
SSA_NAME = re.compile(r"%[\w.$-]+")
INTEGER = re.compile(r"(?<![\w.#%@^])-?\d+(?![\w.])")
FLOAT = re.compile(r"(?<![\w.#%@])-?\d+\.\d+(?:e[-+]?\d+)?")
VTENSOR = re.compile(r"!torch\.vtensor<\[([^\]]*)\],([\w<>]+)>")
BUILTIN_TENSOR = re.compile(r"\btensor<((?:[\d?]+x)*)([a-z]\w*)>")
SHAPE_LIST = re.compile(r"(?<=vtensor<\[)[^\]]*(?=\])")
TYPE = re.compile(
    r"!torch\.vtensor<\[[^\]]*\],[\w<>]+>|!torch\.(?:int|float|bool|none|str|device|number|list<[\w.!<>\[\],?]+>)"
    r"|\btensor<[\dx?]*[a-z]\w*>|\b(?:f16|bf16|f32|f64|i1|i8|i32|i64|si64|index)\b"
)
CONST_INT = re.compile(r"(torch\.constant\.int )(-?\d+)")
LIST_CONSTRUCT = re.compile(r"torch\.prim\.ListConstruct ((?:%[\w.$-]+(?:, )?)*) : \(([^)]*)\) -> (!torch\.list<\w+>)")
BOOL = re.compile(r"\b(true|false)\b")
OP_NAME = re.compile(r"(?<![\w.%@#!\"])(?:torch|arith|tensor|linalg|func|torch_c|math)\.[\w.]+")
OPERAND_RUN = re.compile(r"(?<= )%[\w.$-]+(?:#\d+)?(?:, %[\w.$-]+(?:#\d+)?)+")
ELEMENT_TYPES = ["f16", "bf16", "f32", "f64", "si64", "si32", "i1", "ui8", "f8E4M3FN", "complex<f32>", "f80", "none", "i64"]
KNOWN_OPS = [
    "torch.aten.convolution_backward", "torch.aten.convolution", "torch.aten.conv2d", "torch.aten.convolution_backward_overrideable",
    "torch.constant.int", "torch.constant.bool", "torch.constant.none", "torch.constant.float", "torch.prim.ListConstruct",
    "torch.aten.sum.dim_IntList", "torch.aten.relu", "torch.aten.view", "torch.aten.permute", "torch.vtensor.literal",
    "torch_c.to_builtin_tensor", "torch_c.from_builtin_tensor", "arith.constant", "arith.addf", "linalg.generic", "linalg.fill",
    "tensor.empty", "tensor.extract_slice", "tensor.pad", "func.return", "func.func", "func.call", "builtin.module",
]
INTERESTING_INTS = [
    0, 1, -1, 2, 3, 4, 7, 8, 16, 255, 256, 65535, 65536, 2**31 - 1, 2**31, -(2**31), 2**32, 2**53 + 1, 2**62,
    2**63 - 1, 2**63, -(2**63), -(2**63) - 1, 2**64 - 1, 2**64, 10**18, 10**30, -(10**30),
]
INSERTABLE = list('{}()[]<>,:=%#@^!"\\-+*?x0 \n\t\r\x00\u00e9\u200b\U0001f600') + [
    "// -----\n", "loc(", "->", "{-#", "#-}", "dense<", "affine_map<", "tensor<", "!torch.vtensor<", "f32", "%0", "%arg0", "^bb1:",
    "#map", "module {", "}", "{", "loc(unknown)", "#loc1", "\"", "0x", "1e400", "nan", "-0.0", "?x", "...", "\\\\",
]


def huge_integer(rng: random.Random) -> str:
    choice = rng.random()
    if choice < 0.5:
        return str(rng.choice(INTERESTING_INTS[-12:]))
    if choice < 0.8:
        return "9" * rng.choice([20, 40, 100, 400, 4301, 5000])
    return "-" + "1" + "0" * rng.choice([19, 30, 100, 4400])


def _to_int(text: str) -> Optional[int]:
    """The value of an integer literal; None for one too long for int() (an earlier huge_int)."""
    return int(text) if len(text) <= 4000 else None


def interesting_int(rng: random.Random, old: Optional[int] = None) -> int | str:
    r = rng.random()
    if old is not None and r < 0.35:
        return old + rng.choice([-2, -1, 1, 2])
    if old is not None and r < 0.45:
        return -old if old else -1
    if r < 0.9:
        return rng.choice(INTERESTING_INTS)
    return huge_integer(rng)


# --- helpers ----------------------------------------------------------------------------------

def _hot_lines(text: str) -> set[int]:
    """Line numbers (0-based) of the window ops (convolutions, pooling) and
    the ops that define their operands, two levels deep."""
    lines = text.split("\n")
    hot = {i for i, line in enumerate(lines) if "convolution" in line or "_pool" in line}
    if not hot:
        return hot
    defs: dict[str, int] = {}
    for i, line in enumerate(lines):
        eq = line.find(" = ")
        if eq > 0:
            for name in SSA_NAME.findall(line[:eq]):
                defs[name.split(":")[0]] = i
    frontier = set(hot)
    for _ in range(2):
        nxt = set()
        for i in frontier:
            line = lines[i]
            eq = line.find(" = ")
            for name in SSA_NAME.findall(line[eq + 3 :] if eq > 0 else line):
                j = defs.get(name)
                if j is not None and j not in hot:
                    nxt.add(j)
        hot |= nxt
        frontier = nxt
    return hot


def _pick(rng: random.Random, text: str, pattern: re.Pattern, hot_bias: float = 0.5) -> Optional[re.Match]:
    """A random match of pattern; with probability hot_bias one on a hot line."""
    matches = list(pattern.finditer(text))
    if not matches:
        return None
    if rng.random() < hot_bias:
        hot = _hot_lines(text)
        if hot:
            starts = _line_starts(text)
            hot_matches = [m for m in matches if _line_of(starts, m.start()) in hot]
            if hot_matches:
                return rng.choice(hot_matches)
    return rng.choice(matches)


def _line_starts(text: str) -> list[int]:
    starts = [0]
    i = text.find("\n")
    while i >= 0:
        starts.append(i + 1)
        i = text.find("\n", i + 1)
    return starts


def _line_of(starts: list[int], offset: int) -> int:
    lo, hi = 0, len(starts) - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if starts[mid] <= offset:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _replace(text: str, m: re.Match, new: str, group: int = 0) -> str:
    a, b = m.span(group)
    return text[:a] + new + text[b:]


def _replace_everywhere_or_once(rng: random.Random, text: str, m: re.Match, new: str) -> str:
    """Replace the matched text everywhere (keeps def/use types consistent,
    so the mutation reaches the lowering) or just here."""
    old = m.group(0)
    if rng.random() < 0.5 and old:
        return re.sub(r"(?<![\w\[,])" + re.escape(old) + r"(?![\w\]])", lambda _m: new, text) if old[0].isalnum() else text.replace(old, new)
    return _replace(text, m, new)


# --- byte / line level -------------------------------------------------------------------------

def delete_char(rng: random.Random, text: str) -> str:
    if not text:
        return text
    i = rng.randrange(len(text))
    return text[:i] + text[i + 1 :]


def insert_token(rng: random.Random, text: str) -> str:
    i = rng.randint(0, len(text))
    return text[:i] + rng.choice(INSERTABLE) + text[i:]


def flip_char(rng: random.Random, text: str) -> str:
    if not text:
        return text
    i = rng.randrange(len(text))
    code = ord(text[i]) ^ (1 << rng.randrange(7))
    return text[:i] + chr(code) + text[i + 1 :]


def delete_range(rng: random.Random, text: str) -> str:
    if not text:
        return text
    a = rng.randrange(len(text))
    b = min(len(text), a + rng.choice([1, 2, 5, 20, 100, 1000]))
    return text[:a] + text[b:]


def duplicate_range(rng: random.Random, text: str) -> str:
    if not text:
        return text
    a = rng.randrange(len(text))
    b = min(len(text), a + rng.choice([1, 3, 10, 50, 300]))
    i = rng.randint(0, len(text))
    return text[:i] + text[a:b] + text[i:]


def _tokens(text: str) -> list[tuple[int, int]]:
    return [m.span() for m in TOKEN.finditer(text)] or [(0, len(text))]


def delete_token(rng: random.Random, text: str) -> str:
    a, b = rng.choice(_tokens(text))
    return text[:a] + text[b:]


def duplicate_token(rng: random.Random, text: str) -> str:
    a, b = rng.choice(_tokens(text))
    i = rng.randint(0, len(text))
    return text[:i] + text[a:b] + text[i:]


def swap_tokens(rng: random.Random, text: str) -> str:
    spans = _tokens(text)
    (a, b), (c, d) = sorted((rng.choice(spans), rng.choice(spans)))
    if b > c:
        return text
    return text[:a] + text[c:d] + text[b:c] + text[a:b] + text[d:]


def duplicate_line(rng: random.Random, text: str) -> str:
    lines = text.split("\n")
    i = rng.randrange(len(lines))
    j = rng.randint(0, len(lines))
    lines.insert(j, lines[i])
    return "\n".join(lines)


def delete_line(rng: random.Random, text: str) -> str:
    lines = text.split("\n")
    hot = sorted(_hot_lines(text)) if rng.random() < 0.5 else []
    i = rng.choice(hot) if hot else rng.randrange(len(lines))
    del lines[i]
    return "\n".join(lines)


def swap_lines(rng: random.Random, text: str) -> str:
    lines = text.split("\n")
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines)


def truncate_file(rng: random.Random, text: str) -> str:
    if rng.random() < 0.5:
        return text[: rng.randint(0, len(text))]
    lines = text.split("\n")
    return "\n".join(lines[: rng.randint(0, len(lines))]) + rng.choice(["", "\n"])


# --- grammar aware ------------------------------------------------------------------------------

def swap_type(rng: random.Random, text: str) -> str:
    m = _pick(rng, text, TYPE)
    if m is None:
        return text
    pool = sorted(set(TYPE.findall(text))) + ["!torch.none", "!torch.int", "!torch.list<int>", "!torch.vtensor<[],f32>", "tensor<*xf32>", "f32", "!torch.vtensor"]
    return _replace(text, m, rng.choice(pool))


def change_dim(rng: random.Random, text: str) -> str:
    """Change, drop or add one dim of a `[2,?,8]` shape or a `tensor<2x?x8xf32>`."""
    m = _pick(rng, text, SHAPE_LIST) if rng.random() < 0.8 else None
    if m is not None:
        dims = [d for d in m.group(0).split(",") if d != ""]
        sep = ","
    else:
        m = _pick(rng, text, BUILTIN_TENSOR)
        if m is None:
            return text
        dims = [d for d in m.group(1).split("x") if d != ""]
        sep = "x"
    r = rng.random()
    if r < 0.6 and dims:
        i = rng.randrange(len(dims))
        old = _to_int(dims[i]) if dims[i].lstrip("-").isdigit() else None
        dims[i] = rng.choice(["?", str(interesting_int(rng, old)), "0", "-1", "9223372036854775807", str(interesting_int(rng, old))])
    elif r < 0.8 and dims:
        del dims[rng.randrange(len(dims))]
    else:
        dims.insert(rng.randint(0, len(dims)), rng.choice(["1", "2", "?", "3"]))
    if sep == ",":
        new = ",".join(dims)
        whole = m.group(0)
        if rng.random() < 0.5:  # the same shape everywhere this type is written
            full = re.compile(r"!torch\.vtensor<\[" + re.escape(whole) + r"\],")
            return full.sub(lambda _m: "!torch.vtensor<[" + new + "],", text)
        return _replace(text, m, new)
    new = "tensor<" + "".join(d + "x" for d in dims) + m.group(2) + ">"
    return _replace_everywhere_or_once(rng, text, m, new)


def change_constant_int(rng: random.Random, text: str) -> str:
    m = _pick(rng, text, CONST_INT, hot_bias=0.8)
    if m is None:
        return change_integer(rng, text)
    return _replace(text, m, str(interesting_int(rng, _to_int(m.group(2)))), 2)


def change_integer(rng: random.Random, text: str) -> str:
    m = _pick(rng, text, INTEGER)
    if m is None:
        return text
    return _replace(text, m, str(interesting_int(rng, _to_int(m.group(0)))))


def huge_int(rng: random.Random, text: str) -> str:
    m = _pick(rng, text, INTEGER)
    if m is None:
        return text
    return _replace(text, m, huge_integer(rng))


def change_float(rng: random.Random, text: str) -> str:
    m = _pick(rng, text, FLOAT)
    if m is None:
        return text
    return _replace(text, m, rng.choice(["nan", "inf", "-inf", "1e309", "-0.0", "0x7FC00000", "1.0e-400", "3.4e38", "1.", ".5", "1e", "0.0"]))


def change_list(rng: random.Random, text: str) -> str:
    """Drop, duplicate or reorder an element of a ListConstruct, updating
    its type list (consistent) or not."""
    m = _pick(rng, text, LIST_CONSTRUCT, hot_bias=0.8)
    if m is None:
        return text
    elems = [e for e in m.group(1).split(", ") if e]
    types = [t.strip() for t in m.group(2).split(",") if t.strip()]
    r = rng.random()
    if r < 0.35 and elems:
        i = rng.randrange(len(elems))
        del elems[i]
        if types and rng.random() < 0.8:
            del types[min(i, len(types) - 1)]
    elif r < 0.7 and elems:
        i = rng.randrange(len(elems))
        elems.insert(i, elems[i])
        if types and rng.random() < 0.8:
            types.insert(min(i, len(types) - 1), types[min(i, len(types) - 1)])
    elif r < 0.85:
        rng.shuffle(elems)
    else:
        elems, types = [], []
    return text[: m.start()] + f"torch.prim.ListConstruct {', '.join(elems)} : ({', '.join(types)}) -> {m.group(3)}" + text[m.end() :]


def drop_or_duplicate_operand(rng: random.Random, text: str) -> str:
    m = _pick(rng, text, OPERAND_RUN, hot_bias=0.7)
    if m is None:
        return text
    elems = m.group(0).split(", ")
    i = rng.randrange(len(elems))
    r = rng.random()
    if r < 0.45:
        del elems[i]
    elif r < 0.9:
        elems.insert(i, elems[i])
    else:
        j = rng.randrange(len(elems))
        elems[i], elems[j] = elems[j], elems[i]
    return _replace(text, m, ", ".join(elems))


def flip_bool(rng: random.Random, text: str) -> str:
    m = _pick(rng, text, BOOL, hot_bias=0.8)
    if m is None:
        return text
    return _replace(text, m, {"true": "false", "false": "true"}[m.group(1)] if rng.random() < 0.9 else rng.choice(["1", "0", "True", "none"]))


def change_element_type(rng: random.Random, text: str) -> str:
    m = _pick(rng, text, VTENSOR)
    if m is None:
        return text
    new = f"!torch.vtensor<[{m.group(1)}],{rng.choice(ELEMENT_TYPES)}>"
    return _replace_everywhere_or_once(rng, text, m, new)


def swap_ssa_names(rng: random.Random, text: str) -> str:
    names = sorted(set(SSA_NAME.findall(text)))
    if len(names) < 2:
        return text
    a, b = rng.sample(names, 2)
    if rng.random() < 0.5:  # every occurrence: a consistent renaming (may change which value is used where)
        pat = re.compile(r"(?<![\w.$-])(" + re.escape(a) + "|" + re.escape(b) + r")(?![\w.$-])")
        return pat.sub(lambda m: b if m.group(1) == a else a, text)
    occurrences = [m for m in re.finditer(r"(?<![\w.$-])" + re.escape(a) + r"(?![\w.$-])", text)]
    if not occurrences:
        return text
    return _replace(text, rng.choice(occurrences), b)


def near_miss_op_name(rng: random.Random, text: str) -> str:
    m = _pick(rng, text, OP_NAME)
    if m is None:
        return text
    name = m.group(0)
    r = rng.random()
    if r < 0.3:
        new = rng.choice(KNOWN_OPS)
    elif r < 0.5 and len(name) > 1:
        i = rng.randrange(len(name))
        new = name[:i] + name[i + 1 :]
    elif r < 0.65:
        i = rng.randrange(len(name))
        new = name[:i] + name[i] + name[i:]
    elif r < 0.8:
        new = name + rng.choice(["s", ".out", "_", ".default", "2d", "."])
    elif r < 0.9:
        dialect, _, rest = name.partition(".")
        new = rng.choice(["torch", "arith", "tensor", "linalg", "func", "torch_c", "tosa", "Torch"]) + "." + rest
    else:
        new = name.upper() if rng.random() < 0.5 else name.replace(".", "_", 1)
    return _replace(text, m, new)


def truncate_region(rng: random.Random, text: str) -> str:
    """Cut a region or block short: drop the lines between a `{` (or a
    `^bb` label) and a later point, drop a closing brace, or end the file
    inside a region."""
    lines = text.split("\n")
    opens = [i for i, line in enumerate(lines) if line.rstrip().endswith("{") or line.lstrip().startswith("^")]
    closes = [i for i, line in enumerate(lines) if line.strip().startswith("}")]
    r = rng.random()
    if r < 0.4 and opens:
        i = rng.choice(opens)
        j = rng.randint(i + 1, min(len(lines), i + 1 + rng.choice([1, 3, 10, 1000])))
        del lines[i + 1 : j]
    elif r < 0.7 and closes:
        del lines[rng.choice(closes)]
    elif opens:
        i = rng.choice(opens)
        lines = lines[: rng.randint(i + 1, len(lines))]
    return "\n".join(lines)


def nest_region(rng: random.Random, text: str) -> str:
    """Wrap a line in a generic op with a region (a few levels)."""
    lines = text.split("\n")
    i = rng.randrange(len(lines))
    depth = rng.choice([1, 2, 5, 50])
    lines.insert(i, '"scf.execute_region"() ({ ' * depth + '"scf.yield"() : () -> () ' + "}) : () -> ()" * depth)
    return "\n".join(lines)


def split_marker(rng: random.Random, text: str) -> str:
    lines = text.split("\n")
    lines.insert(rng.randint(0, len(lines)), rng.choice(["// -----", "// -----x", "//-----", "// ----- ", " // -----"]))
    return "\n".join(lines)


BYTE_LEVEL: list[Mutator] = [delete_char, insert_token, flip_char, delete_range, duplicate_range, delete_token, duplicate_token, swap_tokens, duplicate_line, delete_line, swap_lines, truncate_file]
GRAMMAR: list[Mutator] = [
    swap_type, change_dim, change_dim, change_constant_int, change_constant_int, change_integer, huge_int, change_float, change_list, change_list,
    drop_or_duplicate_operand, drop_or_duplicate_operand, flip_bool, change_element_type, swap_ssa_names, near_miss_op_name, truncate_region,
    nest_region, split_marker,
]


def mutate(rng: random.Random, text: str, max_mutations: int = 4) -> tuple[str, list[str]]:
    """Apply 1..max_mutations mutators (fewer more often; 70% grammar
    aware); returns the
    text and the names of the mutators applied."""
    applied = []
    for _ in range(rng.choices(range(1, max_mutations + 1), weights=[8, 4, 2, 1][:max_mutations] + [1] * max(0, max_mutations - 4))[0]):
        family = GRAMMAR if rng.random() < 0.7 else BYTE_LEVEL
        mutator = rng.choice(family)
        text = mutator(rng, text)
        applied.append(mutator.__name__)
    return text, applied
