"""A closed connection is freed as soon as its session ends: nothing of it waits for the cyclic collector."""
from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Iterator

import pytest

from client import Client
from server.edge.connection import Connection
from server.edge.session import Session


@pytest.fixture
def no_cyclic_collector() -> Iterator[None]:
    """Only reference counts free objects while the test runs (the collector as it was afterwards)."""
    was = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


async def test_a_closed_connection_frees_its_session_and_connection_by_reference_counts(
        server_url: str, no_cyclic_collector: None) -> None:
    older = [o for o in gc.get_objects() if isinstance(o, Session | Connection)]  # held: no new one takes their ids
    before = {id(o) for o in older}
    client = await Client.connect(server_url)
    await client.request("list_rooms")
    made = [o for o in gc.get_objects() if isinstance(o, Session | Connection) and id(o) not in before]
    assert {type(o) for o in made} == {Session, Connection}
    kept = [weakref.ref(o) for o in made]
    del made, older
    await client.close()
    for _ in range(100):  # the server's side ends a moment after the client's
        if all(ref() is None for ref in kept):
            break
        await asyncio.sleep(0.02)
    assert [ref() for ref in kept] == [None, None]
