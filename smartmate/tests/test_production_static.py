"""The installable app's routes under the production static storage (hashed names from a manifest).

Issue 33, H1: in production ``/sw.js`` answered 500 because it asked the manifest storage for the URL of
``""``, which the storage refuses; the worker never registered. Page tests ran in debug, so nothing saw it.
"""

from __future__ import annotations

import json
import re

import pytest
from django.test import override_settings

from smartmate.tests.live_server import PRODUCTION_STORAGE

HASHED = re.compile(r"^/static/css/app\.[0-9a-f]{12}\.css$")


@pytest.fixture
def production_storage(production_static):
    """This process's settings as production has them: DEBUG off, the manifest storage over collected files."""
    var_dir, _env = production_static
    storages = {"default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
                "staticfiles": {"BACKEND": PRODUCTION_STORAGE}}
    with override_settings(DEBUG=False, STORAGES=storages, STATIC_ROOT=var_dir / "staticfiles"):
        yield


def test_the_service_worker_is_served_under_the_production_storage(client, production_storage):
    response = client.get("/sw.js")
    script = response.content.decode()
    assert response.status_code == 200
    assert 'const STATIC_PREFIX = "/static/";' in script
    shell = re.search(r"const SHELL = (\[.*?\]);", script)
    assert shell is not None and any(HASHED.match(url) for url in json.loads(shell.group(1)))


def test_the_manifest_and_the_favicon_name_hashed_files_under_the_production_storage(client, production_storage):
    icons = [icon["src"] for icon in client.get("/manifest.webmanifest").json()["icons"]]
    favicon = client.get("/favicon.ico")
    assert all(re.match(r"^/static/img/icon-(192|512)\.[0-9a-f]{12}\.png$", src) for src in icons), icons
    assert favicon.status_code == 301 and re.match(r"^/static/img/favicon\.[0-9a-f]{12}\.svg$", favicon["Location"])
