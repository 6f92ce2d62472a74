"""Go's reference-time layouts ("15:04", "2006-01-02T15:04:05Z07:00") to text and back."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone, tzinfo

# Longest first, as Go's layout scanner prefers them.
_CHUNKS = ("January", "Monday", "-07:00:00", "Z07:00:00", "-07:00", "Z07:00", "-0700",
           "Z0700", "2006", "Jan", "Mon", "MST", "002", "__2", "-07", "Z07", "01", "02",
           "_2", "03", "04", "05", "06", "15", "PM", "pm", "1", "2", "3", "4", "5")
_FRACTION = re.compile(r"[.,](0+|9+)(?![0-9])")
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December")
_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def chunks(layout: str) -> list[tuple[bool, str]]:
    """The layout as (is_field, text) pieces."""
    pieces: list[tuple[bool, str]] = []
    i = 0
    while i < len(layout):
        fraction = _FRACTION.match(layout, i)
        if fraction:
            pieces.append((True, fraction.group(0)))
            i = fraction.end()
            continue
        for chunk in _CHUNKS:
            if layout.startswith(chunk, i):
                pieces.append((True, chunk))
                i += len(chunk)
                break
        else:
            pieces.append((False, layout[i]))
            i += 1
    return pieces


def format_time(moment: datetime, layout: str) -> str:
    """``moment`` written in Go's ``layout``."""
    return "".join(_field(moment, text) if field else text for field, text in chunks(layout))


def _offset(moment: datetime, text: str) -> str:
    delta = moment.utcoffset() or timedelta(0)
    if text.startswith("Z") and not delta:
        return "Z"
    minutes = int(delta.total_seconds()) // 60
    sign = "-" if minutes < 0 else "+"
    hours, mins = divmod(abs(minutes), 60)
    if text.endswith("07"):
        return f"{sign}{hours:02d}"
    return f"{sign}{hours:02d}:{mins:02d}" if ":" in text else f"{sign}{hours:02d}{mins:02d}"


def _field(moment: datetime, text: str) -> str:  # noqa: C901 - one table of Go's fields
    hour12 = moment.hour % 12 or 12
    simple = {
        "January": _MONTHS[moment.month - 1], "Jan": _MONTHS[moment.month - 1][:3],
        "Monday": _DAYS[moment.weekday()], "Mon": _DAYS[moment.weekday()][:3],
        "2006": f"{moment.year:04d}", "06": f"{moment.year % 100:02d}",
        "01": f"{moment.month:02d}", "1": str(moment.month), "02": f"{moment.day:02d}",
        "_2": f"{moment.day:2d}", "2": str(moment.day), "15": f"{moment.hour:02d}",
        "03": f"{hour12:02d}", "3": str(hour12), "04": f"{moment.minute:02d}",
        "4": str(moment.minute), "05": f"{moment.second:02d}", "5": str(moment.second),
        "PM": "PM" if moment.hour >= 12 else "AM", "pm": "pm" if moment.hour >= 12 else "am",
        "MST": moment.tzname() or "UTC", "002": f"{moment.timetuple().tm_yday:03d}",
        "__2": f"{moment.timetuple().tm_yday:3d}",
    }
    if text in simple:
        return simple[text]
    if text[0] in ".,":
        digits = f"{moment.microsecond:06d}000"[: len(text) - 1]
        return (text[0] + digits.rstrip("0")) if text[1] == "9" and digits.strip("0") == "" \
            else text[0] + (digits.rstrip("0") if text[1] == "9" else digits)
    return _offset(moment, text)


_PATTERNS = {
    "January": "(?P<month_name>[A-Za-z]+)", "Jan": "(?P<mon>[A-Za-z]{3})",
    "Monday": "[A-Za-z]+", "Mon": "[A-Za-z]{3}", "2006": r"(?P<year>\d{4})",
    "06": r"(?P<yy>\d{2})", "01": r"(?P<month>\d{2})", "1": r"(?P<month>\d{1,2})",
    "02": r"(?P<day>\d{2})", "_2": r" ?(?P<day>\d{1,2})", "2": r"(?P<day>\d{1,2})",
    "15": r"(?P<hour>\d{1,2})", "03": r"(?P<hour12>\d{2})", "3": r"(?P<hour12>\d{1,2})",
    "04": r"(?P<minute>\d{2})", "4": r"(?P<minute>\d{1,2})", "05": r"(?P<second>\d{2})",
    "5": r"(?P<second>\d{1,2})", "PM": "(?P<ampm>AM|PM)", "pm": "(?P<ampm>am|pm)",
    "MST": "(?P<zone>[A-Z]{3,5})",
}


def parse_time(text: str, layout: str, default: tzinfo) -> datetime:
    """Read ``text`` written in Go's ``layout``; ValueError if it does not match."""
    pattern = "".join(_pattern(field, piece) if field else re.escape(piece)
                      for field, piece in chunks(layout))
    found = re.fullmatch(pattern, text)
    if not found:
        raise ValueError(f"cannot parse {text!r} as {layout!r}")
    parts = {k: v for k, v in found.groupdict().items() if v is not None}
    return _assemble(parts, default)


def _pattern(field: bool, piece: str) -> str:
    if piece in _PATTERNS:
        return _PATTERNS[piece]
    if piece[0] in ".,":
        return r"(?:[.,](?P<frac>\d+))?" if piece[1] == "9" else r"[.,](?P<frac>\d+)"
    return r"(?P<offset>Z|[+-]\d{2}(?::?\d{2})?)"


def _assemble(parts: dict[str, str], default: tzinfo) -> datetime:
    year = int(parts["year"]) if "year" in parts else 2000 + int(parts.get("yy", "0"))
    if "month_name" in parts or "mon" in parts:
        name = parts.get("month_name", parts.get("mon", ""))[:3].lower()
        month = [m[:3].lower() for m in _MONTHS].index(name) + 1
    else:
        month = int(parts.get("month", "1"))
    hour = int(parts.get("hour", "0"))
    if "hour12" in parts:
        hour = int(parts["hour12"]) % 12 + (12 if parts.get("ampm", "").lower() == "pm" else 0)
    micro = int((parts.get("frac", "") + "000000")[:6])
    zone: tzinfo = default
    if "offset" in parts:
        zone = _fixed(parts["offset"])
    return datetime(year, month or 1, int(parts.get("day", "1")), hour,
                    int(parts.get("minute", "0")), int(parts.get("second", "0")), micro,
                    tzinfo=zone)


def _fixed(offset: str) -> tzinfo:
    if offset == "Z":
        return UTC
    digits = offset[1:].replace(":", "")
    minutes = int(digits[:2]) * 60 + (int(digits[2:4]) if len(digits) >= 4 else 0)
    return timezone(timedelta(minutes=-minutes if offset[0] == "-" else minutes))
