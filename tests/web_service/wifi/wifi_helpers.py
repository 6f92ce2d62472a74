"""The fake nmcli on PATH over a state file, for the Wi-Fi tests."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests import fake_commands

FAKE_NMCLI = Path(__file__).resolve().parent / "fake_nmcli.py"
HOME, CAFE, OPEN_NET = "Home: 2.4 GHz", "Cafe", "Library"
HOME_PASSWORD = "correct horse battery"


def base_state() -> dict[str, Any]:
    """A Pi with its radio on, three networks in range, none saved, none connected."""
    return {
        "radio": True, "device": "wlan0", "ethernet": False, "ap_profile": False,
        "ip": "192.168.1.50/24", "active": None, "saved": [],
        "networks": [
            {"ssid": HOME, "signal": 72, "security": "WPA2", "password": HOME_PASSWORD},
            {"ssid": CAFE, "signal": 40, "security": "WPA1 WPA2", "password": "espresso-1"},
            {"ssid": OPEN_NET, "signal": 55, "security": ""},
        ],
    }


@dataclass
class FakeNmcli:
    """The fake's state and call files."""

    state_file: Path
    calls_file: Path

    def state(self) -> dict[str, Any]:
        result: dict[str, Any] = json.loads(self.state_file.read_text())
        return result

    def update(self, **changes: Any) -> None:
        state = self.state()
        state.update(changes)
        self.state_file.write_text(json.dumps(state))

    def calls(self) -> list[list[str]]:
        return fake_commands.calls_of(self.calls_file)


def use_fake_nmcli(tmp_path: Path, monkeypatch: Any, **changes: Any) -> FakeNmcli:
    """Put the fake nmcli first on PATH over ``base_state()`` updated with ``changes``."""
    bin_dir = tmp_path / "bin"
    fake_commands.install(bin_dir, "nmcli", FAKE_NMCLI)
    fake = FakeNmcli(tmp_path / "nmcli-state.json", tmp_path / "nmcli-calls.jsonl")
    fake.state_file.write_text(json.dumps({**base_state(), **changes}))
    monkeypatch.setenv("PATH", fake_commands.path_with(bin_dir))
    monkeypatch.setenv("FAKE_NMCLI_STATE", str(fake.state_file))
    monkeypatch.setenv("FAKE_NMCLI_CALLS", str(fake.calls_file))
    return fake
