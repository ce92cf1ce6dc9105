"""The echo bench's ``--decision`` floor: each request committed through the server's store to a redis-server it
spawns, and a push sent to the paired connection, with Redis's CPU printed."""
from __future__ import annotations

import re

import pytest

from bench.echo import main, parse


def test_the_decision_floor_spawns_its_own_servers() -> None:
    with pytest.raises(SystemExit):
        parse(["--url", "ws://127.0.0.1:8765", "--decision"])


@pytest.mark.parametrize("sends", [["--queued"], []])
def test_each_request_is_committed_and_pushed_to_its_pair(sends: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """Four connections, two pairs: every request is stored (a refused commit would end its connection, which the
    bench counts as an error) and answered; the pairs' pushes come back as frames the client only queues."""
    # paced: unpaced, the bench would take both cores for its second, from the tests running beside it
    assert main(["--conns", "4", "--duration", "1", "--rate", "50", "--reply-bytes", "600", "--decision", *sends]) == 0
    out = capsys.readouterr().out
    found = re.search(r"^  round trips +(\d+)$", out, re.MULTILINE)
    assert found and int(found.group(1)) > 0, out
    assert "errors" not in out, out
    assert "each request committed and pushed to its pair" in out, out
    assert re.search(r"^  redis CPU +\d+ µs/round trip", out, re.MULTILINE), out
    pushes = re.search(r"^  pushes +(\d+) received", out, re.MULTILINE)
    assert pushes and int(pushes.group(1)) > 0, out
