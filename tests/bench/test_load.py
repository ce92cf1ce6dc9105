"""The load benchmark on a Redis Cluster it starts itself: decisions are made, the Redis CPU is summed over the six
redis-server processes and shown per primary, and everything it started is stopped, also when the run fails."""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from bench.load import main, parse, spawned


def _gone(pid: int) -> bool:
    """No process ``pid`` any more (the bench's children are waited for, so none is left a zombie)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


@pytest.mark.parametrize("argv", [
    ["--cluster"],
    ["--url", "ws://127.0.0.1:8765", "--cluster"],
    ["--spawn", "--min-replicas-acked", "1"],
    ["--spawn", "--cluster", "--min-replicas-acked", "2"],
    ["--spawn", "--cluster", "--redis-server", "/usr/bin/redis-server"],
])
def test_the_cluster_options_go_with_a_spawned_cluster(argv: list[str]) -> None:
    with pytest.raises(SystemExit):
        parse(argv)


@pytest.mark.slow
def test_the_load_bench_plays_on_a_cluster_it_starts(redis_cluster_binaries: None,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 22: ``--spawn --cluster --nodes 2`` makes decisions and prints Redis's CPU over all six processes."""
    assert main(["--spawn", "--cluster", "--nodes", "2", "--matches", "2", "--duration", "3"]) == 0
    out = capsys.readouterr().out
    found = re.search(r"^  decisions +(\d+)$", out, re.MULTILINE)
    assert found and int(found.group(1)) > 0, out
    assert re.search(r"^  redis CPU +\d+ µs/decision .*\(all 6 redis-server processes\)$", out, re.MULTILINE), out
    assert re.search(r"^  per primary +\d+ / \d+ / \d+ µs/decision", out, re.MULTILINE), out
    assert re.search(r"^  relayed frames +\d+ of \d+", out, re.MULTILINE), out


@pytest.mark.slow
def test_what_the_bench_started_is_stopped_when_the_run_fails(redis_cluster_binaries: None) -> None:
    """An error inside the run stops the nodes and all six redis-server processes and removes their files."""
    with pytest.raises(RuntimeError), spawned("always", 1, cluster=True) as run:
        pids = run.server_pids + [pid for _, pid in run.redis]
        files = Path(os.readlink(f"/proc/{run.redis[0][1]}/cwd")).parents[1]  # a redis-server runs in its data dir
        assert sorted(role for role, _ in run.redis) == ["primary"] * 3 + ["replica"] * 3
        raise RuntimeError("the run failed")
    assert all(_gone(pid) for pid in pids)
    assert not files.exists()
