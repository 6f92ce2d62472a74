"""The Fonts, Logs, Cache and Operation History partials through the Flask app."""

from __future__ import annotations

import json

import pytest

from shared.plugin_api.boundary import plugin_call
from shared.plugin_api.cache.manager import CacheManager
from tests.web_service.conftest import WebEnv
from web_service.ui.tool_partials import human_age, human_size

HOSTILE = '<script>alert("x")</script><img src=x onerror=alert(1)>'


def _history_line(entry_id: int, **fields: object) -> str:
    entry = {"id": entry_id, "at": 1795483259.5, "source": "display", "kind": "plugin",
             "what": "load_failed", "result": "error", "plugin_id": "clock",
             "detail": HOSTILE, **fields}
    return json.dumps(entry) + "\n"


@pytest.mark.parametrize("name", ["fonts", "logs", "cache", "history"])
def test_each_tool_partial_renders_with_its_script(web: WebEnv, name: str) -> None:
    answer = web.client.get(f"/v3/partials/{name}")
    assert answer.status_code == 200 and answer.mimetype == "text/html"
    html = answer.get_data(as_text=True)
    assert f'data-partial="{name}"' in html
    assert f'src="/static/{name}_tab.js"' in html
    assert web.client.get(f"/static/{name}_tab.js").status_code == 200


def test_the_tools_stylesheet_comes_with_the_page_before_any_tab_is_drawn(web: WebEnv) -> None:
    """Linked from a tab's partial it loaded after the tab's table was shown, which then
    flashed unstyled (and a phone saw a wide table before its cards)."""
    page = web.client.get("/").get_data(as_text=True)
    assert 'href="/static/tools.css"' in page.split("</head>")[0]
    assert web.client.get("/static/tools.css").status_code == 200


def test_the_fonts_partial_lists_the_catalog_with_lazy_previews(web: WebEnv) -> None:
    html = web.client.get("/v3/partials/fonts").get_data(as_text=True)
    catalog = web.client.get("/api/v3/fonts/catalog").get_json()["data"]["fonts"]
    for font in catalog:
        assert f'data-font="{font["family"]}"' in html
    assert 'loading="lazy"' in html
    assert "/api/v3/fonts/preview?font=press-start-2p&amp;size=16" in html
    assert "data-font-delete" not in html  # only uploaded fonts can be deleted


def test_the_cache_partial_escapes_keys_and_reads_sizes_and_ages(web: WebEnv) -> None:
    cache = CacheManager(web.paths.cache_dir)
    with plugin_call("clock", "update"):
        cache.set(HOSTILE, {"v": 1})
    cache.set("big_one", "x" * 5000)
    answer = web.client.get("/v3/partials/cache")
    html = answer.get_data(as_text=True)
    assert answer.status_code == 200
    assert "<script>alert" not in html and "<img src=x" not in html
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;" in html
    assert 'data-cache-key="&lt;script&gt;' in html  # the attribute too
    assert "<td>clock</td>" in html and ">5.0 KiB<" in html
    assert "2 entries" in html


def test_the_history_partial_escapes_details_and_filters(web: WebEnv) -> None:
    folder = web.paths.cache_dir / "history"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "display.jsonl").write_text(
        _history_line(10) + _history_line(11, what=HOSTILE, plugin_id="ticker"))
    answer = web.client.get("/v3/partials/history")
    html = answer.get_data(as_text=True)
    assert answer.status_code == 200
    assert "<script>alert" not in html and "<img src=x" not in html
    assert html.count("&lt;script&gt;alert") == 3  # both details and one what
    assert html.index('data-id="11"') < html.index('data-id="10"')  # newest first
    assert '<time datetime="2026-11-24T01:20:59+00:00">2026-11-24 01:20:59 UTC</time>' in html
    assert '<option value="clock"' in html and '<option value="ticker"' in html
    only = web.client.get("/v3/partials/history?plugin_id=ticker").get_data(as_text=True)
    assert 'data-id="11"' in only and 'data-id="10"' not in only
    assert '<option value="ticker" selected>' in only


def test_the_history_partial_pages_with_before(web: WebEnv) -> None:
    folder = web.paths.cache_dir / "history"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "display.jsonl").write_text("".join(_history_line(i) for i in range(1, 61)))
    first = web.client.get("/v3/partials/history?kind=plugin").get_data(as_text=True)
    assert first.count("data-history-row") == 50 and 'data-before="11"' in first
    page = web.client.get("/v3/partials/history?kind=plugin&before=11").get_data(as_text=True)
    assert "data-partial=" not in page and 'data-next-before=""' in page
    assert page.count("data-history-row") == 10


@pytest.mark.parametrize(("query", "shown"), [
    ("kind=%3Cb%3E", 'class="error"'), ("plugin_id=..%2Fx", 'class="error"'),
    ("before=%3Cb%3E", 'data-problem="The page to start from is not an entry id."'),
    ("before=%C2%B2", 'data-problem="The page to start from is not an entry id."'),
    ("before=%D9%A3", 'data-problem="The page to start from is not an entry id."')])
def test_bad_history_filters_answer_a_message_not_a_failure(
        web: WebEnv, query: str, shown: str) -> None:
    answer = web.client.get(f"/v3/partials/history?{query}")
    html = answer.get_data(as_text=True)
    assert answer.status_code == 200
    assert shown in html and "<b>" not in html and "Traceback" not in html


def test_sizes_and_ages_read_as_people_read_them() -> None:
    assert [human_size(n) for n in (0, 83, 1536, 3 * 1024 * 1024)] == [
        "0 B", "83 B", "1.5 KiB", "3.0 MiB"]
    assert [human_age(s) for s in (-1, 12.5, 300, 3 * 3600, 2 * 86400 + 5)] == [
        "0 s", "12 s", "5 min", "3 h", "2 d"]


BAD_NUMBER_LINES = [
    '{"id": 12, "at": 1e300, "source": "display", "kind": "plugin", "what": "x", '
    '"result": "error"}',
    '{"id": 13, "at": NaN, "source": "display", "kind": "plugin", "what": "x", '
    '"result": "error"}',
    '{"id": 14, "at": Infinity, "source": "display", "kind": "plugin", "what": "x", '
    '"result": "error"}',
    '{"id": 15, "at": -5, "source": "display", "kind": "plugin", "what": "x", '
    '"result": "error"}',
    '{"id": 1' + "0" * 400 + ', "at": 5, "source": "display", "kind": "plugin", '
    '"what": "x", "result": "error"}',
    '{"id": 16, "at": 1795483259, "source": "web", "kind": "api", "what": "x", '
    '"result": "error", "status": NaN}',
]


def test_history_lines_with_impossible_numbers_are_skipped_by_tab_and_api(web: WebEnv) -> None:
    folder = web.paths.cache_dir / "history"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "display.jsonl").write_text(
        _history_line(10) + "\n".join(BAD_NUMBER_LINES) + "\n" + _history_line(11))
    answer = web.client.get("/v3/partials/history")
    html = answer.get_data(as_text=True)
    assert answer.status_code == 200, html
    assert 'data-id="10"' in html and 'data-id="11"' in html
    assert all(f'data-id="{n}"' not in html for n in (12, 13, 14, 15))
    api = web.client.get("/api/v3/history?limit=1000")
    assert api.status_code == 200
    text = api.get_data(as_text=True)
    assert "NaN" not in text and "Infinity" not in text
    ids = [e["id"] for e in json.loads(text)["data"]["entries"]]
    assert ids == [16, 11, 10]
    kept = json.loads(text)["data"]["entries"][0]
    assert "status" not in kept  # the entry stays, its bad number does not
