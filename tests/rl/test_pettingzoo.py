"""The PettingZoo environment: PettingZoo's own API and seed tests over every game and preset, the muggins
window asked seat by seat (let it go, call and steal), rewards that add up to the engine's scores, whole
games of random masked play, rendering, and a package that imports without PettingZoo."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")

from pettingzoo.test import api_test, seed_test  # noqa: E402

import muggins.rl  # noqa: E402
from muggins.core.errors import IllegalAction, RulesError, UnknownAction  # noqa: E402
from muggins.core.protocol import Action  # noqa: E402
from muggins.core.rules import get_game  # noqa: E402
from muggins.rl.pettingzoo_env import LET_GO, MugginsAECEnv  # noqa: E402
from tests.rl.conftest import case_id, cases  # noqa: E402

CASES = cases()
ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_api_and_seed(case: tuple[str, str, int | None]) -> None:
    game, preset, players = case
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # the Dict observation: PettingZoo's classic games' kind
        api_test(muggins.rl.env(game=game, preset=preset, players=players), num_cycles=100)
        seed_test(lambda: muggins.rl.env(game=game, preset=preset, players=players), num_cycles=100)


def play_random(e: MugginsAECEnv, seed: int, limit: int = 20000, points: bool = True) -> dict[str, float]:
    """Play one game of ``e`` (a raw environment) with uniform random masked actions; the reward each agent
    collected, plus with ``points`` what its side had before anybody acted (five-card cribbage scores at
    the deal)."""
    rng = np.random.default_rng(seed)
    e.reset(seed=seed)
    total = {a: float(s) if points else 0.0 for a, s in zip(e.possible_agents, e.game_state.scores(), strict=True)}
    steps = 0
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        total[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        assert e.observation_space(agent).contains(obs)
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal), f"{agent} has no legal action"
        e.step(int(rng.choice(legal)))
        steps += 1
        assert steps < limit, "the game did not end"
    return total


@pytest.mark.parametrize("case", [c for c in CASES if c[2] is None], ids=case_id)
def test_random_masked_play_finishes_and_rewards_add_up(case: tuple[str, str, int | None]) -> None:
    game, preset, players = case
    e = MugginsAECEnv(game=game, preset=preset, players=players)
    total = play_random(e, seed=3)
    st = e.game_state
    assert st.is_over() and not e.agents
    assert total == {f"player_{i}": float(s) for i, s in enumerate(st.scores())}
    w = MugginsAECEnv(game=game, preset=preset, players=players, reward="win")
    total = play_random(w, seed=3, points=False)
    won = w.game_state.winners()
    assert total == {f"player_{i}": (1.0 if i in won else -1.0 if won else 0.0) for i in range(len(total))}


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_many_random_games(case: tuple[str, str, int | None]) -> None:
    game, preset, players = case
    e = MugginsAECEnv(game=game, preset=preset, players=players)
    for seed in range(20):
        total = play_random(e, seed=seed)
        assert total == {f"player_{i}": float(s) for i, s in enumerate(e.game_state.scores())}


def window_position(claim_timing: str = "strict") -> tuple[MugginsAECEnv, int, Action]:
    """Three-hand domino Muggins, played until the seat about to act has a scoring play: the environment,
    that seat and the play."""
    e = MugginsAECEnv(game="dominoes", preset="muggins", players=3, claim_timing=claim_timing)
    for seed in range(50):
        e.reset(seed=seed)
        rng = random.Random(seed)
        while not e.game_state.is_over():
            st = e.game_state
            seat = e.possible_agents.index(e.agent_selection)
            legal = [a for a in st.legal_actions(seat) if a.kind not in ("muggins", "claim")]
            scoring = [a for a in legal if st.claim_for(seat, a) > 0]
            if scoring and not e.optional_seats():
                return e, seat, scoring[0]
            a = rng.choice(legal) if legal else None
            if a is None or e.optional_seats():
                e.step(e.let_go)
                continue
            e.step(st.action_id(a))
    raise AssertionError("no scoring play found")


def test_the_window_asks_each_other_seat_then_the_mover_calls_and_steals() -> None:
    e, scorer, play = window_position()
    st = e.game_state
    points = st.claim_for(scorer, play)
    before = st.scores()
    e.step(st.action_id(play))  # said nothing: every point is missed
    waited = min(st.waiting_for())
    other = ({0, 1, 2} - {scorer, waited}).pop()
    # the seat the game does not wait for is asked first: it may call or let it go
    assert e.agent_selection == f"player_{other}"
    mask = e.observe(e.agent_selection)["action_mask"]
    muggins_id = st.action_id(Action("muggins"))
    assert mask[e.let_go] == 1 and mask[muggins_id] == 1
    assert e.action_name(e.let_go) == LET_GO
    assert not e.observe(f"player_{waited}")["action_mask"].any()  # not its turn yet
    e.step(e.let_go)
    assert st.scores() == before  # letting it go changes nothing in the game
    # then the mover: it may call too, but may not let it go
    assert e.agent_selection == f"player_{waited}"
    mask = e.observe(e.agent_selection)["action_mask"]
    assert mask[e.let_go] == 0 and mask[muggins_id] == 1
    with pytest.raises(IllegalAction, match="let it go"):
        e.step(e.let_go)
    e.step(muggins_id)
    side = st.side_of(waited)
    assert st.scores()[waited] == before[waited] + points
    assert e.rewards[f"player_{waited}"] == points and e.rewards[f"player_{scorer}"] == 0
    assert st.side_scores()[side] == st.scores()[waited]
    assert e.agent_selection == f"player_{waited}"  # the window is closed: its own move now
    assert e.observe(e.agent_selection)["action_mask"][e.let_go] == 0


def test_an_asked_seat_calls_and_the_window_closes() -> None:
    e, scorer, play = window_position()
    st = e.game_state
    points = st.claim_for(scorer, play)
    e.step(st.action_id(play))
    asked = e.agent_selection
    seat = e.possible_agents.index(asked)
    before, score = e._cumulative_rewards[asked], st.scores()[seat]
    e.step(st.action_id(Action("muggins", claim=points)))
    assert e._cumulative_rewards[asked] == before + points
    assert st.scores()[seat] == score + points and st.scores()[scorer] == 0
    assert not e.optional_seats() and e.agent_selection == f"player_{min(st.waiting_for())}"


def test_a_late_claim_is_offered_first_to_the_scorer() -> None:
    e, scorer, play = window_position("lenient")
    st = e.game_state
    points = st.claim_for(scorer, play)
    e.step(st.action_id(play))
    assert e.agent_selection == f"player_{scorer}"
    mask = e.observe(e.agent_selection)["action_mask"]
    claim_id = st.action_id(Action("claim", claim=points))
    assert mask[claim_id] == 1 and mask[e.let_go] == 1
    e.step(claim_id)
    assert st.scores()[scorer] == points and e.rewards[f"player_{scorer}"] == points
    # the others are asked again (the window changed), the next in seat order first
    order = []
    while e.optional_seats():
        order.append(e.agent_selection)
        e.step(e.let_go)
    waited = min(st.waiting_for())
    assert order == [f"player_{s}" for s in sorted({0, 1, 2} - {scorer, waited}, key=lambda s: (s - scorer) % 3)]
    assert e.agent_selection == f"player_{waited}"


def test_illegal_actions_raise_in_the_raw_env_and_end_the_wrapped_one() -> None:
    e = MugginsAECEnv(game="card-muggins", preset="muggins")
    e.reset(seed=1)
    history = list(e.game_state.history)
    mask = e.observe(e.agent_selection)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalAction):
        e.step(bad)
    with pytest.raises(UnknownAction):
        e.step(len(mask) + 5)
    with pytest.raises(UnknownAction):
        e.step("go")
    assert e.game_state.history == history and not any(e.terminations.values())
    w = muggins.rl.env(game="card-muggins", preset="muggins")
    w.reset(seed=1)
    agent = w.agent_selection
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        w.step(bad)
    assert all(w.terminations.values()) and w.rewards[agent] == -1


def test_reset_with_a_seed_plays_the_engine_deal_and_options_reach_the_rules() -> None:
    spec = get_game("cribbage")
    e = MugginsAECEnv(game="cribbage", preset="cribbage", target=61)
    assert e.rules.target == 61
    e.reset(seed=17)
    assert e.game_state.view(0) == spec.new(e.rules, 2, seed=17).view(0)
    e.reset()
    a = e.game_state.view(0)
    e.reset(seed=17)
    e.reset()
    assert e.game_state.view(0) == a  # the next seed comes from the one given last


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(RulesError, match="reward"):
        MugginsAECEnv(reward="money")
    with pytest.raises(RulesError, match="render_mode"):
        MugginsAECEnv(render_mode="human")
    with pytest.raises(RulesError, match="players"):
        MugginsAECEnv(game="cribbage", preset="cribbage", players=3)
    with pytest.raises(RulesError, match="unknown option"):
        MugginsAECEnv(colour="red")


def test_truncation_after_max_steps() -> None:
    e = MugginsAECEnv(game="dominoes", max_steps=5)
    e.reset(seed=2)
    for _ in range(5):
        e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
    assert all(e.truncations.values()) and not any(e.terminations.values())


def test_render_is_the_table_as_text() -> None:
    e = MugginsAECEnv(game="cribbage", render_mode="ansi")
    e.reset(seed=3)
    text = e.render()
    assert isinstance(text, str) and "Cribbage" in text and "player_0" in text and "to act" in text
    with pytest.warns(UserWarning, match="render_mode"):
        assert MugginsAECEnv(game="cribbage").render() is None


def test_importing_the_package_needs_no_pettingzoo() -> None:
    code = ("import sys, muggins.rl, muggins.rl.observation; "
            "assert not {'pettingzoo', 'gymnasium'} & set(sys.modules), sorted(sys.modules)")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    subprocess.run([sys.executable, "-c", code], check=True, env=env, cwd=ROOT)
