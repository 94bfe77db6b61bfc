"""``batak online``: play at a Batak server from the terminal, in Turkish or English.

It speaks the server's protocol through :class:`batak.server.client.Client` and draws only from
the seat's view (the same status lines as ``batak play``). The session token is kept per server
address in ``~/.config/batak/online.json`` (or ``$BATAK_HOME/online.json``), so the same player
comes back after a disconnect, a restart of either side, or ``quit``: the seat is held, then a
computer plays it until you return.

At your turn, type a move (its number in the list, or ``KH``, ``10h``, ``bid 7``, ``pas``, a
koz letter or name, a card to bury), ``hint``, ``!`` to play the hinted move, ``last``,
``sheet``, ``review [N]`` (where a finished deal lost its tricks, the server's deal review; the
last one by default, and also at the rematch question), ``say TEXT``, ``level``, ``ratings``,
``league``, ``?`` for help, or ``quit``. At the end of a match it says what the match earned
(XP, level, rating, league points); ``--show progress|ratings|league`` only shows that and
exits.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import json
import os
import random
import socket
import sys
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from ..cards import Card
from ..explain import preset_title
from ..i18n import chips_text, folded, plain_lower, text, turkish_lower
from ..match import ScoreRow
from ..moves import Bid, MoveError, Pass, parse_in_phase, parse_move
from ..rules import Rules, RulesError
from .console import (
    EXIT_FAIL,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_USAGE,
    HELP_WORDS,
    Console,
    Style,
    auction_over_lines,
    contract_given_in,
    contract_lines,
    deal_heading,
    fit_address,
    fit_list,
    fit_under,
    hash_lines,
    move_text,
    no_number,
    not_a_move,
    opening_lines,
    refused,
    score_sheet_lines,
    short_hash,
    short_labels,
    soz_line,
    status_lines,
    tie_note,
    trick_items,
    unknown_command,
)
from .parser import add_lang_option
from .text import error_message, t

__all__ = ["ServerGone", "SessionEnded", "add_online_parser", "reconnect", "run_online"]

#: how long a rematch waits for the others' yes (seconds)
REMATCH_WAIT = 120.0
#: how long the host's prompt waits for an invited player to sit down before it asks again
INVITE_WAIT = 20.0
#: after a lost connection: how long to keep trying (seconds), and the longest pause between
#: two tries (the pauses double from one second: 1, 2, 4, 8, 15, 15 …)
RETRY_FOR = 120.0
RETRY_PAUSE_MAX = 15.0


def o(code: str, lang: str, /, **params: Any) -> str:
    """The terminal client's text ``code`` in ``lang``."""
    return text(f"online.{code}", lang, **params)


def signed_chips(n: int, lang: str) -> str:
    """A change of chips with its sign: +900, −50 (a true minus), ±0."""
    sign = "+" if n > 0 else "\u2212" if n < 0 else "\u00b1"
    return sign + chips_text(abs(n), lang)


def payout_words(pay: dict[str, Any], seat: int, lang: str) -> str:
    """What a staked match paid ``seat`` (not zero), said against its stake: what came back,
    the net change, the table fee or where the açık eşli quarter went.

    >>> pay = {"stake": 1000, "scoring": "sultan", "payouts": [1900, 0], "fees": [100, 0],
    ...        "winners": [0], "kasa_added": 0}
    >>> payout_words(pay, 0, "en")
    'Your winnings: 1,900 chips (+900 on your stake of 1,000; table fee 100).'
    >>> payout_words(pay | {"payouts": [950, 0], "fees": [50, 0]}, 0, "tr")[-64:]
    '1.000 çiplik bahsinden 950 çip geri aldın (−50; masa ücreti 50).'

    Only house bots won (no person is among the ``winners``): a kasa share is no win.

    >>> lost = {"stake": 100, "scoring": "acik", "payouts": [25, 0, 0, 0], "winners": [],
    ...         "fees": [0, 0, 0, 0], "kasa_added": 25}
    >>> payout_words(lost, 0, "en")[:59]
    'You lost the match, but your team took 11 tricks in a deal:'
    """
    mine = int(pay["payouts"][seat])
    stake = int(pay["stake"])
    fee = int((pay.get("fees") or [0] * (seat + 1))[seat])
    net = signed_chips(mine - stake, lang)
    winners = pay.get("winners")  # (empty when house bots alone won: no person did)
    won = winners is None or seat in winners  # or a share of the kasa only
    # (a win that returns less than the stake says the stake in its sentence already)
    short = won and mine < stake
    detail = [net if short else o("payout_net", lang, net=net, stake=stake)]
    if fee:
        detail.append(o("payout_fee_part", lang, n=chips_text(fee, lang)))
    elif pay.get("scoring") == "acik":
        quarter = "payout_quarter_kasa" if pay.get("kasa_added") else "payout_quarter_house"
        detail.append(o(quarter, lang))
    words = {"detail": "; ".join(detail), "n": chips_text(mine, lang)}
    if not won:
        return o("payout_lost_kasa", lang, **words)
    if short:
        return o("payout_won_short", lang, stake=stake, **words)
    return o("payout_won", lang, **words)


def add_online_parser(sub: Any, lang: str) -> None:
    p = sub.add_parser("online", help=o("help", lang), description=o("help", lang))
    p.add_argument(  # (URL: ADRES in Turkish, as every address's placeholder)
        "url", nargs="?", default="http://127.0.0.1:8000", metavar="URL", help=o("help_url", lang)
    )
    p.add_argument("--name", default=None, help=o("help_name", lang))
    group = p.add_mutually_exclusive_group()
    group.add_argument("--quick", default=None, metavar="MODE", help=o("help_quick", lang))
    group.add_argument("--join", default=None, metavar="CODE", help=o("help_join", lang))
    group.add_argument(
        "--create", type=str.lower, default=None, metavar="PRESET", help=o("help_create", lang)
    )
    # not in the group: its usage line would pass 80 columns (checked below instead)
    p.add_argument("--invited", action="store_true", help=o("help_invited", lang))
    p.add_argument("--deals", type=int, default=None, metavar="N", help=o("help_deals", lang))
    # chips (issue 12): a staked table needs an account
    p.add_argument("--stake", type=int, default=0, metavar="CHIPS", help=o("help_stake", lang))
    p.add_argument("--username", default=None, help=o("help_username", lang))
    p.add_argument("--register", action="store_true", help=o("help_register", lang))
    p.add_argument(
        "--password",
        default=None,
        help=o("help_password", lang),
    )
    p.add_argument(
        "--show", choices=("progress", "ratings", "league"), default=None, help=o("help_show", lang)
    )
    add_lang_option(p, lang)


class AddressError(ValueError):
    """A server address that is not an http(s) or websocket address."""


def ws_url(url: str) -> str:
    """``http://host:port`` (or ``host:port``, or the websocket address itself) → ``ws://…/ws``;
    :class:`AddressError` for any other scheme.

    >>> ws_url("127.0.0.1:8000"), ws_url("https://batak.example/"), ws_url("ws://h:1/ws")
    ('ws://127.0.0.1:8000/ws', 'wss://batak.example/ws', 'ws://h:1/ws')
    >>> for bad in ("ftp://h", "http://[::1", "h:port", "http://"):
    ...     try:
    ...         ws_url(bad)
    ...     except AddressError:
    ...         print("refused", bad)
    refused ftp://h
    refused http://[::1
    refused h:port
    refused http://
    """
    u = url.strip()
    if "://" not in u:
        u = "http://" + u
    scheme, rest = u.split("://", 1)
    rest = rest.rstrip("/")
    scheme = {"http": "ws", "https": "wss"}.get(scheme.lower(), scheme.lower())
    if scheme not in ("ws", "wss") or not rest or rest.startswith("/"):
        raise AddressError(url)
    if not rest.endswith("/ws"):
        rest += "/ws"
    out = f"{scheme}://{rest}"
    try:
        parts = urlsplit(out)
        parts.port  # noqa: B018 - a port that is not a number raises here
    except ValueError:
        raise AddressError(url) from None
    if not parts.hostname:
        raise AddressError(url)
    return out


def http_url(url: str) -> str:
    """The server's own address (for the paths it gives, such as a record's) from any address
    :func:`ws_url` takes.

    >>> http_url("127.0.0.1:8000"), http_url("wss://batak.example/ws")
    ('http://127.0.0.1:8000', 'https://batak.example')
    """
    scheme, rest = ws_url(url).split("://", 1)
    return f"{'https' if scheme == 'wss' else 'http'}://{rest.removesuffix('/ws')}"


def connect_problem(error: BaseException, lang: str) -> str:
    """Why a connection to a server failed, in the reader's words where the cause is a common
    one (nothing listening, no such host, no answer in time), else the error's own text."""
    if isinstance(error, ConnectionRefusedError):
        return o("reason_refused", lang)
    if isinstance(error, socket.gaierror):
        return o("reason_no_host", lang)
    if isinstance(error, TimeoutError):
        return o("reason_timeout", lang)
    return str(error)


class ServerGone(Exception):
    """The connection was lost and the server did not come back within the time allowed."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"the server did not come back within {seconds:.0f} s")
        self.seconds = seconds

    @property
    def minutes(self) -> int:
        """The time tried, in whole minutes as said to a person (at least 1)."""
        return max(1, round(self.seconds / 60))


class SessionEnded(Exception):
    """The connection came back, but the session had ended meanwhile (a new password, a logout
    on another device, the server's host): the token opens nothing, and the server made this
    connection a new guest, who sits at none of the player's tables."""


async def reconnect(
    client: Any, say: Callable[[str], Any], lang: str, *, retry_for: float | None = None
) -> None:
    """After a lost connection: say so, then connect again (same token: the same player, back
    at its tables, its unacknowledged moves sent again) with pauses that double from one second
    up to ``RETRY_PAUSE_MAX``, for up to ``retry_for`` seconds (``RETRY_FOR``); say when it is
    back. :class:`ServerGone` when it never came back; :class:`SessionEnded` when it came back
    without the session."""
    from websockets.exceptions import ConnectionClosed, InvalidHandshake

    from ..server.client import ServerError

    retry_for = RETRY_FOR if retry_for is None else retry_for
    say(o("lost", lang))
    loop = asyncio.get_running_loop()
    deadline = loop.time() + retry_for
    pause = 1.0
    while True:
        try:
            await client.reconnect()
        except (OSError, TimeoutError, ConnectionClosed, InvalidHandshake, ServerError):
            # nothing listening yet, a proxy's 502 while the server restarts, a server that
            # closed again or is too busy to say hello: all worth another try
            pass
        else:
            if client.welcome.get("token_unknown"):
                raise SessionEnded
            say(o("reconnected", lang))
            return
        left = deadline - loop.time()
        if left <= 0:
            await client.drop()
            raise ServerGone(retry_for)
        # a little spread, so that the players of a restarted server do not all come at once
        await asyncio.sleep(min(left, pause * random.uniform(0.8, 1.0)))
        pause = min(pause * 2, RETRY_PAUSE_MAX)


def _token_file() -> Path:
    home = os.environ.get("BATAK_HOME")
    return Path(home) if home else Path.home() / ".config" / "batak"


def load_token(url: str) -> str | None:
    with contextlib.suppress(OSError, ValueError):
        data = json.loads((_token_file() / "online.json").read_text(encoding="utf-8"))
        token = data.get(url)
        return token if isinstance(token, str) else None
    return None


def save_token(url: str, token: str | None) -> None:
    if not token:
        return
    path = _token_file() / "online.json"
    with contextlib.suppress(OSError, ValueError):
        data: dict[str, str] = {}
        if path.exists():
            data = json.loads(path.read_text(encoding="utf-8"))
        data[url] = token
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(data, indent=1), encoding="utf-8")
        path.chmod(0o600)


def run_online(args: argparse.Namespace, con: Console, lang: str) -> int:
    if args.invited and (args.quick or args.join or args.create):
        sys.stderr.write(error_message(lang, o("invited_alone", lang)) + "\n")
        return EXIT_USAGE
    if args.register and not args.username:
        sys.stderr.write(error_message(lang, o("register_needs_username", lang)) + "\n")
        return EXIT_USAGE
    try:
        session = OnlineSession(args, con, lang)
    except AddressError:
        con.say(o("bad_address", lang, url=args.url))
        return EXIT_FAIL
    try:
        return asyncio.run(session.run())
    except KeyboardInterrupt:  # Ctrl-C: said as 'quit' says it (the seat is held, how to return)
        con.say()
        session._say(session.leaving_words())
        return EXIT_INTERRUPTED


class OnlineSession:
    """One terminal player at one server table."""

    def __init__(self, args: argparse.Namespace, con: Console, lang: str) -> None:
        self.args = args
        self.con = con
        self.lang = lang
        self.style = Style(con.out)
        self.url = ws_url(args.url)
        self.http = self.url.replace("ws", "http", 1)[: -len("/ws")]
        self.table = ""
        self.shown = 0  # events already narrated
        self.hinted: str | None = None
        self.commitments: dict[int, str] = {}  # deal -> the commitment seen before it
        self.fair_explained = False  # what a commitment and a seed are: said once a match
        #: another's kitty cards buried so far, by seat: the burial is said once, when done
        self.hidden_buried: dict[int, int] = {}
        # the one reading of the terminal: a line asked for and not typed yet (the table may
        # move on meanwhile: what is typed then answers the prompt shown by then)
        self._reading: asyncio.Future[str] | None = None
        #: the prompt on the screen for that reading ("" between turns), None once its line
        #: has ended: what is said meanwhile goes above it (Console.above_prompt)
        self._shown: str | None = None
        self._rules: tuple[str, Rules | None] | None = None  # (table, its rules) parsed once
        #: the players as last said (None: not yet: the seat's line says them first)
        self.players_said: list[str] | None = None
        self.helped = False  # the commands said (at the first table; '?' says them again)
        self._new_table()

    def _new_table(self) -> None:
        """What is followed of a table's deals, from nothing (a new table, a rematch's)."""
        self.deal_said = 0  # the deal whose heading was said
        #: the deal under way when the player sat down: its first moves were made before
        self.joined_deal = 0
        self.auction_said = 0  # the deal whose auction's end was said ("ihale X'te kaldı")
        self.trick: list[tuple[int, str]] = []  # the trick being played: (seat, card)
        self.trick_deal = 0  # the deal it is of, and how many tricks of it were said before
        self.tricks_done = 0
        self.partner_said: str | None = None

    def rules(self) -> Rules | None:
        """The rules of the table this session sits at (None if the server's are unreadable),
        parsed once a table."""
        if self._rules is None or self._rules[0] != self.table:
            try:
                parsed: Rules | None = Rules.from_dict(self.client.tables[self.table].info["rules"])
            except (KeyError, TypeError, RulesError):
                parsed = None
            self._rules = (self.table, parsed)
        return self._rules[1]

    async def run(self) -> int:
        from ..server.client import Client, ServerError

        lang = self.lang
        self._say(o("connecting", lang, url=self.url))
        client = Client(
            self.url,
            name=self.args.name,
            token=load_token(self.url),
            lang=lang,
            ack_in_event=True,
        )
        try:
            await client.connect()
        except (OSError, ServerError, TimeoutError) as e:
            self._say(o("failed", lang, url=self.url, error=connect_problem(e, lang)))
            return EXIT_FAIL
        self.client = client
        try:
            if self.args.show:
                await self._show(self.args.show)
                return EXIT_OK
            try:
                await self._account()
                save_token(self.url, client.token)
                if self.args.invited and not client.player.get("account"):
                    self._say(o("invited_needs_account", lang))  # invitations go by username
                    return EXIT_FAIL
                state = await self._sit()
            except ServerError as e:
                self._say(o("refused_table", lang, reason=e.message))
                if e.code == "bad_login":  # perhaps there is no such account yet
                    self._say(o("no_account_hint", lang))
                return EXIT_FAIL
            except EOFError:  # the input ended at a question before the match (Ctrl-D):
                return EXIT_OK  # (its line ended by the console)
            self.table = state.id
            self.shown = len(state.events)
            return await self._play()
        except ServerGone as e:
            self._say(o("gone", lang, minutes=e.minutes))
            self._say(o("rerun", lang, url=self.args.url))
            return EXIT_FAIL
        except SessionEnded:
            save_token(self.url, client.token)  # the old one opens nothing any more
            self._say(o("session_ended", lang, url=self.args.url))
            return EXIT_FAIL
        except ConnectionError:  # lost where the session cannot take up again by itself
            self._say(o("cut", lang))
            self._say(o("rerun", lang, url=self.args.url))
            return EXIT_FAIL
        finally:
            await client.close()

    def leaving_words(self) -> str:
        """What leaving says now: what 'quit' says at a match not over (the seat is held, or
        the adjourned match waits), else a goodbye."""
        client = getattr(self, "client", None)
        st = client.tables.get(self.table) if client is not None and self.table else None
        if client is None or st is None or st.over or st.seat is None:
            return t("bye", self.lang)
        if st.closed is not None or st.lost:  # closed for good: no seat is held there
            return t("bye", self.lang)
        if st.info.get("status") == "adjourned":
            hosting = st.info.get("host") == client.player.get("id")
            return o("left_adjourned_host" if hosting else "left_adjourned", self.lang)
        return o("left", self.lang)

    async def _reconnect(self) -> None:
        """The connection is lost: get it back (:func:`reconnect`), or :class:`ServerGone`."""
        await reconnect(self.client, self._tell, self.lang)

    async def _account(self) -> None:
        """With ``--username``: log in (the password from ``--password``, BATAK_PASSWORD or a
        prompt); then an account's chips are said (the day's grant comes with the first look)."""
        a, c = self.args, self.client
        was = c.player.get("account")
        if a.username and was and plain_lower(was) != plain_lower(a.username):
            # the session saved here is another account's: registering would be refused ("you
            # already have an account") and its guest progress is not this player's; start
            # from a new guest instead (the other account's session is left as it is)
            self._say(o("other_account", self.lang, old=was, new=a.username))
            await c.close()
            c.token = None
            await c.connect()
        if a.username and c.player.get("account") != a.username:
            password = a.password or os.environ.get("BATAK_PASSWORD")
            if password is None:
                import getpass

                try:
                    password = await asyncio.to_thread(
                        getpass.getpass, o("password_prompt", self.lang)
                    )
                except EOFError:  # (Ctrl-D) getpass leaves its prompt's line open
                    self.con.say()
                    raise
            if a.register:  # a new account, for this player (guest so far) and its progress
                await c.register(a.username, password)
                self._say(o("registered", self.lang, username=a.username), a.username)
            else:
                await c.login(a.username, password)
        if c.player.get("account"):
            w = await c.wallet()
            if w.get("granted"):
                self._say(
                    o(
                        "chips_granted",
                        self.lang,
                        n=chips_text(w["granted"], self.lang),
                        balance=chips_text(w["balance"], self.lang),
                    )
                )
            else:
                self._say(
                    o("chips_balance", self.lang, balance=chips_text(w["balance"], self.lang))
                )

    async def _sit(self) -> Any:
        a, c = self.args, self.client
        if a.invited:
            return await self._wait_invited()
        if a.join:
            return await c.join(code=a.join)
        if a.create:
            options: dict[str, Any] = {"preset": a.create}
            if a.deals:
                options["deals"] = a.deals
            if a.stake:
                options["stake"] = a.stake
            created, state = await c.create(**options)
            invite = str(created["invite"])
            self._address(o("room", self.lang, code=created["code"], invite=invite), invite)
            await self._invite_until_start(state.id)
            await c.start(state.id)
            await c.until(lambda: c.tables[state.id].view is not None, 30)
            return state
        from ..server.client import ServerError

        modes = list(c.welcome.get("modes") or [])
        quick = plain_lower(a.quick or "ihaleli")  # İHALELİ too
        if modes and quick not in modes:  # said now, not only once an unfinished match is over
            said = text("server.bad_mode", self.lang, mode=a.quick, modes=", ".join(modes))
            raise ServerError({"code": "bad_mode", "message": said})
        mine = [tid for tid in c.welcome.get("tables", []) if tid]
        if mine:  # an unfinished table of ours: go back to it, and say why when asked for another
            state = await c.join(table=mine[0])
            if a.quick or a.stake:
                title = preset_title(str(state.info.get("preset") or ""), self.lang)
                code = state.info.get("code") or state.id
                self._say(o("unfinished_first", self.lang, table=code, preset=title))
            return state
        return await c.quick(quick, stake=a.stake)

    async def _wait_invited(self) -> Any:
        """``--invited``: wait, through lost connections, until a host invites this account to
        their room; ask whether to join each invitation; join the first one taken (a room that
        filled up or started meanwhile is said, and the wait goes on)."""
        from ..server.client import ServerError

        c, lang = self.client, self.lang
        self._say(o("invited_waiting", lang, name=c.player.get("account")))
        while True:
            invites = [m for m in c.drain() if m.get("type") == "invited"]
            for invite in invites:
                by = invite.get("from") or "?"
                preset = preset_title(str(invite.get("preset") or ""), lang)
                try:
                    line = await self._read(o("invited_prompt", lang, by=by, preset=preset))
                except EOFError:
                    line = "n"
                if line.strip().lower() not in ("", "y", "yes", "e", "evet"):
                    continue
                try:
                    return await c.join(code=invite["code"])
                except ServerError as e:
                    self._say(o("invited_refused", lang, by=by, reason=e.message), by)
            if c.closed:
                await self._reconnect()
                continue
            with contextlib.suppress(TimeoutError, ConnectionError):
                await c.next_change(30)

    async def _invite_until_start(self, table: str) -> None:
        """The host of a new room invites players by username (a friend's account or a bot
        account that is online) until an empty line starts the match; after an invitation the
        seats are said once someone sits down, or after a while."""
        from ..server.client import ServerError

        c, lang = self.client, self.lang
        self._say(o("start_help", lang))
        shown: list[str] = []
        while True:
            try:  # the bot accounts one could invite, when they change
                bots = [b["username"] for b in await c.invitable(table)]
            except ServerError:  # an older server
                bots = shown
            if bots and bots != shown:
                self._names("bots_online", bots)
            shown = bots
            state = c.tables[table]
            before = list(state.info.get("seats") or [])

            def same(st: Any = state, was: list[Any] = before) -> bool:
                return (st.info.get("seats") or []) == was

            # someone sitting down (by the code, or invited) is said at once, and asked again
            typed = await self._read_while(o("start_prompt", lang), same)
            if typed is None:
                self.con.say()
                if c.closed:
                    raise ConnectionError("connection closed")
                self._names("room_seats", self._labels(table))
                continue
            line = typed
            if not line:
                return
            before = list(state.info.get("seats") or [])
            try:
                await c.invite(table, line)
            except ServerError as e:
                self._say(o("invite_refused", lang, username=line, reason=e.message), line)
                continue
            self._say(o("invite_sent", lang, username=line), line)

            def changed(st: Any = state, was: list[Any] = before) -> bool:
                return (st.info.get("seats") or []) != was

            # a bot account sits down at once; a person may take a while
            with contextlib.suppress(TimeoutError):
                await c.until(changed, INVITE_WAIT)
            self._names("room_seats", self._labels(table))

    # ------------------------------------------------------------------ the terminal's width
    def _say(self, text: str, *names: str) -> None:
        """A sentence worded into the terminal's width (a line the terminal breaks is broken
        anywhere, mid-word), as ``batak play`` words its own; a player's name in it (those at
        the table, this player's own, ``names``) never cut (:meth:`_known_names`)."""
        self.con.wrapped(text, width=self.style.width, names=self._known_names(*names))

    def _known_names(self, *names: str) -> list[str]:
        """The names a sentence may hold that are never cut, however wide (a username of 32
        wide characters is 64 columns, wider than a 60-column terminal): ``names``, this
        player's own name and username, and everyone's at the table, as the lines name them."""
        known = list(names)
        client = getattr(self, "client", None)  # (none before the connection)
        if client is not None:
            player = getattr(client, "player", None) or {}
            known += [str(player.get("name") or ""), str(player.get("account") or "")]
            if self.table in client.tables:
                known += self._labels() + self._names_at()
        return [n for n in known if n]

    def _names(self, code: str, names: Sequence[str]) -> None:
        """The text ``code`` with a list of players (``Players now: You, Bot 2, …``), its lines
        broken between two names, never inside one."""
        self.con.lines(self._names_lines(code, names))

    def _names_lines(self, code: str, names: Sequence[str]) -> list[str]:
        """:meth:`_names`' lines, not said yet."""

        def said(joined: str) -> str:
            return o(code, self.lang, names=joined)

        return fit_list(said, names, self.style.width, sep=", ")

    def _address(self, text: str, address: str) -> None:
        """``text``, which ends with ``address`` (an invitation's link, a record's address, a
        command to copy), with the address on a line of its own when the whole does not fit."""
        self.con.lines(fit_address(text, address, self.style.width))

    # ------------------------------------------------------------------ the game
    def _names_at(self, table: str | None = None) -> list[str]:
        """The seats' names as the table gives them ("You" for this seat), unmarked: the score
        sheet's narrow columns are cut from them."""
        st = self.client.tables[table or self.table]
        seats = st.info.get("seats") or []
        out = []
        for i, s in enumerate(seats):
            # an empty seat is said to be empty, never "Player 2": a bot or a person who sits
            # there later is named by its own name, in the list and in the moves alike
            name = s.get("name") or o("empty_seat", self.lang, n=i + 1)
            out.append(t("you", self.lang) if i == st.seat else name)
        return out

    def _labels(self, table: str | None = None) -> list[str]:
        """How every line names the players: a bot account (a program that a person runs,
        marked at every table, docs/bots.md) with "(bot)" wherever it is named, in the lists
        of players, the moves and the results alike, so that people always know they face a
        program; the house's bots are "Bot 3" already, or hidden by the table. The reader's
        own seat is "You", unmarked even when the reader is a bot account."""
        st = self.client.tables[table or self.table]
        seats = st.info.get("seats") or []
        return [
            o("bot_account_name", self.lang, name=name)
            if i < len(seats) and seats[i].get("bot_account") and i != st.seat
            else name
            for i, name in enumerate(self._names_at(table))
        ]

    async def _play(self) -> int:
        c, lang = self.client, self.lang
        st = c.tables[self.table]
        labels = self._labels()
        preset = preset_title(str(st.info.get("preset") or ""), lang)
        code = st.info.get("code")
        if st.seat is None:  # joined a table in play by its code: a watcher, not "seat 1"
            self._say(o("watching", lang, table=code, preset=preset))
        else:
            self._say(o("seated", lang, table=code, preset=preset, seat=st.seat + 1))
        self._names("seated_players", self._labels())
        self.players_said = labels
        self._stake_line()
        f = st.info.get("fair") or {}
        if f.get("commitment"):
            self._commit(int(f["deal"]), str(f["commitment"]))
        self._partner(labels)
        if not self.helped:  # once: not again at a rematch's table
            self._help()
        if st.info.get("status") == "adjourned":  # (its event was before this player came)
            self._say(o("adjourned", lang))
        self._catch_up()
        tried = -1
        said_waiting = False  # "waiting for the match to start" once, not at each change
        while True:
            st = c.tables[self.table]
            self._narrate()
            if st.closed is not None or st.lost:  # closed for good (a story table started
                # over elsewhere), told as it happened or found when the connection came back
                if not await self._table_closed(st):
                    return EXIT_OK
                return await self._play()  # the table dealt in its place, from its start
            if st.over:
                self._finish()
                await self._payout()
                await self._awarded()
                if not await self._rematch():
                    return EXIT_OK
                return await self._play()  # the new table, from its start
            if c.closed:
                # back at the table as it is now: a move typed meanwhile has been sent again
                # (and taken if it still was legal); if it is still this seat's turn, ask again
                # (before anything else: an adjourned match's prompt came back for ever, and
                # the connection lost in a restart was never made again)
                await self._reconnect()
                tried = -1
                continue
            if st.info.get("status") == "adjourned" and st.view is not None:
                if not await self._adjourned(st):  # no seat is held: nothing is played
                    hosting = st.info.get("host") == c.player.get("id")
                    self._say(o("left_adjourned_host" if hosting else "left_adjourned", lang))
                    return EXIT_OK
                continue
            if st.view is None and self._hosting_now(st):
                # the host left this room before its start: this player hosts it now
                from ..server.client import ServerError

                me = c.player.get("id")
                passed = any(e.get("kind") == "stand" and e.get("host") == me for e in st.events)
                # told why only when the room passed to them; its creator back is just its host
                self._say(o("host_you_now" if passed else "host_you", lang))
                try:
                    await self._invite_until_start(st.id)
                    await c.start(st.id)
                except EOFError:  # the input ended at the start prompt (Ctrl-D)
                    self._say(o("left", lang))
                    return EXIT_OK
                except ServerError as e:  # someone else hosts it by now, or it has started
                    self._refused("refused_start", e.message)
                except (ConnectionError, TimeoutError):
                    pass  # looked at again (and connected again) below
                continue
            if st.view is None:
                if not said_waiting:
                    self._say(o("waiting", lang))
                said_waiting = True
            elif st.my_turn and st.state_v != tried:
                tried = st.state_v
                if not await self._decide():
                    self._say(o("left", lang))
                    return EXIT_OK
                continue
            if c.closed:  # (lost while the turn was asked for)
                await self._reconnect()
                tried = -1
                continue
            if not await self._wait_turn():
                self._say(o("left", lang))
                return EXIT_OK

    async def _adjourned(self, st: Any) -> bool:
        """An adjourned match ('continue later'): its host is asked whether to resume it now
        (Enter resumes, 'çık' leaves); anyone else waits for the host, with the commands at
        hand. False when the player quits."""
        from ..server.client import ServerError

        if st.info.get("host") != self.client.player.get("id"):
            return await self._wait_turn()
        # the prompt ends when the table changes without it (closed: started over elsewhere)
        # or the connection is lost; a line typed meanwhile answers it, not shown again then
        typed = self._reading is not None and self._reading.done()
        if not typed:  # (a line of its own: the prompt with it took 73 columns)
            self._say(o("resume_adjourned", self.lang))
        try:
            line = await self._read_while(
                "" if typed else o("resume_prompt", self.lang),
                lambda: st.closed is None and not st.lost and st.info.get("status") == "adjourned",
            )
        except EOFError:
            return False
        if line is None:  # closed meanwhile (started over elsewhere), or the connection lost:
            self.con.say()  # the prompt's line ends; looked at again (and connected again) by
            self._shown = None  # the caller, the reading still waiting for the next prompt
            return True
        if folded(line) & _QUIT_WORDS:
            return False
        try:
            if line and await self._command(line, st.view):
                return True
        except (ConnectionError, TimeoutError):
            return True  # looked at again (and connected again) by the caller
        for attempt in range(2):
            try:
                await self.client.start(self.table)
                await self.client.until(self._resumed, 10)
            except ServerError as e:
                self._refused("refused_resume", e.message)
            except TimeoutError:
                pass  # looked at again by the caller
            except ConnectionError:  # (the server restarted while the match was adjourned)
                if not attempt:  # connected again, the Enter pressed still resumes it
                    await self._reconnect()
                    continue
            break
        return True

    def _resumed(self) -> bool:
        """The table is no longer adjourned (its state as it is now: anew after a reconnect)."""
        return bool(self.client.tables[self.table].info.get("status") != "adjourned")

    def _hosting_now(self, st: Any) -> bool:
        """Whether this player hosts ``st``, a private room that waits for players, without
        having created it in this run (which starts it from ``_sit``): the room passed to them
        when its host left, or its creator came back to it."""
        me = self.client.player.get("id")
        host = st.info.get("host")
        return (
            st.info.get("status") == "waiting"
            and st.info.get("kind") == "private"
            and me is not None
            and host == me
            and not self.args.create
        )

    async def _rematch(self) -> bool:
        """After the match: ask the player for a rematch (same players, same rules). True when
        the new table is made and joined; False when the player, or someone else, says no, or
        nobody answers in time."""
        from ..server.client import ServerError

        c, lang = self.client, self.lang
        st = c.tables[self.table]
        if st.seat is None:
            return False
        while True:
            try:
                line = await self._read(o("rematch_prompt", lang))
            except EOFError:
                line = ""
            try:
                if not await self._maybe_review(line):
                    break
            except ConnectionError:
                await self._reconnect()
        yes = line.strip().lower() in ("y", "yes", "e", "evet")
        try:
            await c.rematch(self.table, accept=yes)
        except ServerError as e:
            self._refused("refused_rematch", e.message)
            return False
        if not yes:
            return False
        labels, said = self._labels(), None
        deadline = asyncio.get_running_loop().time() + REMATCH_WAIT
        while True:
            offer = st.rematch or {}
            new = offer.get("table_new")
            if new:
                break
            if offer.get("declined") is not None:
                who = offer.get("declined")
                name = labels[who] if isinstance(who, int) and who < len(labels) else "?"
                self._say(o("rematch_declined", lang, name=name))
                return False
            waiting = offer.get("waiting") or []
            if waiting and waiting != said:
                said = waiting
                self._say(o("rematch_waiting", lang, names=", ".join(labels[i] for i in waiting)))
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0:
                self._say(o("rematch_timeout", lang))
                with contextlib.suppress(ServerError, TimeoutError, ConnectionError):
                    await c.rematch(self.table, accept=False)
                return False
            try:
                await c.next_change(min(left, 5))
            except TimeoutError:
                pass
            except ConnectionError:
                await self._reconnect()
        try:
            state = await c.join(table=new)
        except ServerError as e:
            self._say(o("refused_table", lang, reason=e.message))
            return False
        self._say(o("rematch_new", lang))
        self._moved_to(state)
        return True

    def _moved_to(self, state: Any) -> None:
        """This session follows ``state``, a table just joined in place of the one it was at (a
        rematch's, the one dealt for a story stage started over), from its start."""
        self.table = state.id
        self.shown = len(state.events)
        self.commitments = {}
        self.fair_explained = False
        self.hidden_buried = {}
        self._new_table()

    async def _table_closed(self, st: Any) -> bool:
        """The table was closed for good while this session was at it (``closed``: its player
        started the story stage over in another tab or on another device), or found gone when
        the connection came back (``lost``). Say why, never wait at it; told as it happened, its
        player is asked whether to go on here at the table dealt in its place. True once there;
        False when the session ends (said how to find a table)."""
        from ..server.client import ServerError

        c, lang = self.client, self.lang
        closed = st.closed or {}
        mine = st.seat is not None
        if st.closed is None:  # found gone when the connection came back: the server's words
            self._say(
                o("ended_away", lang) if st.ended_away else o("table_gone", lang, reason=st.lost)
            )
            self._say(o("closed_again", lang, url=self.args.url))
            return False
        if closed.get("reason") == "story_again":
            self._say(o("closed_story_you" if mine else "closed_story_watcher", lang))
        else:  # (no other reason is sent today)
            self._say(o("closed_table", lang))
        new = closed.get("table_new")
        if not mine or not new:
            self._say(o("closed_again", lang, url=self.args.url))
            return False
        try:
            line = await self._read(o("closed_new_prompt", lang))
        except EOFError:  # (Ctrl-D: the prompt's line ended by the console, as at every prompt)
            line = "n"
        if line.strip().lower() not in ("", "y", "yes", "e", "evet"):
            self._say(o("closed_later", lang, url=self.args.url))
            return False
        try:
            state = await c.join(table=new)
        except ServerError as e:
            self._say(o("refused_table", lang, reason=e.message))
            return False
        self._moved_to(state)
        return True

    def _narrate(self) -> None:
        """Say what happened at the table since last time (who sits there now, others' moves,
        chat, results); while a prompt waits for a line, above it (the line typed so far
        stays)."""
        with self._above_prompt():
            self._players()
            self._narrate_events()

    def _above_prompt(self) -> contextlib.AbstractContextManager[None]:
        """Where the lines said meanwhile go: above the prompt when a reading waits at one,
        between turns too (:meth:`Console.above_prompt`), not over the line being typed."""
        waiting = self._reading is not None and not self._reading.done()
        return self.con.above_prompt(self._shown if waiting else None)

    def _tell(self, line: str) -> None:
        """A line said as it comes (a lost connection), above the prompt if one waits."""
        with self._above_prompt():
            self._say(line)

    def _players(self) -> None:
        """Someone sat or stood: the players again, as the moves name them (and the partner,
        if another sits opposite now). Nothing before the first list (the seat's line)."""
        labels = self._labels()
        if self.players_said is not None and labels != self.players_said:
            self._names("players", self._labels())
            self._partner(labels)
        self.players_said = labels

    def _narrate_events(self) -> None:
        st = self.client.tables[self.table]
        labels = self._labels()
        lang = self.lang
        kozmaca = bool(st.view and st.view["rules"]["bidding"] == "kozmaca")
        for ev in st.events[self.shown :]:
            kind = ev.get("kind")
            if kind == "move":
                deal = ev.get("deal")
                deal = deal if isinstance(deal, int) else self._view_deal()
                move = self._parsed(ev["move"])
                if deal is not None:  # the deal's heading, and the auction's end, said first
                    self._deal_heading(deal)
                    if move is not None and not isinstance(move, Pass | Bid):
                        self._auction_over(deal)
                # this seat's own moves too: the one '!' played, one a computer played while
                # the player was away, and a confirmation of the one typed
                hidden = ev["move"] == "bury"  # another's burial: the card is theirs to know
                if hidden:  # said once, when the whole kitty is buried (not a line a card)
                    seat = int(ev["seat"])
                    n = self.hidden_buried[seat] = self.hidden_buried.get(seat, 0) + 1
                    if n < (st.view["rules"]["kitty_size"] if st.view else 1):
                        continue
                    self.hidden_buried[seat] = 0
                    who = labels[seat]  # said as `batak play` says it
                    if n > 1:
                        line = t("buried_hidden_many", lang, who=who, n=n)
                    else:
                        line = t("buried_hidden", lang, who=who)
                    if ev.get("by") == "timeout":
                        line = line.removesuffix(".") + o("by_clock", lang) + "."
                    self._say(line)
                    continue  # (a burial ends no deal)
                if kozmaca and str(ev["move"]).startswith("bid ") and ev.get("by") != "timeout":
                    # a söz, as `batak play` says it ("Bot 3 says 2", not "Bot 3: 2")
                    yours = ev["seat"] == st.seat
                    n = int(ev["move"].split()[1])
                    self._say(soz_line(labels[ev["seat"]], n, lang, yours=yours))
                    continue  # (a söz ends no deal)
                shown = move_text(ev["move"], lang, self.style, kozmaca=kozmaca)
                if ev.get("by") == "timeout":
                    shown += o("by_clock", lang)
                self._say(o("played", lang, who=labels[ev["seat"]], move=shown))
                if deal is not None and isinstance(move, Card):
                    over = ev.get("deal_over") or {}
                    self._trick_card(deal, int(ev["seat"]), str(move), labels, over.get("tricks"))
                if ev.get("deal_over"):
                    if ev["deal_over"]["row"].get("redeal") and deal is not None:
                        self._auction_over(deal, redeal=True)  # everyone passed: dealt again
                    self._deal_over(ev["deal_over"], labels)
            elif kind == "chat":  # never "Ayşe: pas", which reads as a move
                if st.seat is not None and ev.get("seat") == st.seat:
                    self._say(o("chat_you", lang, text=ev.get("text")))
                else:
                    self._say(o("chat", lang, who=self._chat_name(ev), text=ev.get("text")))
            elif kind == "away":  # in the second person when it is this player
                mine = ev["seat"] == st.seat
                self._say(o("away_you", lang) if mine else o("away", lang, who=labels[ev["seat"]]))
            elif kind == "back":
                mine = ev["seat"] == st.seat
                self._say(o("back_you", lang) if mine else o("back", lang, who=labels[ev["seat"]]))
            elif kind == "adjourn":  # only the host adjourns: said to them as their own act
                hosting = st.info.get("host") == self.client.player.get("id")
                self._say(o("adjourned_you" if hosting else "adjourned", lang))
            elif kind == "resume":
                self._say(o("resumed", lang))
        self.shown = len(st.events)
        view = st.view
        if view and "match" in view and view["phase"] != "over":  # a deal begun, no move seen
            deal = int(view["match"]["deal"])
            self._deal_heading(deal)
            if view["phase"] != "bidding":
                self._auction_over(deal)

    def _chat_name(self, ev: dict[str, Any]) -> str:
        """Who wrote a chat line: the name it was written under, with "(bot)" when a bot
        account wrote it from its seat (the seat's player still: not one who sat there later)."""
        name = str(ev.get("name") or "?")
        seats = self.client.tables[self.table].info.get("seats") or []
        seat = ev.get("seat")
        if isinstance(seat, int) and 0 <= seat < len(seats):
            s = seats[seat]
            if s.get("bot_account") and s.get("player") in (None, ev.get("player")):
                return o("bot_account_name", self.lang, name=name)
        return name

    # ------------------------------------------------------------------ following the deals
    def _view_deal(self) -> int | None:
        view = self.client.tables[self.table].view
        return int(view["match"]["deal"]) if view is not None and "match" in view else None

    @staticmethod
    def _parsed(move: str) -> Any:
        """A move event's move (None for another's hidden burial, or one not understood)."""
        try:
            return parse_move(move)
        except (MoveError, ValueError):
            return None

    def _catch_up(self) -> None:
        """Sitting down at a table in play (a rejoin, a reconnect from a new run): its current
        deal as far as it has gone counts as followed (its auction is in the table's lines;
        the trick under way is known from the view, so who takes it is said)."""
        view = self.client.tables[self.table].view
        if view is None or "match" not in view:
            return
        deal = int(view["match"]["deal"])
        if view["auction"] or view["tricks"] or view["current_trick"]["cards"]:
            self.joined_deal = deal  # (a bid, a pass or a card made)
        if view["phase"] not in ("bidding", "over"):
            self.auction_said = deal
        if view["phase"] == "over":
            self.deal_said = self.auction_said = deal
        self.trick_deal, self.tricks_done = deal, len(view["tricks"])
        trick = view["current_trick"]
        n = int(view["players"])
        self.trick = [((trick["leader"] + i) % n, c) for i, c in enumerate(trick["cards"])]

    def _deal_heading(self, deal: int) -> None:
        """``── Deal 2 of 4 ── dealer: Ayşe``, once a deal, as ``batak play`` says it."""
        if deal <= self.deal_said:
            return
        self.deal_said = deal
        st = self.client.tables[self.table]
        view = st.view
        if view is None or "match" not in view:
            return
        dealer = self._dealer_of(deal)
        if dealer is None:
            return
        deals = view["match"].get("deals")
        scored = sum(1 for r in self._sheet_rows() if r["deal"] < deal and not r.get("redeal"))
        extra = deals is not None and scored >= deals
        labels = self._labels()
        self.con.say()
        self._say(deal_heading(deal, deals, labels[dealer], self.lang, self.style, extra=extra))
        self._opening(deal, dealer, labels)

    def _opening(self, deal: int, dealer: int, labels: Sequence[str]) -> None:
        """A deal's first lines under its heading, as ``batak play`` says them: who speaks
        first (or, at a table without bidding, the koz and who leads). Not for the deal under
        way when the player sat down: its first moves were made already."""
        rules = self.rules()
        if rules is None or deal <= self.joined_deal:
            return
        # (where nobody bids, nobody names a koz: it is the one the rules fix)
        trump = rules.fixed_trump.value if rules.fixed_trump is not None else None
        lines = opening_lines(rules, dealer, labels, self.lang, self.style, trump)
        self.con.wrapped(*lines, width=self.style.width, names=labels)  # (a long name in them)

    def _dealer_of(self, deal: int) -> int | None:
        """Who deals ``deal``: the view's dealer when the view is of that deal, else the one
        after the previous deal's (the same one after a redeal, where the rules say so)."""
        view = self.client.tables[self.table].view
        if view is not None and view["match"]["deal"] == deal:
            return int(view["dealer"])
        rules = self.rules()
        before = [r for r in self._sheet_rows() if r["deal"] == deal - 1]
        if rules is None or not before:
            return None
        row = before[-1]
        same = row.get("redeal") and rules.redeal_dealer == "same"
        return int(row["dealer"]) if same else (int(row["dealer"]) + 1) % rules.players

    def _auction_over(self, deal: int, *, redeal: bool = False) -> None:
        """The auction's end, once a deal, as ``batak play`` says it ("The ihale is won by
        Ayşe at 6."), from the view of that deal."""
        if deal <= self.auction_said:
            return
        self.auction_said = deal
        rules = self.rules()
        view = self.client.tables[self.table].view
        if rules is None or view is None or view["match"]["deal"] != deal:
            if redeal and rules is not None:  # (known from the sheet's row alone)
                self._say(t("redeal_note", self.lang))
            return
        contract = view["contract"] or {}
        given = contract_given_in(view, rules.bidding)
        lines = auction_over_lines(
            rules,
            contract.get("bidder"),
            contract.get("bid"),
            self._labels(),
            self.lang,
            self.style,
            dealer=int(view["dealer"]),
            given=given,
            redeal=redeal or bool(view.get("redeal")),
            trump=view["trump"],
            koz_fixed=rules.fixed_trump is not None and not rules.kitty_size,
            reader=self.client.tables[self.table].seat,
        )
        # (the given contract's, with a name)
        self.con.wrapped(*lines, width=self.style.width, names=self._known_names())

    def _trick_card(
        self,
        deal: int,
        seat: int,
        card: str,
        labels: Sequence[str],
        tricks: Sequence[dict[str, Any]] | None = None,
    ) -> None:
        """A card played: when it ends the trick, who takes it (the deal's last one too:
        ``tricks``, the finished deal's tricks as the server's ``deal_over`` gives them)."""
        rules = self.rules()
        if rules is None:
            return
        if deal != self.trick_deal:
            self.trick_deal, self.tricks_done, self.trick = deal, 0, []
        self.trick.append((seat, card))
        if len(self.trick) < rules.players:
            return
        self.tricks_done += 1
        st = self.client.tables[self.table]
        view = st.view
        done = self.tricks_done
        if tricks:  # the deal's last trick: the view has moved on to the next deal
            winner = int(tricks[-1]["winner"])
        elif view is not None and view["match"]["deal"] == deal and len(view["tricks"]) >= done:
            winner = int(view["tricks"][done - 1]["winner"])
        else:  # (not known: not said rather than guessed)
            self.trick = []
            return
        self.trick = []
        if winner == st.seat:
            self._say(o("trick_won_you", self.lang))
        else:
            self._say(o("trick_won", self.lang, who=labels[winner]))

    def _partner(self, labels: Sequence[str]) -> None:
        """At an eşli table: who the partner is (said again when someone else sits there)."""
        rules = self.rules()
        seat = self.client.tables[self.table].seat
        if rules is None or not rules.partners or seat is None:
            return
        name = labels[(seat + 2) % rules.players]
        if name != self.partner_said:
            self.partner_said = name
            self._say(t("partner_is", self.lang, name=name))

    def _deal_over(self, info: dict[str, Any], labels: Sequence[str]) -> None:
        row = info["row"]
        self.con.say(self.style.bold(o("deal_over", self.lang, n=info["deal"])))
        self._contract_result(row, labels)
        self._scores("sheet_line", row["scores"], labels, n=row["deal"])
        self._scores("totals", row["totals"], labels)
        if "seed" in info:  # the deal's seed, checked against the commitment seen before it
            import hashlib

            n, seed = int(info["deal"]), str(info["seed"])
            seen = self.commitments.get(n)
            digest = hashlib.sha256(f"{self.table}:{seed}".encode()).hexdigest()
            self._explain_fair()
            if seen is not None and digest != seen:  # in full: what a complaint would show
                self._say(o("fair_bad", self.lang, n=n))
                self.con.lines(hash_lines(seed, self.style.width))
            else:  # checked here in full, and kept in the record (batak verify) in full
                key = "fair_unseen" if seen is None else "fair_ok"
                self._say(o(key, self.lang, n=n, seed=short_hash(seed, self.style)))
        if info.get("next_commitment"):
            self._commit(int(info["deal"]) + 1, str(info["next_commitment"]))

    def _contract_result(self, row: dict[str, Any], labels: Sequence[str]) -> None:
        """Who bid what and took how many, made or down (the score line alone said only
        points), as ``batak play`` says it."""
        rules = self.rules()
        tricks = row.get("tricks")
        if rules is None or row.get("redeal") or not tricks:
            return
        bids = row.get("bids") or []
        bidder, bid, forced = row.get("bidder"), row.get("bid"), bool(row.get("forced"))
        lines = contract_lines(rules, bids, bidder, bid, tricks, labels, self.lang, forced=forced)
        for line in lines:
            self._say(line)  # (the given contract's Turkish is long)

    def _commit(self, deal: int, commitment: str) -> None:
        """A deal's commitment, before the deal: in full on a line of its own, the one thing a
        player keeps to compare with what ``batak verify`` prints after the match (the seed
        comes with the record; the commitment must be the one seen before the cards)."""
        if self.commitments.get(deal) == commitment:
            return
        self.commitments[deal] = commitment
        self._explain_fair()
        self._say(o("fair_commitment", self.lang, n=deal))
        self.con.lines(hash_lines(commitment, self.style.width))

    def _explain_fair(self) -> None:
        """Before the match's first line about a commitment or a seed (taahhüt, tohum: words
        few players know), what they are, once."""
        if not self.fair_explained:
            self.fair_explained = True
            self.con.wrapped(o("fair_terms", self.lang), width=self.style.width)

    def _scores(self, code: str, scores: Sequence[int], labels: Sequence[str], **kw: Any) -> None:
        """A deal's points, or the totals, by player: its lines broken between two players."""
        items = [f"{labels[i]}: {s:+d}" for i, s in enumerate(scores)]

        def said(joined: str) -> str:
            return o(code, self.lang, scores=joined, **kw)

        self.con.lines(fit_list(said, items, self.style.width, sep=", "))

    def _finish(self) -> None:
        st = self.client.tables[self.table]
        labels = self._labels()
        assert st.view is not None
        self.con.say()
        self._sheet()  # the whole sheet at the end, as batak play shows it
        self.con.say()
        winners = st.view["match"]["winners"]
        if st.seat is not None and list(winners) == [st.seat]:
            said = [o("over_you", self.lang)]
        else:
            code = "over" if len(winners) > 1 else "over_one"
            said = self._names_lines(code, [labels[w] for w in winners])
        self.con.lines([self.style.bold(line) for line in said])
        rules = self.rules()
        totals = st.view["match"].get("totals")
        note = totals and rules and tie_note(rules, totals, winners, labels, self.lang, st.seat)
        if note:
            self._say(note)
        path = st.record or f"/api/tables/{self.table}/record"  # a private one's has its key
        url = self.http + path
        self._address(o("record", self.lang, url=url), url)
        if self.commitments:
            command = f"batak verify {url}"
            self._address(o("fair_verify", self.lang, command=command), command)

    # ------------------------------------------------------------------ chips (issue 12)
    def _stake_line(self) -> None:
        chips = self.client.tables[self.table].info.get("chips")
        if not chips:
            return
        self._say(o("stake", self.lang, stake=chips_text(chips["stake"], self.lang)))
        if "kasa" in chips:
            self._say(o("kasa", self.lang, kasa=chips_text(chips["kasa"], self.lang)))

    async def _payout(self) -> None:
        """At a staked table: what the match paid this seat, and the balance after it."""
        c = self.client
        st = c.tables[self.table]
        if not st.info.get("chips"):
            return
        with contextlib.suppress(TimeoutError):
            await c.until(lambda: c.tables[self.table].payout is not None, 30)
        pay = st.payout
        if pay is None or st.seat is None:
            return
        lang = self.lang
        if pay.get("refund"):
            self._say(o("payout_refund", lang, stake=chips_text(pay["stake"], lang)))
        else:
            mine = pay["payouts"][st.seat]
            if mine:
                self._say(payout_words(pay, st.seat, lang))
            else:
                self._say(o("payout_lost", lang, stake=chips_text(pay["stake"], lang)))
            if pay.get("kasa_won") and pay.get("kasa_payouts"):
                self._say(o("payout_kasa", lang, n=chips_text(pay["kasa_won"], lang)))
        w = await c.wallet()
        self._say(o("chips_balance", lang, balance=chips_text(w["balance"], lang)))

    async def _awarded(self) -> None:
        """What the finished match earned: XP and level, rating, league points."""
        lang = self.lang
        try:
            got = await self.client.awarded(self.table, timeout=10)
        except (TimeoutError, ConnectionError):
            return
        said = "awarded_idle" if got.get("idle") else "awarded"
        self._say(o(said, lang, gained=got["xp_gained"], xp=got["xp"], level=got["level"]))
        if got["level"] > got["level_before"]:
            self.con.say(self.style.bold(o("level_up", lang, level=got["level"])))
        if got.get("rating"):
            r, b = got["rating"], got["rating_before"]
            change = f"{r['ordinal'] - b['ordinal']:+.1f}"
            if lang == "tr":
                change = change.replace(".", ",")
            self._say(o("rating_change", lang, **_rating(r, lang), change=change))
        if got.get("league"):
            lg = got["league"]
            tier = o(f"tier_{lg['tier']}", lang)
            self._say(o("league_points", lang, tier=tier, points=lg["points"]))

    async def _show(self, what: str) -> None:
        """``level`` (progress), ``ratings`` or ``league``."""
        from ..server.client import ServerError

        c, lang, say = self.client, self.lang, self.con.say
        try:
            if what == "progress":
                p = await c.progress()
                say(o("progress", lang, level=p["level"], xp=p["xp"], next=p["next_level_xp"]))
                if p["rating"] is None:
                    self.con.wrapped(o("unrated", lang), width=self.style.width)
                else:
                    say(o("rating", lang, **_rating(p["rating"], lang), n=p["rated_matches"]))
                if p["tier"]:
                    say(o("tier", lang, tier=o(f"tier_{p['tier']}", lang)))
            elif what == "ratings":
                rows = await c.ratings()
                say(self.style.bold(o("ratings_title", lang)))
                for r in rows[:20]:
                    say(o("ratings_row", lang, rank=r["rank"], name=r["name"], level=r["level"],
                          matches=r["matches"], **_rating(r["rating"], lang)))  # fmt: skip
                if not rows:
                    say(o("ratings_empty", lang))
            else:
                lg = await c.league()
                if not lg["eligible"]:
                    self.con.wrapped(o("unrated", lang), width=self.style.width)
                    return
                tier = o(f"tier_{lg['tier']}", lang)
                year, week = _week(lg["week"])
                ends = league_left(lg["seconds_left"], lang)
                said = o("league_title", lang, year=year, n=week, tier=tier, ends=ends)
                self.con.wrapped(self.style.bold(said), width=self.style.width)
                for r in lg["standings"]:
                    zone = o(f"zone_{r['zone']}", lang) if r["zone"] != "stay" else ""
                    say(o("league_row", lang, place=r["place"], name=r["name"], level=r["level"],
                          points=r["points"], zone=zone).rstrip())  # fmt: skip
                if not lg["joined"]:
                    say(o("league_join", lang))
                last = lg.get("last")
                if last:
                    say(o("league_last", lang, place=last["place"],
                          tier=o(f"tier_{last['tier']}", lang),
                          outcome=o(f"outcome_{last['outcome']}", lang)))  # fmt: skip
        except ServerError as e:
            self._refused("refused_show", e.message)

    async def _decide(self) -> bool:
        """Ask for this seat's decision until one is accepted; False when the player quits.
        True also when the connection is lost meanwhile: the caller connects again (and a move
        not yet acknowledged is sent again then)."""
        try:
            return await self._ask()
        except ConnectionError:
            return True

    async def _ask(self) -> bool:
        from ..server.client import ServerError

        c, lang = self.client, self.lang
        drawn = -1  # the table's state last drawn: drawn again only when it changed
        while True:
            st = c.tables[self.table]
            view = st.view
            if view is None or not st.my_turn:
                return True
            if st.state_v != drawn:  # (a hint, a typo, a refused card: only asked again)
                drawn = st.state_v
                self.con.lines(status_lines(view, self._labels(), lang, self.style))
            try:
                typed = await self._read_while(
                    t("prompt", lang), functools.partial(self._asked, st), narrate=True
                )
            except EOFError:
                return False
            if typed is None:  # the table moved on meanwhile: say what happened, look again
                self.con.say()
                self._shown = None
                return True
            line = typed
            if not line:  # an empty line draws the table again, as in `batak play`
                drawn = -1
                continue
            forms = folded(line)  # ÇIK, İPUCU, YAZBOZ: Turkish capitals too
            if forms & _QUIT_WORDS:
                return False
            if forms & {"hint", "ipucu", "!"}:
                try:
                    hinted = await self._hinted(line)
                except TimeoutError:
                    self._say(o("lost", lang))
                    return True
                if hinted is None:
                    continue
                line = hinted
            elif await self._command(line, view):
                if not self._asked(st):  # (adjourn): the table moved on, look again
                    return True
                continue
            move = self._normalise(line, view)
            if move is None:  # said as `batak play` says it
                if line.isdecimal() and view["phase"] != "bidding":
                    self.con.say(no_number(int(line), len(view["legal_moves"]), lang))
                else:
                    width = self.style.width
                    self.con.lines(not_a_move(line, view, lang, self.style, width))
                continue
            try:
                await c.move(self.table, move)
                return True
            except TimeoutError:
                self._say(o("lost", lang))
                return True  # unacknowledged moves are sent again after a reconnect
            except ServerError as e:
                if e.code in ("stale", "not_your_turn", "away", "adjourned"):
                    return True  # the table moved on (a clock, a bot, an adjournment): look again
                self._move_refused(e.code, e.message)

    async def _hinted(self, line: str) -> str | None:
        """'hint' says the server's hint; '!' gives its move, to be played. None when there is
        nothing to play: the hint said, or refused (said, with the server's reason)."""
        from ..server.client import ServerError

        try:
            h = await self._hint()
        except ServerError as e:
            self._refused("refused_hint", e.message)
            return None
        if line == "!":
            return str(h["move"])
        shown = move_text(h["move"], self.lang, self.style)
        self._say(o("hint", self.lang, move=shown, reason=h["reason"]))
        return None

    def _move_refused(self, code: str, reason: str) -> None:
        """A move the server refused: for a rule of the game as ``batak play`` says it (``Not
        allowed — …``), for anything else (the match is over, the server could not save it)
        as a move not played, with the server's reason."""
        if code == "illegal":
            self._say(refused(reason, self.lang))
        else:
            self._refused("refused_move", reason)

    def _refused(self, key: str, reason: str) -> None:
        """What the server refused (:func:`declined`), worded into the terminal's width."""
        self._say(declined(key, reason, self.lang))

    async def _command(self, line: str, view: dict[str, Any] | None) -> bool:
        """Do ``line`` if it is one of the commands that work at any time (the help, the last
        trick, the score sheet, a review, chat, the progress pages) and say True."""
        from ..server.client import ServerError

        forms = folded(line)  # YAZBOZ, SON, LİG: Turkish capitals too
        if forms & HELP_WORDS:
            self._help()
        elif forms & {"level", "seviye", "progress"}:
            await self._show("progress")
        elif forms & {"ratings", "rating", "reyting", "sıralama", "siralama"}:
            await self._show("ratings")
        elif forms & {"league", "lig"}:
            await self._show("league")
        elif forms & {"last", "son"}:
            self.con.lines(self._last_trick(view) if view else [o("no_trick", self.lang)])
        elif await self._maybe_review(line):
            pass
        elif forms & {"sheet", "yazboz"}:
            self._sheet()
        elif any(f.startswith(("say ", "de ")) for f in forms):
            with contextlib.suppress(ServerError):
                await self.client.chat(self.table, line.split(" ", 1)[1])
        elif folded(line.split(" ", 1)[0]) & {"save", "kaydet"}:  # as batak play has it
            # not "not a move": the server keeps the match, its record's address comes at the end
            self.con.wrapped(o("save_online", self.lang), width=self.style.width)
        elif forms & {"adjourn", "ertele"}:  # the host of a private room: continue later
            try:
                await self.client.adjourn(self.table)
            except ServerError as e:
                self._refused("refused_adjourn", e.message)
            else:  # its event ends the prompt (and says so) at once, not after another line
                with contextlib.suppress(TimeoutError):
                    await self.client.until(lambda: not self._resumed(), 10)
        else:
            return False
        return True

    def _help(self) -> None:
        """The commands, worded into the terminal's width (one line of 300 columns was broken
        anywhere by the terminal)."""
        self.helped = True
        self.con.wrapped(o("commands", self.lang), width=self.style.width)

    async def _wait_turn(self) -> bool:
        """Between this seat's turns: wait for the table's next message. At a terminal, a line
        typed meanwhile is answered at once (it used to wait, and a move typed early was played
        at the next turn unseen): the commands work, a move is told to wait for the turn.
        False when the player quits."""
        c = self.client
        if self._reading is None and self.con.interactive:
            self._start_reading("")
        if not await self._reading_or_change():
            return True  # the caller connects again
        if self._reading is None or not self._reading.done():
            return True
        try:
            line = self._take_line()
        except EOFError:
            return False
        if not line:
            return True
        if folded(line) & _QUIT_WORDS:
            return False
        st = c.tables[self.table]
        try:
            if await self._command(line, st.view):
                pass
            elif unknown_command(line):  # not "not your turn": no command, at any turn
                self._say(t("unknown_command", self.lang, text=line))
            else:
                self._say(o("not_your_turn", self.lang))
        except ConnectionError:
            pass  # the caller connects again
        except TimeoutError:
            self._say(o("lost", self.lang))
        return True

    def _asked(self, st: Any) -> bool:
        """Whether this seat's decision is still the one asked for: its turn, at a match in
        play, on a live connection."""
        return bool(st.my_turn) and st.info.get("status") == "playing" and not self.client.closed

    async def _maybe_review(self, line: str) -> bool:
        """If ``line`` asks for a deal review (``review [N]``, ``incele [N]``), show it (the
        server's review of finished deal N, the last one by default) and say True."""
        from ..server.client import ServerError

        words = line.split()
        if not words or not folded(words[0]) & {"review", "incele"}:
            return False
        lang = self.lang
        finished = [int(r["deal"]) for r in self._sheet_rows() if not r.get("redeal")]
        if len(words) > 1 and words[1].isdigit():
            deal = int(words[1])
        elif finished:
            deal = finished[-1]
        else:
            self._say(t("no_review", lang))
            return True
        if deal not in finished:  # said before "Reviewing deal 99…", not after it
            self._say(
                o("review_not_finished", lang, deal=deal, deals=", ".join(map(str, finished)))
                if finished
                else t("no_review", lang)
            )
            return True
        self.con.wrapped(t("reviewing", lang, n=deal), width=self.style.width)
        try:
            reply = await self.client.review(self.table, deal)
        except ServerError as e:
            self._refused("refused_review", e.message)
        except TimeoutError:  # a lost connection (ConnectionError) is the caller's to mend
            self._say(o("lost", lang))
        else:
            # worded into the terminal's width, as `batak play` says its review
            self.con.wrapped(*[str(x) for x in reply.get("lines", [])], width=self.style.width)
        return True

    def _start_reading(self, prompt: str) -> asyncio.Future[str]:
        """The terminal's one reading: started with ``prompt``, or, when one already waits,
        ``prompt`` shown again for it (two threads must never read the terminal at once)."""
        if self._reading is None:
            self._reading = _read_in_thread(self.con, prompt)
            self._shown = prompt
        elif prompt:
            self.con.prompt(prompt)
            self._shown = prompt
        return self._reading

    def _take_line(self) -> str:
        """The line the reading got (``EOFError`` at the end of the input)."""
        reading, self._reading = self._reading, None
        self._shown = None  # (the line ended with it)
        assert reading is not None and reading.done()
        return reading.result().strip()

    async def _read(self, prompt: str) -> str:
        """A line typed at ``prompt`` (``EOFError`` at the end of the input)."""
        await asyncio.shield(self._start_reading(prompt))
        return self._take_line()

    async def _read_while(
        self, prompt: str, asked: Callable[[], bool], *, narrate: bool = False
    ) -> str | None:
        """A line typed at ``prompt``, or None as soon as ``asked()`` no longer holds (checked
        at each message from the server: the table moved on while the player thought, a clock
        played for them, the match was adjourned). The reading goes on then, and the line
        typed later answers the next prompt. With ``narrate``, what happens meanwhile (the
        others' chat, the player's own) is said above the prompt as it comes."""
        reading = self._start_reading(prompt)
        while not reading.done():
            if not asked():
                return None
            if narrate:
                self._narrate()
            if not await self._reading_or_change() or (self.client.closed and not reading.done()):
                return None  # the caller connects again; the reading waits
        return self._take_line()

    async def _reading_or_change(self) -> bool:
        """Wait for the first of: a line from the terminal's reading (if one is going on), the
        table's next message, 30 s. False when the connection is gone (the caller connects
        again; the reading goes on)."""
        try:
            change: asyncio.Future[Any] = self.client.change_waiter(30)
        except ConnectionError:
            return False
        waits: set[asyncio.Future[Any]] = {change}
        if self._reading is not None:
            waits.add(self._reading)
        await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        if not change.done():
            change.cancel()
        with contextlib.suppress(asyncio.CancelledError, TimeoutError, ConnectionError):
            await change
        return True

    async def _hint(self) -> dict[str, Any]:
        """The server's hint; asked again after a pause when hints come too fast."""
        from ..server.client import ServerError

        for _ in range(4):
            try:
                return await self.client.hint(self.table)
            except ServerError as e:
                if e.code != "hint_rate":
                    raise
                await asyncio.sleep(1.1)
        return await self.client.hint(self.table)

    def _normalise(self, line: str, view: dict[str, Any]) -> str | None:
        """The canonical move for what was typed, or None if it is not a move at all."""
        text = line.strip()
        if not text:
            return None
        phase = view["phase"]
        legal: list[str] = view["legal_moves"]
        forms = folded(text)
        if forms & {"pas", "pass", "p"}:
            text = "pass"
        elif text.isdecimal() and phase == "bidding":
            return f"bid {int(text)}"  # a bid as its number, as in `batak play` (refusals: server)
        elif text.isdecimal():  # a number from the list of moves, as in `batak play`
            number = int(text)
            return legal[number - 1] if 1 <= number <= len(legal) else None
        try:  # a suit while the koz is named is the koz, a card while burying the card to bury
            move = str(parse_in_phase(text, phase))
        except ValueError:
            return None
        return move  # a move, legal or not: if not, the server says why (as `batak play` does)

    def _last_trick(self, view: dict[str, Any]) -> list[str]:
        """'last': the last trick's cards and who took it, in the terminal's width; before a new
        deal's first trick, the previous deal's where the table shows it at any time (the view's
        ``last_trick`` is then that deal's, named by its number)."""
        earlier = not view["tricks"]
        tr = view["tricks"][-1] if not earlier else view.get("last_trick")
        if tr is None:
            return [o("no_trick", self.lang)]
        labels = self._labels()
        items = trick_items(tr["leader"], tr["cards"], view["players"], labels, self.style)
        if tr["winner"] == self.client.tables[self.table].seat:
            won = o("trick_won_you", self.lang)
        else:
            won = o("trick_won", self.lang, who=labels[tr["winner"]])
        code, extra = ("last_trick_deal", {"deal": tr["deal"]}) if earlier else ("last_trick", {})

        def said(cards: str) -> str:
            return o(code, self.lang, cards=cards, **extra) + " — " + won

        return fit_under(said, items, self.style.width)

    def _sheet_rows(self) -> list[dict[str, Any]]:
        """The score sheet's rows: the view's, else the ones the table's events gave."""
        st = self.client.tables[self.table]
        return list((st.view or {}).get("match", {}).get("sheet") or st.sheet or [])

    def _sheet(self) -> None:
        """The score sheet (yazboz) as ``batak play`` draws it: each deal's bidder, bid, koz,
        and each player's (or side's) tricks, points and running total."""
        rows = self._sheet_rows()
        labels = self._labels()
        if not rows:
            self._say(o("sheet_empty", self.lang))
            return
        rules = self.rules()
        if rules is not None:
            seat = self.client.tables[self.table].seat
            short = short_labels(rules.players, seat, self.lang, self._names_at())
            sheet = [ScoreRow.from_dict(r) for r in rows]
            totals = rows[-1]["totals"]
            lines = score_sheet_lines(rules, sheet, totals, labels, self.lang, self.style, short)
            self.con.lines(lines)
            return
        for row in rows:
            self._scores("sheet_line", row["scores"], labels, n=row["deal"])
        self._scores("totals", rows[-1]["totals"], labels)


def declined(key: str, reason: str, lang: str) -> str:
    """A request the server refused, with its reason, worded as a move the rules refuse
    (``Not allowed — …``, :func:`~batak.cli.console.refused`): what did not happen, a dash,
    why (``No hint — …``, ``Not adjourned — …``): not "Refused", nor "not allowed" where no
    rule of the game is at stake. ``key``: the text ``online.refused_<what>``. A reason that is
    a sentence of its own (the review's) goes on after the dash from a small letter.

    >>> declined("refused_hint", "it is not your decision: hints are for your turn", "en")
    'No hint — it is not your decision: hints are for your turn'
    >>> declined("refused_review", "İnceleme şu an başka ellerle meşgul.", "tr")
    'İncelenemedi — inceleme şu an başka ellerle meşgul.'
    """
    if reason[:1].isupper() and reason[1:2].islower():  # "The deal review is busy…"
        reason = (turkish_lower(reason[0]) if lang == "tr" else reason[0].lower()) + reason[1:]
    return o(key, lang, reason=reason)


#: what leaves the table, at a prompt or between turns
_QUIT_WORDS = frozenset({"quit", "q", "çık", "exit"})


def _read_in_thread(con: Console, prompt: str) -> asyncio.Future[str]:
    """``con.ask(prompt)`` in a thread of its own, as a future of this loop. The thread is a
    daemon: a reading nobody waits for any more (the match ended, the server went away) does
    not keep the program from ending, as a thread of the loop's executor would."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[str] = loop.create_future()

    def settle(line: str | None, error: BaseException | None) -> None:
        if future.done():
            return
        if error is not None:
            future.set_exception(error)
        else:
            assert line is not None
            future.set_result(line)

    def read() -> None:
        line: str | None = None
        error: BaseException | None = None
        try:
            line = con.ask(prompt)
        except BaseException as e:  # EOFError, and whatever else the input raised
            error = e
        with contextlib.suppress(RuntimeError):  # the loop has ended: nobody waits for it
            loop.call_soon_threadsafe(settle, line, error)

    threading.Thread(target=read, name="batak-online-input", daemon=True).start()
    return future


def _week(label: str) -> tuple[str, str]:
    """The year and the week's number of the ISO week the server names (``"2026-W49"`` gives
    ``("2026", "49")``), to be said as people say it; a label of another shape stays whole."""
    year, sep, week = str(label).partition("-W")
    if sep and year.isdigit() and week.isdigit():
        return year, str(int(week))
    return str(label), "?"


NBSP = "\u00a0"  # (the catalog's no-break space between a number and its unit)


def league_left(seconds: Any, lang: str) -> str:
    """When the weekly league ends, as the web client says it: no day count of 0, no "0 h"
    (a number and its unit are joined by a no-break space, shown here as "~").

    >>> left = (2 * 86400 + 3 * 3600, 14 * 3600 + 59, 1800)
    >>> [league_left(s, "en").replace(NBSP, "~") for s in left]
    ['ends in 2~d 3~h', 'ends in 14~h', 'ends within the hour']
    >>> league_left(14 * 3600, "tr").replace(NBSP, "~")
    '14~saat sonra biter'
    """
    days, rest = divmod(max(0, int(seconds)), 86400)
    hours = rest // 3600
    if days:
        return text("web.league_ends", lang, d=days, h=hours)
    if hours:
        return text("web.league_ends_hours", lang, h=hours)
    return text("web.league_ends_soon", lang)


def _rating(r: dict[str, Any], lang: str) -> dict[str, str]:
    """A rating's ordinal and ± in the reader's decimals (``3,0 ± 24,8`` in Turkish)."""
    sep = "," if lang == "tr" else "."
    return {
        "ordinal": f"{r['ordinal']:.1f}".replace(".", sep),
        "spread": f"{r['spread']:.1f}".replace(".", sep),
    }
