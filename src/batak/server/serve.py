"""``batak serve``: run the server under uvicorn and print the address to open."""

from __future__ import annotations

import argparse
import gc
import logging
import os
import sys
from pathlib import Path

from .config import ServerConfig

__all__ = ["add_serve_parser", "config_from_args", "run", "run_serve"]


def add_serve_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``serve`` subcommand to the ``batak`` command's subparsers."""
    d = ServerConfig()
    p = sub.add_parser(
        "serve",
        help="run the online server: web client, lobby, tables, bots, storage",
        description="Run the Batak online server: the web client at http://HOST:PORT/, the "
        "websocket at ws://HOST:PORT/ws (protocol: docs/protocol.md), the lobby, tables with "
        "clocks and bots, and storage. By default everything is kept in an SQLite file in "
        "--data, so nothing else needs to be installed; --database postgresql://... uses "
        "PostgreSQL instead. Unfinished tables are resumed after a restart. All times are in "
        "seconds unless the option says otherwise.",
        epilog="Example: batak serve --host 0.0.0.0 --port 8000 --data ./batak-data "
        "--public-url https://batak.example.org",
    )
    g = p.add_argument_group("where it listens and what it keeps")
    g.add_argument(
        "--host",
        default=d.host,
        help=f"address to listen on (default {d.host}: this computer only; "
        "0.0.0.0 for every network interface)",
    )
    g.add_argument("--port", type=int, default=d.port, help=f"TCP port (default {d.port})")
    g.add_argument(
        "--data",
        default=str(d.data),
        metavar="DIR",
        help=f"folder for the SQLite database, created if missing (default ./{d.data})",
    )
    g.add_argument(
        "--database",
        default=None,
        metavar="URL",
        help="keep the data in PostgreSQL instead of SQLite: postgresql://USER:PASSWORD@HOST/DB "
        "(needs psycopg 3)",
    )
    g.add_argument(
        "--public-url",
        default=None,
        metavar="URL",
        help="the address players use to reach this server (e.g. behind a proxy: "
        "https://batak.example.org); used in invite links and for the websocket Origin check "
        "(default http://HOST:PORT)",
    )
    g.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="another web page origin (scheme://host[:port]) allowed to open websockets, "
        "besides the server's own address; repeatable; '*' allows any (not for public servers)",
    )
    c = p.add_argument_group("clocks (seconds)")
    c.add_argument(
        "--decision-seconds",
        type=float,
        default=d.decision_seconds,
        metavar="S",
        help=f"time for each bid, burial, trump choice or card (default {d.decision_seconds:g}); "
        "a private room may set its own",
    )
    c.add_argument(
        "--bank-seconds",
        type=float,
        default=d.bank_seconds,
        metavar="S",
        help=f"time bank per player per match, drawn when a decision's time runs out "
        f"(default {d.bank_seconds:g})",
    )
    c.add_argument(
        "--bank-step",
        type=float,
        default=d.bank_step,
        metavar="S",
        help=f"the bank is drawn in steps of this size (default {d.bank_step:g}); when it is "
        "empty the auction passes and other decisions are made by a bot",
    )
    c.add_argument(
        "--deal-pause",
        type=float,
        default=d.deal_pause,
        metavar="S",
        help=f"after a deal ends, the next deal's first decision gets this much more time and "
        f"bots wait as long, so that people can see how the deal ended (default "
        f"{d.deal_pause:g})",
    )
    c.add_argument(
        "--hold-seconds",
        type=float,
        default=d.hold_seconds,
        metavar="S",
        help=f"a disconnected player's seat is held this long before a bot plays it "
        f"(default {d.hold_seconds:g}); the player can take it back any time",
    )
    c.add_argument(
        "--quick-fill-seconds",
        type=float,
        default=d.quick_fill_seconds,
        metavar="S",
        help=f"quick play: bots fill the empty seats after this wait (default "
        f"{d.quick_fill_seconds:g})",
    )
    b = p.add_argument_group("bots")
    b.add_argument(
        "--bot-level",
        default=d.bot_level,
        metavar="LEVEL",
        help=f"the bots that sit in empty seats and play for absent players: easy, medium, hard "
        f"or random (default {d.bot_level}; an unknown level falls back to medium); a private "
        "room may choose its own",
    )
    b.add_argument(
        "--bot-delay",
        type=float,
        default=d.bot_delay,
        metavar="S",
        help=f"a bot waits this long before each move so that people can follow the play "
        f"(default {d.bot_delay:g}; 0 for tests)",
    )
    b.add_argument(
        "--hide-bots",
        action="store_true",
        help="on public tables, give bots people's names and do not label them (private rooms "
        "choose for themselves)",
    )
    r = p.add_argument_group("rooms nobody uses")
    r.add_argument(
        "--abandon-minutes",
        type=float,
        default=d.abandon_seconds / 60,
        metavar="MIN",
        help=f"a private room that never started, with nobody connected for this long, is "
        f"closed for good (default {d.abandon_seconds / 60:g})",
    )
    r.add_argument(
        "--adjourned-days",
        type=float,
        default=d.adjourned_unload_seconds / 86400,
        metavar="DAYS",
        help=f"an adjourned room (continue later) nobody visits for this long leaves memory; it "
        f"stays stored and comes back when asked for by code or id "
        f"(default {d.adjourned_unload_seconds / 86400:g})",
    )
    p.add_argument(
        "--log-level",
        default="warning",
        choices=["debug", "info", "warning", "error"],
        help="how much the server logs to the terminal (default warning)",
    )


def config_from_args(args: argparse.Namespace) -> ServerConfig:
    return ServerConfig(
        host=args.host,
        port=args.port,
        data=Path(args.data),
        database=args.database,
        decision_seconds=args.decision_seconds,
        bank_seconds=args.bank_seconds,
        bank_step=args.bank_step,
        hold_seconds=args.hold_seconds,
        quick_fill_seconds=args.quick_fill_seconds,
        bot_delay=args.bot_delay,
        deal_pause=args.deal_pause,
        bot_level=args.bot_level,
        hide_bots=args.hide_bots,
        allowed_origins=tuple(args.allow_origin),
        public_url=args.public_url,
        abandon_seconds=args.abandon_minutes * 60,
        adjourned_unload_seconds=args.adjourned_days * 86400,
    )


def run(config: ServerConfig, log_level: str = "warning") -> int:
    """Serve until interrupted."""
    try:
        import uvicorn
    except ImportError:  # pragma: no cover
        print("batak serve needs uvicorn and starlette: pip install batak", file=sys.stderr)
        return 2
    from .app import create_app

    logging.basicConfig(level=log_level.upper(), format="%(asctime)s %(name)s %(message)s")
    app = create_app(config)
    server = uvicorn.Server(
        uvicorn.Config(
            app,
            host=config.host,
            port=config.port,
            ws="websockets-sansio",
            ws_max_size=config.transport_max_bytes,
            ws_per_message_deflate=False,
            log_level=log_level,
            access_log=False,
            lifespan="on",
        )
    )
    tune_gc()
    where = config.database if config.database else os.fspath(Path(config.data).resolve())
    print(
        f"Batak server: open {config.base_url}/  "
        f"(websocket {config.base_url.replace('http', 'ws', 1)}/ws, data: {where})",
        flush=True,
    )
    server.run()
    return 0


def tune_gc() -> None:
    """Fewer, cheaper garbage collections for a long-running server with many tables: what was
    made at start-up is frozen out of the collector's sight, and the young generation is
    collected after 50,000 allocations instead of 700. A full collection of a heap holding
    thousands of connections otherwise stops every table for a few hundred milliseconds, often."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 100)


def run_serve(args: argparse.Namespace) -> int:
    """What ``batak serve`` does with its parsed arguments."""
    return run(config_from_args(args), args.log_level)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="batak")
    add_serve_parser(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["serve", *(argv if argv is not None else sys.argv[1:])])
    return run_serve(args)


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
