"""The container image (Dockerfile): its build stage copies every package the server installs, and, followed step by
step without Docker (the same COPYs from this checkout, a non-editable install into a virtualenv of its own, the same
build command run from the copied sources), it compiles the engine and makes a server that starts from that
virtualenv alone. The image once lacked ``bots/`` (``cardroom serve`` then stopped at ``import bots``) and its
compile failed on a type the compiled build's check could not infer in the order an installed copy gave it. What the
packages import at run time is installed with them (the image has no test extras). And the
compose file's parts agree: its commands and settings are ones the server knows, and the proxy and Prometheus name
every node it runs (Prometheus once scraped one of three)."""
from __future__ import annotations

import ast
import contextlib
import importlib.metadata
import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import time
import tomllib
import urllib.request
from pathlib import Path

import pytest

from server.cli import parser
from server.store.redis_process import free_port
from tests.scripts import load_script

REPO = Path(__file__).resolve().parents[1]


def build_stage_copies(dockerfile: str) -> list[tuple[list[str], str]]:
    """The build stage's ``COPY`` instructions (sources, destination), in order: from its ``FROM`` to the next."""
    stages = dockerfile.split("\nFROM ")[1:]
    copies = []
    for line in stages[0].splitlines():
        words = line.split()
        if words[:1] == ["COPY"] and not any(word.startswith("--from") for word in words):
            copies.append((words[1:-1], words[-1]))
    return copies


def installed_packages() -> set[str]:
    """The top-level packages ``pip install .`` installs (pyproject's ``packages.find`` patterns)."""
    found = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]["find"]
    return {pattern.rstrip("*") for pattern in found["include"]}


def test_the_build_stage_copies_every_package_it_installs() -> None:
    copied = {source for sources, _ in build_stage_copies((REPO / "Dockerfile").read_text()) for source in sources}
    assert installed_packages() <= copied, f"not copied into the image: {sorted(installed_packages() - copied)}"


def _run(command: list[str], cwd: Path, env: dict[str, str] | None = None, timeout: float = 600) -> str:
    """Run one step of the build; its output, or the test fails with the end of what it wrote."""
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{' '.join(command)} failed:\n{(done.stdout + done.stderr)[-3000:]}"
    return done.stdout


def _answers(command: list[str], url: str, cwd: Path, env: dict[str, str], within: float = 60) -> str | None:
    """Start ``command`` (a server) in ``cwd``, and stop it once ``url`` answers 200 or ``within`` seconds have
    passed, or it has exited: None if it answered, else the end of its output."""
    log = cwd / "output.log"
    with log.open("wb") as out:
        process = subprocess.Popen(command, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT)
    deadline, answered = time.monotonic() + within, False
    try:
        while not answered and time.monotonic() < deadline and process.poll() is None:
            try:
                with urllib.request.urlopen(url, timeout=2) as answer:
                    answered = answer.status == 200
            except OSError:
                time.sleep(0.2)
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    return None if answered else log.read_text(errors="replace")[-3000:]


@pytest.mark.slow
def test_the_build_stage_followed_without_docker_makes_a_compiled_server_that_starts(tmp_path: Path) -> None:
    if load_script("build_engine").compiler() is None:
        pytest.skip("no C compiler: the image's build stage installs one")
    app, opt, wheels = tmp_path / "app", tmp_path / "opt", tmp_path / "wheels"
    app.mkdir()
    for sources, destination in build_stage_copies((REPO / "Dockerfile").read_text()):
        for source in sources:
            target = app / destination / Path(source).name if destination.endswith("/") else app / destination
            target.parent.mkdir(parents=True, exist_ok=True)
            if (REPO / source).is_dir():
                shutil.copytree(REPO / source, target, ignore=shutil.ignore_patterns("__pycache__"))
            else:
                shutil.copy2(REPO / source, target)
    # the image's `pip install .`, offline: a wheel of the copied sources installed without its dependencies into a
    # virtualenv that finds them (and mypy) in this test run's own environment, after its own packages
    _run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-index", "--no-build-isolation", "-w",
          str(wheels), str(app)], cwd=tmp_path)
    _run([sys.executable, "-m", "venv", "--without-pip", str(opt)], cwd=tmp_path)
    python = opt / "bin" / "python"
    _run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps", "--no-index",
          *map(str, wheels.glob("*.whl"))], cwd=tmp_path)
    site = Path(_run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], cwd=tmp_path)
                .strip())
    (site / "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    _run([str(python), "scripts/build_engine.py", "--require"], cwd=app)
    shutil.copytree(app / ".engine-build", site / ".engine-build")
    env = {**os.environ, "CARDROOM_ENGINE": "compiled", "CARDROOM_LOG": "WARNING"}
    env.pop("PYTHONPATH", None)
    outside = tmp_path / "elsewhere"  # no checkout in the working directory: only what the virtualenv holds
    outside.mkdir()
    where = _run([str(python), "-c", "import engine.registry, server; from engine import _compiled; "
                                     "print(_compiled.active(), server.__file__)"], cwd=outside, env=env).split()
    assert where[0] == "compiled" and where[1].startswith(str(site)), where
    port, page = free_port(), free_port()
    cardroom = str(opt / "bin" / "cardroom")
    refused = _answers([cardroom, "serve", "--host", "127.0.0.1", "--port", str(port), "--data-dir",
                        str(tmp_path / "data")], f"http://127.0.0.1:{port}/health", outside, env)
    assert refused is None, f"the server did not answer /health:\n{refused}"
    refused = _answers([cardroom, "web", "--port", str(page), "--url", f"ws://127.0.0.1:{port}"],
                       f"http://127.0.0.1:{page}/", outside, env)  # the compose file's ``web`` service
    assert refused is None, f"the browsers' page did not answer:\n{refused}"


def _commands(text: str) -> list[list[str]]:
    """The ``cardroom`` commands a compose file's ``command:`` lines or a Dockerfile's ``CMD`` give (JSON arrays)."""
    found = [json.loads(array) for array in re.findall(r'^\s*(?:command:|CMD)\s*(\[.*\])\s*$', text, re.MULTILINE)]
    return [command for command in found if command[:1] == ["cardroom"]]


def _blocks(compose: str) -> dict[str, str]:
    """Each compose service's lines, by the service's name."""
    services = compose.split("\nservices:\n", 1)[1].split("\nnetworks:\n")[0]
    return {block.split(":", 1)[0]: block for block in re.split(r"^  (?=[a-z0-9-]+:)", services, flags=re.MULTILINE)[1:]}


def _services(blocks: dict[str, str]) -> dict[str, list[str]]:
    """Each compose service's ``cardroom`` command, by the service's name (``blocks``: :func:`_blocks`'s)."""
    return {name: found[0] for name, block in blocks.items() if (found := _commands(block))}


def test_the_proxy_and_prometheus_reach_every_node_the_compose_file_runs() -> None:
    """HAProxy's servers are the nodes, each named by its ``--node-id`` (a connection naming a node is sent to the
    server of that name, deploy/haproxy.cfg), Prometheus scrapes each, and the nodes trust the proxy's address (else
    every player would count as the proxy's address against the per-address caps)."""
    blocks = _blocks((REPO / "docker-compose.yml").read_text())
    nodes = {(command[command.index("--node-id") + 1], f"{name}:{command[command.index('--port') + 1]}")
             for name, command in _services(blocks).items() if command[1] == "serve"}
    proxied = set(re.findall(r"^\s*server (\S+) (\S+)", (REPO / "deploy" / "haproxy.cfg").read_text(), re.MULTILINE))
    scraped = set(re.findall(r'"([a-z0-9-]+:\d+)"', (REPO / "deploy" / "prometheus.yml").read_text()))
    assert len(nodes) >= 3 and proxied == nodes, (nodes, proxied)
    assert scraped == {address for _, address in nodes}, (nodes, scraped)
    # the nodes believe the proxy's PROXY headers
    trusted = re.search(r"CARDROOM_TRUSTED_PROXIES: (\S+)", blocks["server"])
    proxy = re.search(r"ipv4_address: (\S+)", blocks["proxy"])
    assert trusted is not None and proxy is not None and trusted[1] == proxy[1], (trusted, proxy)


def test_the_compose_file_and_the_image_run_commands_and_settings_the_server_knows() -> None:
    compose = (REPO / "docker-compose.yml").read_text()
    commands = _commands(compose) + _commands((REPO / "Dockerfile").read_text())
    assert len(commands) >= 5, commands  # three nodes and the page's service, and the image's own
    cli = parser()
    for command in commands:
        try:
            cli.parse_args(command[1:])
        except SystemExit:
            pytest.fail(f"cardroom refuses {command}")
    sources = "".join(path.read_text() for package in installed_packages() for path in (REPO / package).rglob("*.py"))
    unknown = sorted(name for name in set(re.findall(r"\bCARDROOM_[A-Z_]+\b", compose)) if f'"{name}"' not in sources)
    assert not unknown, f"the compose file sets what nothing reads: {unknown}"


def _runtime_imports(path: Path) -> set[str]:
    """The top-level modules ``path`` imports when it runs (what ``if TYPE_CHECKING:`` imports left out)."""
    tree = ast.parse(path.read_text())
    checking = {id(node) for block in ast.walk(tree) if isinstance(block, ast.If)
                and ast.unparse(block.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING")
                for statement in block.body for node in ast.walk(statement)}
    found = set()
    for node in ast.walk(tree):
        if id(node) in checking:
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


def _normal(name: str) -> str:
    """A distribution's name as pip compares them (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def _named(requirement: str) -> str:
    """The distribution a requirement line names (``redis>=5; python_version...`` -> ``redis``)."""
    return _normal(re.split(r"[<>=!~;\[ (]", requirement, maxsplit=1)[0])


def _requirements(distribution: str) -> set[str]:
    """The distributions ``distribution`` requires, leaving out those only an extra asks for."""
    return {_named(line) for line in importlib.metadata.requires(distribution) or () if "extra ==" not in line}


def test_what_the_installed_packages_import_is_installed_with_them() -> None:
    """The image installs pyproject's dependencies and theirs, not the test extras: a module the server imports from
    a package only the tests bring would pass every test and stop the image (the slow test above runs with the test
    environment's packages)."""
    declared = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["dependencies"]
    closure, todo = set(), [_named(line) for line in declared]
    while todo:
        name = todo.pop()
        if name not in closure:
            closure.add(name)
            with contextlib.suppress(importlib.metadata.PackageNotFoundError):
                todo.extend(_requirements(name))
    owners = importlib.metadata.packages_distributions()
    ours = installed_packages()
    missing = {}
    for package in ours:
        for path in (REPO / package).rglob("*.py"):
            for module in _runtime_imports(path) - ours - set(sys.stdlib_module_names):
                if not {_normal(owner) for owner in owners.get(module, [])} & closure:
                    missing.setdefault(module, []).append(str(path.relative_to(REPO)))
    assert not missing, f"imported at run time, not installed with the server: {missing}"
