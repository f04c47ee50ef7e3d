"""The training example's mechanics on a few episodes: a finite loss, candidates inside the mask, weights
that save, load and replay the same actions, a seeded run that repeats, and the evaluation's JSON. Its
strength is measured at full size in docs/rl.md, not here."""

from __future__ import annotations

import importlib.util
import json
import math
import sys
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_masked_policy.py"


@pytest.fixture(scope="module")
def ex() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_masked_policy", EXAMPLE)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_candidates_are_legal_and_claim_the_true_points(ex: ModuleType) -> None:
    env = ex.make_envs("random")[0]
    feats = ex.Features(env)
    obs, _ = env.reset(seed=3)
    for _ in range(40):
        mask = obs["action_mask"]
        ids, x = feats.candidates(mask)
        assert x.shape == (len(ids), len(ex.FEATURES)) and np.isfinite(x).all()
        assert mask[ids].all() and len(set(ids.tolist())) == len(ids)
        st = env.game_state
        for i in ids.tolist():
            if i == env.aec.let_go:
                continue
            a = st.action_from_id(env.seat, i)
            if a.kind not in ("muggins", "claim"):
                points = st.claim_for(env.seat, a._replace(claim=None))
                assert a.claim == (points or None)
        obs, _, term, trunc, _ = env.step(int(ids[0]))
        if term or trunc:
            break


def test_train_save_load_evaluate(ex: ModuleType, tmp_path: Path) -> None:
    policy = ex.Policy()
    trained = ex.train(policy, episodes=4, seed=5, batch=2)
    assert trained["losses"] and all(math.isfinite(v) for v in trained["losses"])
    assert np.isfinite(policy.w).all() and policy.w.any()  # the updates moved the weights
    again = ex.Policy()
    ex.train(again, episodes=4, seed=5, batch=2)
    np.testing.assert_array_equal(again.w, policy.w)  # a seeded run repeats
    path = tmp_path / "w.npz"
    policy.save(path)
    loaded = ex.Policy.load(path)
    np.testing.assert_array_equal(loaded.w, policy.w)
    env = ex.make_envs("random")[1]
    feats = ex.Features(env)
    first = ex.play_episode(env, feats, policy, 11, ex.greedy)
    second = ex.play_episode(env, feats, loaded, 11, ex.greedy)
    assert first["actions"] == second["actions"] and len(first["actions"]) > 10
    np.savez(tmp_path / "bad.npz", weights=np.zeros(3), features=np.array(["x"]))
    with pytest.raises(ValueError, match="other features"):
        ex.Policy.load(tmp_path / "bad.npz")


def test_main_prints_the_evaluation(ex: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "p.npz"
    result = ex.main(["--episodes", "2", "--batch", "2", "--eval-games", "2", "--seed", "1", "--out", str(out),
                      "--quiet"])
    printed = json.loads(capsys.readouterr().out)
    assert printed == result and out.exists()
    for key in ("win_rate", "win_rate_ci95", "points_per_game", "opponent_points_per_game", "wins",
                "eval_games", "episodes", "weights", "train_seconds", "final_loss"):
        assert key in printed, key
    lo, hi = printed["win_rate_ci95"]
    assert 0 <= lo <= printed["win_rate"] <= hi <= 1 and printed["eval_games"] == 2
    assert printed["points_per_game"] > 0 and set(printed["weights"]) == set(ex.FEATURES)
    reloaded = ex.main(["--episodes", "0", "--eval-games", "2", "--load", str(out), "--quiet"])
    capsys.readouterr()
    assert {k: reloaded[k] for k in ("wins", "points_per_game", "weights")} == \
        {k: result[k] for k in ("wins", "points_per_game", "weights")}


def test_wilson_interval(ex: ModuleType) -> None:
    lo, hi = ex.wilson(50, 100)
    assert lo < 0.5 < hi and abs((lo + hi) / 2 - 0.5) < 1e-9 and 0.09 < hi - lo < 0.2
    assert ex.wilson(0, 10)[0] == 0.0 and ex.wilson(10, 10)[1] == pytest.approx(1.0)
