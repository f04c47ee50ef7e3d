"""The registered games as OpenSpiel games (muggins.rl.openspiel): loaded by name, OpenSpiel's own random
simulation test, chance nodes that deal real pieces, the muggins window asked seat by seat, copies,
resampling, and OpenSpiel's IS-MCTS against our bots. Without pyspiel these skip (fail under CI=true)."""

from __future__ import annotations

import functools
import json
import random
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the OpenSpiel games need open_spiel (pip install -e '.[openspiel]')")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from muggins.bots.registry import make_bot  # noqa: E402
from muggins.core.rules import all_games  # noqa: E402
from muggins.rl.openspiel import EngineBot, MugginsState, OpenSpielError, game_name, register_all  # noqa: E402

NAMES = register_all()
GAMES = list(all_games())


def _deals_hands(game: str) -> bool:
    spec = all_games()[game]
    return "hand 0" in spec.new(spec.rules(), seed=0).inventory()


DEALT = [g for g in GAMES if _deals_hands(g)]  # the games that deal each seat a hidden hand


def load(game: str, **params: Any) -> Any:
    return pyspiel.load_game(game_name(game), params)


def chance_step(state: MugginsState, rng: random.Random) -> None:
    outcomes = state.chance_outcomes()
    assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
    state.apply_action(rng.choice([a for a, _ in outcomes]))


def play_until(state: MugginsState, rng: random.Random, stop: Any, limit: int = 20000) -> bool:
    """Random play (chance included) until ``stop(state)``; whether it was reached."""
    for _ in range(limit):
        if stop(state):
            return True
        if state.is_terminal():
            return False
        if state.is_chance_node():
            chance_step(state, rng)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return False


def test_every_registered_game_is_registered_once() -> None:
    assert [game_name(g) for g in GAMES] == NAMES
    assert register_all() == NAMES  # again: nothing new, no error
    for name in NAMES:
        assert name in pyspiel.registered_names()
        assert name.startswith("python_muggins_") and "-" not in name


@pytest.mark.parametrize("game", GAMES)
def test_load_game_type_and_sizes(game: str) -> None:
    g = load(game)
    t = g.get_type()
    assert t.short_name == game_name(game)
    assert t.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert t.utility == pyspiel.GameType.Utility.GENERAL_SUM
    spec = all_games()[game]
    rules = spec.rules()
    engine = spec.new(rules, spec.default_players, seed=1)
    manual = rules.claims == "manual"
    assert g.num_distinct_actions() == engine.num_distinct_actions() + (1 if manual else 0)
    assert g.num_players() == spec.default_players
    s = g.new_initial_state()
    assert s.is_chance_node()  # the deal (or the draw for it) comes first
    assert len(s.observation_tensor(0)) == len(s.information_state_tensor(0)) > 0
    w = load(game, returns="win")
    assert w.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM


def test_bad_parameters_are_refused_with_their_reason() -> None:
    with pytest.raises(Exception, match="unknown preset"):
        load(GAMES[0], preset="no-such-preset")
    with pytest.raises(Exception, match="returns"):
        load(GAMES[0], returns="money")
    with pytest.raises(Exception, match="players"):
        load(GAMES[0], players=99)


@pytest.mark.parametrize("game", GAMES)
def test_random_sim_test_two_players(game: str) -> None:
    pyspiel.random_sim_test(load(game, players=2), num_sims=1, serialize=False, verbose=False)


def test_random_sim_test_more_players() -> None:
    for game, spec in all_games().items():
        preset = next((p for p, r in spec.presets.items() if max(spec.players_for(r)) > 2), None)
        if preset is None:
            continue
        n = max(spec.players_for(spec.presets[preset]))
        g = load(game, preset=preset, players=n)
        assert g.num_players() == n
        pyspiel.random_sim_test(g, num_sims=1, serialize=False, verbose=False)
        return
    pytest.fail("no registered game has a preset for more than two players")


@pytest.mark.parametrize("game", DEALT)
def test_the_deal_is_made_piece_by_piece(game: str) -> None:
    """Chance nodes offer the pieces not yet dealt, uniformly; the hands the engine holds are the ones
    the chance actions named."""
    g = load(game)
    s = g.new_initial_state()
    rng = random.Random(3)
    labels: list[str] = []
    while s.is_chance_node():
        outcomes = s.chance_outcomes()
        probs = {p for _, p in outcomes}
        assert len(probs) == 1 and abs(probs.pop() * len(outcomes) - 1) < 1e-9
        a = rng.choice([x for x, _ in outcomes])
        labels.append(s.action_to_string(pyspiel.PlayerId.CHANCE, a))
        s.apply_action(a)
    eng = s.engine
    assert eng is not None
    inv = eng.inventory()
    named = [x.rsplit(" ", 1)[1] for x in labels]
    hand0 = inv["hand 0"]
    assert hand0 and set(hand0) <= set(named)
    # a deal gives each piece once: the last deal's labels hold no piece twice
    deal = [x for x in labels if x.startswith("deal ")]
    assert len({x for x in deal}) == len(deal) > 0


def test_duplicate_keys_name_the_outcome() -> None:
    s = load(GAMES[0]).new_initial_state()
    first = s.chance_key()
    s.apply_action(s.chance_outcomes()[0][0])
    kind, count, step = s.chance_key()
    assert (kind, count) == first[:2] and step == first[2] + 1
    play_until(s, random.Random(1), lambda st: not st.is_chance_node())
    with pytest.raises(OpenSpielError, match="not a chance node"):
        s.chance_key()


@pytest.mark.parametrize("game", GAMES)
def test_legal_actions_are_the_engine_mask(game: str) -> None:
    s = load(game).new_initial_state()
    rng = random.Random(7)
    checked = 0
    for _ in range(400):
        if s.is_terminal():
            break
        if s.is_chance_node():
            chance_step(s, rng)
            continue
        seat = s.current_player()
        eng = s.engine
        ids = [int(i) for i in np.flatnonzero(eng.legal_action_mask(seat, numpy=True))]
        legal = s.legal_actions()
        assert legal in (ids, [*ids, eng.num_distinct_actions()])  # and perhaps "let it go", the last id
        assert s.legal_actions((seat + 1) % s.num_players()) == []
        checked += 1
        s.apply_action(rng.choice(legal))
    assert checked > 10


def test_the_window_is_asked_seat_by_seat() -> None:
    """A manual-claim game: a scoring move said nothing, so the opponent is asked first (call or let it
    go) before the seat the game waits for; letting it go is public."""
    game = next(g for g, spec in all_games().items() if spec.rules().claims == "manual")
    g = load(game)
    let_go = g.num_distinct_actions() - 1
    rng = random.Random(11)
    for seed in range(40):
        s = g.new_initial_state()
        rng.seed(seed)

        def optional(st: MugginsState) -> bool:
            return (not st.is_chance_node() and not st.is_terminal()
                    and let_go in st.legal_actions())

        if not play_until(s, rng, optional, limit=3000):
            continue
        seat = s.current_player()
        eng = s.engine
        assert seat in eng.to_act() and seat not in eng.waiting_for()
        assert s.action_to_string(seat, let_go) == "let it go"
        calls = [a for a in s.legal_actions() if a != let_go]
        assert calls and all(eng.action_from_id(seat, a).kind in ("muggins", "claim") for a in calls)
        before = s.information_state_string(1 - seat)
        history = len(eng.history)
        s.apply_action(let_go)
        assert len(s.engine.history) == history  # nothing happened in the game itself
        assert s.current_player() != seat or let_go not in s.legal_actions()
        assert s.information_state_string(1 - seat) != before  # the other seat saw it let go
        return
    pytest.fail("no window opened in 40 random games")


def words_of(text: str) -> set[str]:
    return set(text.replace('"', " ").replace(",", " ").replace("[", " ").replace("]", " ").split())


@pytest.mark.parametrize("game", DEALT)
def test_views_hold_no_secret(game: str) -> None:
    """Right after the deal neither string of seat 0 holds a piece of seat 1's hand that seat 0 cannot
    see (the encoder's tensor is checked on its own branch of the tests)."""
    s = load(game).new_initial_state()
    play_until(s, random.Random(5), lambda st: not st.is_chance_node())
    eng = s.engine
    inv = eng.inventory()
    public = words_of(json.dumps([eng.events_for(None), eng.view(None).to_json()]))  # a lot, a cut for the deal
    theirs = set(inv["hand 1"]) - set(inv["hand 0"]) - public
    assert theirs
    for text in (s.observation_string(0), s.information_state_string(0)):
        words = words_of(text)
        assert not theirs & words, theirs & words
    assert any(p in s.observation_string(1) for p in theirs)


@pytest.mark.parametrize("game", GAMES)
def test_clone_is_independent(game: str) -> None:
    s = load(game).new_initial_state()
    rng = random.Random(2)
    play_until(s, rng, lambda st: not st.is_chance_node() and len(st.history()) > 60)
    c = s.clone()
    assert c.history() == s.history()
    assert c.information_state_string(0) == s.information_state_string(0)
    assert c.engine is not s.engine
    before = (s.history(), s.observation_string(0), list(s.engine.history))
    play_until(c, rng, lambda st: len(st.history()) > len(s.history()) + 30)
    assert (s.history(), s.observation_string(0), list(s.engine.history)) == before
    assert c.history()[: len(before[0])] == before[0]


@pytest.mark.parametrize("game", DEALT)
def test_resample_keeps_the_information_state(game: str) -> None:
    s = load(game).new_initial_state()
    play_until(s, random.Random(4), lambda st: not st.is_chance_node() and len(st.history()) > 80)
    seat = s.current_player()
    draws = iter([0.25, 0.75, 0.5])
    worlds = [s.resample_from_infostate(seat, lambda: next(draws)) for _ in range(3)]
    for w in worlds:
        assert w.information_state_string(seat) == s.information_state_string(seat)
        assert w.legal_actions() == s.legal_actions()
    other = (seat + 1) % s.num_players()
    hands = {tuple(sorted(w.engine.inventory()[f"hand {other}"])) for w in worlds}
    hands.add(tuple(sorted(s.engine.inventory()[f"hand {other}"])))
    assert len(hands) > 1  # the hidden hand was drawn again


def play(g: Any, bots: list[Any], seed: int) -> MugginsState:
    s = g.new_initial_state()
    rng = random.Random(seed)
    while not s.is_terminal():
        if s.is_chance_node():
            chance_step(s, rng)
        else:
            s.apply_action(bots[s.current_player()].step(s))
    return s


def ismcts_bot(g: Any, simulations: int, seed: int) -> Any:
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
    return ismcts.ISMCTSBot(g, evaluator, 2.0, simulations, random_state=np.random.RandomState(seed))


@functools.cache
def fast_game() -> str:
    """The game whose random play is shortest (card Muggins as registered today)."""
    def length(game: str) -> int:
        s = load(game).new_initial_state()
        play_until(s, random.Random(0), lambda st: False, limit=100000)
        return len(s.history())
    return min(GAMES, key=length)


@pytest.mark.parametrize("ours", ["greedy", "search:iterations=20"])
def test_ismcts_finishes_a_game_against_our_bot(ours: str) -> None:
    game = fast_game()
    g = load(game, returns="win")
    bots = [ismcts_bot(g, 8, 1), EngineBot(make_bot(ours, seed=1), 1)]
    s = play(g, bots, 3)
    assert s.is_terminal() and s.engine.is_over()
    r = s.returns()
    assert sorted(r) == [-1.0, 1.0]
    assert r[min(s.engine.winners())] == 1.0


def test_engine_bot_refuses_another_seat() -> None:
    g = load(GAMES[0])
    s = g.new_initial_state()
    play_until(s, random.Random(1), lambda st: not st.is_chance_node())
    wrong = 1 - s.current_player()
    with pytest.raises(OpenSpielError, match="asked to move"):
        EngineBot(make_bot("greedy"), wrong).step(s)


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_ismcts_against_greedy_every_game(game: str) -> None:
    g = load(game, returns="win")
    s = play(g, [ismcts_bot(g, 4, 2), EngineBot(make_bot("greedy", seed=2), 1)], 5)
    assert s.engine.is_over()


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_random_sim_test_many(game: str) -> None:
    pyspiel.random_sim_test(load(game), num_sims=5, serialize=False, verbose=False)
