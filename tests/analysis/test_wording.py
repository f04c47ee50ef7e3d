"""Moves in sentences: every game's notation put into the hint ("the bot would ...") and the analysis
("played ...; ... was worth more") without a doubled verb."""

from __future__ import annotations

import random
from itertools import pairwise

import pytest

from muggins.analysis import analyse_record
from muggins.analysis.wording import move_phrase
from muggins.bots.base import regular_actions, with_true_claim
from muggins.core import get_game
from muggins.core.records import to_record
from muggins.tui.app import hint_text

VERBS = ("play", "played", "discard", "discarded", "count", "counted", "pass", "passed", "draw", "drew",
         "knock", "knocked", "go", "say", "said")


def doubled(sentence: str) -> bool:
    words = sentence.lower().replace(",", " ").replace(";", " ").split()
    return any(a in VERBS and b in VERBS and not (a in ("say", "said") and b == "go")
               for a, b in pairwise(words))


@pytest.mark.parametrize(("text", "base", "past", "gerund"), [
    ("play 10S", "play 10S", "played 10S", "playing 10S"),
    ("discard AH 7C", "discard AH 7C", "discarded AH 7C", "discarding AH 7C"),
    ("go", "say go", "said go", "saying go"),
    ("count crib", "count the crib", "counted the crib", "counting the crib"),
    ("count hand", "count the hand", "counted the hand", "counting the hand"),
    ("5-3 on 5-0", "play 5-3 on 5-0", "played 5-3 on 5-0", "playing 5-3 on 5-0"),
    ("6-6", "play 6-6", "played 6-6", "playing 6-6"),
    ("draw", "draw", "drew", "drawing"),
    ("pass", "pass", "passed", "passing"),
    ("knock", "knock", "knocked", "knocking"),
])
def test_each_notation_becomes_a_verb_phrase(text: str, base: str, past: str, gerund: str) -> None:
    assert (move_phrase(text), move_phrase(text, "past"), move_phrase(text, "gerund")) == (base, past, gerund)


def test_a_bad_form_is_refused() -> None:
    with pytest.raises(ValueError, match="form is one of"):
        move_phrase("play 10S", "future")


GAMES = [("dominoes", "muggins"), ("card-muggins", None), ("cribbage", "cribbage"), ("cribbage", "five-card")]


@pytest.mark.parametrize(("game", "preset"), GAMES)
def test_every_move_of_a_game_reads_once_in_a_sentence(game: str, preset: str | None) -> None:
    spec = get_game(game)
    st = spec.new(spec.rules(preset), 2, seed=5)
    rng = random.Random(5)
    seen: set[str] = set()
    for _ in range(400):
        if st.is_over():
            break
        seat = min(st.waiting_for())
        moves = regular_actions(st, seat)
        for a in moves:
            text = st.format_action(a)
            seen.add(text.split()[0])
            for sentence in (f"the bot would {move_phrase(text)}",
                             f"{move_phrase(text, 'past')}; {move_phrase(text, 'gerund')} was worth 1.0 more"):
                assert not doubled(sentence), sentence
        st.apply(seat, with_true_claim(st, seat, rng.choice(moves)))
    assert len(seen) >= 2  # more than one kind of move was worded


@pytest.mark.parametrize(("game", "preset"), GAMES[:3])
def test_the_hint_and_the_analysis_say_each_move_once(game: str, preset: str | None) -> None:
    spec = get_game(game)
    st = spec.new(spec.rules(preset), 2, seed=3)
    rng = random.Random(3)
    hints = []
    for _ in range(40):
        if st.is_over():
            break
        seat = min(st.waiting_for())
        moves = regular_actions(st, seat)
        if len(moves) >= 2:
            hints.append(hint_text(st, seat, samples=2))
        st.apply(seat, with_true_claim(st, seat, moves[-1] if rng.random() < 0.5 else moves[0]))
    assert hints and all(h.startswith("Hint: the bot would ") and not doubled(h) for h in hints)
    a = analyse_record(to_record(st), samples=2, seed=0).to_json()
    texts = [m["text"] for m in a["moments"] if m["kind"] == "choice"]
    assert texts and all(not doubled(t) and not t.startswith("played play") for t in texts)
