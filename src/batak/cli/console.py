"""Drawing Batak in a terminal: cards, seats, moves, the table's status and the score sheet.

Shared by ``batak play``, ``batak replay`` and ``batak online``.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import sys
import unicodedata
from collections.abc import Callable, Collection, Iterator, Sequence
from pathlib import Path
from typing import Any, TextIO

from ..cards import Card, Suit
from ..game import Game, Phase
from ..i18n import suit_name, text
from ..match import Match, ScoreRow
from ..moves import Bid, Bury, Move, Pass, TrumpChoice, is_move_word, parse_move
from ..record import FORMAT, RecordError, load_match
from ..rules import PRESETS, Rules
from ..scoring import zero_trick_penalty
from .text import error_message, t

EXIT_OK = 0
EXIT_FAIL = 1  # what was asked for could not be done
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130  # left with Ctrl-C, as every command

_RED_SUITS = ("H", "D")


# ---------------------------------------------------------------------- output helpers
def dumb_terminal() -> bool:
    """Whether ``TERM`` is ``dumb``: a terminal that shows escape codes and carriage returns
    as text (an editor's shell, a log), so no cursor controls and no redrawn lines."""
    return os.environ.get("TERM") == "dumb"


def plain_terminal() -> bool:
    """Whether to write no colours and no cursor controls: ``NO_COLOR`` is set, or the
    terminal is :func:`dumb_terminal`."""
    return bool(os.environ.get("NO_COLOR")) or dumb_terminal()


class Style:
    """How cards look: suit symbols (or letters if the terminal cannot show them), colour."""

    def __init__(self, out: TextIO) -> None:
        encoding = getattr(out, "encoding", None) or "utf-8"
        try:
            "♠♥♦♣—→·ışğüöçİ".encode(encoding)
            self.unicode = True
        except (UnicodeEncodeError, LookupError):
            self.unicode = False
        isatty = getattr(out, "isatty", None)
        tty = bool(isatty is not None and isatty())
        self.color = bool(tty and not plain_terminal() and self.unicode)
        #: the columns to fit the wide tables in: the terminal's, else 80
        self.width = shutil.get_terminal_size((80, 24)).columns if tty else 80

    def symbol(self, suit: str) -> str:
        s = Suit.parse(suit)
        sym = s.symbol if self.unicode else s.value
        if self.color and s.value in _RED_SUITS:
            return f"\033[31m{sym}\033[0m"
        return sym

    def card(self, card: str | Card) -> str:
        """``TH`` → ``10♥``."""
        c = Card.parse(card)
        rank = "10" if c.rank.char == "T" else c.rank.char
        text = rank + (c.suit.symbol if self.unicode else c.suit.value)
        if self.color and c.suit.value in _RED_SUITS:
            return f"\033[31m{text}\033[0m"
        return text

    def bold(self, text: str) -> str:
        return f"\033[1m{text}\033[0m" if self.color else text

    def koz(self, suit: str, lang: str) -> str:
        """``H`` → ``♥ kupa`` (Turkish) or ``♥ hearts``."""
        return f"{self.symbol(suit)} {suit_name(Suit.parse(suit).value, lang)}"

    def hand(self, cards: Sequence[str]) -> str:
        """Cards grouped by suit: ``♠ A K 10  ♥ Q  ♦ —  ♣ 9 2``."""
        parsed = sorted((Card.parse(c) for c in cards), key=Card.sort_key)
        groups = []
        for suit in Suit:
            ranks = ["10" if c.rank.char == "T" else c.rank.char for c in parsed if c.suit is suit]
            groups.append(f"{self.symbol(suit.value)} {' '.join(ranks) if ranks else '-'}")
        return "   ".join(groups)


class Console:
    """Where the command writes and reads (the real terminal, or streams in tests)."""

    def __init__(self, out: TextIO, inp: TextIO) -> None:
        self.out = out
        self.inp = inp
        #: the lines said while :meth:`above_prompt` holds them back
        self._held: list[str] | None = None
        #: a prompt is on the screen and its line has not ended (a reading waits there)
        self._open = False

    def say(self, line: str = "") -> None:
        if self._held is not None:
            self._held.append(line)
            return
        self.out.write(line + "\n")
        self._open = False

    def lines(self, lines: Sequence[str]) -> None:
        for line in lines:
            self.say(line)

    def wrapped(self, *sentences: str, width: int, names: Collection[str] = ()) -> None:
        """Each sentence in lines of at most ``width`` columns, broken at spaces
        (:func:`wrap_text`): a deal's review, a hint, a note. A line break in a sentence is
        kept, each of its lines worded on its own. A word holding one of ``names`` (the
        players' names in the sentences) is never cut, however wide."""
        for sentence in sentences:
            for line in sentence.split("\n"):
                self.lines(wrap_text(line, width, names=names))

    @property
    def interactive(self) -> bool:
        """Whether a person types at a terminal (not a script piped in)."""
        return _isatty(self.inp)

    def prompt(self, text: str) -> None:
        """Show ``text`` where the next line will be typed (a reading already waits), with
        what is typed there so far."""
        shown = text + self._typed_so_far()
        self.out.write(shown)
        self.out.flush()
        self._open = self._open or bool(shown)

    @contextlib.contextmanager
    def above_prompt(self, prompt: str | None) -> Iterator[None]:
        """The lines said meanwhile go above the line being typed at ``prompt`` (a reading
        waits there), which is shown again under them with what was typed so far, as a chat
        in a terminal does (``batak online``: the others' chat while the player thinks).
        ``prompt`` None: no prompt is on the screen, the lines are said as usual."""
        if prompt is None or self._held is not None:
            yield
            return
        held: list[str] = []
        self._held = held
        try:
            yield
        finally:
            self._held = None
            if held:
                if self._line_editing():
                    self.out.write("\r\033[K")  # the prompt's line, cleared
                elif prompt:
                    self.out.write("\n")  # (the prompt's line ends)
                self.lines(held)
                self.prompt(prompt)

    def _line_editing(self) -> bool:
        """Whether lines are read with line editing (a real terminal, with ``readline``)."""
        return (
            self.inp is sys.stdin
            and self.out is sys.stdout
            and _isatty(self.inp)
            and "readline" in sys.modules
            and not plain_terminal()
        )

    def _typed_so_far(self) -> str:
        """What is typed at the prompt and not entered yet (only known with line editing)."""
        if not self._line_editing():
            return ""
        import readline

        return readline.get_line_buffer()

    def ask(self, prompt: str) -> str:
        """One line of input without its newline; raises :class:`EOFError` at the end. The
        end of the input (Ctrl-D) ends the line of the prompt on the screen, which a terminal
        leaves open there, so that the next words start a line of their own: whether the
        prompt is this one or one shown again for this reading (:meth:`prompt`), and piped or
        typed alike."""
        if prompt:
            self._open = True
        try:
            line = self._read_line(prompt)
        except EOFError:
            self.end_line()
            raise
        self._open = False  # (ended by the Enter typed, or by the echo of a piped line)
        return line

    def end_line(self) -> None:
        """End the line of a prompt still on the screen; nothing when none is."""
        if self._open:
            self.out.write("\n")
            self.out.flush()
        self._open = False

    def _read_line(self, prompt: str) -> str:
        """The line typed at ``prompt`` (input() at a real terminal, as it shows the prompt
        and leaves its line open at Ctrl-D); raises :class:`EOFError` at the end."""
        if self.inp is sys.stdin and self.out is sys.stdout and _isatty(self.inp):
            with contextlib.suppress(ImportError):  # (not on every system)
                import readline  # noqa: F401 - input() edits lines once it is loaded
            return input(prompt)  # line editing on a real terminal
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            raise EOFError
        line = line.rstrip("\r\n")
        if not _isatty(self.inp):
            self.out.write(line + "\n")  # piped input: echo it so the transcript reads well
        return line


_ESCAPE = re.compile(r"\033\[[0-9;]*m")
#: a colour code, or one character (:func:`_units` puts a mark with the letter before it)
_UNIT = re.compile(r"\033\[[0-9;]*m|.", re.S)
#: the joiner and the variation selector that asks for an emoji: no column of their own
_JOINS = "\u200d\ufe0f"
_ZWJ = "\u200d"


def _modifier(c: str) -> bool:
    """A skin tone (U+1F3FB–U+1F3FF): after an emoji, part of it (``👍🏽`` is one emoji)."""
    return "\U0001f3fb" <= c <= "\U0001f3ff"


def _columns(c: str) -> int:
    """The columns a terminal gives the character ``c``: 2 for an East Asian wide one, none for
    a combining mark (the dot of ``i̇``) or a joiner, 1 for the others."""
    if unicodedata.combining(c) or c in _JOINS:
        return 0
    return 2 if unicodedata.east_asian_width(c) in "WF" else 1


def _text_columns(plain: str) -> int:
    """The columns of ``plain`` (no colour codes): :func:`_columns` of each character, but an
    emoji's skin tone and what a joiner joins to the emoji before it (a family ``👨‍👩‍👧``) take
    none: the terminal draws one emoji, two columns."""
    total = 0
    joined = False  # the character before was a joiner (after a character)
    begun = False  # a character with columns came before
    for c in plain:
        if joined:
            joined = c == _ZWJ
            continue
        if c == _ZWJ:
            joined = begun
            continue
        if begun and _modifier(c):
            continue
        width = _columns(c)
        total += width
        begun = begun or width > 0
    return total


def visible_len(text: str) -> int:
    """The columns ``text`` takes on the screen: its colour codes take none, an East Asian wide
    character two, a combining mark none (a name in Japanese took half the room it was given,
    an accent written as a mark one column too many), an emoji with its skin tone or a family
    of emoji joined by joiners two.

    >>> visible_len("\033[31m♥\033[0m"), visible_len("10♠")
    (1, 3)
    >>> visible_len("東京"), visible_len("i\u0307")
    (4, 1)
    >>> visible_len("👍🏽"), visible_len("👨\u200d👩\u200d👧")
    (2, 2)
    """
    plain = _ESCAPE.sub("", text)
    if plain.isascii():
        return len(plain)
    return _text_columns(plain)


def _units(text: str) -> list[str]:
    """``text`` as the units a terminal shows: a character with the combining marks after it
    (``i̇``, an ``i`` and its dot, as Python lowercases ``İ``), an emoji with its skin tone or
    with the emoji a joiner joins to it, or a colour code; a cut between two never parts a
    letter from its mark, an emoji from its tone or family, nor a colour code in two.

    >>> _units("a👍🏽b"), len(_units("👨\u200d👩\u200d👧!"))
    (['a', '👍🏽', 'b'], 2)
    """
    units: list[str] = []
    for m in _UNIT.finditer(text):
        unit = m.group()
        colour = unit.startswith("\033")
        if units and not colour and visible_len(unit) == 0:
            units[-1] += unit  # a combining mark (or a joiner) goes with the unit before it
        elif (
            units
            and not colour
            and not units[-1].startswith("\033")
            and (units[-1].endswith(_ZWJ) or _modifier(unit))
        ):
            units[-1] += unit  # joined to the emoji before it, or its skin tone
        else:
            units.append(unit)
    return units


def cut_to(text: str, columns: int) -> str:
    """The start of ``text`` that fits in ``columns`` terminal columns (:func:`visible_len`),
    cut between whole units: a wide character is never halved, a mark never left behind.

    >>> cut_to("東京麻雀", 5), cut_to("Ali", 9)
    ('東京', 'Ali')
    >>> cut_to("i\u0307i\u0307i\u0307", 2) == "i\u0307i\u0307"
    True
    """
    kept, used = "", 0
    for unit in _units(text):
        used += visible_len(unit)
        if used > columns:
            break
        kept += unit
    return kept


def pad_to(text: str, width: int, align: str = "<") -> str:
    """``text`` padded with spaces to ``width`` terminal columns, as ``format`` pads it by
    characters: ``<`` on the left, ``>`` on the right, ``^`` centred.

    >>> pad_to("東京", 6, "^"), pad_to("Ali", 5, ">"), pad_to("東京", 3)
    (' 東京 ', '  Ali', '東京')
    """
    room = max(0, width - visible_len(text))
    if align == ">":
        return " " * room + text
    if align == "^":
        return " " * (room // 2) + text + " " * (room - room // 2)
    return text + " " * room


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _wrap(items: Sequence[str], width: int, indent: str = "  ", sep: str = "  ") -> list[str]:
    """Items in lines of at most ``width`` columns (never splitting an item; colour codes take
    no column: a list with red suits broke too early).

    >>> _wrap(["\\x1b[31m1) koz ♥ kupa\\x1b[0m", "2) koz ♠ maça"], 30)
    ['  \\x1b[31m1) koz ♥ kupa\\x1b[0m  2) koz ♠ maça']
    """
    lines: list[str] = []
    current = indent
    for item in items:
        # (current ends with the separator already)
        if current.strip() and visible_len(current) + visible_len(item) > width:
            lines.append(current.rstrip())
            current = indent
        current += item + sep
    if current.strip():
        lines.append(current.removesuffix(sep).rstrip())
    return lines


def fit_items(
    code: str, lang: str, items: Sequence[str], width: int, /, key: str = "items", **params: Any
) -> list[str]:
    """The text ``code`` with ``items`` joined by `` · `` (its placeholder ``key``), in lines of
    at most ``width`` columns where it can: an item is never split, and the lines after the first
    go on under the first item (:func:`fit_under`), as the last trick and the hand do.

    >>> for line in fit_items("auction_line", "en", ["Computer 1 pas"] * 4, 40):
    ...     print(line)
    İhale (auction): Computer 1 pas
                   · Computer 1 pas
                   · Computer 1 pas
                   · Computer 1 pas
    >>> for line in fit_items("trick_line", "tr", ["Bilgisayar 2 8♦", "Sen 10♦"], 30,
    ...                       key="cards", n=6, who="Sen"):
    ...     print(line)
    6. löve: Bilgisayar 2 8♦
           · Sen 10♦  → alan: Sen
    """
    return fit_under(lambda joined: t(code, lang, **{key: joined}, **params), items, width)


def fit_list(
    said: Callable[[str], str], items: Sequence[str], width: int, sep: str = " · "
) -> list[str]:
    """:func:`fit_items` of any text: ``said(joined)`` is the text with the ``items`` joined by
    ``sep`` (``batak online`` names its players as ``You, Bot 2, Bot 3``). A separator that
    begins with a space (`` · ``) begins the next line when a line is full, one that does not
    (``, ``) ends it, as a list is written. An item is never broken (a username in it may be
    typed): the words before the items go on a line of their own when the first item does not
    fit after them, and so do the words after the items (``→ alan: Ayşe``, when they begin with
    a space) when they do not fit after the last; an item wider than a line on its own (two
    long names of a side) is broken at its spaces, never inside a word.

    >>> for line in fit_list("Players: {}".format, ["Ayşe Yılmaz", "Bot 2", "Bot 3"], 24,
    ...                      sep=", "):
    ...     print(line)
    Players: Ayşe Yılmaz,
      Bot 2, Bot 3
    >>> for line in fit_list("Last: {}  → 山田太郎鈴木".format, ["山田太郎鈴木: 10♦", "B: 2♦"], 20):
    ...     print(line)
    Last:
      山田太郎鈴木: 10♦
      · B: 2♦
      → 山田太郎鈴木
    """
    whole = said(sep.join(items))
    if visible_len(whole) <= width or not items:
        return [whole]
    head, _, tail = said("\0").partition("\0")
    lines: list[str] = []
    first = head + items[0] + (tail if len(items) == 1 else "" if sep[0] == " " else sep.rstrip())

    def begin(text: str, mark: str = "") -> str:
        """A line begun with an item: at its spaces if it is too wide; the separator ``mark``
        it begins with kept with its first word (not alone on a line over a wide name)."""
        glued = text.replace(f"{mark} ", f"{mark}\u00a0", 1) if mark else text
        *full, rest = wrap_text(glued, width, indent="    ", cut=False)
        said = [*full, rest]
        said[0] = said[0].replace(f"{mark}\u00a0", f"{mark} ", 1) if mark else said[0]
        lines.extend(said[:-1])
        return said[-1]

    if head.strip() and visible_len(first) > width:  # "Last trick:" over the items
        lines.extend(wrap_text(head.rstrip(), width))
        current = begin("  " + items[0])
    else:
        current = begin(head + items[0])
    for i, item in enumerate(items[1:], 2):
        # after the last item, the words after the list; after another, a line's "," at least
        end = tail if i == len(items) else "" if sep.startswith(" ") else sep.rstrip()
        if visible_len(current) + len(sep) + visible_len(item + end) > width:
            if sep.startswith(" "):
                lines.append(current)
                current = begin("  " + sep.lstrip() + item, sep.strip())
            else:
                lines.append(current + sep.rstrip())
                current = begin("  " + item)
        else:
            current += sep + item
    if tail.startswith(" ") and tail.strip() and visible_len(current + tail) > width:
        lines.append(current)  # "→ alan: Ayşe" under the last item
        lines.extend(wrap_text("  " + tail.strip(), width, cut=False))  # (a name, never cut)
    else:
        lines.append(current + tail)
    return lines


def fit_under(
    said: Callable[[str], str], items: Sequence[str], width: int, sep: str = " · "
) -> list[str]:
    """:func:`fit_list` with the lines after the first going on under the first item, as a hand
    goes on under its first suit (``Your hand: ♠ …`` / ``           ♣ …``): the separator in
    the margin, the words after the items (``→ alan: Ayşe``) after the last one or on a line
    of their own under the items. Where the words before the items leave no room for an item
    under the first, as :func:`fit_list` has it.

    >>> items = ["Bilgisayar 1: 2♠", "Bilgisayar 2: Q♠", "Bilgisayar 3: 5♠", "Sen: J♠"]
    >>> for line in fit_under("Son löve: {}  → alan: Bilgisayar 2".format, items, 60):
    ...     print(line)
    Son löve: Bilgisayar 1: 2♠ · Bilgisayar 2: Q♠
            · Bilgisayar 3: 5♠ · Sen: J♠  → alan: Bilgisayar 2
    >>> for line in fit_under("Last trick: {}  → Bilgisayar 2".format, items, 30):
    ...     print(line)
    Last trick: Bilgisayar 1: 2♠
              · Bilgisayar 2: Q♠
              · Bilgisayar 3: 5♠
              · Sen: J♠
                → Bilgisayar 2
    >>> for line in fit_under("Last trick: {}  → Bilgisayar 2".format, items, 20):
    ...     print(line)
    Last trick:
      Bilgisayar 1: 2♠
      · Bilgisayar 2: Q♠
      · Bilgisayar 3: 5♠
      · Sen: J♠
      → Bilgisayar 2
    """
    whole = said(sep.join(items))
    if visible_len(whole) <= width or not items:
        return [whole]
    head, _, tail = said("\0").partition("\0")
    indent = " " * visible_len(head)
    margin = " " * (visible_len(head) - len(sep.lstrip())) + sep.lstrip()
    after = indent + tail.strip()
    if (
        not head.strip()
        or len(margin) != len(indent)
        or any(visible_len(indent + item) > width for item in items)
        or visible_len(head + items[0]) > width
        or visible_len(after) > width
    ):
        return fit_list(said, items, width, sep)
    lines: list[str] = []
    current = head + items[0]
    for item in items[1:]:
        if visible_len(current + sep + item) > width:
            lines.append(current)
            current = margin + item
        else:
            current += sep + item
    if visible_len(current + tail) > width:
        lines.append(current)
        current = after
    else:
        current += tail
    return [*lines, current]


def fit_address(text: str, address: str, width: int) -> list[str]:
    """``text``, which ends with ``address`` (a web address, or a command line to copy), on one
    line where it fits; else the words before it worded into ``width`` columns and the address
    on a line of its own, indented and never broken, however long (a break would be copied
    with it, and a command would not run).

    >>> fit_address("Check every deal: batak verify http://h/r", "batak verify http://h/r", 30)
    ['Check every deal:', '  batak verify http://h/r']
    """
    head, found, tail = text.rpartition(address)
    if visible_len(text) <= width or not found:
        return wrap_text(text, width)
    return [*wrap_text(head.rstrip(), width), "  " + address + tail]


def hash_lines(value: str, width: int) -> list[str]:
    """A hash (a deal's commitment, 64 hex digits) in full on a line of its own, indented:
    whole where it fits (to be copied), else in groups of 8 digits, as key fingerprints are
    shown to be compared by eye, over as few lines as ``width`` allows, as long as each other.

    >>> hash_lines("0123456789abcdef" * 4, 80)
    ['  0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef']
    >>> hash_lines("0123456789abcdef" * 4, 60)
    ['  01234567 89abcdef 01234567 89abcdef', '  01234567 89abcdef 01234567 89abcdef']
    """
    if len(value) + 2 <= width:
        return ["  " + value]
    groups = [value[i : i + 8] for i in range(0, len(value), 8)]
    fit = max(1, (width - 1) // 9)  # groups a line holds: "  " and 8 digits and a space each
    lines = -(-len(groups) // fit)
    each = -(-len(groups) // lines)
    return ["  " + " ".join(groups[i : i + each]) for i in range(0, len(groups), each)]


def short_hash(value: str, style: Style) -> str:
    """A hash's first 16 hex digits (64 bits: as many as it takes to tell two apart by eye, or
    to find one among the full ones ``batak verify`` prints), then ``…``.

    >>> short_hash("0123456789abcdef" * 4, Style(None)), short_hash("c1", Style(None))
    ('0123456789abcdef…', 'c1')
    """
    if len(value) <= 16:
        return value
    return value[:16] + ("…" if style.unicode else "...")


def wrap_text(
    line: str,
    width: int,
    indent: str = "  ",
    *,
    cut: bool = True,
    names: Collection[str] = (),
) -> list[str]:
    """A sentence in lines of at most ``width`` columns (:func:`visible_len`: colour codes take
    none, a wide character two), broken at spaces (a no-break space keeps ``♠ 7`` together), the
    lines after the first indented. The spaces where a line is broken go; no other character
    does (a no-break space is kept).

    >>> wrap_text("Trick 7: you played A♥, which cost a trick; the best was K♥.", 30)
    ['Trick 7: you played A♥, which', '  cost a trick; the best was', '  K♥.']

    A word that fits a line but not after the indent goes whole on a line of its own, without
    the indent, rather than cut; an indent as wide as the line is left out.

    >>> wrap_text("aaaaa bbbbb", 5), wrap_text("aaa bb", 2)
    (['aaaaa', 'bbbbb'], ['aa', 'a', 'bb'])

    A word wider than a line (a text with no spaces, as Japanese is written) is cut between
    whole characters, filling the line begun before it; every line holds one character at
    least (a wide one runs over a line one column wide). An address or a path (a word with a
    ``/`` and no wide character) is never cut: one copied with a break in it would not work,
    so it is left to run past the line as a terminal shows it (``batak online``'s record address
    and ``batak verify`` command are on lines of their own, :func:`fit_address`). With ``cut``
    False no word is cut (a username, which is typed); nor, whatever ``cut`` is, a word that
    holds one of ``names``: a player's name wider than the line (a username of 32 wide
    characters is 64 columns) goes whole on a line of its own, where the terminal wraps it as
    one run that is copied whole, not cut into two words with an indent between.

    >>> name = "山田太郎" * 8
    >>> [visible_len(x) for x in wrap_text(f"Invitation sent to {name}.", 60, names=[name])]
    [18, 67]

    >>> wrap_text("Ban: 東京の卓で不正をした", 12)
    ['Ban: 東京の', '  卓で不正を', '  した']
    >>> wrap_text("Run batak online http://a-long-host.example:8000 again", 20)
    ['Run batak online', '  http://a-long-host.example:8000', '  again']
    """
    if visible_len(line) <= width:
        return [line]
    width = max(1, width)
    names = [n for n in names if visible_len(n)]

    def whole(word: str) -> bool:  # never cut (a name wider than the line, whole on its own)
        return (
            not cut or _kept_whole(word) or any(n in word and visible_len(n) > width for n in names)
        )

    if visible_len(indent) >= width:  # no room for an indent: the lines go on without one
        indent = ""
    text = line.lstrip(" ")
    lead = line[: len(line) - len(text)]  # the first line's own indent, kept if there is room
    lines: list[str] = []
    current = lead if visible_len(lead) < width else ""
    has_word = False  # a word on ``current`` (else it is an indent alone)
    for m in re.finditer(r"( *)([^ ]+)", text):
        word = m.group(2)
        sep = m.group(1) if has_word else ""  # (a double space is kept within a line)
        if not visible_len(word):  # colour codes alone: on the line they follow
            if has_word or not lines:
                current += sep + word if visible_len(current + sep) <= width else word
            else:
                lines[-1] += word
            continue
        joined = current + sep + word
        if visible_len(joined) <= width:
            current, has_word = joined, True
            continue
        if has_word and (
            visible_len(word) <= width or whole(word)
        ):  # the word whole on the next line (without the indent if only so it fits)
            lines.append(current)
            fits = visible_len(indent + word) <= width or visible_len(word) > width
            current = (indent if fits else "") + word
            continue
        if visible_len(word) <= width or whole(word):
            # on a line with no word yet: without its indent if only so it fits, else over
            # (the colour codes before it kept)
            current = joined if visible_len(word) > width else _codes_of(current) + word
            has_word = True
            continue
        begun = current + sep if has_word else current  # wider than a line: fill this one
        bare = not has_word  # ``begun`` holds no word (an indent, a lead, colour codes)
        # Each turn either puts a line holding at least one unit of ``word`` (and takes it off
        # ``word``) or, at most once per line, moves on to a bare line / drops the indent of a
        # bare one: the loop ends however wide the units and whatever the indent is made of.
        while True:
            room = width - visible_len(begun)
            if visible_len(word) <= room:
                break
            head = _outside_names(word, cut_to(word, room) if room > 0 else "", names)
            if not visible_len(head) and not bare:  # the line is full: on the next one
                lines.append(begun.rstrip(" "))
                begun, bare = indent, True
                continue
            if not visible_len(head):  # no room after the indent for the next character:
                begun = _codes_of(begun)  # the line without it (colour codes kept)
                head = _outside_names(word, cut_to(word, width), names)
                if not visible_len(head):  # (a wide character, and one column of room)
                    head = _first_shown(word)
            lines.append(begun + head)
            begun, word, bare = indent, word[len(head) :], True
        if visible_len(word) or not lines:
            current, has_word = begun + word, True
        else:  # (nothing left of it but colour codes: they end the last line)
            lines[-1] += word
            current, has_word = begun, False
    if has_word or not lines:
        lines.append(current)
    return lines


def _outside_names(word: str, head: str, names: Sequence[str]) -> str:
    """``head``, the start of ``word`` that :func:`wrap_text` would put on a line, shortened so
    that the cut is not inside one of ``names``: a word that only holds a name (a short name in
    a long run of text without spaces) is still cut, around the name.

    >>> _outside_names("東京Ayşe大阪", "東京Ay", ["Ayşe"]), _outside_names("Ayşe東", "Ay", ["Ayşe"])
    ('東京', '')
    """
    end = len(head)
    moved = True
    while moved and end:
        moved = False
        for name in names:
            start = word.find(name, max(0, end - len(name) + 1))
            if 0 <= start < end < start + len(name):  # the cut falls inside this name
                end, moved = start, True
    return word[:end]


def _codes_of(text: str) -> str:
    """The colour codes of ``text`` alone: a line's indent (spaces, a no-break space, ``· ``)
    left out where it leaves no room, the colour it sets kept."""
    return "".join(_ESCAPE.findall(text))


def _first_shown(word: str) -> str:
    """The start of ``word`` up to its first unit that takes a column (colour codes before it
    with it): what a line of :func:`wrap_text` holds at least."""
    head = ""
    for unit in _units(word):
        head += unit
        if visible_len(unit):
            break
    return head


def _kept_whole(word: str) -> bool:
    """Whether :func:`wrap_text` leaves ``word`` whole even when it is wider than a line: an
    address or a path (a ``/`` in it) and no wide character, which a break would spoil for
    copying.

    >>> _kept_whole("http://h/r"), _kept_whole("~/batak/kayıt.json"), _kept_whole("東京/大阪")
    (True, True, False)
    """
    return ("/" in word or "\\" in word) and all(_columns(c) < 2 for c in word)


def whole_names(names: Sequence[str]) -> list[str]:
    """``names`` with no-break spaces, for sentences wrapped at spaces (a deal's review): a
    name never ends one line and goes on at the next (``… Bilgisayar`` / ``3: 1``).

    >>> whole_names(["Sen", "Bilgisayar 1", "Ayşe Yılmaz"])
    ['Sen', 'Bilgisayar\xa01', 'Ayşe\xa0Yılmaz']
    """
    return [n.replace(" ", "\u00a0") for n in names]


class ProgressBar:
    """A one-line progress bar for the deal review, on a terminal's stderr (nothing when stderr
    is not one): ``[#####---------------] deal 4 of 11: card 13 of 52``."""

    def __init__(self, lang: str) -> None:
        self.on = _isatty(sys.stderr) and not dumb_terminal()
        self.lang = lang

    def show(self, deal: int, deals: int | None, done: int, total: int) -> None:
        """``deals`` None: one deal is reviewed on its own (at the table), not one of a run."""
        if not self.on:
            return
        filled = round(20 * done / max(total, 1))
        bar = "#" * filled + "-" * (20 - filled)
        if deals is None:
            line = t("analysing_one", self.lang, deal=deal, done=done, total=total)
        else:
            line = t("analysing", self.lang, deal=deal, deals=deals, done=done, total=total)
        sys.stderr.write(f"\r[{bar}] {line}")
        sys.stderr.flush()

    def on_deal(self, deal: int, deals: int | None) -> Callable[[int, int], None]:
        """The ``progress`` for :func:`~batak.bots.review.review_deal` of deal ``deal``."""
        return lambda done, total: self.show(deal, deals, done, total)

    def end(self) -> None:
        if self.on:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()


# ---------------------------------------------------------------------- seats and moves
def seat_labels(
    players: int, human: int | None, lang: str, names: Sequence[str] | None = None
) -> list[str]:
    """``You`` for the human's seat and ``Computer k`` for the k-th seat after it in play order;
    ``Player 1``.. for everyone when nobody is human (replays); with ``names`` (a server's record
    keeps its players' names, :func:`record_names`) each seat's name, the human's still ``You``.

    >>> seat_labels(4, 2, "tr")
    ['Bilgisayar 2', 'Bilgisayar 3', 'Sen', 'Bilgisayar 1']
    >>> seat_labels(4, None, "en", ["Ayşe", "u1bot", "Bot 3", "Bot 4"])
    ['Ayşe', 'u1bot', 'Bot 3', 'Bot 4']
    """
    if names is not None:
        return [t("you", lang) if s == human else names[s] for s in range(players)]
    if human is None:
        return [t("player", lang, n=s + 1) for s in range(players)]
    return [
        t("you", lang) if s == human else t("computer", lang, n=(s - human) % players)
        for s in range(players)
    ]


def record_names(meta: dict[str, Any], players: int) -> list[str] | None:
    """The players' names by seat that a record keeps (a server writes ``meta.players``), or
    None when it keeps none, or not one distinct name for each of the ``players`` seats.
    Control characters are left out.

    >>> record_names({"players": ["Ayşe", "u1bot", "Bot 3", "Bot 4"]}, 4)
    ['Ayşe', 'u1bot', 'Bot 3', 'Bot 4']
    >>> record_names({"players": ["Ayşe", "Ayşe", "", "Bot 4"]}, 4) is None
    True
    """
    names = meta.get("players")
    if not isinstance(names, list) or len(names) != players:
        return None
    # printable characters only: a name must not move the cursor or colour the terminal
    out = [
        " ".join("".join(c for c in n if c.isprintable()).split())
        for n in names
        if isinstance(n, str)
    ]
    if len(out) != players or not all(out) or len(set(out)) != players:
        return None
    return out


def _unit_label(unit: Sequence[int], labels: Sequence[str], lang: str) -> str:
    if len(unit) == 1:
        return labels[unit[0]]
    return t("team", lang, a=labels[unit[0]], b=labels[unit[1]])


def contract_given_in(view: dict[str, Any], bidding: str) -> bool:
    """A seat's view (a server's) of a table of ``bidding`` where everyone passed and the rules
    gave the contract (``all_pass``): nobody bid it (:attr:`batak.game.Game.contract_given`)."""
    return bidding == "auction" and all(
        isinstance(parse_move(a["move"]), Pass) for a in view["auction"]
    )


def contract_lines(
    rules: Rules,
    bids: Sequence[int | None],
    bidder: int | None,
    bid: int | None,
    tricks: Sequence[int],
    labels: Sequence[str],
    lang: str,
    *,
    forced: bool = False,
) -> list[str]:
    """Who bid what and took how many, made or down: each player's own bid at Koz Maça, the
    contract's side (the bidder, or the bidder's team) elsewhere. From a game (``batak play``)
    or a score-sheet row (``batak online``). ``forced``: nobody bid, the rules gave the
    contract (all_pass), so it is said as given, not bid."""
    if rules.bidding == "kozmaca":  # each player's own word ("söz"), not an ihale
        return [
            t(
                "made_kozmaca" if b is not None and tricks[s] >= b else "down_kozmaca",
                lang,
                who=labels[s],
                bid=b,
                tricks=tricks[s],
            )
            for s, b in enumerate(bids)
        ]
    if bidder is None or bid is None:
        return []
    unit = rules.team_of(bidder)
    side = sum(tricks[s] for s in unit)
    if forced:
        code = "made_forced" if side >= bid else "down_forced"
    else:
        code = "made" if side >= bid else "down"
    return [t(code, lang, who=_unit_label(unit, labels, lang), bid=bid, tricks=side)]


def move_text(move: str | Move, lang: str, style: Style, *, kozmaca: bool = False) -> str:
    """How a move is shown to a player: ``pas``, ``ihale 7``, ``koz ♥ kupa``, ``10♥``."""
    m = parse_move(move)
    if isinstance(m, Pass):
        return text("move_pass", lang)
    if isinstance(m, Bid) and kozmaca:
        return t("move_kozmaca", lang, n=m.amount)
    if isinstance(m, Bid):
        return text("move_bid", lang, n=m.amount)
    if isinstance(m, TrumpChoice):
        return text("move_trump", lang, koz=style.koz(m.suit.value, lang))
    if isinstance(m, Bury):
        return text("move_bury", lang, card=style.card(m.card))
    return style.card(m)


def trick_items(
    leader: int, cards: Sequence[str | Card], players: int, labels: Sequence[str], style: Style
) -> list[str]:
    """Each card of a trick with who played it: ``["You 10♥", "Computer 1 2♥"]``."""
    return [f"{labels[(leader + i) % players]}: {style.card(c)}" for i, c in enumerate(cards)]


def soz_line(who: str, n: int, lang: str, *, yours: bool = False) -> str:
    """A Koz Maça bid (söz), in ``batak play`` and ``batak online`` alike. ``yours``: the
    reader's own, said to them by seat (a player named "You" is not the reader).

    >>> soz_line("Computer 1", 1, "en"), soz_line("You", 3, "en", yours=True)
    ('Computer 1 says 1', 'You say 3')
    >>> soz_line("You", 3, "en"), soz_line("Sen", 3, "tr", yours=True)
    ('You says 3', 'Sen: söz 3')
    """
    if yours:  # the reader's own
        return t("said_kozmaca_you", lang, you=who, n=n)
    return t("said_kozmaca", lang, who=who, n=n)


# ---------------------------------------------------------------------- narration
class Narrator:
    """Tells what happens at the table: bids, the contract, koz, tricks, each deal's result."""

    def __init__(
        self,
        con: Console,
        labels: Sequence[str],
        lang: str,
        style: Style,
        *,
        reveal: bool,
        each_card: bool,
        own_seat: int | None = None,
    ) -> None:
        self.con = con
        self.labels = list(labels)
        self.lang = lang
        self.style = style
        self.reveal = reveal  # show buried cards and the kitty (replays)
        self.each_card = each_card  # one line per card, not only per trick
        self.own_seat = own_seat  # the human: sees their own buried cards

    def _say(self, *lines: str) -> None:
        """Lines worded into the terminal's width: a sentence with a long name in it (the
        contract given to "Ayşe Yılmaz-Karaoğlu", 88 columns in Turkish) ran past it. A name
        wider than the line is never cut (:func:`wrap_text`)."""
        self.con.wrapped(*lines, width=self.style.width, names=self.labels)

    def deal_start(self, match: Match) -> None:
        game = match.game
        r = match.rules
        lang = self.lang
        extra = r.deals is not None and match.deals_scored >= r.deals
        self.con.say()
        self._say(
            deal_heading(
                len(match.games), r.deals, self.labels[game.dealer], lang, self.style, extra=extra
            )
        )
        if not game.history:  # a deal continued from a record has begun already
            self.opening(game)

    def opening(self, game: Game) -> None:
        """The first lines of a deal: who speaks first, or the fixed koz and who leads."""
        trump = game.trump.value if game.trump is not None else None
        self._say(
            *opening_lines(game.rules, game.dealer, self.labels, self.lang, self.style, trump)
        )

    def move(self, game: Game, seat: int, move: Move, tricks_before: int) -> None:
        """Describe ``move`` just made by ``seat`` (``game`` is the deal after it)."""
        lang = self.lang
        who = self.labels[seat]
        r = game.rules
        say = self._say
        if isinstance(move, Pass):
            say(t("said_pass", lang, who=who))
        elif isinstance(move, Bid) and r.bidding == "kozmaca":
            say(soz_line(who, move.amount, lang, yours=seat == self.own_seat))
        elif isinstance(move, Bid):
            say(t("said_bid", lang, who=who, n=move.amount))
        elif isinstance(move, Bury):
            if self.reveal or seat == self.own_seat:
                say(t("buried_card", lang, who=who, card=self.style.card(move.card)))
            elif len(game.buried) == r.kitty_size:  # hidden: said once, when all are buried
                n = r.kitty_size
                if n == 1:
                    say(t("buried_hidden", lang, who=who))
                else:
                    say(t("buried_hidden_many", lang, who=who, n=n))
        elif isinstance(move, TrumpChoice):
            say(t("named_koz", lang, who=who, koz=self.style.koz(move.suit.value, lang)))
            if game.exposed_seat is not None:  # "Your hand is face up now" to its player
                exposed = game.exposed_seat
                if exposed == self.own_seat:
                    say(t("lays_down_you", lang))
                else:
                    say(t("lays_down", lang, who=self.labels[exposed]))
        else:
            if self.each_card:
                say("  " + t("played", lang, who=who, card=self.style.card(move)))
            if len(game.tricks) > tricks_before:
                trick = game.tricks[-1]
                items = trick_items(
                    trick.leader, trick.cards, game.players, self.labels, self.style
                )
                for line in fit_items(
                    "trick_line",
                    lang,
                    items,
                    self.style.width,
                    key="cards",
                    n=len(game.tricks),
                    who=self.labels[trick.winner],
                ):
                    say(line)
        if isinstance(move, Pass | Bid) and game.phase is not Phase.BIDDING:
            self._auction_over(game)

    def _auction_over(self, game: Game) -> None:
        contract = game.contract
        lines = auction_over_lines(
            game.rules,
            contract.bidder if contract is not None else None,
            contract.bid if contract is not None else None,
            self.labels,
            self.lang,
            self.style,
            dealer=game.dealer,
            given=game.contract_given,
            redeal=game.redeal,
            trump=game.trump.value if game.trump is not None else None,
            # koz fixed by the rules: the play begins at once
            koz_fixed=game.phase is Phase.PLAY,
            reader=self.own_seat,
        )
        self._say(*lines)

    def deal_result(self, game: Game, row: ScoreRow | None) -> None:
        """What happened in a finished deal (made or down, batak, KING)."""
        lang = self.lang
        r = game.rules
        say = self._say
        if game.redeal:
            return
        say(self.style.bold(t("deal_over", lang, n=row.deal if row else "")))
        tricks = game.tricks_won
        contract = game.contract
        bidder, bid = (contract.bidder, contract.bid) if contract is not None else (None, None)
        lines = contract_lines(
            r, game.bids, bidder, bid, tricks, self.labels, lang, forced=game.contract_given
        )
        for line in lines:
            say(line)
        if r.zero_trick_penalty != "none" and r.bidding != "kozmaca" and r.scoring != "acik":
            bidder_unit = r.team_of(contract.bidder) if contract is not None else ()
            for unit in r.teams:
                if unit != bidder_unit and sum(tricks[s] for s in unit) == 0:
                    # what it costs, as the sheet writes it (at Sultan 10 × the bid)
                    if row is not None and row.scores is not None:
                        points = row.scores[unit[0]]
                    else:
                        points = -zero_trick_penalty(r, bid)
                    who = _unit_label(unit, self.labels, lang)
                    say(t("batak_note", lang, who=who, points=points))
        if row is not None and row.king:
            assert contract is not None
            who = _unit_label(r.team_of(contract.bidder), self.labels, lang)
            say(t("king_note", lang, who=who))


def deal_heading(
    n: int, deals: int | None, dealer: str, lang: str, style: Style, *, extra: bool = False
) -> str:
    """A deal's heading: ``── Deal 2 of 4 ── dealer: Computer 1`` (``extra``: a deal played
    to break a tie). From a game (``batak play``) or a server's table (``batak online``).

    >>> deal_heading(2, 4, "Sen", "tr", Style(None))
    '── El 2/4 ── dağıtan: Sen'
    """
    of = t("deal_of", lang, total=deals) if deals is not None else ""
    if extra:
        of += t("deal_extra", lang)
    return style.bold(t("deal_header", lang, n=n, of=of, dealer=dealer))


def opening_lines(
    rules: Rules,
    dealer: int,
    labels: Sequence[str],
    lang: str,
    style: Style,
    trump: str | None = None,
) -> list[str]:
    """A deal's first lines, under its heading: who speaks first; at a table without bidding
    the koz (``trump``, the one the engine plays) and who leads. From a game (``batak play``)
    or a server's table (``batak online``).

    >>> opening_lines(Rules(), 3, ["Sen", "B1", "B2", "B3"], "tr", Style(None))
    ['İlk söz: Sen.']
    """
    first = labels[(dealer + 1) % rules.players]
    if rules.bidding != "none":
        return [t("first_speaker", lang, who=first)]
    koz = [t("koz_fixed", lang, koz=style.koz(trump, lang))] if trump is not None else []
    return [*koz, t("leads_first", lang, who=first)]


def auction_over_lines(
    rules: Rules,
    bidder: int | None,
    bid: int | None,
    labels: Sequence[str],
    lang: str,
    style: Style,
    *,
    dealer: int,
    given: bool = False,
    redeal: bool = False,
    trump: str | None = None,
    koz_fixed: bool = False,
    reader: int | None = None,
) -> list[str]:
    """What is said when the auction ends: who won the ihale at what (``given``: nobody bid,
    the rules gave it), what the bidder does with the kitty, and with ``koz_fixed`` (the rules'
    koz: the play begins at once) the koz and who leads; at Koz Maça the koz and who leads; a
    thrown-in deal (a replay says the kitty's cards once, under the hands dealt). From a game
    (``batak play``) or a server's view (``batak online``). ``reader``: the reader's seat, if
    they sit at the table, spoken to when they win ("You win the ihale at 7."); a player named
    "You" is not them."""
    if redeal:
        return [t("redeal_note", lang)]
    players = rules.players
    if rules.bidding == "kozmaca":
        out = []
        if trump is not None:  # what the engine plays, not what the rules promise
            out.append(t("koz_fixed", lang, koz=style.koz(trump, lang)))
        out.append(t("leads_first", lang, who=labels[(dealer + 1) % players]))
        return out
    if bidder is None or bid is None:
        return []
    who = labels[bidder]
    # the one who bid it, or the one the rules gave it
    if bidder == reader:  # the reader: "You win the ihale", not "is won by You"
        code = "forced_contract_you" if given else "won_auction_you"
    else:
        code = "forced_contract" if given else "won_auction"
    out = [t(code, lang, who=who, bid=bid)]
    if rules.kitty_size:  # in the table's order (the kitty's cards were not always said)
        if bidder == reader:  # "You take the 4 kitty cards", not "The bidder takes"
            said = {
                "bury_take_trump": "takes_kitty_blind_you",
                "take_trump_bury": "takes_kitty_koz_you",
            }
            code = said.get(rules.kitty_order, "takes_kitty_you")
        else:
            said = {"bury_take_trump": "takes_kitty_blind", "take_trump_bury": "takes_kitty_koz"}
            code = said.get(rules.kitty_order, "takes_kitty")
        out.append(t(code, lang, n=rules.kitty_size))
    if koz_fixed and trump is not None:
        out.append(t("koz_fixed", lang, koz=style.koz(trump, lang)))
        out.append(t("leads_first", lang, who=who))
    return out


# ---------------------------------------------------------------------- the table and the sheet
def status_lines(view: dict[str, Any], labels: Sequence[str], lang: str, style: Style) -> list[str]:
    """What the human sees before a move, drawn only from their seat's view."""
    r = view["rules"]
    n = view["players"]
    phase = view["phase"]
    kozmaca = r["bidding"] == "kozmaca"
    phase_code = "phase_kozmaca" if kozmaca and phase == "bidding" else f"phase_{phase}"
    out = [style.bold(t("status_title", lang, phase=t(phase_code, lang)))]
    # the auction
    if r["bidding"] == "auction":
        items = [
            f"{labels[a['seat']]}: {move_text(a['move'], lang, style)}" for a in view["auction"]
        ]
        if items:
            out.extend(fit_items("auction_line", lang, items, style.width))
        else:
            out.append(t("auction_line", lang, items=t("auction_none", lang)))
    elif kozmaca:
        bids = view["bids"] or [None] * n
        items = [f"{labels[s]}: {'?' if b is None else b}" for s, b in enumerate(bids)]
        out.extend(fit_items("kozmaca_line", lang, items, style.width))
    # the contract and koz
    koz = view["trump"]
    # broken or not matters only where koz may not be led before (not at açık eşli's table)
    broken = t("koz_broken" if view["trumps_broken"] else "koz_unbroken", lang)
    if r.get("trump_lead") == "any_time":
        broken = ""
    koz_text = f"{style.koz(koz, lang)} {broken}".rstrip() if koz else t("koz_unnamed", lang)
    contract = view["contract"]
    teams: list[tuple[int, ...]] = [(0, 2), (1, 3)] if r["partners"] else [(s,) for s in range(n)]
    forced = contract_given_in(view, r["bidding"])
    if contract is not None:
        bidder = contract["bidder"]
        unit = next(u for u in teams if bidder in u)
        who = labels[bidder]
        code = "contract_line_forced" if forced else "contract_line"
        said = t(code, lang, who=who, bid=contract["bid"], koz=koz_text)
        # the forced one's Turkish: 87 columns
        out.extend(wrap_text(said, style.width, names=labels))
    elif koz:
        out.extend(wrap_text(t("koz_line", lang, koz=koz_text), style.width))
    # tricks against the contract
    if phase in ("play", "over"):
        won = view["tricks_won"]
        if kozmaca and view["bids"]:
            items = [f"{labels[s]}: {won[s]}/{view['bids'][s]}" for s in range(n)]
        else:
            items = [f"{labels[s]}: {won[s]}" for s in range(n)]
        out.extend(fit_items("tricks_line", lang, items, style.width))
        if contract is not None:
            side = sum(won[s] for s in unit)
            said = t(
                "side_line_forced" if forced else "side_line",
                lang,
                who=_unit_label(unit, labels, lang),
                tricks=side,
                bid=contract["bid"],
            )
            # (a bot account's name of 24 characters and its "(bot)": 66 columns in Turkish)
            out.extend("  " + line for line in wrap_text(said, style.width - 2, names=labels))
    # the last trick and the trick on the table
    if view["tricks"]:
        last = view["tricks"][-1]
        items = trick_items(last["leader"], last["cards"], n, labels, style)
        who = labels[last["winner"]]
        out.extend(  # under its first card, as 'son' says it
            fit_under(lambda cards: t("last_line", lang, cards=cards, who=who), items, style.width)
        )
    if phase == "play":
        trick = view["current_trick"]
        if trick["cards"]:
            items = trick_items(trick["leader"], trick["cards"], n, labels, style)
            out.extend(fit_items("table_line", lang, items, style.width))
        else:
            out.append(t("table_line", lang, items=t("table_empty", lang)))
    # the exposed hand (açık eşli)
    exposed = view["exposed"]
    width = style.width
    if exposed is not None:
        if exposed["seat"] == view["seat"]:
            out.extend(wrap_text(t("you_exposed", lang), width))
        else:
            who = labels[exposed["seat"]]
            out.extend(_hand_lines("exposed_line", lang, style, exposed["cards"], who=who))
    # a hand is broken between its suits, never inside one (a 20-card hand at a kitty table
    # ran past 60 columns, and the terminal wrapped it at the margin)
    out.extend(_hand_lines("hand_line", lang, style, view["hand"]))
    if phase in ("bury", "trump") and view.get("kitty"):  # the bidder: what the kitty brought
        cards = " ".join(style.card(c) for c in view["kitty"])
        if phase == "bury":
            need = r["kitty_size"] - len(view["buried"] or [])
            out.extend(wrap_text(t("kitty_line", lang, cards=cards, n=need), width))
        else:  # the koz named with the kitty in hand (after burying blind, or before burying)
            out.extend(wrap_text(t("kitty_came", lang, cards=cards), width))
    if view["buried"]:
        buried = " ".join(style.card(c) for c in view["buried"])
        out.extend(wrap_text(t("buried_line", lang, cards=buried), width))
    legal = view["legal_moves"]
    if legal and phase == "bidding":
        # bids are typed as their number ("7" is ihale 7): a numbered list would make "7" the
        # seventh move, so the bids are shown as ranges
        out.append(t("moves_line", lang))
        out.extend(_wrap(bid_items(legal, lang, style, kozmaca=kozmaca), style.width, sep=" · "))
        how = "bid_by_number_kozmaca" if kozmaca else "bid_by_number"
        out.extend(wrap_text(t(how, lang, example=_example_bid(legal)), style.width))
    elif legal:
        out.append(t("moves_line", lang))
        items = [
            f"{i}) {move_text(m, lang, style, kozmaca=kozmaca)}" for i, m in enumerate(legal, 1)
        ]
        out.extend(_wrap(items, style.width))  # the terminal's width, not a fixed 78
    return out


def _hand_lines(
    code: str, lang: str, style: Style, cards: Sequence[str], **params: Any
) -> list[str]:
    """The text ``code`` with a hand (its placeholder ``cards``) in lines of ``style.width``,
    broken between two suits, never inside one.

    >>> hand = "AS KS 9S 2S AH KH QH 9H 4H 3H 2H QD 8D 7D 5D 2D AC 9C 7C 6C".split()
    >>> style = Style(None)
    >>> style.width = 60
    >>> for line in _hand_lines("hand_line", "en", style, hand):
    ...     print(line)
    Your hand: ♠ A K 9 2   ♥ A K Q 9 4 3 2   ♦ Q 8 7 5 2
               ♣ A 9 7 6

    A line after the first goes on under the first suit (at a 2-column indent, under "Your
    hand:", it read as a line of its own), unless a suit would not fit there.
    """
    groups = style.hand(cards).split("   ")  # (a suit's group has single spaces only)
    head, _, tail = t(code, lang, cards="\0", **params).partition("\0")
    indent = " " * visible_len(head)
    width = style.width
    if tail or any(visible_len(indent + g) > width for g in groups):
        return fit_list(
            lambda joined: t(code, lang, cards=joined, **params), groups, width, sep="   "
        )
    lines: list[str] = []
    current = head + groups[0]
    for group in groups[1:]:
        if visible_len(current) + 3 + visible_len(group) > width:
            lines.append(current)
            current = indent + group
        else:
            current += "   " + group
    return [*lines, current]


def bid_items(legal: Sequence[str], lang: str, style: Style, *, kozmaca: bool) -> list[str]:
    """The auction's legal moves in short: ``pas``, then each run of bids as ``ihale 6–13``.

    >>> bid_items(["pass", "bid 6", "bid 7", "bid 8"], "tr", Style(None), kozmaca=False)
    ['pas', 'ihale 6–8']
    >>> bid_items(["bid 0", "bid 2", "bid 3"], "en", Style(None), kozmaca=True)
    ['0', '2–3']
    """
    out: list[str] = []
    runs: list[list[int]] = []
    for m in legal:
        move = parse_move(m)
        if isinstance(move, Bid):
            if runs and runs[-1][1] == move.amount - 1:
                runs[-1][1] = move.amount
            else:
                runs.append([move.amount, move.amount])
        else:
            out.append(move_text(move, lang, style, kozmaca=kozmaca))
    for low, high in runs:
        shown = str(low) if low == high else f"{low}{'–' if style.unicode else '-'}{high}"
        out.append(t("move_kozmaca", lang, n=shown) if kozmaca else text("move_bid", lang, n=shown))
    return out


def not_a_move(typed: str, view: dict[str, Any], lang: str, style: Style, width: int) -> list[str]:
    """What a line that is no move at all gets, in ``batak play`` and ``batak online`` alike: the
    line, and the moves this seat has now (the table's own: no 'bury AS' where there is no kitty;
    the bids as ranges), in lines of ``width`` columns broken between two moves, never inside
    one (at 60 columns the twenty moves of a burial broke as "bury" / "3♥").

    The moves are joined by " · ", as the table's other lists (the moves under "Your moves:",
    the auction, the players); they were joined by commas.

    >>> view = {"phase": "bidding", "legal_moves": ["pass", "bid 5", "bid 6", "bid 7"],
    ...         "rules": {"bidding": "auction"}}
    >>> not_a_move("bid", view, "en", Style(None), 80)
    ['“bid” is not a move here. Your moves: pas · bid 5–7']
    >>> view = {"phase": "bury", "legal_moves": ["bury AS", "bury 3H", "bury KD"],
    ...         "rules": {"bidding": "auction"}}
    >>> for line in not_a_move("x", view, "en", Style(None), 45):
    ...     print(line)
    “x” is not a move here. Your moves: bury A♠
      · bury 3♥ · bury K♦

    A command the table does not have (:func:`unknown_command`) is said to be one, with the
    words that list the commands; the moves go on under the first, as the auction's line.

    >>> for line in not_a_move("stats", view, "en", Style(None), 30):
    ...     print(line)
    Unknown command “stats”: '?'
      or 'help' lists the
      commands.
    Your moves: bury A♠ · bury 3♥
              · bury K♦
    """
    moves = _moves_said(view, lang, style)  # joined by " · ", as the table's other lists
    if unknown_command(typed):
        return [
            *wrap_text(t("unknown_command", lang, text=typed), width),
            *fit_under(lambda said: t("moves_now", lang, moves=said), moves, width),
        ]

    def said(moves: str) -> str:
        return t("not_a_move", lang, text=typed, moves=moves)

    # (at a 2-column indent: under the first move, after the sentence, a burial's twenty
    # moves stood one a line at the right of a 60-column terminal, in Turkish)
    return fit_list(said, moves, width)


def unknown_command(typed: str) -> bool:
    """Is ``typed`` a command the table does not have rather than a move mistyped: a word of
    three letters or more that no move is written with ("stats", not "ihale", "kupa" or "QX")?

    >>> [unknown_command(w) for w in ("stats", "İstatistik", "ihale", "kupa", "QX", "bid 9")]
    [True, True, False, False, False, False]
    """
    return len(typed) > 2 and typed.isalpha() and not is_move_word(typed)


def _moves_said(view: dict[str, Any], lang: str, style: Style) -> list[str]:
    """A seat's moves now as the player reads them: the bids as ranges (``bid 5–7``)."""
    legal = view["legal_moves"]
    kozmaca = view["rules"]["bidding"] == "kozmaca"
    if view["phase"] == "bidding":
        return bid_items(legal, lang, style, kozmaca=kozmaca)
    return [move_text(m, lang, style, kozmaca=kozmaca) for m in legal]


def refused(reason: str, lang: str) -> str:
    """A move the rules refuse, with their reason (the engine's, or the server's in its words):
    ``Not allowed — you must follow suit: …``."""
    return t("move_refused", lang, reason=reason)


def no_number(n: int, moves: int, lang: str) -> str:
    """A move's number that is not in the list of ``moves`` moves."""
    if moves == 1:  # not "choose 1..1"
        return t("no_number_one", lang, n=n)
    return t("no_number", lang, n=n, high=moves)


def _example_bid(legal: Sequence[str]) -> int:
    amounts = [m.amount for m in map(parse_move, legal) if isinstance(m, Bid)]
    return amounts[0] if amounts else 0


def short_labels(
    players: int, human: int | None, lang: str, names: Sequence[str] | None = None
) -> list[str]:
    """Short seat names for the narrow columns of the score sheet: ``You``, ``C1``.. / ``B1``..;
    with ``names`` their first 8 characters when those still tell the players apart.

    >>> short_labels(3, 0, "tr"), short_labels(4, None, "en")
    (['Sen', 'B1', 'B2'], ['P1', 'P2', 'P3', 'P4'])
    >>> short_labels(4, None, "en", ["Ayşe", "u1bot", "Bot 3", "Bot 4"])
    ['Ayşe', 'u1bot', 'Bot 3', 'Bot 4']
    """
    if names is not None:
        # 8 columns, cut between whole characters (a name in Japanese took 16)
        cut = [t("short_you", lang) if s == human else cut_to(names[s], 8) for s in range(players)]
        if len(set(cut)) == players:
            return cut
    if human is None:
        return [t("short_player", lang, n=s + 1) for s in range(players)]
    return [
        t("short_you", lang) if s == human else t("short_computer", lang, n=(s - human) % players)
        for s in range(players)
    ]


def sheet_lines(
    match: Match, labels: Sequence[str], lang: str, style: Style, short: Sequence[str]
) -> list[str]:
    """The score sheet (yazboz): each deal's dealer, bidder, bid and koz, and under each player
    (or side) the tricks, the deal's score and the running total.

    It fits ``style.width`` columns where it can: when the full sheet is wider, the columns are
    headed with the short names and parted by a bar alone, then the dealer (said at each deal's
    start) is left out, then (60 columns) the bidder, bid and koz share one column
    (``B2 6♠``) and the numbers take only the columns they need, and last the players' names
    cut to 8 columns give way to their seats' codes (``P2``), each given its full name once in
    the totals line under the sheet, and at the very last (totals of five digits) the rows keep
    the tricks and the deal's score and leave the running totals to that line."""
    return score_sheet_lines(match.rules, match.sheet, match.totals, labels, lang, style, short)


def score_sheet_lines(
    rules: Rules,
    rows: Sequence[ScoreRow],
    totals: Sequence[int],
    labels: Sequence[str],
    lang: str,
    style: Style,
    short: Sequence[str],
) -> list[str]:
    """:func:`sheet_lines` of a sheet's ``rows`` and ``totals`` at a table of ``rules`` (a
    server's table, whose rows come as :meth:`ScoreRow.to_dict` gives them: ``batak online``)."""
    out = [style.bold(t("sheet_title", lang))]
    if not rows:
        out.append(t("sheet_empty", lang))
        return out
    units = list(rules.teams)
    codes = _seat_codes(short, lang)
    layouts = [(labels, short, " | ", True, False, True), (short, short, "|", True, False, True)]
    layouts += [(short, short, "|", False, False, True), (short, short, "|", False, True, True)]
    if codes != list(short):  # then names cut to 8 columns give way to seat codes (P2)
        layouts.append((codes, codes, "|", False, True, True))
    # last (totals of four or five digits at 60 columns: -12345), the running totals leave the
    # rows: the totals line under the sheet says them
    layouts.append((codes, codes, "|", False, True, False))
    for heads, seats, bar, dealer_column, compact, running in layouts:
        names = [_unit_label(u, heads, lang) for u in units]
        table = _sheet_table(
            rules, rows, lang, style, seats, names, bar, dealer_column, compact, running
        )
        if max(visible_len(line) for line in table) <= style.width:
            break
    out.extend(table)
    for line in t("sheet_legend" if running else "sheet_legend_no_totals", lang).split("\n"):
        out.extend(wrap_text(line, style.width))
    said = []
    for u in units:  # the full names, and the seat codes that stood for them in the table
        name, code = _unit_label(u, labels, lang), _unit_label(u, seats, lang)
        coded = seats is codes and code != name
        said.append(f"{name} ({code}): {totals[u[0]]}" if coded else f"{name}: {totals[u[0]]}")
    out.extend(fit_items("totals_line", lang, said, style.width))
    return out


def _seat_codes(short: Sequence[str], lang: str) -> list[str]:
    """The heads of the narrowest score sheet: a short name of up to 3 columns as it is
    (``You``, ``C1``, ``Ali``), a longer one as its seat's code (``P2``), all the seats' codes
    but the reader's when one of them would be said twice.

    >>> _seat_codes(["Ayşe Yıl", "Ali", "Zeynep K", "Bot 4"], "en")
    ['P1', 'Ali', 'P3', 'P4']
    >>> _seat_codes(["P3", "Mehmet Ö", "Zeynep K", "Bot 4"], "en")
    ['P1', 'P2', 'P3', 'P4']
    """
    said = [t("short_player", lang, n=s + 1) for s in range(len(short))]
    codes = [x if visible_len(x) <= 3 else said[s] for s, x in enumerate(short)]
    if len(set(codes)) < len(codes):
        you = t("short_you", lang)
        codes = [x if x == you else said[s] for s, x in enumerate(short)]
    return codes


def _sheet_table(
    rules: Rules,
    rows: Sequence[ScoreRow],
    lang: str,
    style: Style,
    short: Sequence[str],
    names: Sequence[str],
    bar: str,
    dealer_column: bool,
    compact: bool = False,
    running: bool = True,
) -> list[str]:
    """The sheet's head, rule and rows: ``names`` over the players' (or sides') columns,
    parted by ``bar``; the dealer's column only with ``dealer_column``; with ``compact`` the
    contract in one column (``B2 6♠``) and the numbers no wider than they are; without
    ``running`` each cell has the tricks and the deal's score, not the running total."""
    units = list(rules.teams)

    def tricks_text(row: ScoreRow, u: Sequence[int]) -> str:
        tricks = sum(row.tricks[s] for s in u)
        return f"{tricks}/{row.bids[u[0]]}" if row.bids is not None else str(tricks)

    scored = [row for row in rows if not row.redeal]
    least = 2 if compact else 4
    tw = max([1 if compact else 2, *(len(tricks_text(row, u)) for row in scored for u in units)])
    sw = max(
        [least, *(len(f"{row.scores[u[0]]:+}") for row in scored for u in units if row.scores)]
    )
    ow = max([least, *(len(str(row.totals[u[0]])) for row in rows for u in units)])
    cw = max(tw + sw + 1 + (ow + 1 if running else 0), *(visible_len(x) for x in names))
    heads = [t(c, lang) for c in ("col_deal", "col_dealer", "col_bidder", "col_bid", "col_koz")]
    # Koz Maça has no ihale (each player's söz, if any, is in their cells: 2/3), the koz is
    # always ♠: its sheet had a bidder's and a bid's column of "-" only, its compact one headed
    # "ihale" over the ♠. Without an auction the koz alone stands before the players' columns
    auction = rules.bidding == "auction"
    w = max(visible_len(x) for x in [*short, heads[1], *heads[2:3] * auction])
    bw = max(3, len(heads[3]))
    # the deal's number as wide as the numbers, not indented: the Turkish heads are longer
    # ("dağıtan", "ihaleci", "ihale"), and the columns saved let the dealer's fit in 80
    nw = max(len(str(row.deal)) for row in rows)

    def contract(bidder: str, bid: str, koz: str) -> str:  # "B2 6♠", Koz Maça's "♠"
        return f"{bidder} {bid}{koz}" if bidder not in ("", "-") else koz

    # the compact contract column: as wide as its head or its widest contract
    khead = heads[3] if auction else heads[4]
    kw = max([len(khead), *(visible_len(contract(*c)) for c in _contracts(rows, short, style))])

    def prefix(num: str, dealer: str, bidder: str, bid: str, koz: str) -> str:
        if compact:
            said = khead if num == heads[0] else contract(bidder, bid, koz)
            return f"{num:>{nw}} {said}{' ' * max(0, kw - visible_len(said))} "
        # the koz may be coloured: pad it by the columns it takes, not by its length
        koz += " " * max(0, 3 - visible_len(koz))
        who = f"{pad_to(dealer, w)} " if dealer_column else ""
        contract_of = f"{pad_to(bidder, w)} {bid:>{bw}} " if auction else ""
        return f"{num:>{nw}} {who}{contract_of}{koz}"

    out = []
    head = prefix(*heads)
    out.append(head + bar + bar.join(pad_to(x, cw, "^") for x in names))
    out.append("-" * (visible_len(head) + len(units) * (cw + len(bar))))
    for row in rows:
        dealer = short[row.dealer]
        if row.redeal:
            out.append(prefix(str(row.deal), dealer, "", "", "") + bar + t("row_redeal", lang))
            continue
        bidder = short[row.bidder] if row.bidder is not None else "-"
        bid = str(row.bid) if row.bid is not None else "-"
        koz = style.symbol(row.trump) if row.trump else "-"
        cells = []
        for u in units:
            score = row.scores[u[0]] if row.scores is not None else 0
            cell = f"{tricks_text(row, u):>{tw}} {score:>+{sw}}"
            if running:
                cell += f" {row.totals[u[0]]:>{ow}}"
            cells.append(f"{cell:^{cw}}")
        line = prefix(str(row.deal), dealer, bidder, bid, koz) + bar + bar.join(cells)
        if row.extra:
            line += "  (" + t("row_extra", lang) + ")"
        if row.king:
            line += "  " + t("row_king", lang)
        out.append(line)
    return out


def _contracts(
    rows: Sequence[ScoreRow], short: Sequence[str], style: Style
) -> list[tuple[str, str, str]]:
    """Each scored row's bidder, bid and koz as the sheet writes them."""
    return [
        (
            short[row.bidder] if row.bidder is not None else "-",
            str(row.bid) if row.bid is not None else "-",
            style.symbol(row.trump) if row.trump else "-",
        )
        for row in rows
        if not row.redeal
    ]


def tie_note(
    rules: Rules,
    totals: Sequence[int],
    winners: Sequence[int],
    labels: Sequence[str],
    lang: str,
    human: int | None = None,
) -> str | None:
    """Why the winner is who it is when the best total is shared: the table's tie rule (a
    player tied on points and not named the winner was not told why). ``human``: the reader's
    seat, said in the second person when it is among them."""
    units = list(rules.teams)
    best = max(totals[u[0]] for u in units)
    level = [u for u in units if totals[u[0]] == best]
    if len(level) < 2:
        return None
    said = [_unit_label(u, labels, lang) for u in level]
    names = t("names_and", lang, names=", ".join(said[:-1]), last=said[-1])
    you = human is not None and any(human in u for u in level)  # said to them: "you were"
    if rules.tie == "last_deal_tricks" and len(winners) < sum(len(u) for u in level):
        return t("tie_last_deal_you" if you else "tie_last_deal", lang, names=names)
    if rules.tie == "shared":
        return t("tie_shared_you" if you else "tie_shared", lang, names=names)
    return None


def winner_lines(match: Match, labels: Sequence[str], human: int | None, lang: str) -> list[str]:
    winners = match.winners
    names = ", ".join(labels[s] for s in winners)
    out = [t("match_over", lang), t("winners" if len(winners) > 1 else "winner", lang, names=names)]
    note = tie_note(match.rules, match.totals, winners, labels, lang, human)
    if note:
        out.append(note)
    if human is not None:
        units = {match.rules.team_of(s) for s in winners}
        if human not in winners:
            out.append(t("you_lost", lang))
        elif len(units) > 1:
            out.append(t("you_shared", lang))
        else:
            out.append(t("you_won", lang))
    return out


def fail(con: Console, lang: str, message: str) -> int:
    sys.stderr.write(error_message(lang, message) + "\n")
    return EXIT_USAGE


def unknown_preset(con: Console, lang: str, name: str) -> int:
    return fail(con, lang, t("unknown_preset", lang, name=name, names=", ".join(PRESETS)))


def no_such_deal(lang: str, deals: int, deal: int) -> str:
    """Why ``--deal deal`` names no deal of a record of ``deals`` deals."""
    if deals == 1:
        return t("no_such_deal_one", lang, deal=deal)
    return t("no_such_deal", lang, high=deals, deal=deal)


#: what a player types to see the commands, in both languages
HELP_WORDS = frozenset({"?", "help", "yardım", "yardim"})


class CommandError(Exception):
    """A reason the command cannot go on, already in the reader's language."""


def read_record(
    path: str, lang: str, data: dict[str, Any] | None = None
) -> tuple[Match, int | None, list[str] | None]:
    """The match saved in ``path`` (or read from there already as ``data``: a record fetched
    from a server's address), the seat of the person who saved it (if the record says) and the
    players' names (if it keeps them: a server's record), or :class:`CommandError` saying why
    not."""
    match, meta = load_record(path, lang, data)
    return match, saver_seat(meta, match.rules.players), record_names(meta, match.rules.players)


def saver_seat(meta: dict[str, Any], players: int) -> int | None:
    """The seat of the person who saved a record (``batak play`` notes it), if it says."""
    seat = meta.get("seat")
    ok = isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < players
    return seat if ok else None


def read_record_data(path: str, lang: str) -> dict[str, Any]:
    """The JSON object of the Batak record saved in ``path``, not yet replayed (``batak verify``
    checks its seeds, not its moves), or :class:`CommandError` saying why not."""
    try:
        raw = Path(path).read_bytes()
    except FileNotFoundError:
        raise CommandError(t("no_file", lang, path=path)) from None
    except OSError as e:
        raise CommandError(
            t("cannot_read", lang, path=path, message=e.strerror or str(e))
        ) from None
    return record_data(raw, path, lang)


def record_data(raw: bytes, source: str, lang: str) -> dict[str, Any]:
    """The JSON object of a Batak record read from ``source`` (a file or an address) as ``raw``
    bytes, or :class:`CommandError`: not JSON text, or JSON that is no Batak record."""
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise CommandError(t("record_not_json", lang, path=source)) from None
    if isinstance(data, dict) and str(data.get("format", "")).startswith("batak-arena/"):
        # (the arena's JSON is a Batak file too: say which, and what these commands take)
        raise CommandError(t("record_arena_report", lang, path=source))
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise CommandError(t("record_not_batak", lang, path=source))
    return data


def load_record(
    path: str, lang: str, data: dict[str, Any] | None = None
) -> tuple[Match, dict[str, Any]]:
    """The match saved in ``path`` and what its saver noted (``meta``: the seat, the language,
    the computer players' levels; empty if none), or :class:`CommandError` saying why not."""
    data = read_record_data(path, lang) if data is None else data
    meta = data.get("meta")
    meta = meta if isinstance(meta, dict) else {}
    try:
        match = load_match(data)
    except RecordError as e:  # a damaged record
        message = refused_move(e, meta, lang)
        raise CommandError(t("broken_record", lang, path=path, message=message)) from None
    return match, meta


def refused_move(error: RecordError, meta: dict[str, Any], lang: str) -> str:
    """Where and why a record is damaged. A refused move is said in the reader's language with
    the seat that made it ("Computer 2 does not hold K♠"): the engine's reason speaks to the
    mover ("you do not hold K♠"), which is only the reader when the move was theirs. Any other
    damage is said as the engine gives it.

    >>> from batak.game import IllegalMove
    >>> e = RecordError("…", refusal=IllegalMove("not_in_hand", card="KS"), seat=2, players=4,
    ...                 deal=1, ply=11, move="KS")
    >>> refused_move(e, {"seat": 0}, "en")
    "deal 1, move 11 ('KS'): Computer 2 does not hold K♠"
    >>> refused_move(e, {"seat": 2}, "en")
    "deal 1, move 11 ('KS'): you do not hold K♠"
    """
    refusal, seat, players = error.refusal, error.seat, error.players
    if refusal is None or seat is None or players is None:
        return str(error)
    human = saver_seat(meta, players)
    if seat == human:
        reason = refusal.text(lang)  # the reader's own move: the engine speaks to them
    else:
        who = seat_labels(players, human, lang, record_names(meta, players))[seat]
        p = refusal.params
        reasons = {
            "not_in_hand": lambda: t("record_not_in_hand", lang, player=who, **p),
            "must_follow": lambda: t("record_must_follow", lang, player=who, **p),
            "must_overtake": lambda: t("record_must_overtake", lang, player=who, **p),
            "must_trump": lambda: t("record_must_trump", lang, player=who, **p),
            "must_overtrump": lambda: t("record_must_overtrump", lang, player=who, **p),
            "trump_not_broken": lambda: t("record_trump_not_broken", lang, player=who, **p),
        }
        said = reasons.get(refusal.code)
        reason = said() if said is not None else refusal.text(lang)  # a bid's limits: no one's
    return t("refused_move", lang, deal=error.deal, n=error.ply, recorded=error.move, reason=reason)
