"""One settings file, read from the environment (docs/deploy.md "Settings" lists every variable)."""

import os
import tempfile
from datetime import timedelta
from email.utils import parseaddr
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from yiwu_site import lan

BASE_DIR = Path(__file__).resolve().parent.parent


TRUE, FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off")


def env_bool(name: str, default: bool) -> bool:
    """Unset or empty: the default. Anything but the usual yes/no spellings is an error."""
    value = os.environ.get(name, "").strip().lower()
    if not value:
        return default
    if value not in TRUE + FALSE:
        raise ImproperlyConfigured(
            f"{name}={os.environ[name]!r} is neither yes nor no: use one of {', '.join(map(repr, TRUE + FALSE))}."
        )
    return value in TRUE


def env_int(name: str, default: int, minimum: int = 0) -> int:
    """Unset or empty: the default; anything but a whole number from ``minimum`` up is an error."""
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    if not (value.isascii() and value.lstrip("-").isdigit()) or int(value) < minimum:
        raise ImproperlyConfigured(f"{name}={os.environ[name]!r} is not a whole number of at least {minimum}.")
    return int(value)


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DJANGO_DEBUG", False)
# pytest sets PYTEST_VERSION for the whole session: tests run with a throwaway key.
TESTING = "PYTEST_VERSION" in os.environ
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not (DEBUG or TESTING):
        raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off.")
    SECRET_KEY = "insecure-dev-only-key-never-use-in-production"

# `make run` (yiwu_site/table_server.py): debug off, plain HTTP to the phones on the table's Wi-Fi.
LAN_SERVER = env_bool("DJANGO_LAN_SERVER", False)
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", "127.0.0.1,localhost" if DEBUG or TESTING or LAN_SERVER else "")
# The machine's LAN addresses are allowed too, and shown as a link and a QR (yiwu_site/lan.py).
LAN_ADDRESSES = lan.lan_addresses() if (DEBUG or LAN_SERVER) and not TESTING else []
if DEBUG or LAN_SERVER:
    ALLOWED_HOSTS = lan.debug_allowed_hosts(ALLOWED_HOSTS, LAN_ADDRESSES)
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "crispy_forms",
    "crispy_bootstrap5",
    "axes",
    "scoring",
    "scoring.table",
    "scoring.groups",
    "scoring.settle",
    "scoring.records",
    "scoring.analyse",
    "scoring.api",
    "scoring.pwa",
    "scoring.accounts",
    "scoring.nights",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "scoring.middleware.ContentSecurityPolicyMiddleware",
    "scoring.middleware.PrivateTokenPagesMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Pages gzipped: a tap on a weak link waits for fewer bytes (docs/performance.md).
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "scoring.middleware.ChineseFirstLocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "scoring.middleware.TooManyAttemptsMiddleware",
    "axes.middleware.AxesMiddleware",  # last: answers 429 for a locked-out login
]

ROOT_URLCONF = "yiwu_site.urls"
WSGI_APPLICATION = "yiwu_site.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "OPTIONS": {
            # The project's templates, the apps' and each ruleset's own; the partials' loader first.
            "loaders": [
                (
                    "template_partials.loader.Loader",
                    [
                        (
                            "django.template.loaders.cached.Loader",
                            [
                                "django.template.loaders.filesystem.Loader",
                                "django.template.loaders.app_directories.Loader",
                                "scoring.rulesets.loader.Loader",
                            ],
                        )
                    ],
                )
            ],
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "scoring.device.context",
            ],
        },
    },
]

# Unset or empty: SQLite in the project folder (docs/deploy.md, "Settings").
DATABASE_URL = os.environ.get("DATABASE_URL", "").strip() or f"sqlite:///{BASE_DIR / 'db.sqlite3'}"
conn_max_age = env_int("DJANGO_CONN_MAX_AGE", 60)
try:
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=conn_max_age, conn_health_checks=True)}
except ValueError as error:  # an unknown scheme or a bad port
    raise ImproperlyConfigured(f"DATABASE_URL is not usable: {error}") from None
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several phones write at once: each write takes the lock up front and the others wait.
    DATABASES["default"].setdefault("OPTIONS", {}).update({"timeout": 20, "transaction_mode": "IMMEDIATE"})
    # A file, not shared-cache memory (which ignores the timeout), so concurrency tests wait like requests.
    DATABASES["default"]["TEST"] = {"NAME": str(Path(tempfile.gettempdir()) / f"yiwu-test-{os.getpid()}.sqlite3")}
elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # A silent database fails a request (and /readyz) in 2 s, not psycopg's 130 s.
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault("connect_timeout", 2)


def env_cache_url(names: tuple[str, ...] = ("REDIS_URL", "CACHE_URL")) -> str:
    """REDIS_URL or CACHE_URL (either name; both set must agree), or "" for none."""
    urls = {name: os.environ.get(name, "").strip() for name in names}
    given = {name: url for name, url in urls.items() if url}
    if len(set(given.values())) > 1:
        raise ImproperlyConfigured("REDIS_URL and CACHE_URL are both set and differ: set one of them.")
    for name, url in given.items():
        if url.partition("://")[0] not in ("redis", "rediss", "unix"):
            raise ImproperlyConfigured(f"{name}={url!r} is not a Redis address (redis://host:6379/0).")
    return next(iter(given.values()), "")


def redis_cache(url: str) -> dict:
    # A Redis that stops answering fails the request in a second, not at the OS timeout.
    options = {"socket_connect_timeout": 1, "socket_timeout": 1}
    return {"BACKEND": "yiwu_site.redis_cache.RedisCache", "LOCATION": url, "OPTIONS": options}


def with_quiet_polls(middleware: list[str]) -> list[str]:
    """With the shared cache, a quiet poll is answered right below SecurityMiddleware (scoring/live.py)."""
    security = middleware.index("django.middleware.security.SecurityMiddleware")
    return [*middleware[: security + 1], "scoring.live.QuietPollMiddleware", *middleware[security + 1 :]]


# Several app servers (docs/deploy.md): with a Redis address, the one cache every process shares.
CACHE_URL = env_cache_url()
SHARED_CACHE = bool(CACHE_URL)
CACHES = {
    "default": redis_cache(CACHE_URL) if SHARED_CACHE else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
}
if SHARED_CACHE:
    MIDDLEWARE = with_quiet_polls(MIDDLEWARE)
# The budgets' counts (scoring/access.py) must not be evicted by what a client makes the cache hold:
# database rows, or a noeviction Redis (docs/deploy.md).
BUDGETS_URL = env_cache_url(("REDIS_BUDGETS_URL",))
SHARED_BUDGETS = bool(BUDGETS_URL)
if SHARED_BUDGETS:
    CACHES["budgets"] = redis_cache(BUDGETS_URL)

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LANGUAGE_CODE = "zh-hans"
LANGUAGES = [("zh-hans", "简体中文"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = os.environ.get("DJANGO_TIME_ZONE", "Asia/Shanghai")
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = Path(os.environ.get("DJANGO_STATIC_ROOT") or BASE_DIR / "staticfiles")  # where collectstatic writes
STATICFILES_DIRS = [BASE_DIR / "static"]


def static_files(collected: bool) -> dict:
    """How static files are served: ``collected`` as production does (fingerprinted, gzipped, a year's
    cache), else each file as it is in static/ (figures: docs/performance.md)."""
    if collected:
        backend, autorefresh, finders = "yiwu_site.staticfiles.CollectedStaticFiles", False, False
    else:
        backend, autorefresh, finders = "django.contrib.staticfiles.storage.StaticFilesStorage", DEBUG or TESTING, DEBUG
    return {
        "STORAGES": {
            "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
            "staticfiles": {"BACKEND": backend},
        },
        "WHITENOISE_AUTOREFRESH": autorefresh,
        "WHITENOISE_USE_FINDERS": finders,
    }


COLLECTED_STATIC = not (DEBUG or TESTING) or env_bool("DJANGO_COLLECTED_STATIC", False)
STORAGES, WHITENOISE_AUTOREFRESH, WHITENOISE_USE_FINDERS = static_files(COLLECTED_STATIC).values()

# A request may carry the largest backup (docs/contract.md "A backup") and its form; uploads stay in memory.
DATA_UPLOAD_MAX_MEMORY_SIZE = FILE_UPLOAD_MAX_MEMORY_SIZE = 11 * 1024 * 1024

CRISPY_ALLOWED_TEMPLATE_PACKS = "bootstrap5"
CRISPY_TEMPLATE_PACK = "bootstrap5"

PASSWORD_HASHERS = (
    ["django.contrib.auth.hashers.MD5PasswordHasher"]
    if TESTING
    else ["django.contrib.auth.hashers.PBKDF2PasswordHasher"]
)

SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# Behind a reverse proxy that terminates HTTPS (docs/deploy.md).
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# A balancer asks each app server for these over plain HTTP (docs/deploy.md, "Readiness").
SECURE_REDIRECT_EXEMPT = [r"^(healthz|readyz)$"]
# The header holding the client's address behind a proxy, and how many proxies append to it
# (scoring/access.py client_of).
CLIENT_IP_HEADER = os.environ.get("DJANGO_CLIENT_IP_HEADER", "").strip()
TRUSTED_PROXIES = env_int("DJANGO_TRUSTED_PROXIES", 1, minimum=1)
# Budgets per 10 minutes, per client or account (scoring/access.py); confirmed writes per game per
# minute. No real table comes near them.
RATE_LIMITS = {
    "miss": env_int("DJANGO_LIMIT_WRONG_TOKENS", 30, minimum=1),
    "anon": env_int("DJANGO_LIMIT_JSON_POSTS", 60, minimum=1),
    "signup": env_int("DJANGO_LIMIT_SIGNUPS", 10, minimum=1),
    "games": env_int("DJANGO_LIMIT_NEW_GAMES", 30, minimum=1),
    "imports": env_int("DJANGO_LIMIT_IMPORTS", 10, minimum=1),
    "hands": env_int("DJANGO_LIMIT_HANDS_PER_MINUTE", 20, minimum=1),
    "changes": env_int("DJANGO_LIMIT_CHANGES_PER_MINUTE", 30, minimum=1),
    "checks": env_int("DJANGO_LIMIT_CHECKS_PER_MINUTE", 60, minimum=1),  # 核对 taps, per person and game
    "paycodes": env_int("DJANGO_LIMIT_PAYCODE_UPLOADS", 20, minimum=1),  # 收款码 screenshots read
}
MAX_GAMES_PER_ACCOUNT = env_int("DJANGO_MAX_GAMES_PER_ACCOUNT", 1000, minimum=1)
# People per game and per 牌友圈; a real evening has 4-8 (docs/contract.md "People and seats").
MAX_PEOPLE_PER_GAME = env_int("DJANGO_MAX_PEOPLE_PER_GAME", 16, minimum=4)
MAX_PEOPLE_PER_GROUP = env_int("DJANGO_MAX_PEOPLE_PER_GROUP", 40, minimum=4)
if not DEBUG and not TESTING:
    # HTTPS behind a proxy by default; the table's own server (LAN_SERVER) speaks plain HTTP on the Wi-Fi.
    https = not LAN_SERVER
    SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", https)
    SECURE_HSTS_SECONDS = env_int("DJANGO_HSTS_SECONDS", 365 * 24 * 3600 if https else 0)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_HSTS_INCLUDE_SUBDOMAINS", https)
    SECURE_HSTS_PRELOAD = env_bool("DJANGO_HSTS_PRELOAD", https)
    SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = env_bool("DJANGO_SECURE_COOKIES", https)


def env_admins(name: str) -> list[tuple[str, str]]:
    """ "Name <email>, other@example.com" → [("Name", "email"), ("", "other@example.com")]."""
    admins = []
    for item in env_list(name):
        real_name, address = parseaddr(item)
        if "@" not in address:
            raise ImproperlyConfigured(f"{name}: {item!r} is not an e-mail address (use Name <email>, ...).")
        admins.append((real_name, address))
    return admins


# With debug off, stderr gets every warning and error and each 500 (mailed to ADMINS too); 4xx are
# the app's answers to a phone and hold the game's link, so not logged. tests/core/test_it_logging.py.
ADMINS = env_admins("DJANGO_ADMINS")
SERVER_EMAIL = os.environ.get("DJANGO_SERVER_EMAIL", "root@localhost")
EMAIL_HOST = os.environ.get("DJANGO_EMAIL_HOST", "localhost")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "{asctime} {levelname} {name}: {message}", "style": "{"},
        "django.server": {
            "()": "django.utils.log.ServerFormatter",
            "format": "[{server_time}] {message}",
            "style": "{",
        },
    },
    "filters": {"require_debug_false": {"()": "django.utils.log.RequireDebugFalse"}},
    "handlers": {
        "stderr": {"class": "logging.StreamHandler", "stream": "ext://sys.stderr", "formatter": "plain"},
        "mail_admins": {
            "class": "django.utils.log.AdminEmailHandler",
            "level": "ERROR",
            "filters": ["require_debug_false"],
        },
        "django.server": {"class": "logging.StreamHandler", "formatter": "django.server"},
    },
    "root": {"handlers": ["stderr"], "level": "WARNING"},
    "loggers": {
        "django": {"handlers": ["stderr", "mail_admins"], "level": "INFO" if DEBUG else "WARNING", "propagate": False},
        "django.request": {"handlers": ["stderr", "mail_admins"], "level": "ERROR", "propagate": False},
        "django.security": {"handlers": ["stderr"], "level": "WARNING", "propagate": False},
        # runserver's request lines, as Django's own logging has them (naming "django" resets them)
        "django.server": {"handlers": ["django.server"], "level": "INFO", "propagate": False},
    },
}

# Passwords of the optional accounts (the sign-up form shows each validator's message).
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "scoring.forms.MinimumLengthValidator"},  # Django's, with a Chinese message
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Failed logins (django-axes): 10 per username and client lock that pair out for 15 minutes.
AUTHENTICATION_BACKENDS = ["axes.backends.AxesStandaloneBackend", "django.contrib.auth.backends.ModelBackend"]
AXES_FAILURE_LIMIT = 10
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_LOCKOUT_TEMPLATE = "accounts/locked_out.html"
AXES_CLIENT_IP_CALLABLE = "scoring.access.client_ip"
AXES_RESET_ON_SUCCESS = True

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"
