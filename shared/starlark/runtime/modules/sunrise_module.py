"""sunrise.star: sunrise and sunset for a place and day (NOAA's solar equations, ~1 min)."""

from __future__ import annotations

import math
from datetime import UTC, datetime

from shared.starlark.runtime.modules.base import ModuleSource

TEXT = '''
load("time.star", "time_value")

def _event(kind, lat, lng, t):
    ns = _py_event(kind, lat, lng, t._0ns)
    return None if ns == None else time_value(ns, "UTC")

def _elevation(lat, lng, t):
    return _py_elevation(lat, lng, t._0ns)

sunrise = struct(sunrise = partial(_event, "rise"), sunset = partial(_event, "set"),
                 elevation = _elevation)
'''
ZENITH = 90.833  # the sun's upper edge at the horizon, with refraction


def _solar(day_fraction_jd: float) -> tuple[float, float]:
    """Declination (degrees) and equation of time (minutes) at a Julian day."""
    t = (day_fraction_jd - 2451545.0) / 36525.0
    mean_long = (280.46646 + t * (36000.76983 + 0.0003032 * t)) % 360
    mean_anom = 357.52911 + t * (35999.05029 - 0.0001537 * t)
    ecc = 0.016708634 - t * (0.000042037 + 0.0000001267 * t)
    m = math.radians(mean_anom)
    center = (math.sin(m) * (1.914602 - t * (0.004817 + 0.000014 * t))
              + math.sin(2 * m) * (0.019993 - 0.000101 * t) + math.sin(3 * m) * 0.000289)
    app_long = mean_long + center - 0.00569 - 0.00478 * math.sin(
        math.radians(125.04 - 1934.136 * t))
    obliq = 23 + (26 + (21.448 - t * (46.815 + t * (0.00059 - t * 0.001813))) / 60) / 60
    obliq += 0.00256 * math.cos(math.radians(125.04 - 1934.136 * t))
    decl = math.degrees(math.asin(math.sin(math.radians(obliq))
                                  * math.sin(math.radians(app_long))))
    y = math.tan(math.radians(obliq / 2)) ** 2
    l0 = math.radians(mean_long)
    eq_time = 4 * math.degrees(
        y * math.sin(2 * l0) - 2 * ecc * math.sin(m) + 4 * ecc * y * math.sin(m)
        * math.cos(2 * l0) - 0.5 * y * y * math.sin(4 * l0) - 1.25 * ecc * ecc * math.sin(2 * m))
    return decl, eq_time


def event(kind: str, lat: float, lng: float, ns: int) -> int | None:
    """Nanoseconds (epoch) of the sunrise or sunset on the UTC day of ``ns``; None if none."""
    day = datetime.fromtimestamp(ns // 1_000_000_000, UTC).date()
    jd_noon = day.toordinal() + 1721424.5 + 0.5
    decl, eq_time = _solar(jd_noon - lng / 360)
    cos_ha = (math.cos(math.radians(ZENITH)) / (math.cos(math.radians(lat))
              * math.cos(math.radians(decl))) - math.tan(math.radians(lat))
              * math.tan(math.radians(decl)))
    if not -1 <= cos_ha <= 1:
        return None
    hour_angle = math.degrees(math.acos(cos_ha)) * (1 if kind == "rise" else -1)
    minutes = 720 - 4 * (lng + hour_angle) - eq_time
    midnight = datetime(day.year, day.month, day.day, tzinfo=UTC).timestamp()
    return int((midnight + minutes * 60) * 1_000_000_000)


def elevation(lat: float, lng: float, ns: int) -> float:
    """The sun's elevation in degrees at a place and moment."""
    seconds = ns / 1e9
    jd = seconds / 86400 + 2440587.5
    decl, eq_time = _solar(jd)
    minutes_utc = (seconds % 86400) / 60
    hour_angle = (minutes_utc + eq_time + 4 * lng) / 4 - 180
    cos_zenith = (math.sin(math.radians(lat)) * math.sin(math.radians(decl))
                  + math.cos(math.radians(lat)) * math.cos(math.radians(decl))
                  * math.cos(math.radians(hour_angle)))
    return 90 - math.degrees(math.acos(max(-1.0, min(1.0, cos_zenith))))


def module() -> ModuleSource:
    """sunrise.star."""
    return ModuleSource(TEXT, {"_py_event": event, "_py_elevation": elevation})
