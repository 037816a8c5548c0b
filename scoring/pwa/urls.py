from django.urls import path

from scoring.pwa import views as pwa

urlpatterns = [
    path("manifest.webmanifest", pwa.manifest, name="manifest"),
    path("sw.js", pwa.service_worker, name="service-worker"),
    path("offline", pwa.offline, name="offline"),
    path("big-text", pwa.big_text, name="big-text"),
]
