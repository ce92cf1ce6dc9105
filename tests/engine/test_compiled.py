"""The engine's two builds: the compiled one (mypyc) is used only while its stamp matches the sources, an edited
source falls back to pure Python with one line on stderr, and with no C compiler nothing is built and the pure
package runs. The rules themselves are checked on whichever build runs (``CARDROOM_ENGINE``; CI runs both)."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from engine import _compiled
from tests.scripts import load_script

ROOT = Path(__file__).resolve().parents[2]
WHICH = ("from engine import _compiled; import engine.registry, engine.rng, protocol.delta; "
         "print(_compiled.active(), engine.rng.__file__, protocol.delta.__file__)")
"""Run in a child interpreter: which build it runs, and where its RNG module and the deltas were loaded from."""


def copy_engine(tmp_path: Path, with_build: bool = False) -> Path:
    """A copy of the engine package, the protocol one and the other modules compiled with the engine (the deltas,
    the match clocks), and of their build if asked, to change freely: the copy's root."""
    for package in ("engine", "protocol"):
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__"))
    for name in _compiled.BESIDE:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, tmp_path / name)
    if with_build:
        shutil.copytree(_compiled.BUILD, tmp_path / ".engine-build")
    return tmp_path


def fake_build(root: Path) -> None:
    """A build directory whose stamp matches the sources under ``root``, with empty files for the modules."""
    build = root / ".engine-build"
    for path in _compiled.built_files(build).values():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"")
    stamp = {"sources": _compiled.sources_digest(root / "engine"), "format": _compiled.FORMAT,
             "abi": _compiled.abi(), "modules": list(_compiled.MODULES), "native": list(_compiled.NATIVE)}
    (build / _compiled.STAMP).write_text(json.dumps(stamp))


def run(root: Path, code: str, mode: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if key != "CARDROOM_ENGINE"}
    if mode is not None:
        env["CARDROOM_ENGINE"] = mode
    return subprocess.run([sys.executable, "-c", code], cwd=root, env=env, capture_output=True, text=True,
                          timeout=60)


def edit(root: Path) -> None:
    """Change one engine source, as a developer would."""
    table = root / "engine" / "creature_wars" / "table.py"
    table.write_text(table.read_text() + "\n# edited\n")


def test_a_build_is_fit_only_for_the_sources_it_was_made_from(tmp_path: Path) -> None:
    root = copy_engine(tmp_path)
    assert _compiled.stale(root / ".engine-build", root / "engine") == "no compiled build"
    fake_build(root)
    assert _compiled.stale(root / ".engine-build", root / "engine") is None
    edit(root)
    assert "sources changed" in str(_compiled.stale(root / ".engine-build", root / "engine"))
    fake_build(root)
    stamp = root / ".engine-build" / _compiled.STAMP
    stamp.write_text(json.dumps({**json.loads(stamp.read_text()), "abi": ".cpython-39-x.so"}))
    assert "built for .cpython-39-x.so" in str(_compiled.stale(root / ".engine-build", root / "engine"))
    fake_build(root)
    stamp.write_text(json.dumps({**json.loads(stamp.read_text()), "format": _compiled.FORMAT - 1}))
    assert "another version of the build script" in str(_compiled.stale(root / ".engine-build", root / "engine"))
    fake_build(root)
    next(iter(_compiled.built_files(root / ".engine-build").values())).unlink()
    assert "missing" in str(_compiled.stale(root / ".engine-build", root / "engine"))


def test_an_edited_source_falls_back_to_pure_python_with_one_line_on_stderr(tmp_path: Path) -> None:
    root = copy_engine(tmp_path)
    fake_build(root)  # (its empty files would fail to load: falling back means not loading them at all)
    edit(root)
    ran = run(root, WHICH)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.split()[0] == "pure" and ran.stdout.split()[1].endswith("rng.py")
    assert len(ran.stderr.splitlines()) == 1 and "sources changed" in ran.stderr
    required = run(root, WHICH, "compiled")
    assert required.returncode != 0 and "CARDROOM_ENGINE=compiled" in required.stderr
    assert run(root, WHICH, "pure").stderr == "", "asked for pure Python: nothing to say"


def test_with_no_c_compiler_the_build_builds_nothing_and_the_pure_package_runs(tmp_path: Path) -> None:
    root = copy_engine(tmp_path)
    script = [sys.executable, str(ROOT / "scripts" / "build_engine.py"), "--package", str(root / "engine")]
    env = {**os.environ, "CC": "/nonexistent/cc"}
    built = subprocess.run(script, env=env, capture_output=True, text=True, timeout=60)
    assert built.returncode == 0, built.stderr
    assert "no C compiler" in built.stderr
    assert not (root / ".engine-build").exists()
    required = subprocess.run([*script, "--require"], env=env, capture_output=True, text=True, timeout=60)
    assert required.returncode == 1
    ran = run(root, WHICH)
    assert ran.returncode == 0 and ran.stdout.split()[0] == "pure" and ran.stderr == ""


@pytest.mark.skipif(_compiled.stale() is not None, reason="no compiled build matching the sources (scripts/build-engine)")
def test_a_fresh_build_is_loaded_and_an_edit_turns_it_off(tmp_path: Path) -> None:
    root = copy_engine(tmp_path, with_build=True)
    ran = run(root, WHICH)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.split()[0] == "compiled" and ran.stdout.split()[1].endswith(_compiled.abi())
    assert ran.stdout.split()[2].endswith(_compiled.abi()), "the deltas are compiled with the engine"
    assert ".engine-build" in ran.stdout and ran.stderr == ""
    edit(root)
    ran = run(root, WHICH)
    assert ran.stdout.split()[0] == "pure" and "sources changed" in ran.stderr


@pytest.mark.parametrize("name", _compiled.BESIDE)
def test_an_edited_module_beside_the_engine_makes_the_build_stale(tmp_path: Path, name: str) -> None:
    root = copy_engine(tmp_path)
    fake_build(root)
    beside = root / name
    beside.write_text(beside.read_text() + "\n# edited\n")
    assert "sources changed" in str(_compiled.stale(root / ".engine-build", root / "engine"))


@pytest.mark.skipif(_compiled.stale() is not None, reason="no compiled build matching the sources (scripts/build-engine)")
@pytest.mark.parametrize("first", ["protocol.delta", "server.rooms.clock", "server.rooms.room", "server.store.link",
                                   "server.edge.app", "client.connection"])
def test_the_compiled_deltas_and_room_load_whatever_is_imported_first(first: str) -> None:
    """``protocol``, ``server.rooms`` and ``server.store`` import the engine (which installs the build's importer)
    before any of their modules: a fresh build's compiled ``protocol.delta`` (making its deltas in C), clocks, room
    and Redis packer are the ones a process runs, the server's (which imports the client library's browser page
    before the engine) included."""
    ran = run(ROOT, f"import {first}, engine._compiled as c, protocol.delta as d, server.rooms.clock as k, "
                    "server.rooms.room as r, server.store.resp as p, protocol._cdelta as n; "
                    "assert d._NATIVE is n.diff; "
                    "print(c.active(), d.__file__, k.__file__, r.__file__, p.__file__, n.__file__)")
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.split()[0] == "compiled", ran.stdout
    assert all(path.endswith(_compiled.abi()) for path in ran.stdout.split()[1:]), ran.stdout


def test_this_process_runs_the_build_it_was_asked_for() -> None:
    import engine.creature_wars.resolution
    import engine.rng

    asked = os.environ.get("CARDROOM_ENGINE", "auto")
    if asked == "compiled" or (asked == "auto" and _compiled.stale() is None):
        assert _compiled.active() == "compiled" and str(engine.rng.__file__).endswith(_compiled.abi())
        # the values every duel hands the (interpreted) hooks are made by compiled code, without a generic call
        assert str(engine.creature_wars.resolution.__file__).endswith(_compiled.abi())
    else:
        assert _compiled.active() == "pure" and str(engine.rng.__file__).endswith(".py")


def test_a_compile_with_flags_keeps_the_interpreters_own() -> None:
    """The profile-guided compiles add their flags to the interpreter's C flags, which setuptools 75.7 and later drop
    when ``CFLAGS`` is set: without ``-fwrapv`` the compiler took the RNG's wrapping check for false."""
    script = load_script("build_engine")
    python = sysconfig.get_config_var("CFLAGS")
    env = script.compile_env("-fprofile-use=/nowhere")
    assert env["CFLAGS"].startswith(python) and env["CFLAGS"].endswith("-fprofile-use=/nowhere")
    assert env["LDFLAGS"].endswith("-fprofile-use=/nowhere")
    assert script.compile_env().get("CFLAGS") == os.environ.get("CFLAGS")  # no flags of its own: left as it is


def test_the_compiled_rng_draws_in_machine_arithmetic() -> None:
    """Compiled, the RNG's draws wrap as 64-bit integers do in C built as Python's extensions are (``-fwrapv``), and
    it uses them; interpreted, it never does."""
    import engine.rng

    assert engine.rng._NATIVE == (_compiled.active() == "compiled")


def test_the_build_is_profile_guided_only_with_gcc_and_its_workload_at_hand(tmp_path: Path) -> None:
    """GCC's profile flags are used with GCC alone (clang's profiles need a merge step), and only where the profiling
    workload (the repository's bench modules) is there to run."""
    script = load_script("build_engine")
    clang = tmp_path / "clang"
    clang.write_text("#!/bin/sh\necho 'Debian clang version 14.0.6'\n")
    clang.chmod(0o755)
    assert not script.gcc(str(clang))
    assert not script.gcc(str(tmp_path / "missing-cc"))
    if shutil.which("gcc"):
        assert script.gcc("gcc")
    assert script.trainable(ROOT)
    assert not script.trainable(copy_engine(tmp_path / "copy"))


@pytest.mark.skipif(_compiled.stale() is not None, reason="no compiled build matching the sources (scripts/build-engine)")
def test_a_build_elsewhere_is_loaded_when_named(tmp_path: Path) -> None:
    """``CARDROOM_ENGINE_BUILD`` names the build directory (the build script profiles its instrumented build so)."""
    root = copy_engine(tmp_path / "copy")
    elsewhere = tmp_path / "elsewhere"
    shutil.copytree(_compiled.BUILD, elsewhere)
    env = {key: value for key, value in os.environ.items() if key != "CARDROOM_ENGINE"}
    ran = subprocess.run([sys.executable, "-c", WHICH], cwd=root, env={**env, "CARDROOM_ENGINE_BUILD": str(elsewhere)},
                         capture_output=True, text=True, timeout=60)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.split()[0] == "compiled" and ran.stdout.split()[1].startswith(str(elsewhere)), ran.stdout
    assert run(root, WHICH).stdout.split()[0] == "pure", "without it, the copy's own (missing) build"
