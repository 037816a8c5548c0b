"""Optional accounts: a username and password keep 「我的牌局」 across devices."""

from django.contrib.auth import login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from scoring.access import throttle
from scoring.forms import SignupForm


def signup(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        # Per client address, never per username, so a name tried from many addresses cannot lock its owner out.
        throttle(request, "signup")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect("home")
    return render(request, "accounts/signup.html", {"form": form})
