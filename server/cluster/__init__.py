"""Several nodes on one Redis: requests relayed to the node that owns a room, the lobby across nodes, the pub/sub
channel both follow."""
