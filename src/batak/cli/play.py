"""``batak play``: a match in the terminal against computer players."""

from __future__ import annotations

import argparse
import contextlib
import errno
import hashlib
import json
import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .. import bots
from ..bots import Player
from ..bots.review import DealReview, review_deal, summary_lines
from ..bots.teach import hint
from ..explain import preset_summary
from ..game import Game, IllegalMove, Phase
from ..i18n import folded
from ..match import Match, first_dealer
from ..moves import Move, MoveError, parse_in_phase, parse_move
from ..record import dumps
from ..rules import PRESETS, RulesError
from .console import (
    EXIT_FAIL,
    EXIT_INTERRUPTED,
    EXIT_OK,
    HELP_WORDS,
    CommandError,
    Console,
    Narrator,
    ProgressBar,
    Style,
    fail,
    fit_items,
    fit_list,
    fit_under,
    load_record,
    move_text,
    no_number,
    not_a_move,
    record_names,
    refused,
    saver_seat,
    seat_labels,
    sheet_lines,
    short_labels,
    status_lines,
    trick_items,
    unknown_preset,
    visible_len,
    whole_names,
    winner_lines,
    wrap_text,
)
from .parser import rules_problem, rules_with_options
from .rules import changed_rules
from .text import error_message, t
from .verify import fetch_record, fetched

#: operating-system errors of saving a file, in the words of the catalog's ``cli.save_reason_*``
_SAVE_REASONS = {
    errno.ENOENT: "no_folder",
    errno.ENOTDIR: "no_folder",
    errno.EISDIR: "is_folder",
    errno.EACCES: "denied",
    errno.EPERM: "denied",
    errno.EROFS: "denied",
    errno.ENOSPC: "full",
}


def save_problem(e: OSError, lang: str) -> str:
    """Why a record could not be written, in the reader's language (the system's own words,
    in English, for a rarer error)."""
    code = _SAVE_REASONS.get(e.errno or 0)
    if code == "no_folder":
        return t("save_reason_no_folder", lang)
    if code == "is_folder":
        return t("save_reason_is_folder", lang)
    if code == "denied":
        return t("save_reason_denied", lang)
    if code == "full":
        return t("save_reason_full", lang)
    return e.strerror or str(e)


def write_record(path: str, text: str, lang: str) -> tuple[bool, str]:
    """Write a record's ``text`` to ``path`` ("~/mac.json" read as a shell would): whether it
    was written, and the sentence that says so, or why not, in the reader's language."""
    path = os.path.expanduser(path)
    try:
        Path(path).write_text(text + "\n", encoding="utf-8")
    except OSError as e:
        return False, t("save_failed", lang, path=path, message=save_problem(e, lang))
    return True, t("saved", lang, path=path)


def given_flags(args: argparse.Namespace, *names: str) -> str:
    """Which of ``batak play``'s options ``names`` were given ("--preset, --deals"): for the
    note that a way of playing leaves them unused."""
    return ", ".join(f"--{n}" for n in names if getattr(args, n, None) not in (None, [], False))


# ---------------------------------------------------------------------- play
class Quit(Exception):
    """The human asked to leave."""


class PlaySession:
    """One human at a table of computer players, for a whole match."""

    def __init__(
        self,
        con: Console,
        match: Match,
        human: int,
        lang: str,
        players: Mapping[int, Player],
        save_path: str | None,
        levels: Mapping[int, str] | None = None,
    ) -> None:
        self.con = con
        self.levels = dict(levels or {})  # each computer seat's level, kept in the saved match
        self.match = match
        self.human = human
        self.lang = lang
        self.players = players  # the computer seats' players
        self.reviews: dict[int, DealReview] = {}  # deal number -> its review, made once
        self.save_path = os.path.expanduser(save_path) if save_path else save_path
        self.saved: str | None = None  # the match as last saved with 'save FILE'
        self.autosave_failure: str | None = None  # why the last save to --save failed, said
        self.style = Style(con.out)
        self.labels = seat_labels(match.rules.players, human, lang)
        self.short = short_labels(match.rules.players, human, lang)
        self.narrator = Narrator(
            con, self.labels, lang, self.style, reveal=False, each_card=False, own_seat=human
        )

    # -- the match
    def run(self, *, linger: bool = True) -> int:
        """Play the match to its end (or until the player leaves); with ``linger``, then wait
        for the player's last requests (:meth:`after_match`)."""
        match = self.match
        con = self.con
        shown: Game | None = None
        try:
            while not match.over:
                game = match.game
                if game is not shown:
                    self.narrator.deal_start(match)
                    shown = game
                seat = game.to_move
                assert seat is not None
                if seat == self.human:
                    move = self.ask_move(game)
                else:
                    move = parse_move(self.computer_move(game, seat))
                tricks_before = len(game.tricks)
                match.play(move)
                self.narrator.move(game, seat, move, tricks_before)
                if game.phase is Phase.OVER:
                    self.deal_over(game)
        except EOFError:
            con.say(t("eof", self.lang))
            self.autosave()
            return EXIT_OK
        except Quit:
            self.autosave()
            self.offer_save()
            con.say(t("bye", self.lang))
            return EXIT_OK
        except KeyboardInterrupt:  # Ctrl-C: leaving as 'quit' does, the match offered to be saved
            con.say()
            self.autosave()
            with contextlib.suppress(KeyboardInterrupt):  # a second Ctrl-C: gone at once
                self.offer_save()
            con.say(t("bye", self.lang))
            return EXIT_INTERRUPTED
        con.say()
        con.wrapped(
            *winner_lines(match, self.labels, self.human, self.lang), width=self.style.width
        )
        self.autosave()
        if linger:
            self.after_match()
        return EXIT_OK

    def after_match(self) -> None:
        """The match is over: the last deal can still be reviewed (there is no next turn to
        type 'review' at), the sheet shown again and the match saved, until the player leaves
        (an empty line, 'quit', or the end of the input; '?' shows what can be done, anything
        else is answered in a line that names the requests)."""
        con = self.con
        lang = self.lang
        last = self.match.games[-1] if self.match.games else None
        if last is None or not last.tricks:
            return
        con.wrapped(t("after_match", lang), width=self.style.width)
        while True:
            try:
                line = con.ask(t("after_match_prompt", lang)).strip()
            except EOFError:
                return
            if self.table_command(line):
                continue
            if not line or folded(line) & _QUIT_WORDS:
                return
            if folded(line) & HELP_WORDS:
                con.wrapped(t("after_match", lang), width=self.style.width)
            else:  # a typo, a card, a '!': said in a line with the requests, not the whole text
                con.wrapped(t("after_match_unknown", lang, text=line), width=self.style.width)

    def table_command(self, line: str) -> bool:
        """Carry out ``line`` if it is one of the requests that need no turn (the review of the
        last deal, the score sheet, saving the match) and say whether it was."""
        con, lang = self.con, self.lang
        forms = folded(line)  # İNCELE, YAZBOZ
        head, _, rest = line.partition(" ")
        if forms & {"review", "incele"}:
            self.review_last_deal()
        elif forms & {"sheet", "yazboz", "score", "puan"}:
            con.lines(sheet_lines(self.match, self.labels, lang, self.style, self.short))
        elif folded(head) & {"save", "kaydet"}:
            if rest.strip():
                self.save(rest.strip())
            else:
                con.wrapped(t("save_usage", lang), width=self.style.width)
        else:
            return False
        return True

    def computer_move(self, game: Game, seat: int) -> str:
        """The move of a computer seat, chosen from that seat's view only."""
        view = game.view(seat)
        move = self.players[seat].choose(view)
        return move if move in view["legal_moves"] else str(view["legal_moves"][0])

    def deal_over(self, game: Game) -> None:
        row = self.match.sheet[-1] if self.match.sheet else None
        self.narrator.deal_result(game, row)
        self.con.say()
        self.con.lines(sheet_lines(self.match, self.labels, self.lang, self.style, self.short))
        if game.tricks and not self.match.over:
            self.con.wrapped(t("review_hint", self.lang), width=self.style.width)
        self.autosave()

    def review_last_deal(self) -> None:
        """Where the last finished deal lost its tricks (the deal review)."""
        finished = [g for g in self.match.games if g.phase is Phase.OVER and g.tricks]
        if not finished:
            self.con.say(t("no_review", self.lang))
            return
        game = finished[-1]
        number = self.match.games.index(game) + 1
        self.con.wrapped(t("reviewing", self.lang, n=number), width=self.style.width)
        review = self.reviews.get(number)
        if review is None:
            bar = ProgressBar(self.lang)
            progress = bar.on_deal(number, None)  # one deal, not "deal 1 of 2" mid-match
            review = self.reviews[number] = review_deal(game, progress=progress)
            bar.end()
        lines = summary_lines(
            review, whole_names(self.labels), self.lang, you=self.human, card=self.style.card
        )
        self.con.wrapped(*lines, width=self.style.width)

    # -- the human's turn
    def ask_move(self, game: Game) -> Move:
        con = self.con
        lang = self.lang
        view = game.view(self.human)
        legal: list[str] = view["legal_moves"]
        con.say()
        con.lines(status_lines(view, self.labels, lang, self.style))
        while True:
            line = con.ask(t("prompt", lang)).strip()
            forms = folded(line)  # İPUCU, ÇIK, QUIT
            word = next(iter(sorted(forms & _COMMAND_WORDS)), line.casefold())
            if not line:
                con.lines(status_lines(view, self.labels, lang, self.style))
                continue
            if word in HELP_WORDS:
                moves, commands = self.help_text()
                con.wrapped(moves, width=self.style.width)
                con.lines(command_lines(commands, self.style.width))
                continue
            if word in ("last", "son"):
                con.say(self.last_trick_text(game))
                continue
            if self.table_command(line):
                continue
            if word in ("hint", "ipucu", "!"):
                suggestion = hint(view, lang=lang)
                if word == "!":
                    return parse_move(suggestion.move)
                shown = move_text(suggestion.move, lang, self.style)
                said = t("hint", lang, move=shown, reason=suggestion.reason)
                con.wrapped(said, width=self.style.width)
                continue
            if word in _QUIT_WORDS:
                raise Quit
            if line.isdecimal() and view["phase"] == "bidding":
                line = f"bid {int(line)}"  # in the auction a number is a bid: "7" is ihale 7
            elif line.isdecimal():
                number = int(line)
                if 1 <= number <= len(legal):
                    return parse_move(legal[number - 1])
                con.say(no_number(number, len(legal), lang))
                continue
            try:  # a card while burying is the card to bury, a suit while naming the koz the koz
                typed: Move | str = parse_in_phase(line, view["phase"])
            except MoveError:
                typed = line  # (the engine says why it is no move)
            error: IllegalMove | None = game.check(typed, seat=self.human)
            if error is not None and error.code == "bad_notation":  # no move at all
                con.lines(not_a_move(line, view, lang, self.style, self.style.width))
                continue
            if error is not None:  # a move, refused: the rule's reason
                con.wrapped(refused(error.text(lang), lang), width=self.style.width)
                continue
            return parse_move(typed)

    def help_text(self) -> tuple[str, str]:
        """What '?' says: the moves this table has (a pas and an ihale, Koz Maça's one bid each
        or no bids at all; the koz named or fixed; a kitty or not), then the commands."""
        rules, lang = self.match.rules, self.lang
        moves = [t("help_move_card", lang)]
        if rules.bidding == "auction":
            moves += [t("help_move_pass", lang), t("help_move_bid", lang)]
        elif rules.bidding == "kozmaca":
            moves.append(t("help_move_bid_kozmaca", lang))
        if rules.fixed_trump is None:
            moves.append(t("help_move_koz", lang))
        if rules.kitty_size:
            moves.append(t("help_move_bury", lang))
        return t("help_moves", lang, moves=", ".join(moves)), t("help_commands", lang)

    def last_trick_text(self, game: Game) -> str:
        """'son' / 'last': this deal's last trick; before a new deal's first trick, the previous
        deal's where the table shows it at any time (``rules.last_trick``), named by its deal."""
        found = self.match.last_trick()
        if found is None:
            earlier = any(g.last_trick is not None for g in self.match.games[:-1])
            said = t("no_last_new_deal" if earlier else "no_last", self.lang)
            return "\n".join(wrap_text(said, self.style.width))
        deal, last = found
        items = trick_items(last.leader, last.cards, game.players, self.labels, self.style)
        who = self.labels[last.winner]
        code, extra = "last_line", {}
        if deal != len(self.match.games):  # the previous deal's
            code, extra = "last_line_deal", {"deal": deal}
        lines = fit_under(
            lambda cards: t(code, self.lang, cards=cards, who=who, **extra), items, self.style.width
        )
        return "\n".join(lines)

    # -- saving
    def record_text(self) -> str:
        meta: dict[str, Any] = {"seat": self.human, "lang": self.lang, "by": "batak play"}
        if self.levels:
            meta["levels"] = {str(seat): level for seat, level in self.levels.items()}
        return dumps(self.match, meta=meta)

    def save(self, path: str) -> bool:
        text = self.record_text()
        ok, said = write_record(path, text, self.lang)
        if ok:
            self.saved = text
        self.con.say(said)
        return ok

    def autosave(self) -> None:
        """Save to ``--save`` after each deal and on leaving. A failure never stops the game,
        and is said once: not again after every deal and at the end while it goes on failing
        the same way (said again once it worked in between, or fails for another reason)."""
        if self.save_path:
            ok, said = write_record(self.save_path, self.record_text(), self.lang)
            if not ok and said != self.autosave_failure:
                self.con.wrapped(said, width=self.style.width)
            self.autosave_failure = None if ok else said

    def offer_save(self) -> None:
        if self.save_path or self.record_text() == self.saved:
            return  # already saved (there, or just now with 'save FILE')
        try:
            answer = self.con.ask(t("quit_offer", self.lang)).strip()
        except EOFError:
            return
        # "no" in either language is an answer, not a file name
        if answer and answer.casefold() not in _NO_ANSWERS:
            self.save(answer)


def command_lines(text: str, width: int) -> list[str]:
    """The commands' text ('?'): its own lines where each fits ``width``; else a command a
    line (its items are parted by ";  "), each worded into the width under the first. Its
    lines, each worded on its own at 60 columns, left a word alone on a line ("why;") and
    began the next at the margin ("!  play the suggestion;"). The sentence after the last
    command (what an empty line does) is no command: on a line of its own at the margin, not
    worded on after "quit" as if it told what quitting does.

    >>> said = "Commands: ?  this text;  hint  a move and why;\\n!  play it.  Enter: again."
    >>> command_lines(said, 50)
    ['Commands: ?  this text;  hint  a move and why;', '!  play it.  Enter: again.']
    >>> for line in command_lines(said, 30):
    ...     print(line)
    Commands: ?  this text;
      hint  a move and why;
      !  play it.
    Enter: again.
    """
    lines = text.split("\n")
    if all(visible_len(line) <= width for line in lines):
        return lines
    items = "  ".join(lines).split(";  ")
    last, dot, note = items[-1].partition(".  ")
    items[-1] = last + dot.strip()
    out: list[str] = []
    for i, item in enumerate(items):
        said = item + (";" if i < len(items) - 1 else "")
        out += wrap_text(said if i == 0 else "  " + said, width, indent="    ")
    return out + (wrap_text(note, width) if note else [])


_NO_ANSWERS = frozenset({"n", "no", "h", "hayır", "hayir", "-"})

#: the levels as the game names them in Turkish (kolay, orta, zor), for --level
LEVEL_WORDS = bots.LEVEL_WORDS

_QUIT_WORDS = frozenset({"quit", "exit", "çık", "cik", "çıkış"})
#: every word ask_move knows before it reads a move (compared in lower case, the Turkish way too)
_COMMAND_WORDS = frozenset({*HELP_WORDS, "last", "son", "hint", "ipucu", "!", *_QUIT_WORDS})


def hash_seed(seed: int | str, seat: int) -> int:
    """A computer seat's own seed, repeatable for a given match seed."""
    digest = hashlib.sha256(f"batak-bots:{seed}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def _seed(text: str | None) -> int | str | None:
    if text is None:
        return None
    try:
        return int(text)
    except ValueError:
        return text


def cmd_play(args: argparse.Namespace, con: Console, lang: str) -> int:
    style = Style(con.out)
    seed = _seed(args.seed)
    meta: dict[str, Any] = {}
    resumed = False
    if args.load:
        try:  # a file, or a record's address on a server (as batak analyse and replay read it)
            loaded = fetch_record(args.load, lang)
            match, meta = load_record(args.load, lang, loaded)
        except CommandError as e:
            return fail(con, lang, str(e))
        resumed = True
        # the saved match keeps its table and length: said, not silently dropped
        unused = given_flags(args, "preset", "deals", "option")
        if unused:
            sys.stderr.write(t("load_unused", lang, options=unused) + "\n")
    else:
        preset = args.preset or "standard"
        if preset not in PRESETS:
            return unknown_preset(con, lang, preset)
        if args.deals is not None and args.deals < 1:
            return fail(con, lang, t("bad_deals", lang, deals=args.deals))
        try:
            options = list(args.option)
            if args.deals is not None:
                options.append(f"deals={args.deals}")
            rules = rules_with_options(preset, options)
        except RulesError as e:
            return fail(con, lang, rules_problem(e, preset, lang))
        # the first dealer as the table's rules say: drawn by lot (from the seed, so that a
        # seeded match is the same match), or the first to sit, the human (it was always seat 0)
        sat = [args.seat] if args.seat is not None and 0 <= args.seat < rules.players else [0]
        match = Match(rules, dealer=first_dealer(rules, seated=sat, seed=seed), seed=seed)
    players = match.rules.players
    human = args.seat
    if human is None:
        saved_seat = meta.get("seat")
        human = saved_seat if isinstance(saved_seat, int) else 0
    if not 0 <= human < players:
        return fail(con, lang, t("bad_seat", lang, high=players - 1, seat=human))
    computers = [(human + i) % players for i in range(1, players)]
    saved = meta.get("levels")
    if args.level is None and isinstance(saved, dict):  # a loaded match keeps its levels
        levels = [str(saved.get(str(seat), "medium")) for seat in computers]
    else:
        spoken = [lv.strip() for lv in (args.level or "medium").split(",")]
        # ZOR, HARD, MEDIUM, Orta: a level word in either language, in any case
        known = {*LEVEL_WORDS, *bots.LEVELS}
        low = [next(iter(sorted(folded(lv) & known)), lv) for lv in spoken]
        levels = [LEVEL_WORDS.get(lv, lv) for lv in low]
    if len(levels) == 1:
        levels *= len(computers)
    if len(levels) != len(computers) or any(lv not in bots.LEVELS for lv in levels):
        return fail(
            con,
            lang,
            t("bad_level", lang, seats=len(computers), level=args.level or ",".join(levels)),
        )
    chosen = dict(zip(computers, levels, strict=True))
    seats = {
        seat: bots.get(level, seed=None if seed is None else hash_seed(seed, seat))
        for seat, level in chosen.items()
    }
    session = PlaySession(con, match, human, lang, seats, args.save, chosen)
    labels = session.labels
    r = match.rules
    con.say(style.bold(t("match_title", lang, name=r.name)))
    con.wrapped(preset_summary(r, lang), width=style.width)  # açık eşli: 110 columns
    changed = changed_rules(r, lang, style)
    if changed is not None:
        con.wrapped(changed, width=style.width)
    if resumed and match.over:  # nothing left to play: its sheet and result, and no more
        con.wrapped(t("loaded_over", lang, path=args.load), width=style.width)
        # a server's record keeps its players' names, and the reader's seat is theirs to say
        names = record_names(meta, players)
        seat = args.seat if args.seat is not None else saver_seat(meta, players)
        # by their seats' names (Player 1) when it does not say which seat was the reader's,
        # as batak replay says them: not seat 0 as "You", with no "you won" said to it
        labels = seat_labels(players, seat, lang, names)
        con.say()
        con.lines(sheet_lines(match, labels, lang, style, short_labels(players, seat, lang, names)))
        con.say()
        con.wrapped(*winner_lines(match, labels, seat, lang), width=style.width)
        if args.save:  # the record as it was loaded (a server's names and seeds kept), not nothing
            text = json.dumps(loaded, ensure_ascii=False, indent=1)
            ok, said = write_record(args.save, text, lang)
            if not ok:  # the save asked for is all that was left to do: it failed, so did we
                sys.stderr.write(error_message(lang, said) + "\n")
                return EXIT_FAIL
            con.wrapped(said, width=style.width)
        return EXIT_OK
    if resumed:
        said = "continuing_address" if fetched(args.load) else "continuing"
        con.wrapped(t(said, lang, path=args.load), width=style.width)
    # broken between two seats, never inside a name ("Bilgisayar" / "3")
    order = [labels[(human + i) % players] for i in range(players)]
    con.lines(fit_list(lambda seats: t("order", lang, seats=seats), order, style.width, sep=" → "))
    if r.partners:
        con.say(t("partner_is", lang, name=labels[(human + 2) % players]))
    if r.target_score is not None:
        con.wrapped(t("to_target", lang, target=r.target_score), width=style.width)
    names = [f"{labels[s]} ({t(f'level_{lv}', lang)})" for s, lv in chosen.items()]
    con.lines(fit_items("levels_line", lang, names, style.width))  # as the other lists of items
    con.wrapped(t("help_hint", lang), width=style.width)
    if resumed and match.sheet:
        con.say()
        con.lines(sheet_lines(match, labels, lang, style, session.short))
    return session.run()
