"""The Scripted apps tab in a real browser against the real web daemon: install apps from
a .star and a .zip, replace one, change an app's settings through the form drawn from its
schema, switch it off, remove it; browse and install from a loopback stand-in of the apps
repository; a bad upload shows the server's message."""

from __future__ import annotations

import io
import json
import shutil
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import requests

from shared.starlark.installed.folder import AppsFolder
from shared.starlark.installed.package import from_folder_files
from tests.browser.test_web_ui_shell import DESKTOP, PHONE, Watch, open_tab
from tests.daemons import Daemon, Instance, running, start_web
from tests.dev_run import wait_for
from tests.system.test_no_lost_changes import make_instance, running_state, stored
from tests.web_service.store.repo_host import RepoHost

pytestmark = pytest.mark.timeout(300)

APPS = Path(__file__).resolve().parents[1] / "shared" / "starlark" / "apps"
TAB = "#tab-starlark"


@dataclass
class Served:
    """The web daemon, its instance and its base URL."""

    instance: Instance
    web: Daemon
    url: str
    host: RepoHost | None = None  # the apps repository's stand-in, where there is one

    @property
    def folder(self) -> AppsFolder:
        return AppsFolder(self.instance.assets_dir / "plugins" / "starlark-apps" / "apps")

    def entry(self, app_id: str) -> dict[str, Any] | None:
        section = stored(self.instance).get("starlark-apps") or {}
        return (section.get("apps") or {}).get(app_id)


@pytest.fixture
def served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Served]:
    instance = make_instance(tmp_path)
    monkeypatch.setenv("LEDPANEL_ASSETS_DIR", str(instance.assets_dir))
    web, url = start_web(instance)
    try:
        yield Served(instance, web, url)
    finally:
        web.stop()


def zipped(name: str) -> bytes:
    """The sample app's folder as a ZIP, the way a user zips it (one top folder)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for path in sorted((APPS / name).rglob("*")):
            if path.is_file():
                archive.write(path, f"{name}/{path.relative_to(APPS / name)}")
    return buffer.getvalue()


def star(name: str) -> Path:
    return APPS / name / f"{name}.star"


def open_apps(page: Any, url: str, *, phone: bool = False) -> Any:
    page.goto(url)
    panel = open_tab(page, "starlark", phone=phone)
    panel.locator('[data-partial="starlark"][data-ready]').wait_for()
    panel.locator(".sl-empty:visible, .sl-app").first.wait_for()
    return panel


def app_card(panel: Any, app_id: str) -> Any:
    return panel.locator(f'.sl-app[data-app="{app_id}"]')


def upload(panel: Any, name: str, data: bytes, app_id: str = "") -> None:
    panel.locator('.sl-upload input[name="file"]').set_input_files(
        {"name": name, "mimeType": "application/octet-stream", "buffer": data})
    panel.locator('.sl-upload input[name="app_id"]').fill(app_id)
    panel.locator('.sl-upload button[type="submit"]').click()


def unexpected(watch: Watch, *statuses: int) -> list[str]:
    """What went wrong besides the refusals a test asked for (the browser logs each one)."""
    return [p for p in watch.problems
            if not any(f"status of {status} " in p for status in statuses)]


def note(panel: Any) -> Any:
    return panel.locator(".sl-upload-note")


def test_apps_install_from_files_configure_switch_off_and_remove(
        browser: Any, served: Served, shoot: Any) -> None:
    page = browser.new_context(viewport=DESKTOP).new_page()
    watch = Watch(page)
    panel = open_apps(page, served.url)
    assert panel.locator(".sl-empty").is_visible()
    assert "built in" in panel.locator(".sl-runtime").inner_text()

    upload(panel, "dailycountdown.star", star("dailycountdown").read_bytes())
    app_card(panel, "dailycountdown").wait_for()
    assert "installed" in note(panel).inner_text()
    upload(panel, "cursive.zip", zipped("cursive"))
    app_card(panel, "cursive").wait_for()
    cursive = app_card(panel, "cursive")
    assert cursive.locator(".name").inner_text() == "Cursive"
    assert "Writes cursive words" in cursive.inner_text()
    assert cursive.locator(".sl-not-rendered").inner_text() == "Not rendered yet"
    assert served.folder.ids() == ["cursive", "dailycountdown"]
    first_revision = served.entry("dailycountdown")["revision"]  # type: ignore[index]

    # The same app again: the server's 409 becomes a question, and Replace sends it again.
    watch.expected_status.add(("/api/v3/starlark/upload", 409))
    upload(panel, "dailycountdown.star", star("dailycountdown").read_bytes())
    confirm = panel.locator(".sl-confirm-replace")
    confirm.wait_for()
    assert "dailycountdown" in confirm.inner_text() and "Replace" in confirm.inner_text()
    confirm.locator("button.confirm").click()
    page.wait_for_function("document.querySelector('#tab-starlark .sl-upload-note')"
                           ".textContent.includes('installed')")
    assert served.entry("dailycountdown")["revision"] > first_revision  # type: ignore[index]

    change_cursive_settings(page, panel, served)
    shoot(page, "desktop-settings")

    cursive.locator(".sl-enabled input").uncheck()
    wait_for(lambda: served.entry("cursive")["enabled"] is False,  # type: ignore[index]
             "cursive switched off in config.json")
    cursive.locator(".sl-app-note").filter(has_text="Disabled").wait_for()

    cursive.locator(".sl-remove").click()
    cursive.locator(".sl-confirm-remove button.confirm").click()
    cursive.wait_for(state="detached")
    assert served.folder.ids() == ["dailycountdown"]
    assert served.entry("cursive") is None
    assert unexpected(watch, 409) == []


def change_cursive_settings(page: Any, panel: Any, served: Served) -> None:
    """Open cursive's settings (drawn from its schema), change three of them, save."""
    cursive = app_card(panel, "cursive")
    cursive.locator(".sl-settings-panel > summary").click()
    form = cursive.locator(".sl-app-form")
    form.wait_for(timeout=30_000)
    text = form.locator('[data-path=\'["displaytext"]\']')
    assert text.input_value() == "What a Great App"  # the schema's default
    text.fill("Hello there")
    speed = form.locator('[data-path=\'["scroll"]\']')
    labels = speed.locator("option").all_inner_texts()
    assert len(labels) > 1
    speed.select_option(index=len(labels) - 1)
    chosen = json.loads(speed.input_value())
    form.locator(".sl-duration").fill("30")
    form.locator(".sl-save").click()
    form.locator(".pf-form-status").filter(has_text="saved").wait_for()
    entry = wait_for(lambda: (e := served.entry("cursive")) and e["duration"] == 30 and e,
                     "cursive's settings in config.json")
    assert entry["config"]["displaytext"] == "Hello there"
    assert entry["config"]["scroll"] == chosen
    page.wait_for_function("document.querySelector('#tab-starlark .sl-app[data-app=cursive]"
                           " .sl-duration-shown').textContent.startsWith('30 s')")
    # The tab reads the status again every few seconds: an open form stays as it is.
    with page.expect_response(lambda r: r.url.endswith("/api/v3/starlark/status"),
                              timeout=15_000):
        pass
    assert form.is_visible() and text.input_value() == "Hello there"


def test_a_bad_upload_shows_the_servers_message(browser: Any, served: Served,
                                                shoot: Any) -> None:
    page = browser.new_context(viewport=PHONE).new_page()
    watch = Watch(page)
    watch.expected_status.add(("/api/v3/starlark/upload", 400))
    panel = open_apps(page, served.url, phone=True)
    source = b'print("no main here")\n'
    upload(panel, "hello.star", source)
    error = panel.locator(".sl-upload-note.error")
    error.wait_for()
    answer = requests.post(f"{served.url}/api/v3/starlark/upload",
                           files={"file": ("hello.star", source)}, timeout=30).json()
    assert answer["error_code"] == "INVALID_APP"
    assert error.inner_text() == answer["message"]
    assert "main()" in error.inner_text()
    # Nothing chosen: said at once, without a request.
    panel.locator('.sl-upload input[name="file"]').set_input_files([])
    panel.locator('.sl-upload button[type="submit"]').click()
    page.wait_for_function("document.querySelector('#tab-starlark .sl-upload-note')"
                           ".textContent.startsWith('Choose')")
    assert served.folder.ids() == []
    shoot(page, "phone-bad-upload")
    assert unexpected(watch, 400) == []


REPO_APPS = ("amazing", "qlock", "snake2", "breakingbad", "cursive")


@pytest.fixture
def with_repository(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Served]:
    """The web daemon with ``starlark-apps.repository`` naming a loopback stand-in of
    the apps repository (``apps/<id>/`` on branch main) that the store may fetch from."""
    with RepoHost() as host:
        for name in REPO_APPS:
            files = {str(p.relative_to(APPS / name)): p.read_bytes()
                     for p in (APPS / name).rglob("*") if p.is_file()}
            host.push("tronbyt", "apps", files, under=f"apps/{name}")
        port = host.url.rsplit(":", 1)[1]
        monkeypatch.setenv("LEDPANEL_STORE_ALLOW_HOSTS", f"127.0.0.1:{port}")
        monkeypatch.setenv("LEDPANEL_REPOSITORY_API_URL", host.api_url)
        monkeypatch.setenv("LEDPANEL_ASSETS_DIR", str(tmp_path / "assets"))
        instance = make_instance(tmp_path)
        config = stored(instance)
        config["starlark-apps"] = {"repository": host.repo_url("tronbyt", "apps")}
        instance.write_config(config)
        web, url = start_web(instance)
        try:
            yield Served(instance, web, url, host)
        finally:
            web.stop()


def repo_ids(page: Any) -> list[str]:
    return page.eval_on_selector_all("#tab-starlark .sl-repo-app",
                                     "cards => cards.map((c) => c.dataset.app)")


def wait_repo(page: Any, ids: list[str]) -> None:
    page.wait_for_function(
        "ids => JSON.stringify([...document.querySelectorAll('#tab-starlark .sl-repo-app')]"
        ".map((c) => c.dataset.app).sort()) === JSON.stringify(ids)", arg=sorted(ids))


def test_apps_are_found_filtered_and_installed_from_the_repository(
        browser: Any, with_repository: Served, shoot: Any) -> None:
    served = with_repository
    for name, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        page = browser.new_context(viewport=viewport).new_page()
        watch = Watch(page)
        panel = open_apps(page, served.url, phone=name == "phone")
        panel.locator(".sl-repo-load").click()
        wait_repo(page, list(REPO_APPS))
        assert "5 apps match" in panel.locator(".sl-repo-summary").inner_text()
        options = panel.locator(".sl-repo-search select option").all_inner_texts()
        assert "entertainment (2)" in options
        panel.locator(".sl-repo-search select").select_option("entertainment")
        wait_repo(page, ["breakingbad", "snake2"])
        panel.locator(".sl-repo-search input[type=search]").fill("snake")
        wait_repo(page, ["snake2"])
        shoot(page, f"{name}-repository")
        if name == "desktop":
            card = panel.locator('.sl-repo-app[data-app="snake2"]')
            card.locator(".sl-repo-install").click()
            card.locator(".job-outcome.ok").wait_for(timeout=60_000)
            app_card(panel, "snake2").wait_for()
            assert card.locator(".installed-state").is_visible()
            assert served.folder.ids() == ["snake2"]
            assert served.entry("snake2")["enabled"] is True  # type: ignore[index]
            shoot(page, "desktop-installed-from-repository")
        assert watch.problems == []
        page.context.close()


PLUGIN = Path(__file__).resolve().parents[2] / "plugin-repos" / "starlark-apps"
STRIPES = b'''load("render.star", "render")

def main(config):
    return render.Root(delay = 200, child = render.Animation(children = [
        render.Box(color = "#f00"), render.Box(color = "#00f")]))
'''


@pytest.fixture
def both_daemons(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Served]:
    """Both daemons, the bundled starlark-apps plugin installed in the instance."""
    monkeypatch.setenv("LEDPANEL_ASSETS_DIR", str(tmp_path / "assets"))
    instance = make_instance(tmp_path)
    shutil.copytree(PLUGIN, instance.plugins_dir / "starlark-apps",
                    ignore=shutil.ignore_patterns("__pycache__", "tests"))
    with running(instance) as (display, web, url):
        running_state(instance, display)
        yield Served(instance, web, url)


def test_the_display_renders_an_app_installed_here_and_its_preview_appears(
        browser: Any, both_daemons: Served, shoot: Any) -> None:
    served = both_daemons
    page = browser.new_context(viewport=DESKTOP).new_page()
    watch = Watch(page)
    panel = open_apps(page, served.url)
    assert panel.locator(".sl-plugin-link").is_visible()
    upload(panel, "stripes.star", STRIPES)
    card = app_card(panel, "stripes")
    card.wait_for()
    # The display sees the new config entry, renders the app and writes its preview;
    # the tab's next status read shows it.
    image = card.locator(".sl-preview img")
    image.wait_for(state="visible", timeout=90_000)
    page.wait_for_function("img => img.complete && img.naturalWidth > 0",
                           arg=image.element_handle(), timeout=30_000)
    assert card.locator(".sl-rendered").inner_text().startswith("Rendered ")
    assert "2 frames" in card.locator(".sl-rendered").inner_text()
    assert image.get_attribute("src").startswith("/api/v3/starlark/apps/stripes/preview")
    # An app that fails says why, plainly, where its preview would be.
    upload(panel, "broken.star", b'load("foo.star", "bar")\n\ndef main(config):\n'
                                 b'    return bar\n')
    failed = app_card(panel, "broken").locator(".sl-error")
    failed.wait_for(state="visible", timeout=90_000)
    assert failed.inner_text().startswith("Last render failed")
    assert failed.inner_text() == ('Last render failed: broken.star:1: app loads "foo.star", '
                                   "which is not available")
    assert app_card(panel, "broken").locator(".sl-not-rendered").inner_text() == (
        "Could not be drawn")
    assert not app_card(panel, "broken").locator(".sl-rendered").is_visible()
    shoot(page, "desktop-rendered")

    # The plugin's own tab: its settings, and the way back here.
    panel.locator(".sl-plugin-link").click()
    plugin = page.locator("#tab-plugin-starlark-apps")
    plugin.locator(".plugin-form[data-ready]").wait_for()
    scale = plugin.locator('[data-path=\'["scale"]\']')
    assert "Magnify by whole pixels, centred" in scale.locator("option").all_inner_texts()
    # Each app's entry is the Scripted apps tab's: the plugin's form neither draws it nor
    # sends back a copy that an install made stale meanwhile.
    assert plugin.locator('[data-path=\'["apps"]\']').count() == 0
    made = requests.post(f"{served.url}/api/v3/starlark/apps", timeout=30,
                         json={"app_id": "later", "source": STRIPES.decode()})
    assert made.status_code == 201, made.text
    plugin.locator('[data-path=\'["render_interval"]\']').fill("600")
    plugin.locator(".save-config").click()
    plugin.locator(".pf-form-status").filter(has_text="saved").wait_for()
    section = stored(served.instance)["starlark-apps"]
    assert section["render_interval"] == 600
    assert sorted(section["apps"]) == ["broken", "later", "stripes"]
    shoot(page, "desktop-plugin-tab")
    plugin.locator(".open-starlark").click()
    page.locator("#tab-starlark").wait_for(state="visible")
    manager = open_tab(page, "plugin-manager")
    manager.locator('.plugin-row[data-plugin="starlark-apps"]').wait_for()
    assert watch.problems == []

    phone = browser.new_context(viewport=PHONE).new_page()
    on_phone = open_apps(phone, served.url, phone=True)
    shown = app_card(on_phone, "stripes")
    shown.locator(".sl-preview img").wait_for(state="visible")
    shown.locator(".sl-settings-panel > summary").click()
    shown.locator(".sl-app-form .sl-no-fields").wait_for()
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shoot(phone, "phone-rendered")


def test_the_repository_index_shows_how_far_it_got_while_it_is_built(
        browser: Any, with_repository: Served, shoot: Any) -> None:
    assert with_repository.host is not None
    # One manifest is slow to come: the index is answered in part, then whole.
    with_repository.host.delay["/tronbyt/apps/raw/main/apps/qlock/manifest.yaml"] = 3.0
    page = browser.new_context(viewport=DESKTOP).new_page()
    watch = Watch(page)
    panel = open_apps(page, with_repository.url)
    panel.locator(".sl-repo-load").click()
    progress = panel.locator(".sl-indexing")
    progress.wait_for(state="visible")
    assert "Reading the apps' manifests:" in progress.inner_text()
    assert "of 5" in progress.inner_text()
    shoot(page, "desktop-indexing")
    wait_repo(page, list(REPO_APPS))
    progress.wait_for(state="hidden")
    assert watch.problems == []


def test_an_unreachable_repository_is_said_in_the_servers_words(
        browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, shoot: Any) -> None:
    # Nothing listens on port 9 of loopback, a host the store is allowed to ask.
    monkeypatch.setenv("LEDPANEL_STORE_ALLOW_HOSTS", "127.0.0.1:9")
    monkeypatch.setenv("LEDPANEL_REPOSITORY_API_URL", "http://127.0.0.1:9/api")
    monkeypatch.setenv("LEDPANEL_ASSETS_DIR", str(tmp_path / "assets"))
    instance = make_instance(tmp_path)
    config = stored(instance)
    config["starlark-apps"] = {"repository": "http://127.0.0.1:9/tronbyt/apps"}
    instance.write_config(config)
    web, url = start_web(instance)
    try:
        page = browser.new_context(viewport=PHONE).new_page()
        watch = Watch(page)
        watch.expected_status.add(("/api/v3/starlark/repository?q=&category=&page=1", 502))
        panel = open_apps(page, url, phone=True)
        panel.locator(".sl-repo-load").click()
        problem = panel.locator(".sl-repo-problem")
        problem.wait_for(timeout=60_000)
        answer = requests.get(f"{url}/api/v3/starlark/repository", timeout=60)
        assert answer.status_code == 502
        assert problem.inner_text() == ("The apps repository could not be read: "
                                        + answer.json()["message"])
        assert panel.locator(".sl-repo-app").count() == 0
        shoot(page, "phone-unreachable")
        assert unexpected(watch, 502) == []
    finally:
        web.stop()


def test_a_long_repository_list_is_paged(browser: Any, with_repository: Served) -> None:
    host = with_repository.host
    assert host is not None
    for n in range(55):  # 60 apps in all with the samples: two pages of 50
        app_id = f"app-{n:02}"
        host.push("tronbyt", "apps", {
            "manifest.yaml": f"id: {app_id}\nname: App {n:02}\nsummary: Number {n}\n"
                             f"fileName: {app_id}.star\ncategory: numbers\n",
            f"{app_id}.star": STRIPES}, under=f"apps/{app_id}")
    page = browser.new_context(viewport=DESKTOP).new_page()
    panel = open_apps(page, with_repository.url)
    panel.locator(".sl-repo-load").click()
    pages = panel.locator(".sl-pages")
    pages.filter(has_text="Page 1 of 2").wait_for()
    assert panel.locator(".sl-repo-app").count() == 50
    pages.locator(".sl-next").click()
    pages.filter(has_text="Page 2 of 2").wait_for()
    assert panel.locator(".sl-repo-app").count() == 10
    assert pages.locator(".sl-next").is_disabled()
    pages.locator(".sl-prev").click()
    pages.filter(has_text="Page 1 of 2").wait_for()
    assert "60 apps match" in panel.locator(".sl-repo-summary").inner_text()
    panel.locator(".sl-repo-search select").select_option("numbers")
    panel.locator(".sl-repo-summary").filter(has_text="55 apps match").wait_for()
    assert panel.locator(".sl-repo-app").count() == 50


def test_an_apps_switches_show_its_defaults_and_save_as_pixlet_text(
        browser: Any, served: Served) -> None:
    folder = APPS / "gradientclock2"
    served.folder.install(from_folder_files(
        {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}))
    page = browser.new_context(viewport=PHONE).new_page()
    watch = Watch(page)
    panel = open_apps(page, served.url, phone=True)
    card = app_card(panel, "gradientclocktwo")
    card.locator(".sl-settings-panel > summary").click()
    form = card.locator(".sl-app-form")
    form.wait_for(timeout=30_000)
    use_24h = form.locator('[data-path=\'["use_24h"]\']')
    show_date = form.locator('[data-path=\'["show_date"]\']')
    assert use_24h.is_checked() and not show_date.is_checked()  # the schema's defaults
    use_24h.uncheck(force=True)
    form.locator(".sl-save").click()
    form.locator(".pf-form-status").filter(has_text="saved").wait_for()
    config = wait_for(lambda: (e := served.entry("gradientclocktwo")) and e["config"],
                      "gradientclock2's settings in config.json")
    assert config["use_24h"] == "false" and config["show_date"] == "false"
    assert config["blinking_separator"] == "true"
    assert watch.problems == []
