"""The compact action space: (move, amount) pairs round-trip with the integer ids for every legal action of
random positions of every dominoes preset, card Muggins and cribbage; the heads have the sizes promised."""

from __future__ import annotations

import random

import pytest

from muggins.core.errors import ClaimError, IllegalAction, UnknownAction
from muggins.core.rules import get_game
from muggins.rl.compact import compact_actions, compact_actions_of

np = pytest.importorskip("numpy")

CASES = [("dominoes", p, None) for p in get_game("dominoes").presets] + [
    ("dominoes", "muggins", 3), ("dominoes", "all-fives", 4), ("dominoes", "muggins", 4)] + [
    ("card-muggins", p, None) for p in get_game("card-muggins").presets] + [
    ("cribbage", p, None) for p in get_game("cribbage").presets]


def test_head_sizes() -> None:
    mug = compact_actions("dominoes", "muggins", 2)
    assert mug.move_start("draw") == 84  # the plays: 28 tiles x (the lead + two ends of a line)
    assert mug.moves == 84 + 5  # draw, pass, knock, muggins call, late claim
    assert mug.space.size == 18922 and mug.amounts == mug.space.bound + 2 == 220
    five = compact_actions("dominoes", "five-up", 2)
    assert five.move_start("draw") == 476 and five.moves == 481
    for spinner in ("none", "first_double", "all_doubles", "sniff_stub", "sniff_option"):
        for players in (2, 4):
            c = compact_actions("dominoes", "five-up", players, tile_set=15, spinner=spinner)
            assert c.moves < 5000, (spinner, c.moves)
    auto = compact_actions("dominoes", "sniff", 2)
    assert auto.amounts == 1 and auto.moves == auto.space.size


def _walk(game: str, preset: str, players: int | None, seed: int, limit: int) -> int:
    """Random play; at each position every legal action of every seat that may act (plays with their
    true claim and with a random one too) goes to a pair and back. Returns the actions checked."""
    spec = get_game(game)
    rules = spec.rules(preset)
    n = players or spec.default_players
    if n not in spec.players_for(rules):
        n = spec.players_for(rules)[0]
    st = spec.new(rules, n, seed=seed)
    c = compact_actions_of(st)
    rng = random.Random(seed)
    checked = 0
    for _ in range(limit):
        if st.is_over():
            break
        for seat in sorted(st.to_act()):
            mask = c.move_mask(st, seat)
            legal = st.legal_actions(seat)
            moves = set()
            for a in legal:
                variants = [a]
                if a.kind == "claim":
                    variants = [a._replace(claim=st.claim_for(seat, a))]
                elif c.amounts > 1 and a.kind in ("play", "muggins"):
                    variants.append(a._replace(claim=rng.randrange(c.amounts - 1)))
                for v in variants:
                    i = st.action_id(v)
                    m, k = c.pair(i)
                    assert c.id(m, k) == i
                    assert c.pair_of(st, v) == (m, k)
                    assert c.action(st, seat, m, k) == v
                    assert mask[m] == 1 and k in c.amount_codes(m)
                    moves.add(m)
                    checked += 1
            assert set(np.flatnonzero(mask).tolist()) == moves  # the mask is exactly the legal moves
            for i in st.legal_action_ids(seat):  # and every id the mask of ids sets maps into it
                assert mask[c.pair(i)[0]] == 1
        seat = rng.choice(sorted(st.waiting_for() or st.to_act()))
        legal = [a for a in st.legal_actions(seat) if a.kind != "claim"] or st.legal_actions(seat)
        a = rng.choice(legal)
        if a.kind == "claim":
            a = a._replace(claim=st.claim_for(seat, a))
        st.apply(seat, a)
    return checked


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}:{c[1]}" + (f":{c[2]}p" if c[2] else ""))
def test_every_legal_action_round_trips(case: tuple[str, str, int | None]) -> None:
    game, preset, players = case
    checked = sum(_walk(game, preset, players, seed, 120) for seed in (1, 2))
    assert checked > 50


def test_every_id_maps_to_one_pair_and_back() -> None:
    for game, preset in (("dominoes", "muggins"), ("dominoes", "five-up"), ("card-muggins", "muggins")):
        c = compact_actions(game, preset, 2)
        seen = set()
        for i in range(c.space.size):
            m, k = c.pair(i)
            assert 0 <= m < c.moves and 0 <= k < c.amounts and c.id(m, k) == i
            seen.add((m, k))
        assert len(seen) == c.space.size


def test_bad_pairs_are_refused() -> None:
    c = compact_actions("dominoes", "muggins", 2)
    draw = c.move_start("draw")
    with pytest.raises(ClaimError):
        c.id(draw, 5)  # a draw announces nothing
    with pytest.raises(ClaimError):
        c.id(c.move_start("claim"), 0)  # a late claim names its points
    for bad in (-1, c.moves, 1.0, True):
        with pytest.raises(UnknownAction):
            c.id(bad, 0)
    with pytest.raises(UnknownAction):
        c.id(0, c.amounts)
    with pytest.raises(UnknownAction):
        c.pair(c.space.size)
    st = get_game("dominoes").new(get_game("dominoes").rules("muggins"), 2, seed=3)
    seat = min(st.waiting_for())
    illegal = next(m for m in range(c.move_start("draw")) if not c.move_mask(st, seat)[m])
    with pytest.raises(IllegalAction):
        c.action(st, seat, illegal, 0)
    space = c.gym_space()
    assert list(space.nvec) == [89, 220]
