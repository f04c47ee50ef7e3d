"""The PettingZoo environment keeps each agent's mask until something changes: asking again gives equal,
separate arrays, and every change (a step, "let it go", a new game, a wrapper ending the episode, the game
changed directly) is seen, in the mask and in the observation."""

from __future__ import annotations

import warnings

import pytest

pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")

import muggins.rl  # noqa: E402
from muggins.rl.pettingzoo_env import MugginsAECEnv  # noqa: E402


def fresh(e: MugginsAECEnv, agent: str) -> dict[str, np.ndarray]:
    """What an environment that kept nothing would show: the encoder and the engine asked directly."""
    seat = e.possible_agents.index(agent)
    obs = np.clip(e.encoder.encode(e.game_state, seat), -1.0, 1.0)
    mask = np.zeros(e.num_game_actions + 1, dtype=np.int8)
    if agent == e.agent_selection and not e.game_state.is_over() and not e.terminations[agent]:
        mask[:-1] = np.frombuffer(e.game_state.legal_action_mask(seat), dtype=np.int8)
        mask[-1] = seat in e.optional_seats()
    return {"observation": obs, "action_mask": mask}


def same(a: dict[str, np.ndarray], b: dict[str, np.ndarray]) -> bool:
    return all(np.array_equal(a[k], b[k]) for k in ("observation", "action_mask"))


def test_asking_again_gives_equal_separate_arrays() -> None:
    e = MugginsAECEnv(game="dominoes", preset="muggins", players=3)
    e.reset(seed=4)
    agent = e.agent_selection
    first = e.observe(agent)
    first["action_mask"][:] = 0  # the caller's copy: what is kept is not touched
    first["observation"][:] = 7
    again = e.observe(agent)
    assert same(again, fresh(e, agent)) and again["action_mask"].any()
    mask = e.action_mask(agent)
    assert np.array_equal(mask, again["action_mask"]) and mask is not again["action_mask"]


def test_every_change_is_seen() -> None:
    e = MugginsAECEnv(game="dominoes", preset="muggins", players=3)
    rng = np.random.default_rng(0)
    let_go = 0
    for seed in range(3):
        e.reset(seed=seed)
        for _agent in e.agent_iter():
            for a in e.possible_agents:  # every agent's arrays are kept, then checked against fresh ones
                assert same(e.observe(a), fresh(e, a))
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            mask = obs["action_mask"]
            if mask[e.let_go] and rng.random() < 0.5:
                let_go += 1
                e.step(e.let_go)
            else:
                e.step(int(rng.choice(np.flatnonzero(mask))))
    assert let_go > 0


def test_a_direct_change_to_the_game_is_seen() -> None:
    e = MugginsAECEnv(game="card-muggins", preset="muggins")
    e.reset(seed=2)
    agent = e.agent_selection
    seat = e.possible_agents.index(agent)
    before = e.observe(agent)
    st = e.game_state
    play = next(a for a in st.legal_actions(seat) if a.kind == "play")
    st.apply(seat, play.with_claim(st.claim_for(seat, play) or None))
    after = e.observe(agent)
    assert not same(after, before) and same(after, fresh(e, agent))


def test_a_wrapper_ending_the_episode_empties_the_mask() -> None:
    w = muggins.rl.env(game="card-muggins", preset="muggins")
    w.reset(seed=1)
    agent = w.agent_selection
    mask = w.observe(agent)["action_mask"]
    assert mask.any()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        w.step(int(np.flatnonzero(mask == 0)[0]))
    assert all(w.terminations.values()) and not w.unwrapped.action_mask(agent).any()


def test_a_new_game_is_seen() -> None:
    e = MugginsAECEnv(game="cribbage", preset="cribbage")
    for seed in (1, 2, 3):
        e.reset(seed=seed)
        agent = e.agent_selection
        assert same(e.observe(agent), fresh(e, agent))
