"""Running nmcli: terse output read back, timeouts and refusals as errors a person can act on."""

from __future__ import annotations

import pytest

from tests import fake_commands
from web_service.wifi import nmcli


def test_terse_fields_are_split_on_unescaped_colons_only():
    assert nmcli.split_terse(r"*:Home\: 2.4 GHz:72:WPA2") == ["*", "Home: 2.4 GHz", "72", "WPA2"]
    assert nmcli.split_terse(r"back\\slash::") == ["back\\slash", "", ""]
    assert nmcli.rows("a:b\n\nbroken\nc:d\n", 2) == [["a", "b"], ["c", "d"]]


def test_an_nmcli_that_hangs_is_a_504_naming_the_timeout(tmp_path, monkeypatch):
    script = tmp_path / "hang.py"
    script.write_text("import time\ntime.sleep(30)\n")
    fake_commands.install(tmp_path / "bin", "nmcli", script)
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    with pytest.raises(nmcli.WifiCommandFailed) as caught:
        nmcli.run(["radio", "wifi"], timeout=0.5)
    assert caught.value.status == 504 and caught.value.error_code == "WIFI_TIMEOUT"
    assert "did not finish within 0.5 s" in caught.value.message


def test_a_refusal_carries_nmclis_message(tmp_path, monkeypatch):
    fake_commands.recorder(tmp_path / "bin", "nmcli", tmp_path / "calls", exit_code=8)
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    with pytest.raises(nmcli.WifiCommandFailed) as caught:
        nmcli.run(["radio", "wifi"])
    assert caught.value.status == 502 and caught.value.details == {"exit_code": 8}
    assert fake_commands.calls_of(tmp_path / "calls") == [["nmcli", "radio", "wifi"]]
