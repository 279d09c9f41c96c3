"""OpenAPI descriptions of the project's own authentication classes."""

from drf_spectacular.authentication import SessionScheme
from drf_spectacular.contrib.rest_framework_simplejwt import SimpleJWTScheme


class JWTInUserZoneScheme(SimpleJWTScheme):
    target_class = "smartmate.authentication.JWTAuthenticationInUserZone"


class SessionInUserZoneScheme(SessionScheme):
    target_class = "smartmate.authentication.SessionAuthenticationInUserZone"
