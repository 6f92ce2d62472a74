"""Which supervisor the web is under: said by LEDPANEL_SUPERVISOR, else detected."""

from __future__ import annotations

from pathlib import Path

from shared.supervision.supervisor import supervisor_kind


def test_the_variable_says_it(tmp_path: Path) -> None:
    assert supervisor_kind({"LEDPANEL_SUPERVISOR": "dev", "INVOCATION_ID": "x"}, tmp_path) == "dev"
    assert supervisor_kind({"LEDPANEL_SUPERVISOR": "systemd"}, tmp_path / "none") == "systemd"


def test_unset_a_unit_process_on_a_systemd_host_is_under_systemd(tmp_path: Path) -> None:
    assert supervisor_kind({"INVOCATION_ID": "abc"}, tmp_path) == "systemd"


def test_unset_a_process_started_by_hand_has_none(tmp_path: Path) -> None:
    assert supervisor_kind({}, tmp_path) is None  # a systemd host, no unit
    assert supervisor_kind({"INVOCATION_ID": "abc"}, tmp_path / "none") is None
    assert supervisor_kind({"LEDPANEL_SUPERVISOR": "bogus"}, tmp_path / "none") is None
