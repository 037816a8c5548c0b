"""What the benchmark scripts share: a timer and the production-like settings they run under."""

import time

# DEBUG off, manifest static files, plain HTTP on 127.0.0.1: production but for TLS.
PRODUCTION_ENV = {
    "DJANGO_SETTINGS_MODULE": "yiwu_site.settings",
    "DJANGO_DEBUG": "0",
    "DJANGO_SECRET_KEY": "bench-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
    "DJANGO_SECURE_SSL_REDIRECT": "0",
    "DJANGO_SECURE_COOKIES": "0",
}


def best_of(repeats: int, fn) -> float:
    """The fastest of ``repeats`` runs, in seconds: the least disturbed by the machine."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best
