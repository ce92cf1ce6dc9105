# Sourced by scripts/serve and scripts/test: make .venv with this project installed, if not done yet, and
# compile the engine core with mypyc when a C compiler is there (CARDROOM_COMPILE=0 skips that).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PY="${PYTHON:-python3}"
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
