"""Invariants of the domino engine over random games of every preset (hypothesis).

Each example plays a random game step by step with random claims (silent, true, under, over) and random
muggins calls, and checks the invariants after every step: tiles are conserved, every legal action applies,
illegal actions are refused without a trace, side scores equal the score events, views hold no secret,
records replay, clones are independent, undo restores, and sampled hidden states agree with what the
sampling seat has seen.
"""

from __future__ import annotations

import json
import random
import re
import zlib
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as hs

from muggins.core import Action, IllegalAction, get_game
from muggins.core.records import replay, to_record
from muggins.dominoes import DominoState, Tile, full_set, parse_tile
from muggins.dominoes.rules import PRESETS
from muggins.dominoes.scoring import score_table
from tests.helpers import DOMINO_STATES

SPEC = get_game("dominoes")
PRESET_NAMES = sorted(PRESETS)
TILE_RE = re.compile(r"\b(\d+)-(\d+)\b")
PARTS = [None, "end", "side", "inline", "end inline", "side inline", "half"]

PROPS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow],
                 derandomize=True)


# ------------------------------------------------------------------------------------ game driver ----


def new_game(preset: str, players: int, seed: int, **options: Any) -> DominoState:
    rules = SPEC.rules(preset, options) if options else SPEC.rules(preset)
    if players not in SPEC.players_for(rules):
        assume(False)  # a partnership preset is for four
    st = SPEC.new(rules, players, seed=seed)
    assert isinstance(st, DOMINO_STATES)
    return st


def random_step(st: DominoState, rng: random.Random) -> tuple[int, Action]:
    """A random legal action: usually the turn's move (with a random claim), sometimes a muggins call or a
    late claim by a seat the window allows."""
    extra = [(s, a) for s in sorted(st.to_act()) for a in st.legal_actions(s) if a.kind in ("muggins", "claim")]
    if extra and rng.random() < 0.3:
        seat, a = rng.choice(extra)
        named = rng.choice([None, 0, 5, 10, 20]) if a.kind == "muggins" else rng.choice([5, 10])
        return seat, a.with_claim(None if named is None else min(named, st.max_step_points()))
    seat = st.turn
    a = rng.choice([x for x in st.legal_actions(seat) if x.kind not in ("muggins", "claim")])
    if a.kind == "play" and st.rules.claims == "manual":
        true = st.claim_for(seat, a)
        a = a.with_claim(rng.choice([true, true, true, None, max(0, true - 5), min(true + 5, st.max_step_points())]))
    return seat, a


def tiles_of(text: str) -> set[Tile]:
    return {Tile.of(int(a), int(b)) for a, b in TILE_RE.findall(text)}


def layout_tiles(st: DominoState) -> list[Tile]:
    return [parse_tile(e["tile"]) for e in st.layout()]


def snapshot(st: DominoState) -> tuple[Any, ...]:
    """Everything a caller can observe, for before/after comparisons."""
    return (json.dumps(to_record(st), sort_keys=True),
            [json.dumps(st.view(s).to_json(), sort_keys=True) for s in [None, *range(st.num_players)]],
            st.side_scores(), sorted(st.to_act()), st.is_over(), len(st.log))


# ------------------------------------------------------------------------------------- invariants ----


def check_conservation(st: DominoState) -> None:
    every = Counter(t for h in st.hands for t in h) + Counter(st.boneyard) + Counter(layout_tiles(st))
    assert every == Counter(full_set(st.rules.tile_set))


def check_scores_are_events(st: DominoState) -> None:
    totals = [0] * st.num_sides
    for e in st.log:
        if e.kind == "score":
            totals[e.data["side"]] += e.data["points"]
    assert totals == st.side_scores()
    assert st.scores() == [st.side_scores()[st.side_of(s)] for s in range(st.num_players)]


def check_legal_actions_apply(st: DominoState) -> None:
    for seat in sorted(st.to_act()):
        for a in st.legal_actions(seat):
            c = st.clone()
            c.apply(seat, a)


def random_illegal(st: DominoState, rng: random.Random) -> tuple[int, Action]:
    top = st.rules.tile_set
    tiles = full_set(top)
    while True:
        seat = rng.randrange(st.num_players)
        kind = rng.choice(["play", "play", "play", "draw", "pass", "knock", "claim", "muggins", "jump"])
        if kind == "play":
            subject: Any = rng.choice(tiles) if rng.random() < 0.95 else "5-5"
            target = rng.choice([None, *tiles, *layout_tiles(st)]) if rng.random() < 0.9 else None
            a = Action("play", subject, target, rng.choice(PARTS))
        else:
            a = Action(kind, claim=rng.choice([None, 5]))
        legal = {x._replace(claim=None) for x in st.legal_actions(seat)}
        if a._replace(claim=None) not in legal:
            return seat, a


def check_illegal_refused(st: DominoState, rng: random.Random) -> None:
    before = snapshot(st)
    seat, a = random_illegal(st, rng)
    with pytest.raises(IllegalAction):
        st.apply(seat, a)
    assert snapshot(st) == before, f"{a} by {seat} changed the state"


def allowed_tiles(st: DominoState, seat: int | None) -> set[Tile]:
    """Tiles ``seat`` may know of: his own hand and draws, the layout, every played tile, the lots and
    the hands shown at the end of a hand."""
    ok: set[Tile] = set(layout_tiles(st))
    if seat is not None:
        ok |= set(st.hands[seat])
    for e in st.log:
        d = e.data
        if (e.kind in ("dealt", "draw") and e.seat == seat) or e.kind in ("play", "lot", "hand_end"):
            ok |= tiles_of(json.dumps(d))
    return ok


def check_views(st: DominoState) -> None:
    for seat in [None, *range(st.num_players)]:
        v = st.view(seat)
        text = json.dumps(v.to_json())              # JSON-able
        seen = tiles_of(text)
        mine = set(st.hands[seat]) if seat is not None else set()
        assert seen <= mine | set(layout_tiles(st)), f"view({seat}) shows {seen - mine}"
        assert json.loads(text) == v
        events = json.dumps(st.events_for(seat))
        leaked = tiles_of(events) - allowed_tiles(st, seat)
        assert not leaked, f"events for {seat} show {leaked}"


def check_replay(st: DominoState) -> None:
    rec = to_record(st)
    again = replay(json.loads(json.dumps(rec)))
    assert to_record(again) == rec
    assert [e.to_dict() for e in again.log] == [e.to_dict() for e in st.log]
    for seat in [None, *range(st.num_players)]:
        assert again.view(seat) == st.view(seat)
    assert again.side_scores() == st.side_scores() and again.is_over() == st.is_over()


def check_clone_and_undo(st: DominoState, rng: random.Random) -> None:
    if st.is_over():
        return
    before = snapshot(st)
    c = st.clone()
    assert snapshot(c) == before
    seat, a = random_step(c, rng)
    c.apply(seat, a)
    assert snapshot(st) == before, "a clone shares state with its original"
    c.undo()
    assert snapshot(c) == before


# ------------------------------------------------------------------- what a seat has seen (inference) ----


def inference_violations(st: DominoState, sample: DominoState, seat: int) -> list[str]:
    """Necessary conditions a sampled hand must meet for every other seat ``s``, from the public log of the
    current hand: when ``s`` drew, passed or knocked because he could not play, no tile he then held
    matched the open ends, so at most the tiles he drew since then may match them now (where drawing is
    voluntary, nobody but the drawer knows whether he could have played). A leader who drew
    or passed because he held no permitted lead keeps at most his later draws of that kind. A partner's
    knock only shows that he could not score, so it proves nothing about the ends."""
    r = st.rules
    start = max(i for i, e in enumerate(st.log) if e.kind == "hand_start")
    log = st.log[start:]
    out: list[str] = []
    regular = ("play", "draw", "pass", "knock")
    for i, e in enumerate(log):
        s = e.seat
        if s is None or s == seat or e.kind not in ("draw", "pass", "knock"):
            continue
        if e.kind == "knock":
            prev = [x for x in log[:i] if x.kind in regular]
            if prev and prev[-1].kind == "knock" and prev[-1].seat != s:
                continue                             # the partner's knock: no scoring play, nothing more
        if e.kind == "draw" and r.voluntary_draw and not e.data.get("lead"):
            continue                                 # a voluntary draw proves nothing the others can see
        later_draws = sum(1 for x in log[i:] if x.kind == "draw" and x.seat == s)
        hand = sample.hands[s]

        def bad(t: Tile) -> bool:
            return False

        if e.data.get("lead"):
            if r.lead_must_be == "double" or r.first_lead == "must_set_double":
                def bad(t: Tile) -> bool:
                    return t.double
            elif r.lead_must_be == "double_or_scoring":
                table = score_table(r.score_fn)

                def bad(t: Tile, table: tuple[int, ...] = table) -> bool:
                    return t.double or table[t.pips] > 0
            else:
                continue
        else:
            ends = set(e.data.get("ends") or [])
            if not ends:
                continue

            def bad(t: Tile, ends: set[int] = ends) -> bool:
                return t.hi in ends or t.lo in ends

        n_bad = sum(1 for t in hand if bad(t))
        if n_bad > later_draws:
            out.append(f"seat {s} holds {n_bad} tiles his {e.kind} (event {i}) rules out; drew {later_draws} since")
    return out


def check_sample_hidden(st: DominoState, rng: random.Random, seat: int) -> DominoState:
    sample = st.sample_hidden(seat, rng)
    assert sorted(sample.hands[seat]) == sorted(st.hands[seat])
    assert sample.layout() == st.layout()
    assert [len(h) for h in sample.hands] == [len(h) for h in st.hands]
    assert len(sample.boneyard) == len(st.boneyard)
    check_conservation(sample)
    assert sample.view(seat) == st.view(seat)
    assert sample.side_scores() == st.side_scores()
    assert inference_violations(st, st, seat) == [], "the checker rejects the true deal"
    return sample


# ------------------------------------------------------------------------------------- the tests ----

GAME = {
    "preset": hs.sampled_from(PRESET_NAMES),
    "players": hs.integers(2, 4),
    "seed": hs.integers(0, 2**31 - 1),
    "steps": hs.integers(1, 140),
}


@PROPS
@given(**GAME)
def test_core_invariants(preset: str, players: int, seed: int, steps: int) -> None:
    """Conservation, scores = events, legal actions apply, illegal ones leave no trace; the record of the
    game replays to the same state and events; clone and undo."""
    st = new_game(preset, players, seed)
    rng = random.Random(seed)
    for step in range(steps):
        if st.is_over():
            break
        check_conservation(st)
        check_scores_are_events(st)
        if step % 3 == 0:
            check_legal_actions_apply(st)
            check_illegal_refused(st, rng)
        if step % 25 == 7:
            check_clone_and_undo(st, rng)
        seat, a = random_step(st, rng)
        st.apply(seat, a)
    check_conservation(st)
    check_scores_are_events(st)
    check_replay(st)
    check_clone_and_undo(st, rng)


@PROPS
@given(**GAME)
def test_views_hold_no_secret(preset: str, players: int, seed: int, steps: int) -> None:
    st = new_game(preset, players, seed)
    rng = random.Random(seed)
    for step in range(steps):
        if st.is_over():
            break
        if step % 4 == 0:
            check_views(st)
        seat, a = random_step(st, rng)
        st.apply(seat, a)
    check_views(st)


@PROPS
@given(**GAME, knocking=hs.booleans())
def test_sample_hidden_keeps_what_the_seat_knows(preset: str, players: int, seed: int, steps: int,
                                                 knocking: bool) -> None:
    """The sample keeps the seat's own hand, the layout and every count, looks the same to the seat, and
    agrees with what the seat has inferred from draws, passes and knocks."""
    options = {"knocking": True, "partnerships": True} if knocking and players == 4 else {}
    st = new_game(preset, players, seed, **options)
    rng = random.Random(seed)
    for step in range(steps):
        if st.is_over():
            break
        if step % 5 == 4:
            seat = rng.randrange(players)
            sample = check_sample_hidden(st, rng, seat)
            assert inference_violations(st, sample, seat) == []
            if not sample.is_over():
                s2, a2 = random_step(sample, rng)
                sample.apply(s2, a2)             # a sample is a playable state
        seat, a = random_step(st, rng)
        st.apply(seat, a)


def test_sample_hidden_allows_the_true_deal_after_a_partner_knock() -> None:
    """D34: S knocks after N's knock holding 1-3, which fits the 1 but does not score. His knock shows only
    that he could not score, so samples must still let him hold tiles that fit the ends."""
    from tests.helpers import domino_state, play

    north = ["0-0", "2-0", "2-2", "3-0", "3-3"]
    west = ["6-1", "5-3", "5-4", "4-3", "2-1"]
    st = domino_state("muggins", hands=[north, ["6-5", "6-3", "6-4", "4-0", "4-2"],
                                        ["3-1", "4-4", "5-0", "5-2", "5-5"], west],
                      boneyard=["3-2", "6-0", "1-0", "1-1", "4-1", "5-1", "6-2", "6-6"], leader=3,
                      partnerships=True, knocking=True)
    play(st, "6-1", "knock", "knock")
    rng = random.Random(4)
    fits = sum(any(t.has(6) or t.has(1) for t in st.sample_hidden(1, rng).hands[2]) for _ in range(200))
    assert fits > 0


@pytest.mark.parametrize("case", ["seven-toed-pete pass", "merry-go-round draws"])
def test_sample_hidden_respects_a_lead_without_a_permitted_tile(case: str) -> None:
    """A leader who passes (Seven-Toed Pete) or draws (Merry-Go-Round) at the lead held no permitted lead
    tile then; samples for the other seats must not hand him one from before."""
    from tests.helpers import boneyard_starting, domino_state, play

    rng = random.Random(9)
    if case.startswith("seven"):
        hand = ["6-5", "3-1", "6-2", "5-1", "4-3", "2-1", "6-1"]
        rest = [t.text for t in full_set(6) if t.text not in hand]
        st = domino_state("seven-toed-pete", hands=[hand, rest[:7], rest[7:14], rest[14:21]], leader=0)
        play(st, "pass")
    else:
        hands = [["5-4", "5-1", "2-0", "3-1"], ["5-3", "5-2", "6-2", "3-0"]]
        st = domino_state("merry-go-round", hands=hands, boneyard=boneyard_starting(hands, ["6-1", "4-1", "4-4"]))
        play(st, "draw", "draw", "draw", "4-4")
    assert inference_violations(st, st, 1) == []
    for _ in range(50):
        assert inference_violations(st, st.sample_hidden(1, rng), 1) == []


# ----------------------------------------------------------------------------------- long runs ----


@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_twenty_thousand_random_hands(preset: str) -> None:
    """20,000 random hands of the preset, spread over 2, 3 and 4 players: every action legal and applied,
    tiles conserved (every fifth action), scores equal to events, every tenth game replayed."""
    rng = random.Random(zlib.crc32(preset.encode()))
    hands = 0
    game = 0
    while hands < 20_000:
        allowed = [n for n in SPEC.players_for(PRESETS[preset]) if n <= 4]
        players = allowed[game % len(allowed)]
        st = new_game(preset, players, seed=game)
        game += 1
        start_hand = st.hand_no
        actions = 0
        while not st.is_over() and st.hand_no - start_hand < 40 and actions < 4000:
            seat, a = random_step(st, rng)
            st.apply(seat, a)
            actions += 1
            if actions % 5 == 0:
                check_conservation(st)
        check_scores_are_events(st)
        if game % 10 == 0:
            check_replay(st)
        hands += st.hand_no - start_hand + (1 if st.is_over() else 0)
