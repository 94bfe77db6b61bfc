"""``batak serve``: the command that starts the online server (:mod:`batak.server`)."""

from __future__ import annotations

import argparse
import errno
import math
import os
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import urlsplit

from ..server.config import MAX_COMMIT_GAP, SQLITE_SYNC, ServerConfig
from .parser import add_lang_option

if TYPE_CHECKING:
    import socket

    from ..server.hub import Hub

__all__ = ["add_serve_parser", "config_from_args", "run_serve", "start_lines", "storage_problem"]

#: The help's example; its domain is the reader's to fill in (``serve.your_domain``).
EXAMPLE = "batak serve --host 0.0.0.0 --port 8000 --data ./batak-data --public-url https://{domain}"


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
        epilog=text(
            "serve.epilog", lang, example=EXAMPLE.format(domain=text("serve.your_domain", lang))
        ),
    )

    def checked(kind: str) -> Callable[[str], Any]:
        """An argparse type that refuses, in the reader's language, what the option cannot
        take: ``port`` 1-65535, ``whole`` an integer >= 0, ``count`` an integer >= 1,
        ``positive`` a number > 0, ``time`` a number >= 0, ``percent`` 0-100, ``stakes`` whole
        numbers > 0 separated by commas, ``url`` an http(s) address, ``origin`` an origin,
        ``redis`` a Redis address (``redis://HOST:PORT/DB``, ``rediss://``, ``unix://PATH``),
        ``node`` a cluster node's name (:data:`NODE_NAME`)."""

        def parse(value: str) -> Any:
            result = _parse(kind, value)
            if result is None:
                if kind == "redis":  # a password in it is not printed
                    from ..server.storage import shown_url

                    value = shown_url(value)
                raise argparse.ArgumentTypeError(text(f"serve.bad_{kind}", lang, value=value))
            return result

        return parse

    g = p.add_argument_group(h("group_listen"))
    g.add_argument("--host", default=d.host, help=h("help_host", d.host))
    g.add_argument("--port", type=checked("port"), default=d.port, help=h("help_port", d.port))
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
    g.add_argument(
        "--public-url",
        type=checked("url"),
        default=None,
        metavar="URL",
        help=h("help_public_url"),
    )
    g.add_argument(
        "--allow-origin",
        type=checked("origin"),
        action="append",
        default=[],
        metavar="ORIGIN",
        help=h("help_allow_origin"),
    )
    c = p.add_argument_group(h("group_clocks"))
    for flag, code, value, kind in (
        ("--decision-seconds", "help_decision_seconds", d.decision_seconds, "positive"),
        ("--bank-seconds", "help_bank_seconds", d.bank_seconds, "time"),
        ("--bank-step", "help_bank_step", d.bank_step, "positive"),
        ("--deal-pause", "help_deal_pause", d.deal_pause, "time"),
        ("--trick-pause", "help_trick_pause", d.trick_pause, "time"),
        ("--hold-seconds", "help_hold_seconds", d.hold_seconds, "time"),
        ("--quick-fill-seconds", "help_quick_fill_seconds", d.quick_fill_seconds, "time"),
    ):
        c.add_argument(flag, type=checked(kind), default=value, metavar="S", help=h(code, value))
    b = p.add_argument_group(h("group_bots"))
    b.add_argument(
        "--bot-level",
        type=str.lower,
        choices=("easy", "medium", "hard", "random"),  # (insane was medium, without a word)
        default=d.bot_level,
        metavar="LEVEL",
        help=h("help_bot_level", d.bot_level),
    )
    b.add_argument(
        "--bot-delay",
        type=checked("time"),
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
        r.add_argument(
            flag, type=checked("positive"), default=value, metavar=metavar, help=h(code, value)
        )
    q = p.add_argument_group(h("group_limits"))
    for flag, code, value in (
        ("--rooms-per-guest", "help_rooms_per_guest", d.rooms_per_guest),
        ("--rooms-per-account", "help_rooms_per_account", d.rooms_per_account),
        ("--rooms-per-address", "help_rooms_per_address", d.rooms_per_address),
        ("--max-rooms", "help_max_rooms", d.max_room_tables),
        ("--creates-per-address", "help_creates_per_address", int(d.create_burst_address)),
        (
            "--registrations-per-address",
            "help_registrations_per_address",
            int(d.register_per_hour_address),
        ),
    ):
        q.add_argument(flag, type=checked("whole"), default=value, metavar="N", help=h(code, value))
    q.add_argument(
        "--password-checks",
        type=checked("count"),
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
        type=checked("positive"),
        default=d.guest_unused_seconds / 86400,
        metavar="DAYS",
        help=h("help_guest_days", d.guest_unused_seconds / 86400),
    )
    m = p.add_argument_group(h("group_chips"))  # chips (issue 12)
    for flag, code, value, kind in (
        ("--daily-grant", "help_daily_grant", d.daily_grant, "whole"),
        ("--fee-percent", "help_fee_percent", d.fee_percent, "percent"),
        ("--vip-fee-percent", "help_vip_fee_percent", d.vip_fee_percent, "percent"),
    ):
        m.add_argument(flag, type=checked(kind), default=value, metavar="N", help=h(code, value))
    m.add_argument(
        "--quick-deals",
        type=checked("count"),
        default=None,
        metavar="N",
        help=h("help_quick_deals"),
    )
    m.add_argument(
        "--stakes",
        type=checked("stakes"),
        default=d.stakes,
        metavar="N,N,N",
        help=h("help_stakes", ",".join(str(x) for x in d.stakes)),
    )
    k = p.add_argument_group(h("group_cluster"))
    k.add_argument(
        "--node", type=checked("node"), default=None, metavar="NAME", help=h("help_node")
    )
    k.add_argument(
        "--redis", type=checked("redis"), default=None, metavar="URL", help=h("help_redis")
    )
    k.add_argument(
        "--lease-seconds",
        type=checked("positive"),
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
    add_lang_option(p, lang)


def _parse(kind: str, value: str) -> Any:
    """``value`` as option ``kind`` takes it (see ``checked`` in :func:`add_serve_parser`), or
    None when it cannot."""
    if kind in ("port", "whole", "count", "percent"):
        try:
            n = int(value)
        except ValueError:
            return None
        low, high = {"port": (1, 65535), "count": (1, None), "percent": (0, 100)}.get(
            kind, (0, None)
        )
        return n if n >= low and (high is None or n <= high) else None
    if kind in ("positive", "time"):
        try:
            x = float(value)
        except ValueError:
            return None
        if x != x or x in (float("inf"), float("-inf")):  # nan, inf
            return None
        return x if (x > 0 if kind == "positive" else x >= 0) else None
    if kind == "stakes":
        try:
            stakes = tuple(int(x) for x in value.split(","))
        except ValueError:
            return None
        return stakes if stakes and all(x > 0 for x in stakes) else None
    if kind == "node":
        return value if NODE_NAME.fullmatch(value) else None
    if kind == "redis":  # as redis-py takes it: a host and a database number, or a socket
        try:
            parts = urlsplit(value)
            parts.port  # noqa: B018 - raises ValueError for a port that is not one
        except ValueError:
            return None
        if parts.scheme == "unix":
            return value if parts.path not in ("", "/") else None
        database = parts.path.removeprefix("/")
        if parts.scheme not in ("redis", "rediss") or not parts.hostname:
            return None
        return value if database == "" or database.isdigit() else None
    # "url" and "origin": http(s), a host, a port if any; an origin has no path
    try:
        parts = urlsplit(value)
        parts.port  # noqa: B018 - raises ValueError for a port that is not one
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    if kind == "origin" and (parts.path not in ("", "/") or parts.query or parts.fragment):
        return None
    return value.rstrip("/") if kind == "origin" else value


#: A cluster node's name (``--node``): it goes into addresses unchanged, the load balancer's
#: ``/ws?node=NAME`` (HAProxy compares the query's value as it is written, so a space or a
#: character a browser escapes would never match) and its server names, and Redis' keys and
#: channels. So: ASCII letters, digits, '.', '_' and '-', 1 to 63 of them (a DNS label's
#: limit, so that ``--node "$(hostname -f)"`` takes most cloud machines' names; the database's
#: TEXT columns and Redis' keys set none narrower), a letter or digit first (deploy/local.sh's
#: n1, n2, n3).
NODE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,62}")

#: operating-system errors of a data folder, in the words of the catalog's ``serve.reason_*``
_FOLDER_REASONS = {
    errno.EEXIST: "in_the_way",
    errno.ENOTDIR: "in_the_way",
    errno.EACCES: "denied",
    errno.EPERM: "denied",
    errno.EROFS: "denied",
    errno.ENOENT: "cannot_make",
}


def storage_problem(url: str, lang: str, *, create: bool = True, write: bool = True) -> str | None:
    """Why the database at ``url`` cannot be used, in the reader's language (None: it can).
    ``create=False``: a missing SQLite database is a problem too (``batak admin``);
    ``write=False``: an SQLite database that may only be read is not (reading jobs)."""
    from ..i18n import text
    from ..server.storage import StorageError, StorageUnusable, open_storage, shown_url

    try:
        urlsplit(url).port  # noqa: B018 - raises ValueError for a port that is not one
        storage = open_storage(url)
    except ValueError:
        return text("serve.bad_database", lang, value=shown_url(url))
    path = url.removeprefix("sqlite:///")
    try:
        storage.check(create=create, write=write)
    except StorageUnusable as e:
        if e.kind == "folder":
            code = _FOLDER_REASONS.get(e.errno or 0)
            reason = text(f"serve.reason_{code}", lang) if code else e.detail
            return text("serve.data_unusable", lang, path=os.path.dirname(path), reason=reason)
        if e.kind == "missing":
            return text("serve.no_database", lang, path=os.path.dirname(path))
        if e.kind == "not_database":
            return text("serve.not_a_database", lang, path=path, reason=e.detail)
        return text("serve.database_unreachable", lang, where=shown_url(url), reason=e.detail)
    except StorageError as e:  # e.g. no PostgreSQL driver installed
        return str(e)
    return None


#: The PostgreSQL advisory lock of a database's servers ("batak" and 1): one server alone holds
#: it exclusively; the nodes of a cluster (``--node``) share it.
PG_LOCK = 0x626174616B0001


class _Closable(Protocol):
    def close(self) -> None: ...


def claim_database(url: str, *, cluster: bool = False) -> tuple[_Closable | None, str]:
    """Take the lock that lets one server at a time use the database at ``url``.

    SQLite: the lock file ``DATABASE.lock`` holds an exclusive ``flock`` for as long as it stays
    open (the operating system lets go when the process ends, however it ends). PostgreSQL: an
    advisory lock (:data:`PG_LOCK`) on a connection of its own, kept open as long: exclusive for
    one server, shared by the nodes of a cluster (``cluster``), so that neither a second server
    nor a server beside a cluster starts (PostgreSQL lets go when the connection ends).

    Returns the lock to close when the server has stopped and ``""``; or ``None`` and what is
    known of the server that holds it: the process id it wrote (SQLite), ``"?"`` if unknown.
    An in-memory database, and a system without ``flock``, need no lock here."""
    if url.startswith(("postgresql://", "postgres://")):
        return _claim_postgres(url, cluster)
    path = url.removeprefix("sqlite:///")
    if not url.startswith("sqlite:///") or path == ":memory:":
        return None, ""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        return None, ""
    try:
        lock = open(f"{path}.lock", "a+", encoding="ascii")  # noqa: SIM115 - kept open
    except OSError:  # the database itself was checked: it can be written; go on without
        return None, ""
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        lock.seek(0)
        holder = lock.read().strip()
        lock.close()
        return None, holder if holder.isdigit() else "?"
    lock.seek(0)
    lock.truncate()
    lock.write(f"{os.getpid()}\n")
    lock.flush()
    return lock, ""


def _lock_connection(url: str) -> Any:
    """A connection of its own for the lock, with TCP keepalives: a server machine that dies
    lets go of the lock within about a minute (not the system's default two hours)."""
    import psycopg

    return psycopg.connect(
        url,
        autocommit=True,
        application_name="batak serve (lock)",
        keepalives=1,
        keepalives_idle=30,
        keepalives_interval=10,
        keepalives_count=3,
    )


class PostgresLock:
    """The advisory lock on its connection, watched every ``every`` seconds (in a thread of its
    own): a connection lost (PostgreSQL restarted, a proxy or a timeout cut it) took the lock
    with it, and a second server could start beside this one. The lock is taken again on a new
    connection; if another server holds it by then, ``lost()`` is called (by default this
    server stops, gracefully: two servers must not run the same tables)."""

    def __init__(
        self,
        url: str,
        conn: Any,
        take: str,
        *,
        every: float = 30.0,
        lost: Callable[[], None] | None = None,
    ) -> None:
        import threading

        self.url, self.conn, self.take, self.every = url, conn, take, every
        self.lost = lost or _stop_this_server
        self.retaken = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="batak-db-lock", daemon=True)
        self._thread.start()

    def _watch(self) -> None:
        import contextlib
        import logging

        log = logging.getLogger("batak.serve")
        while not self._stop.wait(self.every):
            try:
                self.conn.execute("SELECT 1")
                continue
            except Exception:
                with contextlib.suppress(Exception):
                    self.conn.close()
            try:  # the lock went with the connection: take it again
                conn = _lock_connection(self.url)
                row = conn.execute(f"SELECT {self.take}(%s)", (PG_LOCK,)).fetchone()
            except Exception as e:
                log.warning("the database lock's connection is lost (%s); trying again", e)
                continue
            if row is not None and row[0]:
                self.conn = conn
                self.retaken += 1
                log.warning("the database lock's connection was lost: the lock is taken again")
                continue
            conn.close()
            log.error(
                "another batak serve took the database while this one's lock was lost: this one "
                "stops, so that the two do not run the same tables"
            )
            self.lost()
            return

    def close(self) -> None:
        import contextlib

        self._stop.set()
        with contextlib.suppress(Exception):
            self.conn.close()


def _stop_this_server() -> None:
    import signal

    os.kill(os.getpid(), signal.SIGTERM)  # uvicorn's graceful stop: the tables are stored


def _claim_postgres(url: str, cluster: bool, **watch: Any) -> tuple[_Closable | None, str]:
    try:
        conn = _lock_connection(url)
    except Exception:  # checked just before (storage_problem): go on without the lock
        return None, ""
    take = "pg_try_advisory_lock_shared" if cluster else "pg_try_advisory_lock"
    try:
        row = conn.execute(f"SELECT {take}(%s)", (PG_LOCK,)).fetchone()
    except Exception:
        conn.close()
        return None, ""
    if row is not None and row[0]:
        return PostgresLock(url, conn, take, **watch), ""
    conn.close()
    return None, "?"


def node_lease_left(url: str, node: str) -> float | None:
    """How many seconds the lease of a live cluster node named ``node`` still holds on the
    database at ``url`` (None: no such node alive: never started, stopped, or its lease ran
    out, as after a crash). Two processes under one name would each take the tables the other
    holds; a name whose lease ran out may be taken over (the tables it held are claimed back)."""
    import psycopg

    try:
        with psycopg.connect(url, autocommit=True, connect_timeout=10) as conn:
            row = conn.execute(
                "SELECT extract(epoch FROM lease_until - now()) FROM cluster_nodes"
                " WHERE id = %s AND state = 'alive' AND lease_until > now()",
                (node,),
            ).fetchone()
    except Exception:  # a new database (no cluster_nodes yet), or a passing failure: the
        return None  # node's own registration refuses a live name all the same (cluster/owner.py)
    return float(row[0]) if row is not None else None


def _listen_problem(e: OSError, host: str, port: int, lang: str) -> str:
    """Why the server cannot listen at ``host``:``port``, in the reader's language."""
    from ..i18n import text

    if e.errno == errno.EADDRINUSE:
        return text("serve.port_in_use", lang, host=host, port=port)
    if e.errno in (errno.EACCES, errno.EPERM):
        return text("serve.port_denied", lang, port=port)
    return text("serve.bad_host", lang, host=host, reason=e.strerror or str(e))


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
        register_per_hour_address=args.registrations_per_address,
        create_per_minute_address=args.creates_per_address * 1.5,
        password_checks=args.password_checks,
        guest_unused_seconds=args.guest_days * 86400,
        daily_grant=args.daily_grant,
        quick_deals=args.quick_deals,
        fee_percent=args.fee_percent,
        vip_fee_percent=args.vip_fee_percent,
        stakes=tuple(args.stakes),
        node=args.node,
        redis=args.redis,
        lease_seconds=args.lease_seconds,
    )


def run_serve(args: argparse.Namespace, lang: str = "en") -> int:
    """What ``batak serve`` does with its parsed arguments: serve until interrupted. What can
    be checked before the server starts is checked first, and said in one plain line (exit 2):
    the options that belong together, the database (and that no other server uses it), the
    address to listen at."""
    from ..i18n import text

    def refuse(words: str) -> int:
        print(f"batak serve: {words}", file=sys.stderr)
        return 2

    config = config_from_args(args)
    if config.node and not (config.database or "").startswith(("postgresql://", "postgres://")):
        print(text("serve.node_needs_postgresql", lang), file=sys.stderr)
        return 2
    if config.redis and not config.node:
        return refuse(text("serve.redis_needs_node", lang))
    from ..server.serve import listen

    # the port first: a start refused for a port in use leaves no data folder behind
    try:
        sock = listen(config.host, config.port)
    except OSError as e:
        return refuse(_listen_problem(e, config.host, config.port, lang))
    problem = storage_problem(config.database_url, lang)
    if problem:
        sock.close()
        return refuse(problem)
    # two servers on one database would run the same tables at once (a cluster's nodes share
    # them, each table held by one node: docs/cluster.md)
    try:
        lock, holder = claim_database(config.database_url, cluster=bool(config.node))
    except BaseException:
        sock.close()
        raise
    url = config.database_url
    if holder:
        sock.close()
    if holder and url.startswith(("postgresql://", "postgres://")):
        from ..server.storage import shown_url

        code = "serve.database_in_use_node" if config.node else "serve.database_in_use"
        return refuse(text(code, lang, where=shown_url(url)))
    if holder:
        folder = os.path.dirname(config.database_url.removeprefix("sqlite:///"))
        return refuse(text("serve.data_in_use", lang, path=folder, pid=holder))
    left = node_lease_left(url, config.node) if config.node else None
    if left is not None and config.node:
        sock.close()
        if lock is not None:
            lock.close()
        from ..server.storage import shown_url

        seconds = max(1, math.ceil(left))
        where = shown_url(url)
        return refuse(
            text("serve.node_in_use", lang, node=config.node, where=where, seconds=seconds)
        )
    try:
        return _serve(config, args.log_level, lang, sock)
    finally:
        if lock is not None:
            lock.close()


def _others_may_come(config: ServerConfig) -> bool:
    """Whether a browser on another computer may be let in by the websocket's Origin check, for
    a server that listens on every interface: ``--allow-origin '*'``, or a public address or
    an allowed origin whose host is not this computer (:func:`_this_computer`), since only
    such an address can be the one other computers open. One that names this computer (a
    development server's ``http://localhost:5173``) lets in no one else. (A server listening
    at one address, ``--host 192.168.1.5``, prints that address and allows it: nothing to
    say.)

    >>> from batak.server.config import ServerConfig as C
    >>> _others_may_come(C(allowed_origins=("http://localhost:5173",)))
    False
    >>> _others_may_come(C(public_url="http://127.0.0.1:8000")), _others_may_come(C())
    (False, False)
    >>> _others_may_come(C(allowed_origins=("https://batak.example",))), _others_may_come(
    ...     C(allowed_origins=("*",)))
    (True, True)
    """
    if "*" in config.allowed_origins:
        return True
    for address in (config.public_url, *config.allowed_origins):
        host = (urlsplit(address).hostname or "") if address else ""
        if host and not _this_computer(host):
            return True
    return False


#: A host of up to four numbers (decimal, octal or 0x hexadecimal) and dots: IPv4 as browsers
#: read it, 127.0.0.1 as ``127.1``, ``2130706433`` or ``0x7f000001`` too
_IPV4_NUMBERS = re.compile(r"(?:(?:0x[0-9a-f]*|[0-9]+)\.){0,3}(?:0x[0-9a-f]*|[0-9]+)")


def _this_computer(host: str) -> bool:
    """Whether an address's host (lower case, as :func:`urllib.parse.urlsplit` gives it, an
    IPv6 address without its brackets) is this computer, whatever computer opens it:
    ``localhost`` and any ``*.localhost``, the loopback addresses (127.x.y.z, ::1, and
    127.0.0.1 as IPv6 writes it, ``::ffff:127.0.0.1``) and the unspecified one (0.0.0.0, ::),
    with or without a name's trailing dot, and an IPv4 address in any of the forms a browser
    reads (``127.1``, ``2130706433``, ``0x7f.1``). Any other name may be given another
    computer's address by another computer's DNS.

    >>> [_this_computer(h) for h in ("localhost", "app.localhost", "localhost.", "127.8.9.10")]
    [True, True, True, True]
    >>> [_this_computer(h) for h in ("::ffff:127.0.0.1", "127.1", "2130706433", "0x7f.1", "0")]
    [True, True, True, True, True]
    >>> [_this_computer(h) for h in ("0x7f000001", "0177.0.0.1", "127.0.0.1.", "[::1]"[1:-1])]
    [True, True, True, True]
    >>> [_this_computer(h) for h in ("192.168.1.5", "10.1", "::ffff:10.0.0.5", "batak.example")]
    [False, False, False, False]
    >>> [_this_computer(h) for h in ("127.0.0.1.example", "localhost.example", "cafe", "0xcafe")]
    [False, False, False, False]
    >>> [_this_computer(h) for h in ("1.2.3.4.5", "127.0.0.256", "08.1", "127.1 x", "localhost..")]
    [False, False, False, False, False]
    """
    import ipaddress
    import socket

    host = host.removesuffix(".")
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        # IPv4's short and old forms (127.1, one number, hexadecimal or octal parts), which
        # browsers read as addresses; inet_aton reads them as they do. Only numbers and dots
        # (inet_aton would take what follows a space too)
        if not _IPV4_NUMBERS.fullmatch(host):
            return False
        try:
            ip = ipaddress.IPv4Address(socket.inet_aton(host))
        except OSError:
            return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_loopback or ip.is_unspecified


def start_lines(
    config: ServerConfig, lang: str, where: str, unknown_operators: Sequence[str] = ()
) -> list[str]:
    """What ``batak serve`` prints once it listens: the address to open (the players' one),
    the websocket, where the data is and how to stop it; where it listens itself when that is
    not the address to open (behind a proxy, or a node of a cluster, whose every node has the
    same address to open: then its name too); listening on every interface with no public
    address nor allowed origin that another computer may open (:func:`_others_may_come`), that
    other computers' browsers are refused until one is given; the ``--operator`` names no
    account has (``unknown_operators``: whoever registers one becomes one); and the operator's
    commands
    (``batak admin``) on its database, ready to paste but for a password in the database's
    address, which a word in capitals stands for."""
    from ..i18n import text
    from ..server.config import is_wildcard

    url = config.base_url
    ws = url.replace("http", "ws", 1)
    host = config.host
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    listen = f"{host}:{config.port}"
    said = {"url": url, "ws": ws, "where": where}
    if config.node:
        lines = [text("serve.started_node", lang, node=config.node, listen=listen, **said)]
    elif config.public_url:
        lines = [text("serve.started_at", lang, listen=listen, **said)]
    else:
        lines = [text("serve.started", lang, **said)]
    if is_wildcard(config.host) and not _others_may_come(config):
        lines.append(text("serve.everywhere_without_public_url", lang, port=config.port))
    if unknown_operators:
        names = ", ".join(unknown_operators)
        lines.append(text("serve.operator_without_account", lang, names=names))
    # the operator's commands on this server's database, to be pasted: a password in its
    # address is never printed, but a word in capitals says where it goes
    import shlex

    words, placeholder = admin_database_words(config.database, where, lang, default_folder=True)
    command = shlex.join(["batak", "admin", *words, "--help"])
    if placeholder is None:  # no password in it
        lines.append(text("serve.admin_commands", lang, command=command))
    else:
        line = text("serve.admin_commands_password", lang, placeholder=placeholder, command=command)
        lines.append(line)
    return lines


def admin_database_words(
    database: str | None, data: str, lang: str, *, default_folder: bool
) -> tuple[list[str], str | None]:
    """The words of a ``batak admin`` command that name a server's database, to be pasted
    (``batak serve``'s start, ``batak admin ban``'s undo): ``--database`` and its address, a
    password in it never printed but shown as a word in capitals (``PASSWORD``, ``ŞİFRE``),
    which is returned too (else None); or ``--data`` and the folder as a full path (it may be
    pasted elsewhere). With ``default_folder`` False the default folder is named by no word.

    >>> admin_database_words(None, "batak-data", "en", default_folder=False)
    ([], None)
    >>> admin_database_words(None, "/srv/b", "en", default_folder=True)
    (['--data', '/srv/b'], None)
    >>> admin_database_words("postgresql://ann:s3cret@db/b", "x", "tr", default_folder=True)
    (['--database', 'postgresql://ann:ŞİFRE@db/b'], 'ŞİFRE')
    """
    from ..i18n import text
    from ..server.config import ServerConfig
    from ..server.storage import shown_url

    if database:
        mask = text("serve.password_placeholder", lang)
        url = shown_url(database, mask=mask)
        return ["--database", url], None if url == database else mask
    if not default_folder and data == str(ServerConfig().data):
        return [], None
    return ["--data", os.fspath(Path(data).resolve())], None


def _serve(config: ServerConfig, log_level: str, lang: str, sock: socket.socket) -> int:
    from ..i18n import text
    from ..server.serve import run
    from ..server.storage import shown_url

    if config.database:
        where = shown_url(config.database)
    else:
        where = os.fspath(Path(config.data).resolve())

    def started(hub: Hub) -> None:
        for line in start_lines(config, lang, where, hub.unknown_operators):
            print(line, flush=True)

    def stopped() -> None:  # by Ctrl+C or SIGTERM: say so, and that nothing is lost
        print(text("serve.stopped", lang), flush=True)

    code = run(config, log_level, on_start=started, sock=sock, on_stop=stopped)
    if code:
        print(text("serve.start_failed", lang), file=sys.stderr)
    return code
