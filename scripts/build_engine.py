"""Compile the engine core, the view deltas and a room's decision path with mypyc, and the modules written in C beside
them (the deltas' walk, a broadcast's packer), into their build directory (``.engine-build/`` beside ``engine/``).

    scripts/build-engine              # compile when the build is missing or older than the sources
    scripts/build-engine --force      # compile anyway
    scripts/build-engine --require    # exit 1 when it cannot compile (CI, the Docker image)
    scripts/build-engine --no-pgo     # one plain compile, without the profile-guided second one

Which modules, where the build goes and when it is used are :mod:`engine._compiled`'s: the build carries a stamp
of the sources' hash, and ``import engine`` loads it only while the stamp matches. Without a C compiler (``CC``,
else Python's own, else ``cc``) or without mypyc it says so and builds nothing, and so does a failed compile:
the pure-Python engine then runs, and the exit status is 0 unless ``--require`` is given. The new build is made
in a directory of its own, checked by importing it in a fresh interpreter, and only then put in place.

With GCC and the repository's benchmarks beside the package, the build is profile-guided: compiled once
instrumented, run on :data:`TRAINING` (random matches through rooms and through every game's rules), and compiled
again with what that run measured, which lays out the code for the paths decisions take (``bench.room`` a tenth
less CPU a decision). A training run that fails leaves a plain build.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

CHILD = """
import sys
from setuptools import Distribution, Extension
from mypyc.build import mypycify

work, group, native = sys.argv[1], sys.argv[2], sys.argv[3]
extensions = mypycify(["--config-file", work + "/mypy.ini", "--cache-dir", work + "/cache", *sys.argv[4:]],
                      opt_level="3", group_name=group, target_dir=work + "/c")
for spec in filter(None, native.split(",")):
    name, source = spec.split("=")
    extensions.append(Extension(name, [source], extra_compile_args=["-O3"]))
dist = Distribution({"name": "cardroom-engine", "ext_modules": extensions, "script_args": [
    "build_ext", "--build-lib", work + "/lib", "--build-temp", work + "/obj"]})
dist.parse_command_line()
dist.run_commands()
"""
"""Run in a child interpreter from the package's parent directory (so the modules are named ``engine.*``): the
mypyc group, and the modules written in C (``name=source``, comma-separated)."""

CHECK = """
from engine import _compiled
import engine.registry
assert _compiled.active() == "compiled", _compiled.active()
import engine.rng
assert engine.rng.__file__.endswith(_compiled.abi()), engine.rng.__file__
assert engine.rng._NATIVE, "64-bit arithmetic does not wrap in the build (its C flags lack -fwrapv)"
import protocol.delta
assert protocol.delta.__file__.endswith(_compiled.abi()), protocol.delta.__file__
assert protocol.delta._NATIVE is not None
import protocol.packing
assert protocol.packing._NATIVE is not None
import server.rooms.room
assert server.rooms.room.__file__.endswith(_compiled.abi()), server.rooms.room.__file__
"""
"""Run in a fresh interpreter against the new build: every game imports, and compiled, its RNG drawing in machine
arithmetic, and so do the view deltas (made in C) and the room, and the frames' packer in C loads."""


TRAINING = (("bench.room", "--matches", "120"), ("bench.random_play", "--matches", "100"))
"""The profiling workload: modules run with ``python -m`` from the package's parent, against the instrumented build."""


def loader(package: Path) -> ModuleType:
    """The package's ``_compiled`` module, loaded from its file (with the pure build: nothing is loaded from a
    build while this runs)."""
    os.environ["CARDROOM_ENGINE"] = "pure"
    spec = importlib.util.spec_from_file_location("cardroom_engine_loader", package / "_compiled.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def compiler() -> str | None:
    """The C compiler's command if it can be found, else None."""
    command = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    words = shlex.split(command)
    return command if words and shutil.which(words[0]) else None


def gcc(command: str) -> bool:
    """Whether the C compiler is GCC, whose profile-guided flags the build uses (clang's need a merge step)."""
    try:
        version = subprocess.run([*shlex.split(command), "--version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return False
    return version.returncode == 0 and "Free Software Foundation" in version.stdout


def trainable(root: Path) -> bool:
    """Whether the profiling workload is there to run (a checkout; the image's builder copies ``bench/`` too)."""
    return all((root / Path(*module.split("."))).with_suffix(".py").is_file() for module, *_ in TRAINING)


def compile_env(flags: str = "") -> dict[str, str]:
    """The environment of a compile with ``flags`` added to the C compiler's and the linker's. The interpreter's own
    C flags are written out first: setuptools 75.7 and later let ``CFLAGS`` replace them, where older ones added it
    to them, and the compiled modules need theirs (``-fwrapv``: the RNG's 64-bit draws wrap; ``-DNDEBUG``)."""
    env = dict(os.environ)
    if flags:
        python = sysconfig.get_config_var("CFLAGS") or ""
        env["CFLAGS"] = " ".join(part for part in (python, env.get("CFLAGS", ""), flags) if part)
        env["LDFLAGS"] = f"{env.get('LDFLAGS', '')} {flags}".strip()
    return env


def compile_into(work: Path, group: str, paths: list[str], native_sources: dict[str, str], root: Path,
                 flags: str = "") -> subprocess.CompletedProcess[str]:
    """One compile of ``paths`` into ``work`` (``lib`` and ``obj`` made anew), with ``flags`` added to the C
    compiler's and the linker's."""
    for part in ("lib", "obj"):
        shutil.rmtree(work / part, ignore_errors=True)
    env = compile_env(flags)
    native = ",".join(f"{name}={source}" for name, source in native_sources.items())
    return subprocess.run([sys.executable, "-c", CHILD, str(work), group, native, *paths], cwd=root, env=env,
                          capture_output=True, text=True)


def assemble(work: Path, into: Path, compiled: ModuleType) -> None:
    """Copy the compiled files of ``work``'s last compile into the build directory ``into`` (``compiled``: the
    package's ``_compiled``, which names them)."""
    for target in compiled.built_files(into).values():
        source = work / "lib" / target.relative_to(into)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, target)


def train(work: Path, root: Path, stamp: dict[str, Any], compiled: ModuleType) -> bool:
    """Run :data:`TRAINING` against the instrumented build of ``work``'s last compile; whether every run succeeded."""
    build = work / "train"
    assemble(work, build, compiled)
    (build / compiled.STAMP).write_text(json.dumps(stamp) + "\n")
    env = {**os.environ, "CARDROOM_ENGINE": "compiled", "CARDROOM_ENGINE_BUILD": str(build)}
    for module, *args in TRAINING:
        run = subprocess.run([sys.executable, "-m", module, *args], cwd=root, env=env, capture_output=True, text=True)
        if run.returncode != 0:
            print("\n".join((run.stdout + run.stderr).strip().splitlines()[-10:]), file=sys.stderr)
            return False
    return True


def say(quiet: bool, text: str) -> None:
    if not quiet:
        print(f"build-engine: {text}", flush=True)


def give_up(args: argparse.Namespace, text: str) -> int:
    """Nothing built: say why (always, on stderr) and exit 1 only when a build was required."""
    print(f"build-engine: {text}; the pure-Python engine runs", file=sys.stderr, flush=True)
    return 1 if args.require else 0


def build(args: argparse.Namespace) -> int:
    package: Path = args.package.resolve()
    out = package.parent / ".engine-build"
    compiled = loader(package)
    if not args.force and compiled.stale(out, package) is None:
        say(args.quiet, f"{out} is up to date")
        return 0
    cc = compiler()
    if cc is None:
        return give_up(args, f"no C compiler found (CC={os.environ.get('CC') or sysconfig.get_config_var('CC') or 'cc'})")
    if importlib.util.find_spec("mypyc") is None:
        return give_up(args, "mypyc is not installed (it comes with mypy: pip install mypy)")
    modules: tuple[str, ...] = compiled.MODULES
    paths = [str(Path(*name.split(".")).with_suffix(".py")) for name in modules]
    before = compiled.sources_digest(package)
    started = time.monotonic()
    out.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=".engine-build.", dir=out.parent))
    try:
        say(args.quiet, f"compiling {len(modules)} engine, delta and room modules with mypyc, and {len(compiled.NATIVE)} "
                        f"written in C, with {cc} (two or three minutes; "
                        "CARDROOM_COMPILE=0 skips this in scripts/serve)")
        (work / "mypy.ini").write_text("[mypy]\nignore_missing_imports = True\n")
        root = package.parent
        profile = work / "profile"
        pgo = not args.no_pgo and gcc(cc) and trainable(root)
        mypy_version = subprocess.run([sys.executable, "-c", "import mypy.version; print(mypy.version.__version__)"],
                                      capture_output=True, text=True).stdout.strip()
        stamp = {"sources": before, "format": compiled.FORMAT, "abi": compiled.abi(), "modules": list(modules),
                 "native": list(compiled.NATIVE), "mypy": mypy_version}
        made = compile_into(work, compiled.GROUP, paths, compiled.NATIVE, root,
                            f"-fprofile-generate={profile} -fprofile-update=atomic" if pgo else "")
        if made.returncode == 0 and pgo:
            say(args.quiet, "profiling the instrumented build on random matches, then compiling it again with the profile")
            trained = train(work, root, stamp, compiled)
            if not trained:
                print("build-engine: the profiling run failed (its last lines above); compiling without a profile",
                      file=sys.stderr, flush=True)
            made = compile_into(work, compiled.GROUP, paths, compiled.NATIVE, root,
                                f"-fprofile-use={profile} -fprofile-correction -Wno-missing-profile "
                                "-Wno-error=coverage-mismatch" if trained else "")
            if trained and made.returncode != 0:  # the profile did not fit what was compiled again: a plain build
                print("build-engine: the compile with the profile failed; compiling without one", file=sys.stderr,
                      flush=True)
                trained = False
                made = compile_into(work, compiled.GROUP, paths, compiled.NATIVE, root)
            stamp["profiled"] = trained
        if made.returncode != 0:
            tail = "\n".join((made.stdout + made.stderr).strip().splitlines()[-25:])
            print(tail, file=sys.stderr)
            return give_up(args, f"the compile failed (exit {made.returncode}; its last lines above)")
        fresh = work / "build"
        assemble(work, fresh, compiled)
        if compiled.sources_digest(package) != before:
            return give_up(args, "the sources changed while they were compiled: run it again")
        (fresh / compiled.STAMP).write_text(json.dumps(stamp, indent=1) + "\n")
        old = work / "old"
        if out.exists():
            out.rename(old)
        fresh.rename(out)
        env = {**{k: v for k, v in os.environ.items() if k != "CARDROOM_ENGINE_BUILD"}, "CARDROOM_ENGINE": "compiled"}
        checked = subprocess.run([sys.executable, "-c", CHECK], cwd=package.parent, env=env, capture_output=True,
                                 text=True)
        if checked.returncode != 0:
            print("\n".join(checked.stderr.strip().splitlines()[-15:]), file=sys.stderr)
            shutil.rmtree(out)
            return give_up(args, "the compiled build failed its check (its error above); it was removed")
        say(args.quiet, f"compiled into {out} in {time.monotonic() - started:.0f} s")
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--package", type=Path, default=ROOT / "engine",
                        help="the engine package to compile (default: this repository's); the build goes beside it")
    parser.add_argument("--force", action="store_true", help="compile even when the build is up to date")
    parser.add_argument("--require", action="store_true", help="exit 1 when nothing could be built")
    parser.add_argument("--quiet", action="store_true", help="say nothing when the build is up to date or made")
    parser.add_argument("--no-pgo", action="store_true",
                        help="compile once, without profiling (half the time; a room's decisions take a tenth more CPU)")
    return build(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
