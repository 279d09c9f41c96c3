"""Input and output shapes of the accounts API. Fields are listed explicitly."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from accounts.forms import USERNAME_ERRORS, USERNAME_MAX, USERNAME_MIN, UsernameValidator
from accounts.models import User, validate_time_zone
from accounts.time_zones import time_zone_resolve
from smartmate.platform.serializers import ModelSerializer


class TimeZoneInput(serializers.CharField):
    """An IANA zone, or a name students use for one ("北京时间", "CST", "UTC+8"), stored as the IANA zone."""

    def __init__(self, **kwargs) -> None:
        super().__init__(validators=[validate_time_zone], **kwargs)

    def to_internal_value(self, data) -> str:
        text = super().to_internal_value(data)
        return time_zone_resolve(text) or text


class RegisterInputSerializer(serializers.Serializer):
    username = serializers.CharField(min_length=USERNAME_MIN, max_length=USERNAME_MAX,
                                     validators=[UsernameValidator()], error_messages=USERNAME_ERRORS)
    password = serializers.CharField(min_length=1, max_length=128, write_only=True, trim_whitespace=False)
    email = serializers.EmailField(required=False, allow_blank=True, default="")
    time_zone = TimeZoneInput(required=False, default="Asia/Shanghai")


class LogoutInputSerializer(serializers.Serializer):
    refresh = serializers.CharField()


class PasswordChangeInputSerializer(serializers.Serializer):
    old_password = serializers.CharField(trim_whitespace=False, max_length=128)
    new_password = serializers.CharField(trim_whitespace=False, max_length=128)


class TokenPairOutputSerializer(serializers.Serializer):
    refresh = serializers.CharField()
    access = serializers.CharField()


class PasswordChangeOutputSerializer(TokenPairOutputSerializer):
    notices = serializers.ListField(child=serializers.CharField(),
                                    help_text="What else changed, e.g. the calendar feed's new address.")


class UserOutputSerializer(ModelSerializer):
    # A plain string: the address is optional, and "" is not a valid value of format "email" in the schema.
    email = serializers.CharField(read_only=True, help_text="The student's email address; empty when none was given.")

    class Meta:
        model = User
        fields = ["id", "username", "email", "time_zone", "token_limit", "token_usage", "token_window_started_at"]
        read_only_fields = fields


class RegisterOutputSerializer(serializers.Serializer):
    """The new account and its first token pair."""

    user = UserOutputSerializer()
    refresh = serializers.CharField()
    access = serializers.CharField()


class ProfileInputSerializer(serializers.Serializer):
    email = serializers.EmailField(required=False, allow_blank=True)
    time_zone = TimeZoneInput(required=False)


class AccountDeleteInputSerializer(serializers.Serializer):
    password = serializers.CharField(trim_whitespace=False, style={"input_type": "password"})


class AccountDeletedOutputSerializer(serializers.Serializer):
    deleted = serializers.DictField(child=serializers.IntegerField(), help_text=_("Rows deleted, by kind"))


class AccountCountsOutputSerializer(serializers.Serializer):
    counts = serializers.DictField(child=serializers.IntegerField(), help_text=_("Rows owned, by kind"))
