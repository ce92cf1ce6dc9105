# Sourced by scripts/serve and scripts/test: make .venv with this project installed, if not done yet, and
# compile the engine core with mypyc when a C compiler is there (CARDROOM_COMPILE=0 skips that).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# The interpreter .venv is made with: $PYTHON when set; else the first optimized CPython 3.11+ with venv found
# (python3 on the PATH, the versioned names, then the system's), since one built without PGO whose libpython is a
# shared library (pyenv's default) costs a node about a fifth more CPU a decision (server/ops/interpreter.py
# tells them apart, and `cardroom serve` names the slow kind); python3 when none is. An existing .venv is kept.
optimized() {
  "$1" - 2>/dev/null <<'PY'
import importlib.util, sys
if sys.version_info < (3, 11) or sys.implementation.name != "cpython":  # (mypyc builds for CPython alone)
    sys.exit(1)
import ensurepip, venv  # noqa: F401  (Debian ships them apart: python3-venv)
spec = importlib.util.spec_from_file_location("interpreter", "server/ops/interpreter.py")
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
sys.exit(module.note() is not None)
PY
}
if [ -n "${PYTHON:-}" ] || [ -x .venv/bin/python ]; then
  PY="${PYTHON:-python3}"
else
  PY=python3
  for candidate in python3 python3.13 python3.12 python3.11 /usr/bin/python3 /usr/local/bin/python3; do
    if command -v "$candidate" >/dev/null 2>&1 && optimized "$candidate"; then
      PY="$candidate"
      break
    fi
  done
fi
"$PY" -c 'import sys; sys.exit(sys.version_info < (3, 11))' || { echo "cardroom needs Python 3.11 or newer ($PY is older)" >&2; exit 1; }
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
stamp=.venv/.cardroom-installed
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -e '.[test]'
  touch "$stamp"
fi
# Made when missing or older than the sources (engine/_compiled.py loads it only while it matches them); with
# no compiler, or a failed compile, it says so in a line and the pure-Python engine runs.
if [ "${CARDROOM_COMPILE:-1}" != 0 ]; then
  .venv/bin/python scripts/build_engine.py --quiet || true
fi
