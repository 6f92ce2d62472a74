"""The web UI's base page and tab partials, through the Flask app."""

from __future__ import annotations

import html
import json
import logging
import posixpath
import re

import pytest

from tests.web_service.conftest import WebEnv
from web_service.ui import partials


def test_the_base_page_lists_every_tab_and_one_per_installed_plugin(web: WebEnv) -> None:
    for path in ("/", "/v3"):
        page = web.client.get(path)
        assert page.status_code == 200
        html = page.get_data(as_text=True)
        keys = re.findall(r'data-tab="([^"]+)"', html)
        assert keys == ["overview", "general", "display", "durations", "schedule", "vegas",
                        "mqtt", "plugin-manager", "starlark", "plugin-store", "plugin-clock",
                        "plugin-ticker", "fonts", "logs", "cache", "history", "config-editor",
                        "backup", "wifi"]
        for key in keys:
            assert f'id="tab-{key}"' in html
        assert 'hx-get="/v3/partials/plugin/clock"' in html
        assert "vendor/htmx.min.js" in html and "vendor/alpine.min.js" in html
        assert "//cdn" not in html and "https://" not in html


@pytest.mark.parametrize("tab", partials.TABS, ids=lambda tab: tab.name)
def test_every_tab_partial_renders(web: WebEnv, tab: partials.Tab) -> None:
    answer = web.client.get(tab.url)
    assert answer.status_code == 200
    assert answer.mimetype == "text/html"
    assert f'data-partial="{tab.name}"' in answer.get_data(as_text=True)


def test_a_plugin_tab_shows_its_modes_and_loads_its_settings(web: WebEnv) -> None:
    html = web.client.get("/v3/partials/plugin/clock").get_data(as_text=True)
    assert '<option value="clock_big">' in html
    assert 'hx-get="/v3/partials/plugin-config/clock"' in html
    config = web.client.get("/v3/partials/plugin-config/clock")
    assert config.status_code == 200 and config.mimetype == "text/html"


@pytest.mark.parametrize("path", [
    "/v3/partials/nope", "/v3/partials/plugin/nope", "/v3/partials/plugin-config/nope",
    "/v3/partials/plugin/clock/extra", "/v3/partials/plugin/..", "/v3/partials/plugin/%2e%2e",
    "/v3/partials/a/b/c", "/v3/partials/_failed"])
def test_an_unknown_partial_answers_a_friendly_404(web: WebEnv, path: str) -> None:
    answer = web.client.get(path)
    assert answer.status_code == 404
    assert answer.mimetype == "text/html"
    body = answer.get_data(as_text=True)
    assert 'data-partial-error="404"' in body and "Traceback" not in body


def test_a_partial_that_fails_answers_500_without_a_traceback(
        web: WebEnv, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    def broken() -> list[dict[str, object]]:
        raise RuntimeError("secret internals")

    monkeypatch.setattr(partials, "installed_plugins", broken)
    with caplog.at_level(logging.ERROR, logger="web_service.ui.partials"):
        answer = web.client.get("/v3/partials/plugin/clock")
    assert answer.status_code == 500
    body = answer.get_data(as_text=True)
    assert 'data-partial-error="failed"' in body
    assert "secret internals" not in body and "Traceback" not in body
    assert "secret internals" in caplog.text  # the operator gets the traceback


def test_tabs_open_with_a_config_file_that_does_not_parse(web: WebEnv) -> None:
    (web.paths.config_dir / "config.json").write_text("{ not json")
    html = web.client.get("/").get_data(as_text=True)
    assert 'data-tab="overview"' in html and 'data-tab="plugin-clock"' in html
    assert web.client.get("/v3/partials/overview").status_code == 200
    assert web.client.get("/v3/partials/plugin/clock").status_code == 200
    # The plugin's settings form opens, saying why it shows the defaults.
    settings = web.client.get("/v3/partials/plugin-config/clock")
    body = settings.get_data(as_text=True)
    assert settings.status_code == 200 and settings.mimetype == "text/html"
    assert '<form class="plugin-form" data-partial="plugin-config" data-plugin="clock"' in body
    assert "data-partial-error" not in body
    assert "data-plugin-config-problem" in body and "config.json is not valid JSON" in body
    assert "Save Configuration" not in body  # the save would be refused until it is fixed


def test_the_favicon_is_ours(web: WebEnv) -> None:
    answer = web.client.get("/favicon.ico")
    assert answer.status_code == 301
    icon = web.client.get(answer.headers["Location"])
    assert icon.status_code == 200 and icon.data.startswith(b"<svg")


def test_the_base_page_with_its_scripts_stays_under_400_kb(web: WebEnv) -> None:
    html = web.client.get("/").get_data(as_text=True)
    assets = re.findall(r'(?:src|href)="(/static/[^"]+)"', html)
    assert any(a.endswith("app.js") for a in assets) and len(assets) >= 4
    # app.js imports these modules.
    assets += ["/static/api.js", "/static/status_view.js"]
    sizes = {asset: len(web.client.get(asset).data) for asset in assets}
    assert all(sizes.values()), sizes
    assert len(html.encode()) + sum(sizes.values()) < 400_000, sizes


def test_plugin_tabs_and_the_plugin_manager_draw_each_manifests_icon(web: WebEnv) -> None:
    manifest = web.paths.plugins_dir() / "ticker" / "manifest.json"
    manifest.write_text(json.dumps({k: v for k, v in json.loads(manifest.read_text()).items()
                                    if k != "icon"}))
    page = web.client.get("/").get_data(as_text=True)
    assert re.search(r'data-tab="plugin-clock"[^>]*>\s*<i class="plugin-icon fas fa-clock"', page)
    assert re.search(r'data-tab="plugin-ticker"[^>]*>\s*<i class="plugin-icon fas '
                     r'fa-puzzle-piece"', page)

    clock = web.client.get("/v3/partials/plugin/clock").get_data(as_text=True)
    assert '<h2><i class="plugin-icon fas fa-clock" aria-hidden="true"></i> Clock' in clock
    ticker = web.client.get("/v3/partials/plugin/ticker").get_data(as_text=True)
    assert '<i class="plugin-icon fas fa-puzzle-piece" aria-hidden="true"></i> Ticker' in ticker

    manager = web.client.get("/v3/partials/plugin-manager").get_data(as_text=True)
    icons = re.search(r'data-icons="([^"]*)"', manager)
    assert icons and json.loads(html.unescape(icons.group(1))) == {
        "clock": "fas fa-clock", "ticker": "fas fa-puzzle-piece"}
    assert 'data-default-icon="fas fa-puzzle-piece"' in manager
    assert ':class="icon(p.id)"' in manager
    # The listing the Plugin Manager polls still leaves the icon out (the spec's rule).
    listed = web.client.get("/api/v3/plugins/installed").get_json()["data"]
    assert all("icon" not in record for record in listed)


def test_the_icon_font_is_served_from_here(web: WebEnv) -> None:
    page = web.client.get("/").get_data(as_text=True)
    css_path = "/static/vendor/fontawesome/css/all.min.css"
    assert f'href="{css_path}"' in page
    css = web.client.get(css_path)
    assert css.status_code == 200 and css.mimetype == "text/css"
    fonts = set(re.findall(r"url\(([^)]+\.woff2)\)", css.get_data(as_text=True)))
    assert {f.rsplit("/", 1)[1] for f in fonts} >= {"fa-solid-900.woff2", "fa-regular-400.woff2",
                                                    "fa-brands-400.woff2"}
    for font in fonts:
        assert not font.startswith(("http:", "https:", "//")), font
        answer = web.client.get(posixpath.normpath(posixpath.join(posixpath.dirname(css_path),
                                                                  font)))
        assert answer.status_code == 200 and answer.data[:4] == b"wOF2", font
    assert web.client.get("/static/vendor/fontawesome/LICENSE.txt").status_code == 200


def test_a_plugins_manifest_warnings_show_in_its_tab(web: WebEnv) -> None:
    manifest = web.paths.plugins_dir() / "ticker" / "manifest.json"
    data = json.loads(manifest.read_text())
    del data["compatible_versions"]
    manifest.write_text(json.dumps(data))
    html_text = web.client.get("/v3/partials/plugin/ticker").get_data(as_text=True)
    assert ('<p class="manifest-warning warning">manifest: compatible_versions: is required '
            "(the plugin still loads)</p>") in html_text
    assert "manifest-warning warning\">" not in web.client.get(
        "/v3/partials/plugin/clock").get_data(as_text=True)
    # The Plugin Manager draws them from the listing, and the tab shows what the running
    # display logged while loading the plugin (from the status it polls).
    listed = web.client.get("/api/v3/plugins/installed").get_json()["data"]
    assert {r["id"]: r["warnings"] for r in listed}["ticker"] == [
        "compatible_versions: is required"]
    assert "$store.ledpanel.loadWarnings(pluginId)" in html_text
    assert "$store.ledpanel.loadWarnings(p.id)" in web.client.get(
        "/v3/partials/plugin-manager").get_data(as_text=True)


def test_the_status_carries_what_each_plugin_warned_about_while_loading(web: WebEnv) -> None:
    web.start_display(load_warnings={"clock": ["pytz not available, using UTC timezone only"]})
    display = web.client.get("/api/v3/system/status").get_json()["data"]["display"]
    assert display["load_warnings"] == {"clock": ["pytz not available, using UTC timezone only"]}
    web.stop_display()
    display = web.client.get("/api/v3/system/status").get_json()["data"]["display"]
    assert display["load_warnings"] is None
