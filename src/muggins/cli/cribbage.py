"""``muggins cribbage``: Cribbage tools on the command line (counting a show, one hand or millions)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from typing import Annotated, TextIO

import typer

from muggins.cards.cribbage.show import ShowError, explain_show, score_parts, score_show
from muggins.cards.deck import RANKS, SUIT_SYMBOLS, Card, full_deck, parse_card
from muggins.core.errors import MugginsError

cribbage_app = typer.Typer(no_args_is_help=True, add_completion=False,
                           help="Cribbage: count a hand or crib (the show).")

EXIT_BAD_INPUT = 2


def _spellings() -> dict[str, Card]:
    """Every usual spelling of every card (5H, 5h, TD, 10d, A♠ ...) for a parse that is one dict look-up;
    anything else goes through parse_card, which accepts or explains it."""
    table: dict[str, Card] = {}
    for c in full_deck():
        ranks = [RANKS[c.rank - 1]] + (["10"] if c.rank == 10 else [])
        for r in ranks:
            for s in (c.suit, SUIT_SYMBOLS[c.suit]):
                for text in (r + s, (r + s).lower(), r.lower() + s, r + s.lower()):
                    table[text] = c
    return table


_CARD = _spellings()


def _card(token: str) -> Card:
    c = _CARD.get(token)
    return c if c is not None else parse_card(token)


class _LineError(MugginsError):
    """A line of the stdin form that does not read as ``HAND | STARTER [crib]``."""


def _parse_line(line: str) -> tuple[list[Card], Card | None, bool]:
    """``5H 5D 5S JC | 5C`` with an optional trailing ``crib``; with no ``|`` the hand is counted alone."""
    head, bar, tail = line.partition("|")
    words = (tail if bar else head).split()
    crib = False
    if words and words[-1].lower() == "crib":
        crib = True
        words.pop()
    if not bar:
        return [_card(w) for w in words], None, crib
    if len(words) != 1:
        raise _LineError(f"after '|' write exactly one starter card, got {len(words)} words "
                         f"(form: 5H 5D 5S JC | 5C [crib])")
    return [_card(w) for w in head.split()], _card(words[0]), crib


def _fail(message: str) -> typer.Exit:
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(EXIT_BAD_INPUT)


def count_lines(lines: Iterable[str], out: TextIO, crib_all: bool = False, as_json: bool = False) -> int:
    """Count one hand per line and write one result per line; returns the number of hands counted.
    Raises MugginsError with the line number on the first bad line (results before it are written)."""
    buffer: list[str] = []
    done = 0
    for number, line in enumerate(lines, 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            hand, starter, crib = _parse_line(line)
            crib = crib or crib_all
            if as_json:
                total, fifteens, pairs, runs, flush, nobs = score_parts(hand, starter, crib)
                buffer.append(f'{{"total": {total}, "fifteens": {fifteens}, "pairs": {pairs}, '
                              f'"runs": {runs}, "flush": {flush}, "nobs": {nobs}}}')
            else:
                buffer.append(str(score_show(hand, starter, crib)))
        except MugginsError as e:
            if buffer:
                out.write("\n".join(buffer) + "\n")
            raise _LineError(f"line {number}: {e}") from None
        done += 1
        if len(buffer) >= 4096:
            out.write("\n".join(buffer) + "\n")
            buffer.clear()
    if buffer:
        out.write("\n".join(buffer) + "\n")
    return done


@cribbage_app.command("count")
def count(
    cards: Annotated[list[str], typer.Argument(
        help="The hand: 4 cards (3 in five-card cribbage), like 5H 5D 5S JC (ranks A 2-9 T/10 J Q K, "
             "suits C D H S). Give - to read one hand per line from stdin as '5H 5D 5S JC | 5C', "
             "optionally followed by the word crib; blank lines and # comments are skipped.",
        show_default=False)],
    starter: Annotated[str | None, typer.Option(
        "--starter", "-s", help="The starter (cut) card. Without it the cards are counted alone.")] = None,
    crib: Annotated[bool, typer.Option(
        "--crib", help="Count as the crib: a flush needs all five cards. With - it applies to every line.")]
        = False,
    as_json: Annotated[bool, typer.Option(
        "--json", help="One JSON object per hand: total, fifteens, pairs, runs, flush, nobs "
                       "(and items and text for a single hand).")] = False,
) -> None:
    """Count a Cribbage hand or crib with the starter: total, every combination, and the spoken count."""
    if cards == ["-"]:
        if starter is not None:
            raise _fail("with - the starter is read from each line ('5H 5D 5S JC | 5C'), not --starter")
        try:
            count_lines(sys.stdin, sys.stdout, crib_all=crib, as_json=as_json)
        except MugginsError as e:
            sys.stdout.flush()
            raise _fail(str(e)) from None
        return
    try:
        hand = [parse_card(c) for c in cards]
        start = parse_card(starter) if starter is not None else None
        if start is None and len(hand) == 5:
            raise ShowError("5 cards given: put the starter after --starter, e.g. "
                            "count 5H 5D 5S JC --starter 5C")
        shown = explain_show(hand, start, crib)
    except MugginsError as e:
        raise _fail(str(e)) from None
    if as_json:
        typer.echo(json.dumps({
            "hand": [c.text for c in hand], "starter": start.text if start else None, "crib": crib,
            "total": shown.total, "fifteens": shown.fifteens, "pairs": shown.pairs, "runs": shown.runs,
            "flush": shown.flush, "nobs": shown.nobs,
            "items": [[what, points] for what, points in shown.items], "text": shown.text,
        }))
        return
    typer.echo(str(shown.total))
    for what, points in shown.items:
        typer.echo(f"  {points:>2}  {what}")
    typer.echo(shown.text)
