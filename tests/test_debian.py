"""The test run's Debian installs (tests/debian.py) take turns across worker processes: dpkg lets one apt-get install
at a time and fails the others (exit status 100), which failed every browser test but one worker's on a machine
without Chromium."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

FAKE_APT = """\
#!/bin/sh
# apt-get as dpkg's lock makes it: a second install while one runs fails at once, as Debian's does
[ "$1" = update ] && exit 0
mkdir "$FAKE/dpkg.lock" 2>/dev/null || exit 100
sleep 1
printf '#!/bin/sh\\n' > "$FAKE/bin/fakecmd" && chmod +x "$FAKE/bin/fakecmd"
rmdir "$FAKE/dpkg.lock"
"""

WORKER = textwrap.dedent("""\
    import os, sys, time
    from pathlib import Path
    from tests import debian
    os.geteuid = lambda: 0  # a root shell, as CI's
    debian.LOCK = Path(os.environ["FAKE"]) / "turns.lock"
    while not Path(os.environ["FAKE"], "go").exists():
        time.sleep(0.01)
    print(debian.install("fakepkg", "fakecmd"))
""")


def test_workers_that_install_at_once_take_turns_and_all_find_the_package(tmp_path: Path) -> None:
    (tmp_path / "bin").mkdir()
    apt = tmp_path / "bin" / "apt-get"
    apt.write_text(FAKE_APT)
    apt.chmod(0o755)
    env = {**os.environ, "FAKE": str(tmp_path), "PATH": f"{tmp_path / 'bin'}:{os.environ['PATH']}",
           "PYTHONPATH": str(REPO)}
    workers = [subprocess.Popen([sys.executable, "-c", WORKER], env=env, cwd=REPO, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True) for _ in range(3)]
    (tmp_path / "go").touch()
    results = [worker.communicate(timeout=60) for worker in workers]
    assert [(worker.returncode, out.strip()) for worker, (out, _) in zip(workers, results, strict=True)] == [
        (0, "True")] * 3, [err[-600:] for _, err in results]
