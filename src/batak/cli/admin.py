"""``batak admin``: the operator's look at a server's database (the chips of issue 12).

``ledger-check`` sums the whole chip ledger and says whether it is exact (exit 1 if not);
``chip-report`` lists pairs of players whose results at staked private rooms look like chip
dumping (one keeps losing to the other); ``vip USERNAME on|off`` sets the VIP flag that lowers
a player's Batak Sultan table fee (an operator's decision: nothing is sold); ``password
USERNAME`` gives an account a new password and ends its sessions; ``players`` lists the
accounts; ``ban USERNAME`` closes an account (it cannot log in, and a running server closes its
connections within ``reap_every`` seconds) and ``unban USERNAME`` opens it again; ``erase
USERNAME`` deletes an account's personal data on the player's request (see
:mod:`batak.server.erase`), after the username is typed again or with ``--yes`` (beside a
cluster, ``--redis URL``, before or after ``erase``, reads which tables its nodes keep aside
to close; refused with any other job), and ``export
USERNAME`` writes all of it as JSON (:mod:`batak.server.export`); ``backup FILE`` copies an
SQLite database while the server runs. A username is
matched exactly, or else by case if only one account fits. It opens the same database as
``batak serve`` (``--data`` or ``--database``) and may run while the server does.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..i18n import text
from .console import cut_to, fit_address, pad_to, visible_len, wrap_text
from .parser import add_lang_option
from .text import t

__all__ = ["add_admin_parser", "run_admin"]


def add_admin_parser(sub: Any, lang: str) -> None:
    from ..server.config import ServerConfig

    d = ServerConfig()
    p = sub.add_parser(
        "admin",
        help=t("help_admin", lang),
        description=t("help_admin", lang),
        # the jobs first, as batak's commands, under their own title (not "positional
        # arguments"), then the options; all of them in braces is 85 columns: the jobs are
        # listed under the title, the usage names them with a placeholder
        commands={
            "dest": "job",
            "title": t("commands_title", lang),
            "metavar": t("admin_metavar_job", lang),
            "required": True,
        },
    )

    def where(parser: argparse.ArgumentParser, default: Any) -> None:
        parser.add_argument(
            "--data",
            default=str(d.data) if default is None else default,
            metavar="DIR",
            help=t("help_admin_data", lang),
        )
        parser.add_argument(
            "--database", default=default, metavar="URL", help=t("help_admin_database", lang)
        )
        add_lang_option(parser, lang)  # (no default: batak --lang tr admin ... keeps it)

    def redis_url(value: str) -> str:
        """A Redis address as ``batak serve --redis`` takes it (a password never printed)."""
        from ..i18n import text
        from ..server.storage import shown_url
        from .serve import _parse

        if _parse("redis", value) is None:
            raise argparse.ArgumentTypeError(text("serve.bad_redis", lang, value=shown_url(value)))
        return value

    def redis(parser: argparse.ArgumentParser, default: Any, shown: bool) -> None:
        """``--redis URL``: a cluster's, for ``erase`` only (see :func:`_admin`)."""
        parser.add_argument(
            "--redis",
            type=redis_url,
            default=default,
            metavar="URL",
            help=t("help_admin_redis", lang) if shown else argparse.SUPPRESS,
        )

    where(p, None)
    redis(p, None, True)
    username = t("admin_metavar_username", lang)  # the placeholder, in the reader's language
    jobs = p.commands
    players = jobs.add_parser("players", help=t("help_admin_players", lang))
    players.add_argument("--search", default="", metavar="TEXT", help=t("help_admin_search", lang))

    def positive(value: str) -> int:
        from ..i18n import text
        from .serve import _parse

        n = _parse("count", value)
        if n is None:
            raise argparse.ArgumentTypeError(text("serve.bad_count", lang, value=value))
        return int(n)

    players.add_argument(
        "--limit", type=positive, default=50, metavar="N", help=t("help_admin_limit", lang)
    )
    ban = jobs.add_parser("ban", help=t("help_admin_ban", lang))
    ban.add_argument("username", metavar=username)
    ban.add_argument("--reason", default=None, metavar="TEXT", help=t("help_admin_reason", lang))
    unban = jobs.add_parser("unban", help=t("help_admin_unban", lang))
    unban.add_argument("username", metavar=username)
    export = jobs.add_parser("export", help=t("help_admin_export", lang))
    export.add_argument("username", metavar=username)
    export.add_argument(
        "--output", "-o", default="-", metavar="FILE", help=t("help_admin_output", lang)
    )
    erase = jobs.add_parser("erase", help=t("help_admin_erase", lang))
    erase.add_argument("username", metavar=username)
    erase.add_argument("--yes", action="store_true", help=t("help_admin_yes", lang))
    ledger = jobs.add_parser("ledger-check", help=t("help_admin_ledger_check", lang))
    report = jobs.add_parser("chip-report", help=t("help_admin_chip_report", lang))

    report.add_argument(
        "--min-matches",
        type=positive,  # "0 or more rooms together" would flag every pair
        default=d.dumping_min_matches,
        metavar="N",
        help=t("help_admin_min_matches", lang, default=d.dumping_min_matches),
    )
    vip = jobs.add_parser("vip", help=t("help_admin_vip", lang))
    vip.add_argument("username", metavar=username)
    vip.add_argument("flag", choices=["on", "off"], metavar="on|off")
    backup = jobs.add_parser("backup", help=t("help_admin_backup", lang))
    backup.add_argument("file", metavar="FILE")
    password = jobs.add_parser("password", help=t("help_admin_password", lang))
    password.add_argument("username", metavar=username)
    password.add_argument(
        "--password", dest="new_password", default=None, help=t("help_admin_new_password", lang)
    )
    # the same options after the job's name too (batak admin vip NAME on --data DIR): there
    # they keep what was given before it unless given again
    for job in (players, ban, unban, export, erase, ledger, report, vip, password, backup):
        where(job, argparse.SUPPRESS)
        # --redis too, before or after the job's name; it means something to erase only, the
        # others take it (unlisted) to refuse it in words (_admin) rather than as unknown
        redis(job, argparse.SUPPRESS, job is erase)


async def _new_password(
    args: argparse.Namespace, lang: str, storage: Any, config: Any, player: str
) -> int:
    """``password USERNAME``: the new password from ``--password``, BATAK_NEW_PASSWORD or
    typed twice; hashed as the server hashes it; every session of the account ended."""
    import os

    from ..server.hub import password_hasher

    def refuse(key: str) -> int:
        print(f"batak admin: {t(key, lang)}", file=sys.stderr)
        return 2

    new = args.new_password or os.environ.get("BATAK_NEW_PASSWORD")
    if new is None and not sys.stdin.isatty():  # nobody to type it twice (getpass would echo)
        return refuse("admin_password_needs_terminal")
    if new is None:
        import getpass

        try:
            new = getpass.getpass(t("admin_password_prompt", lang, name=args.username))
            if getpass.getpass(t("admin_password_again", lang)) != new:
                return refuse("admin_password_mismatch")
        except EOFError:
            return refuse("admin_password_mismatch")
    if len(new) < 8:  # the server's rule for a new account
        return refuse("admin_password_weak")
    try:
        hasher = password_hasher(config)
    except ImportError:
        return refuse("admin_password_no_argon")
    digest = await asyncio.to_thread(hasher.hash, new)
    await storage.update_player(player, password_hash=digest)
    ended = await storage.end_sessions(player)
    _say(
        t("admin_password_done", lang, name=args.username, sessions=len(ended)),
        names=[args.username],
    )
    return 0


def _when(seconds: float | None, fmt: str = "%Y-%m-%d %H:%M") -> str:
    return time.strftime(fmt, time.localtime(seconds)) if seconds else "-"


def _say(s: str, *, names: Sequence[str] = ()) -> None:
    """Print ``s`` in lines that fit :func:`_width` (80 columns into a file): its own lines,
    each wrapped at spaces (a long username or ban reason); a word holding one of ``names``
    (the username it is about) is never cut, however wide (:func:`wrap_text`)."""
    for line in s.split("\n"):
        print("\n".join(wrap_text(line, _width(), indent="", names=names)))


def _unban_command(args: argparse.Namespace, lang: str) -> tuple[str, str | None]:
    """The command that opens a banned account again, to be pasted: on the same database, so
    with the ``--database`` or ``--data`` that was given (the folder as a full path, since it
    may be pasted elsewhere), each word quoted for a shell. A password in the database's
    address is never printed: the word in capitals that stands for it is given too (as
    ``batak serve``'s start says it), else None.

    >>> ns = argparse.Namespace
    >>> _unban_command(ns(database=None, data="batak-data", username="ali"), "en")
    ('batak admin unban ali', None)
    >>> _unban_command(ns(database=None, data="/srv/my games", username="ali"), "en")
    ("batak admin --data '/srv/my games' unban ali", None)
    >>> url = "postgresql://ann:s3cret@db/batak"
    >>> _unban_command(ns(database=url, data="x", username="ali"), "tr")
    ("batak admin --database 'postgresql://ann:ŞİFRE@db/batak' unban ali", 'ŞİFRE')
    """
    import shlex

    from .serve import admin_database_words

    where, placeholder = admin_database_words(args.database, args.data, lang, default_folder=False)
    return shlex.join(["batak", "admin", *where, "unban", args.username]), placeholder


def _width() -> int:
    """The columns the list of accounts is laid out for: the terminal's, 80 when the output
    goes elsewhere (a file, a pipe) or the terminal is narrower."""
    import shutil

    if not sys.stdout.isatty():
        return 80
    return max(80, shutil.get_terminal_size((80, 24)).columns)


async def _players(args: argparse.Namespace, lang: str, storage: Any, desk: Any) -> int:
    """``players``: the accounts, newest first, as columns."""
    rows = await storage.accounts(args.search, args.limit + 1)
    more = len(rows) > args.limit
    rows = rows[: args.limit]
    vips = await desk.vips([r["id"] for r in rows])
    if not rows:
        print(
            t(
                "admin_players_none" if not args.search else "admin_players_none_search",
                lang,
                search=args.search,
            )
        )
        return 0
    head = [
        t(k, lang)
        for k in (
            "admin_col_username",
            "admin_col_name",
            "admin_col_created",
            "admin_col_seen",
            "admin_col_matches",
            "admin_col_state",
        )
    ]

    def state(r: dict[str, Any]) -> str:
        marks = [t("admin_state_bot", lang)] if r["bot"] else []
        if r["id"] in vips:  # the lower table fee (batak admin vip)
            marks.append(t("admin_state_vip", lang))
        if r["banned"] is not None:
            when = _when(r["banned"])
            reason = r.get("ban_reason")
            marks.append(
                t("admin_state_banned_why", lang, when=when, reason=reason)
                if reason
                else t("admin_state_banned", lang, when=when)
            )
        return ", ".join(marks)

    lines = [
        [
            r["username"],
            r["name"],
            _when(r["created"], "%Y-%m-%d"),  # the day is enough; the last seen has its time
            _when(r["last_seen"]),
            str(r["matches"]),
            state(r),
        ]
        for r in rows
    ]
    # laid out for the terminal (80 columns for a file or a pipe), counted in the columns a
    # terminal gives each character (visible_len): names too long for it are cut (the username,
    # which the other jobs take, never is), and notes that do not fit at the end of the rows
    # (a ban's reason is free text) go under each row, indented and wrapped
    width = _width()
    widths = [max(visible_len(x[i]) for x in [head, *lines]) for i in range(5)]
    over = sum(widths) + 2 * 4 - width
    if over > 0:
        widths[1] = max(visible_len(head[1]), 4, widths[1] - over)
    for x in lines:
        if visible_len(x[1]) > widths[1]:
            x[1] = cut_to(x[1], widths[1] - 1) + "…"

    def row(x: list[str]) -> str:
        return "  ".join(
            pad_to(c, w, ">" if i == 4 else "<")
            for i, (c, w) in enumerate(zip(x, widths, strict=False))
        )

    inline = sum(widths) + 2 * 5 + max(visible_len(x[5]) for x in [head, *lines]) <= width
    for x in [head, *lines]:
        if inline:
            print(f"{row(x)}  {x[5]}".rstrip())
            continue
        print(row(x).rstrip())
        if x is not head and x[5]:
            # (a word wider than the line is cut, filling the line begun before it)
            for part in wrap_text(" ".join(x[5].split()), width - 4, indent=""):
                print("    " + part)
    if more:
        print(t("admin_players_more", lang, n=args.limit))
    return 0


async def _export(args: argparse.Namespace, lang: str, storage: Any, player: str) -> int:
    """``export USERNAME``: the account's data (server/export.py) as JSON, to ``--output`` or
    the standard output (for a player who asked the host for it)."""
    import json

    from ..server.export import export

    dest = Path(args.output)
    if args.output != "-":  # a player's data never goes over another file (another's export)
        refusal = None
        if dest.exists():
            refusal = t("admin_export_exists", lang, path=args.output)
        elif not dest.parent.is_dir():
            refusal = t("admin_export_no_folder", lang, path=str(dest.parent))
        if refusal:
            print(f"batak admin: {refusal}", file=sys.stderr)
            return 2
    doc = await export(storage.run, storage.q, player)
    text = json.dumps(doc, ensure_ascii=False, indent=1) + "\n"
    if args.output == "-":
        sys.stdout.write(text)
        return 0
    # made new (O_EXCL: never over a file, one made meanwhile too); a write that fails (a full
    # disk) takes the file away again, so that nothing is left under the name for the next try.
    # (Not a temporary file linked to the name: a USB stick's FAT has no links, and a long name
    # made longer did not fit the folder's limit.)
    from .play import save_problem

    made = False
    try:
        # read and written by its owner only (0600): it holds a person's data (the umask may
        # take more away, never add)
        fd = os.open(dest, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        made = True
        with open(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
    except FileExistsError:  # made meanwhile
        print(f"batak admin: {t('admin_export_exists', lang, path=args.output)}", file=sys.stderr)
        return 2
    except OSError as e:
        if made:
            dest.unlink(missing_ok=True)
        said = t("save_failed", lang, path=args.output, message=save_problem(e, lang))
        print(f"batak admin: {said}", file=sys.stderr)
        return 1
    print(t("admin_exported", lang, name=args.username, path=args.output), file=sys.stderr)
    return 0


async def _erase(
    args: argparse.Namespace, lang: str, storage: Any, config: Any, player: str
) -> int:
    """``erase USERNAME``: the account's personal data deleted (server/erase.py), once the
    username is typed again (or with ``--yes``); refused while it sits at a table not finished
    or takes part in a tournament not over. With ``--redis`` (a cluster's, as its nodes'), a
    seat at a table a live node keeps aside to be closed does not stand in the way, as with
    ``delete_account`` through a node (:func:`_kept_aside`)."""
    from ..server.erase import erase_job, scrub_events

    postgres = storage.kind == "postgresql"
    if args.redis and not postgres:  # (a cluster's nodes share a PostgreSQL database)
        print(f"batak admin: {t('admin_erase_redis_sqlite', lang)}", file=sys.stderr)
        return 2
    print(t("admin_erase_what", lang, name=args.username))
    if not args.yes:
        if not sys.stdin.isatty():
            print(f"batak admin: {t('admin_erase_needs_yes', lang)}", file=sys.stderr)
            return 2
        try:
            typed = input(t("admin_erase_confirm", lang, name=args.username))
        except EOFError:
            typed = ""
        if typed.strip() != args.username:
            print(t("admin_erase_kept", lang, name=args.username))
            return 1
    kept_at = await _kept_aside(args.redis, storage, lang) if args.redis else None
    done = await storage.run(erase_job(storage.q, player, kept_at=kept_at))
    if done.busy:
        if done.tables:
            print(t("admin_erase_tables", lang, tables=", ".join(done.tables)), file=sys.stderr)
            if postgres and not args.redis:  # (maybe a cluster's: its lists were not read)
                print(t("admin_erase_tables_redis", lang), file=sys.stderr)
        if done.tournaments:
            tourneys = ", ".join(done.tournaments)
            print(t("admin_erase_tourneys", lang, tournaments=tourneys), file=sys.stderr)
        return 1
    tables, chat = await scrub_events(storage.run, storage.q, player)
    print(
        t(
            "admin_erased",
            lang,
            name=args.username,
            sessions=len(done.sessions),
            games=max(done.games, tables),
            chat=chat,
            seconds=round(config.reap_every),
        )
    )
    return 0


async def _kept_aside(url: str, storage: Any, lang: str) -> dict[str, tuple[str, int]]:
    """``erase --redis URL``: the tables the cluster's live nodes keep aside to be closed,
    each with its node and epoch, read as a node's ``delete_account`` reads them (each
    node's list in Redis, :func:`~batak.server.cluster.bus.kept_lists`), for
    :func:`~batak.server.erase.erase_job`'s ``kept_at``: such a seat is left out only if the
    table's owner row still names that node at that epoch, read ``FOR SHARE`` in the
    erasure's own transaction. Said to the operator; Redis out of reach is said too, and
    then nothing is left out (as without ``--redis``)."""
    from ..server.cluster.bus import kept_lists
    from ..server.cluster.owner import ALIVE
    from ..server.storage import shown_url

    def alive(cur: Any) -> list[str]:
        cur.execute("SELECT to_regclass('cluster_nodes')")  # (no cluster ever ran on it)
        if cur.fetchone()[0] is None:
            return []
        cur.execute(ALIVE)
        return [str(r[0]) for r in cur.fetchall()]

    nodes = await storage.run(alive)
    if not nodes:
        print(t("admin_erase_no_nodes", lang))
        return {}
    try:
        import redis.asyncio as aioredis

        client = aioredis.Redis.from_url(url, socket_connect_timeout=5, socket_timeout=5)
        try:
            kept = await kept_lists(client, nodes)
        finally:
            await client.aclose()
    except Exception as e:  # (ImportError: batak[cluster] is not installed)
        why = str(e).strip().splitlines()[0].rstrip(".") if str(e).strip() else ""
        why = why or type(e).__name__
        said = t("admin_erase_redis_down", lang, url=shown_url(url), error=why)
        print(f"batak admin: {said}", file=sys.stderr)
        return {}
    print(t("admin_erase_kept_read", lang, nodes=", ".join(nodes), count=len(kept)))
    return kept


def _backup(args: argparse.Namespace, lang: str, url: str) -> int:
    """``backup FILE``: a copy of the SQLite database taken while the server may run (SQLite's
    online backup in one step: a consistent copy of the database as it was at one moment,
    moves in the WAL file included), written to ``FILE.part`` and renamed once checked.
    PostgreSQL has its own tool (``pg_dump``), which this says."""
    import sqlite3

    def refuse(words: str) -> int:
        print(f"batak admin: {words}", file=sys.stderr)
        return 2

    from .serve import storage_problem

    if not url.startswith("sqlite:///"):
        return refuse(t("admin_backup_postgres", lang))
    problem = storage_problem(url, lang, create=False, write=False)
    if problem:
        return refuse(problem)
    source = url.removeprefix("sqlite:///")
    dest = Path(args.file)
    if dest.exists():
        return refuse(t("admin_backup_exists", lang, path=args.file))
    if not dest.parent.is_dir():
        return refuse(t("admin_backup_no_folder", lang, path=str(dest.parent)))
    part = dest.with_name(dest.name + ".part")
    if sys.stderr.isatty():  # one step (below): said before it, as it may take a while
        print(t("admin_backing_up", lang, path=args.file), file=sys.stderr, flush=True)
    try:
        src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
        try:
            out = sqlite3.connect(part)
            try:
                # in one step: a copy made in steps starts again whenever the server commits
                # between two of them, which on a busy server is for ever; in one step it reads
                # one moment of the database (WAL mode) and the server's writes go on meanwhile
                src.backup(out, pages=-1)
                checked = out.execute("PRAGMA quick_check").fetchone()[0]
                tables = out.execute("SELECT COUNT(*) FROM tables").fetchone()[0]
                accounts = out.execute(
                    "SELECT COUNT(*) FROM players WHERE username IS NOT NULL"
                ).fetchone()[0]
            finally:
                out.close()
        finally:
            src.close()
        if checked != "ok":
            part.unlink(missing_ok=True)
            return refuse(t("admin_backup_bad", lang, detail=str(checked)))
        part.rename(dest)
    except (sqlite3.Error, OSError) as e:
        _unlink_part(part)
        return refuse(f"{args.file}: {e}")
    except BaseException:  # Ctrl+C, SIGTERM: no half copy left behind
        _unlink_part(part)
        raise
    size = dest.stat().st_size / 1e6
    print(
        t(
            "admin_backed_up",
            lang,
            path=args.file,
            mb=f"{size:.1f}".replace(".", "," if lang == "tr" else "."),  # 0,2 MB in Turkish
            tables=tables,
            accounts=accounts,
            folder=str(Path(source).parent),
        )
    )
    return 0


def _unlink_part(part: Path) -> None:
    """A backup's unfinished copy, and SQLite's journal beside it, removed."""
    for path in (part, part.with_name(part.name + "-journal")):
        path.unlink(missing_ok=True)


def run_admin(args: argparse.Namespace, lang: str) -> int:
    return asyncio.run(_admin(args, lang))


async def _admin(args: argparse.Namespace, lang: str) -> int:
    from dataclasses import replace

    from ..server.chips import Desk
    from ..server.config import ServerConfig
    from ..server.storage import open_storage
    from .serve import storage_problem

    if args.redis is not None and args.job != "erase":  # (before the database is opened)
        print(f"batak admin: {t('admin_redis_erase_only', lang, job=args.job)}", file=sys.stderr)
        return 2
    config = ServerConfig(data=Path(args.data), database=args.database)
    if args.job == "chip-report":
        config = replace(config, dumping_min_matches=args.min_matches)
    if args.job == "backup":  # a copy of the file: the server's storage is not opened
        return _backup(args, lang, config.database_url)
    # a folder given wrong must not become a new, empty database that "checks out"
    writes = args.job in ("vip", "password", "ban", "unban", "erase")
    problem = storage_problem(config.database_url, lang, create=False, write=writes)
    if problem:
        print(f"batak admin: {problem}", file=sys.stderr)
        return 2
    storage = open_storage(config.database_url, immediate=writes)
    await storage.open()
    try:
        desk = Desk(storage, config)
        if args.job == "ledger-check":
            problems = await desk.check()

            def counts(cur: Any) -> tuple[int, int]:
                cur.execute("SELECT COUNT(DISTINCT txn) FROM ledger")
                txns = int(cur.fetchone()[0])
                cur.execute("SELECT COUNT(*) FROM chip_accounts")
                return txns, int(cur.fetchone()[0])

            txns, accounts = await storage.run(counts)
            for p in problems:
                print(p)
            key = "admin_ledger_bad" if problems else "admin_ledger_ok"
            print(t(key, lang, txns=txns, accounts=accounts, problems=len(problems)))
            return 1 if problems else 0
        if args.job == "chip-report":
            rows = await desk.report()
            if not rows:
                print(t("admin_report_none", lang, n=args.min_matches))
            for r in rows:
                # an erased account has no name left: said so, with its id to look it up
                removed = text("server.removed_player", lang)
                print(
                    t(
                        "admin_report_row",
                        lang,
                        loser=r["from_name"] or f"{removed} ({r['from']})",
                        winner=r["to_name"] or f"{removed} ({r['to']})",
                        matches=r["matches"],
                        chips=r["chips"],
                        share=round(100 * r["one_sided"]),
                    )
                )
            return 0
        if args.job == "players":
            return await _players(args, lang, storage, desk)
        row = await storage.account_named(args.username)
        if row is None:
            fit = await storage.accounts_like(args.username)
            if len(fit) > 1:  # "Alice" for "alice" and "ALICE": which one is meant
                names = ", ".join(str(r.username) for r in fit)
                print(
                    t("admin_which_player", lang, name=args.username, names=names), file=sys.stderr
                )
                return 2
            print(t("admin_no_player", lang, name=args.username), file=sys.stderr)
            return 2
        args.username = row.username  # as it is written
        if args.job == "password":
            return await _new_password(args, lang, storage, config, row.id)
        if args.job == "export":
            return await _export(args, lang, storage, row.id)
        if args.job == "erase":
            return await _erase(args, lang, storage, config, row.id)
        if args.job == "ban":
            reason = " ".join((args.reason or "").split())[:200] or None
            if row.banned is not None:  # banned already: since then, a new reason if given
                if reason is not None:
                    await storage.update_player(row.id, ban_reason=reason)
                await storage.end_sessions(row.id)  # none but one made meanwhile
                key = "admin_banned_already" if reason is None else "admin_banned_reason"
                when = _when(row.banned)
                _say(
                    t(key, lang, name=row.username, when=when, reason=reason), names=[args.username]
                )
                return 0
            await storage.update_player(row.id, banned=time.time(), ban_reason=reason)
            ended = await storage.end_sessions(row.id)
            _say(
                t(
                    "admin_banned",
                    lang,
                    name=row.username,
                    sessions=len(ended),
                    seconds=round(config.reap_every),
                ),
                names=[args.username],
            )
            command, placeholder = _unban_command(args, lang)
            if placeholder is None:
                line = t("admin_open_again", lang, command=command)
            else:
                line = t(
                    "admin_open_again_password", lang, placeholder=placeholder, command=command
                )
            print("\n".join(fit_address(line, command, _width())))  # the command never broken
            return 0
        if args.job == "unban":
            if row.banned is None:
                _say(t("admin_not_banned", lang, name=row.username), names=[args.username])
                return 0
            await storage.update_player(row.id, banned=None, ban_reason=None)
            _say(t("admin_unbanned", lang, name=row.username), names=[args.username])
            return 0
        await desk.set_vip(row.id, args.flag == "on")
        _say(t("admin_vip_" + args.flag, lang, name=args.username), names=[args.username])
        return 0
    finally:
        await storage.close()
