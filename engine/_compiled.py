"""Loading the engine core's compiled build (mypyc) when one was made and still matches the sources.

``scripts/build-engine`` compiles :data:`MODULES` into :data:`BUILD` (a directory of its own beside the
package, never beside the sources) and writes a stamp of every engine source's hash there. ``import engine``
calls :func:`install`: when the stamp matches the sources as they are now, an importer put first in
``sys.meta_path`` loads those modules from the build; otherwise they are imported from their ``.py`` files as
usual, so an edited source is never shadowed by a stale extension. ``CARDROOM_ENGINE``: ``pure`` never loads
the build, ``compiled`` requires it (an ImportError when it is missing or stale), unset or ``auto`` uses it
when it is fresh and names a stale one in one line on stderr. ``CARDROOM_ENGINE_BUILD`` names another build
directory (``scripts/build-engine`` runs its profiling workload against the instrumented build so).

This is import machinery, not rules: it is the one engine module that reads files and touches the import
system, and nothing but ``engine/__init__.py`` imports it (first, so that it runs before any compiled module
is imported).
"""
from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

__all__ = ["BESIDE", "BUILD", "FORMAT", "GROUP", "MODULES", "NATIVE", "PACKAGE", "STAMP", "active", "install",
           "sources_digest", "stale"]

MODULES = (
    "engine.interface",
    "engine.memo",
    "engine.rules_game",
    "engine.rng",
    "engine.creature_wars.cards",
    "engine.creature_wars.state",
    "engine.creature_wars.resolution",
    "engine.creature_wars.table",
    "engine.creature_wars.rules",
    "engine.creature_wars.view",
    "engine.fairy_meat.cards",
    "engine.fairy_meat.state",
    "engine.fairy_meat.combat",
    "engine.fairy_meat.rules",
    "engine.fairy_meat.view",
    "protocol.delta",
    "server.rooms.clock",
    "server.rooms.history",
    "server.rooms.snapshots",
    "server.rooms.room",
    "server.store.resp",
)
"""The modules compiled: the per-decision paths of Creature Wars and Fairy Meat, rules and views (witch effects stay
interpreted: they subclass the hook classes, which an interpreted class may not do of a compiled one); and, beside the
engine, the view deltas (``protocol.delta``), pure functions over views made on every decision, and a room's decision
path: its clocks, history, snapshots and the room itself (``server.rooms``), which every decision and view frame go
through, and the packer of the commands every commit sends Redis (``server.store.resp``) (``protocol``,
``server.rooms`` and ``server.store`` import the engine before any of their modules, so the importer below is in place
whatever a process imports first). Compiled code calls the compiled modules' functions and methods directly:
what a test patches it finds in an interpreted module (a store's method, a name the room imports from one)."""
NATIVE = {"protocol._cdelta": "protocol/_cdelta.c", "protocol._cpack": "protocol/_cpack.c"}
"""Modules written in C, by name with their source's path from the package's parent: built beside the compiled
ones, with the same compiler and flags. ``protocol._cdelta`` makes the view deltas ``protocol.delta.walk`` makes,
without the objects the interpreter's walk makes; ``protocol._cpack`` packs a broadcast's frames, the parts they
share once (``protocol.packing.Shared``)."""
BESIDE = ("protocol/delta.py", "server/rooms/clock.py", "server/rooms/history.py", "server/rooms/snapshots.py",
          "server/rooms/room.py", "server/store/resp.py", *NATIVE.values())
"""The compiled modules outside the engine package, by path from the package's parent: part of the stamp."""
GROUP = "cardroom_engine"
"""mypyc's group name: the shared library every compiled module's shim loads is ``cardroom_engine__mypyc``."""
PACKAGE = Path(__file__).resolve().parent
BUILD = Path(os.environ.get("CARDROOM_ENGINE_BUILD") or PACKAGE.parent / ".engine-build")
STAMP = "stamp.json"
FORMAT = 2
"""The build script's own version, in the stamp: a build made by another is not used (2: compiled with the
interpreter's C flags, which setuptools 75.7 and later dropped from the profile-guided compiles)."""
MODES = ("auto", "compiled", "pure")

_active = "pure"


def active() -> str:
    """Which build this process runs: ``compiled`` or ``pure``."""
    return _active


def sources_digest(package: Path = PACKAGE) -> str:
    """The hash of every ``.py`` file of the engine package and of the compiled modules beside it (``BESIDE``), by
    path and content: the build's stamp. Any edit to any engine source (compiled or not: compiled code relies on the
    types of what it imports) changes it."""
    h = hashlib.sha256()
    for path in sorted(package.rglob("*.py")):
        h.update(path.relative_to(package).as_posix().encode())
        h.update(b"\0")
        h.update(path.read_bytes())
        h.update(b"\0")
    for name in BESIDE:
        beside = package.parent / name
        h.update(name.encode() + b"\0" + (beside.read_bytes() if beside.is_file() else b"(missing)") + b"\0")
    return h.hexdigest()


def abi() -> str:
    """The file suffix of this interpreter's extension modules: a build for another Python is not loaded."""
    return importlib.machinery.EXTENSION_SUFFIXES[0]


def built_files(build: Path, modules: Sequence[str] = (*MODULES, *NATIVE)) -> dict[str, Path]:
    """Each module of the build (and the shared library) by name, with the file that holds it."""
    suffix = abi()
    files = {f"{GROUP}__mypyc": build / f"{GROUP}__mypyc{suffix}"}
    for name in modules:
        files[name] = build.joinpath(*name.split(".")).with_name(name.rsplit(".", 1)[-1] + suffix)
    return files


def stale(build: Path = BUILD, package: Path = PACKAGE) -> str | None:
    """Why the build in ``build`` may not be used for the sources in ``package`` (None: it may)."""
    try:
        stamp = json.loads((build / STAMP).read_text())
    except FileNotFoundError:
        return "no compiled build"
    except (OSError, ValueError) as exc:
        return f"its stamp is unreadable ({exc})"
    if stamp.get("abi") != abi():
        return f"it was built for {stamp.get('abi')}, not {abi()}"
    if stamp.get("format") != FORMAT:
        return "it was made by another version of the build script (scripts/build-engine rebuilds it)"
    if stamp.get("modules") != list(MODULES) or stamp.get("native") != list(NATIVE):
        return "it holds other modules than the ones compiled now"
    missing = [str(path) for path in built_files(build).values() if not path.is_file()]
    if missing:
        return f"{missing[0]} is missing"
    if stamp.get("sources") != sources_digest(package):
        return "the engine's sources changed since it was built (scripts/build-engine rebuilds it)"
    return None


class _Finder(importlib.abc.MetaPathFinder):
    """Finds the compiled modules in the build directory; every other module is left to the usual finders."""

    def __init__(self, files: dict[str, Path]) -> None:
        self.files = files

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        file = self.files.get(fullname)
        if file is None:
            return None
        loader = importlib.machinery.ExtensionFileLoader(fullname, str(file))
        return importlib.util.spec_from_file_location(fullname, file, loader=loader)


def install() -> str:
    """Put the build's importer first when ``CARDROOM_ENGINE`` allows it and the build is fresh; say which
    build this process runs."""
    global _active
    mode = os.environ.get("CARDROOM_ENGINE", "").strip().lower() or "auto"
    if mode not in MODES:
        raise ImportError(f"CARDROOM_ENGINE must be one of {', '.join(MODES)}, not {mode!r}")
    if mode == "pure" or any(isinstance(finder, _Finder) for finder in sys.meta_path):
        return _active
    why = stale()
    if why is None:
        sys.meta_path.insert(0, _Finder(built_files(BUILD)))
        _active = "compiled"
    elif mode == "compiled":
        raise ImportError(f"CARDROOM_ENGINE=compiled, but the compiled engine in {BUILD} may not be used: {why}")
    elif why != "no compiled build":
        sys.stderr.write(f"cardroom: the compiled engine in {BUILD} is not used ({why}): running the pure-Python one\n")
    return _active


install()
