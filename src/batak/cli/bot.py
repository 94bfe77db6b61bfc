"""``batak bot``: a computer player (one of ours, or your own) plays at a Batak server through
the public protocol, as a bot account that the server marks as a bot at every table.

It logs in to (or registers) a bot account, then sits at the room given with ``--join`` or
waits to be invited (the room's host sends ``invite`` with the bot's username) and plays each
match to the end with the clock, like a person would; ``--games N`` stops after N matches.
When the connection is lost (the server restarts), it connects again as ``batak online`` does
and goes on: back at its seat, or waiting for invites. ``--tournament ID`` enters it in a
duplicate tournament instead: it registers, plays its table of each round and says its place.
``--player module:Class`` brings your own player (see docs/bots.md): anything with
``choose(view) -> move``, which is given nothing but the seat's view.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import sys
import threading
import time
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any, NoReturn, TypeVar

from .. import bots
from ..bots import PlayerError
from ..i18n import text as t_format
from ..moves import Move
from .online import (
    AddressError,
    ServerGone,
    SessionEnded,
    connect_problem,
    http_url,
    o,
    reconnect,
    ws_url,
)
from .parser import add_lang_option
from .text import error_message, player_problem, t

__all__ = [
    "NotABot",
    "TourneyProblem",
    "WrongPassword",
    "add_bot_parser",
    "load_player",
    "run_bot",
    "serve_as_bot",
]


DAY = 86_400.0
STUCK_CHECK = 1.0  # seconds between looks at the table while the player thinks
LEAVE_WAIT = 5.0  # seconds for the server to confirm a seat left, when the bot stops
T = TypeVar("T")


def add_bot_parser(sub: Any, lang: str) -> None:
    p = sub.add_parser("bot", help=t("help_bot", lang), description=t("help_bot", lang))
    p.add_argument(  # (URL: ADRES in Turkish, as every address's placeholder)
        "url",
        nargs="?",
        default="http://127.0.0.1:8000",
        metavar="URL",
        help=t("help_bot_url", lang),
    )
    p.add_argument("--username", required=True, help=t("help_bot_username", lang))
    p.add_argument("--password", default=None, help=t("help_bot_password", lang))
    who = p.add_mutually_exclusive_group()
    who.add_argument(
        "--level",
        default="medium",
        type=bots.level_word,  # zor, orta, kolay too, as batak play --level takes them
        choices=bots.LEVELS,
        # LEVEL (SEVİYE), as play's --level and serve's --bot-level: the help names the levels
        # ({easy,medium,hard} in English only, where Turkish said SEVİYE, and not every word)
        metavar="LEVEL",
        help=t("help_bot_level", lang),
    )
    who.add_argument(
        "--player", default=None, metavar="MODULE:CLASS", help=t("help_bot_player", lang)
    )
    where = p.add_mutually_exclusive_group()
    where.add_argument("--join", default=None, metavar="CODE", help=t("help_bot_join", lang))
    where.add_argument(
        "--tournament", default=None, metavar="ID", help=t("help_bot_tournament", lang)
    )
    p.add_argument("--games", type=int, default=None, metavar="N", help=t("help_bot_games", lang))
    add_lang_option(p, lang)


class NotABot(Exception):
    """The account logged in to is a person's: a program plays only as a bot account, marked
    as one for the people at its tables (docs/bots.md)."""

    def __init__(self, username: str) -> None:
        super().__init__(f"{username} is not a bot account")
        self.username = username


class WrongPassword(Exception):
    """The bot account exists and the password given is not its password."""

    def __init__(self, username: str) -> None:
        super().__init__(f"wrong password for {username}")
        self.username = username


class TourneyProblem(Exception):
    """``--tournament`` cannot be played: the tournament does not exist, is over, started
    without the bot, or refused its registration. ``key`` is the catalog's text, said with
    ``params``."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


def load_player(spec: str) -> bots.Player:
    """``module:Class`` -> an instance (made with ``seed=None``), which must have ``choose``;
    :class:`batak.bots.PlayerError` says what to fix otherwise."""
    return bots.load(spec, seed=None)


async def serve_as_bot(
    url: str,
    username: str,
    password: str,
    player: bots.Player,
    *,
    join: str | None = None,
    games: int | None = None,
    tournament: str | None = None,
    say: Any = print,
    lang: str = "en",
    retry_for: float | None = None,
    player_spec: str | None = None,
) -> int:
    """Log in (or register) the bot account, then play: the room ``join`` once, or each room the
    bot is invited to, until ``games`` matches are over; or, with ``tournament``, register for it
    and play its tables, round after round, until it is over (:func:`_in_tournament`). Returns
    the number of matches played.

    A lost connection is taken up again (:func:`batak.cli.online.reconnect`, for up to
    ``retry_for`` seconds, else :class:`~batak.cli.online.ServerGone`); :class:`WrongPassword`
    when the account exists with another password; any other refusal is the server's
    :class:`~batak.server.client.ServerError`."""
    from ..server.client import Client, ServerError, TableState

    within = getattr(player, "choose_within", None)
    spec = player_spec or type(player).__name__
    chosen: dict[str, Any] = {}  # the last decision: its view, move and thinking time

    def think(view: dict[str, Any]) -> object:
        if within is not None:  # a player that can stop early thinks about a second
            return within(view, 1.0)
        return player.choose(view)

    async def choose(view: dict[str, Any], table: str, table_id: str) -> str:
        """The player's move at ``table``, thought out in a thread (the connection stays alive
        meanwhile); what it raised or returned instead of a move is a :class:`PlayerError`.

        A decision that outlasts the table's clock (the server moved for the seat meanwhile)
        is said once a match (a slow player is late at most of its decisions: the match's end
        counts them); one still running when the match is over, played out by the server's
        clock, is a :class:`PlayerError` ``stuck``: the bot would look alive and never play."""
        where = {"table": table, "deal": _deal_of(view)}
        chosen.clear()
        t0 = time.monotonic()
        thinking = _in_thread(think, view)
        st = c.tables.get(table_id)
        seen = len(st.events) if st is not None else 0
        while not thinking.done():
            await asyncio.wait({thinking}, timeout=STUCK_CHECK)
            if thinking.done():
                break
            st = c.tables.get(table_id)
            seconds = time.monotonic() - t0
            if not said_late[0] and (st is None or _timed_out(st, seen)):  # moved for it
                said_late[0] = True
                say(t("bot_still_thinking", lang, seconds=f"{seconds:.0f}", **where))
            if st is None or st.over:
                raise PlayerError("stuck", spec=spec, seconds=f"{seconds:.0f}", **where)
        ok, move = thinking.result()
        if not ok:
            e = move
            raise PlayerError(
                "raised", spec=spec, error=bots.error_text(e), where=bots.where(e), **where
            ) from e
        seconds = time.monotonic() - t0
        slowest[0] = max(slowest[0], seconds)
        if isinstance(move, Move):
            move = str(move)
        if not isinstance(move, str):
            raise PlayerError("not_text", spec=spec, got=bots.shown(move), **where)
        chosen.update(view=view, move=move, **where)
        return move

    def refused(e: ServerError) -> Exception:
        """A refusal while playing: a move refused as illegal is the player's (what it chose,
        and what it could have), any other the server's."""
        if e.code != "illegal" or not chosen:
            return e
        view = chosen["view"]
        return PlayerError(
            "illegal",
            spec=spec,
            got=chosen["move"],
            reason=e.message,
            legal=", ".join(view.get("legal_moves") or []),
            table=chosen["table"],
            deal=chosen["deal"],
        )

    slowest = [0.0]
    said_late = [False]  # whether this match's clock running out was said already
    played = 0
    invites: list[dict[str, Any]] = []  # invitations received, not yet taken up
    gone: list[str] = []  # why the bot left the last room before its start, if it did
    async with Client(ws_url(url), name=username, lang=lang, ack_in_event=True) as c:

        async def again() -> None:
            await reconnect(c, say, lang, retry_for=retry_for)

        async def retrying(step: Callable[[], Awaitable[T]]) -> T:
            """``step()``, taken up again after each lost connection (a seat taken already is
            given back, a table in play is caught up on)."""
            while True:
                try:
                    return await step()
                except ConnectionError:
                    await again()

        welcome: dict[str, Any] = {}
        try:
            welcome = await c.login(username, password)
        except ServerError as e:
            if e.code != "bad_login":
                raise
            try:
                await c.register(username, password, bot=True)
            except ServerError as e:
                # the login failed, and the name is an account's: its password is another
                if e.code == "username_unavailable":
                    raise WrongPassword(username) from None
                raise
        if welcome and not welcome.get("player", {}).get("bot", True):
            raise NotABot(username)  # (a server that does not say so is taken at its word)
        say(t("bot_ready", lang, name=username))
        if tournament is not None:
            return await _in_tournament(
                c, tournament, choose, retrying, again, refused, say, lang, slowest
            )
        # the tables the account still sits at (a bot stopped mid-match and started again):
        # it takes its seats back there before it waits for invitations
        seated: list[str] = [] if join is not None else list(welcome.get("tables") or [])
        while games is None or played < games:
            back: str | None = None  # the table id of a seat taken back
            if join is not None:
                code = join
            elif seated:
                back = code = seated.pop(0)
            else:
                while True:  # wait for an invitation, through lost connections
                    invites.extend(m for m in c.drain() if m.get("type") == "invited")
                    if invites:
                        break
                    if c.closed:
                        await again()
                        continue
                    with contextlib.suppress(ConnectionError):
                        await c.next_change()
                invite = invites.pop(0)
                code = invite["code"]
                say(t("bot_invited", lang, by=invite.get("from", "?"), code=code))
            if back is not None:
                joining = asyncio.ensure_future(retrying(partial(c.join, back)))
            else:
                joining = asyncio.ensure_future(retrying(partial(c.join, code=code)))
            try:
                state = await asyncio.shield(joining)
            except asyncio.CancelledError:  # stopped in the middle of its join
                # the server may seat it all the same: its answer is waited for (a moment),
                # then the seat taken is left, as when the bot is stopped once seated
                try:
                    state = await asyncio.wait_for(joining, LEAVE_WAIT)
                except (Exception, asyncio.CancelledError):  # refused, gone, a second Ctrl-C
                    joining.cancel()
                    raise asyncio.CancelledError from None
                await _stopped(c, state, say, lang)
                raise
            except ServerError as e:
                if join is not None:  # the one room it was asked to play in
                    raise
                if back is not None:  # the match ended meanwhile: nothing to take back
                    continue
                # an invitation to a room that filled up, started or closed meanwhile: the
                # bot says why and waits for the next one
                say(t("bot_invite_refused", lang, code=code, reason=e.message))
                continue
            if back is not None:
                code = state.info.get("code") or back
            if back is not None:
                seated_key = "bot_back"
            elif state.info.get("status") == "playing":  # --join at a match under way
                seated_key = "bot_seated_playing"
            else:
                seated_key = "bot_seated"
            say(
                t(
                    seated_key,
                    lang,
                    code=code,
                    preset=state.info.get("preset") or "?",
                    seat=(state.seat or 0) + 1,
                    view_seat=state.seat or 0,
                )
            )
            gone.clear()

            def give_up(st: TableState, code: str = code) -> bool:
                """Leave a room that has not started when its host has gone, or when another
                host invites the bot (it would wait there for nobody, deaf to invitations)."""
                if st.info.get("status") != "waiting":
                    return False
                if join is None:
                    invites.extend(
                        m for m in c.drain() if m.get("type") == "invited" and m["code"] != code
                    )
                    if invites:
                        gone.append("bot_left_room_invited")
                        return True
                seats = st.info.get("seats") or []
                if seats and not any(s.get("host") for s in seats):
                    gone.append("bot_left_room_host")
                    return True
                return False

            slowest[0] = 0.0
            said_late[0] = False
            try:
                final = await retrying(
                    partial(
                        c.play,
                        state.id,
                        # the room as its people know it
                        partial(choose, table=code, table_id=state.id),
                        timeout=DAY,
                        stop=give_up,
                    )
                )
            except ServerError as e:
                await _refused_at(c, state.id, e, refused)
            except PlayerError:  # said by the caller, with the seat left to a computer
                await _leave_seat(c, state.id)
                raise
            except asyncio.CancelledError:  # the bot is stopped (Ctrl-C, SIGTERM)
                await _stopped(c, state, say, lang, code)
                raise
            c.tables.pop(final.id, None)  # over: nothing to catch up on after a reconnect
            if not final.over:  # left before the start (see give_up)
                with contextlib.suppress(ServerError, ConnectionError):
                    await c.leave(final.id)
                if gone[0] == "bot_left_room_host":
                    say(t("bot_left_room_host", lang, code=code))
                else:
                    say(t("bot_left_room_invited", lang, code=code))
                if join is not None:
                    break
                continue
            played += 1
            if final.record:  # where its author reads it, or gives it to batak analyse
                say(t("bot_record", lang, code=code, address=http_url(url) + final.record))
            for line in match_over_lines(final, played, code, slowest[0], lang):
                say(line)
            if join is not None:
                break
    return played


async def _in_tournament(
    c: Any,
    tid: str,
    choose: Callable[..., Awaitable[str]],
    retrying: Callable[[Callable[[], Awaitable[Any]]], Awaitable[Any]],
    again: Callable[[], Awaitable[None]],
    refused: Callable[[Any], Exception],
    say: Any,
    lang: str,
    slowest: list[float],
) -> int:
    """``batak bot --tournament``: register for the tournament ``tid`` (already registered: go
    on in it, a bot started again), then play its table of each round, as a person would, and
    say its place once it is over. Stopped before the start, it withdraws (``tourney_leave``);
    stopped at a table, it leaves its seat to a computer; stopped between rounds, its seats are
    the server's to fill until it comes back (the server holds a missing player's seat a while,
    then a computer plays it). A lost connection is taken up again, and the tournament asked
    for once more: a round's table announced meanwhile is found in it."""
    from ..server.client import ServerError

    me = (c.player or {}).get("id")
    try:
        doc = await retrying(partial(c.tourney, tid))
    except ServerError as e:
        if e.code == "no_tourney":
            raise TourneyProblem("bot_tourney_missing", tournament=tid) from None
        raise
    name = doc.get("name") or tid
    registered = any(p.get("id") == me for p in doc.get("registered") or [])
    if doc["status"] == "over":
        raise TourneyProblem("bot_tourney_over", name=name)
    if doc["status"] != "scheduled" and not registered:
        raise TourneyProblem("bot_tourney_started", name=name)

    async def withdraw() -> bool:
        """Stopped before the start: withdraw (whether the server says it did; not once the
        tournament has started, nor over a lost connection)."""
        try:
            left = await asyncio.wait_for(c.tourney_leave(tid), LEAVE_WAIT)
        except (Exception, asyncio.CancelledError):  # (a second Ctrl-C)
            return False
        return bool(left.get("status") == "scheduled")

    if not registered:
        try:
            doc = await retrying(partial(c.tourney_join, tid))
        except ServerError as e:
            if e.code == "tourney_started":  # it started in the meantime
                raise TourneyProblem("bot_tourney_started", name=name) from None
            raise TourneyProblem("bot_tourney_refused", name=name, reason=e.message) from None
        except asyncio.CancelledError:  # stopped in the middle of registering
            # the server may have registered it all the same: it withdraws
            if await withdraw():
                say(t("bot_tourney_withdrawn", lang, name=name))
            raise
    if doc["status"] == "scheduled":
        say(t("bot_tourney_registered", lang, name=name, players=doc.get("players", 0)))
    else:  # started again in the middle of its tournament
        say(t("bot_tourney_back", lang, name=name, round=doc["round"], rounds=doc["rounds"]))
    done: set[str] = set()  # the tables played (the document may not say so yet)
    played = 0
    try:
        while doc["status"] != "over":
            mine = next(
                (
                    x
                    for x in doc.get("tables") or []
                    if me in (x.get("players") or [])
                    and not x.get("over")
                    and x.get("status") != "over"
                    # still waiting: not seated yet (its seat comes with "tourney_table")
                    and x.get("status") != "waiting"
                    and x["id"] not in done
                ),
                None,
            )
            if mine is not None:
                final = await _tourney_table(
                    c, doc, mine, choose, retrying, refused, say, lang, slowest
                )
                done.add(mine["id"])
                if final is not None:
                    played += 1
                doc = await retrying(partial(c.tourney, tid))
                continue
            # nothing to play yet: wait for the next change (its start, a new round's table,
            # the live standings after a deal somewhere, the end)
            fresh = None
            for m in c.drain():
                if m.get("type") == "tourney" and (m.get("tournament") or {}).get("id") == tid:
                    fresh = m["tournament"]
                elif m.get("type") == "tourney_table" and m.get("tournament") == tid:
                    fresh = await retrying(partial(c.tourney, tid))
            if fresh is not None:
                doc = fresh
                continue
            if c.closed:
                await again()
                doc = await retrying(partial(c.tourney, tid))
                continue
            with contextlib.suppress(ConnectionError):
                await c.next_change()
    except asyncio.CancelledError:  # stopped (Ctrl-C, SIGTERM)
        if doc["status"] == "scheduled" and await withdraw():
            say(t("bot_tourney_withdrawn", lang, name=name))
        else:  # under way (or it started as the bot stopped): registered still
            say(t("bot_tourney_stopped", lang, name=name))
        raise
    row = next((r for r in doc.get("standings") or [] if r.get("player") == me), None)
    if row is None:
        say(t("bot_tourney_over_unplaced", lang, name=name))
    else:
        mp = f"{row['mp']:g}".replace(".", t_format("format.decimal_point", lang))
        say(
            t(
                "bot_tourney_place",
                lang,
                name=name,
                rank=row["rank"],
                of=len(doc["standings"]),
                mp=mp,
                score=row["score"],
            )
        )
    return played


async def _tourney_table(
    c: Any,
    doc: dict[str, Any],
    table: dict[str, Any],
    choose: Callable[..., Awaitable[str]],
    retrying: Callable[[Callable[[], Awaitable[Any]]], Awaitable[Any]],
    refused: Callable[[Any], Exception],
    say: Any,
    lang: str,
    slowest: list[float],
) -> Any:
    """Sit at the bot's table of a tournament's round and play it to the end (its final state;
    None when the table could not be joined: over meanwhile)."""
    from ..server.client import ServerError

    try:
        state = await retrying(partial(c.join, table["id"]))
    except ServerError:
        return None  # (its match ended meanwhile, played out by a computer)
    # the table's room code names it, as a room's does (in what the bot and its player say)
    code = state.info.get("code") or table["id"]
    at = {"round": table["round"], "rounds": doc["rounds"], "number": table["number"], "code": code}
    seat = state.seat or 0
    say(t("bot_tourney_seated", lang, seat=seat + 1, view_seat=seat, **at))
    slowest[0] = 0.0
    try:
        final = await retrying(
            partial(c.play, state.id, partial(choose, table=code, table_id=state.id), timeout=DAY)
        )
    except ServerError as e:
        await _refused_at(c, state.id, e, refused)
    except (PlayerError, asyncio.CancelledError):
        # said by the caller: the seat is left to a computer at once (the bot stopped, or its
        # player failed), and taken back when the bot is started again
        await _leave_seat(c, state.id)
        raise
    c.tables.pop(final.id, None)
    first = t("bot_tourney_played", lang, **at)
    for line in match_over_lines(final, 0, code, slowest[0], lang, first=first):
        say(line)
    return final


def _timed_out(st: Any, seen: int) -> bool:
    """Whether the server's clock moved for this seat in the events after the first ``seen``
    (another seat's leaving or coming back changes the table too, and is no move for it)."""
    return any(
        e.get("kind") == "move" and e.get("seat") == st.seat and e.get("by") == "timeout"
        for e in st.events[seen:]
    )


async def _stopped(c: Any, state: Any, say: Any, lang: str, code: str | None = None) -> None:
    """The bot is stopped while seated at ``state``'s table (``code``: its room's code, else
    the one the table says): it leaves the seat and says so."""
    left = await _leave_seat(c, state.id)
    if left is not None:
        code = code or state.info.get("code") or state.id
        said = "bot_stopped_left" if left == "seat" else "bot_stopped_left_room"
        say(t(said, lang, code=code))


async def _refused_at(
    c: Any, table: str, error: Exception, refused: Callable[[Any], Exception]
) -> NoReturn:
    """The server refused the bot's play at ``table``: its seat is left to a computer, and the
    refusal raised as the reader is told it (``refused``), or as it came when not told apart."""
    await _leave_seat(c, table)
    problem = refused(error)
    if problem is error:
        raise error
    raise problem from error


async def _leave_seat(c: Any, table: str) -> str | None:
    """Leave ``table`` from this connection. In a match in play (``leave`` with ``here``): a
    computer plays the seat at once rather than after the server's hold of a lost connection,
    and the seat stays the account's, taken back when the bot starts again (``"seat"``).
    Before the start (a plain ``leave``): the seat is free again for the host to fill
    (``"room"``; the server takes no ``here`` then and would hold the seat). None when that
    could not be said (the connection is gone: the server's hold then applies)."""
    st = c.tables.get(table)
    if st is None:
        return None
    playing = st.info.get("status") == "playing"
    try:
        await asyncio.wait_for(c.leave(table, here=playing), LEAVE_WAIT)
    except (Exception, asyncio.CancelledError):  # (a second Ctrl-C, a lost connection)
        return None
    return "seat" if playing else "room"


def _in_thread(fn: Callable[..., T], *args: Any) -> asyncio.Future[tuple[bool, Any]]:
    """``fn(*args)`` in a daemon thread: ``(True, result)`` or ``(False, what it raised)``,
    whatever it raised (``SystemExit`` too: the player's failure, not the bot's). A daemon, so
    that a player that never returns does not keep the stopped bot from exiting, as a thread of
    asyncio's executor would."""
    loop = asyncio.get_running_loop()
    out: asyncio.Future[tuple[bool, Any]] = loop.create_future()

    def settle(value: tuple[bool, Any]) -> None:
        if not out.done():
            out.set_result(value)

    def run() -> None:
        value: tuple[bool, Any]
        try:
            value = (True, fn(*args))
        except BaseException as e:
            value = (False, e)
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
            loop.call_soon_threadsafe(settle, value)

    threading.Thread(target=run, name="batak-bot-player", daemon=True).start()
    return out


def match_over_lines(
    final: Any, n: int, code: str, slowest: float, lang: str, *, first: str | None = None
) -> list[str]:
    """What the bot says after its ``n``-th match, in the room ``code`` (the room's code, as
    its people know it, not the server's table id): how it ended, and how often the clock ran
    out for it. That count is of the server's timeouts at its seat (a computer player moved in
    its place each time), not of its slow decisions: one slow decision can make the next ones
    late too. ``first``: what the first line says instead (a tournament's table, not a room)."""
    said = _result_of(final, lang)
    if first is None:
        first = t("bot_played", lang, n=n, code=code)
    lines = [first + (" " + said if said else "")]
    late = sum(
        1
        for e in final.events
        if e.get("kind") == "move" and e.get("by") == "timeout" and e.get("seat") == final.seat
    )
    # 7.0 in English, 7,0 in Turkish (as every other Turkish number)
    seconds = f"{slowest:.1f}".replace(".", t_format("format.decimal_point", lang))
    if late == 1:
        lines.append(t("bot_late_one", lang, seconds=seconds))
    elif late:
        lines.append(t("bot_late", lang, n=late, seconds=seconds))
    return lines


def _result_of(final: Any, lang: str) -> str:
    """How the match ended for the bot's seat, from its last view: its total and whether its
    side won (``""`` when the view does not say)."""
    match = (final.view or {}).get("match") or {}
    totals, winners, seat = match.get("totals"), match.get("winners"), final.seat
    if not totals or seat is None or seat >= len(totals):
        return ""
    won = isinstance(winners, list) and seat in winners
    return t("bot_result_won" if won else "bot_result", lang, total=totals[seat])


def _deal_of(view: dict[str, Any]) -> int | None:
    match = view.get("match")
    return match.get("deal") if isinstance(match, dict) else None


def run_bot(args: argparse.Namespace, lang: str) -> int:
    from ..server.client import ServerError

    if args.games is not None and args.games < 1:  # it went online and stopped at once
        sys.stderr.write(error_message(lang, t("bot_bad_games", lang, n=args.games)) + "\n")
        return 2
    password = args.password or os.environ.get("BATAK_BOT_PASSWORD")
    if not password:
        sys.stderr.write(error_message(lang, t("bot_no_password", lang)) + "\n")
        return 2
    try:
        player = load_player(args.player) if args.player else bots.get(args.level)
    except PlayerError as e:
        why = player_problem(e, lang)
        sys.stderr.write(
            error_message(lang, t("bot_bad_player", lang, spec=args.player, why=why)) + "\n"
        )
        return 2

    stopped_by: list[signal.Signals] = []  # the signal that stopped the bot, if one did

    async def main() -> None:
        # Ctrl-C stops the bot's own task only (not the client's reader, as asyncio.run's
        # handler would), so that it can still leave its seat to a computer on the way out;
        # SIGTERM (a service manager's stop, kill) too, which would end the process at once
        task = asyncio.current_task()
        assert task is not None

        def stop(sig: signal.Signals) -> None:
            stopped_by.append(sig)
            task.cancel()

        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                asyncio.get_running_loop().add_signal_handler(sig, stop, sig)
        await serve_as_bot(
            args.url,
            args.username,
            password,
            player,
            join=args.join,
            games=args.games,
            tournament=args.tournament,
            lang=lang,
            player_spec=args.player,
        )

    try:
        asyncio.run(main())
    except (KeyboardInterrupt, asyncio.CancelledError):
        # stopped as asked: by SIGTERM (a service manager's stop, which counts any other
        # status as a failure) with 0; by Ctrl-C with 130, as every command
        return 0 if stopped_by[:1] == [signal.SIGTERM] else 130
    except PlayerError as e:  # the player raised, or chose what is not a legal move
        sys.stderr.write(error_message(lang, player_problem(e, lang)) + "\n")
        return 1
    except AddressError:
        sys.stderr.write(error_message(lang, o("bad_address", lang, url=args.url)) + "\n")
        return 2
    except WrongPassword as e:
        message = t("bot_wrong_password", lang, name=e.username)
        sys.stderr.write(error_message(lang, message) + "\n")
        return 1
    except TourneyProblem as e:
        sys.stderr.write(error_message(lang, t(e.key, lang, **e.params)) + "\n")
        return 1
    except NotABot as e:
        sys.stderr.write(error_message(lang, t("bot_not_a_bot", lang, name=e.username)) + "\n")
        return 1
    except SessionEnded:
        sys.stderr.write(error_message(lang, t("bot_session_ended", lang)) + "\n")
        return 1
    except ServerGone as e:
        message = t("bot_gone", lang, url=args.url, minutes=e.minutes)
        sys.stderr.write(error_message(lang, message) + "\n")
        return 1
    except ServerError as e:  # any other refusal: the server's reason, in one line
        message = t("bot_refused", lang, reason=e.message)
        sys.stderr.write(error_message(lang, message) + "\n")
        return 1
    except (OSError, ConnectionError, TimeoutError) as e:
        problem = t("bot_unreachable", lang, url=args.url, error=connect_problem(e, lang))
        sys.stderr.write(error_message(lang, problem) + "\n")
        return 1
    return 0
