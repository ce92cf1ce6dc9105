"""The ``cardroom`` command: ``serve`` the server, ``play`` in the terminal, ``web`` in a browser."""
from __future__ import annotations

import argparse
import os
import sys

__all__ = ["main", "parser"]


def parser() -> argparse.ArgumentParser:
    """The command line's parser: every subcommand and its options (the compose file's commands are checked
    against it, tests/test_image.py)."""
    cli = argparse.ArgumentParser(prog="cardroom", description="An authoritative online card-game server.")
    sub = cli.add_subparsers(dest="command", required=True)

    serve = sub.add_parser("serve", help="run the server")
    serve.add_argument("--host", default=os.environ.get("CARDROOM_HOST", "127.0.0.1"))
    serve.add_argument("--port", type=int, default=int(os.environ.get("CARDROOM_PORT", "8765")))
    serve.add_argument("--redis-url", default=os.environ.get("CARDROOM_REDIS_URL"),
                       help="use this Redis instead of starting the embedded one (env CARDROOM_REDIS_URL); "
                            "redis+cluster://HOST:PORT for a Redis Cluster")
    serve.add_argument("--data-dir", default=os.environ.get("CARDROOM_DATA_DIR", ".data"),
                       help="where the embedded Redis keeps its append-only file (env CARDROOM_DATA_DIR)")
    serve.add_argument("--max-per-address", type=int, default=int(os.environ.get("CARDROOM_MAX_PER_ADDRESS", "64")),
                       help="open connections one IP address may hold (env CARDROOM_MAX_PER_ADDRESS)")
    serve.add_argument("--origin", action="append", dest="origins", metavar="URL",
                       help="a web origin (https://cards.example) whose pages may connect, repeatable; connections "
                            "without an Origin header (not from a browser) are always accepted (env CARDROOM_ORIGINS)")
    serve.add_argument("--allow-plain", action="store_true", default=None,
                       help="serve plain ws:// on a non-loopback address: TLS is terminated by a reverse proxy in "
                            "front (env CARDROOM_ALLOW_PLAIN=1)")
    serve.add_argument("--trusted-proxy", action="append", dest="trusted_proxies", metavar="ADDR",
                       help="a proxy address or network (10.0.0.5, 10.0.0.0/24) whose PROXY protocol header (v1 or v2) "
                            "or X-Forwarded-For header names the client, repeatable; from any other peer both are "
                            "ignored (env CARDROOM_TRUSTED_PROXIES, comma-separated)")
    serve.add_argument("--node-id", default=os.environ.get("CARDROOM_NODE_ID", ""),
                       help="this node's name among several on one Redis (env CARDROOM_NODE_ID; default: host name and "
                            "port)")
    serve.add_argument("--min-replicas-acked", type=int, dest="replicas",
                       default=int(os.environ.get("CARDROOM_MIN_REPLICAS_ACKED", "0")),
                       help="acknowledge a decision only once this many replicas of its Redis primary confirm it "
                            "(WAIT); else it is answered unavailable (env CARDROOM_MIN_REPLICAS_ACKED; default 0)")
    serve.add_argument("--bots", type=int, default=int(os.environ.get("CARDROOM_BOTS", "0")),
                       help="keep this many bot-hosted rooms waiting in the lobby (env CARDROOM_BOTS)")
    serve.add_argument("--bot-level", choices=["random", "strong"], default="strong", help="the level of those bots")

    robot = sub.add_parser("bot", help="a bot that joins a room, or hosts rooms, and plays from its own view only")
    robot.add_argument("--url", default=os.environ.get("CARDROOM_URL", "ws://127.0.0.1:8765"))
    robot.add_argument("--game", default="creature_wars",
                       choices=["creature_wars", "fairy_meat", "fairy_tableau", "queens_challenge"])
    robot.add_argument("--level", choices=["random", "strong"], default="strong")
    where = robot.add_mutually_exclusive_group(required=True)
    where.add_argument("--room", help="join this room and play its match")
    where.add_argument("--host", action="store_true", help="open rooms and play whoever sits, one after another")
    robot.add_argument("--matches", type=int, default=None, help="with --host: stop after this many matches")

    play = sub.add_parser("play", help="play or spectate in the terminal")
    play.add_argument("--url", default=os.environ.get("CARDROOM_URL", "ws://127.0.0.1:8765"))
    play.add_argument("--name", default=None,
                      help="your name (default: the last one used, else $USER); bound to your player key on first use")
    play.add_argument("--state-dir", default=None,
                      help="where your player key and seat tokens are kept (env CARDROOM_STATE_DIR; "
                           "default: the user state directory)")
    play.add_argument("--guest", action="store_true", help="keep no identity: no player key, seats held in memory only")
    invited = play.add_mutually_exclusive_group()
    invited.add_argument("--join", metavar="ROOM", default=None, help="sit in this room as soon as connected (an invitation)")
    invited.add_argument("--spectate", metavar="ROOM", default=None, help="watch this room as soon as connected")

    web = sub.add_parser("web", help="serve the terminal client to browsers (textual-serve)")
    web.add_argument("--host", default=os.environ.get("CARDROOM_WEB_HOST", "127.0.0.1"))
    web.add_argument("--port", type=int, default=int(os.environ.get("CARDROOM_WEB_PORT", "8000")))
    web.add_argument("--url", default=os.environ.get("CARDROOM_URL", "ws://127.0.0.1:8765"),
                     help="the game server the browser sessions connect to (env CARDROOM_URL)")
    web.add_argument("--public-url", default=os.environ.get("CARDROOM_PUBLIC_URL"),
                     help="the address browsers reach this page at, behind a reverse proxy (env CARDROOM_PUBLIC_URL)")
    web.add_argument("--name", default="guest", help="the player name of browser sessions")

    scores = sub.add_parser("scores", help="show a solitaire's high-score table")
    scores.add_argument("game", nargs="?", default=None, help="fairy_tableau or queens_challenge (default: both)")
    scores.add_argument("--url", default=os.environ.get("CARDROOM_URL", "ws://127.0.0.1:8765"))
    scores.add_argument("--daily", action="store_true", help="today's table (the daily seed) instead of all time")
    scores.add_argument("--limit", type=int, default=10)

    export = sub.add_parser("export", help="print a finished match's record as JSON")
    export.add_argument("room")
    export.add_argument("--url", default=os.environ.get("CARDROOM_URL", "ws://127.0.0.1:8765"))

    check = sub.add_parser("verify", help="check a finished match: seed chain (commitment, nonces), every decision replayed")
    check.add_argument("source", help="a record file from `cardroom export` (- for stdin), or a room id with --url")
    check.add_argument("--url", default=None, help="fetch the record of room SOURCE from this server")

    viewer = sub.add_parser("replay", help="step through a finished match in the terminal (the replay viewer)")
    viewer.add_argument("source", help="a record file from `cardroom export` (- for stdin), or a room id with --url")
    viewer.add_argument("--url", default=None, help="fetch the record of room SOURCE from this server")
    viewer.add_argument("--state-dir", default=None, help="where your player key and seat tokens are kept")

    operator = sub.add_parser("admin", help="operator requests: rooms, show ROOM, close ROOM, kick ROOM SEAT")
    operator.add_argument("op", choices=["rooms", "show", "close", "kick"])
    operator.add_argument("room", nargs="?")
    operator.add_argument("seat", nargs="?", type=int)
    operator.add_argument("--url", default=os.environ.get("CARDROOM_URL", "ws://127.0.0.1:8765"))
    operator.add_argument("--secret-file", help="a file holding the admin secret (else env CARDROOM_ADMIN_SECRET)")

    rating = sub.add_parser("ratings", help="a two-player game's rating table (rated rooms)")
    rating.add_argument("game", help="creature_wars or fairy_meat")
    rating.add_argument("--url", default=os.environ.get("CARDROOM_URL", "ws://127.0.0.1:8765"))
    rating.add_argument("--limit", type=int, default=20)

    past = sub.add_parser("history", help="a player's last matches (their rooms can be exported)")
    past.add_argument("player", help="the player id (`welcome` says yours)")
    past.add_argument("--url", default=os.environ.get("CARDROOM_URL", "ws://127.0.0.1:8765"))
    past.add_argument("--limit", type=int, default=20)

    events = sub.add_parser("event", help="tournaments and solitaire events: list, create, show, start, register, "
                                           "unregister, drop, follow")
    events.add_argument("action", choices=["list", "create", "show", "start", "register", "unregister", "drop", "follow"])
    events.add_argument("target", nargs="?", help="the event (or, for create, the game)")
    events.add_argument("--url", default=os.environ.get("CARDROOM_URL", "ws://127.0.0.1:8765"))
    events.add_argument("--name", default=None, help="your name (default: the last one played under, else $USER)")
    events.add_argument("--state-dir", default=None, help="where your player key is kept (events know players by key)")
    events.add_argument("--game", default=None, help="list: only this game's events")
    events.add_argument("--status", default=None, choices=["upcoming", "running", "finished", "cancelled"])
    events.add_argument("--title", default=None)
    events.add_argument("--rounds", type=int, default=None, help="create: a Swiss event's rounds (default 3)")
    events.add_argument("--start-in", type=int, default=None, metavar="SECONDS",
                        help="create: start this long from now (a Swiss event without it starts with `event start`)")
    events.add_argument("--lasts", type=int, default=None, metavar="SECONDS", help="create: a solitaire event's window")
    events.add_argument("--clock", default=None, metavar="MOVE,BANK,INCREMENT", help="create: the tables' clock")
    events.add_argument("--invite", action="append", default=None, metavar="NAME", help="create: invite-only, repeatable")
    events.add_argument("--rated", action="store_true", help="create: the tables are rated rooms")
    return cli


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.command == "event":
        import asyncio
        import time

        from client.events import event_command
        from client.identity import IdentityStore
        from client.link import address_of

        store = IdentityStore(args.state_dir)
        who = args.name or store.name() or os.environ.get("USER", "player")
        fields: dict[str, object] = {}
        if args.action == "list":
            fields = {k: v for k, v in (("game", args.game), ("status", args.status)) if v is not None}
        elif args.action == "create":
            if args.target is None:
                print("cardroom event create: name the game (creature_wars, fairy_meat, fairy_tableau, "
                      "queens_challenge)", file=sys.stderr)
                return 2
            clock = None
            if args.clock is not None:
                try:
                    move, bank, increment = (int(x) for x in args.clock.split(","))
                except ValueError:
                    print("cardroom event create: --clock is MOVE,BANK,INCREMENT in seconds", file=sys.stderr)
                    return 2
                clock = {"move": move, "bank": bank, "increment": increment}
            start = None if args.start_in is None else int(time.time()) + args.start_in
            fields = {"game": args.target, "title": args.title, "rounds": args.rounds, "start": start,
                      "lasts": args.lasts, "clock": clock, "invite": args.invite, "rated": True if args.rated else None}
        elif args.target is None:
            print(f"cardroom event {args.action}: name the event", file=sys.stderr)
            return 2
        return asyncio.run(event_command(args.url, args.action, args.target, name=who,
                                         key=store.key(address_of(args.url)), fields=fields))
    if args.command in ("ratings", "history"):
        import asyncio

        from client.standings import history_command, ratings_command

        if args.command == "ratings":
            return asyncio.run(ratings_command(args.url, args.game, args.limit))
        return asyncio.run(history_command(args.url, args.player, args.limit))
    if args.command == "bot":
        import asyncio

        from bots.command import bot_command

        return asyncio.run(bot_command(args.url, args.game, args.level, args.room, args.host, args.matches))
    if args.command == "replay":
        from client.viewer import replay_command

        return replay_command(args.source, args.url, args.state_dir)
    if args.command == "admin":
        import asyncio

        from client.admin import admin_command, read_secret

        return asyncio.run(admin_command(args.url, args.op, args.room, args.seat, read_secret(args.secret_file)))
    if args.command in ("export", "verify"):
        import asyncio

        from client.records import export_command, verify_command

        if args.command == "export":
            return asyncio.run(export_command(args.url, args.room))
        return asyncio.run(verify_command(args.source, args.url))
    if args.command == "scores":
        import asyncio

        from client.scores import show_scores

        return asyncio.run(show_scores(args.url, args.game, daily=args.daily, limit=args.limit))
    if args.command == "web":
        from client.web import serve_web

        serve_web(host=args.host, port=args.port, server_url=args.url, public_url=args.public_url, name=args.name)
        return 0
    if args.command == "serve":
        from bots.command import companions
        from server.edge.app import serve_forever
        from server.edge.exposure import PlainRefused, allow_plain_default, origins_default
        from server.edge.forwarded import trusted_from_env

        try:
            trusted = [str(n) for n in trusted_from_env(args.trusted_proxies).networks]
        except ValueError as exc:
            print(f"cardroom serve: {exc}", file=sys.stderr)
            return 2
        try:
            serve_forever(host=args.host, port=args.port, redis_url=args.redis_url, data_dir=args.data_dir,
                          per_address=args.max_per_address,
                          origins=args.origins if args.origins is not None else origins_default(),
                          allow_plain=args.allow_plain if args.allow_plain is not None else allow_plain_default(),
                          companions=companions(args.bots, args.bot_level), node=args.node_id,
                          trusted_proxies=trusted, replicas=args.replicas)
        except PlainRefused as exc:
            print(exc, file=sys.stderr)
            return 2
        return 0
    from client.app import CardroomApp
    from client.identity import IdentityStore

    name = args.name or ("" if args.guest else IdentityStore(args.state_dir).name()) or os.environ.get("USER", "player")
    CardroomApp(url=args.url, name=name, state_dir=args.state_dir, guest=args.guest, join=args.join,
                spectate=args.spectate).run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
