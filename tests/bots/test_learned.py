"""The ``learned`` bot: shipped weights played with NumPy alone, legal and deterministic play, refusals by name;
the training script's true amounts and a few steps of training."""

from __future__ import annotations

import random
import sys

import numpy as np
import pytest

from muggins.bots import learned as learned_mod
from muggins.bots import make_bot
from muggins.bots.base import regular_actions, true_points, with_true_claim
from muggins.core.errors import RulesError
from muggins.core.protocol import GameState
from muggins.core.rules import get_game
from muggins.dominoes.train import PlayAmounts
from muggins.rl.compact import compact_actions_of
from muggins.rl.observation import encoder_for
from muggins.sim.driver import play_game
from tests.bots.test_legal_moves import Checked

SPEC = get_game("dominoes")
RULES = SPEC.rules("muggins")


def random_positions(games: int, seed: int) -> list[tuple[GameState, int]]:
    """Positions of 2-player muggins reached by random play (true claims), with the seat to move."""
    rng = random.Random(seed)
    out = []
    for g in range(games):
        st = SPEC.new(RULES, 2, seed=seed * 1000 + g)
        while not st.is_over() and st.waiting_for():
            seat = min(st.waiting_for())
            acts = regular_actions(st, seat)
            if not acts:
                break
            out.append((st.clone(), seat))
            a = rng.choice(acts)
            pts = true_points(st, seat, a)
            st.apply(seat, a.with_claim(pts) if pts > 0 else a)
    return out


def test_shipped_weights_load_and_play_without_torch(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "torch", None)  # any ``import torch`` now raises ImportError
    learned_mod._load.cache_clear()
    with pytest.raises(ImportError):
        import torch  # noqa: F401
    assert ("dominoes", "muggins", 2) in learned_mod.available()
    net = learned_mod.load_net("dominoes", "muggins", 2)
    assert net.observation == encoder_for("dominoes", RULES, 2).size
    assert sum(w.size + b.size for w, b in net.layers) < 100_000
    result = play_game(SPEC, RULES, 2, [make_bot("learned", 1), make_bot("greedy", 2)], seed=3)
    assert result.finished and result.winners


def test_only_legal_moves_over_random_positions() -> None:
    bot = make_bot("learned", 0)
    positions = random_positions(12, seed=5)
    assert len(positions) > 300
    for st, seat in positions:
        legal = regular_actions(st, seat)
        a = bot.act(st, seat)
        assert a is not None and a._replace(claim=None) in legal
        assert (a.claim or 0) == true_points(st, seat, a._replace(claim=None))  # perfect attention


def test_whole_games_with_checked_moves() -> None:
    for seed in range(3):
        bots = [Checked("learned", seed), Checked("heuristic", seed + 1)]
        result = play_game(SPEC, RULES, 2, bots, seed=seed)
        assert result.finished and bots[0].moves > 10


def test_deterministic_given_its_seed() -> None:
    def game(seed: int) -> list[str]:
        seen: list[object] = []
        play_game(SPEC, RULES, 2, [make_bot("learned", 7), make_bot("random", 8)], seed=seed, on_state=seen.append)
        return [repr(a) for a in seen[-1].history]  # type: ignore[attr-defined]

    first = game(11)
    assert len(first) > 20 and game(11) == first
    st, seat = random_positions(1, seed=9)[5]
    picks = {make_bot("learned", s).act(st.clone(), seat) for s in range(5)}  # the seed never changes a pick
    assert len(picks) == 1


def test_the_policy_is_not_the_first_legal_move() -> None:
    """The network decides: over many positions it often prefers a move other than the first listed."""
    bot = make_bot("learned", 0)
    differs = sum(bot.act(st, seat) != regular_actions(st, seat)[0] for st, seat in random_positions(6, seed=2)
                  if len(regular_actions(st, seat)) > 1)
    assert differs > 10


@pytest.mark.parametrize(("preset", "players", "options", "message"), [
    ("all-fives", 2, None, r"no weights for dominoes preset 'all-fives' with 2 players; it plays: "
     r"card-muggins muggins \(2 players\), cribbage cribbage \(2 players\), dominoes muggins"),
    ("muggins", 3, None, "no weights for dominoes preset 'muggins' with 3 players"),
    ("muggins", 2, {"target": 100}, "trained on the 'muggins' preset of dominoes as it is"),
])
def test_refuses_what_it_was_not_trained_for(preset: str, players: int, options: dict[str, int] | None,
                                             message: str) -> None:
    rules = SPEC.rules(preset, options)
    with pytest.raises(RulesError, match=message):
        play_game(SPEC, rules, players, [make_bot("learned", 1)] + [make_bot("greedy", 2)] * (players - 1),
                  seed=1)


def test_refuses_other_presets_of_the_card_games_by_name() -> None:
    spec = get_game("cribbage")
    with pytest.raises(RulesError, match="bot 'learned' has no weights for cribbage preset 'cribbage-61'"):
        play_game(spec, spec.rules("cribbage-61"), 2, [make_bot("learned", 1), make_bot("greedy", 2)], seed=1)


@pytest.mark.parametrize(("game", "preset"), [("card-muggins", "muggins"), ("cribbage", "cribbage")])
def test_card_games_have_weights_and_play_legal_moves(game: str, preset: str,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "torch", None)
    learned_mod._load.cache_clear()
    assert (game, preset, 2) in learned_mod.available()
    spec = get_game(game)
    rules = spec.rules(preset)
    net = learned_mod.load_net(game, preset, 2)
    assert net.observation == encoder_for(game, rules, 2).size
    assert sum(w.size + b.size for w, b in net.layers) < 150_000
    bot = make_bot("learned", 0)
    rng = random.Random(4)
    checked = differs = 0
    for g in range(6):
        st = spec.new(rules, 2, seed=g)
        while not st.is_over() and st.waiting_for():
            seat = min(st.waiting_for())
            legal = regular_actions(st, seat)
            if seat == 0 and legal:
                a = bot.act(st, seat)
                assert a is not None and a._replace(claim=None) in legal
                assert a == with_true_claim(st, seat, a._replace(claim=None))  # perfect attention
                checked += 1
                differs += len(legal) > 1 and a._replace(claim=None) != legal[0]
            else:
                a = rng.choice(legal) if legal else None
                if a is None:
                    break
                a = with_true_claim(st, seat, a)
            st.apply(seat, a)
    assert checked > 20 and differs > 3
    result = play_game(spec, rules, 2, [Checked("learned", 1), Checked("greedy", 2)], seed=5)
    assert result.finished and result.winners


def test_play_amounts_are_the_true_points() -> None:
    amounts = PlayAmounts()
    enc = encoder_for("dominoes", RULES, 2)
    checked = scoring = 0
    for st, seat in random_positions(15, seed=1):
        c = compact_actions_of(st)
        obs = enc.encode(st, seat)
        for a in regular_actions(st, seat):
            move = c.pair_of(st, a)[0]
            pts = true_points(st, seat, a)
            got = amounts(obs[None, :], np.array([move]))[0]
            assert got == (pts + 1 if pts > 0 else 0), (a, st.view(seat)["open_ends"])
            checked += 1
            scoring += pts > 0
    assert checked > 1000 and scoring > 50


@pytest.mark.slow  # needs PyTorch, which only the learn extra installs (pip install -e '.[learn]')
def test_training_runs_a_few_steps(tmp_path: object) -> None:
    pytest.importorskip("torch")
    from muggins.dominoes.train import export, train

    net, figures = train(updates=2, num_envs=16, steps=8, hidden=8, minibatch=64)
    assert figures["updates"] == 2 and figures["steps"] == 2 * 16 * 8
    arrays = export(net, None, figures["observation"], figures["moves"])
    assert arrays["w0"].shape == (88, 8) and arrays["w2"].shape == (8, figures["moves"])
    layers = tuple((arrays[f"w{k}"], arrays[f"b{k}"]) for k in range(3))
    np_net = learned_mod.LearnedNet("dominoes", "muggins", 2, 88, figures["moves"], layers)
    with __import__("torch").no_grad():
        obs = np.random.default_rng(0).random((4, 88), dtype=np.float32)
        expected = net(__import__("torch").from_numpy(obs))[0].numpy()
    assert np.allclose(np_net.logits(obs), expected, atol=1e-5)
