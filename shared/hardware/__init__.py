"""Display hardware rules, the mapping table and pixel-mapper size math.

Used by the web (save rule 4) and by the display daemon (before the matrix library
is called). Pure apart from ``read_board_model``, the injectable board-model reader.
"""

from __future__ import annotations

from shared.hardware.board import (
    DEVICE_TREE_MODEL,
    BoardReader,
    is_fifth_generation,
    is_raspberry_pi,
    read_board_model,
)
from shared.hardware.mappings import (
    FIFTH_GENERATION_MAPPINGS,
    MAPPINGS,
    HardwareMapping,
    library_mapping_name,
    mapping_names,
    mapping_outputs,
    suggest_mapping,
)
from shared.hardware.pixel_mappers import (
    MAX_CANVAS_PIXELS,
    PixelMapperError,
    mapped_size,
    parse_pixel_mappers,
    unknown_mappers,
)
from shared.hardware.rules import (
    DEFAULT_GEOMETRY,
    HARDWARE,
    LIBRARY_RANGES,
    ORIENTATION,
    RUNTIME,
    RUNTIME_RANGES,
    Problem,
    check_config,
    check_hardware_settings,
    effective_size,
    errors,
    geometry_replacements,
    panel_geometry,
    requested_size,
)

__all__ = [
    "DEFAULT_GEOMETRY",
    "DEVICE_TREE_MODEL",
    "FIFTH_GENERATION_MAPPINGS",
    "HARDWARE",
    "LIBRARY_RANGES",
    "MAPPINGS",
    "MAX_CANVAS_PIXELS",
    "ORIENTATION",
    "RUNTIME",
    "RUNTIME_RANGES",
    "BoardReader",
    "HardwareMapping",
    "PixelMapperError",
    "Problem",
    "check_config",
    "check_hardware_settings",
    "effective_size",
    "errors",
    "geometry_replacements",
    "is_fifth_generation",
    "is_raspberry_pi",
    "library_mapping_name",
    "mapped_size",
    "mapping_names",
    "mapping_outputs",
    "panel_geometry",
    "parse_pixel_mappers",
    "read_board_model",
    "requested_size",
    "suggest_mapping",
    "unknown_mappers",
]
