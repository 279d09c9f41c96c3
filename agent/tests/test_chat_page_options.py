"""The chat page's server-rendered parts: the task-class picker, the toggles, the texts and the vendored scripts."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from taskclasses.tests.factories import make_task_class

pytestmark = pytest.mark.django_db


class _Inputs(HTMLParser):
    """Collect the page's <input> and <script src> tags as attribute dicts."""

    def __init__(self) -> None:
        super().__init__()
        self.inputs: list[dict[str, str | None]] = []
        self.scripts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "input":
            self.inputs.append(dict(attrs))
        elif tag == "script" and dict(attrs).get("src"):
            self.scripts.append(str(dict(attrs)["src"]))


def _page(client, language: str = "en") -> tuple[str, _Inputs]:
    html = client.get("/assistant/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    parsed = _Inputs()
    parsed.feed(html)
    return html, parsed


def _json_blob(html: str, element_id: str) -> dict:
    opening = f'<script id="{element_id}" type="application/json">'
    start = html.index(opening) + len(opening)
    return json.loads(html[start:html.index("</script>", start)])


def test_the_picker_lists_only_the_students_own_task_classes(client, user, other_user):
    linear = make_task_class(user, name="线性代数复习")
    english = make_task_class(user, name="英语六级")
    make_task_class(other_user, name="别人的计划")
    client.force_login(user)

    html, page = _page(client)

    boxes = [tag for tag in page.inputs if tag.get("name") == "task_class_ids"]
    assert sorted(box["value"] for box in boxes) == sorted([str(linear.pk), str(english.pk)])
    assert all(box["type"] == "checkbox" and "checked" not in box for box in boxes)
    assert "线性代数复习" in html and "英语六级" in html
    assert "别人的计划" not in html


def test_without_task_classes_the_picker_links_to_creating_one(client, user):
    client.force_login(user)
    html, page = _page(client)
    assert not [tag for tag in page.inputs if tag.get("name") == "task_class_ids"]
    assert 'data-test="chat-no-task-classes"' in html
    assert 'href="/plans/"' in html


def test_thinking_defaults_to_auto_and_always_execute_is_off_with_a_warning(client, user):
    client.force_login(user)
    html, page = _page(client)

    thinking = {tag["value"]: "checked" in tag for tag in page.inputs if tag.get("name") == "thinking"}
    assert thinking == {"auto": True, "on": False, "off": False}
    always = next(tag for tag in page.inputs if tag.get("id") == "chat-always-execute")
    assert always["type"] == "checkbox" and "checked" not in always
    assert ("the assistant changes your schedule without asking you to confirm each change first" in html)


def test_the_scripts_texts_are_translated_on_the_server(client, user):
    client.force_login(user)
    english = _json_blob(_page(client, "en")[0], "chat-strings")
    chinese = _json_blob(_page(client, "zh-hans")[0], "chat-strings")

    assert english["accept"] == "Accept" and english["toolStatus"]["blocked"] == "Blocked"
    assert set(english["contextParts"]) == {"system", "memory", "history", "tools", "message", "other"}
    assert set(chinese) == set(english)


def test_the_config_points_the_preview_card_at_the_board_and_the_apply_api(client, user):
    client.force_login(user)
    config = _json_blob(_page(client)[0], "chat-config")
    assert (config["board"], config["previewsApi"], config["maxTaskClasses"]) == ("/board/", "/api/v1/previews/", 20)


def test_the_markdown_libraries_are_vendored_and_served(client, user):
    client.force_login(user)
    _html, page = _page(client)
    vendored = [src for src in page.scripts if "/vendor/" in src]
    assert vendored == ["/static/vendor/marked/marked.umd.js", "/static/vendor/dompurify/purify.min.js"]
    assert all(src.startswith("/static/") for src in page.scripts)  # nothing from another host
    for src, banner in zip(vendored, [b"marked v", b"DOMPurify"]):
        response = client.get(src)
        assert response.status_code == 200
        assert banner in b"".join(response.streaming_content)[:400]
    for license_path in ("/static/vendor/marked/LICENSE", "/static/vendor/dompurify/LICENSE"):
        assert client.get(license_path).status_code == 200


def test_every_text_the_scripts_show_is_in_the_translated_strings(client, user):
    """The scripts hold no copy of their own: each ``text.<name>`` they read is rendered by the view."""
    client.force_login(user)
    strings = _json_blob(_page(client)[0], "chat-strings")
    scripts = Path(__file__).resolve().parents[2] / "static" / "js"
    used = {name for script in ("chat.js", "chat_cards.js")
            for name in re.findall(r"\btext\.(\w+)", (scripts / script).read_text(encoding="utf-8"))}
    assert {"accept", "regenerate", "contextLabel", "toolStatus"} <= used
    assert used - set(strings) == set()
