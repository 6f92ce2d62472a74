"""The hardware mapping table: spec names, the library's names, parallel outputs.

This table is the one source of truth for mapping names. Config, API and UI use the
spec's neutral names; only the real matrix backend translates them to the library's
names (``library_mapping_name``), at the moment it fills in the library's options.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass


@dataclass(frozen=True)
class HardwareMapping:
    """One GPIO mapping: the name we use, the library's name, its parallel outputs."""

    name: str
    library_name: str
    outputs: int
    fifth_generation: bool  # supported by the fifth-generation board's backend


MAPPINGS: dict[str, HardwareMapping] = {
    m.name: m
    for m in (
        HardwareMapping("regular", "regular", 3, True),
        HardwareMapping("vendor-hat", "adafruit-hat", 1, True),
        HardwareMapping("vendor-hat-pwm", "adafruit-hat-pwm", 1, True),
        HardwareMapping("regular-gen1", "regular-pi1", 1, False),
        HardwareMapping("classic", "classic", 3, True),
        HardwareMapping("classic-gen1", "classic-pi1", 1, False),
        HardwareMapping("compute-module", "compute-module", 6, False),
    )
}

# The library's own default when no mapping is configured.
DEFAULT_MAPPING = "regular"
MAX_OUTPUTS = max(m.outputs for m in MAPPINGS.values())
FIFTH_GENERATION_MAPPINGS: tuple[str, ...] = tuple(
    m.name for m in MAPPINGS.values() if m.fifth_generation
)
_BY_LIBRARY_NAME = {m.library_name: m.name for m in MAPPINGS.values()}


def mapping_names() -> list[str]:
    """Return the known spec mapping names in table order."""
    return list(MAPPINGS)


def library_mapping_name(spec_name: str) -> str:
    """Return the library's name for a spec mapping name; ValueError when unknown."""
    mapping = MAPPINGS.get(spec_name)
    if mapping is None:
        raise ValueError(unknown_mapping_message(spec_name))
    return mapping.library_name


def mapping_outputs(spec_name: str) -> int | None:
    """Return how many parallel chains a mapping drives, or None when it is unknown."""
    mapping = MAPPINGS.get(spec_name)
    return mapping.outputs if mapping else None


def suggest_mapping(name: str) -> str | None:
    """Return the known mapping name closest to ``name``, or None when none is close."""
    text = name.strip().lower()
    if text in MAPPINGS:
        return text
    if text in _BY_LIBRARY_NAME:
        return _BY_LIBRARY_NAME[text]
    candidates = {**{n: n for n in MAPPINGS}, **_BY_LIBRARY_NAME}
    close = difflib.get_close_matches(text, list(candidates), n=1, cutoff=0.6)
    return candidates[close[0]] if close else None


def unknown_mapping_message(name: object) -> str:
    """Return the refusal text for an unknown mapping, with the closest known name."""
    known = ", ".join(MAPPINGS)
    if not isinstance(name, str):
        return f"hardware_mapping must be a mapping name ({known}), got {name!r}"
    if name in _BY_LIBRARY_NAME:
        return (f"'{name}' is the matrix library's name; use '{_BY_LIBRARY_NAME[name]}' "
                f"(known: {known})")
    suggestion = suggest_mapping(name)
    hint = f"; did you mean '{suggestion}'?" if suggestion else ""
    return f"unknown hardware_mapping '{name}'{hint} (known: {known})"
