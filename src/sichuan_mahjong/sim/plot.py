"""A picture of a tournament: mean points per hand with 95% intervals, and win / self-draw / deal-in rates.

matplotlib is an optional extra (``pip install 'sichuan-mahjong[sim]'``); it is imported only here, with the
file-only Agg back end, so a run on a server without a display works.
"""

from __future__ import annotations

import importlib.util
import tempfile
from pathlib import Path

from sichuan_mahjong.sim.runner import SimulationError
from sichuan_mahjong.sim.stats import Summary

__all__ = ["PLOT_SUFFIXES", "check_plot_path", "plot_summary"]

#: The formats a plot can be written in, by the file name's suffix.
PLOT_SUFFIXES = (".png", ".svg", ".pdf")
_NEEDS_MATPLOTLIB = "--plot needs matplotlib: pip install 'sichuan-mahjong[sim]'"


def check_plot_path(path: str | Path) -> Path:
    """Make sure a plot can be written at ``path`` before any hand is played; its folder is created if missing.

    The name must end in one of :data:`PLOT_SUFFIXES` (the file written is exactly the one named).
    """
    path = Path(path)
    if path.suffix.lower() not in PLOT_SUFFIXES:
        raise SimulationError(f"--plot {path}: the file name must end in {', '.join(PLOT_SUFFIXES)}")
    if importlib.util.find_spec("matplotlib") is None:
        raise SimulationError(_NEEDS_MATPLOTLIB)
    if path.is_dir():
        raise SimulationError(f"--plot {path}: is a folder")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=path.parent):
            pass
    except OSError as exc:
        raise SimulationError(f"--plot {path}: cannot write there ({exc.strerror or exc})") from None
    return path


def plot_summary(summary: Summary, path: str | Path) -> Path:
    """Write the plot to ``path`` (the format follows the suffix: .png, .svg, .pdf) and return the path."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise SimulationError(_NEEDS_MATPLOTLIB) from None
    path = Path(path)
    labels = [f"{i + 1}. {name}" for i, name in enumerate(summary.players)]
    stats = summary.stats
    means = [s.mean for s in stats]
    errors = [[s.mean - s.ci95[0] for s in stats], [s.ci95[1] - s.mean for s in stats]]
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4))
    ax1.bar(labels, means, yerr=errors, capsize=6, color=["#3b75af" if m >= 0 else "#c44e52" for m in means])
    ax1.axhline(0, color="black", linewidth=0.8)
    ax1.set_ylabel("points per hand (x base), 95% CI")
    dup = ", duplicate deals" if summary.duplicate else ""
    ax1.set_title(f"{summary.hands} hands{dup}")
    width = 0.27
    xs = range(len(labels))
    for k, (name, values) in enumerate(
        [
            ("win", [s.rate(s.wins) for s in stats]),
            ("self-draw", [s.rate(s.self_draws) for s in stats]),
            ("deal-in", [s.rate(s.deal_ins) for s in stats]),
        ]
    ):
        ax2.bar([x + (k - 1) * width for x in xs], values, width, label=name)
    ax2.set_xticks(list(xs), labels)
    ax2.set_ylabel("share of hands")
    ax2.legend()
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    suffix = path.suffix.lower()
    fig.savefig(path, format=suffix[1:] if suffix in PLOT_SUFFIXES else None)
    plt.close(fig)
    return path
