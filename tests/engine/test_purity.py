"""The engine is pure: no module under engine/ imports anything that does I/O or keeps global state."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "engine"
FORBIDDEN = frozenset(
    {"asyncio", "socket", "redis", "msgpack", "websockets", "protocol", "server", "client", "textual", "random",
     "os", "time", "importlib", "subprocess", "threading"}
)
LOADER = ENGINE / "_compiled.py"
"""The compiled build's importer: import machinery, not rules (it hashes the sources and installs an importer)."""
SOURCES = sorted(path for path in ENGINE.rglob("*.py") if path != LOADER)


def imported_modules(tree: ast.AST) -> set[str]:
    """Every module a parsed file imports, absolute imports and ``__import__`` calls included."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module is not None and node.level == 0:
            names.add(node.module)
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "__import__"
              and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            names.add(node.args[0].value)
    return names


def test_engine_sources_found() -> None:
    """The walk sees the engine (a wrong path would make the purity test vacuous)."""
    names = {p.relative_to(ENGINE).as_posix() for p in SOURCES}
    assert {"rng.py", "interface.py", "creature_wars/rules.py", "creature_wars/view.py"} <= names


def test_checker_catches_forbidden_imports() -> None:
    """The import collector sees every import form it is meant to catch."""
    source = "import os.path\nfrom time import sleep\nimport random as r\nx = __import__('socket')\nfrom . import y\n"
    assert imported_modules(ast.parse(source)) == {"os.path", "time", "random", "socket"}


def test_only_the_package_itself_imports_the_loader() -> None:
    """The one module exempt from these checks is reached by no rule: only ``engine/__init__.py`` imports it."""
    importers = sorted(path.relative_to(ENGINE).as_posix() for path in SOURCES
                       if "engine._compiled" in imported_modules(ast.parse(path.read_text(encoding="utf-8")))
                       or "from engine import _compiled" in path.read_text(encoding="utf-8"))
    assert importers == ["__init__.py"]


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.relative_to(ENGINE).as_posix())
def test_no_io_imports(path: Path) -> None:
    """No engine module imports I/O, the network, the server side or the global RNG."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    bad = sorted(name for name in imported_modules(tree) if name.split(".")[0] in FORBIDDEN)
    assert not bad, f"{path.relative_to(ENGINE)} imports {bad}"


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.relative_to(ENGINE).as_posix())
def test_no_file_or_console_io(path: Path) -> None:
    """No engine module calls open(), print() or input()."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    calls = {node.func.id for node in ast.walk(tree) if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)}
    assert not calls & {"open", "print", "input", "exec", "eval"}
