"""The native card Muggins search (``native.search``), the worlds it draws (``native.sample_world``) and its
place in the search bot.

Worlds are built from the seat's view and the events as it sees them: they must keep what the seat knows (its
hand, the pile, the hand sizes, the stock's size), hold every card once, respect a go (its player held nothing
that fitted), vary with the seed, and be the same for two states the seat cannot tell apart. The search: a legal
move, the same result for the same seed, an obvious score taken, bad arguments refused. The bot: the native
search where it is built, the Python search (the pure engine) where it is not.

Skips when the native module is not built (fails instead under CI=true: tests/conftest.py).
"""

from __future__ import annotations

import random

import pytest

from muggins._accel import load_native
from muggins.bots.base import next_decision, true_points
from muggins.bots.registry import make_bot
from muggins.bots.search import SearchPolicy
from muggins.cards.dealing import CARD_BY_TEXT, DECK
from muggins.cards.muggins31.rules import PRESETS
from muggins.cards.muggins31.state import CardMugginsState
from muggins.core.chance import Chance
from muggins.core.errors import GameOver, RulesError

native, WHY = load_native("muggins.cards.muggins31.native")
pytestmark = [pytest.mark.skipif(native is None, reason=f"the native card Muggins module: {WHY}"),
              pytest.mark.usefixtures("native_allowed")]  # tests of the native search, under any engine


def _positions(preset: str, games: int, seed: int, players: int = 2) -> list[tuple[CardMugginsState, int]]:
    """Positions with a choice along games of greedy-ish random play (true claims, so games end)."""
    out: list[tuple[CardMugginsState, int]] = []
    rng = random.Random(seed)
    for g in range(games):
        state = CardMugginsState.new(PRESETS[preset], players, Chance(seed=seed * 100 + g))
        while not state.is_over():
            nd = next_decision(state)
            assert nd is not None
            seat, acts = nd
            if len(acts) > 1:
                out.append((state.clone(), seat))
            a = rng.choice(acts)
            pts = true_points(state, seat, a)
            state.apply(seat, a.with_claim(pts) if pts and state.rules.claims == "manual" else a)
    return out


def _round_plays(state: CardMugginsState) -> set[int]:
    return {CARD_BY_TEXT[e.data["card"]].index for e in state.log[state._round_log_start:] if e.kind == "play"}


def test_worlds_keep_what_the_seat_knows_and_hold_every_card_once() -> None:
    for preset, players in (("muggins", 2), ("deal-seven", 3), ("strict-21", 4)):
        for state, seat in _positions(preset, 2, 1, players)[::5]:
            played = _round_plays(state)
            for k in range(3):
                w = native.sample_world(state, seat, k)
                assert w["hands"][seat] == sorted(c.index for c in state.hands[seat])
                assert w["pile"] == [c.index for c in state.pile] and w["total"] == state.total
                assert [len(h) for h in w["hands"]] == [len(h) for h in state.hands]
                assert len(w["stock"]) == len(state.stock)
                cards = [c for h in w["hands"] for c in h] + w["stock"] + sorted(played)
                assert sorted(cards) == list(range(52))
                assert w["scores"] == state.side_scores()


def test_worlds_respect_every_go() -> None:
    """Deal-seven draws nothing, so a go at total T says that every card its player still holds is worth more
    than cap - T."""
    checked = 0
    for state, seat in _positions("deal-seven", 8, 2, 3):
        floors: dict[int, int] = {}
        for e in state.log[state._round_log_start:]:
            if e.kind == "go" and e.seat != seat:
                floors[e.seat] = max(floors.get(e.seat, 0), state.rules.cap - e.data["total"])
        if not floors:
            continue
        for k in range(3):
            w = native.sample_world(state, seat, k)
            for o, floor in floors.items():
                assert all(DECK[c].value > floor for c in w["hands"][o]), (o, floor, w["hands"][o])
                checked += 1
    assert checked > 30


def _greedy_misfits(state: CardMugginsState, seat: int, hands: list[list[int]]) -> int:
    """How many plays of the others in this round a card then held would have beaten in points (deal-seven:
    no draws, so what a seat held at a play is what it holds now and what it played since)."""
    bad = 0
    cap = state.rules.cap
    events = state.log[state._round_log_start:]
    npile = 0
    for k, e in enumerate(events):
        if e.kind == "pile_end":
            npile = 0
        if e.kind != "play":
            continue
        npile += 1
        if e.seat == seat:
            continue
        card = CARD_BY_TEXT[e.data["card"]]
        before = e.data["total"] - card.value
        later = [CARD_BY_TEXT[x.data["card"]].index for x in events[k:] if x.kind == "play" and x.seat == e.seat]
        held = [DECK[c] for c in hands[e.seat] + later]

        def points(c: object, before: int = before, lead: bool = npile == 1) -> int:
            t = before + c.value
            if t == cap:
                return state.rules.cap_bonus
            return t if t % 5 == 0 and (not lead or state.rules.lead_scores) else 0
        if any(c.value <= cap - before and points(c) > points(card) for c in held):
            bad += 1
    return bad


def test_weighed_worlds_fit_the_others_past_plays_better() -> None:
    """With ``infer`` a world where a greedy player would have passed over a better score is drawn less."""
    plain = weighed = 0
    for state, seat in _positions("deal-seven", 3, 12)[::4]:
        for k in range(8):
            plain += _greedy_misfits(state, seat, native.sample_world(state, seat, k)["hands"])
            weighed += _greedy_misfits(state, seat, native.sample_world(state, seat, k, 10.0, 3.0)["hands"])
    assert weighed < plain / 2, (weighed, plain)


def test_worlds_vary_with_the_seed() -> None:
    state, seat = _positions("muggins", 1, 3)[0]
    seen = {tuple(native.sample_world(state, seat, k)["hands"][1 - seat]) for k in range(20)}
    assert len(seen) > 10


def test_states_the_seat_cannot_tell_apart_give_the_same_worlds_and_search() -> None:
    """The search reads nothing the seat may not see: a state drawn by ``sample_hidden`` (other hands, other
    stock, the same view) gives the same worlds and the same search."""
    rng = random.Random(4)
    differed = 0
    for preset, players in (("muggins", 2), ("deal-seven", 3), ("muggins", 4)):
        for state, seat in _positions(preset, 2, 5, players)[::6]:
            other = state.sample_hidden(seat, rng)
            if any(sorted(other.hands[o]) != sorted(state.hands[o]) for o in range(players) if o != seat):
                differed += 1
            for k in range(3):
                assert native.sample_world(state, seat, k) == native.sample_world(other, seat, k)
                assert native.sample_world(state, seat, k, 3.0, 1.0) == native.sample_world(other, seat, k, 3.0, 1.0)
            assert native.search(state, seat, 300, 60.0, 0.7, 120, 0.8, 9) == \
                native.search(other, seat, 300, 60.0, 0.7, 120, 0.8, 9)
            options = {"infer": 3.0, "infer_heavy": 1.0, "opponent_model": True}
            assert native.search(state, seat, 300, 60.0, 0.7, 120, 0.8, 9, **options) == \
                native.search(other, seat, 300, 60.0, 0.7, 120, 0.8, 9, **options)
    assert differed > 5


def test_search_is_legal_and_deterministic() -> None:
    for preset in ("muggins", "no-muggins"):
        for state, seat in _positions(preset, 2, 6)[::7]:
            legal = {state.action_id(a) for a in next_decision(state)[1]}
            r = native.search(state, seat, 400, 60.0, 0.7, 120, 0.8, 11)
            assert r["action"] in legal and r["iterations"] == 400
            assert {a for a, _, _ in r["children"]} <= legal
            assert sum(v for _, v, _ in r["children"]) == 400
            assert native.search(state, seat, 400, 60.0, 0.7, 120, 0.8, 11) == r
            ceiling = native.search(state, seat, 200, 60.0, 0.7, 120, 0.8, 11, omniscient=True)
            assert ceiling["action"] in legal


def test_search_takes_an_obvious_score() -> None:
    """Where one play makes 30 (the next player can then add an ace at most) and no other play scores, the
    search takes it."""
    found = 0
    for state, seat in _positions("muggins", 30, 7):
        acts = next_decision(state)[1]
        pts = sorted((true_points(state, seat, a), a) for a in acts)
        if pts[-1][0] < 30 or pts[-2][0] > 0:
            continue
        r = native.search(state, seat, 3000, 60.0, 0.7, 120, 0.8, 1)
        assert r["action"] == state.action_id(pts[-1][1])
        found += 1
    assert found > 3


def test_bad_arguments_are_refused() -> None:
    state, seat = _positions("muggins", 1, 8)[0]
    for args in ((0, 1.0, 0.7, 120, 0.8), (10, 0.0, 0.7, 120, 0.8), (10, 1.0, 0.7, 0, 0.8), (10, 1.0, 0.7, 120, 1.5)):
        with pytest.raises(ValueError):
            native.search(state, seat, *args, 0)
    with pytest.raises(ValueError):
        native.search(state, seat, 10, 1.0, 0.7, 120, 0.8, 0, reward_scale=-1.0)
    for bad in ({"infer": -1.0}, {"infer": 11.0}, {"infer_heavy": 10.5}):
        with pytest.raises(ValueError):
            native.search(state, seat, 10, 1.0, 0.7, 120, 0.8, 0, **bad)
    with pytest.raises(ValueError):
        native.sample_world(state, 2, 0)
    with pytest.raises(TypeError):
        native.sample_world(object(), 0, 0)
    over = CardMugginsState.new(PRESETS["no-muggins"], 2, Chance(seed=2))
    rng = random.Random(0)
    while not over.is_over():
        seat, acts = next_decision(over)
        over.apply(seat, rng.choice(acts))
    with pytest.raises(GameOver):
        native.search(over, 0, 10, 1.0, 0.7, 120, 0.8, 0)
    nat = native.NativeCardMuggins(PRESETS["muggins"], 2, seed=1)
    with pytest.raises(ValueError):
        nat.playout(0, 1, -1)
    with pytest.raises(ValueError):
        nat.playout(0, 1, 10, True, 2.0)
    with pytest.raises(ValueError):
        nat.playout(3)
    with pytest.raises(ValueError):
        nat.feed_deal([[0, 1, 2, 3, 4], [5, 6, 7, 8, 9]], list(range(10, 51)))
    with pytest.raises(RulesError):
        make_bot("search:scale=0")
    with pytest.raises(RulesError):
        make_bot("search:points=2")


def test_the_bot_searches_natively_with_its_options() -> None:
    state, seat = _positions("muggins", 1, 9)[3]
    acts = next_decision(state)[1]
    for name in ("search:iterations=500", "search:iterations=500:scale=20:points=1:rollout_greedy=0.5",
                 "search:iterations=500:infer=3:heavy=1:model=1", "omniscient:iterations=500"):
        bot = make_bot(name, 1)
        assert bot.policy.choose(state, seat, acts, random.Random(0)) in acts
        assert bot.policy.native_searches == 1 and bot.policy.total_iterations == 500, name


def test_the_pure_engine_is_the_fallback(monkeypatch: pytest.MonkeyPatch) -> None:
    """Not built (as load_native reports it) or the sources forced: the Python search on the pure engine."""
    import muggins._accel as accel

    state, seat = _positions("muggins", 1, 10)[2]
    acts = next_decision(state)[1]
    monkeypatch.delenv("MUGGINS_PURE_PYTHON", raising=False)
    monkeypatch.setattr(accel, "load_native", lambda name: (None, "not built: python setup.py build_ext"))
    policy = SearchPolicy(iterations=30, time_limit=60.0)
    mod, why = policy.native_engine(state)
    assert mod is None and why is not None and "not built" in why
    assert policy.choose(state, seat, acts, random.Random(0)) in acts
    assert policy.native_searches == 0 and policy.native_rollouts == 0 and policy.total_iterations == 30
    from muggins.perf import native_random_play

    figures, why = native_random_play("card-muggins", "muggins", 2, 0.01, 1)
    assert figures is None and why is not None and "not built" in why
    monkeypatch.undo()
    monkeypatch.setenv("MUGGINS_PURE_PYTHON", "1")
    forced = SearchPolicy(iterations=30, time_limit=60.0)
    assert forced.choose(state, seat, acts, random.Random(0)) in acts
    assert forced.native_searches == 0 and forced.native_engine(state)[0] is None


def test_the_expert_level_plays_card_muggins_with_its_tuned_search() -> None:
    """The expert level's search weighs worlds and plays for points in card Muggins (its heuristics module's
    LEVEL_SEARCH), options named with the level still win, and its counters show the searches made there."""
    from muggins.bots.heuristics.card_muggins import LEVEL_SEARCH
    from muggins.bots.registry import level_game_options

    tuned = dict(LEVEL_SEARCH["expert"])
    assert level_game_options("expert") == {"card-muggins": LEVEL_SEARCH["expert"]}
    assert level_game_options("club") == {}
    expert = make_bot("expert", 1).policy
    sub = expert.per_game["card-muggins"]
    assert (sub.infer, sub.heavy, sub.play_for_points) == (tuned["infer"], tuned["heavy"], bool(tuned["points"]))
    assert (sub.iterations, sub.time_limit, sub.model) == (expert.iterations, expert.time_limit, expert.model)
    assert expert.infer == 0.0 and not expert.play_for_points  # elsewhere the level's own settings
    assert make_bot("expert:infer=1", 1).policy.per_game["card-muggins"].infer == 1.0
    state, seat = _positions("muggins", 1, 11)[2]
    acts = next_decision(state)[1]
    small = make_bot("expert:iterations=300", 1).policy
    assert small.choose(state, seat, acts, random.Random(0)) in acts
    assert small.native_searches == 1 and small.total_iterations == 300 and small.searches == 1
    assert small.per_game["card-muggins"].native_searches == 1
