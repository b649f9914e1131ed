"""Tournaments: statistics and intervals, duplicate seating, determinism across back ends, and `scmj simulate`."""

from __future__ import annotations

import io
import json
import math
import re
import socket
import statistics
import sys
import threading
import types
from pathlib import Path
from typing import Any

import pytest

import sichuan_mahjong as sm
from sichuan_mahjong.cli import main
from sichuan_mahjong.sim import DealResult, PlayerOutcome, SimulationError, Summary, play_deal, run_tournament
from sichuan_mahjong.sim.runner import check_ray_address
from sichuan_mahjong.sim.stats import PlayerStats, t_quantile_975

PLAYERS = ["efficient", "random", "random", "random"]


def _strip(data: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in data.items() if k not in ("seconds", "hands_per_second")}


def test_interval_is_over_deals() -> None:
    deals = [[1.0, 3.0], [-2.0, 0.0], [4.0, 4.0], [0.0, -1.0]]
    st = PlayerStats()
    for d in deals:
        st.add_deal([PlayerOutcome(points=p) for p in d])
    means = [statistics.fmean(d) for d in deals]
    half = t_quantile_975(3) * statistics.stdev(means) / math.sqrt(4)
    assert st.mean == pytest.approx(statistics.fmean([p for d in deals for p in d]))
    assert st.ci95 == pytest.approx((st.mean - half, st.mean + half))
    assert PlayerStats().ci95 == (-math.inf, math.inf)
    other = PlayerStats()
    other.add_deal([PlayerOutcome(points=2.0, won=True, fan=3)])
    st.merge(other)
    assert (st.hands, st.deals, st.wins, st.fan_sum) == (9, 5, 1, 3)


def test_duplicate_deal_rotates_seats_and_lists_by_player() -> None:
    deal = play_deal(PLAYERS, sm.Rules(), seed=3, deal=0, duplicate=True)
    assert len(deal.hands) == 4
    for hand in deal.hands:
        assert sum(o.points for o in hand) == 0
    # The efficient bot wins far more than the random ones over the four seatings.
    assert sum(h[0].points for h in deal.hands) > 0


def test_tournament_stats_shape_and_zero_sum() -> None:
    s = run_tournament(PLAYERS, 24, duplicate=True, seed=1)
    data: Any = s.to_dict()
    assert data["hands"] == 24 and data["deals"] == 6 and data["players"] == PLAYERS
    assert sum(data["mean"]) == pytest.approx(0.0, abs=1e-9)
    assert len(data["ci95"]) == 4
    for key in ("win_rate", "self_draw_rate", "deal_in_rate", "average_fan", "check_paid_rate", "check_received_rate"):
        assert len(data[key]) == 4
    assert data["mean"][0] > 0
    assert "efficient" in s.table()


def test_same_results_inline_and_in_processes() -> None:
    one = run_tournament(PLAYERS, 16, duplicate=True, seed=5, jobs=1)
    two = run_tournament(PLAYERS, 16, duplicate=True, seed=5, jobs=2)
    assert _strip(one.to_dict()) == _strip(two.to_dict())


def test_ray_backend_on_a_local_instance() -> None:
    """Ray is a dev dependency: if it is missing this fails (no skip)."""
    import ray  # noqa: F401  (fails loudly when Ray is not installed)

    local = run_tournament(PLAYERS, 8, duplicate=True, seed=9, jobs=1)
    remote = run_tournament(PLAYERS, 8, duplicate=True, seed=9, jobs=2, backend="ray")
    assert _strip(local.to_dict()) == _strip(remote.to_dict())


def test_progress_bar_writes_to_the_stream() -> None:
    out = io.StringIO()
    run_tournament(PLAYERS, 4, seed=2, progress=out)
    assert "4/4 hands" in out.getvalue()


@pytest.mark.parametrize(
    ("players", "hands", "kwargs", "message"),
    [
        (["efficient"] * 3, 4, {}, "four players"),
        (["efficient", "random", "random", "robot"], 4, {}, "unknown bot 'robot'"),
        (PLAYERS, 6, {"duplicate": True}, "multiple of 4|in fours"),
        (PLAYERS, 0, {}, "at least 1"),
        (PLAYERS, 4, {"jobs": 0}, "jobs must be at least 1"),
        (PLAYERS, 4, {"backend": "mpi"}, "unknown back end 'mpi'"),
    ],
)
def test_bad_requests(players: list[str], hands: int, kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        run_tournament(players, hands, **kwargs)  # type: ignore[arg-type]


def test_summary_of_deals() -> None:
    deal = DealResult(1, ((PlayerOutcome(1.0), PlayerOutcome(-1.0), PlayerOutcome(0.0), PlayerOutcome(0.0)),))
    s = Summary(["a", "b", "c", "d"])
    s.add(deal)
    assert s.hands == 1 and s.to_dict()["ci95"] == [[None, None]] * 4


def test_cli_json_and_plot(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    plot = tmp_path / "out.png"
    code = main(
        ["simulate", "--hands", "8", "--players", "random,efficient,random,random", "--duplicate", "--seed", "4",
         "--json", "--plot", str(plot), "--rules", "bloody", "--option", "max_fan=3"]
    )  # fmt: skip
    out, _ = capsys.readouterr()
    assert code == 0
    data = json.loads(out)
    assert data["hands"] == 8 and data["players"] == ["random", "efficient", "random", "random"]
    assert len(data["mean"]) == 4 and all(len(ci) == 2 for ci in data["ci95"])
    assert data["rules"]["mode"] == "bloody" and data["rules"]["max_fan"] == 3
    assert plot.stat().st_size > 1000


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--hands", "6", "--duplicate"], "hands come in fours .* got 6"),
        (["--hands", "4", "--players", "efficient,random,random,robot"], "unknown bot 'robot'; bots: "),
        (["--hands", "4", "--jobs", "0"], "jobs must be at least 1, got 0"),
        (["--hands", "4", "--players", "random,random"], "four players, got 2"),
        (["--hands", "0"], "at least 1, got 0"),
        (["--hands", "4", "--address", "auto"], "--address is for --backend ray"),
        (["--hands", "4", "--option", "max_fan=x"], "max_fan"),
    ],
)
def test_cli_errors_are_one_line(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", *args]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("scmj simulate: error: ") and err.count("\n") == 1, err
    assert re.search(message, err), err


def test_ray_backend_without_ray_says_how_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` now raises ImportError, as when it is missing
    for extra in ([], ["--address", "127.0.0.1:6379"]):
        assert main(["simulate", "--hands", "4", "--backend", "ray", *extra]) == 2
        out, err = capsys.readouterr()
        assert out == "" and err.count("\n") == 1
        assert "needs Ray: pip install 'sichuan-mahjong[ray]'" in err


class _FakeRay(types.ModuleType):
    """Stands in for ray: ``init`` fails the way Ray's does, with its own error as the cause."""

    def __init__(self, cause: Exception) -> None:
        super().__init__("ray")
        self.cause = cause

    def is_initialized(self) -> bool:
        return False

    def init(self, address: str, **kwargs: object) -> None:
        raise ConnectionError(f"Failed to connect to Ray cluster at {address}") from self.cause


def _answer_as_grpc(listener: socket.socket) -> None:
    """Accept one connection and send an HTTP/2 SETTINGS frame, the first thing a gRPC server says."""
    conn, _ = listener.accept()
    with conn:
        conn.sendall(bytes([0, 0, 0, 4, 0, 0, 0, 0, 0]))


class AuthenticationError(RuntimeError):
    """Named as Ray names it (ray.exceptions.AuthenticationError)."""


@pytest.mark.parametrize(
    ("cause", "message"),
    [
        (
            AuthenticationError("RPC error: InvalidAuthToken: Authentication token is missing or incorrect."),
            "refused this client's token: set RAY_AUTH_MODE=token and give the cluster's token in RAY_AUTH_TOKEN",
        ),
        (TimeoutError("Timed out while waiting for GCS"), "cannot join the Ray cluster at .*Failed to connect"),
    ],
)
def test_ray_join_errors_are_one_line(
    cause: Exception, message: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "ray", _FakeRay(cause))
    with socket.socket() as listener:  # something answers as gRPC does, so the failure is Ray's, after the check
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        address = f"127.0.0.1:{listener.getsockname()[1]}"
        answer = threading.Thread(target=_answer_as_grpc, args=(listener,), daemon=True)
        answer.start()
        assert main(["simulate", "--hands", "4", "--backend", "ray", "--address", address]) == 2
        answer.join(timeout=10)
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1, err
    assert re.search(message, err), err


def test_address_check_says_nothing_listens() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(SimulationError, match=f"no Ray cluster answers at ray://127.0.0.1:{port} .*refused"):
        check_ray_address(f"ray://127.0.0.1:{port}")
    check_ray_address("auto")  # left to Ray: it finds the cluster this machine started
