"""Why a matrix backend could not be opened: the two causes of a fallback."""

from __future__ import annotations

from typing import TYPE_CHECKING

from shared.errors import LedpanelError

if TYPE_CHECKING:
    from shared.hardware import Problem


class MatrixSettingsRefused(LedpanelError):
    """The settings break the display hardware rules; the library was not called."""

    error_code = "MATRIX_SETTINGS_REFUSED"
    status = 400

    def __init__(self, problems: list[Problem]) -> None:
        shown = "; ".join(f"{p.setting}: {p.message}" for p in problems)
        super().__init__(
            f"hardware settings refused: {shown}",
            details={"problems": [p.as_dict() for p in problems]},
        )
        self.problems = problems


class MatrixLibraryError(LedpanelError):
    """The matrix library is missing, is not usable here, or refused to start."""

    error_code = "MATRIX_LIBRARY_ERROR"
    status = 500

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.hint = hint
