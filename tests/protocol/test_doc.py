"""docs/protocol.md names exactly the client messages, server messages, games and error codes the code has.

The doc's tables are parsed: the request tables (header ``| `t` | fields | reply |``), the server message
table (``| `t` | fields |``) and the error code table (``| code | sent when |``); each is checked both ways
against the code's own tables, so the doc can neither leave out what the server does nor name what it does not.
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine import registry
from engine.errors import ErrorCode as EngineErrorCode
from protocol import CLIENT_MESSAGES, SERVER_MESSAGES, ErrorCode

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
SOURCES = ("engine", "protocol", "server")
"""The packages whose code sends error codes (searched whole, however they are split into modules)."""

REQUESTS = "| `t` | fields | reply |"
SERVER = "| `t` | fields |"
ERRORS = "| code | sent when |"


def hosted_games() -> set[str]:
    """The games the server hosts: the registry ``create_room``, ``scores`` and ``ratings`` are checked against."""
    return set(registry.GAMES)


def sent_codes() -> set[str]:
    """Every error code the code names where it raises or sends one (``ErrorCode.NAME``)."""
    names: set[str] = set()
    for package in SOURCES:
        for path in sorted((ROOT / package).rglob("*.py")):
            names.update(re.findall(r"\bErrorCode\.([A-Z][A-Z_]*)\b", path.read_text(encoding="utf-8")))
    return {ErrorCode[name].value for name in names}


def tables(header: str) -> Iterator[list[str]]:
    """The cells of every row of every table of the doc whose header row is ``header``."""
    lines = DOC.splitlines()
    for n, line in enumerate(lines):
        if line.strip() != header:
            continue
        for row in lines[n + 2:]:
            if not row.startswith("|"):
                break
            yield [cell.strip() for cell in re.split(r"(?<!\\)\|", row.strip())[1:-1]]


def names(header: str) -> list[str]:
    """The first column of those tables, without its backquotes: the message types, or the error codes."""
    return [cells[0].strip("`") for cells in tables(header)]


def game_lists() -> dict[str, set[str]]:
    """Per request whose row lists the games its ``game`` field takes (``game`` str (`a`, `b`, ...)): those games."""
    found = {}
    for cells in tables(REQUESTS):
        listed = re.search(r"`game` str[^;(]*\(((?:`[a-z_]+`(?:, )?)+)", cells[1])
        if listed is not None:
            found[cells[0].strip("`")] = set(re.findall(r"`([a-z_]+)`", listed.group(1)))
    return found


def same(documented: list[str], actual: set[str], what: str) -> None:
    """``documented`` names each of ``actual`` once, and nothing else."""
    twice = sorted({name for name in documented if documented.count(name) > 1})
    assert not twice, f"{what} with two rows: {twice}"
    assert not actual - set(documented), f"{what} the doc leaves out: {sorted(actual - set(documented))}"
    assert not set(documented) - actual, f"{what} the doc names but the code does not have: " \
                                         f"{sorted(set(documented) - actual)}"


def test_the_tables_are_found() -> None:
    assert len(names(REQUESTS)) >= 10 and len(names(SERVER)) >= 10 and len(names(ERRORS)) >= 10


def test_the_request_tables_name_exactly_the_client_messages() -> None:
    same(names(REQUESTS), set(CLIENT_MESSAGES), "client messages")


def test_the_server_message_table_names_exactly_the_server_messages() -> None:
    same(names(SERVER), set(SERVER_MESSAGES), "server messages")


@pytest.mark.parametrize(("kind", "field"), [(k, f.name) for k, fields in CLIENT_MESSAGES.items() for f in fields])
def test_every_client_field_is_named(kind: str, field: str) -> None:
    assert f"`{field}`" in DOC


def test_create_room_lists_its_games() -> None:
    assert "create_room" in game_lists(), "the create_room row no longer lists the games its `game` takes"


@pytest.mark.parametrize("kind", sorted(game_lists()))
def test_every_listed_game_list_is_the_servers(kind: str) -> None:
    listed = game_lists()[kind]
    assert listed == hosted_games(), (f"{kind}: the doc lists {sorted(listed)}; the server hosts "
                                      f"{sorted(hosted_games())} (missing: {sorted(hosted_games() - listed)}, "
                                      f"unknown: {sorted(listed - hosted_games())})")


def test_the_error_table_names_exactly_the_error_codes() -> None:
    same(names(ERRORS), {code.value for code in ErrorCode}, "error codes")


def test_every_engine_error_code_is_a_protocol_error_code() -> None:
    """The server forwards the engine's codes unchanged (``ErrorCode(exc.code.value)``)."""
    assert {code.value for code in EngineErrorCode} <= {code.value for code in ErrorCode}


def test_every_error_code_is_sent_somewhere() -> None:
    unsent = {code.value for code in ErrorCode} - sent_codes()
    assert not unsent, f"error codes the doc lists but nothing sends: {sorted(unsent)}"
