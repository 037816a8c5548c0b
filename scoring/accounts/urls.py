from django.contrib.auth import views as auth_views
from django.urls import path

from scoring.accounts import views as accounts
from scoring.forms import LoginForm

urlpatterns = [
    path("accounts/signup", accounts.signup, name="signup"),
    path(
        "accounts/login",
        auth_views.LoginView.as_view(authentication_form=LoginForm, template_name="accounts/login.html"),
        name="login",
    ),
    path("accounts/logout", auth_views.LogoutView.as_view(), name="logout"),
]
