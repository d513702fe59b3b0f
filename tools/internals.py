"""python -m tools.internals: Pitboss uses only the documented API of its dependencies.

A dependency is any module outside the project: the standard library and the packages of
requirements.txt. The project is every top-level package or module in the repository (`config`,
`rounds`, `tests`, ...). The check reads the project's source (`paths` of [tool.pitboss.internals] in
pyproject.toml) and reports, one line each, as `path:line: rule: what`:

- private-module: an import of a dependency module whose path has a part starting with "_"
  (`from psycopg._encodings import ...`);
- private-name: an import of a name starting with "_" from a dependency (`from django.db import _x`)
  that [tool.pitboss.internals.names] does not list;
- undocumented-module: an import of a third-party module that [tool.pitboss.internals.modules] does
  not list with the address of its documentation (`psycopg.generators`, `django.template.base`);
- private-attribute: `x._name`, or getattr/hasattr/setattr/delattr(x, "_name"), where the project
  defines no `_name` (a `def _name`, a `class _Name`, an assignment `_name = ...` or `self._name = ...`)
  and [tool.pitboss.internals.names] does not list it with its documentation (`_meta`);
- private-override: after django.setup(), a project class that defines a `_name` (a method, a class
  attribute, or `self._name = ...` in its methods) that a base class from a dependency defines too.

Names such as `__init__` (dunders) are never private. The check is by name: `x` in `x._name` is not
typed, so a `_name` the project defines anywhere passes everywhere. Exit status 1 when anything is
reported, 0 otherwise.
"""

import ast
import fnmatch
import importlib
import importlib.util
import inspect
import os
import sys
import tomllib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ATTRIBUTE_FUNCTIONS = frozenset({"getattr", "hasattr", "setattr", "delattr"})


@dataclass(frozen=True)
class Finding:
    path: str
    line: int
    rule: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.rule}: {self.message}"


@dataclass
class Allowlist:
    """What the project may use of its dependencies: documented third-party modules and documented
    names starting with "_", each with the address of its documentation."""

    modules: dict[str, str] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)

    def problems(self) -> list[str]:
        """Entries without the address of their documentation."""
        entries = [*self.modules.items(), *self.names.items()]
        return [f"{name}: {url!r} is not a documentation address" for name, url in entries if not is_url(url)]


def is_url(value: object) -> bool:
    return isinstance(value, str) and value.startswith("https://") and " " not in value


def is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def project_names(root: Path = ROOT) -> frozenset[str]:
    """The project's top-level packages and modules: what an absolute import of the project starts with."""
    names = {path.name for path in root.iterdir() if path.is_dir() and not path.name.startswith(".")}
    return frozenset(names | {path.stem for path in root.glob("*.py")})


# --- reading the source ----------------------------------------------------------------------------


@dataclass
class Source:
    """One project file: its imports and private attribute uses, and the `_names` it defines."""

    path: str
    tree: ast.Module
    defined: set[str] = field(default_factory=set)
    # class qualname -> the `_names` it defines (methods, class attributes, self._name = ...)
    class_names: dict[str, set[str]] = field(default_factory=dict)


def read_source(path: str, text: str) -> Source:
    source = Source(path, ast.parse(text, filename=path))
    _Definitions(source).visit(source.tree)
    return source


class _Definitions(ast.NodeVisitor):
    """Collects the private names a file defines, and those of each class."""

    def __init__(self, source: Source):
        self.source = source
        self.classes: list[str] = []

    def define(self, name: str) -> None:
        if is_private(name):
            self.source.defined.add(name)
            if self.classes:
                self.source.class_names.setdefault(self.classes[-1], set()).add(name)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self.define(node.name)
        qualname = f"{self.classes[-1]}.{node.name}" if self.classes else node.name
        self.classes.append(qualname)
        self.source.class_names.setdefault(qualname, set())
        for statement in node.body:
            self.visit(statement)
        self.classes.pop()

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self.define(node.name)
        # Inside a function only `self._name = ...` (or cls) defines something others can reach.
        for child in ast.walk(node):
            if (
                isinstance(child, ast.Attribute)
                and isinstance(child.ctx, ast.Store)
                and isinstance(child.value, ast.Name)
                and child.value.id in ("self", "cls")
            ):
                self.define(child.attr)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, ast.Store):
            self.define(node.id)


# --- the static rules --------------------------------------------------------------------------------


class Checker:
    """The static rules over the project's files; `defined` is every `_name` the project defines."""

    def __init__(self, allowlist: Allowlist, project: frozenset[str], defined: set[str]):
        self.allowlist = allowlist
        self.project = project
        self.defined = defined

    def check(self, source: Source) -> list[Finding]:
        found = []
        for node in ast.walk(source.tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    found += self.module_findings(source.path, node.lineno, alias.name)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                found += self.from_import_findings(source.path, node)
            elif isinstance(node, ast.Attribute):
                found += self.name_findings(source.path, node.lineno, node.attr, f"x.{node.attr}")
            elif isinstance(node, ast.Call) and _attribute_function(node):
                name = node.args[1].value
                found += self.name_findings(source.path, node.lineno, name, f'{node.func.id}(x, "{name}")')
            elif isinstance(node, ast.Call) and (module := _imported_by_name(node)):
                found += self.module_findings(source.path, node.lineno, module)
        return found

    def is_dependency(self, module: str) -> bool:
        return module.split(".")[0] not in self.project

    def is_third_party(self, module: str) -> bool:
        return self.is_dependency(module) and module.split(".")[0] not in sys.stdlib_module_names

    def module_findings(self, path: str, line: int, module: str) -> list[Finding]:
        if not self.is_dependency(module):
            return []
        if any(is_private(part) for part in module.split(".")):
            return [Finding(path, line, "private-module", f"{module} is a private module of a dependency")]
        if self.is_third_party(module) and module not in self.allowlist.modules:
            return [
                Finding(
                    path,
                    line,
                    "undocumented-module",
                    f"{module} is not among the documented modules of [tool.pitboss.internals.modules]",
                )
            ]
        return []

    def from_import_findings(self, path: str, node: ast.ImportFrom) -> list[Finding]:
        """`from X import Y` imports the module X.Y when there is one, else the name Y of module X."""
        module, line = node.module, node.lineno
        if not self.is_dependency(module):
            return []
        found, names_of_module = [], False
        for alias in node.names:
            qualified = f"{module}.{alias.name}"
            if alias.name != "*" and self.is_third_party(module) and _is_module(qualified):
                found += self.module_findings(path, line, qualified)
                continue
            names_of_module = True
            if is_private(alias.name) and alias.name not in self.allowlist.names:
                message = f"{alias.name} is a private name of {module}"
                found.append(Finding(path, line, "private-name", message))
        return found + (self.module_findings(path, line, module) if names_of_module else [])

    def name_findings(self, path: str, line: int, name: str, shown: str) -> list[Finding]:
        if not is_private(name) or name in self.defined or name in self.allowlist.names:
            return []
        return [
            Finding(
                path,
                line,
                "private-attribute",
                f"{name} ({shown}) is defined neither by the project nor in [tool.pitboss.internals.names]",
            )
        ]


def _attribute_function(node: ast.Call) -> bool:
    return (
        isinstance(node.func, ast.Name)
        and node.func.id in ATTRIBUTE_FUNCTIONS
        and len(node.args) >= 2
        and isinstance(node.args[1], ast.Constant)
        and isinstance(node.args[1].value, str)
    )


def _imported_by_name(node: ast.Call) -> str | None:
    """The module of `import_module("x.y")`, `importlib.import_module("x.y")` or `__import__("x.y")`."""
    function = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
    if function in ("import_module", "__import__") and node.args and isinstance(node.args[0], ast.Constant):
        return node.args[0].value if isinstance(node.args[0].value, str) else None
    return None


@cache
def _is_module(name: str) -> bool:
    """Whether `name` is a module (importing its parent package to know), not a name inside one."""
    try:
        return importlib.util.find_spec(name) is not None
    except Exception:  # a parent that cannot be imported: then its own name is checked instead
        return False


# --- the runtime rule --------------------------------------------------------------------------------


def override_findings(sources: list[Source], project: frozenset[str]) -> list[Finding]:
    """Project classes that define a `_name` that a base class from a dependency defines too (run after
    django.setup(): imports the modules of `sources`)."""
    found = []
    for source in sources:
        module = importlib.import_module(_module_name(source.path))
        for qualname, names in source.class_names.items():
            cls = _class_at(module, qualname)
            if cls is None:
                continue
            line = inspect.getsourcelines(cls)[1]
            for name, base in overridden_privates(cls, names, project):
                where = f"{base.__module__}.{base.__qualname__}"
                message = f"{qualname}.{name} overrides the private {name} of {where}"
                found.append(Finding(source.path, line, "private-override", message))
    return found


def overridden_privates(cls: type, names: set[str], project: frozenset[str]) -> list[tuple[str, type]]:
    """(name, base) for each of `names`, the privates `cls` defines, that a base from a dependency defines."""
    return [
        (name, base)
        for base in cls.__mro__[1:]
        if base.__module__.split(".")[0] not in project
        for name in sorted(names & vars(base).keys())
    ]


def _module_name(path: str) -> str:
    return ".".join(Path(path).with_suffix("").parts).removesuffix(".__init__")


def _class_at(module, qualname: str):
    value = module
    for part in qualname.split("."):
        value = vars(value).get(part) if hasattr(value, "__dict__") else None
    return value if inspect.isclass(value) and value.__module__ == module.__name__ else None


# --- running it --------------------------------------------------------------------------------------


@dataclass
class Settings:
    paths: list[str]
    exclude: list[str]
    runtime_exclude: list[str]
    allowlist: Allowlist


def read_settings(pyproject: Path = ROOT / "pyproject.toml") -> Settings:
    config = tomllib.loads(pyproject.read_text(encoding="utf-8"))["tool"]["pitboss"]["internals"]
    return Settings(
        paths=config["paths"],
        exclude=config.get("exclude", []),
        runtime_exclude=config.get("runtime_exclude", []),
        allowlist=Allowlist(config.get("modules", {}), config.get("names", {})),
    )


def source_files(settings: Settings, root: Path = ROOT) -> list[str]:
    files = []
    for entry in settings.paths:
        path = root / entry
        candidates = sorted(path.rglob("*.py")) if path.is_dir() else [path]
        for candidate in candidates:
            relative = candidate.relative_to(root).as_posix()
            if not any(fnmatch.fnmatch(relative, pattern) for pattern in settings.exclude):
                files.append(relative)
    return files


def run(root: Path = ROOT) -> list[str]:
    """Every finding, and every allowlist entry without its documentation, as lines."""
    settings = read_settings(root / "pyproject.toml")
    problems = [f"pyproject.toml: [tool.pitboss.internals] {p}" for p in settings.allowlist.problems()]
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    sys.path.insert(0, str(root))
    import django

    django.setup()
    paths = source_files(settings, root)
    sources = [read_source(path, (root / path).read_text(encoding="utf-8")) for path in paths]
    defined = set().union(*(source.defined for source in sources))
    project = project_names(root)
    checker = Checker(settings.allowlist, project, defined)
    findings = [finding for source in sources for finding in checker.check(source)]
    runtime = [
        source
        for source in sources
        if not any(fnmatch.fnmatch(source.path, pattern) for pattern in settings.runtime_exclude)
    ]
    findings += override_findings(runtime, project)
    return problems + [str(finding) for finding in sorted(findings, key=lambda f: (f.path, f.line, f.rule))]


def main() -> int:
    lines = run()
    for line in lines:
        print(line)
    if lines:
        print(f"\n{len(lines)} uses of a dependency's internals (see tools/internals.py).", file=sys.stderr)
        return 1
    print("internals: only documented API of the dependencies")
    return 0


if __name__ == "__main__":
    sys.exit(main())
