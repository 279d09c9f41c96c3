"""X-Idempotency-Key on write endpoints: replay the first answer, refuse a reused or busy key."""

from __future__ import annotations

import threading
from datetime import datetime, timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone
from rest_framework.response import Response
from rest_framework.test import APIRequestFactory, force_authenticate
from rest_framework.views import APIView

from schedule.models import ChangeSet, Course, ScheduleEvent
from schedule.tests.factories import csv_bytes, custom_event
from smartmate.platform.idempotency import idempotent, request_fingerprint
from smartmate.platform.models import IdempotencyRecord

EVENTS = "/api/v1/schedule/events/"
CLUB = {"title": "社团活动", "week": 3, "day": 2, "start_section": 5, "end_section": 6}


def post_event(client, key: str | None, body: dict = CLUB):
    headers = {"HTTP_X_IDEMPOTENCY_KEY": key} if key is not None else {}
    return client.post(EVENTS, body, format="json", **headers)


def in_progress(user, *, key: str, started: datetime, body: dict = CLUB) -> IdempotencyRecord:
    request = APIRequestFactory().post(EVENTS, body, format="json")
    from rest_framework.parsers import JSONParser
    from rest_framework.request import Request

    fingerprint = request_fingerprint(Request(request, parsers=[JSONParser()]))
    return IdempotencyRecord.objects.create(user=user, key=key, fingerprint=fingerprint, method="POST", path=EVENTS,
                                            locked_at=started, expires_at=started + timedelta(hours=24))


def test_a_retried_create_is_replayed_without_a_second_event(auth_client, user):
    first = post_event(auth_client, "create-club-1")
    again = post_event(auth_client, "create-club-1")
    assert (first.status_code, again.status_code) == (201, 201)
    assert again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true" and not first.has_header("Idempotent-Replayed")
    assert ScheduleEvent.objects.filter(user=user).count() == 1


def test_a_write_without_a_key_runs_every_time(auth_client, user):
    assert post_event(auth_client, None).status_code == 201
    assert post_event(auth_client, None).status_code == 409  # the slot is taken by the first one
    assert not IdempotencyRecord.objects.exists()


def test_the_same_key_for_a_different_request_is_a_422(auth_client):
    post_event(auth_client, "k1")
    response = post_event(auth_client, "k1", {**CLUB, "title": "家教"})
    assert response.status_code == 422
    assert response.json() == {"code": "idempotency_key_mismatch",
                               "message": "This idempotency key was already used for a different request.",
                               "detail": {"method": "POST", "path": EVENTS}}


def test_the_same_key_on_another_endpoint_is_a_422(auth_client):
    post_event(auth_client, "k1")
    response = auth_client.patch("/api/v1/me/", {"display_name": "小林"}, format="json", HTTP_X_IDEMPOTENCY_KEY="k1")
    assert response.status_code == 422


def test_the_same_key_while_the_first_request_runs_is_a_409(auth_client, user):
    in_progress(user, key="busy", started=timezone.now())
    response = post_event(auth_client, "busy")
    assert response.status_code == 409
    assert response.json()["code"] == "idempotency_key_in_progress"
    assert response.json()["message"] == "A request with this idempotency key is still being processed. Retry later."
    assert not ScheduleEvent.objects.exists()


def test_an_abandoned_request_runs_again_under_its_key(auth_client, user, settings):
    in_progress(user, key="crashed", started=timezone.now() - timedelta(seconds=settings.IDEMPOTENCY_LOCK_TIMEOUT + 1))
    assert post_event(auth_client, "crashed").status_code == 201
    assert IdempotencyRecord.objects.get().status == IdempotencyRecord.Status.DONE


@pytest.mark.parametrize("key", ["", "k" * 256])
def test_an_empty_or_overlong_key_is_a_400(auth_client, key):
    response = post_event(auth_client, key)
    assert response.status_code == 400
    assert response.json()["code"] == "idempotency_key_invalid"
    assert response.json()["message"] == "The X-Idempotency-Key header must be 1 to 255 characters long."
    assert not ScheduleEvent.objects.exists()


def test_keys_belong_to_one_user(auth_client, other_user, api_client):
    post_event(auth_client, "shared-key")
    api_client.force_authenticate(other_user)
    response = post_event(api_client, "shared-key")
    assert response.status_code == 201 and not response.has_header("Idempotent-Replayed")
    assert ScheduleEvent.objects.count() == 2


def test_a_client_error_is_kept_and_replayed(auth_client):
    bad = {**CLUB, "start_section": 13, "end_section": 14}
    first = post_event(auth_client, "bad-1", bad)
    again = post_event(auth_client, "bad-1", bad)
    assert (first.status_code, again.status_code) == (400, 400)
    assert again.json() == first.json() and again["Idempotent-Replayed"] == "true"


def test_a_conflict_is_not_kept_so_a_retry_runs_again(auth_client, user):
    event = custom_event(user)
    assert post_event(auth_client, "clash").status_code == 409
    event.delete()
    assert post_event(auth_client, "clash").status_code == 201


def test_an_expired_record_is_forgotten(auth_client, user):
    post_event(auth_client, "old")
    IdempotencyRecord.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    ScheduleEvent.objects.all().delete()
    response = post_event(auth_client, "old")
    assert response.status_code == 201 and not response.has_header("Idempotent-Replayed")


def test_a_repeated_delete_replays_its_answer_and_makes_no_second_change(auth_client, user):
    event = custom_event(user)
    url = f"/api/v1/schedule/events/{event.pk}/"
    first = auth_client.delete(url, HTTP_X_IDEMPOTENCY_KEY="del")
    assert first.status_code == 200 and first.json()["deleted"] == 1
    again = auth_client.delete(url, HTTP_X_IDEMPOTENCY_KEY="del")
    assert again.status_code == 200 and again["Idempotent-Replayed"] == "true"
    assert again.json()["changeset_id"] == first.json()["changeset_id"]
    assert ChangeSet.objects.filter(user=user).count() == 1


def test_a_retried_upload_import_is_replayed(auth_client, user):
    data = csv_bytes("高等数学,1,1,2,王老师,一教101,1-16")

    def upload():
        return auth_client.post("/api/v1/schedule/import/", {"file": SimpleUploadedFile("t.csv", data)},
                                format="multipart", HTTP_X_IDEMPOTENCY_KEY="import-1")

    assert upload().status_code == 201
    assert upload()["Idempotent-Replayed"] == "true"
    assert Course.objects.filter(user=user).count() == 1


def test_a_rejected_import_is_not_kept_so_a_retry_runs_again(auth_client, user):
    # The import endpoint opts out of keeping refusals: their answer lists problems and can be large.
    data = csv_bytes("大学物理,9,3,4,刘海燕,二教3108,1-16")

    def upload():
        return auth_client.post("/api/v1/schedule/import/", {"file": SimpleUploadedFile("t.csv", data)},
                                format="multipart", HTTP_X_IDEMPOTENCY_KEY="import-bad")

    first, again = upload(), upload()
    assert (first.status_code, again.status_code) == (400, 400)
    assert not again.has_header("Idempotent-Replayed")
    assert not IdempotencyRecord.objects.filter(key="import-bad").exists()


class Refusing(APIView):
    calls = 0

    @idempotent(store_errors=False)
    def post(self, request):
        Refusing.calls += 1
        return Response({"code": "invalid"}, status=400 if request.data.get("bad") else 201)


def _post_refusing(user, body: dict):
    request = APIRequestFactory().post("/refusing/", body, format="json", HTTP_X_IDEMPOTENCY_KEY="refusing")
    force_authenticate(request, user)
    return Refusing.as_view()(request)


def test_without_stored_errors_a_refusal_frees_the_key_and_a_success_is_kept(user):
    Refusing.calls = 0
    assert [_post_refusing(user, {"bad": True}).status_code for _ in range(2)] == [400, 400]
    assert Refusing.calls == 2 and not IdempotencyRecord.objects.exists()
    assert [_post_refusing(user, {}).status_code for _ in range(2)] == [201, 201]
    assert Refusing.calls == 3 and IdempotencyRecord.objects.get().response_status == 201


def test_a_retried_profile_change_is_replayed(auth_client):
    patched = [auth_client.patch("/api/v1/me/", {"display_name": "小林"}, format="json",
                                 HTTP_X_IDEMPOTENCY_KEY="me-1") for _ in range(2)]
    assert [response.status_code for response in patched] == [200, 200]
    assert patched[1]["Idempotent-Replayed"] == "true"


def test_the_schema_documents_the_header(client, db):
    paths = client.get("/api/schema/?format=json").json()["paths"]
    parameters = paths["/api/v1/schedule/events/"]["post"]["parameters"]
    assert {"in": "header", "name": "X-Idempotency-Key"}.items() <= parameters[0].items()


class Exploding(APIView):
    @idempotent
    def post(self, request):
        raise RuntimeError("database gone")


def test_a_server_error_is_not_kept(user):
    request = APIRequestFactory().post("/x/", {}, format="json", HTTP_X_IDEMPOTENCY_KEY="boom")
    force_authenticate(request, user)
    with pytest.raises(RuntimeError, match="database gone"):
        Exploding.as_view()(request)
    assert not IdempotencyRecord.objects.exists()


class Slow(APIView):
    started = threading.Event()
    release = threading.Event()

    @idempotent
    def post(self, request):
        Slow.started.set()
        Slow.release.wait(10)
        return Response({"ok": True}, status=201)


def test_two_concurrent_requests_with_one_key_run_once(transactional_db, user):
    from django.db import connection

    def call():
        request = APIRequestFactory().post("/slow/", {"n": 1}, format="json", HTTP_X_IDEMPOTENCY_KEY="twin")
        force_authenticate(request, user)
        return Slow.as_view()(request)

    results = {}
    first = threading.Thread(target=lambda: (results.setdefault("first", call()), connection.close()))
    first.start()
    assert Slow.started.wait(10)
    results["second"] = call()
    Slow.release.set()
    first.join(10)
    assert (results["first"].status_code, results["second"].status_code) == (201, 409)
    assert call()["Idempotent-Replayed"] == "true"
