"""Chinese first: the language is the one the person picked (cookie), else 简体中文, never the browser's:
a borrowed English-language phone at the table would turn every page English."""

from django.conf import settings
from django.shortcuts import render
from django.urls import reverse
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


class TooManyAttemptsMiddleware:
    """429 for a client past its guesses of game links or a budget, saying which; 403 for an account at its cap."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        from scoring.access import TooManyAttempts

        if isinstance(exception, TooManyAttempts):
            context = {"status": exception.status, "zh": exception.zh, "en": exception.en}
            match = request.resolver_match
            table = exception.kind in ("hands", "changes", "checks") and match is not None
            if not table or not match.route.startswith("g/<str:token>/"):
                return render(request, "429.html", context, status=exception.status)
            # A table page's budget: said in the page (htmx: nothing swapped, no address pushed, the form kept
            # as it was), or a whole page with the way back to the game; a reload of either does no harm.
            context |= {"game_url": reverse("game", args=[match.kwargs["token"]]), "seconds": exception.seconds}
            template = "table/_budget_note.html" if getattr(request, "htmx", False) else "429.html"
            response = render(request, template, context, status=429)
            response.headers["Retry-After"] = str(exception.seconds)
            if template != "429.html":
                response.headers["HX-Reswap"], response.headers["HX-Push-Url"] = "none", "false"
            return response
        return None


CSP = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "font-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)


class ContentSecurityPolicyMiddleware:
    """No inline script or style anywhere: htmx is configured not to inject any (base.html)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if response.status_code != 204:  # an empty poll answer is no document: keep it tiny
            response.headers.setdefault("Content-Security-Policy", CSP)
        return response


class PrivateTokenPagesMiddleware:
    """A page whose URL holds a game token is stored by no cache (a proxy's, a borrowed phone's back-forward
    store), unless its view set its own ``private`` policy (the record flow's preloaded steps)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        match = request.resolver_match
        if match is not None and "token" in match.kwargs:
            if not response.headers.get("Cache-Control", "").startswith("private, max-age="):
                response.headers["Cache-Control"] = "private, no-store"
        return response
