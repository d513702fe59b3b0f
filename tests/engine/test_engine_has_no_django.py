"""rounds/engine/ stays pure Python: no module in it imports Django or the project's Django apps."""

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
ENGINE = REPO / "rounds" / "engine"
ENGINE_PACKAGE = "rounds.engine"
# Django itself, the libraries built on it, and the project's own Django packages.
FORBIDDEN = (
    "django",
    "rest_framework",
    "drf_spectacular",
    "django_filters",
    "django_tables2",
    "simple_history",
    "celery",
    "config",
    "tables",
    "limits",
    "rounds",
    "reports",
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
        "from .. import models",
        "from ..services import round_ingest",
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
        "from rounds.engine.rules import RuleSet",
        "from . import hand",
        "import djangoish",
    ],
)
def test_the_check_allows(source):
    assert forbidden_imports(source, ENGINE_PACKAGE) == []
