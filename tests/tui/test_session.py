"""The game loop without a terminal: over-claims and refused amounts, the end of a hand, the muggins
moment only after a move that scored, moves in the order of the hand, a tile alone where it fits in one
place, the full log, the wording of the end of a game."""

from __future__ import annotations

import io
from collections.abc import Callable

import pytest
from rich.console import Console

from muggins.core.errors import RulesError
from muggins.core.protocol import Action
from muggins.core.rules import get_game
from muggins.tui.app import OPTIONAL, Options, Session, make_seats
from muggins.tui.table import hand_number

FORGETFUL = "casual:vigilance=1:forget=0.9:under_claim=0.1"


def session(game: str, preset: str | None, seats: list[str], seed: int,
            answer: Callable[[Session, str], str], options: dict[str, object] | None = None,
            limit: int = 400, **opts: object) -> tuple[Session, list[tuple[str, str]]]:
    """A session whose person answers each prompt with ``answer(session, prompt)``; returns the session
    and every (prompt, screen shown before it)."""
    spec = get_game(game)
    st = spec.new(spec.rules(preset, options or {}), len(seats), seed=seed)
    out = io.StringIO()
    seen: list[tuple[str, str]] = []
    box: list[Session] = []

    def ask(prompt: str) -> str:
        seen.append((prompt, out.getvalue()))
        out.seek(0)
        out.truncate()
        if len(seen) > limit:
            raise EOFError
        return answer(box[0], prompt)

    s = Session(st, make_seats(seats, seed), Console(file=out, width=80), Options(**opts),  # type: ignore[arg-type]
                ask=ask)
    box.append(s)
    return s, seen


def plain(s: Session, prompt: str) -> str:
    return "1" if "your move" in prompt else ""


def _first_move(s: Session) -> tuple[int, int]:
    """(number of the first listed move, the points it makes) for the person at seat 0."""
    legal = s.moves(0)
    return 1, s.st.claim_for(0, legal[0])


# -- 14: over-claims and refused amounts ----------------------------------------------------------
def test_an_over_claim_gets_a_message_saying_what_follows() -> None:
    def answer(s: Session, prompt: str) -> str:
        if "your move" in prompt and not any(e.kind == "over_claim" for e in s.st.log):
            n, points = _first_move(s)
            return f"{n} {points + 5}"
        return plain(s, prompt)

    s, seen = session("dominoes", "muggins", ["you", "beginner"], 3, answer, limit=12)
    s.run()
    over = [e for e in s.st.log if e.kind == "over_claim"]
    assert over and over[0].seat == 0
    later = "".join(screen for _, screen in seen[1:])
    assert f"You announced {over[0].data['points']}, more than" in later
    assert "void" in later  # and what follows by the rules


def test_the_penalty_rule_is_named_in_the_message() -> None:
    def answer(s: Session, prompt: str) -> str:
        if "your move" in prompt and not any(e.kind == "over_claim" for e in s.st.log):
            n, points = _first_move(s)
            return f"{n} {points + 5}"
        return plain(s, prompt)

    s, seen = session("dominoes", "muggins", ["you", "beginner"], 3, answer,
                      options={"over_claim": "opponent_scores"}, limit=12)
    s.run()
    text = " ".join("".join(screen for _, screen in seen).split())
    assert "as a penalty" in text
    assert any(e.kind == "score" and e.data["reason"] == "over-claim penalty" for e in s.st.log)


def test_an_amount_beyond_any_step_is_refused_and_asked_again() -> None:
    answers = iter(["1 9999", "1 99999999999999999999999", "1"])

    def answer(s: Session, prompt: str) -> str:
        return next(answers, "q") if "your move" in prompt else ("y" if "Stop" in prompt else "")

    s, seen = session("dominoes", "muggins", ["you", "beginner"], 3, answer, limit=8)
    before = len(s.st.history)
    s.run()
    moves = [p for p, _ in seen if "your move" in p]
    assert len(moves) >= 3  # asked again after each refusal
    assert "Not allowed" in seen[1][1] and "Not allowed" in seen[2][1]
    mine = [a for seat, a in s.st.history[before:] if seat == 0]
    assert mine and all(a.claim is None for a in mine)  # neither refused amount was applied


def test_a_muggins_call_with_a_refused_amount_is_asked_again() -> None:
    calls: list[str] = []

    def answer(s: Session, prompt: str) -> str:
        if "call Muggins" in prompt:
            calls.append(prompt)
            return "m 99999" if len(calls) == 1 else ""
        return plain(s, prompt)

    s, seen = session("dominoes", "muggins", ["you", FORGETFUL, FORGETFUL], 2, answer, limit=60)
    s.run()
    assert len(calls) >= 2
    i = next(i for i, (p, _) in enumerate(seen) if "call Muggins" in p)
    assert "call Muggins" in seen[i + 1][0] and "Not allowed" in seen[i + 1][1]


# -- 15: the end of a hand ------------------------------------------------------------------------
def test_the_end_of_a_hand_shows_the_final_table_before_the_next_deal() -> None:
    s, seen = session("dominoes", "muggins", ["you", "casual"], 3, plain, limit=400)
    s.run()
    i = next(i for i, (p, _) in enumerate(seen) if p == "Enter for the next hand> ")
    screen = seen[i][1]
    end = next(e.to_dict() for e in s.st.log if e.kind == "hand_end")
    assert "Hand 1 is over." in screen and "Hand 1 ends" in screen
    for name, held, pips in zip(["You", "Casual Otter"], end["hands"], end["pips"], strict=True):
        assert f"{name}: out" in screen if not held else f"{name}: " in screen and f"({pips} pips)" in screen
    assert "Your hand" not in screen  # not the next deal
    # the final layout: every tile played in the hand, the last one on what it was played on
    start = next(i for i, e in enumerate(s.st.log) if e.kind == "hand_start")
    stop = next(i for i, e in enumerate(s.st.log) if e.kind == "hand_end")
    played = [e.data for e in s.st.log[start:stop] if e.kind == "play"]
    drawn = [line.strip("│ ") for line in screen.splitlines()]
    tiles = sum(x.count("[") + x.count("┌") + x.count("╔") for x in drawn if "pips" not in x and ":" not in x)
    assert tiles == len(played)


def test_the_final_layout_holds_the_last_play() -> None:
    from muggins.bots.registry import make_bot
    from muggins.tui.render_dominoes import final_layout

    spec = get_game("dominoes")
    for seed in (1, 2, 3):
        st = spec.new(spec.rules("muggins-spinner"), 3, seed=seed)
        bots = [make_bot("greedy", seed + i) for i in range(3)]
        while hand_number(st) == 1:
            seat = min(st.waiting_for())
            action = bots[seat].act(st, seat) or next(a for a in st.legal_actions(seat) if a.kind not in OPTIONAL)
            before = st.clone()
            st.apply(seat, action)
        start = next(i for i, e in enumerate(st.log) if e.kind == "hand_start")
        stop = next(i for i, e in enumerate(st.log) if e.kind == "hand_end")
        played = [e.data for e in st.log[start:stop] if e.kind == "play"]
        layout = final_layout(st, before, seat, action)
        assert len(layout) == len(played)
        if action.kind == "play":
            assert layout[-1]["tile"] == played[-1]["tile"] and layout[-1]["on"] == played[-1]["on"]
        assert before.view(None)["layout"] == layout[: len(before.view(None)["layout"])]


def test_a_person_may_call_muggins_on_the_last_play_of_a_hand() -> None:
    """A forgetful bot goes out without announcing: at the end of the hand the person is asked before
    the next deal, and the call takes the points."""
    order: list[str] = []

    def answer(s: Session, prompt: str) -> str:
        if s.ended is not None:
            order.append(prompt)
            if "call Muggins" in prompt:
                return "m"
            raise EOFError
        return plain(s, prompt)

    for seed in range(7, 40):  # a deal where the forgetful bot is the one who goes out, missing points
        order.clear()
        s, _seen = session("dominoes", "muggins", ["you", FORGETFUL], seed, answer, limit=200)
        s.run()
        if order and order[0].startswith("m + Enter to call Muggins!"):
            break
    assert order[0].startswith("m + Enter to call Muggins!")
    assert order[1] == "Enter for the next hand> "
    calls = [e.to_dict() for e in s.st.log if e.kind == "muggins" and e.seat == 0]
    assert calls and calls[-1]["outcome"] == "steal" and calls[-1]["points"] > 0
    end = next(i for i, e in enumerate(s.st.log) if e.kind == "hand_end")
    assert any(e.kind == "muggins" for e in s.st.log[end:])


def test_the_end_of_a_card_muggins_round_and_a_cribbage_hand() -> None:
    s, seen = session("card-muggins", None, ["you", "casual", "casual"], 3, plain, {"target": 300}, limit=400)
    s.run()
    screen = next(sc for p, sc in seen if p == "Enter for the next round> ")
    assert "Round 1 is over." in screen and "Points this round:" in screen and "Round 1 ends" in screen
    s, seen = session("cribbage", None, ["you", "casual"], 3, plain, limit=400)
    s.run()
    screen = next(sc for p, sc in seen if p == "Enter for the next hand> ")
    assert "Hand 1 is over." in screen and "Your hand" in screen
    assert "Your crib" in screen or "Casual Otter's crib" in screen
    assert "Starter" in screen


def test_a_hand_limit_ends_on_the_hand_that_was_played() -> None:
    s, seen = session("dominoes", "muggins", ["you", "casual"], 3, plain, limit=400, hands=1)
    s.run()
    out = s.console.file.getvalue()  # type: ignore[attr-defined]
    assert "Hand 1 is over." in out and "Played 1 hand. Scores: You " in out
    assert hand_number(s.st) == 2 and "Enter for the next hand> " not in [p for p, _ in seen]


# -- 16: the event list and the full log ------------------------------------------------------------
def test_log_pages_through_the_whole_game() -> None:
    answers = iter(["1", "1", "1", "log", "p", "p", "n", "", "q", "y"])
    s, seen = session("dominoes", "muggins", ["you", "casual"], 3, lambda s, p: next(answers, "q"), limit=30)
    s.run()
    pages = [(p, sc) for p, sc in seen if p.startswith("Log page")]
    assert len(pages) == 4
    total = int(pages[0][0].split(" of ")[1].split(":")[0])
    numbers = [int(p.split()[2]) for p, _ in pages]
    assert numbers == [total, max(1, total - 1), max(1, total - 2), max(1, total - 1)]
    everything = "".join(sc for _, sc in pages)
    assert "--- Hand 1 ---" in everything or total > 2
    assert all(sc.count("\n") <= 23 for _, sc in pages)


# -- 18: the muggins moment only after a move that scored -------------------------------------------
def test_three_players_the_person_is_asked_only_after_a_scoring_move() -> None:
    checked = {"asked": 0, "moves": 0}

    def answer(s: Session, prompt: str) -> str:
        found = s._window()
        if "call Muggins" in prompt:
            assert found is not None and s.points.get(found[0], 1) > 0
            checked["asked"] += 1
            return ""
        if "your move" in prompt:
            listed = [a.kind for a in s.moves(0)]
            assert ("muggins" in listed) == (found is not None and (0, found[0]) not in s.asked)
            checked["moves"] += 1
            return "1"
        return ""

    s, _seen = session("dominoes", "muggins", ["you", "casual", "casual"], 4, answer, limit=150)
    s.run()
    bot_plays = sum(1 for seat, a in s.st.history if seat != 0 and a.kind == "play")
    assert checked["moves"] > 10 and checked["asked"] < bot_plays / 2
    quiet = sum(1 for i, (seat, a) in enumerate(s.st.history) if seat != 0 and a.kind == "play"
                and s.points.get(i) == 0)
    assert quiet > 5  # many bot plays made nothing and cost the person no Enter


# -- 20: the prompt line ----------------------------------------------------------------------------
def test_moves_are_listed_in_the_order_of_the_hand() -> None:
    def answer(s: Session, prompt: str) -> str:
        if "your move" in prompt:
            hand = s.st.view(0)["my_hand"]
            plays = [str(a.subject) for a in s.moves(0) if a.kind == "play"]
            assert plays == sorted(plays, key=hand.index)
            kinds = [a.kind for a in s.moves(0)]
            assert kinds == sorted(kinds, key=lambda k: (k in OPTIONAL, k != "play"))
        return plain(s, prompt)

    for game, seats in (("dominoes", ["you", "casual", "casual"]), ("card-muggins", ["you", "casual"])):
        s, _ = session(game, None, seats, 5, answer, limit=80)
        s.run()


def test_a_tile_alone_is_the_move_where_it_fits_in_one_place() -> None:
    """'2-6 10' plays 2-6 where it fits, announcing 10, when it fits in one place only."""
    expected: list[tuple[int, Action]] = []

    def answer(s: Session, prompt: str) -> str:
        if "your move" not in prompt:
            return ""
        by_tile: dict[str, list[Action]] = {}
        for a in s.moves(0):
            if a.kind == "play" and a.target is not None:
                by_tile.setdefault(str(a.subject), []).append(a)
        unique = [acts[0] for acts in by_tile.values() if len(acts) == 1]
        if not unique:
            return "1"
        points = s.st.claim_for(0, unique[0])
        expected.append((len(s.st.history), unique[0].with_claim(points)))
        return f"{unique[0].subject} {points}"

    s, seen = session("dominoes", "muggins", ["you", "beginner"], 6, answer, limit=60)
    s.run()
    assert len(expected) >= 3
    for index, action in expected:
        assert s.st.history[index] == (0, action)
    assert not any("Not allowed" in sc for _, sc in seen)


def test_a_tile_that_fits_in_two_places_asks_which() -> None:
    spec = get_game("dominoes")
    for seed in range(40):
        st = spec.new(spec.rules("muggins"), 2, seed=seed)
        s = Session(st, make_seats(["you", "beginner"], seed), Console(file=io.StringIO(), width=80), Options())
        for _ in range(30):
            if st.is_over() or 0 not in st.waiting_for():
                if st.is_over():
                    break
                seat = min(st.waiting_for())
                st.apply(seat, next(a for a in st.legal_actions(seat) if a.kind not in OPTIONAL))
                continue
            plays = [a for a in s.moves(0) if a.kind == "play" and a.target is not None]
            tiles = [str(a.subject) for a in plays]
            double = next((t for t in tiles if tiles.count(t) > 1), None)
            if double is not None:
                before = len(st.history)
                assert not s._apply_text(0, double)
                assert "fits in 2 places" in s.message and len(st.history) == before
                return
            st.apply(0, s.moves(0)[0])
    pytest.fail("no position with a tile fitting in two places")


def test_the_end_of_a_game_names_the_scores() -> None:
    s, _ = session("dominoes", "muggins", ["you", "casual"], 3, plain, {"target": 50}, limit=600)
    s.run()
    assert s.st.is_over()
    out = s.console.file.getvalue()  # type: ignore[attr-defined]
    scores = s.st.scores()
    assert f"Final scores: You {scores[0]}, Casual Otter {scores[1]}" in out



def test_a_hand_limit_counts_from_the_hand_a_resumed_game_is_in() -> None:
    spec = get_game("dominoes")
    st = spec.new(spec.rules("muggins"), 2, seed=3)
    while hand_number(st) < 2:
        seat = min(st.waiting_for())
        st.apply(seat, next(a for a in st.legal_actions(seat) if a.kind not in OPTIONAL))
    answers = lambda prompt: "1" if "your move" in prompt else ""  # noqa: E731
    s = Session(st, make_seats(["you", "casual"], 3), Console(file=io.StringIO(), width=80), Options(hands=1),
                ask=answers)
    s.run()
    assert hand_number(st) == 3 or st.is_over()
    assert "Hand 2 is over." in s.console.file.getvalue()  # type: ignore[attr-defined]


@pytest.mark.parametrize("seed", [65, 96, 101])
def test_a_bots_call_on_the_last_move_of_a_hand_may_end_the_game(seed: int) -> None:
    """Two people and a bot: at these seeds the bot's Muggins! on the hand's last move reaches the target.
    The game ends there, shown with the hand that ended and the scores."""
    s, _ = session("dominoes", None, ["you", "human", "casual"], seed, plain, limit=5000)
    s.run()
    st = s.st
    assert st.is_over() and max(st.scores()) >= st.rules.target
    last_call = max(i for i, e in enumerate(st.log) if e.kind == "muggins")
    assert last_call > max(i for i, e in enumerate(st.log) if e.kind == "hand_end")
    assert st.log[last_call].seat == 2
    final = s.console.file.getvalue()  # type: ignore[attr-defined]
    assert "Game over - won by" in final and "is over." in final


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_hot_seat_every_person_gets_the_moment_a_bot_gets(seed: int) -> None:
    """Two people and a vigilant bot; the people never announce, so the bot calls often. Before each of
    the bot's calls on one person's scoring move, the other person (the next to act included) was asked
    whether to call, with nothing played in between."""
    timeline: list[tuple[str, object, int]] = []

    def answer(s: Session, prompt: str) -> str:
        timeline.append(("ask", prompt, len(s.st.history)))
        return "1" if "your move" in prompt else ""

    s, _ = session("dominoes", None, ["you", "human", "casual:vigilance=1:reaction=0"], seed, answer,
                   limit=300)
    applied = s.apply

    def apply(seat: int, action: Action) -> None:
        # a call on a move that scored nothing (a false call) asks nobody: the window is worth no moment
        worth = s._window() is not None
        timeline.append((action.kind if worth else "-", seat, len(s.st.history)))
        applied(seat, action)

    s.apply = apply  # type: ignore[method-assign]
    s.run()
    calls = 0
    for k, (kind, seat, at) in enumerate(timeline):
        if kind != "muggins" or seat != 2:
            continue
        scorer = s.st.history[at - 1][0] if s.st.history[at - 1][1].kind not in OPTIONAL else None
        if scorer not in (0, 1):
            continue
        other = s.names[1 - scorer]
        calls += 1
        asked = [p for kd, p, n in timeline[:k] if kd == "ask" and n == at]
        assert any(str(p).startswith(f"{other}: m + Enter to call Muggins!") for p in asked), (other, asked)
    assert calls >= 1


def test_people_at_one_keyboard_go_by_their_names_and_the_bots_by_theirs() -> None:
    seats = make_seats(["you", "human", "casual", "casual", "club"], 1, [" Ann ", "Bob"])
    assert [x.name for x in seats] == ["Ann", "Bob", "Casual Otter", "Casual Wren", "Club Fox"]
    assert len({x.name for x in make_seats(["you", *["beginner"] * 7], 2)}) == 8
    for names, message in [(["Ann"], r"1 name\(s\) for 2"), (["Ann", "ann"], "two people are named"),
                           (["Ann", "  "], "1-20 printable"), (["Ann", "x" * 21], "1-20 printable"),
                           (["Ann", "B\x07"], "printable")]:
        with pytest.raises(RulesError, match=message):
            make_seats(["you", "human", "casual"], 1, names)

    s, seen = session("dominoes", None, ["you", "human", "casual"], 4, plain, limit=12)
    s.seats[0].name, s.seats[1].name = "Ann", "Bob"
    s.names = [x.name for x in s.seats]
    s.run()
    prompts = [p for p, _ in seen]
    assert any(p.startswith("Ann, your move") for p in prompts)
    assert any(p.startswith("Pass the keyboard to Bob") for p in prompts)
