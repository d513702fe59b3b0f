"""blackjack/ stays pure Python: no module in it imports Django or any other package of the project,
not even inside a function, and importing every one of its modules loads neither."""

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
ENGINE_PACKAGE = "blackjack"
ENGINE = REPO / ENGINE_PACKAGE
# The project's other packages: every top-level folder with an __init__.py (the tests excepted).
PROJECT_PACKAGES = tuple(
    sorted(
        path.parent.name
        for path in REPO.glob("*/__init__.py")
        if path.parent.name not in (ENGINE_PACKAGE, "tests")
    )
)
# Django itself, the libraries built on it, and the project's packages.
FORBIDDEN = (
    "django",
    "rest_framework",
    "drf_spectacular",
    "django_filters",
    "django_tables2",
    "simple_history",
    "celery",
    *PROJECT_PACKAGES,
)


def _is_forbidden(module: str) -> bool:
    if module == ENGINE_PACKAGE or module.startswith(ENGINE_PACKAGE + "."):
        return False
    return module.split(".")[0] in FORBIDDEN


def _resolve_relative(package: str, level: int, module: str | None) -> str:
    parts = package.split(".")
    base = parts[: len(parts) - (level - 1)] if level > 1 else parts
    return ".".join(base + ([module] if module else []))


def forbidden_imports(source: str, package: str) -> list[str]:
    """The forbidden modules that `source`, a module of `package`, imports."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names if _is_forbidden(alias.name)]
        elif isinstance(node, ast.ImportFrom):
            module = _resolve_relative(package, node.level, node.module) if node.level else node.module or ""
            if _is_forbidden(module):
                found.append(module)
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            # importlib.import_module("django...") and __import__("django...")
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if name in {"import_module", "__import__"} and isinstance(node.args[0].value, str):
                if _is_forbidden(node.args[0].value):
                    found.append(node.args[0].value)
    return found


def _package_of(path: Path) -> str:
    return ".".join(path.parent.relative_to(REPO).parts)


ENGINE_MODULES = sorted(ENGINE.rglob("*.py"))


def test_the_engine_has_modules_to_check():
    assert ENGINE_MODULES, f"no modules found under {ENGINE}"
    assert {"config", "core", "portal", "rounds", "tables"} <= set(PROJECT_PACKAGES)


IMPORT_EVERY_MODULE = """
import importlib, json, pkgutil, sys
import blackjack
for module in pkgutil.walk_packages(blackjack.__path__, "blackjack."):
    importlib.import_module(module.name)
print(json.dumps(sorted({name.partition(".")[0] for name in sys.modules})))
"""


def test_importing_every_engine_module_loads_no_django_and_nothing_of_the_project():
    done = subprocess.run(
        [sys.executable, "-c", IMPORT_EVERY_MODULE], cwd=REPO, capture_output=True, text=True, check=True
    )
    loaded = set(json.loads(done.stdout))
    assert ENGINE_PACKAGE in loaded
    assert not loaded & set(FORBIDDEN)


@pytest.mark.parametrize("path", ENGINE_MODULES, ids=lambda p: str(p.relative_to(ENGINE)))
def test_engine_module_imports_no_django(path):
    found = forbidden_imports(path.read_text(encoding="utf-8"), _package_of(path))
    assert not found, f"{path.relative_to(REPO)} imports {', '.join(found)}"


@pytest.mark.parametrize(
    "source",
    [
        "import django",
        "from django.db import models",
        "import rest_framework.serializers",
        "from tables.models import TableConfig",
        "from rounds.models import Round",
        "from core.money import money",
        "from portal.search import search",
        "import importlib\nimportlib.import_module('django.conf')",
        "def f():\n    from reports import tasks",
    ],
)
def test_the_check_catches(source):
    assert forbidden_imports(source, ENGINE_PACKAGE)


@pytest.mark.parametrize(
    "source",
    [
        "from decimal import Decimal",
        "from .cards import CARD_VALUE",
        "from blackjack.rules import RuleSet",
        "from . import hand",
        "import djangoish",
    ],
)
def test_the_check_allows(source):
    assert forbidden_imports(source, ENGINE_PACKAGE) == []
