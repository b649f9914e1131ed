"""Rules, presets and option validation (docs/rules.md R5, R10)."""

from __future__ import annotations

import pytest

import sichuan_mahjong as sm


def test_presets_cover_modes_and_app() -> None:
    assert sm.Rules.preset("seed") == sm.Rules()
    assert sm.Rules().mode == "bloody_kong"
    for mode, kongs, bloody in [
        ("standard", False, False),
        ("standard_kong", True, False),
        ("bloody", False, True),
        ("bloody_kong", True, True),
    ]:
        rules = sm.Rules.preset(mode)
        assert (rules.mode, rules.kongs_pay, rules.bloody) == (mode, kongs, bloody)
    app = sm.Rules.preset("app")
    assert app.declare_void and app.exchange_three and app.check_max and app.flower_pig
    assert (app.max_fan, app.self_draw_bonus, app.exchange_direction) == (4, "base", "dice")
    assert app.kong_shot_transfer


def test_r7_robbing_kong_fan_is_0_in_the_sources_presets_and_1_in_app() -> None:
    for name in ("seed", "standard", "standard_kong", "bloody", "bloody_kong"):
        assert sm.Rules.preset(name).robbing_kong_fan == 0, name
    assert sm.Rules.preset("app").robbing_kong_fan == 1


def test_unknown_option_and_bad_values_named() -> None:
    with pytest.raises(sm.RulesError, match="unknown option 'bogus'"):
        sm.Rules().replace(bogus=1)
    with pytest.raises(sm.RulesError, match="mode='riichi'"):
        sm.Rules(mode="riichi")
    with pytest.raises(sm.RulesError, match="unknown preset 'x'"):
        sm.Rules.preset("x")
    with pytest.raises(sm.RulesError, match="unknown extra fan 'yaku'"):
        sm.Rules(extra_fans=frozenset({"yaku"}))
    with pytest.raises(sm.RulesError, match="max_fan"):
        sm.Rules().with_options({"max_fan": "four"})


def test_options_from_text() -> None:
    rules = sm.Rules().with_options(
        {"max_fan": "4", "check_max": "yes", "extra_fans": "menqing,zhongzhang", "kong_flower_fan": "2"}
    )
    assert rules.max_fan == 4 and rules.check_max and rules.kong_flower_fan == 2
    assert rules.extra_fans == frozenset({"menqing", "zhongzhang"})
    assert rules.cap(7) == 4 and sm.Rules().cap(7) == 7
    assert sm.Rules.from_dict(rules.to_dict()) == rules
