"""``scmj dataset`` and ``sichuan_mahjong.rl.dataset``: every decision is the AEC env's observation, mask and the
action taken, with the hand's rewards; the same seed gives the same arrays whatever ``--jobs``; the loader yields
every row once; bad arguments end with status 2 and one line naming them."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from sichuan_mahjong.cli import main
from sichuan_mahjong.game.state import Game
from sichuan_mahjong.rl import AGENTS, dataset
from sichuan_mahjong.rl.aec import raw_env
from sichuan_mahjong.rules import Rules


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("data") / "tiny"
    dataset.write(out, agents="efficient,expert,efficient,random", hands=5, rules="app", seed=3, shard_hands=2)
    return out


def test_every_decision_is_the_envs_observation_mask_and_the_action_taken(tiny: Path) -> None:
    man = dataset.manifest(tiny)
    assert man["hands"] == 5 and [s["hands"] for s in man["shards"]] == [2, 2, 1]
    data = dataset.read(tiny)
    assert len(data["action"]) == man["decisions"] == sum(s["decisions"] for s in man["shards"])
    rules = Rules.preset("app")
    for hand in range(5):  # replay each hand in the env with the recorded actions: the same rows come out
        rows = np.flatnonzero(data["hand"] == hand)
        env = raw_env(rules)
        env.reset(options={"game": Game(rules, seed=dataset.hand_seed(3, hand))})
        k = 0
        for agent in env.agent_iter():
            obs, _, terminated, _, _ = env.last()
            if terminated:
                env.step(None)
                continue
            i = rows[k]
            assert data["seat"][i] == AGENTS.index(agent)
            np.testing.assert_array_equal(data["observation"][i], obs["observation"])
            np.testing.assert_array_equal(data["action_mask"][i], obs["action_mask"])
            assert obs["action_mask"][data["action"][i]] == 1
            env.step(int(data["action"][i]))
            k += 1
        assert k == len(rows)
        deltas = env.game.result.deltas if env.game is not None else ()
        assert [float(data["reward"][i]) for i in rows] == [float(deltas[data["seat"][i]]) for i in rows]
    # points from a decision on: the final points at the seat's last decision of a hand it did not win earlier
    # are never more than the final; and at the first decision (nothing paid yet) they equal the final points
    first = np.unique(data["hand"], return_index=True)[1]
    np.testing.assert_array_equal(data["points_to_go"][first], data["reward"][first])
    assert (data["points_to_go"] != data["reward"]).any()  # kongs and 血战 wins pay during the hand


def test_the_same_seed_gives_the_same_arrays_whatever_the_jobs(tiny: Path, tmp_path: Path) -> None:
    again = dataset.write(
        tmp_path / "two", agents="efficient,expert,efficient,random", hands=5, rules="app", seed=3, jobs=2,
        shard_hands=2,
    )  # fmt: skip
    assert again["shards"] == dataset.manifest(tiny)["shards"]
    a, b = dataset.read(tiny), dataset.read(tmp_path / "two")
    for field in dataset.FIELDS:
        np.testing.assert_array_equal(a[field], b[field])
    dataset.write(tmp_path / "s4", agents="efficient,expert,efficient,random", hands=1, seed=4)
    other = dataset.read(tmp_path / "s4")
    assert not np.array_equal(other["action"][:20], a["action"][:20])


def test_the_loader_yields_every_row_once_in_batches(tiny: Path) -> None:
    data = dataset.read(tiny)
    n = len(data["action"])
    batches = list(dataset.load(tiny, batch_size=32))
    assert [len(b["action"]) for b in batches] == [32] * (n // 32) + ([n % 32] if n % 32 else [])
    np.testing.assert_array_equal(np.concatenate([b["observation"] for b in batches]), data["observation"])
    mixed = list(dataset.load(tiny / "manifest.json", batch_size=32, shuffle=True, seed=1, fields=["hand", "action"]))
    assert set(mixed[0]) == {"hand", "action"}
    order = np.concatenate([b["hand"] * 10_000 + b["action"] for b in mixed])
    assert sorted(order) == sorted(data["hand"] * 10_000 + data["action"])
    assert list(order) != list(data["hand"] * 10_000 + data["action"])
    again = np.concatenate([b["hand"] * 10_000 + b["action"] for b in dataset.load(tiny, 32, shuffle=True, seed=1)])
    np.testing.assert_array_equal(order, again)
    assert all(len(b["action"]) == 32 for b in dataset.load(tiny, 32, drop_last=True))


def test_loader_errors_are_named(tmp_path: Path, tiny: Path) -> None:
    with pytest.raises(dataset.DatasetError, match="no dataset at"):
        next(dataset.load(tmp_path / "none"))
    with pytest.raises(dataset.DatasetError, match="batch_size must be an integer of at least 1, got 0"):
        next(dataset.load(tiny, batch_size=0))
    with pytest.raises(dataset.DatasetError, match="unknown field 'obs'"):
        dataset.read(tiny, fields=["obs"])


def test_scmj_dataset_writes_a_dataset(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "cli"
    args = ["dataset", "--agent", "expert", "--hands", "3", "--rules", "app", "--out", str(out), "--seed", "1"]
    assert main(args) == 0
    printed = capsys.readouterr().out
    man = json.loads((out / "manifest.json").read_text())
    assert man["agents"] == ["expert"] * 4 and man["hands"] == 3 and man["seed"] == 1
    assert f"{man['decisions']:,} decisions of 3 hands in 1 shards written to {out}" in printed
    assert "decisions/s" in printed


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--hands", "0"], "hands must be an integer of at least 1, got 0"),
        (["--jobs", "0"], "jobs must be an integer of at least 1, got 0"),
        (["--agent", "nobody"], "unknown bot 'nobody'"),
        (["--agent", "expert,expert"], "one bot for all four seats or four, comma-separated; got 2"),
        (["--rules", "nope"], "nope"),
        (["--shard-hands", "0"], "shard_hands must be an integer of at least 1, got 0"),
    ],
)
def test_bad_arguments_end_with_status_2_naming_them(
    args: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["dataset", "--hands", "1", "--out", str(tmp_path / "x"), *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("scmj dataset: error: ") and message in err and "Traceback" not in err
    assert not (tmp_path / "x").exists()


def test_an_existing_dataset_is_not_overwritten(tiny: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = (tiny / "manifest.json").read_text()
    assert main(["dataset", "--hands", "1", "--out", str(tiny)]) == 2
    assert "exists and is not an empty directory" in capsys.readouterr().err
    assert (tiny / "manifest.json").read_text() == before
