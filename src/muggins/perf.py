"""Throughput measurements behind ``muggins bench`` and benchmarks/: random play through the protocol."""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from muggins.core.rules import get_game

OPTIONAL = ("muggins", "claim")


def random_play(game: str, preset: str | None, players: int | None, seconds: float, seed: int = 0,
                options: dict[str, Any] | None = None, ids: bool = False, native: bool = False) -> dict[str, float]:
    """Play random legal moves (what a seat waited for may do; nobody claims or calls) for about
    ``seconds`` of CPU time on this one core. Counts every applied action as a move.

    ``ids``: through the integer protocol (``legal_action_ids`` + ``apply_action_id``, the same random
    policy: the optional ids, calls and late claims, come last and are left out). ``native``: on the game's
    native-backed protocol state (:func:`native_state_maker`; implies ``ids``), ValueError if there is none."""
    spec = get_game(game)
    rules = spec.rules(preset, options)
    n = players if players is not None else spec.default_players
    rnd = random.Random(seed).random
    moves = games = 0
    clock = time.process_time
    make: Any = spec.new
    if native:
        make, why = native_state_maker(game, rules, n)
        if make is None:
            raise ValueError(why)
        ids = True
    if ids:
        from muggins.core.action_ids import space_of

        space = space_of(spec.state_type.action_ids, rules, n)
        calls = space.by_kind.get("muggins")
        optional = calls.start if calls is not None else space.size  # the first id of a call or late claim
    start = clock()
    deadline = start + seconds
    g = seed
    while True:
        st = make(rules, n, seed=g)
        g += 1
        if ids:
            legal_ids, apply_id, waiting, over = st.legal_action_ids, st.apply_action_id, st.waiting_for, st.is_over
            while not over():
                for seat in waiting():  # noqa: B007 - the first seat waited for
                    break
                got = legal_ids(seat)
                k = len(got)
                while got[k - 1] >= optional:
                    k -= 1
                apply_id(seat, got[int(rnd() * k)])
                moves += 1
        else:
            legal, apply, waiting, over = st.legal_actions, st.apply, st.waiting_for, st.is_over
            while not over():
                for seat in waiting():  # noqa: B007 - the first seat waited for
                    break
                acts = legal(seat)
                k = len(acts)
                while acts[k - 1][0] in OPTIONAL:  # optional moves come last: calls and late claims
                    k -= 1
                apply(seat, acts[int(rnd() * k)])
                moves += 1
        games += 1
        if clock() >= deadline:
            break
    elapsed = clock() - start
    return {"moves": moves, "games": games, "seconds": elapsed,
            "moves_per_second": moves / elapsed, "games_per_second": games / elapsed}


def native_state_maker(game: str, rules: Any, players: int) -> tuple[Any, str | None]:
    """The constructor ``(rules, players, seed=...)`` of the game's native-backed protocol state (the
    native module's ``protocol_state``) and None, or None and why there is none."""
    mod, why = native_module(game, rules, players)
    if mod is None:
        return None, why
    make = getattr(mod, "protocol_state", None)
    if make is None:
        return None, f"{mod.__name__} has no protocol state (only playouts)"
    return make, None


def median_runs(fn: Any, runs: int, **kw: Any) -> dict[str, Any]:
    """Call ``fn`` ``runs`` times and report the median of each rate, with every run kept."""
    return _medians([fn(seed=i, **kw) for i in range(runs)], {"runs": runs})


def _medians(results: list[dict[str, Any]], out: dict[str, Any]) -> dict[str, Any]:
    """``out`` with the median of each rate (``*_per_second``) of ``results`` and every run's figure."""
    for key in results[0]:
        if key.endswith("_per_second"):
            out[key] = statistics.median(r[key] for r in results)
            out[key.replace("_per_second", "_per_second_runs")] = [round(r[key], 1) for r in results]
    return out


def native_engine(game: str) -> str | None:
    """The native engine of ``game`` (a module of ``muggins._accel.NATIVE`` in the game's own package), or
    None."""
    from muggins._accel import NATIVE

    package = get_game(game).state_type.__module__.rpartition(".")[0]
    return next((name for name in NATIVE if name.rpartition(".")[0] == package), None)


def native_module(game: str, rules: Any, players: int) -> tuple[Any, str | None]:
    """The native engine module that plays ``rules`` with ``players`` and None, or None and why there is
    none: no native engine for the game, not built (or stale), or rules out of its scope."""
    from muggins._accel import load_native

    name = native_engine(game)
    if name is None:
        return None, f"no native engine for {game}"
    mod, why = load_native(name)
    if mod is None:
        return None, f"{name} {why}"
    out_of_scope = mod.unsupported(rules, players)
    if out_of_scope is not None:
        return None, f"{name} does not play {out_of_scope}"
    return mod, None


def native_random_play(game: str, preset: str | None, players: int | None, seconds: float, runs: int,
                       options: dict[str, Any] | None = None) -> tuple[dict[str, Any] | None, str | None]:
    """The native engine's random play (whole games dealt and played in C, median of ``runs``), the
    figure beside :func:`random_play`'s: (figures, None), or (None, why there is none, as
    :func:`native_module` says)."""
    spec = get_game(game)
    rules = spec.rules(preset, options)
    n = players if players is not None else spec.default_players
    mod, why = native_module(game, rules, n)
    if mod is None:
        return None, why
    results = [mod.random_play_native(rules, n, seconds, seed=i) for i in range(runs)]
    return _medians(results, {"engine": f"{mod.__name__} (C, compiled with Cython)", "runs": runs}), None


def native_protocol_play(game: str, preset: str | None, players: int | None, seconds: float, runs: int,
                         options: dict[str, Any] | None = None) -> tuple[dict[str, Any] | None, str | None]:
    """:func:`random_play` through the integer protocol of the game's native-backed state (median of
    ``runs``), naming the engine measured: (figures, None), or (None, why there is none)."""
    spec = get_game(game)
    rules = spec.rules(preset, options)
    n = players if players is not None else spec.default_players
    make, why = native_state_maker(game, rules, n)
    if make is None:
        return None, why
    out = median_runs(random_play, runs, game=game, preset=preset, players=players, seconds=seconds,
                      options=options, native=True)
    kind = type(make(rules, n, seed=0))
    out["engine"] = (f"{kind.__module__}.{kind.__qualname__} on {native_engine(game)} (C, compiled with Cython), "
                     f"integer protocol: legal_action_ids + apply_action_id")
    return out, None
