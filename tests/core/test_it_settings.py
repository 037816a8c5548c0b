"""Settings read from the environment fail clearly, or fall back to a stated default."""

import pytest

from tests.helpers import manage
from yiwu_site import settings as settings_module

DEV = {"DJANGO_DEBUG": "1"}


def test_an_empty_database_url_means_the_sqlite_default():
    result = manage(
        "shell",
        "-c",
        "from django.conf import settings; print(settings.DATABASES['default']['ENGINE'])",
        env={**DEV, "DATABASE_URL": ""},
    )
    assert result.returncode == 0, result.stderr
    assert "django.db.backends.sqlite3" in result.stdout


def test_a_database_url_with_an_unknown_scheme_is_a_clear_configuration_error():
    result = manage("check", env={**DEV, "DATABASE_URL": "nosuchdb://x/y"})
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "DATABASE_URL" in result.stderr


def test_an_unknown_yes_no_value_names_the_variable_and_the_accepted_values():
    result = manage("check", env={"DJANGO_DEBUG": "maybe"})
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "DJANGO_DEBUG='maybe'" in result.stderr
    assert "'1'" in result.stderr
    assert "'0'" in result.stderr


@pytest.mark.parametrize(
    ("value", "expected"),
    [("1", True), ("yes", True), ("On", True), (" TRUE ", True), ("0", False), ("no", False), ("off", False)],
)
def test_yes_and_no_in_their_usual_spellings_are_read(monkeypatch, value, expected):
    monkeypatch.setenv("DJANGO_TEST_FLAG", value)
    assert settings_module.env_bool("DJANGO_TEST_FLAG", not expected) is expected


def test_an_unset_or_empty_yes_no_value_is_the_default(monkeypatch):
    monkeypatch.delenv("DJANGO_TEST_FLAG", raising=False)
    assert settings_module.env_bool("DJANGO_TEST_FLAG", True) is True
    monkeypatch.setenv("DJANGO_TEST_FLAG", "")
    assert settings_module.env_bool("DJANGO_TEST_FLAG", False) is False


def test_django_debug_is_read_with_those_spellings_when_the_settings_load():
    result = manage(
        "shell",
        "-c",
        "from django.conf import settings; print(settings.DEBUG)",
        env={"DJANGO_DEBUG": "On", "DJANGO_SECRET_KEY": "k" * 60},
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split()[-1] == "True"


INTEGER_SETTINGS = [
    "DJANGO_CONN_MAX_AGE",
    "DJANGO_HSTS_SECONDS",
    "DJANGO_TRUSTED_PROXIES",
    "DJANGO_LIMIT_WRONG_TOKENS",
    "DJANGO_LIMIT_JSON_POSTS",
    "DJANGO_LIMIT_SIGNUPS",
    "DJANGO_LIMIT_NEW_GAMES",
    "DJANGO_LIMIT_IMPORTS",
    "DJANGO_LIMIT_HANDS_PER_MINUTE",
    "DJANGO_MAX_GAMES_PER_ACCOUNT",
    "DJANGO_MAX_PEOPLE_PER_GAME",
    "DJANGO_MAX_PEOPLE_PER_GROUP",
]


@pytest.mark.parametrize("name", INTEGER_SETTINGS)
def test_an_integer_setting_that_is_not_a_number_names_its_variable(name):
    from tests.helpers import PRODUCTION

    result = manage("check", env={**PRODUCTION, name: "abc"})
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert f"{name}='abc'" in result.stderr


PEOPLE = "from django.conf import settings; print(settings.MAX_PEOPLE_PER_GAME, settings.MAX_PEOPLE_PER_GROUP)"


def test_the_people_limits_default_to_the_contracts_and_are_read_from_the_environment():
    from scoring.engine.contract import MAX_PEOPLE

    result = manage("shell", "--no-imports", "-c", PEOPLE, env=DEV)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [str(MAX_PEOPLE), "40"]
    env = {**DEV, "DJANGO_MAX_PEOPLE_PER_GAME": "8", "DJANGO_MAX_PEOPLE_PER_GROUP": "60"}
    assert manage("shell", "--no-imports", "-c", PEOPLE, env=env).stdout.split() == ["8", "60"]


@pytest.mark.parametrize("name", ["DJANGO_MAX_PEOPLE_PER_GAME", "DJANGO_MAX_PEOPLE_PER_GROUP"])
def test_a_people_limit_below_a_tables_four_is_refused_naming_its_variable(name):
    result = manage("check", env={**DEV, name: "3"})
    assert result.returncode != 0
    assert f"{name}='3' is not a whole number of at least 4" in result.stderr


def test_every_integer_setting_is_in_the_deploy_docs_settings():
    from tests.helpers import ROOT

    settings_doc = (ROOT / "docs" / "deploy.md").read_text(encoding="utf-8")
    assert [name for name in INTEGER_SETTINGS if f"`{name}`" not in settings_doc] == []


SHOW_CACHE = (
    "from django.conf import settings; c = settings.CACHES['default']; "
    "print(c['BACKEND'], c.get('LOCATION'), settings.SHARED_CACHE, 'scoring.live.QuietPollMiddleware' in settings.MIDDLEWARE)"
)


@pytest.mark.parametrize("name", ["REDIS_URL", "CACHE_URL"])
def test_a_redis_address_makes_djangos_redis_cache_the_one_every_server_shares(name):
    result = manage("shell", "--no-imports", "-c", SHOW_CACHE, env={**DEV, name: "redis://cache.internal:6379/1"})
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "yiwu_site.redis_cache.RedisCache",
        "redis://cache.internal:6379/1",
        "True",
        "True",  # quiet polls answered from Redis before the rest of the stack
    ]


def test_without_a_redis_address_each_process_keeps_djangos_default_cache():
    result = manage("shell", "--no-imports", "-c", SHOW_CACHE, env={**DEV, "REDIS_URL": "", "CACHE_URL": " "})
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "django.core.cache.backends.locmem.LocMemCache",
        "None",
        "False",
        "False",  # the stack as it always was
    ]


SHOW_BUDGETS = (
    "from django.conf import settings; c = settings.CACHES.get('budgets', {}); "
    "print(c.get('BACKEND'), c.get('LOCATION'), settings.SHARED_BUDGETS)"
)


@pytest.mark.parametrize(
    ("env", "shown"),
    [
        ({"REDIS_URL": "redis://cache.internal:6379/0"}, ["None", "None", "False"]),  # rows in the database
        (
            {"REDIS_URL": "redis://cache.internal:6379/0", "REDIS_BUDGETS_URL": "redis://budgets.internal:6380/0"},
            ["yiwu_site.redis_cache.RedisCache", "redis://budgets.internal:6380/0", "True"],
        ),
    ],
)
def test_the_budgets_counts_are_never_in_the_cache_of_pages(env, shown):
    result = manage("shell", "--no-imports", "-c", SHOW_BUDGETS, env={**DEV, **env})
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == shown


@pytest.mark.parametrize(
    ("env", "said"),
    [
        ({"REDIS_URL": "memcached://x:11211"}, "REDIS_URL='memcached://x:11211' is not a Redis address"),
        ({"CACHE_URL": "cache.internal:6379"}, "CACHE_URL='cache.internal:6379' is not a Redis address"),
        ({"REDIS_BUDGETS_URL": "budgets:6380"}, "REDIS_BUDGETS_URL='budgets:6380' is not a Redis address"),
        (
            {"REDIS_URL": "redis://a:6379/0", "CACHE_URL": "redis://b:6379/0"},
            "REDIS_URL and CACHE_URL are both set and differ",
        ),
    ],
)
def test_a_cache_address_that_cannot_be_used_stops_the_app_naming_the_variable(env, said):
    result = manage("check", env={**DEV, **env})
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert said in result.stderr


SHOW_TIMEOUTS = (
    "from django.conf import settings; print(settings.DATABASES['default']['OPTIONS'].get('connect_timeout'),"
    " settings.CACHES['default'].get('OPTIONS'))"
)


def test_postgresql_and_redis_that_do_not_answer_fail_a_request_in_seconds():
    """/readyz relies on these (scoring/ready.py; tests/core/test_it_readiness.py uses the same)."""
    from tests.core.test_it_readiness import REDIS_OPTIONS

    env = {**DEV, "DATABASE_URL": "postgres://yiwu@db.internal:5432/yiwu", "REDIS_URL": "redis://cache.internal:6379/0"}
    result = manage("shell", "--no-imports", "-c", SHOW_TIMEOUTS, env=env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == f"2 {REDIS_OPTIONS}"
    given = manage(
        "shell",
        "--no-imports",
        "-c",
        SHOW_TIMEOUTS,
        env={**env, "DATABASE_URL": env["DATABASE_URL"] + "?connect_timeout=10"},
    )
    assert given.stdout.split()[0] == "10"  # the address's own wins
