"""The metrics route of /api/v3 (``GET /metrics``, Prometheus text outside /api/v3, is in
docs/API.md only: this description is of /api/v3)."""

from __future__ import annotations

from web_service.openapi.route_doc import RouteDoc
from web_service.openapi.schemas import (
    ANY_OBJECT,
    BOOLEAN,
    INTEGER,
    NUMBER,
    array,
    nullable,
    obj,
)

_FRAMES = obj({"drawn": INTEGER, "dropped": INTEGER, "fps": nullable(NUMBER),
               "frame_seconds_p50": nullable(NUMBER), "frame_seconds_p95": nullable(NUMBER)},
              required=("drawn", "dropped"))
_PROCESS = nullable(obj({"pid": INTEGER, "rss_bytes": nullable(INTEGER),
                         "cpu_seconds": nullable(NUMBER)}, required=("pid",)))
_DATA = obj({
    "display": obj({"running": BOOLEAN, "frames": nullable(_FRAMES),
                    "cache": nullable(ANY_OBJECT), "at": nullable(NUMBER)},
                   required=("running", "frames", "cache")),
    "plugins": {"type": "object", "additionalProperties": ANY_OBJECT},
    "plugin_errors": INTEGER,
    "safe_mode": INTEGER,
    "processes": obj({"display": _PROCESS, "web": _PROCESS}, required=("display", "web")),
    "bus": obj({"latency_seconds": nullable(NUMBER),
                "display_state_age_seconds": nullable(NUMBER)}),
    "store_jobs": {"type": "object", "additionalProperties": INTEGER},
    "web": obj({"routes": array(ANY_OBJECT)}, required=("routes",)),
    "pi": obj({"cpu_temperature_c": nullable(NUMBER), "throttling": nullable(ANY_OBJECT)},
              required=("cpu_temperature_c", "throttling")),
}, required=("display", "plugins", "plugin_errors", "safe_mode", "processes", "bus",
             "store_jobs", "web", "pi"))

_EXAMPLE = {
    "display": {"running": True, "at": 1764240000.0, "cache": {"hits": 40, "misses": 2,
                                                              "hit_rate": 0.9524},
                "frames": {"drawn": 3600, "dropped": 0, "fps": 1.0,
                           "frame_seconds_p50": 0.0008, "frame_seconds_p95": 0.002}},
    "plugins": {"clock": {"display_calls": 3600, "display_seconds": 3.1,
                          "display_max_seconds": 0.01, "update_calls": 60,
                          "update_seconds": 0.2, "update_max_seconds": 0.01, "errors": 0,
                          "safe_mode": False}},
    "plugin_errors": 0, "safe_mode": 0,
    "processes": {"display": {"pid": 812, "rss_bytes": 61000000, "cpu_seconds": 42.5},
                  "web": {"pid": 813, "rss_bytes": 48000000, "cpu_seconds": 9.1}},
    "bus": {"latency_seconds": 0.004, "display_state_age_seconds": 12.0},
    "store_jobs": {"queued": 0, "running": 0, "done": 2, "failed": 0},
    "web": {"routes": [{"route": "/api/v3/health", "method": "GET", "count": 3,
                        "seconds_sum": 0.004, "statuses": {"200": 3},
                        "buckets": {"0.005": 3}}]},
    "pi": {"cpu_temperature_c": 48.5, "throttling": None},
}

ROUTES: dict[tuple[str, str], RouteDoc] = {
    ("GET", "/api/v3/metrics"): RouteDoc(data=_DATA, example=_EXAMPLE),
}
