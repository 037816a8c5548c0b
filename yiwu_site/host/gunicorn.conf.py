"""gunicorn's settings for `make host` (``-c``, yiwu_site/host/config.py gunicorn_argv): one hook."""

import os


def post_worker_init(worker):
    """Its app loaded: the worker moves into the release ``--chdir`` names now, which the switch waits for
    (yiwu_site/host/health.py roll)."""
    os.chdir(worker.cfg.chdir)
