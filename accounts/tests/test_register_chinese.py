"""Registering in Chinese: a two-character Chinese name is a username, and every error reads as Chinese."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from accounts.models import User

pytestmark = pytest.mark.django_db

LATIN_SENTENCE = re.compile(r"[A-Za-z]{3,}(?: [A-Za-z]+){2,}")  # three English words in a row


def register(client, username: str, password: str):
    return client.post(reverse("accounts:register"), {"username": username, "password": password,
                                                      "password_again": password},
                       HTTP_ACCEPT_LANGUAGE="zh-hans")


def errors_of(response) -> list[str]:
    return re.findall(r'class="(?:field-error|form-errors)"[^>]*>(?:<p>)?([^<]+)', response.content.decode())


def test_xiaoming_registers(client):
    response = register(client, "小明", "plum-blossom-river-42")

    assert response.status_code == 302 and User.objects.filter(username="小明").exists()


@pytest.mark.parametrize(("username", "password", "expected"), [
    ("小明", "123", "密码太短了，至少需要 8 个字符。"),
    ("小明", "12345678", "密码只包含数字。"),
    ("明", "plum-blossom-river-42", "用户名至少要 2 个字。"),
    ("小 明", "plum-blossom-river-42", "用户名只能包含汉字、字母、数字和 @ . + - _。"),
])
def test_every_error_reads_as_chinese(client, username, password, expected):
    response = register(client, username, password)

    errors = errors_of(response)
    assert expected in errors, errors
    assert not [error for error in errors if LATIN_SENTENCE.search(error)], errors


def test_the_api_says_it_in_chinese_too(api_client):
    response = api_client.post(reverse("v1:auth-register"), {"username": "明", "password": "123"},
                               format="json", HTTP_ACCEPT_LANGUAGE="zh-hans")

    assert response.status_code == 400
    assert "用户名至少要 2 个字。" in str(response.json())
