"""Any registered game as a PettingZoo AEC environment: ``muggins.rl.env(game=None, preset=None, ...)``.

**Agents** are ``"player_0"`` ... ``"player_{n-1}"``, one per seat. **Observations** are dicts
``{"observation": Box(float32, (size,)), "action_mask": Box(int8, 0..1, (N,))}``: the vector is the seat's
view encoded by the game's encoder (:func:`muggins.rl.observation.encoder_for`; ``encoder.describe()``
names its fields), clipped to -1..1 (only a score past the target or below minus the target is cut), and
the mask is the legal actions of the agent about to act (all zeros for the others and once the game is
over). **Actions** are ``Discrete(N)``, ``N = num_distinct_actions() + 1``: the game's integer actions
(docs/actions.md), and one more, the last id, **"let it go"**: decline to call Muggins!.

**The muggins window.** After a scoring move under the muggins rule a window is open (whether or not points
were left unclaimed: a call may be false) and seats the game does not wait for may act: the scorer's opponents
may call Muggins!, and the scorer may claim late when the rules let him. Every such seat is asked in turn, in
seat order from the scorer on (so a late claim is offered first), before the seat the game waits for. An asked
seat calls (a muggins id, with or without an amount), claims late (a claim id), or lets it go (the last id,
legal only for a seat asked so); then the seat the game waits for moves, and its mask lets it call too. Any
move that changes the game asks the seats still allowed to act again (a late claim changes what may be
called). Where points are scored automatically no window opens and "let it go" is never legal. A simultaneous
phase (a discard to the crib) asks the seats it waits for one at a time, lowest first; a seat's view never
shows another's choice.

**Rewards.** ``reward="points"``: each step, every agent receives the change in its side's score (a
partner gets the team's), so the cumulative reward an agent reads at its turn is the change since its
own last action, and over a game the sum is its side's final score less what it had before anybody
acted (points a game scores with the first deal are no reward). Points are not zero-sum: a steal moves
points from one side to another, but most points are simply made. ``reward="win"``: 0 until the end,
then +1 for each winner and -1 for each other seat (0 for everybody when nobody won).

**Episode end.** Every agent terminates when the game ends. There is no truncation unless ``max_steps``
(env steps, "let it go" included) is given: then every agent is truncated once that many were taken.

**Illegal actions.** By default the environment follows PettingZoo's classic games
(``TerminateIllegalWrapper``): an action outside the mask ends the episode, the offender receiving
``illegal_reward`` (-1) and the others 0. With ``illegal_reward=None`` it raises
:class:`~muggins.core.errors.IllegalAction` (or its subclass ``UnknownAction`` for an id that names no
action) and changes nothing. ``raw_env`` always raises.

**Chance and seeds.** Deals and draws happen inside the engine. ``reset(seed=s)`` plays the same deal as
``spec.new(rules, n, seed=s)``; a ``reset()`` without a seed draws the next game's seed from the generator
the last seed started (a fresh one if none was given).

**Rendering.** ``render_mode="ansi"``: ``render()`` returns the table as text, drawn by the game's
registered terminal renderer from the spectator's view.

**Cost.** An observation is encoded only when asked for (``observe``, ``last``). A mask is made once per
position and kept until the environment or its game changes: asking again (``action_mask``, a wrapper's
check, ``action_masks()`` of the Gymnasium wrapper after ``step``) returns a copy of the kept one.

Other keyword arguments are the game's rule options (``muggins rules`` lists them).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from muggins.core.errors import IllegalAction, RulesError, UnknownAction, shown
from muggins.core.protocol import Action, GameState
from muggins.core.rules import GameSpec
from muggins.rl.compact import resolve_game
from muggins.rl.observation import BaseEncoder, encoder_for

__all__ = ["LET_GO", "MugginsAECEnv", "env", "raw_env"]

#: the name of the extra, last action id: decline to call Muggins!
LET_GO = "let it go"
REWARDS = ("points", "win")
RENDER_MODES = ("ansi",)


class MugginsAECEnv(AECEnv):  # type: ignore[misc]
    """The raw environment (no wrappers): see the module docstring."""

    metadata = {"render_modes": list(RENDER_MODES), "name": "muggins_v0", "is_parallelizable": False}

    def __init__(self, game: str | None = None, preset: str | None = None, players: int | None = None,
                 reward: str = "points", render_mode: str | None = None, max_steps: int | None = None,
                 **options: Any) -> None:
        super().__init__()
        if reward not in REWARDS:
            raise RulesError(f"reward is one of {', '.join(REWARDS)}; got {shown(reward)}")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise RulesError(f"render_mode is None or 'ansi'; got {shown(render_mode)}")
        if max_steps is not None and (type(max_steps) is not int or max_steps < 1):
            raise RulesError(f"max_steps is a whole number above 0, or None; got {shown(max_steps)}")
        self.game_spec, self.rules, self.num_players = resolve_game(game, preset, players, options)
        self.reward_kind = reward
        self.render_mode = render_mode
        self.max_steps = max_steps
        n = self.num_players
        self.game_state: GameState = self.game_spec.new(self.rules, n, seed=0)
        self.num_game_actions = self.game_state.num_distinct_actions()
        self.let_go = self.num_game_actions  # the last id
        self.encoder: BaseEncoder = encoder_for(self.game_spec.name, self.rules, n)
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agents = self.possible_agents[:]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        size = self.encoder.size
        self._obs_space = spaces.Dict({
            "observation": spaces.Box(-1.0, 1.0, (size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.num_game_actions + 1,), np.int8),
        })
        self._act_space = spaces.Discrete(self.num_game_actions + 1)
        self._rng = random.Random()
        self._declined: set[int] = set()
        self._steps = 0
        self._seen: list[int] = [0] * n
        self._changes = 0  # bumped by every change the environment makes: part of the key of the kept masks
        self._kept: dict[str, tuple[tuple[Any, ...], np.ndarray]] = {}
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[0]

    # --- spaces -------------------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Dict:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Discrete:
        return self._act_space

    # --- episode ------------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game: the deal of ``seed`` (see the module docstring). ``options`` is accepted for the API
        and not used: rule options are given when the environment is made."""
        if seed is not None:
            self._rng = random.Random(seed)
            game_seed = seed
        else:
            game_seed = self._rng.getrandbits(63)
        self.game_state = self.game_spec.new(self.rules, self.num_players, seed=game_seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._declined = set()
        self._steps = 0
        self._changes += 1
        self._seen = self.game_state.scores()
        self._skip_agent_selection = None
        self.agent_selection = self.possible_agents[self._next_seat()]

    def optional_seats(self) -> frozenset[int]:
        """The seats asked about the open window before the game goes on: they may act (call, claim
        late) though the game does not wait for them, and have not let it go yet."""
        st = self.game_state
        return st.to_act() - st.waiting_for() - self._declined

    def _next_seat(self) -> int:
        st = self.game_state
        optional = self.optional_seats()
        if optional:
            window = st.view(None)["window"]
            start = window["scorer"] if window else 0
            n = self.num_players
            return min(optional, key=lambda s: (s - start) % n)
        waiting = st.waiting_for()
        if not waiting:
            raise RuntimeError(f"the game waits for nobody and is not over (to act: {sorted(st.to_act())})")
        return min(waiting)

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self._seat[agent]
        self.apply_id(seat, action)
        self._cumulative_rewards[agent] = 0.0
        self._after_action()

    def apply_id(self, seat: int, action: Any) -> None:
        """Apply action id ``action`` for ``seat`` (the seat about to act): a game action or "let it go".
        Raises IllegalAction (UnknownAction for no such id) and changes nothing when it is not legal."""
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise UnknownAction(f"an action is a whole number from 0 to {self.let_go}; got {shown(action)}")
        i = int(action)
        if i == self.let_go:
            if seat not in self.optional_seats():
                raise IllegalAction(f"player_{seat} cannot let it go (action {i}): it is asked to let a muggins "
                                    "window go only while the game does not wait for it")
            self._declined.add(seat)
            self._changes += 1
            return
        self.apply_action(seat, self.game_state.action_from_id(seat, i))

    def apply_action(self, seat: int, action: Action) -> None:
        """Apply a game action for ``seat`` (what a bot chose); the asked seats are asked afresh."""
        self.game_state.apply(seat, action)
        self._declined.clear()
        self._changes += 1

    def let_it_go(self, seat: int) -> None:
        """``seat``, asked about the window, lets it go (what a bot that does not call chose)."""
        self.apply_id(seat, self.let_go)

    def _after_action(self) -> None:
        """Rewards, ends and the next agent after an action of the selected agent."""
        st = self.game_state
        self._steps += 1
        self._changes += 1
        scores = st.scores()
        over = st.is_over()
        for i, a in enumerate(self.possible_agents):
            if a not in self.rewards:
                continue
            if self.reward_kind == "points":
                self.rewards[a] = float(scores[i] - self._seen[i])
            else:
                won = st.winners()
                self.rewards[a] = (1.0 if i in won else -1.0 if won else 0.0) if over else 0.0
        self._seen = scores
        if over:
            self.terminations = dict.fromkeys(self.agents, True)
            for a in self.agents:
                self.infos[a] = {"scores": scores, "winners": sorted(st.winners())}
        elif self.max_steps is not None and self._steps >= self.max_steps:
            self.truncations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[self._next_seat()]
        self._accumulate_rewards()

    # --- what an agent sees -------------------------------------------------------------------------
    def action_mask(self, agent: str) -> np.ndarray:
        """1 for each id ``agent`` may take now; all zeros unless it is the agent about to act. Made once
        per position and kept (a caller gets a copy): ``observe`` and then ``action_masks()`` of the
        Gymnasium wrapper, or a wrapper's check, ask the engine once."""
        st = self.game_state
        history = st.history
        # everything the mask depends on: the environment's changes, the game's (changed directly too),
        # whose turn it is, whether the agent is done (a wrapper may end the episode)
        key = (self._changes, id(st), st._ver, len(history), history[-1] if history else None,
               self.agent_selection, self.terminations.get(agent), self.truncations.get(agent))
        kept = self._kept.get(agent)
        if kept is None or kept[0] != key:
            kept = self._kept[agent] = (key, self._make_mask(agent))
        return kept[1].copy()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The agent's observation, encoded afresh (it is asked for once a turn), and its mask."""
        obs = self.encoder.encode(self.game_state, self._seat[agent])
        np.clip(obs, -1.0, 1.0, out=obs)
        return {"observation": obs, "action_mask": self.action_mask(agent)}

    def _make_mask(self, agent: str) -> np.ndarray:
        st = self.game_state
        if (agent != self.agent_selection or st.is_over()
                or self.terminations.get(agent) or self.truncations.get(agent)):
            return np.zeros(self.num_game_actions + 1, dtype=np.int8)
        seat = self._seat[agent]
        mask = np.empty(self.num_game_actions + 1, dtype=np.int8)
        mask[:-1] = np.frombuffer(st.legal_action_mask(seat), dtype=np.int8)
        mask[-1] = 1 if seat in self.optional_seats() else 0
        return mask

    def action_name(self, i: int, seat: int | None = None) -> str:
        """The text of action id ``i`` for ``seat`` (the agent about to act by default), for logs."""
        if i == self.let_go:
            return LET_GO
        s = self._seat[self.agent_selection] if seat is None else seat
        a = self.game_state.action_from_id(s, i)
        text = self.game_state.format_action(a)
        return text if a.claim is None else f"{text} ({a.claim})"

    def render(self) -> str | None:
        if self.render_mode is None:
            from gymnasium import logger

            logger.warn("render() was called without a render_mode; make the environment with "
                        "render_mode='ansi'")
            return None
        return render_text(self.game_spec, self.game_state)

    def close(self) -> None:
        pass


def render_text(spec: GameSpec, state: GameState, width: int = 76) -> str:
    """The table as text: a header (scores, who acts), then the game's terminal panel for a spectator."""
    from muggins.tui.renderer import renderer_for

    view = state.view(None).to_json()
    names = [f"player_{i}" for i in range(state.num_players)]
    scores = ", ".join(f"{names[i]} {s}" for i, s in enumerate(state.scores()))
    if state.is_over():
        status = "over; won: " + (", ".join(names[s] for s in sorted(state.winners())) or "nobody")
    else:
        status = "to act: " + ", ".join(names[s] for s in sorted(state.to_act()))
    head = [f"{spec.title} ({state.rules.preset}) - {scores} - {status}"]
    sizes = view.get("hand_sizes")
    if isinstance(sizes, list):
        head.append("Holding: " + ", ".join(f"{names[i]} {spec.pieces(k)}" for i, k in enumerate(sizes)))
    body = renderer_for(spec.name).body(state, view, names, width, 60, True, False)
    return "\n".join(head + body)


def raw_env(**kwargs: Any) -> MugginsAECEnv:
    """The environment without wrappers (illegal actions raise); see the module docstring."""
    kwargs.pop("illegal_reward", None)
    return MugginsAECEnv(**kwargs)


def env(game: str | None = None, preset: str | None = None, players: int | None = None, reward: str = "points",
        render_mode: str | None = None, max_steps: int | None = None, illegal_reward: float | None = -1.0,
        **options: Any) -> AECEnv:
    """The environment wrapped as PettingZoo's classic games are: an illegal action ends the episode with
    ``illegal_reward`` for its author (None: it raises IllegalAction instead), an id out of range is an
    error, and the calls must come in the order of the AEC API."""
    e: AECEnv = MugginsAECEnv(game=game, preset=preset, players=players, reward=reward, render_mode=render_mode,
                              max_steps=max_steps, **options)
    if illegal_reward is not None:
        e = wrappers.TerminateIllegalWrapper(e, illegal_reward=illegal_reward)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)
