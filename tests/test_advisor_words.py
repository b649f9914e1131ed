"""The advisor's table as a player reads it: one language at a time, the tiles in the table's style, the
recommendation first, and a kong risk only where it decides something."""

from __future__ import annotations

import json
import re

from sichuan_mahjong.advisor import advise
from sichuan_mahjong.hand.melds import Meld

CJK = re.compile(r"[\u3400-\u9fff]")


def test_chinese_table_has_no_english() -> None:
    advice = advise("234s22346888p", [Meld.parse("pung 2s")], seen="6p6p", style="zh")
    text = advice.table("zh", "zh")
    assert text.splitlines()[0] == "推荐：打六筒：听二筒/五筒，剩6张，1番（打二筒听六筒/七筒只剩5张）"
    assert not re.search(r"[A-Za-z]", text), text


def test_english_table_has_no_chinese() -> None:
    text = advise("234s22346888p", [Meld.parse("pung 2s")], seen="6p6p").table("en")
    assert text.splitlines()[0].startswith("Recommendation: Discard 6p: ready")
    assert not CJK.search(text), text
    assert "discard 6p  ready" in text


def test_kong_risk_only_on_ready_rows() -> None:
    early = advise("1m4m7m2p5p8p3s6s9s1s2s3s5m5p")  # far from ready: every single tile could be konged
    assert any(r.kong_risk for r in early.rows)
    assert "kong risk" not in early.table("en")
    ready = advise("234s22346888p", [Meld.parse("pung 2s")], seen="6p6p")
    risky = [f"discard {r.discard} " for r in ready.rows if r.kong_risk and r.shanten == 0]
    marked = [line for line in ready.table("en").splitlines() if line.endswith("kong risk")]
    assert risky and [line[: len(risky[0])] for line in marked] == risky


def test_json_keeps_compact_tiles_whatever_the_style() -> None:
    data = json.loads(json.dumps(advise("234s22346888p", [Meld.parse("pung 2s")], seen="6p6p", style="zh").to_dict()))
    assert data["recommendation"]["discard"] == "6p" and data["discards"][0]["discard"] == "6p"
