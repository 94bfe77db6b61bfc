"""``batak replay FILE|URL``: show a saved match, a line per trick (a move a line with --step)."""

from __future__ import annotations

import argparse

from ..bots.review import review_deal, summary_lines
from ..explain import preset_summary
from ..game import Game, Phase
from .console import (
    EXIT_OK,
    CommandError,
    Console,
    Narrator,
    ProgressBar,
    Style,
    fail,
    fit_items,
    no_such_deal,
    pad_to,
    read_record,
    seat_labels,
    sheet_lines,
    short_labels,
    trick_items,
    visible_len,
    whole_names,
    winner_lines,
    wrap_text,
)
from .rules import changed_rules
from .text import t
from .verify import fetch_record


# ---------------------------------------------------------------------- replay
def hand_rows(head: str, hand: str, width: int) -> list[str]:
    """A hand dealt (:meth:`Style.hand`, its suits parted by three spaces) after ``head`` (the
    seat's name, padded), in lines of ``width`` columns where it can: broken between two suits,
    never inside one (the terminal broke ``♣ K J 8 6`` / `` 4`` at 60 columns), the suits of a
    line after the first under the hand's first suit.

    >>> for line in hand_rows("  Ayşe  ", "♠ A K 9 8 6   ♥ 9 6 4   ♦ A 9 2   ♣ K J 8 6 4", 40):
    ...     print(line)
      Ayşe  ♠ A K 9 8 6   ♥ 9 6 4   ♦ A 9 2
            ♣ K J 8 6 4
    """
    groups = hand.split("   ")
    lines, current = [], head + groups[0]
    for group in groups[1:]:
        if visible_len(current) + 3 + visible_len(group) > width:
            lines.append(current)
            current = " " * visible_len(head) + group
        else:
            current += "   " + group
    return [*lines, current]


def cmd_replay(args: argparse.Namespace, con: Console, lang: str) -> int:
    style = Style(con.out)
    path = args.file
    try:
        # a file, or a record's address on a server (as batak bot says it)
        match, human, names = read_record(path, lang, fetch_record(path, lang))
    except CommandError as e:
        return fail(con, lang, str(e))
    labels = seat_labels(match.rules.players, human, lang, names)
    # own_seat: "your hand is face up now", not "You now plays face up". A card on its own line
    # only with --step, where each Enter shows one: else the trick's line says every card once
    narrator = Narrator(con, labels, lang, style, reveal=True, each_card=args.step, own_seat=human)
    pad = max(14, *(visible_len(x) for x in labels))  # a server's record: the players' names
    games = match.games
    if args.deal is not None and not 1 <= args.deal <= len(games):
        return fail(con, lang, no_such_deal(lang, len(games), args.deal))
    chosen = range(len(games)) if args.deal is None else [args.deal - 1]
    r = match.rules
    title = t("replay_title", lang, path=path, name=r.name)
    con.lines([style.bold(x) for x in wrap_text(title, style.width)])  # a path is long: worded
    con.wrapped(preset_summary(r, lang), width=style.width)  # açık eşli: 110 columns
    changed = changed_rules(r, lang, style)  # the options the table changed, as play says them
    if changed is not None:
        con.wrapped(changed, width=style.width)
    sheet_by_deal = {row.deal: row for row in match.sheet}
    bar = ProgressBar(lang)
    try:
        for i in chosen:
            original = games[i]
            of = t("deal_of", lang, total=r.deals) if r.deals is not None else ""
            row = sheet_by_deal.get(i + 1)
            if row is not None and row.extra:
                of += t("deal_extra", lang)
            con.say()
            heading = t("deal_header", lang, n=i + 1, of=of, dealer=labels[original.dealer])
            con.wrapped(style.bold(heading), width=style.width)
            con.say(t("hands_dealt", lang))
            for s, hand in enumerate(original.initial_hands):
                head = f"  {pad_to(labels[s], pad)} "
                con.lines(hand_rows(head, style.hand([str(c) for c in hand]), style.width))
            if r.kitty_size:
                kitty = " ".join(style.card(c) for c in original.initial_kitty)
                con.say(t("kitty_was", lang, cards=kitty))
            game = Game(
                r,
                hands=original.initial_hands,
                kitty=original.initial_kitty or None,
                dealer=original.dealer,
            )
            narrator.opening(game)
            for move in original.history:
                if args.step:
                    answer = con.ask(t("step_prompt", lang)).strip().casefold()
                    if answer in ("q", "quit", "çık", "cik"):
                        con.say(t("stopped", lang))
                        return EXIT_OK
                seat = game.to_move
                assert seat is not None
                tricks_before = len(game.tricks)
                game.play(move)
                narrator.move(game, seat, move, tricks_before)
            if game.phase is Phase.OVER:
                narrator.deal_result(game, row)
                if args.review and game.tricks:
                    con.say(t("reviewing", lang, n=i + 1))
                    review = review_deal(game, progress=bar.on_deal(i + 1, len(games)))
                    bar.end()
                    lines = summary_lines(
                        review, whole_names(labels), lang, you=human, card=style.card
                    )
                    con.wrapped(*lines, width=style.width)
            else:
                trick = game.current_trick
                if trick and not args.step:  # its cards are said only when a trick is done
                    cards = [c for _, c in trick]
                    items = trick_items(trick[0][0], cards, game.players, labels, style)
                    n, width = len(game.tricks) + 1, style.width
                    for line in fit_items("trick_so_far", lang, items, width, key="cards", n=n):
                        con.say(line)
                con.say(t("unfinished", lang))
    except EOFError:
        con.say(t("stopped", lang))
        return EXIT_OK
    con.say()
    con.lines(sheet_lines(match, labels, lang, style, short_labels(r.players, human, lang, names)))
    con.say()  # the ending on its own, not one more line of the totals (as batak play says it)
    if match.over:
        con.wrapped(*winner_lines(match, labels, None, lang), width=style.width)
    else:
        con.say(t("match_not_over", lang))
    return EXIT_OK
