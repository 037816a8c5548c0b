"""Settings read from the environment fail clearly, or fall back to a stated default."""

from tests.web.test_it_security import manage

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


def test_yes_and_no_in_their_usual_spellings_are_read():
    for value, expected in (
        ("1", "True"),
        ("yes", "True"),
        ("On", "True"),
        ("0", "False"),
        ("no", "False"),
        ("off", "False"),
    ):
        result = manage(
            "shell",
            "-c",
            "from django.conf import settings; print(settings.DEBUG)",
            env={"DJANGO_DEBUG": value, "DJANGO_SECRET_KEY": "k" * 60},
        )
        assert result.returncode == 0, result.stderr
        assert result.stdout.split()[-1] == expected
