"""Finding, creating, loading and retiring rooms: the lobby, its listing, quotas, expiry, retried requests,
rematches, match records."""
