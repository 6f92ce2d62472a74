"""The metrics as Prometheus text exposition format 0.0.4, for ``GET /metrics``.

Every family has its HELP and TYPE lines; names are ``ledpanel_*`` with their unit last
(``_seconds``, ``_bytes``, ``_celsius``) and ``_total`` on counters. A figure that is
unknown (no thermal zone, a display not running) has its family without samples.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from web_service.metrics.route_timings import BUCKETS

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
Sample = tuple[dict[str, str], Any]


def _family(name: str, kind: str, help_text: str, samples: Iterable[Sample]) -> list[str]:
    lines = [f"# HELP {name} {help_text}", f"# TYPE {name} {kind}"]
    for labels, value in samples:
        if value is None:
            continue
        lines.append(f"{name}{_labels(labels)} {_number(value)}")
    return lines


def _labels(labels: dict[str, str]) -> str:
    if not labels:
        return ""
    text = ",".join(f'{key}="{_escape(value)}"' for key, value in labels.items())
    return "{" + text + "}"


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("\n", "\\n").replace('"', '\\"')


def _number(value: Any) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    return repr(value) if isinstance(value, float) else str(value)


def render(metrics: dict[str, Any]) -> str:
    """Return the text a Prometheus server scrapes."""
    lines = _display_lines(metrics) + _plugin_lines(metrics["plugins"])
    lines += _process_lines(metrics["processes"]) + _host_lines(metrics)
    lines += _web_lines(metrics["web"]["routes"])
    return "\n".join(lines) + "\n"


def _display_lines(metrics: dict[str, Any]) -> list[str]:
    display = metrics["display"]
    frames = display["frames"] or {}
    cache = display["cache"] or {}
    return [
        *_family("ledpanel_display_up", "gauge", "1 while the display daemon runs.",
                 [({}, display["running"])]),
        *_family("ledpanel_frames_drawn_total", "counter",
                 "Plugin frames drawn since the display started.", [({}, frames.get("drawn"))]),
        *_family("ledpanel_frames_dropped_total", "counter",
                 "Frames whose drawing took longer than the interval to the next frame.",
                 [({}, frames.get("dropped"))]),
        *_family("ledpanel_frames_per_second", "gauge", "The render loop's frame rate.",
                 [({}, frames.get("fps"))]),
        *_family("ledpanel_frame_time_seconds", "gauge",
                 "Time of one display() call over the recent frames, by quantile.",
                 [({"quantile": "0.5"}, frames.get("frame_seconds_p50")),
                  ({"quantile": "0.95"}, frames.get("frame_seconds_p95"))]),
        *_family("ledpanel_cache_hits_total", "counter", "Plugin cache lookups that hit.",
                 [({}, cache.get("hits"))]),
        *_family("ledpanel_cache_misses_total", "counter", "Plugin cache lookups that missed.",
                 [({}, cache.get("misses"))]),
        *_family("ledpanel_cache_hit_ratio", "gauge", "Plugin cache hits per lookup (0-1).",
                 [({}, cache.get("hit_rate"))]),
        *_family("ledpanel_plugin_errors", "gauge",
                 "Failures of all plugins recorded by the display (cleared by hand).",
                 [({}, metrics["plugin_errors"])]),
        *_family("ledpanel_safe_mode_plugins", "gauge",
                 "Plugins kept out in safe mode.", [({}, metrics["safe_mode"])]),
    ]


_PLUGIN_FAMILIES = (
    ("ledpanel_plugin_display_calls_total", "counter", "display() calls per plugin.",
     "display_calls"),
    ("ledpanel_plugin_display_seconds_total", "counter", "Seconds spent in display() per plugin.",
     "display_seconds"),
    ("ledpanel_plugin_display_max_seconds", "gauge", "The slowest display() call per plugin.",
     "display_max_seconds"),
    ("ledpanel_plugin_update_calls_total", "counter", "update() calls per plugin.",
     "update_calls"),
    ("ledpanel_plugin_update_seconds_total", "counter", "Seconds spent in update() per plugin.",
     "update_seconds"),
    ("ledpanel_plugin_update_max_seconds", "gauge", "The slowest update() call per plugin.",
     "update_max_seconds"),
    ("ledpanel_plugin_error_count", "gauge", "Failures recorded per plugin.", "errors"),
    ("ledpanel_plugin_in_safe_mode", "gauge", "1 while the plugin is kept out in safe mode.",
     "safe_mode"),
)


def _plugin_lines(plugins: dict[str, dict[str, Any]]) -> list[str]:
    lines: list[str] = []
    for name, kind, help_text, field in _PLUGIN_FAMILIES:
        lines += _family(name, kind, help_text, [({"plugin_id": plugin_id}, figures[field])
                                                 for plugin_id, figures in plugins.items()])
    return lines


def _process_lines(processes: dict[str, Any]) -> list[str]:
    def each(field: str) -> list[Sample]:
        return [({"daemon": daemon}, (figures or {}).get(field))
                for daemon, figures in processes.items()]

    return [*_family("ledpanel_process_resident_memory_bytes", "gauge",
                     "Resident memory of each daemon.", each("rss_bytes")),
            *_family("ledpanel_process_cpu_seconds_total", "counter",
                     "CPU time (user and system) of each daemon.", each("cpu_seconds"))]


def _host_lines(metrics: dict[str, Any]) -> list[str]:
    bus, pi, jobs = metrics["bus"], metrics["pi"], metrics["store_jobs"]
    flags = pi["throttling"] or {}
    throttled = [({"flag": flag, "when": when}, value)
                 for when in ("now", "since_boot") for flag, value in flags.get(when, {}).items()]
    return [
        *_family("ledpanel_bus_latency_seconds", "gauge",
                 "A metrics reader mark written by the web until the display saw it.",
                 [({}, bus["latency_seconds"])]),
        *_family("ledpanel_display_state_age_seconds", "gauge",
                 "Seconds since the display last changed its state record.",
                 [({}, bus["display_state_age_seconds"])]),
        *_family("ledpanel_store_jobs", "gauge", "Plugin store jobs kept, by state.",
                 [({"state": state}, count) for state, count in jobs.items()]),
        *_family("ledpanel_cpu_temperature_celsius", "gauge", "CPU temperature (thermal zone 0).",
                 [({}, pi["cpu_temperature_c"])]),
        *_family("ledpanel_throttled", "gauge",
                 "Raspberry Pi throttling flags (vcgencmd get_throttled), now and since boot.",
                 throttled),
    ]


def _web_lines(routes: list[dict[str, Any]]) -> list[str]:
    counts: list[Sample] = []
    for route in routes:
        for status, count in route["statuses"].items():
            counts.append(({"route": route["route"], "method": route["method"],
                            "status": status}, count))
    name = "ledpanel_web_request_duration_seconds"
    lines = [*_family("ledpanel_web_requests_total", "counter",
                      "Web answers by URL rule, method and status.", counts),
             f"# HELP {name} Web answer time by URL rule and method.",
             f"# TYPE {name} histogram"]
    for route in routes:
        labels = {"route": route["route"], "method": route["method"]}
        for bound in BUCKETS:
            lines.append(f"{name}_bucket{_labels({**labels, 'le': repr(bound)})} "
                         f"{route['buckets'][str(bound)]}")
        lines.append(f"{name}_bucket{_labels({**labels, 'le': '+Inf'})} {route['count']}")
        lines.append(f"{name}_sum{_labels(labels)} {route['seconds_sum']!r}")
        lines.append(f"{name}_count{_labels(labels)} {route['count']}")
    return lines
