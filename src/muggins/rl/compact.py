"""The compact action space for learning: a turn's move and its announcement as two decisions.

The integer ids (:mod:`muggins.core.action_ids`, docs/actions.md) give every move once per claim code it may
carry, so a manual-claim game multiplies its moves by every amount (18,922 ids for 2-player domino
``muggins``). The compact space splits an id into a pair ``(move, amount)``:

* the **move head** numbers the moves alone, block after block in the ids' order (for dominoes the plays,
  tile x slot, then draw, pass, knock, and in a manual-claim game the muggins call and the late claim):
  89 for 2-player domino ``muggins`` (its 84 plays and those five), 481 for ``five-up`` (476 plays);
* the **amount head** is what the move announces: 0 says nothing, ``c + 1`` announces ``c`` points, up to
  ``max_step_points`` (``amounts = max_step_points + 2``); a game whose points are scored automatically has
  one amount, 0. A move that carries no claim (a draw, a pass) takes amount 0 only, a late claim names its
  points (amount 1 or more), a play or a muggins call takes any.

As a Gymnasium space it is ``MultiDiscrete([moves, amounts])`` (:meth:`CompactActions.gym_space`). The
conversion to and from the ids is arithmetic (:meth:`CompactActions.pair` and :meth:`CompactActions.id`):
the ids stay the numbering of records and of the other adapters.
"""

from __future__ import annotations

import bisect
from typing import Any

from muggins.core.action_ids import ActionSpace, Block, space_of
from muggins.core.errors import ClaimError, RulesError, UnknownAction, shown
from muggins.core.protocol import Action, GameState
from muggins.core.rules import GameSpec, default_game, get_game

__all__ = ["CompactActions", "compact_actions", "compact_actions_of", "resolve_game"]


class CompactActions:
    """The compact space of one game's numbering (its rules and player count): see the module docstring."""

    def __init__(self, space: ActionSpace) -> None:
        self.space = space
        self.blocks: tuple[Block, ...] = space.blocks
        starts = []
        moves = 0
        for b in self.blocks:
            starts.append(moves)
            moves += b.bases
        self.starts: tuple[int, ...] = tuple(starts)
        #: size of the move head
        self.moves = moves
        #: size of the amount head: no amount, then 0 .. max_step_points (1 where points score themselves)
        self.amounts = space.bound + 2 if space.manual else 1
        self._id_starts = [b.start for b in self.blocks]

    def move_start(self, kind: str) -> int:
        """The first move of block ``kind`` ("play", "draw", "muggins", ...) in the move head."""
        for b, s in zip(self.blocks, self.starts, strict=True):
            if b.kind == kind:
                return s
        raise KeyError(kind)

    def _block(self, move: object) -> int:
        if type(move) is not int or not 0 <= move < self.moves:
            raise UnknownAction(f"a compact move is a whole number from 0 to {self.moves - 1}; got {shown(move)}")
        return bisect.bisect_right(self.starts, move) - 1

    def amount_codes(self, move: int) -> range:
        """The amounts ``move`` may carry: ``range(1)`` (none), every amount, or every amount but none."""
        b = self.blocks[self._block(move)]
        if b.claims == "none":
            return range(1)
        return range(1 if b.claims == "required" else 0, self.amounts)

    def pair(self, i: object) -> tuple[int, int]:
        """The (move, amount) of action id ``i``."""
        if type(i) is not int or not 0 <= i < self.space.size:
            raise UnknownAction(f"an action id is a whole number from 0 to {self.space.size - 1}; got {shown(i)}")
        k = bisect.bisect_right(self._id_starts, i) - 1
        b = self.blocks[k]
        base, code = divmod(i - b.start, b.width)
        return self.starts[k] + base, code + 1 if b.claims == "required" else code

    def id(self, move: object, amount: object) -> int:
        """The action id of (``move``, ``amount``); UnknownAction or ClaimError when the amount does not
        go with the move."""
        k = self._block(move)
        b = self.blocks[k]
        if type(amount) is not int or not 0 <= amount < self.amounts:
            raise UnknownAction(f"a compact amount is a whole number from 0 to {self.amounts - 1}; "
                                f"got {shown(amount)}")
        if amount not in self.amount_codes(move):  # type: ignore[arg-type]
            if b.claims == "none":
                raise ClaimError(f"a {b.kind!r} move announces nothing: its amount is 0, not {amount}")
            raise ClaimError("a late claim names its points: its amount is 1 or more (c + 1 for c points)")
        code = amount - 1 if b.claims == "required" else amount
        return b.start + (move - self.starts[k]) * b.width + code  # type: ignore[operator]

    def action(self, state: GameState, seat: int, move: int, amount: int) -> Action:
        """The action (move, amount) names for ``seat`` in ``state``: IllegalAction when it is not legal."""
        return state.action_from_id(seat, self.id(move, amount))

    def pair_of(self, state: GameState, action: Action) -> tuple[int, int]:
        """The (move, amount) of ``action``, a move legal now (its claim included)."""
        return self.pair(state.action_id(action))

    def move_mask(self, state: GameState, seat: int) -> Any:
        """A numpy int8 mask of the move head: 1 for each move ``seat`` may make now (with some amount)."""
        import numpy as np

        mask = np.zeros(self.moves, dtype=np.int8)
        for i in state.legal_action_ids(seat):
            mask[self.pair(i)[0]] = 1
        return mask

    def gym_space(self) -> Any:
        """``gymnasium.spaces.MultiDiscrete([moves, amounts])``."""
        from gymnasium import spaces

        return spaces.MultiDiscrete([self.moves, self.amounts])


def resolve_game(game: str | None, preset: str | None, players: int | None,
                 options: dict[str, Any]) -> tuple[GameSpec, Any, int]:
    """The spec, the rules and the number of players an environment is made for. ``game=None`` is the
    registry's default game; ``players=None`` its default number if the preset allows it, else the fewest
    the preset allows."""
    spec = get_game(game) if game is not None else default_game()
    rules = spec.rules(preset, options or None)
    if players is None:
        allowed = spec.players_for(rules)
        if not allowed:
            raise RulesError(f"no number of players can play the {rules.preset} rules as set")
        players = spec.default_players if spec.default_players in allowed else allowed[0]
    return spec, rules, spec.check(rules, players)


def compact_actions_of(state: GameState) -> CompactActions:
    """The compact space of ``state``'s game, rules and number of players."""
    return _compact(space_of(type(state).action_ids, state.rules, state.num_players))


def compact_actions(game: str | None = None, preset: str | None = None, players: int | None = None,
                    **options: Any) -> CompactActions:
    """The compact space of ``game`` (the registry's default when None) with ``preset`` and rule options for
    ``players`` (as the environments choose, when None: :func:`resolve_game`)."""
    spec, rules, n = resolve_game(game, preset, players, options)
    return _compact(space_of(spec.state_type.action_ids, rules, n))


_CACHE: dict[int, tuple[ActionSpace, CompactActions]] = {}


def _compact(space: ActionSpace) -> CompactActions:
    hit = _CACHE.get(id(space))
    if hit is not None and hit[0] is space:
        return hit[1]
    if len(_CACHE) > 256:
        _CACHE.clear()
    c = CompactActions(space)
    _CACHE[id(space)] = (space, c)
    return c
