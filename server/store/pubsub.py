"""Publishing on a channel and subscribing to one, on one Redis (plain pub/sub) or a Redis Cluster (sharded
pub/sub: ``SPUBLISH`` reaches the subscribers of the primary serving the channel's slot, not every node)."""
from __future__ import annotations

from typing import Any

import redis.asyncio as aioredis
from redis.asyncio.client import PubSub
from redis.asyncio.cluster import RedisCluster

__all__ = ["KINDS", "publish", "refresh", "subscribe"]

KINDS = {"subscribe": "message", "ssubscribe": "smessage"}
"""A subscription's confirmation and its messages' types, plain and sharded."""
_PASSED = ("username", "password", "ssl", "socket_timeout", "socket_connect_timeout")


async def _as_is(response: Any) -> Any:
    """A message as it came: handed to redis-py in place of its own handler, which formats every message for a
    debug log (``str`` of the whole message, even with that log off): a node's directory and relay messages."""
    return response


def publish(redis: aioredis.Redis | RedisCluster, target: Any, channel: str, data: bytes) -> Any:
    """Publish ``data`` on ``channel`` through ``target`` (``redis`` or a pipeline of it)."""
    return target.spublish(channel, data) if isinstance(redis, RedisCluster) else target.publish(channel, data)


async def subscribe(redis: aioredis.Redis | RedisCluster, channel: str) -> tuple[PubSub, aioredis.Redis | None, str]:
    """A subscription to ``channel`` (its confirmation still to read), the client made for it on a cluster (to
    close with it), and the confirmation's type. On a cluster: a connection to the primary serving the channel."""
    if not isinstance(redis, RedisCluster):
        pubsub = redis.pubsub(push_handler_func=_as_is)
        await pubsub.subscribe(channel)
        return pubsub, None, "subscribe"
    node = redis.get_node_from_key(channel)
    if node is None:
        raise ConnectionError(f"no primary serves the slot of {channel}")
    passed = {k: v for k, v in node.connection_kwargs.items() if k in _PASSED}
    client = aioredis.Redis(**{**passed, "host": node.host, "port": int(node.port)})
    pubsub = client.pubsub(push_handler_func=_as_is)
    await pubsub.ssubscribe(channel)
    return pubsub, client, "ssubscribe"


async def refresh(redis: aioredis.Redis | RedisCluster) -> None:
    """After a broken subscription: on a cluster, learn again which primary serves which slot (a failover)."""
    if isinstance(redis, RedisCluster):
        await redis.nodes_manager.initialize()
