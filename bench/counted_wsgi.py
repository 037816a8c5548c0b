"""The app as gunicorn serves it, plus ``X-Queries`` and ``X-CPU-us`` headers for bench/load.py
(a sync worker serves one request at a time, so its process time is the request's)."""

import time

from django.db import connection

from yiwu_site.wsgi import application as app


def application(environ, start_response):
    queries = 0

    def count(execute, sql, params, many, context):
        nonlocal queries
        queries += 1
        return execute(sql, params, many, context)

    started = {}

    def later(status, headers, exc_info=None):  # held until the response is made, then sent
        started.update(status=status, headers=headers, exc_info=exc_info)

    cpu = time.process_time()
    with connection.execute_wrapper(count):
        body = app(environ, later)
    cpu_us = round((time.process_time() - cpu) * 1e6)
    headers = [*started["headers"], ("X-Queries", str(queries)), ("X-CPU-us", str(cpu_us))]
    start_response(started["status"], headers, started["exc_info"])
    return body
