"""``batak verify RECORD``: check a server's record of a match against the commitments the
server published before each deal, and recompute every deal from its revealed seed.

RECORD is a file or the record's full address (``http://HOST:PORT/api/tables/ID/record``, with
``?key=…`` for a private room). Whatever is not a server's record with commitments (no such file,
not JSON, a match played with ``batak play``, an address the server refuses or nobody answers,
an answer too large, too slow or sent on to another server: docs/security.md)
is an error in the reader's language on stderr, exit code 2, as ``replay`` and ``analyse`` say
it (the file is read by :func:`~batak.cli.console.read_record_data`, which they share).

For each deal: SHA-256 of ``TABLE:SEED`` must be the commitment, and the engine's shuffle with
that seed must give exactly the hands (and kitty) in the record. Compare the commitments printed
here with the ones your client showed during the match (``batak online`` says each one; the web
client's score sheet lists them). Exit code 0 if every deal checks.
"""

from __future__ import annotations

import argparse
import http.client
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from ..cards import format_cards
from ..game import Game
from ..rules import Rules, RulesError
from .console import CommandError, Console, Style, fail, read_record_data, record_data
from .parser import add_lang_option
from .text import t

__all__ = [
    "NotVerifiable",
    "add_verify_parser",
    "fetch_record",
    "fetched",
    "run_verify",
    "verify_record",
]


def add_verify_parser(sub: Any, lang: str) -> None:
    p = sub.add_parser("verify", help=t("help_verify", lang), description=t("help_verify", lang))
    p.add_argument("record", metavar="RECORD", help=t("help_verify_record", lang))
    add_lang_option(p, lang)


class NotVerifiable(Exception):
    """A Batak record without commitments and seeds; ``server`` if a server wrote it (a match
    dealt before its deals could be verified), else a match played elsewhere (``batak play``)."""

    def __init__(self, server: bool) -> None:
        super().__init__("a record without commitments and seeds")
        self.server = server


class DamagedRecord(Exception):
    """A record whose deals, commitments or seeds are not in the form a server writes."""


def verify_record(rec: dict[str, Any]) -> list[tuple[int, str, bool, bool]]:
    """For each deal: (deal number, its commitment, commitment checks, cards check).

    Raises :class:`NotVerifiable` for a record without commitments, :class:`RulesError` for
    rules no table has, and :class:`DamagedRecord` for any other part out of its form."""
    from ..server.fair import commitment  # the one definition of the hash

    meta = rec.get("meta")
    meta = meta if isinstance(meta, dict) else {}
    fair = meta.get("fair")
    if not isinstance(fair, dict) or "table" not in fair:
        raise NotVerifiable(server="table" in meta)
    rules = Rules.from_dict(rec.get("rules"))  # type: ignore[arg-type]
    try:
        table = str(fair["table"])
        revealed = {int(d["deal"]): d for d in fair.get("revealed", [])}
        out = []
        for i, deal in enumerate(rec["deals"], start=1):
            r = revealed.get(i)
            if r is None:
                out.append((i, "", False, False))
                continue
            seed = str(r["seed"])
            promised = str(r["commitment"])
            ok_commit = commitment(table, seed) == promised
            game = Game(rules, dealer=deal["dealer"], seed=seed)
            hands = [format_cards(h) for h in game.initial_hands]
            ok_cards = hands == deal["hands"] and format_cards(game.initial_kitty) == (
                deal.get("kitty") or ""
            )
            out.append((i, promised, ok_commit, ok_cards))
    except (KeyError, TypeError, ValueError, AttributeError):
        raise DamagedRecord from None
    return out


#: The most a record read from a server may weigh: a 13-deal match's record is about 16 KB and
#: one of 1,000 deals (the most a match may have) about 1 MB, so nothing larger is a record; a
#: server sending more (by mistake, or to fill the reader's memory) is not read to the end.
MAX_RECORD_BYTES = 20 * 1024 * 1024
#: The longest a record's fetch may take in all (connecting, the answer's head and its body):
#: the socket's own timeout counts each read alone, so a server sending a byte now and then
#: would hold the command for ever.
FETCH_SECONDS = 60.0


class _Redirected(Exception):
    """A server sent the record's fetch on to another scheme or host (``target``)."""

    def __init__(self, target: str) -> None:
        super().__init__(target)
        self.target = target


class _SameServerOnly(urllib.request.HTTPRedirectHandler):
    """Redirects are followed only on the server the reader named (same scheme, host and
    port): the address (a private record's ``?key=`` with it) goes nowhere else, and an
    ``ftp://`` or ``file://`` target is never fetched."""

    def redirect_request(
        self,
        req: urllib.request.Request,
        fp: Any,
        code: int,
        msg: str,
        headers: Any,
        newurl: str,
    ) -> urllib.request.Request | None:
        old, new = urlsplit(req.full_url), urlsplit(newurl)
        if (old.scheme, old.netloc.lower()) != (new.scheme.lower(), new.netloc.lower()):
            raise _Redirected(newurl)
        return super().redirect_request(req, fp, code, msg, headers, newurl)


def fetched(src: str) -> bool:
    """Whether :func:`fetch_record` reads ``src`` from a server: an http(s) address (the
    scheme in any case: ``HTTP://`` too), not a file.

    >>> fetched("HTTP://h:8000/api/tables/t1/record"), fetched("http.json")
    (True, False)
    """
    return src[:8].lower().startswith(("http://", "https://"))


def fetch_record(src: str, lang: str) -> dict[str, Any]:
    """The record in the file ``src``, or at the address ``src`` on a server, as JSON (not yet
    replayed), or :class:`CommandError` saying in the reader's language why not. A server's
    answer is read up to :data:`MAX_RECORD_BYTES`, within :data:`FETCH_SECONDS` in all, with
    redirects followed on the same server only."""
    if not fetched(src):
        if src.startswith("/api/") and not Path(src).exists():  # half an address
            raise CommandError(t("verify_full_address", lang, path=src))
        return read_record_data(src, lang)
    try:
        parts = urlsplit(src)
    except ValueError:  # e.g. an IPv6 address without its closing bracket
        raise CommandError(t("verify_bad_address", lang, address=src)) from None
    server = f"{parts.scheme}://{parts.netloc}"  # (urlsplit gives the scheme in lower case)
    done: list[bytes | BaseException] = []

    def fetch() -> None:
        try:
            done.append(_download(src, time.monotonic() + FETCH_SECONDS))
        except BaseException as e:  # handed to the command's thread, said there
            done.append(e)

    worker = threading.Thread(target=fetch, name="batak-fetch-record", daemon=True)
    worker.start()
    worker.join(FETCH_SECONDS + 1)  # (a stalled connect or head: the thread is left behind)
    if not done:
        raise CommandError(t("verify_too_slow", lang, server=server, seconds=int(FETCH_SECONDS)))
    result = done[0]
    if isinstance(result, bytes):
        return record_data(result, src, lang)
    try:
        raise result
    except _Redirected as e:
        raise CommandError(t("verify_redirected", lang, server=server, target=e.target)) from None
    except _TooBig:
        mb = MAX_RECORD_BYTES // (1024 * 1024)
        raise CommandError(t("verify_too_big", lang, server=server, mb=mb)) from None
    except _TooSlow:
        raise CommandError(
            t("verify_too_slow", lang, server=server, seconds=int(FETCH_SECONDS))
        ) from None
    except urllib.error.HTTPError as e:
        if str(e.msg).startswith(urllib.request.HTTPRedirectHandler.inf_msg):
            # urllib's "redirect error that would lead to an infinite loop": the same address
            # twice, or more redirects than it follows (it said "HTTP 302", which tells nothing)
            raise CommandError(t("verify_redirect_loop", lang, server=server)) from None
        if e.code == 404:
            raise CommandError(t("verify_no_match", lang, server=server)) from None
        if e.code == 403:
            raise CommandError(t("verify_private", lang, server=server)) from None
        if e.code == 409:
            raise CommandError(t("verify_not_over", lang, server=server)) from None
        raise CommandError(t("verify_http_error", lang, server=server, status=e.code)) from None
    except urllib.error.URLError as e:
        if not isinstance(e.reason, BaseException):  # urllib's own words: no host given
            raise CommandError(t("verify_bad_address", lang, address=src)) from None
        raise CommandError(
            t("verify_unreachable", lang, server=server, reason=_why(e.reason, lang))
        ) from None
    except (ValueError, http.client.InvalidURL):  # a port that is not a number
        raise CommandError(t("verify_bad_address", lang, address=src)) from None
    except (OSError, http.client.HTTPException) as e:  # broke or timed out on the way
        raise CommandError(
            t("verify_unreachable", lang, server=server, reason=_why(e, lang))
        ) from None


class _TooBig(Exception):
    """The answer is larger than :data:`MAX_RECORD_BYTES`."""


class _TooSlow(Exception):
    """The answer's body was still coming at the deadline."""


def _download(src: str, deadline: float) -> bytes:
    """The body at ``src``, read in pieces as they come, stopped past the size cap or the
    deadline."""
    opener = urllib.request.build_opener(_SameServerOnly)
    with opener.open(src, timeout=min(30.0, FETCH_SECONDS)) as answer:
        length = answer.headers.get("Content-Length", "")
        if length.strip().isdigit() and int(length) > MAX_RECORD_BYTES:
            raise _TooBig
        pieces: list[bytes] = []
        size = 0
        while True:
            if time.monotonic() > deadline:
                raise _TooSlow
            piece = answer.read1(65536)  # (what has come, not waiting for a whole 64 KB)
            if not piece:
                return b"".join(pieces)
            size += len(piece)
            if size > MAX_RECORD_BYTES:
                raise _TooBig
            pieces.append(piece)


def _why(error: BaseException, lang: str) -> str:
    """Why a server could not be reached, in the reader's words where the cause is common."""
    from .online import connect_problem  # the same words as batak online and batak bot

    return connect_problem(error, lang)


def run_verify(args: argparse.Namespace, con: Console, lang: str) -> int:
    src = str(args.record)
    try:
        rec = fetch_record(src, lang)
        results = verify_record(rec)
    except CommandError as e:
        return fail(con, lang, str(e))
    except NotVerifiable as e:
        return fail(
            con, lang, t("verify_no_fair" if e.server else "verify_not_server", lang, source=src)
        )
    except RulesError as e:
        return fail(con, lang, t("broken_record", lang, path=src, message=e.text(lang)))
    except DamagedRecord:
        return fail(con, lang, t("verify_damaged", lang, source=src))
    if not results:  # nothing checked is not "all checks"
        return fail(con, lang, t("verify_no_deals", lang, source=src))
    good = True
    # the two words every line uses, said once in plain words: few players know them
    con.wrapped(t("verify_terms", lang), width=Style(con.out).width)
    for deal, commit, ok_commit, ok_cards in results:
        if not commit:
            con.say(t("verify_unrevealed", lang, n=deal))
            good = False
            continue
        key = "verify_ok" if ok_commit and ok_cards else "verify_bad"
        what = []
        if not ok_commit:
            what.append(t("verify_bad_commitment", lang))
        if not ok_cards:
            what.append(t("verify_bad_cards", lang))
        con.say(t(key, lang, n=deal, commitment=commit, problems="; ".join(what)))
        good = good and ok_commit and ok_cards
    if good:
        con.say(
            t("verify_all_ok", lang, n=len(results))
            if len(results) > 1
            else t("verify_one_ok", lang)
        )
    else:
        con.say(t("verify_not_ok", lang, n=len(results)))
    return 0 if good else 1
