"""Group commit: the decisions of many rooms that reach the store in one event-loop tick go to Redis in one
pipelined round trip; each gets its own result (a stale one fails alone), as if sent by itself."""
from __future__ import annotations

import asyncio
from typing import Any

import redis.asyncio as aioredis
from redis.commands.core import AsyncScript
from redis.exceptions import NoScriptError

from server.ops import metrics

__all__ = ["Group"]


class Group:
    """Calls of one Lua script, gathered per loop tick and pipelined (EVALSHA, not in a transaction: each
    script is atomic by itself and the calls are independent)."""

    def __init__(self, redis: aioredis.Redis, script: AsyncScript) -> None:
        self.redis = redis
        self.script = script
        self.pending: list[tuple[list[Any], list[Any], asyncio.Future[Any]]] = []
        self.sending: set[asyncio.Task[None]] = set()

    async def __call__(self, keys: list[Any], args: list[Any]) -> Any:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        if not self.pending:
            loop.call_soon(self._flush)
        self.pending.append((keys, args, future))
        return await future

    def _flush(self) -> None:
        batch, self.pending = self.pending, []
        task = asyncio.get_running_loop().create_task(self._send(batch))
        self.sending.add(task)
        task.add_done_callback(self.sending.discard)

    async def _send(self, batch: list[tuple[list[Any], list[Any], asyncio.Future[Any]]]) -> None:
        metrics.COMMIT_BATCH.observe(len(batch))
        try:
            results = await self._pipelined(batch)
            if any(isinstance(r, NoScriptError) for r in results):  # Redis restarted or flushed its scripts
                await self.redis.script_load(self.script.script)
                again = [call for call, r in zip(batch, results, strict=True) if isinstance(r, NoScriptError)]
                redone = iter(await self._pipelined(again))  # those did not run: sending them again is safe
                results = [next(redone) if isinstance(r, NoScriptError) else r for r in results]
        except Exception as exc:  # the round trip failed: whether each landed is for its room to find out
            for _, _, future in batch:
                if not future.done():
                    future.set_exception(exc)
            return
        for (_, _, future), result in zip(batch, results, strict=True):
            if future.done():
                continue
            if isinstance(result, Exception):
                future.set_exception(result)
            else:
                future.set_result(result)

    async def _pipelined(self, batch: list[tuple[list[Any], list[Any], asyncio.Future[Any]]]) -> list[Any]:
        async with self.redis.pipeline(transaction=False) as pipe:
            for keys, args, _ in batch:
                pipe.evalsha(self.script.sha, len(keys), *keys, *args)
            results: list[Any] = await pipe.execute(raise_on_error=False)
        return results
