"""The holding model of ``agents/reader.py``, fitted by ``scripts/fit_holding.py`` (regenerate it; do not
edit by hand).

``HOLD[void_rules]`` weighs :func:`~sichuan_mahjong.agents.reader.hold_features` (Poisson: the copies of a
kind a seat holds), with ``void_rules`` 1 under 定缺 (R3.2). Fitted on 1506340 (seat, kind) rows at every third
discard decision of 1000 hands a rule set of four experts (seed 0).
"""

from __future__ import annotations

__all__ = ["HOLD"]

HOLD: dict[int, tuple[float, ...]] = {
    0: (
        0.0551,
        0.7609,
        0.1778,
        0.2927,
        0.2998,
        0.2959,
        -0.4548,
        0.1514,
        -0.1662,
        -0.2081,
        -0.1373,
        -0.1262,
        -0.1108,
        0.0249,
        -0.6956,
        0.2885,
        0.0087,
        -0.1465,
        -0.0516,
        -1.0041,
        0.0,
        0.1273,
        0.0,
        -0.2035,
        -0.238,
        -0.1867,
        0.1101,
    ),
    1: (
        -0.0249,
        0.7398,
        0.147,
        0.2406,
        0.2401,
        0.2338,
        -0.2986,
        0.029,
        -0.1701,
        -0.1267,
        -0.1349,
        -0.0672,
        -0.0826,
        0.047,
        -0.0203,
        -0.331,
        0.0526,
        0.1424,
        -0.4327,
        -0.0475,
        -1.7514,
        0.1171,
        0.0579,
        -0.1154,
        -0.163,
        -0.2335,
        0.1402,
    ),
}
