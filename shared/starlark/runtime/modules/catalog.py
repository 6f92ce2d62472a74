"""CATALOG: every module name an app may load, and how to build it for one run."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from shared.starlark.runtime.modules import (
    encoding_modules,
    http_module,
    humanize_module,
    i18n_module,
    math_module,
    prelude,
    random_module,
    re_module,
    render_module,
    schema_module,
    stub_modules,
    sunrise_module,
    time_module,
)
from shared.starlark.runtime.modules.app_cache import AppCache
from shared.starlark.runtime.modules.app_cache import module as cache_module
from shared.starlark.runtime.modules.base import ModuleSource
from shared.starlark.runtime.modules.http_module import Fetcher, PublicFetcher


@dataclass
class Services:
    """What the modules of one run draw on: size, folder, cache, network, clock, language."""

    folder: Path
    width: int = 64
    height: int = 32
    cache: AppCache = field(default_factory=AppCache)
    fetch: Fetcher = field(default_factory=PublicFetcher)
    http_cache: AppCache = field(default_factory=lambda: AppCache(64, 4 * 1024 * 1024))
    http_timeout: float = 5.0
    local_zone: str = "UTC"
    language: str = "en"
    wall_clock: Callable[[], float] = time.time  # seeds random.star, as pixlet does
    clock: Callable[[], float] = time.monotonic  # the run's deadline reads it too
    waited: Callable[[float], None] = lambda seconds: None  # set by the loader


CATALOG: dict[str, Callable[[Services], ModuleSource]] = {
    "@ledpanel/prelude": lambda s: prelude.module(s.folder.name),
    "render.star": lambda s: render_module.render_module(s.width, s.height),
    "animation.star": lambda s: render_module.animation_module(),
    "schema.star": lambda s: schema_module.module(),
    "time.star": lambda s: time_module.module(s.local_zone),
    "encoding/json.star": lambda s: encoding_modules.json_module(),
    "encoding/base64.star": lambda s: encoding_modules.base64_module(),
    "math.star": lambda s: math_module.module(),
    "humanize.star": lambda s: humanize_module.module(),
    "re.star": lambda s: re_module.module(),
    "random.star": lambda s: random_module.module(s.wall_clock()),
    "cache.star": lambda s: cache_module(s.cache),
    "http.star": lambda s: http_module.module(s.fetch, s.http_timeout, s.http_cache,
                                              s.clock, s.waited),
    "secret.star": lambda s: stub_modules.secret_module(),
    "xpath.star": lambda s: stub_modules.xpath_module(),
    "i18n.star": lambda s: i18n_module.module(s.folder, s.language),
    "sunrise.star": lambda s: sunrise_module.module(),
}
