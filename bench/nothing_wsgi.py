"""A WSGI app that answers 204: gunicorn's floor, which bench/web.py sets the quiet poll beside."""


def application(environ, start_response):
    start_response("204 No Content", [])
    return [b""]
