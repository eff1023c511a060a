"""Mechanical respellings of IREE b48a5955's e2e sources for pip's
iree-compile 3.13.

IREE's tests at b48a5955 were written for the compiler of their day; the
3.13 compiler (newer) rejects some of their spellings while still having the
same ops with the same meaning. run.py compiles a respelled COPY of a source
that 3.13 cannot parse as it is (never IREE's tree), and records which rules
changed it; a source no rule applies to, or whose respelled copy still does
not parse, keeps its outcome.

Each rule changes how an op is written, never what it means (docs/IREE-E2E.md,
"Respelled sources", gives the 3.13 error behind each):

  tosa-generic        `%r = tosa.OP %a, %b {attrs} : (T, T) -> T` is written
                      in the generic form `%r = "tosa.OP"(%a, %b) <{attrs}> :
                      (T, T) -> T`. 3.13's TOSA declares these attributes
                      properties and gives its ops a custom syntax with
                      keyword groups (`min_val(1.0 : f32)`, `axis(0)`), so the
                      attribute dictionary is not read ("custom op
                      'tosa.clamp' expected 'min_val'"); the generic form
                      with a properties dictionary names the same op, the
                      same operands, attributes (same names) and types.
                      (3.13 still reads a generic op's attribute dictionary,
                      as in `"tosa.const"() {values = ...}`, so those stay.)
  attention-properties `iree_linalg_ext.attention {indexing_maps = [...]}`
                      (and online_attention) becomes `... <{indexing_maps =
                      [...]}>`: 3.13 declares indexing_maps a property with
                      strict properties, so the attribute dictionary form
                      says "properties dictionary is missing required
                      attribute: indexing_maps".
  linalg-elementwise  `linalg.add`/`sub`/`mul`/`div`/`negf` (removed from
                      3.13: "custom op 'linalg.add' is unknown") become
                      `linalg.elementwise <add>`/... with the same ins and
                      outs, only where every operand has the same float type:
                      both generalize to the same linalg.generic (identity
                      maps, parallel, body arith.addf/subf/mulf/divf/negf;
                      the named op's casts are no-ops on equal types).

Every function takes and returns text and never raises on odd input: a
pattern that does not match as expected (unbalanced brackets, a type that is
not a function type, operands of different types) leaves that op alone.
"""
import re

# `%name`, `%name#3`: an SSA value as an operand.
VALUE = r"%[\w$.-]+(?:#\d+)?"
TOSA_CUSTOM = re.compile(
    r"(=\s*)tosa\.([a-z_][a-z_0-9]*)(\s*)((?:" + VALUE + r"(?:\s*,\s*" + VALUE + r")*)?)(\s*)\{")
ATTENTION = re.compile(r"\biree_linalg_ext\.(?:online_)?attention(\s*)\{")
INDEXING_MAPS = re.compile(r"^\s*indexing_maps\s*=")
ELEMENTWISE = re.compile(r"\blinalg\.(add|sub|mul|div|negf)(\s+)ins\(")
ARITY = {"add": 2, "sub": 2, "mul": 2, "div": 2, "negf": 1}
FLOAT = re.compile(r"^(?:bf16|tf32|f\d+(?:E\d+M\d+\w*)?)$")
SHAPED = re.compile(r"^(?:tensor|memref|vector)<(?:(?:\?|\d+)x)*([^<>x]+)>$")


def in_comment(text, at):
    """Whether `at` is inside a `//` comment (outside string literals) of
    its line."""
    start = text.rfind("\n", 0, at) + 1
    in_string = False
    i = start
    while i < at:
        c = text[i]
        if in_string:
            if c == "\\":
                i += 1
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif text.startswith("//", i):
            return True
        i += 1
    return False


def closing(text, at):
    """The index just past the bracket group opening at text[at] (one of
    `{ ( [ <`), counting only that kind of bracket and skipping string
    literals; None when it does not close."""
    pairs = {"{": "}", "(": ")", "[": "]", "<": ">"}
    if at >= len(text) or text[at] not in pairs:
        return None
    open_, close = text[at], pairs[text[at]]
    depth, i, in_string = 0, at, False
    while i < len(text):
        c = text[i]
        if in_string:
            if c == "\\":
                i += 1
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c == open_:
            depth += 1
        elif c == close and not (close == ">" and text[i - 1] == "-"):
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return None


def split_top(text, separator=","):
    """text split at separators outside brackets and strings."""
    parts, depth, current, in_string, i = [], 0, [], False, 0
    while i < len(text):
        c = text[i]
        if in_string:
            if c == "\\" and i + 1 < len(text):
                current.append(c)
                i += 1
                c = text[i]
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c in "([{<":
            depth += 1
        elif c in ")]}>" and not (c == ">" and i and text[i - 1] == "-"):
            depth -= 1
        elif c == separator and depth == 0:
            parts.append("".join(current))
            current = []
            i += 1
            continue
        current.append(c)
        i += 1
    parts.append("".join(current))
    return parts


def skip_space(text, at):
    while at < len(text) and text[at].isspace():
        at += 1
    return at


def tosa_generic(text):
    """Rule tosa-generic (module docstring): (text, applied)."""
    out, last, applied = [], 0, False
    for m in TOSA_CUSTOM.finditer(text):
        if m.start() < last or in_comment(text, m.start()):
            continue
        brace = m.end() - 1
        end = closing(text, brace)
        if end is None:
            continue
        colon = skip_space(text, end)
        if not text.startswith(":", colon) or not text.startswith("(", skip_space(text, colon + 1)):
            continue
        operands = ", ".join(o.strip() for o in split_top(m.group(4)) if o.strip())
        out.append(text[last:m.start()])
        out.append(f'{m.group(1)}"tosa.{m.group(2)}"({operands}) <{text[brace:end]}> ')
        last = colon
        applied = True
    out.append(text[last:])
    return "".join(out), applied


def attention_properties(text):
    """Rule attention-properties (module docstring): (text, applied)."""
    out, last, applied = [], 0, False
    for m in ATTENTION.finditer(text):
        if m.start() < last or in_comment(text, m.start()):
            continue
        brace = m.end() - 1
        end = closing(text, brace)
        if end is None or not INDEXING_MAPS.match(text[brace + 1:end - 1]):
            continue
        out.append(text[last:brace])
        out.append(f"<{text[brace:end]}>")
        last = end
        applied = True
    out.append(text[last:])
    return "".join(out), applied


def operand_types(group):
    """The types of an `ins(...)`/`outs(...)` group's text between its
    parentheses (`%a, %b : T1, T2`), or None."""
    values, colon, types = group.rpartition(":")[0], group.rpartition(":")[1], group.rpartition(":")[2]
    if not colon or not values.strip():
        return None
    found = [t.strip() for t in split_top(types)]
    if len(found) != len([v for v in split_top(values) if v.strip()]):
        return None
    return found


def element_type(type_):
    m = SHAPED.match(type_)
    return m.group(1).strip() if m else type_


def linalg_elementwise(text):
    """Rule linalg-elementwise (module docstring): (text, applied)."""
    out, last, applied = [], 0, False
    for m in ELEMENTWISE.finditer(text):
        if m.start() < last or in_comment(text, m.start()):
            continue
        ins_open = m.end() - 1
        ins_end = closing(text, ins_open)
        if ins_end is None:
            continue
        outs_at = skip_space(text, ins_end)
        if not text.startswith("outs(", outs_at):
            continue
        outs_end = closing(text, outs_at + 4)
        if outs_end is None:
            continue
        ins = operand_types(text[ins_open + 1:ins_end - 1])
        outs = operand_types(text[outs_at + 5:outs_end - 1])
        if not ins or not outs or len(ins) != ARITY[m.group(1)] or len(outs) != 1:
            continue
        if len(set(ins + outs)) != 1 or not FLOAT.match(element_type(outs[0])):
            continue
        out.append(text[last:m.start()])
        out.append(f"linalg.elementwise <{m.group(1)}>{m.group(2)}")
        last = ins_open - len("ins")
        applied = True
    out.append(text[last:])
    return "".join(out), applied


RULES = [("tosa-generic", tosa_generic), ("attention-properties", attention_properties),
         ("linalg-elementwise", linalg_elementwise)]


def respell(text):
    """(respelled text, [names of the rules that changed it]); the text
    unchanged and [] when none applies."""
    applied = []
    for name, rule in RULES:
        try:
            changed, did = rule(text)
        except (IndexError, ValueError, RecursionError):
            continue
        if did and changed != text:
            text = changed
            applied.append(name)
    return text, applied
