"""What the terminal shows beyond the play itself: the log pager that 'q' leaves, every card named the
same way on a screen (suit symbols, or plain ASCII with --ascii), and the menu asking only what means
something for the chosen game."""

from __future__ import annotations

import io
import random
import re

from rich.console import Console

from muggins.cards.cribbage.drills import ShowDrill
from muggins.core import get_game
from muggins.tui.menu import run_menu
from muggins.tui.render_cards import card, cards_in, cribbage_lines
from tests.tui.test_session import session

RAW = re.compile(r"(?<![\w-])[A2-9TJQK][CDHS](?![\w-])")  # a card in notation ("JS", "TC")
SUIT = re.compile("[♠♥♦♣]")


def test_q_in_the_log_pager_goes_back_to_the_game() -> None:
    answers = iter(["1", "log", "q", "log", "Q", "1", "quit", "y"])
    s, seen = session("dominoes", "muggins", ["you", "casual"], 3, lambda s, p: next(answers, ""), limit=20)
    s.run()
    prompts = [p for p, _ in seen]
    pagers = [i for i, p in enumerate(prompts) if p.startswith("Log page")]
    assert len(pagers) == 2 and all("q or Enter back to the game" in prompts[i] for i in pagers)
    assert all(prompts[i + 1] == "your move> " for i in pagers)  # back at the table, not asked to stop
    assert sum(p.startswith("Stop the game") for p in prompts) == 1  # only for 'quit'


def test_card_names_are_the_same_everywhere_on_a_screen() -> None:
    assert [card(t, False) for t in ("TS", "JS", "AH")] == ["10♠", "J♠", "A♥"]
    assert [card(t, True) for t in ("TS", "JS", "AH")] == ["10S", "JS", "AH"]
    assert cards_in("play TS; Casual Otter played JS (TC QC)", False) == "play 10♠; Casual Otter played J♠ (10♣ Q♣)"
    for ascii_only in (False, True):
        for game, preset in (("cribbage", "cribbage"), ("card-muggins", None)):
            s, seen = session(game, preset, ["you", "casual"], 7, lambda s, p: "1" if "move" in p else "",
                              limit=40, ascii_only=ascii_only, hints=True)
            s.run()
            screens = [sc for _, sc in seen if "Your hand:" in sc]
            assert len(screens) >= 8
            for sc in screens:
                if ascii_only:
                    assert not SUIT.search(sc) and not re.search(r"(?<![\w-])T[CDHS]", sc), sc
                else:
                    assert not RAW.search(sc), sc  # the hand, the moves, the log, the hint: all with suits


def test_the_counting_drill_names_a_ten_as_the_table_does() -> None:
    texts = []
    for seed in range(30):
        q = ShowDrill().make(random.Random(seed))
        texts.append(q.body + "\n" + "\n".join(q.why))
    joined = "\n".join(texts)
    assert "10" in joined and not re.search(r"T[♠♥♦♣]", joined)


def _menu(answers: list[str]) -> str:
    out = io.StringIO()
    given = iter(answers)
    run_menu(Console(file=out, width=80), lambda prompt: next(given, ""))
    return out.getvalue()


def test_the_menu_offers_the_count_of_the_ends_only_for_dominoes() -> None:
    assert "the count of the ends" in _menu(["dominoes"])
    cribbage = _menu(["cribbage"])
    assert "Hints (" in cribbage and "count of the ends" not in cribbage and "the bot's move" in cribbage


def test_the_menu_asks_the_names_of_several_people() -> None:
    given = iter(["dominoes", "", "2", "", "2", "", "Ann", "ann", "Bob"])  # 3 players, 2 people
    out = io.StringIO()
    choice = run_menu(Console(file=out, width=80), lambda prompt: next(given, ""))
    assert choice.names == ["Ann", "Bob"] and choice.seats == ["you", "human", "casual"]
    assert "two people are named 'ann'" in out.getvalue()


def test_the_pegboard_names_each_side_by_its_players() -> None:
    spec = get_game("cribbage")
    st = spec.new(spec.rules("four-hand"), 4, seed=1)
    names = ["You", "Casual Otter", "Casual Wren", "Casual Fox"]
    lines = cribbage_lines(st.view(0).to_json(), False, names)
    assert lines[0].startswith("You & Casual Wren ") and lines[1].startswith("Casual Otter & Casual Fox ")
    assert len({line.index("●") for line in lines[:2]}) == 1  # the tracks start in one column
    two = cribbage_lines(spec.new(spec.rules("cribbage"), 2, seed=1).view(0).to_json(), False, names[:2])
    assert two[0].startswith("You ") and two[1].startswith("Casual Otter ")
