"""docs/protocol.md names every client message, server message and error code the code has."""
from __future__ import annotations

from pathlib import Path

import pytest

from protocol import CLIENT_MESSAGES, SERVER_MESSAGES, ErrorCode

DOC = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("kind", sorted(CLIENT_MESSAGES))
def test_every_client_message_has_a_row(kind: str) -> None:
    assert f"\n| `{kind}` |" in DOC


@pytest.mark.parametrize("kind", sorted(SERVER_MESSAGES))
def test_every_server_message_has_a_row(kind: str) -> None:
    assert f"\n| `{kind}` |" in DOC


@pytest.mark.parametrize("code", sorted(c.value for c in ErrorCode))
def test_every_error_code_has_a_row(code: str) -> None:
    assert f"\n| `{code}` |" in DOC


@pytest.mark.parametrize(("kind", "field"), [(k, f.name) for k, fields in CLIENT_MESSAGES.items() for f in fields])
def test_every_client_field_is_named(kind: str, field: str) -> None:
    assert f"`{field}`" in DOC
