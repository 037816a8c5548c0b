"""The app exactly as gunicorn serves it, plus one response header for bench/load.py:
``X-Queries``, how many database queries the request made (counted around each one by
Django's execute_wrapper; nothing else changes)."""

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

    with connection.execute_wrapper(count):
        body = app(environ, later)
    start_response(started["status"], [*started["headers"], ("X-Queries", str(queries))], started["exc_info"])
    return body
