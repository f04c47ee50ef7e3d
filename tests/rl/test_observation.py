"""Observations: a fixed length for every position, values in range, read from the seat's view alone (two
states the seat cannot tell apart encode the same), and each game's own encoder found by the registry."""

from __future__ import annotations

import itertools
import random

import pytest

np = pytest.importorskip("numpy")

from muggins.core.protocol import GameState  # noqa: E402
from muggins.core.rules import all_games, get_game  # noqa: E402
from muggins.rl.observation import GenericEncoder, encoder_for  # noqa: E402
from tests.rl.conftest import case_id, cases, players_of  # noqa: E402
from tests.toy import NAME as TOY  # noqa: E402

CASES = cases()


def positions(game: str, preset: str, players: int | None, seed: int, limit: int = 300) -> list[GameState]:
    """Every position of one game played at random (a muggins call now and then), the first ``limit``."""
    spec = get_game(game)
    rules = spec.rules(preset)
    st = spec.new(rules, players_of(game, preset, players), seed=seed)
    rng = random.Random(seed)
    out = [st.clone()]
    while not st.is_over() and len(out) < limit:
        seat = rng.choice(sorted(st.to_act()))
        legal = st.legal_actions(seat)
        regular = [a for a in legal if a.kind not in ("muggins", "claim")]
        if seat not in st.waiting_for() or not regular or rng.random() < 0.1:
            a = rng.choice(legal)
        else:
            a = rng.choice(regular)
        if a.kind == "claim":
            a = a._replace(claim=st.claim_for(seat, a))
        st.apply(seat, a)
        out.append(st.clone())
    return out


def test_every_built_in_game_registers_its_own_encoder() -> None:
    for name, spec in all_games().items():
        enc = encoder_for(name, spec.rules(), spec.players_for(spec.rules())[0])
        if name == TOY:
            assert type(enc) is GenericEncoder
        else:
            assert spec.observation and type(enc) is not GenericEncoder, name
            assert len(enc.describe()) > 5, name


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_fixed_size_in_range_and_no_leak(case: tuple[str, str, int | None]) -> None:
    game, preset, players = case
    spec = get_game(game)
    states = positions(game, preset, players, seed=5)
    n = states[0].num_players
    enc = encoder_for(game, spec.rules(preset), n)
    fields = enc.describe()
    assert fields[0]["start"] == 0 and sum(f["length"] for f in fields) == enc.size
    assert all(a["start"] + a["length"] == b["start"] for a, b in itertools.pairwise(fields))
    names = [f["name"] for f in fields]
    assert len(set(names)) == len(names)
    game_fields = [f for f in fields if f["name"] not in ("seat", "to_act", "scores", "window", "over")]
    rng = random.Random(1)
    seen_change = False
    first = enc.encode(states[0], 0)
    for k, st in enumerate(states):
        for seat in range(n):
            obs = enc.encode(st, seat)
            assert obs.shape == (enc.size,) and obs.dtype == np.float32
            assert np.isfinite(obs).all()
            for f in game_fields:  # the game's own fields are scaled to 0..1
                part = obs[f["start"]:f["start"] + f["length"]]
                assert part.min() >= 0.0 and part.max() <= 1.0, (f["name"], part)
            if k % 7 == 0:  # a world drawn from the seat's view alone looks the same to the seat
                other = st.sample_hidden(seat, rng)
                np.testing.assert_array_equal(enc.encode(other, seat), obs)
        seen_change = seen_change or not np.array_equal(enc.encode(st, 0), first)
    assert seen_change, "the observation never changed during a whole game"


def test_the_hand_is_what_the_seat_holds_and_no_other() -> None:
    """A domino seat's hand bits are its own tiles; another seat's tiles appear nowhere in its vector."""
    spec = get_game("dominoes")
    st = spec.new(spec.rules("muggins"), 2, seed=4)
    enc = encoder_for("dominoes", st.rules, 2)
    hand = enc.layout.slice_of("hand")
    mine = enc.encode(st, 0)[hand]
    theirs = enc.encode(st, 1)[hand]
    assert mine.sum() == len(st.view(0)["my_hand"]) == 7
    assert not (mine * theirs).any()  # the two hands are disjoint, each seen by its owner only


def test_cards_are_bits_of_the_pack() -> None:
    spec = get_game("cribbage")
    st = spec.new(spec.rules("cribbage"), 2, seed=8)
    enc = encoder_for("cribbage", st.rules, 2)
    obs = enc.encode(st, 1)
    hand = obs[enc.layout.slice_of("hand")]
    from muggins.cards.dealing import CARD_BY_TEXT

    assert sorted(np.flatnonzero(hand)) == sorted(CARD_BY_TEXT[c].index for c in st.view(1)["my_hand"])
