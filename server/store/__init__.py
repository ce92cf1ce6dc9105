"""Storage: the Redis store and its group commit, leases and fencing, Redis health, an embedded redis-server."""
# first: ``import engine`` puts the compiled build's importer in place (engine/_compiled.py), so that the Redis
# packer compiled with the engine (server/store/resp.py) loads from the build whatever a process imports first
import engine  # noqa: F401
