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
        help="run the online server (lobby, tables, bots) with an embedded database",
        description="Run the Batak online server. Data is kept in SQLite in --data unless "
        "--database names a PostgreSQL server.",
    )
    p.add_argument("--host", default=d.host, help=f"address to listen on (default {d.host})")
    p.add_argument("--port", type=int, default=d.port, help=f"port (default {d.port})")
    p.add_argument("--data", default=str(d.data), metavar="DIR", help="folder for the database")
    p.add_argument(
        "--database", default=None, metavar="URL", help="postgresql://… instead of SQLite"
    )
    p.add_argument("--decision-seconds", type=float, default=d.decision_seconds, metavar="S")
    p.add_argument("--bank-seconds", type=float, default=d.bank_seconds, metavar="S")
    p.add_argument("--bank-step", type=float, default=d.bank_step, metavar="S")
    p.add_argument("--hold-seconds", type=float, default=d.hold_seconds, metavar="S")
    p.add_argument("--quick-fill-seconds", type=float, default=d.quick_fill_seconds, metavar="S")
    p.add_argument("--bot-delay", type=float, default=d.bot_delay, metavar="S")
    p.add_argument("--bot-level", default=d.bot_level, metavar="LEVEL")
    p.add_argument(
        "--hide-bots",
        action="store_true",
        help="on public tables, give bots people's names and do not label them (private rooms"
        " choose for themselves)",
    )
    p.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="a web page origin allowed to open websockets (repeatable; '*' for any)",
    )
    p.add_argument("--public-url", default=None, metavar="URL", help="address for invite links")
    p.add_argument("--log-level", default="warning", choices=["debug", "info", "warning", "error"])


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
        bot_level=args.bot_level,
        hide_bots=args.hide_bots,
        allowed_origins=tuple(args.allow_origin),
        public_url=args.public_url,
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
