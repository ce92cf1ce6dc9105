"""Whether the running CPython was built for speed: a build without profile-guided optimization whose libpython
is a shared library (pyenv's and python-build's default with ``--enable-shared``) runs a node's decisions with about
a fifth more CPU than the optimized builds of Debian or the official images (bench/README.md, "The interpreter").
``cardroom serve`` says so in a line when it starts on such a build."""
from __future__ import annotations

import sys
import sysconfig
from pathlib import Path

__all__ = ["NOTE", "note", "unoptimized"]

NOTE = ("cardroom: this Python ({version}, {executable}) was built without --enable-optimizations and loads libpython "
        "as a shared library: a node spends about a fifth more CPU per decision than on an optimized build "
        "(Debian's python3, the official images; docs/deploy.md, 'The interpreter')")


def unoptimized(config_args: str, maps: str) -> bool:
    """Whether a CPython configured with ``config_args`` and with the memory map ``maps`` (``/proc/self/maps``) is
    the slow kind: its libpython mapped as a shared library, whose build those arguments describe, and no PGO. A
    static executable's sysconfig may describe another build of the same package (Debian's does), so a map without
    libpython says nothing against it."""
    return "libpython3" in maps and "--enable-optimizations" not in config_args


def note() -> str | None:
    """The line to print at start-up when this process runs on the slow kind of CPython; None otherwise, and where
    it cannot tell (not CPython, no ``/proc``)."""
    if sys.implementation.name != "cpython":
        return None
    try:
        maps = Path("/proc/self/maps").read_text()
    except OSError:
        return None
    if not unoptimized(str(sysconfig.get_config_var("CONFIG_ARGS") or ""), maps):
        return None
    return NOTE.format(version=sys.version.split()[0], executable=sys.executable)
