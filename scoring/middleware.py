"""Chinese first: the language is the one the person picked (cookie), else 简体中文.

Django's LocaleMiddleware would follow the browser's Accept-Language, which turns a borrowed
English-language phone at the table into an English page nobody there asked for.
"""

from django.conf import settings
from django.utils import translation


class ChineseFirstLocaleMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response
        self.known = {code for code, _ in settings.LANGUAGES}

    def __call__(self, request):
        chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
        language = chosen if chosen in self.known else settings.LANGUAGE_CODE
        translation.activate(language)
        request.LANGUAGE_CODE = language
        response = self.get_response(request)
        response.headers.setdefault("Content-Language", language)
        return response
