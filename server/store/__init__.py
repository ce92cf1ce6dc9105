"""Storage: the Redis store and its group commit, leases and fencing, Redis health, an embedded redis-server."""
