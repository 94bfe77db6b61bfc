"""``batak serve``: the command that starts the online server (:mod:`batak.server`)."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from ..i18n import LANGS
from ..server.config import MAX_COMMIT_GAP, SQLITE_SYNC, ServerConfig
from .text import t as cli_text

__all__ = ["add_serve_parser", "config_from_args", "run_serve"]

EXAMPLE = (
    "batak serve --host 0.0.0.0 --port 8000 --data ./batak-data --public-url https://YOUR-DOMAIN"
)


def add_serve_parser(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], lang: str = "en"
) -> None:
    """Add the ``serve`` subcommand to the ``batak`` command's subparsers."""
    from ..i18n import text

    def h(code: str, default: object = None) -> str:
        if isinstance(default, float):
            default = f"{default:g}"
        return text(f"serve.{code}", lang, default=default)

    d = ServerConfig()
    p = sub.add_parser(
        "serve",
        help=h("help"),
        description=h("description"),
        epilog=text("serve.epilog", lang, example=EXAMPLE),
    )
    g = p.add_argument_group(h("group_listen"))
    g.add_argument("--host", default=d.host, help=h("help_host", d.host))
    g.add_argument("--port", type=int, default=d.port, help=h("help_port", d.port))
    g.add_argument("--data", default=str(d.data), metavar="DIR", help=h("help_data", d.data))
    g.add_argument("--database", default=None, metavar="URL", help=h("help_database"))
    g.add_argument(
        "--sqlite-sync",
        choices=SQLITE_SYNC,
        default=d.sqlite_sync,
        help=h("help_sqlite_sync", d.sqlite_sync),
    )
    gap_ms = d.commit_gap * 1000

    def commit_gap(value: str) -> float:
        try:
            ms = float(value)
        except ValueError:
            ms = -1.0
        if not 0 <= ms <= MAX_COMMIT_GAP * 1000:
            raise argparse.ArgumentTypeError(
                text("serve.bad_commit_gap", lang, value=value, most=f"{MAX_COMMIT_GAP * 1000:g}")
            )
        return ms

    g.add_argument(
        "--commit-gap",
        type=commit_gap,
        default=gap_ms,
        metavar="MS",
        help=h("help_commit_gap", gap_ms),
    )
    g.add_argument("--public-url", default=None, metavar="URL", help=h("help_public_url"))
    g.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help=h("help_allow_origin"),
    )
    c = p.add_argument_group(h("group_clocks"))
    for flag, code, value in (
        ("--decision-seconds", "help_decision_seconds", d.decision_seconds),
        ("--bank-seconds", "help_bank_seconds", d.bank_seconds),
        ("--bank-step", "help_bank_step", d.bank_step),
        ("--deal-pause", "help_deal_pause", d.deal_pause),
        ("--trick-pause", "help_trick_pause", d.trick_pause),
        ("--hold-seconds", "help_hold_seconds", d.hold_seconds),
        ("--quick-fill-seconds", "help_quick_fill_seconds", d.quick_fill_seconds),
    ):
        c.add_argument(flag, type=float, default=value, metavar="S", help=h(code, value))
    b = p.add_argument_group(h("group_bots"))
    b.add_argument(
        "--bot-level", default=d.bot_level, metavar="LEVEL", help=h("help_bot_level", d.bot_level)
    )
    b.add_argument(
        "--bot-delay",
        type=float,
        default=d.bot_delay,
        metavar="S",
        help=h("help_bot_delay", d.bot_delay),
    )
    b.add_argument("--hide-bots", action="store_true", help=h("help_hide_bots"))
    b.add_argument(  # tournaments (issue 13 item 4)
        "--operator", action="append", default=[], metavar="USERNAME", help=h("help_operator")
    )
    r = p.add_argument_group(h("group_rooms"))
    for flag, code, metavar, value in (
        ("--abandon-minutes", "help_abandon_minutes", "MIN", d.abandon_seconds / 60),
        ("--lonely-minutes", "help_lonely_minutes", "MIN", d.lonely_seconds / 60),
        ("--adjourned-days", "help_adjourned_days", "DAYS", d.adjourned_unload_seconds / 86400),
    ):
        r.add_argument(flag, type=float, default=value, metavar=metavar, help=h(code, value))
    q = p.add_argument_group(h("group_limits"))
    for flag, code, value in (
        ("--rooms-per-guest", "help_rooms_per_guest", d.rooms_per_guest),
        ("--rooms-per-account", "help_rooms_per_account", d.rooms_per_account),
        ("--rooms-per-address", "help_rooms_per_address", d.rooms_per_address),
        ("--max-rooms", "help_max_rooms", d.max_room_tables),
        ("--creates-per-address", "help_creates_per_address", int(d.create_burst_address)),
    ):
        q.add_argument(flag, type=int, default=value, metavar="N", help=h(code, value))
    q.add_argument(
        "--password-checks",
        type=int,
        default=d.password_checks,
        metavar="N",
        help=text(
            "serve.help_password_checks",
            lang,
            default=d.password_checks,
            memory=d.argon2_memory_kib // 1024,
        ),
    )
    q.add_argument(
        "--guest-days",
        type=float,
        default=d.guest_unused_seconds / 86400,
        metavar="DAYS",
        help=h("help_guest_days", d.guest_unused_seconds / 86400),
    )
    m = p.add_argument_group(h("group_chips"))  # chips (issue 12)
    for flag, code, value in (
        ("--daily-grant", "help_daily_grant", d.daily_grant),
        ("--fee-percent", "help_fee_percent", d.fee_percent),
        ("--vip-fee-percent", "help_vip_fee_percent", d.vip_fee_percent),
    ):
        m.add_argument(flag, type=int, default=value, metavar="N", help=h(code, value))
    m.add_argument("--quick-deals", type=int, default=None, metavar="N", help=h("help_quick_deals"))
    m.add_argument(
        "--stakes",
        default=",".join(str(x) for x in d.stakes),
        metavar="N,N,N",
        help=h("help_stakes", ",".join(str(x) for x in d.stakes)),
    )
    k = p.add_argument_group(h("group_cluster"))
    k.add_argument("--node", default=None, metavar="NAME", help=h("help_node"))
    k.add_argument("--redis", default=None, metavar="URL", help=h("help_redis"))
    k.add_argument(
        "--lease-seconds",
        type=float,
        default=d.lease_seconds,
        metavar="S",
        help=h("help_lease_seconds", d.lease_seconds),
    )
    p.add_argument(
        "--log-level",
        default="warning",
        choices=["debug", "info", "warning", "error"],
        help=h("help_log_level", "warning"),
    )
    p.add_argument("--lang", choices=LANGS, default=None, help=cli_text("help_lang", lang))


def config_from_args(args: argparse.Namespace) -> ServerConfig:
    return ServerConfig(
        host=args.host,
        port=args.port,
        data=Path(args.data),
        database=args.database,
        sqlite_sync=args.sqlite_sync,
        commit_gap=args.commit_gap / 1000,
        decision_seconds=args.decision_seconds,
        bank_seconds=args.bank_seconds,
        bank_step=args.bank_step,
        hold_seconds=args.hold_seconds,
        quick_fill_seconds=args.quick_fill_seconds,
        bot_delay=args.bot_delay,
        deal_pause=args.deal_pause,
        trick_pause=args.trick_pause,
        bot_level=args.bot_level,
        hide_bots=args.hide_bots,
        operators=tuple(args.operator),
        allowed_origins=tuple(args.allow_origin),
        public_url=args.public_url,
        abandon_seconds=args.abandon_minutes * 60,
        adjourned_unload_seconds=args.adjourned_days * 86400,
        lonely_seconds=args.lonely_minutes * 60,
        rooms_per_guest=args.rooms_per_guest,
        rooms_per_account=args.rooms_per_account,
        rooms_per_address=args.rooms_per_address,
        max_room_tables=args.max_rooms,
        create_burst_address=args.creates_per_address,
        create_per_minute_address=args.creates_per_address * 1.5,
        password_checks=args.password_checks,
        guest_unused_seconds=args.guest_days * 86400,
        daily_grant=args.daily_grant,
        quick_deals=args.quick_deals,
        fee_percent=args.fee_percent,
        vip_fee_percent=args.vip_fee_percent,
        stakes=tuple(int(x) for x in str(args.stakes).split(",") if x.strip()),
        node=args.node,
        redis=args.redis,
        lease_seconds=args.lease_seconds,
    )


def run_serve(args: argparse.Namespace, lang: str = "en") -> int:
    """What ``batak serve`` does with its parsed arguments: serve until interrupted."""
    from ..i18n import text
    from ..server.serve import run

    config = config_from_args(args)
    if config.node and not (config.database or "").startswith(("postgresql://", "postgres://")):
        import sys

        print(text("serve.node_needs_postgresql", lang), file=sys.stderr)
        return 2
    where = config.database if config.database else os.fspath(Path(config.data).resolve())

    def started() -> None:
        url = config.base_url
        ws = url.replace("http", "ws", 1)
        print(text("serve.started", lang, url=url, ws=ws, where=where), flush=True)

    return run(config, args.log_level, on_start=started)
