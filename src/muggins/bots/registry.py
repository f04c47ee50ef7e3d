"""Named bots and levels: ``make_bot("greedy", seed)``, ``make_bot("club", seed)``,
``make_bot("search:iterations=800:time=0.5", seed)``.

A name is a skill (``random``, ``greedy``, ``heuristic``, ``search``, ``learned``, ``omniscient``; perfect attention)
or a level (``beginner``, ``casual``, ``club``, ``expert``: a skill and an attention model together).
Options follow the name after colons, ``key=value``: search budgets (``iterations``, ``time``,
``exploration``, ``horizon``, ``rollout_greedy``; ``native=0`` keeps rollouts in Python) and attention rates
(``forget``, ``under_claim``, ``vigilance``, ``false_call``, ``reaction``, ``reaction_spread``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from muggins.bots.attention import LEVEL_ATTENTION, PERFECT, Attention
from muggins.bots.base import Policy
from muggins.bots.bot import AttentiveBot
from muggins.bots.learned import LearnedPolicy
from muggins.bots.policies import GreedyPolicy, HeuristicPolicy, RandomPolicy
from muggins.bots.search import SearchPolicy, true_determinization
from muggins.core.errors import RulesError

SEARCH_KEYS = {"iterations": int, "time": float, "exploration": float, "horizon": int,
               "rollout_greedy": float, "native": int, "scale": float, "hands": int,
               "infer": float, "heavy": float, "model": int, "defend": int, "points": int}
# the options that are on (1) or off (0), and the SearchPolicy argument each sets (hands: the ceiling's alone)
SEARCH_FLAGS = {"native": "native", "model": "model", "defend": "defend", "points": "play_for_points",
                "hands": "hands_known"}
ATTENTION_KEYS = {f.name: float for f in dataclasses.fields(Attention)}
MAX_SECONDS = 10.0  # a search bot's time per move: about 200 MB of tree at the native speed


def _search(name: str, omniscient: bool = False) -> Callable[[dict[str, Any]], Policy]:
    def build(opts: dict[str, Any]) -> Policy:
        kw: dict[str, Any] = {"name": name}
        for k in SEARCH_FLAGS:
            if k in opts and opts[k] not in (0, 1):
                raise RulesError(f"bot {name!r}: {k} is 0 (off) or 1 (on), not {opts[k]!r}")
        if "iterations" in opts:
            kw["iterations"] = opts["iterations"]
        if "time" in opts:
            if not opts["time"] <= MAX_SECONDS:  # the tree grows with the time: a bound keeps memory bounded too
                raise RulesError(f"bot {name!r}: time is at most {MAX_SECONDS:g} seconds a move, not {opts['time']!r}")
            kw["time_limit"] = opts["time"]
        for k in ("exploration", "horizon", "rollout_greedy", "infer", "heavy"):
            if k in opts:
                kw[k] = opts[k]
        if "scale" in opts:  # the points difference the squashed reward turns on
            kw["reward_scale"] = opts["scale"]
        # model=1: the others move in the tree as the rollouts move them; defend=1: its own rollout moves weigh
        # the next seat's best reply; points=1: plays for the points margin; native=0: rollouts in Python even
        # where a native engine is built; hands=1 (the ceiling): the hands seen, the stock's order not
        if "hands" in opts and not omniscient:
            raise RulesError(f"bot {name!r}: only the omniscient ceiling takes hands")
        for k, arg in SEARCH_FLAGS.items():
            if k in opts:
                kw[arg] = bool(opts[k])
        if omniscient:
            kw["determinize"] = true_determinization
        try:
            return SearchPolicy(**kw)
        except ValueError as e:
            raise RulesError(f"bot {name!r}: {e}") from None
    return build


@dataclass(frozen=True)
class BotKind:
    """A registry entry: how to build the skill, which attention, whether players may meet it."""

    policy: Callable[[dict[str, Any]], Policy]
    attention: Attention = PERFECT
    offered: bool = True
    description: str = ""
    search_defaults: tuple[tuple[str, Any], ...] = ()


SKILLS: dict[str, BotKind] = {
    "random": BotKind(lambda o: RandomPolicy(), description="any legal move"),
    "greedy": BotKind(lambda o: GreedyPolicy(), description="most points now; on ties, the piece hardest to keep"),
    "heuristic": BotKind(lambda o: HeuristicPolicy(), description="per-game judgement, one move ahead"),
    "search": BotKind(_search("search"), description="information-set Monte Carlo tree search"),
    "learned": BotKind(lambda o: LearnedPolicy(),
                       description="a small network trained with PPO against greedy (2-player games "
                                   "with shipped weights)"),
    "omniscient": BotKind(_search("omniscient", omniscient=True), offered=False,
                          description="search that sees every hand: a measuring ceiling only"),
}

LEVELS: dict[str, tuple[str, Attention, tuple[tuple[str, Any], ...]]] = {
    "beginner": ("greedy", LEVEL_ATTENTION["beginner"], ()),
    "casual": ("heuristic", LEVEL_ATTENTION["casual"], ()),
    "club": ("heuristic", LEVEL_ATTENTION["club"], ()),
    "expert": ("search", LEVEL_ATTENTION["expert"], (("iterations", 20000), ("time", 0.5), ("model", 1))),
}


def level_game_options(level: str) -> dict[str, tuple[tuple[str, Any], ...]]:
    """The search options ``level`` plays with in each game that tunes them, beside its own: what the game's
    heuristics module lists under the level in its ``LEVEL_SEARCH`` (the settings measured best there with
    benchmarks/bench_strength.py)."""
    from muggins.bots.heuristics import module_for
    from muggins.core.rules import all_games

    out = {}
    for game in all_games():
        mod = module_for(game)
        tuned = getattr(mod, "LEVEL_SEARCH", {}).get(level) if mod is not None else None
        if tuned:
            out[game] = tuple(tuned)
    return out


def bot_names(offered_only: bool = False) -> list[str]:
    """Every name ``make_bot`` accepts (skills, then levels)."""
    skills = [k for k, v in SKILLS.items() if v.offered or not offered_only]
    return skills + list(LEVELS)


def parse_bot_name(text: str) -> tuple[str, dict[str, Any]]:
    """``"search:iterations=200:time=0.3"`` -> ("search", {"iterations": 200, "time": 0.3})."""
    base, *parts = text.strip().split(":")
    base = base.strip().lower()
    if base not in SKILLS and base not in LEVELS:
        raise RulesError(f"unknown bot {base!r}; bots: {', '.join(bot_names())}")
    opts: dict[str, Any] = {}
    for p in parts:
        key, sep, value = p.partition("=")
        key = key.strip().replace("-", "_")
        if not sep:
            raise RulesError(f"bot option {p!r} must look like key=value")
        tp = SEARCH_KEYS.get(key) or ATTENTION_KEYS.get(key)
        if tp is None:
            raise RulesError(f"unknown bot option {key!r}; options: "
                             f"{', '.join(sorted(SEARCH_KEYS) + sorted(ATTENTION_KEYS))}")
        if key in SEARCH_KEYS and base not in ("search", "omniscient", "expert"):
            raise RulesError(f"option {key!r} applies only to search bots")
        try:
            opts[key] = tp(value)
        except ValueError:
            raise RulesError(f"bot option {key!r} needs a number; got {value!r}") from None
    return base, opts


def make_bot(name_or_level: str, seed: int | None = None) -> AttentiveBot:
    """Build a bot by name or level (see the module docstring). The seed feeds the bot's own
    generator, used when ``act`` is called without one."""
    base, named = parse_bot_name(name_or_level)
    opts = named
    if base in LEVELS:
        skill, attention, defaults = LEVELS[base]
        kind = SKILLS[skill]
        opts = {**dict(defaults), **named}
    else:
        kind = SKILLS[base]
        attention = kind.attention
    changes = {k: v for k, v in opts.items() if k in ATTENTION_KEYS}
    if changes:
        try:
            attention = dataclasses.replace(attention, **changes)
        except RulesError as e:
            raise RulesError(f"bot {name_or_level!r}: {e}") from None
    policy = kind.policy({k: v for k, v in opts.items() if k in SEARCH_KEYS})
    if isinstance(policy, SearchPolicy):
        for game, extra in (level_game_options(base) if base in LEVELS else {}).items():
            tuned = {**opts, **dict(extra), **named}
            sub = kind.policy({k: v for k, v in tuned.items() if k in SEARCH_KEYS})
            assert isinstance(sub, SearchPolicy)
            policy.per_game[game] = sub
    return AttentiveBot(name=name_or_level.strip(), policy=policy, attention=attention,
                        offered=kind.offered, seed=seed)
