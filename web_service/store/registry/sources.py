"""Where the store's catalogue comes from: the registry URL, the repository API base and
the sources the user added, from the settings and the environment.

``LEDPANEL_REGISTRY_URL`` and ``LEDPANEL_REPOSITORY_API_URL`` outrank
``plugin_system.registry_url`` and ``plugin_system.repository_api_url`` in both
daemons. The first source is always the registry (not removable); the user's
``plugin_system.store_sources`` follow in their order. ``plan_add_source`` and
``plan_remove_source`` are the pure halves of the sources routes' saves.

The repository host token goes only where the operator chose: ``api_token_for`` gives
it for an https API base that is the default one or comes from the environment, never
for a base chosen in the settings (anyone who may save settings could name their own
host there and collect the token).
"""

from __future__ import annotations

import copy
import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from shared.config.store_urls import MAX_SOURCES, SOURCE_KINDS, url_problem
from shared.errors import ValidationError
from web_service.store.errors import StoreError
from web_service.store.repo_url import parse_repo_url


class SourceError(Exception):
    """A source that gave no entries; the message names it and says why."""


DEFAULT_REGISTRY_URL = (
    "https://raw.githubusercontent.com/ChuckBuilds/ledmatrix-plugins/main/plugins.json")
DEFAULT_API_URL = "https://api.github.com"
REGISTRY_ENV = "LEDPANEL_REGISTRY_URL"
API_ENV = "LEDPANEL_REPOSITORY_API_URL"


@dataclass(frozen=True)
class Source:
    """One place entries come from: a registry index or a single plugin's repository."""

    kind: str  # "registry" | "repository"
    url: str
    origin: str  # "environment" | "settings" | "user"

    @property
    def removable(self) -> bool:
        return self.origin == "user"

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "url": self.url, "origin": self.origin,
                "removable": self.removable}


def _section(config: Mapping[str, Any]) -> Mapping[str, Any]:
    section = config.get("plugin_system")
    return section if isinstance(section, dict) else {}


def _pick(config: Mapping[str, Any], key: str, var: str, default: str,
          env: Mapping[str, str] | None) -> tuple[str, str]:
    env = os.environ if env is None else env
    if env.get(var) and url_problem(env[var]) is None:
        return env[var], "environment"
    value = _section(config).get(key)
    if url_problem(value) is None:
        return str(value), "settings"
    return default, "settings"


def registry_url(config: Mapping[str, Any], env: Mapping[str, str] | None = None) -> str:
    """Return the registry index URL in force."""
    return _pick(config, "registry_url", REGISTRY_ENV, DEFAULT_REGISTRY_URL, env)[0]


def api_url(config: Mapping[str, Any], env: Mapping[str, str] | None = None) -> str:
    """Return the repository host's API base URL in force (no trailing slash)."""
    return _pick(config, "repository_api_url", API_ENV, DEFAULT_API_URL, env)[0].rstrip("/")


def token_refusal(config: Mapping[str, Any], env: Mapping[str, str] | None = None
                  ) -> str | None:
    """Return why the token must not go to the API base in force, or None when it may."""
    url, origin = _pick(config, "repository_api_url", API_ENV, DEFAULT_API_URL, env)
    url = url.rstrip("/")
    if urlsplit(url).scheme != "https":
        return f"the token is sent over https only, and {url} is not https"
    if url != DEFAULT_API_URL and origin != "environment":
        return (f"the token is sent only to {DEFAULT_API_URL} or to an API URL set by the "
                f"{API_ENV} environment variable, not to {url} from the settings")
    return None


def api_token_for(config: Mapping[str, Any], secrets: Mapping[str, Any],
                  env: Mapping[str, str] | None = None) -> str | None:
    """Return the token to send to the API base in force, or None (none, or refused)."""
    from web_service.store.host_status import api_token  # loads requests: on first use

    token = api_token(secrets)
    return token if token is not None and token_refusal(config, env) is None else None


def user_sources(config: Mapping[str, Any]) -> list[dict[str, str]]:
    """Return the well-formed ``store_sources`` items (a hand-edited bad one is left out)."""
    items = _section(config).get("store_sources")
    if not isinstance(items, list):
        return []
    return [{"kind": item["kind"], "url": item["url"]} for item in items
            if isinstance(item, dict) and item.get("kind") in SOURCE_KINDS
            and url_problem(item.get("url")) is None]


def sources(config: Mapping[str, Any], env: Mapping[str, str] | None = None) -> list[Source]:
    """Return every source in force: the registry first, then the user's, no repeats."""
    url, origin = _pick(config, "registry_url", REGISTRY_ENV, DEFAULT_REGISTRY_URL, env)
    found = [Source("registry", url, origin)]
    for item in user_sources(config):
        if all(item["url"] != s.url for s in found):
            found.append(Source(item["kind"], item["url"], "user"))
    return found


def plan_add_source(main: dict[str, Any], body: Mapping[str, Any],
                    env: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Return ``main`` with the source in ``body`` appended; raise ValidationError."""
    kind, url = body.get("kind"), body.get("url")
    if kind not in SOURCE_KINDS:
        raise ValidationError(f"kind must be one of {', '.join(SOURCE_KINDS)}",
                              error_code="INVALID_FIELD", details={"field": "kind"})
    problem = url_problem(url)
    if problem is not None:
        raise ValidationError(f"url {problem}", error_code="INVALID_FIELD",
                              details={"field": "url"})
    listed = user_sources(main)
    if any(s.url == url for s in sources(main, env)):
        raise ValidationError(f"{url} is already a source", error_code="SOURCE_EXISTS",
                              details={"field": "url"})
    if kind == "repository":
        try:
            parse_repo_url(url)
        except StoreError as err:
            raise ValidationError(f"url {err.message}", error_code="INVALID_FIELD",
                                  details={"field": "url"}) from err
    if len(listed) >= MAX_SOURCES:
        raise ValidationError(f"at most {MAX_SOURCES} sources can be added; remove one first",
                              error_code="TOO_MANY_SOURCES", details={"field": "url"})
    return _with_sources(main, [*listed, {"kind": str(kind), "url": str(url)}])


def plan_remove_source(main: dict[str, Any], body: Mapping[str, Any],
                       env: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Return ``main`` without the user source ``body["url"]``; raise ValidationError."""
    url = body.get("url")
    if not isinstance(url, str) or not url:
        raise ValidationError("url is required", error_code="INVALID_FIELD",
                              details={"field": "url"})
    if any(s.url == url and not s.removable for s in sources(main, env)):
        raise ValidationError(f"{url} is the registry in the settings or the environment and "
                              "cannot be removed; change plugin_system.registry_url instead",
                              error_code="SOURCE_NOT_REMOVABLE", details={"field": "url"})
    listed = user_sources(main)
    if all(s["url"] != url for s in listed):
        raise ValidationError(f"{url} is not one of the added sources",
                              error_code="UNKNOWN_SOURCE", details={"field": "url"})
    return _with_sources(main, [s for s in listed if s["url"] != url])


def _with_sources(main: dict[str, Any], items: list[dict[str, str]]) -> dict[str, Any]:
    new_main = copy.deepcopy(main)
    section = new_main.get("plugin_system")
    if not isinstance(section, dict):
        section = new_main["plugin_system"] = {}
    section["store_sources"] = items
    return new_main
