"""Figures worked out in advance: a file of rule sets and their figures, so that a configuration
version whose rules are in it takes them at once instead of working them out (a minute of CPU for a
game's main game). Pitboss ships one for the presets (tables/known_odds.json: a new table, the demo);
the tests add their own (tests/fixtures/known_odds.json) through PITBOSS_KNOWN_ODDS_FILES.

A file holds the odds engine's method and a fingerprint of the engine's source: the odds package and
every module of `blackjack` it imports. Figures of another method or fingerprint are not used (the
version's figures are worked out as usual), so an engine change can never serve stale figures:
`manage.py odds_known` writes the files again.
"""

import ast
import copy
import hashlib
import json
from functools import cache
from pathlib import Path

from django.conf import settings

import blackjack
from blackjack.odds import METHOD_VERSION

SHIPPED_FILE = Path(__file__).with_name("known_odds.json")
ENGINE_ROOT = Path(blackjack.__file__).parent


def _module_file(name: str, root: Path) -> Path | None:
    relative = Path(*name.split(".")[1:])
    for candidate in (root / relative / "__init__.py", root / f"{relative}.py"):
        if candidate.is_file():
            return candidate
    return None


def _imported_modules(path: Path, package: str, root: Path) -> set[str]:
    """The `blackjack` modules that the module at `path` (in `package`) imports."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{parent}.{base}" if base else parent
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return {name for name in names if name.split(".")[0] == "blackjack" and _module_file(name, root)}


@cache
def engine_fingerprint() -> str:
    """SHA-256 of the source of blackjack.odds and of every engine module it imports, directly or not."""
    return source_fingerprint(ENGINE_ROOT)


def source_fingerprint(root: Path) -> str:
    """engine_fingerprint of the `blackjack` package whose folder is `root`."""
    waiting = [(path, "blackjack.odds") for path in (root / "odds").glob("*.py")]
    seen: set[Path] = set()
    while waiting:
        path, package = waiting.pop()
        if path in seen:
            continue
        seen.add(path)
        for name in _imported_modules(path, package, root):
            found = _module_file(name, root)
            waiting.append((found, name if found.name == "__init__.py" else name.rsplit(".", 1)[0]))
    digest = hashlib.sha256()
    for path in sorted(seen):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


@cache
def _read(path: Path, modified: float) -> dict[str, dict]:
    """{rules_sha256: figures} of one file, empty when it is of another method or engine."""
    content = json.loads(path.read_text())
    if content.get("method") != METHOD_VERSION or content.get("engine") != engine_fingerprint():
        return {}
    return {digest: entry["figures"] for digest, entry in content["odds"].items()}


def known_figures(rules_sha256: str) -> dict | None:
    """The figures of the rule set with this digest, when a known-odds file of the present engine has them."""
    for path in map(Path, settings.PITBOSS_KNOWN_ODDS_FILES):
        if path.is_file():
            figures = _read(path, path.stat().st_mtime).get(rules_sha256)
            if figures is not None:
                return copy.deepcopy(figures)  # the caller's own: the file's stay as read
    return None
