"""The page's string catalogues: Chinese and English hold the same keys with the same placeholders, and every
key the page's modules name literally is in them."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

STATIC = Path(__file__).resolve().parents[2] / "src" / "sichuan_mahjong" / "server" / "static"
LANGS = ("zh", "en")
PLACEHOLDER = re.compile(r"\{(\w+)\}")
#: t("key" ...) and the key inside t(cond ? "a" : "b") written literally in the page's modules.
LITERAL_KEY = re.compile(r"""\bt\(\s*(?:[^()"`]*\?\s*)?"([a-z][a-z0-9_]*)"(?:\s*:\s*"([a-z][a-z0-9_]*)")?""")


def catalogue(lang: str) -> dict[str, str]:
    data = json.loads((STATIC / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict), f"{lang}.json must be one JSON object of key -> text"
    return data


def placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


def test_both_languages_have_the_same_keys() -> None:
    zh, en = catalogue("zh"), catalogue("en")
    assert sorted(set(zh) - set(en)) == [], "keys only in zh.json"
    assert sorted(set(en) - set(zh)) == [], "keys only in en.json"


@pytest.mark.parametrize("lang", LANGS)
def test_every_text_is_a_non_empty_string(lang: str) -> None:
    bad = [key for key, text in catalogue(lang).items() if not isinstance(text, str) or not text.strip()]
    assert bad == [], f"{lang}.json: empty or non-string texts"


def test_placeholders_match_between_languages() -> None:
    zh, en = catalogue("zh"), catalogue("en")
    differ = {key: (placeholders(zh[key]), placeholders(en[key])) for key in zh.keys() & en.keys()}
    assert {k: v for k, v in differ.items() if v[0] != v[1]} == {}


def keys_named_in_modules() -> set[str]:
    keys: set[str] = set()
    for module in STATIC.glob("*.js"):
        for match in LITERAL_KEY.finditer(module.read_text(encoding="utf-8")):
            keys.update(k for k in match.groups() if k)
    return keys


def test_every_key_the_page_names_is_in_the_catalogues() -> None:
    named = keys_named_in_modules()
    assert len(named) > 50, "the key pattern no longer finds the page's t(...) calls"
    assert sorted(named - set(catalogue("zh"))) == []


def test_every_bot_tier_has_its_name_in_both_languages() -> None:
    """The table, the history and the replay name a bot by its tier (tier_expert: 电脑·高手 / Bot · expert)."""
    import sichuan_mahjong.agents  # noqa: F401  (registers the built-in bots)
    from sichuan_mahjong.agents.base import AGENTS

    for lang in LANGS:
        words = catalogue(lang)
        assert sorted(f"tier_{tier}" for tier in AGENTS if f"tier_{tier}" not in words) == [], lang
        assert "{name}" in words["tier_other"]  # a module:factory bot, by its name


def test_the_service_worker_keeps_every_static_file() -> None:
    """sw.js lists each file of the page (a module it lacks would not load offline or from the home screen)."""
    listed = set(re.findall(r'"/([^"]+)"', (STATIC / "sw.js").read_text(encoding="utf-8")))
    files = {p.relative_to(STATIC).as_posix() for p in STATIC.rglob("*") if p.is_file() and p.name != "sw.js"}
    assert sorted(files - listed) == []


def test_the_checks_catch_a_mismatch() -> None:
    assert placeholders("第 {n}/{total} 局") != placeholders("Hand {n}")
    assert LITERAL_KEY.search('t(autoOn ? "btn_auto_off" : "btn_auto")') is not None
