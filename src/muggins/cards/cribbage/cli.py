"""``muggins cribbage``: Cribbage tools on the command line (counting a show, one hand or millions)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from typing import Annotated, TextIO

import typer

from muggins.cards.cribbage import SPEC
from muggins.cards.cribbage.show import explain_show, score_parts, score_show
from muggins.cards.deck import RANKS, SUIT_SYMBOLS, Card, full_deck, parse_card
from muggins.cli.common import Command, Group, fail
from muggins.core.errors import MugginsError, RulesError

cribbage_app = typer.Typer(cls=Group, no_args_is_help=True, add_completion=False,
                           help="Cribbage: count a hand or crib (the show).")

FORM = "5H 5D 5S JC | 5C"


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
    """A hand that is not a show: a line of the stdin form that does not read as ``HAND | STARTER [crib]``,
    or a hand of the wrong size."""


def _check_size(hand: list[Card], crib: bool, five_card: bool) -> None:
    """A show is a hand of 4 cards (3 in five-card cribbage) or a crib of 4, plus the starter."""
    if crib:
        if len(hand) != 4:
            raise _LineError(f"a crib has 4 cards; got {len(hand)}")
    elif five_card and len(hand) != 3:
        hint = " (a crib has 4: mark it as a crib)" if len(hand) == 4 else ""
        raise _LineError(f"a five-card cribbage hand has 3 cards; got {len(hand)}{hint}")
    elif not five_card and len(hand) != 4:
        hint = " (3 cards make a hand only in five-card cribbage: add --preset five-card)" \
            if len(hand) == 3 else ""
        raise _LineError(f"a hand has 4 cards; got {len(hand)}{hint}")


def _parse_line(line: str, need_starter: bool = True, five_card: bool = False) -> tuple[list[Card], Card | None,
                                                                                         bool]:
    """``5H 5D 5S JC | 5C`` with an optional trailing ``crib``; without a starter (``need_starter`` False)
    the line holds the hand alone, ``5H 5D 5S JC [crib]``."""
    head, bar, tail = line.partition("|")
    words = (tail if bar else head).split()
    crib = False
    if words and words[-1].lower() == "crib":
        crib = True
        words.pop()
    if not need_starter:
        if bar:
            raise _LineError("with --no-starter a line holds the hand alone; remove '|' and the starter")
        hand = [_card(w) for w in words]
        _check_size(hand, crib, five_card)
        return hand, None, crib
    if not bar:
        raise _LineError(f"no starter: write the hand, '|' and the starter, like '{FORM}' "
                         f"(--no-starter counts hands without one)")
    if len(words) != 1:
        raise _LineError(f"after '|' write exactly one starter card, got {len(words)} words "
                         f"(form: {FORM} [crib])")
    hand = [_card(w) for w in head.split()]
    _check_size(hand, crib, five_card)
    return hand, _card(words[0]), crib


def _json_cards(cards: Iterable[Card]) -> str:
    return "[" + ", ".join(f'"{c.text}"' for c in cards) + "]"


def count_lines(lines: Iterable[str], out: TextIO, err: TextIO | None = None, *, crib_all: bool = False,
                as_json: bool = False, need_starter: bool = True, five_card: bool = False) -> tuple[int, int]:
    """Count one hand per line and write one result per counted line to ``out``. A line that cannot be
    counted is reported on ``err`` as ``line N: reason`` and skipped. Returns (hands counted, bad lines)."""
    buffer: list[str] = []
    done = bad = 0
    for number, line in enumerate(lines, 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            hand, starter, crib = _parse_line(line, need_starter, five_card)
            crib = crib or crib_all
            if as_json:
                total, fifteens, pairs, runs, flush, nobs = score_parts(hand, starter, crib)
                shown = f'"{starter.text}"' if starter is not None else "null"
                buffer.append(f'{{"line": {number}, "hand": {_json_cards(hand)}, "starter": {shown}, '
                              f'"crib": {"true" if crib else "false"}, "total": {total}, '
                              f'"fifteens": {fifteens}, "pairs": {pairs}, "runs": {runs}, "flush": {flush}, '
                              f'"nobs": {nobs}}}')
            else:
                buffer.append(str(score_show(hand, starter, crib)))
        except MugginsError as e:
            bad += 1
            if err is not None:
                err.write(f"line {number}: {e}\n")
            continue
        done += 1
        if len(buffer) >= 4096:
            out.write("\n".join(buffer) + "\n")
            buffer.clear()
    if buffer:
        out.write("\n".join(buffer) + "\n")
    return done, bad


def _five_card(preset: str | None) -> bool:
    try:
        return bool(SPEC.rules(preset).five_card)
    except RulesError as e:
        fail(str(e))


@cribbage_app.command("count", cls=Command)
def count(
    cards: Annotated[list[str], typer.Argument(
        help="The hand: 4 cards like 5H 5D 5S JC (3 with --preset five-card); ranks A 2-9 T/10 J Q K, "
             f"suits C D H S. A lone - reads one hand per line from standard input as '{FORM}', "
             "optionally followed by the word crib; blank lines and # comments are skipped, and a line "
             "that cannot be counted is reported on standard error with its number (exit code 2).",
        show_default=False)],
    starter: Annotated[str | None, typer.Option(
        "--starter", "-s", help="The starter (cut) card; required unless --no-starter.")] = None,
    no_starter: Annotated[bool, typer.Option(
        "--no-starter", help="Count the cards alone, without a starter (and, with -, lines without "
                             "'| STARTER').")] = False,
    crib: Annotated[bool, typer.Option(
        "--crib", help="Count as the crib: a flush needs all five cards. With - it applies to every line.")]
        = False,
    preset: Annotated[str | None, typer.Option(
        "--preset", "-p", help="Cribbage preset; five-card: a hand has 3 cards (a crib still 4).")] = None,
    as_json: Annotated[bool, typer.Option(
        "--json", help="One JSON object per hand: hand, starter, crib, total, fifteens, pairs, runs, "
                       "flush, nobs (with -, also the line number; for a single hand, items and text).")]
        = False,
) -> None:
    """Count a Cribbage hand or crib with the starter: total, every combination, and the spoken count."""
    five_card = _five_card(preset)
    if starter is not None and no_starter:
        fail("give either --starter or --no-starter, not both")
    if "-" in cards:
        if len(cards) > 1:
            fail(f"'-' reads the hands from standard input and takes no cards; got "
                        f"{' '.join(cards)!r} (give either the cards or a lone -)")
        if starter is not None:
            fail(f"with - the starter is read from each line ('{FORM}'), not --starter")
        counted, bad = count_lines(sys.stdin, sys.stdout, sys.stderr, crib_all=crib, as_json=as_json,
                                   need_starter=not no_starter, five_card=five_card)
        sys.stdout.flush()
        if bad:
            fail(f"{bad} line{'s' if bad != 1 else ''} could not be counted "
                        f"({counted} counted)")
        if not counted:
            fail(f"no hands on standard input; write one per line, like '{FORM}'")
        return
    try:
        hand = [parse_card(c) for c in cards]
        if starter is None and not no_starter:
            if len(hand) == 5:
                raise _LineError("5 cards given: put the starter after --starter, e.g. "
                                 "count 5H 5D 5S JC --starter 5C")
            raise _LineError("the starter is required: add --starter CARD, e.g. count 5H 5D 5S JC "
                             "--starter 5C (--no-starter counts the cards alone)")
        _check_size(hand, crib, five_card)
        start = parse_card(starter) if starter is not None else None
        shown = explain_show(hand, start, crib)
    except MugginsError as e:
        fail(str(e))
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
