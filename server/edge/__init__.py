"""The network edge: the websocket server, each connection's session (decoding requests and answering them),
admission and per-address caps, the loopback rule, operator requests."""
