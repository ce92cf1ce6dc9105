"""A room's lock (server/rooms/lock.py): one holder at a time, first come first served, and a waiter cancelled
before or as its turn comes leaves no one holding it for good."""
from __future__ import annotations

import asyncio

import pytest

from server.rooms.lock import RoomLock


async def test_holders_take_turns_in_the_order_they_came() -> None:
    lock = RoomLock()
    order: list[int] = []
    inside = 0

    async def hold(n: int) -> None:
        nonlocal inside
        async with lock:
            inside += 1
            assert inside == 1, "two held the lock at once"
            order.append(n)
            await asyncio.sleep(0)
            inside -= 1

    await asyncio.gather(*(hold(n) for n in range(6)))
    assert order == list(range(6))
    assert not lock.locked()
    async with lock:  # free again: taken at once
        assert lock.locked()


async def test_take_holds_a_free_lock_at_once_and_wait_keeps_the_line_with_async_with() -> None:
    """``take`` (the decision path's, with no coroutine made) holds a free lock and refuses a held one; ``wait`` then
    waits in the same line as ``async with``, handed the lock in turn."""
    lock = RoomLock()
    order: list[str] = []
    assert lock.take() and lock.locked()
    assert not lock.take()

    async def hold(name: str) -> None:
        async with lock:
            order.append(name)

    async def wait(name: str) -> None:
        await lock.wait()
        order.append(name)
        lock.release()

    waiters = [asyncio.ensure_future(hold("first")), asyncio.ensure_future(wait("second")),
               asyncio.ensure_future(hold("third"))]
    await asyncio.sleep(0)
    assert order == []
    lock.release()
    await asyncio.gather(*waiters)
    assert order == ["first", "second", "third"] and not lock.locked()
    await lock.wait()  # free: taken at once
    assert lock.locked()


async def test_a_newcomer_does_not_pass_a_waiter_the_lock_was_handed_to() -> None:
    lock = RoomLock()
    order: list[str] = []

    async def hold(name: str) -> None:
        async with lock:
            order.append(name)

    await lock.__aenter__()
    waiter = asyncio.ensure_future(hold("waiter"))
    await asyncio.sleep(0)
    lock.release()  # handed to the waiter, which has not run yet
    await hold("newcomer")
    await waiter
    assert order == ["waiter", "newcomer"]


async def test_a_waiter_cancelled_before_its_turn_leaves_the_line() -> None:
    lock = RoomLock()
    await lock.__aenter__()
    cancelled = asyncio.ensure_future(lock.__aenter__())
    after = asyncio.ensure_future(lock.__aenter__())
    await asyncio.sleep(0)
    cancelled.cancel()
    with pytest.raises(asyncio.CancelledError):
        await cancelled
    lock.release()
    await asyncio.wait_for(after, 1)
    assert lock.locked()
    lock.release()
    assert not lock.locked() and not lock.waiters


async def test_a_waiter_cancelled_as_its_turn_came_passes_the_lock_on() -> None:
    lock = RoomLock()
    await lock.__aenter__()
    handed = asyncio.ensure_future(lock.__aenter__())
    after = asyncio.ensure_future(lock.__aenter__())
    await asyncio.sleep(0)
    lock.release()  # the lock is the first waiter's ...
    handed.cancel()  # ... which is cancelled before it runs
    with pytest.raises(asyncio.CancelledError):
        await handed
    await asyncio.wait_for(after, 1)  # the next one has it
    lock.release()
    assert not lock.locked()
