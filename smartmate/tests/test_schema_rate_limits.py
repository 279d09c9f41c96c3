"""The OpenAPI schema documents the 429 every operation may answer, and a real 429 matches it."""

from __future__ import annotations

import jsonschema

from schedule.tests.factories import csv_bytes

METHODS = {"get", "put", "post", "patch", "delete"}


def _schema(client) -> dict:
    return client.get("/api/schema/?format=json").json()


def test_every_operation_documents_a_429_with_the_error_body_and_retry_after(client, db):
    schema = _schema(client)
    operations = [(path, method, operation) for path, item in schema["paths"].items()
                  for method, operation in item.items() if method in METHODS]
    assert len(operations) > 60
    missing = [f"{method.upper()} {path}" for path, method, operation in operations
               if "429" not in operation["responses"]]
    assert missing == []
    answer = schema["paths"]["/api/v1/schedule/import/"]["post"]["responses"]["429"]
    assert answer["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Error"}
    assert answer["headers"]["Retry-After"]["schema"] == {"type": "integer", "minimum": 0}
    assert schema["components"]["schemas"]["Error"]["required"] == ["code", "message", "detail"]


def test_a_rate_limited_import_answers_as_documented(auth_client, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "import": "1/min"}
    error_schema = _schema(auth_client)["components"]["schemas"]["Error"]
    body = {"content": csv_bytes("高等数学,1,1,2,王老师,一教101,1-16").decode(), "dry_run": True}
    assert auth_client.post("/api/v1/schedule/import/", body, format="json").status_code == 200
    response = auth_client.post("/api/v1/schedule/import/", body, format="json")
    assert response.status_code == 429
    jsonschema.validate(response.json(), error_schema)
    assert response.json()["code"] == "rate_limited"
    assert int(response["Retry-After"]) >= 0
