"""Group commit: one batch of commits in flight per store, the commits that arrive meanwhile queued behind it and
sent together as the next batch, so batches grow with the load; each gets its own result (a stale one fails
alone), as if sent by itself.

A batch is packed once (redis-py's packer, hiredis' C one when installed) and written on a connection kept
for commits, and its replies read back in order: no pipeline object per batch. Every call is a Lua script
call (EVALSHA, not in a transaction: each script is atomic by itself and the calls are independent).
"""
from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import redis.asyncio as aioredis
from redis.asyncio.connection import AbstractConnection
from redis.commands.core import AsyncScript
from redis.exceptions import NoScriptError, ResponseError

from server.ops import metrics

__all__ = ["REPLY_TIMEOUT", "Group"]

REPLY_TIMEOUT = 10.0
"""Seconds to wait for a batch's replies: past that, each commit's room asks Redis whether it landed."""

Call = tuple[list[Any], list[Any], "asyncio.Future[Any]"]


class Group:
    """Calls of one Lua script, batched while the batch before is in flight."""

    def __init__(self, redis: aioredis.Redis, script: AsyncScript) -> None:
        self.redis = redis
        self.script = script
        self.pending: list[Call] = []
        self.flying: asyncio.Task[None] | None = None
        self.conn: AbstractConnection | None = None

    async def __call__(self, keys: list[Any], args: list[Any]) -> Any:
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.pending.append((keys, args, future))
        if self.flying is None:
            self.flying = asyncio.get_running_loop().create_task(self._drain())
        return await future

    async def _drain(self) -> None:
        """Send what is pending, one batch at a time, until nothing is."""
        try:
            await asyncio.sleep(0)  # the other commits of this loop tick join the first batch
            while self.pending:
                batch, self.pending = self.pending, []
                await self._send(batch)
        finally:
            self.flying = None

    async def _send(self, batch: list[Call]) -> None:
        metrics.COMMIT_BATCH.observe(len(batch))
        try:
            results = await self._round_trip(batch)
            if any(isinstance(r, NoScriptError) for r in results):  # Redis restarted or flushed its scripts
                await self.redis.script_load(self.script.script)
                again = [call for call, r in zip(batch, results, strict=True) if isinstance(r, NoScriptError)]
                redone = iter(await self._round_trip(again))  # those did not run: sending them again is safe
                results = [next(redone) if isinstance(r, NoScriptError) else r for r in results]
        except (Exception, asyncio.CancelledError) as exc:  # whether each landed is for its room to find out
            if self.conn is not None:
                with contextlib.suppress(Exception):
                    await self.conn.disconnect()
            for _, _, future in batch:
                if not future.done():
                    future.set_exception(exc if isinstance(exc, Exception) else ConnectionError("commit cancelled"))
            if isinstance(exc, asyncio.CancelledError):
                raise
            return
        for (_, _, future), result in zip(batch, results, strict=True):
            if future.done():
                continue
            if isinstance(result, Exception):
                future.set_exception(result)
            else:
                future.set_result(result)

    async def _round_trip(self, batch: list[Call]) -> list[Any]:
        """One write of the whole batch, then its replies in order (an error reply is that call's result)."""
        if self.conn is None:
            self.conn = await self.redis.connection_pool.get_connection()  # type: ignore[no-untyped-call]  # kept for commits
        conn = self.conn
        await conn.connect()
        sha = self.script.sha
        await conn.send_packed_command(conn.pack_commands(
            ("EVALSHA", sha, len(keys), *keys, *args) for keys, args, _ in batch), check_health=False)
        results: list[Any] = []
        async with asyncio.timeout(REPLY_TIMEOUT):
            for _ in batch:
                try:
                    results.append(await conn.read_response())
                except ResponseError as exc:
                    results.append(exc)
        return results

    async def close(self) -> None:
        """Close the commit connection and give it back to the pool."""
        if self.conn is not None:
            conn, self.conn = self.conn, None
            with contextlib.suppress(Exception):
                await conn.disconnect()
                await self.redis.connection_pool.release(conn)
