"""The Redis packer of server/store/resp.py writes every command as hiredis' ``pack_command`` does, refuses what
it refuses, and is the one the links use where it runs compiled (in whichever build this process runs)."""
from __future__ import annotations

import os
import random
from typing import Any

import hiredis
import pytest

from engine import _compiled
from server.store import link, resp


def hiredis_pack(commands: list[tuple[Any, ...]]) -> bytes:
    return b"".join(hiredis.pack_command(command) for command in commands)


def test_every_kind_of_argument_is_written_as_hiredis_writes_it() -> None:
    commands: list[tuple[Any, ...]] = [
        ("PING",),
        ("SET", "k", b"", "", 0, -1, 1023, 1024, -1024, 2**63 - 1, -(2**63), 10**30),
        ("HSET", "cardroom:{r\u00e9}:room", "n\u00f6m", "\U0001f0a1", 1.5, -0.0, 1e300, 12345.678, float("inf")),
        ("EVALSHA", "a" * 40, 1, b"k", memoryview(b"view"), b"\x00\r\n\xff" * 10),
        ("RPUSH", "log", os.urandom(1023), os.urandom(1024), os.urandom(70_000)),
        tuple(str(n) for n in range(1100)),  # more arguments than the counts written at import
    ]
    assert resp.pack(commands) == hiredis_pack(commands)
    assert resp.pack([]) == b""


def test_random_commit_batches_are_written_as_hiredis_writes_them() -> None:
    rng = random.Random(7)
    for _ in range(200):
        commands = []
        for _ in range(rng.randint(1, 4)):
            args: list[Any] = ["EVALSHA", "f" * 40, rng.randint(0, 40)]
            for _ in range(rng.randint(0, 300)):
                kind = rng.randrange(4)
                args.append(rng.randbytes(rng.choice([0, 1, 16, 300, 2000])) if kind == 0 else
                            rng.randint(-(2**40), 2**40) if kind == 1 else
                            rng.randint(0, 2000) if kind == 2 else f"cardroom:{{{rng.random()}}}:log")
            commands.append(tuple(args))
        assert resp.pack(commands) == hiredis_pack(commands)


@pytest.mark.parametrize("bad", [True, None, bytearray(b"x"), [b"x"], object()])
def test_what_hiredis_refuses_is_refused(bad: Any) -> None:
    with pytest.raises(TypeError):
        hiredis.pack_command(("SET", "k", bad))
    with pytest.raises(TypeError, match="str, int, float or bytes"):
        resp.pack([("SET", "k", bad)])


def test_a_str_that_is_not_unicode_text_is_refused_as_hiredis_refuses_it() -> None:
    with pytest.raises(UnicodeEncodeError):
        hiredis.pack_command(("SET", "k", "\ud800"))
    with pytest.raises(UnicodeEncodeError):
        resp.pack([("SET", "k", "\ud800")])


def test_the_links_pack_with_it_where_it_runs_compiled() -> None:
    assert resp.COMPILED == (_compiled.active() == "compiled")
    assert (link.pack is resp.pack) == resp.COMPILED
    assert link.pack([("GET", "k")]) == b"*2\r\n$3\r\nGET\r\n$1\r\nk\r\n"
