"""IREE's e2e check suites for the ROCm backend and the HIP driver, read
from IREE's own CMake (tests/e2e/**/CMakeLists.txt), for run.py.

A small interpreter of the CMake those files use: commands and their
arguments (quoted, unquoted, comments), `${VAR}` expansion, if / elseif /
else / endif, foreach, set, unset, list(APPEND), return() and
iree_add_all_subdirs(), which enters every subdirectory with a
CMakeLists.txt in a copy of the variables, as add_subdirectory does. It
runs once per chip with the variables of the CTS build (scripts/iree-cts/
build.sh: a runtime build with IREE_HOST_BIN_DIR, the HIP and AMDGPU drivers,
IREE_ROCM_TEST_TARGET_CHIP=<chip>) and records:

- every iree_check_single_backend_test_suite with TARGET_BACKEND "rocm"
  and every rocm/hip pair of an iree_check_test_suite, as IREE's
  iree_check_test.cmake expands them (one test per source, compiled with
  --iree-hal-target-backends=rocm --iree-rocm-target=<chip>, the suite's
  INPUT_TYPE and COMPILER_FLAGS, run by iree-check-module --device=<DRIVER>
  with RUNNER_ARGS); a suite without DRIVER only compiles;
- a suite in a branch not taken for the chip, with the condition that
  gates it (e.g. `IREE_ROCM_TEST_TARGET_CHIP MATCHES "^gfx1[12]"`);
- sources commented out of a suite's SRCS (`# "x.mlir"  # TODO(...)`), with
  the comment: IREE's own exclusions;
- the iree_genrule that makes a generated source (tests/e2e/math);
- the generated runner suites (iree_generated_e2e_runner_test) for
  rocm/hip: a generator script (tests/e2e/<dir>/generate_e2e_*.py) writes
  two sources, a tests module and a calls module, both compiled with the
  suite's COMPILER_FLAGS (which name the chip), and IREE's runner
  (iree-e2e-<type>-test) runs them with --module=tests --module=calls.
"""
import os
import re
from dataclasses import dataclass, field

# The variables of the CTS build's configuration (build.sh).
BUILD_VARIABLES = {
    "IREE_BUILD_TESTS": "ON",
    "IREE_BUILD_COMPILER": "OFF",
    "IREE_HAL_DRIVER_HIP": "ON",
    "IREE_HAL_DRIVER_AMDGPU": "ON",
    "IREE_ARCH": "x86_64",
    "CMAKE_BUILD_TYPE": "RelWithDebInfo",
}
# Labels iree_is_bytecode_module_test_excluded_by_labels honours, and the
# configuration each excludes in; none holds for this build (x86_64, no
# sanitizers, not cross-compiling, not Debug), so none excludes here.
LABEL_EXCLUSIONS = {
    "noriscv": "riscv", "noaarch64": "arm_64", "nowasm": "emscripten",
    "noasan": "asan", "notsan": "tsan", "noubsan": "ubsan",
    "hostonly": "crosscompiling", "optonly": "debug",
}
THIS_CONFIGURATION = set()
FALSE_CONSTANTS = {"", "0", "OFF", "NO", "FALSE", "N", "IGNORE", "NOTFOUND"}
COMMENTED_SOURCE = re.compile(r'^#\s*"([^"]+\.mlir)"\s*(?:#\s*(.*))?$')
COMMAND = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\s*\(")
UNQUOTED = re.compile(r'(?:\\.|[^\s()#"\\])+')
VARIABLE = re.compile(r"\$\{([A-Za-z0-9_]+)\}")
SINGLE_SUITE = {
    "options": {"WILL_FAIL"},
    "one": {"NAME", "TARGET_BACKEND", "DRIVER", "INPUT_TYPE"},
    "multi": {"SRCS", "COMPILER_FLAGS", "RUNNER_ARGS", "LABELS", "DEPENDS",
              "TIMEOUT", "DEPS"},
}
MULTI_SUITE = {
    "options": {"WILL_FAIL"},
    "one": {"NAME", "INPUT_TYPE"},
    # IREE's iree_check_test_suite takes no COMPILER_FLAGS (its
    # TARGET_CPU_FEATURES_VARIANTS add flags for llvm-cpu only).
    "multi": {"SRCS", "TARGET_BACKENDS", "DRIVERS", "RUNNER_ARGS", "LABELS",
              "TARGET_CPU_FEATURES_VARIANTS", "TIMEOUT"},
}
GENERATED_SUITE = {
    "options": {"WILL_FAIL"},
    "one": {"NAME", "TEST_TYPE", "GENERATOR", "TEST_RUNNER"},
    "multi": {"GENERATOR_ARGS", "TARGET_BACKENDS", "DRIVERS", "COMPILER_FLAGS",
              "RUNNER_ARGS", "LABELS", "TARGET_CPU_FEATURES_VARIANTS", "TIMEOUT"},
}
GENRULE = {"options": set(), "one": {"NAME", "CMD"}, "multi": {"SRCS", "OUTS"}}


@dataclass
class Suite:
    """One rocm suite as declared for one chip: a check suite, or a
    generated runner suite (generator set, srcs empty)."""
    directory: str          # relative to tests/e2e
    name: str
    line: int
    driver: str | None      # None: compile only
    srcs: list              # absolute paths
    compiler_flags: list
    runner_args: list
    labels: list
    timeout: str | None
    will_fail: bool
    gate: list              # the conditions of the enclosing if()s
    enabled: bool           # False: a branch not taken for this chip
    excluded: list = field(default_factory=list)   # [(source, reason)]
    # A generated runner suite: {"script", "args", "test_type", "runner"}.
    generator: dict | None = None

    def key(self):
        return f"{self.directory}/{self.name}"

    def label_exclusion(self):
        """The label that keeps IREE from running this suite here, if any."""
        for label in self.labels:
            if LABEL_EXCLUSIONS.get(label) in THIS_CONFIGURATION:
                return label
        return None


@dataclass
class Declarations:
    """What one chip's reading of tests/e2e declares."""
    suites: list = field(default_factory=list)
    generated: list = field(default_factory=list)   # generated runner Suites
    genrules: dict = field(default_factory=dict)    # output path -> command
    other_sources: dict = field(default_factory=dict)  # dir -> srcs of other backends


def tokenize(text):
    """(name, args, line) per command; an arg is (kind, text) with kind
    quoted, unquoted, comment, open or close."""
    i, n, line = 0, len(text), 1
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
        elif c.isspace():
            i += 1
        elif c == "#":
            i = text.find("\n", i)
            i = n if i < 0 else i
        else:
            m = COMMAND.match(text, i)
            if not m:
                raise ValueError(f"line {line}: cannot read {text[i:i + 40]!r}")
            start_line = line
            args, i, line = arguments(text, m.end(), line)
            yield m.group(1), args, start_line


def arguments(text, i, line):
    """The arguments of a command from just after its `(`: (args, index
    after the closing `)`, line there)."""
    args, depth, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
        elif c.isspace():
            i += 1
        elif c == "#":
            end = text.find("\n", i)
            end = n if end < 0 else end
            args.append(("comment", text[i:end].strip()))
            i = end
        elif c == "(":
            depth += 1
            args.append(("open", "("))
            i += 1
        elif c == ")":
            if depth == 0:
                return args, i + 1, line
            depth -= 1
            args.append(("close", ")"))
            i += 1
        elif c == '"':
            value, i = quoted(text, i + 1)
            line += value.count("\n")
            args.append(("quoted", value))
        else:
            m = UNQUOTED.match(text, i)
            args.append(("unquoted", re.sub(r"\\(.)", r"\1", m.group(0))))
            i = m.end()
    raise ValueError("unterminated command")


def quoted(text, i):
    """A quoted argument's value from just after its `"`, and the index
    after the closing quote."""
    out = []
    while text[i] != '"':
        if text[i] == "\\":
            out.append({"n": "\n", "t": "\t", "r": "\r"}.get(text[i + 1], text[i + 1]))
            i += 2
        else:
            out.append(text[i])
            i += 1
    return "".join(out), i + 1


def expand(value, variables):
    """`${VAR}` replaced by its value (nothing when unset)."""
    return VARIABLE.sub(lambda m: variables.get(m.group(1), ""), value)


def values(args, variables):
    """The arguments as CMake passes them: expanded; an unquoted one that
    expands to a list is split; comments kept as ("comment", text)."""
    out = []
    for kind, text in args:
        if kind == "quoted":
            out.append(("value", expand(text, variables)))
        elif kind == "unquoted":
            out += [("value", v) for v in expand(text, variables).split(";") if v]
        elif kind == "comment":
            out.append(("comment", text))
        else:
            out.append(("value", text))
    return out


def parse_keywords(args, spec):
    """cmake_parse_arguments: {keyword: value or list}, and for each
    multi-value keyword the comments inside it (`#comments.KEYWORD`)."""
    parsed, current = {}, None
    for kind, text in args:
        if kind == "comment":
            if current:
                parsed.setdefault("#comments." + current, []).append(text)
        elif text in spec["options"]:
            parsed[text], current = True, None
        elif text in spec["one"] or text in spec["multi"]:
            current = text
            parsed.setdefault(text, [])
        elif current:
            parsed[current].append(text)
    for key in spec["one"]:
        if key in parsed:
            parsed[key] = parsed[key][0] if parsed[key] else ""
    return parsed


def truthy(word, variables, quoted_word=False):
    """CMake's if(<word>): a constant, else a variable's value."""
    if word.upper() in FALSE_CONSTANTS or word.upper().endswith("-NOTFOUND"):
        return False
    if quoted_word or re.fullmatch(r"-?[0-9.]+|ON|YES|TRUE|Y", word.upper()):
        return True
    value = variables.get(word)
    return value is not None and not (value.upper() in FALSE_CONSTANTS
                                      or value.upper().endswith("-NOTFOUND"))


class Condition:
    """An if() condition: parentheses, NOT, AND, OR, DEFINED, MATCHES,
    STREQUAL and EQUAL, with CMake's precedence."""

    def __init__(self, args, variables):
        self.tokens = [(k, t) for k, t in args if k != "comment"]
        self.variables = variables
        self.i = 0

    def value(self):
        result = self.any()
        if self.i != len(self.tokens):
            raise ValueError(f"cannot read condition {self.tokens}")
        return result

    def peek(self):
        return self.tokens[self.i][1] if self.i < len(self.tokens) else None

    def take(self):
        self.i += 1
        return self.tokens[self.i - 1]

    def any(self):
        result = self.all()
        while self.peek() == "OR":
            self.take()
            result = self.all() or result
        return result

    def all(self):
        result = self.negation()
        while self.peek() == "AND":
            self.take()
            result = self.negation() and result
        return result

    def negation(self):
        if self.peek() == "NOT":
            self.take()
            return not self.negation()
        return self.comparison()

    def comparison(self):
        kind, word = self.take()
        if kind == "open":
            result = self.any()
            self.take()
            return result
        if kind == "unquoted" and word == "DEFINED":
            return self.take()[1] in self.variables
        if self.peek() in ("MATCHES", "STREQUAL", "EQUAL"):
            operator = self.take()[1]
            right = expand(self.take()[1], self.variables)
            left = self.operand(kind, word)
            if operator == "MATCHES":
                return re.search(right, left) is not None
            if operator == "EQUAL":
                return float(left) == float(right)
            return left == self.operand("unquoted", right)
        return truthy(expand(word, self.variables), self.variables, kind == "quoted")

    def operand(self, kind, word):
        word = expand(word, self.variables)
        if kind == "unquoted" and word in self.variables:
            return self.variables[word]
        return word


def condition_text(args):
    """An if() condition as written."""
    parts = []
    for kind, text in args:
        if kind == "quoted":
            parts.append(f'"{text}"')
        elif kind != "comment":
            parts.append(text)
    return " ".join(parts).replace("( ", "(").replace(" )", ")")


class Reader:
    """Reads tests/e2e for one chip (see the module docstring)."""

    def __init__(self, e2e_root, chip, generated_dir):
        self.root = e2e_root
        self.chip = chip
        self.generated_dir = generated_dir
        self.out = Declarations()

    def read(self):
        variables = dict(BUILD_VARIABLES, IREE_ROCM_TEST_TARGET_CHIP=self.chip,
                         IREE_HOST_BIN_DIR="hostbin",
                         PROJECT_BINARY_DIR=self.generated_dir)
        self.directory(self.root, variables)
        return self.out

    def directory(self, path, variables):
        variables = dict(variables, CMAKE_CURRENT_SOURCE_DIR=path)
        with open(os.path.join(path, "CMakeLists.txt")) as f:
            commands = list(tokenize(f.read()))
        self.block(commands, variables, path, [], True)

    def block(self, commands, variables, path, gate, active):
        """Runs commands; False when return() ended the file."""
        frames, i = [], 0
        while i < len(commands):
            name, args, line = commands[i]
            i += 1
            lower = name.lower()
            enclosing = frames[-1]["active"] if frames else active
            if lower == "if":
                on = enclosing and Condition(args, variables).value()
                frames.append({"active": on, "taken": on, "outer": enclosing,
                               "gate": condition_text(args)})
            elif lower == "elseif":
                frame = frames[-1]
                on = (frame["outer"] and not frame["taken"]
                      and Condition(args, variables).value())
                frame.update(active=on, taken=frame["taken"] or on,
                             gate=condition_text(args))
            elif lower == "else":
                frame = frames[-1]
                frame.update(active=frame["outer"] and not frame["taken"],
                             gate=f"NOT ({frame['gate']})")
            elif lower == "endif":
                frames.pop()
            elif lower == "foreach":
                body, i = foreach_body(commands, i)
                loop = [v for _, v in values(args, variables)]
                for item in foreach_items(loop[1:], variables):
                    variables[loop[0]] = item
                    if not self.block(body, variables, path, self.gates(gate, frames), enclosing):
                        return False
            else:
                here = self.gates(gate, frames)
                if enclosing and lower == "return":
                    return False
                self.command(lower, args, line, variables, path, here, enclosing)
        return True

    @staticmethod
    def gates(gate, frames):
        return gate + [f["gate"] for f in frames]

    def command(self, name, args, line, variables, path, gate, active):
        """One command other than control flow."""
        if active and name == "set":
            words = [v for _, v in values(args, variables)]
            words = [w for w in words if w not in ("PARENT_SCOPE", "CACHE")]
            variables[words[0]] = ";".join(words[1:])
        elif active and name == "unset":
            variables.pop(values(args, variables)[0][1], None)
        elif active and name == "list":
            words = [v for _, v in values(args, variables)]
            if words[0] == "APPEND":
                old = [v for v in variables.get(words[1], "").split(";") if v]
                variables[words[1]] = ";".join(old + words[2:])
        elif active and name == "iree_add_all_subdirs":
            for entry in sorted(os.listdir(path)):
                sub = os.path.join(path, entry)
                if os.path.isfile(os.path.join(sub, "CMakeLists.txt")):
                    self.directory(sub, variables)
        elif name == "iree_check_single_backend_test_suite":
            self.single_suite(parse_keywords(values(args, variables), SINGLE_SUITE),
                              line, path, gate, active)
        elif name == "iree_check_test_suite":
            self.multi_suite(parse_keywords(values(args, variables), MULTI_SUITE),
                             line, path, gate, active)
        elif name == "iree_generated_e2e_runner_test":
            self.generated_suite(parse_keywords(values(args, variables), GENERATED_SUITE),
                                 line, path, gate, active)
        elif active and name == "iree_genrule":
            self.genrule(parse_keywords(values(args, variables), GENRULE), path)

    def single_suite(self, rule, line, path, gate, active):
        backend = rule.get("TARGET_BACKEND")
        if backend != "rocm":
            if active:
                self.out.other_sources.setdefault(self.relative(path), set()).update(
                    os.path.basename(s) for s in rule.get("SRCS", []))
            return
        flags = list(rule.get("COMPILER_FLAGS", []))
        if rule.get("INPUT_TYPE"):
            flags.insert(0, f"--iree-input-type={rule['INPUT_TYPE']}")
        excluded = []
        for comment in rule.get("#comments.SRCS", []):
            m = COMMENTED_SOURCE.match(comment)
            if m:
                excluded.append((m.group(1), m.group(2) or "commented out"))
        timeout = rule.get("TIMEOUT")
        self.out.suites.append(Suite(
            directory=self.relative(path), name=rule["NAME"], line=line,
            driver=rule.get("DRIVER") or None,
            srcs=[os.path.join(path, s) for s in rule.get("SRCS", [])],
            compiler_flags=flags, runner_args=list(rule.get("RUNNER_ARGS", [])),
            labels=list(rule.get("LABELS", [])),
            timeout=timeout[0] if timeout else None,
            will_fail=bool(rule.get("WILL_FAIL")), gate=gate, enabled=active,
            excluded=excluded))

    def multi_suite(self, rule, line, path, gate, active):
        """iree_check_test_suite: one single-backend suite per pair (the
        CPU-features variants apply to llvm-cpu only)."""
        backends = rule.get("TARGET_BACKENDS", ["vmvx", "vulkan-spirv", "llvm-cpu"])
        drivers = rule.get("DRIVERS", ["local-task", "vulkan", "local-task"])
        for backend, driver in zip(backends, drivers):
            single = dict(rule, NAME=f"{rule['NAME']}_{backend}_{driver}",
                          TARGET_BACKEND=backend, DRIVER=driver)
            self.single_suite(single, line, path, gate, active)

    def generated_suite(self, rule, line, path, gate, active):
        """A generated runner suite: one test, whose two modules (the tests
        and the calls) a generator script writes."""
        pairs = zip(rule.get("TARGET_BACKENDS", []), rule.get("DRIVERS", []))
        if ("rocm", "hip") not in pairs:
            return
        timeout = rule.get("TIMEOUT")
        self.out.generated.append(Suite(
            directory=self.relative(path), name=rule["NAME"], line=line, driver="hip",
            srcs=[], compiler_flags=list(rule.get("COMPILER_FLAGS", [])),
            runner_args=list(rule.get("RUNNER_ARGS", [])),
            labels=list(rule.get("LABELS", [])), timeout=timeout[0] if timeout else None,
            will_fail=bool(rule.get("WILL_FAIL")), gate=gate, enabled=active,
            generator={"script": os.path.join(path, rule["GENERATOR"]),
                       "args": list(rule.get("GENERATOR_ARGS", [])),
                       "test_type": rule["TEST_TYPE"],
                       "runner": rule["TEST_RUNNER"].rsplit("_", 1)[-1]}))

    def genrule(self, rule, path):
        """A generated source: the command, with Bazel's $(rootpath X) and
        $(execpath OUT) made paths, for run.py to run in the source tree."""
        out_dir = os.path.join(self.generated_dir, os.path.relpath(path, os.path.dirname(os.path.dirname(self.root))))
        command = re.sub(r"\$\(rootpath ([^)]+)\)",
                         lambda m: os.path.join(path, m.group(1)), rule["CMD"])
        command = re.sub(r"\$\(execpath ([^)]+)\)",
                         lambda m: os.path.join(out_dir, m.group(1)), command)
        for output in rule.get("OUTS", []):
            self.out.genrules[os.path.join(out_dir, output)] = command

    def relative(self, path):
        return os.path.relpath(path, self.root)


def foreach_body(commands, i):
    """The commands up to the matching endforeach, and the index after it."""
    depth, start = 1, i
    while depth:
        name = commands[i][0].lower()
        depth += {"foreach": 1, "endforeach": -1}.get(name, 0)
        i += 1
    return commands[start:i - 1], i


def foreach_items(words, variables):
    """foreach(X a b c) and foreach(X IN LISTS L... ITEMS ...)."""
    if not words or words[0] != "IN":
        return words
    items, mode = [], None
    for word in words[1:]:
        if word in ("LISTS", "ITEMS"):
            mode = word
        elif mode == "LISTS":
            items += [v for v in variables.get(word, "").split(";") if v]
        else:
            items.append(word)
    return items


def read(e2e_root, chip, generated_dir):
    """The Declarations of IREE's tests/e2e (e2e_root) for one chip;
    generated sources are named under generated_dir (PROJECT_BINARY_DIR)."""
    return Reader(os.path.abspath(e2e_root), chip, os.path.abspath(generated_dir)).read()
