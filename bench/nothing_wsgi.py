"""A WSGI app that does nothing (204 to every request): served by gunicorn, the cost of a request
before any of the app's code runs (gunicorn's sync worker and the kernel's connection), the
floor bench/web.py sets the quiet poll beside."""


def application(environ, start_response):
    start_response("204 No Content", [])
    return [b""]
