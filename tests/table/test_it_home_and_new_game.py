import re

import pytest

from scoring.forms import NAME_LIMIT
from scoring.models import Game
from scoring.rulesets.yiwu.engine import Rules
from tests.helpers import NEW_GAME, game_url


def test_home_offers_a_new_game_and_lists_nothing_yet(client, db):
    response = client.get("/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "开新牌局" in html
    assert "还没有" in html


def test_new_game_form_shows_default_names_and_every_house_rule_in_chinese(client, db):
    html = client.get("/new").content.decode()
    for name in ("东家", "南家", "西家", "北家", "放铳多付", "反赔倍数", "下子封顶", "何时可买子", "允许逃跑"):
        assert name in html


def test_creating_a_game_stores_names_dealer_and_all_rules(client, db):
    response = client.post("/new", NEW_GAME)
    game = Game.objects.get()
    assert response.status_code == 302
    assert response["Location"] == game_url(game)
    assert game.players == ["老王", "小李", "阿华", "大刘"]
    assert game.first_dealer == 2
    rules = game.house_rules()
    assert (rules.base_dealer, rules.base_other) == (9, 7)
    assert rules.maizi_buy == "tenure_start"
    assert rules.discarder_extra == "double"
    assert rules.abandon_enabled is False  # an unticked switch
    # Every rule is frozen with the game, so later changes to defaults never rewrite it.
    assert set(game.rules) == set(Rules().to_dict())
    # The replay cache starts filled in: no page has to write it on a GET.
    assert game.state["table"]["dealer"] == 2
    assert game.state["last_seq"] == 0


def test_the_device_remembers_games_it_opened(client, db):
    client.post("/new", NEW_GAME)
    game = Game.objects.get()
    client.get(game_url(game))
    html = client.get("/").content.decode()
    assert all(f"<bdi>{name}</bdi> <b" in html for name in ("老王", "小李", "阿华", "大刘"))
    assert game_url(game) in html


def test_another_device_does_not_see_the_game(client, db, django_user_model):
    from django.test import Client

    client.post("/new", NEW_GAME)
    html = Client().get("/").content.decode()
    assert "老王 · 小李" not in html


def test_duplicate_names_are_refused_with_a_message(client, db):
    response = client.post("/new", {**NEW_GAME, "name1": "老王"})
    assert response.status_code == 200
    assert "名字不能重复" in response.content.decode()
    assert not Game.objects.exists()


def test_bad_rule_values_are_refused_and_nothing_is_created(client, db):
    response = client.post("/new", {**NEW_GAME, "fanpei_factor": "0", "xiazi_cap": "abc"})
    assert response.status_code == 200
    assert not Game.objects.exists()
    assert response.context["form"].errors.keys() >= {"fanpei_factor", "xiazi_cap"}


def test_an_empty_name_is_the_seats_default(client, db):
    client.post("/new", {**NEW_GAME, "name3": "", "name1": "  "})
    assert Game.objects.get().players == ["老王", "南家", "阿华", "北家"]


def test_the_names_start_empty_with_the_default_names_as_placeholders(client, db):
    html = client.get("/new").content.decode()
    for s, name in enumerate(("东家", "南家", "西家", "北家")):
        tag = re.search(rf'<input[^>]*name="name{s}"[^>]*>', html).group(0)
        assert f'placeholder="{name}"' in tag
        assert "value=" not in tag
        assert f'maxlength="{NAME_LIMIT}"' in tag  # from the form's one limit


def test_a_custom_yiwu_base_beside_the_presets(client, db):
    html = client.get("/new").content.decode()
    assert 'id="preset-custom" value="custom"' in html
    assert 'name="base_dealer"' in html
    assert 'name="base_other"' in html
    client.post("/new", {**NEW_GAME, "preset": "custom", "base_dealer": "11", "base_other": "6"})
    rules = Game.objects.get().house_rules()
    assert (rules.base_dealer, rules.base_other) == (11, 6)


def test_a_custom_base_needs_its_numbers(client, db):
    response = client.post("/new", {**NEW_GAME, "preset": "custom", "base_dealer": "", "base_other": "6"})
    assert response.status_code == 200
    assert "base_dealer" in response.context["form"].errors
    assert not Game.objects.exists()


def test_a_preset_ignores_the_custom_fields(client, db):
    client.post("/new", {**NEW_GAME, "preset": "5/3", "base_dealer": "99", "base_other": "98"})
    rules = Game.objects.get().house_rules()
    assert (rules.base_dealer, rules.base_other) == (5, 3)


@pytest.mark.parametrize("code", ["zhuji", "wuyi2"])
def test_zhuji_and_wuyi2_take_a_custom_base(client, db, code):
    html = client.get(f"/new?ruleset={code}").content.decode()
    assert 'name="base"' in html
    seats = 2 if code == "wuyi2" else 4
    data = {"ruleset": code, "preset": "custom", "base": "3", "first_dealer": "0"}
    form = client.get(f"/new?ruleset={code}").context["form"]
    tables = [field for table in form.rule_tables() for field in table["fields"]]
    for field in [*form.rule_fields(), *tables]:
        value = field.value()
        if value not in (None, False):
            data[field.name] = field.field.prepare_value(value)
    response = client.post("/new", data)
    assert response.status_code == 302, response.context["form"].errors
    game = Game.objects.get()
    assert game.house_rules().base == 3
    assert len(game.players) == seats
