"""算牌 reads the table's house rules (武义's 番数表, docs/rules/wuyi2.md §6), and every ruleset's
pattern names and values have one source: the engine's tables, which the entry sheets and 算牌
read alike (the entry sheet's side: tests/table/test_it_win_or_draw_pages.py)."""

import pytest

from scoring.engine import ScoringError
from scoring.engine.analyse import analyse, breakdown
from scoring.rulesets.wuyi2.engine import BY_CODE, LISTABLE
from scoring.rulesets.zhuji.engine.hands import TAI_NAMES, parse_tai, tai_items

ONE_SUIT = "1m 1m 1m 2m 3m 4m 5m 6m 7m 7m 8m 9m 9m 9m".split()
PAIRS = "1m 1m 2m 2m 3m 3m 4m 4m 5m 5m 6m 6m 9m 9m".split()


def wuyi2(tiles, rules=None, **context):
    request = {"ruleset": "wuyi2", "tiles": tiles, "flip": "E", **context}
    if rules is not None:
        request["rules"] = rules
    return analyse(request)


def test_the_fan_table_of_the_game_counts_and_is_shown():
    rules = {"fan": {"qingyise": 5}}
    answer = wuyi2(ONE_SUIT, rules, self_drawn=True)
    assert answer["patterns"] == ["pinghu", "qingyise"]
    assert answer["fan"] == 6
    assert breakdown(answer, "wuyi2", rules=rules) == "6 番：清一色 5 · 自摸 1"
    assert breakdown(answer, "wuyi2", zh=False, rules=rules) == "6 fan: One suit 5 · Self-draw 1"
    assert wuyi2(ONE_SUIT, self_drawn=True)["fan"] == 3  # without the table's rules: the standard 番


def test_the_fan_table_decides_which_reading_is_best():
    assert wuyi2(PAIRS)["patterns"] == ["qingqidui", "qingyise"]  # 2 + 2 beats 平胡 0 + 2
    rules = {"fan": {"qingqidui": 0, "pinghu": 3}}
    answer = wuyi2(PAIRS, rules)
    assert answer["patterns"] == ["pinghu", "qingyise"]
    assert answer["fan"] == 5


def test_the_self_draw_fan_is_the_tables_too():
    assert wuyi2(ONE_SUIT, {"fan": {"zimo": 3}}, self_drawn=True)["fan"] == 5


@pytest.mark.parametrize(
    ("rules", "field"), [({"fan": {"nope": 1}}, "fan"), ({"fan": {"qingyise": 99}}, "fan.qingyise"), (3, "rules")]
)
def test_rules_the_ruleset_would_refuse_are_refused(rules, field):
    with pytest.raises(ScoringError) as refused:
        wuyi2(ONE_SUIT, rules)
    assert refused.value.field == field


@pytest.mark.parametrize("code", [c for c in LISTABLE if BY_CODE[c].fan])
def test_wuyi2_breakdown_names_each_pattern_as_the_engine_does(code):
    pattern = BY_CODE[code]
    answer = {"complete": True, "patterns": [code], "fan": pattern.fan}
    assert breakdown(answer, "wuyi2") == f"{pattern.fan} 番：{pattern.zh} {pattern.fan}"
    assert breakdown(answer, "wuyi2", zh=False) == f"{pattern.fan} fan: {pattern.en} {pattern.fan}"


TAI = {
    "dragon_pungs": ["zhong", "fa"],
    "wind_pungs": [],
    "shape": "duiduihu",
    "hunyise": True,
    "qianggang": True,
    "gangkai": False,
    "no_caishen": False,
    "special": None,
}


@pytest.mark.parametrize("lang", [0, 1])
def test_zhuji_breakdown_names_each_tai_item_as_the_explanations_do(lang):
    answer = {"complete": True, "tai": TAI, "tai_total": 5}
    shown = breakdown(answer, "zhuji", zh=lang == 0)
    items = tai_items(parse_tai({k: v for k, v in TAI.items() if v not in (False, None, [])}), 1, 0)
    assert shown.split("：" if lang == 0 else ": ", 1)[1] == " · ".join(f"{i[lang]} {i[2]}" for i in items)
    special = breakdown({**answer, "tai": {**TAI, "special": "tianhu"}, "tai_total": 8}, "zhuji", zh=lang == 0)
    assert TAI_NAMES["tianhu"][lang] in special
