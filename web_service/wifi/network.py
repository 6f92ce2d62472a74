"""What the Wi-Fi routes and the monitor ask NetworkManager: state, scan, connect,
forget, the setup access point and the radio, each one or a few ``nmcli`` calls."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from shared.errors import ValidationError
from web_service.wifi import nmcli

AP_NAME = "ledpanel-setup"  # the setup access point's SSID and its connection's name
AP_ADDRESS = "10.42.0.1"  # the panel's address on the access point (shared mode)
WIFI_TYPE = "802-11-wireless"
MAX_SSID_BYTES = 32
PSK_LENGTHS = (8, 63)


@dataclass(frozen=True)
class Device:
    """One network device as ``nmcli device status`` lists it."""

    name: str
    kind: str
    state: str
    connection: str


def devices() -> list[Device]:
    out = nmcli.run(["-t", "-f", "DEVICE,TYPE,STATE,CONNECTION", "device", "status"])
    return [Device(*row) for row in nmcli.rows(out, 4)]


def wifi_device(found: list[Device] | None = None) -> Device | None:
    """The first Wi-Fi device, or None on a board without one."""
    return next((d for d in (found if found is not None else devices())
                 if d.kind == "wifi"), None)


def online(found: list[Device]) -> bool:
    """Whether any device is connected to a network other than the setup access point."""
    return any(d.state == "connected" and d.connection != AP_NAME
               and d.kind not in ("loopback", "wifi-p2p") for d in found)


def scan(rescan: bool = True) -> list[dict[str, Any]]:
    """Visible networks, strongest first, one entry per SSID (hidden ones left out)."""
    out = nmcli.run(["-t", "-f", "IN-USE,SSID,SIGNAL,SECURITY", "device", "wifi", "list",
                     "--rescan", "yes" if rescan else "no"], timeout=nmcli.SCAN_TIMEOUT)
    best: dict[str, dict[str, Any]] = {}
    for in_use, ssid, signal, security in nmcli.rows(out, 4):
        if not ssid:
            continue
        strength = int(signal) if signal.isdigit() else 0
        used = in_use.strip() == "*"
        seen = best.get(ssid)
        if seen is not None:
            used = used or seen["in_use"]
            if strength <= seen["signal"]:
                seen["in_use"] = used
                continue
        best[ssid] = {"ssid": ssid, "signal": strength,
                      "security": "" if security in ("", "--") else security, "in_use": used}
    return sorted(best.values(), key=lambda e: (not e["in_use"], -e["signal"]))


def saved_networks() -> list[str]:
    """Names of the saved Wi-Fi connections (nmcli names them after their SSID)."""
    out = nmcli.run(["-t", "-f", "NAME,TYPE", "connection", "show"])
    return [name for name, kind in nmcli.rows(out, 2) if kind == WIFI_TYPE and name != AP_NAME]


def radio_on() -> bool:
    return nmcli.run(["radio", "wifi"]).strip() == "enabled"


def set_radio(on: bool) -> None:
    nmcli.run(["radio", "wifi", "on" if on else "off"])


def address(device: str) -> str | None:
    out = nmcli.run(["-t", "-f", "IP4.ADDRESS", "device", "show", device])
    for row in nmcli.rows(out, 2):
        return row[1].split("/")[0] or None
    return None


def status() -> dict[str, Any]:
    """The Wi-Fi state the tab and GET /wifi/status show."""
    found = devices()
    device = wifi_device(found)
    radio = radio_on()
    if device is None:
        return {"device": None, "radio": radio, "connected": False, "ssid": None,
                "signal": None, "address": None, "ap_active": False, "ap_ssid": AP_NAME,
                "online": online(found)}
    ap_active = device.connection == AP_NAME
    connected = device.state == "connected" and not ap_active
    signal = None
    if connected:
        signal = next((n["signal"] for n in scan(rescan=False) if n["in_use"]), None)
    return {"device": device.name, "radio": radio, "connected": connected,
            "ssid": device.connection if connected else None, "signal": signal,
            "address": address(device.name) if connected or ap_active else None,
            "ap_active": ap_active, "ap_ssid": AP_NAME, "online": online(found)}


def check_ssid(value: Any) -> str:
    """An SSID as a request sent it; anything else is a 400 saying what is wrong."""
    if not isinstance(value, str) or not value:
        raise ValidationError("ssid is required: the name of the network to join",
                              error_code="INVALID_FIELD", details={"field": "ssid"})
    if len(value.encode("utf-8")) > MAX_SSID_BYTES or any(ord(c) < 32 for c in value):
        raise ValidationError("ssid is not a network name: at most 32 bytes, no control "
                              "characters", error_code="INVALID_FIELD", details={"field": "ssid"})
    return value


def check_password(value: Any) -> str | None:
    """A WPA passphrase (8-63 characters) or None for an open network; never echoed."""
    if value is None or value == "":
        return None
    if not isinstance(value, str) or any(ord(c) < 32 for c in value) or not (
            PSK_LENGTHS[0] <= len(value) <= PSK_LENGTHS[1]):
        raise ValidationError("the password must be 8 to 63 characters with no line breaks "
                              "(leave it empty for an open network)",
                              error_code="INVALID_FIELD", details={"field": "password"})
    return value


# nmcli's exit status when the connection, device or access point named does not exist.
NO_SUCH_NETWORK = 10


def connect(ssid: str, password: str | None) -> None:
    """Join ``ssid``; the passphrase goes to nmcli on standard input (``--ask``).

    Joining takes the radio from the setup access point; when joining fails, the access
    point is opened again so the phone that sent the password can try once more.
    """
    device = wifi_device()
    args = ["--wait", "30", "device", "wifi", "connect", ssid]
    if device is not None:
        args += ["ifname", device.name]
    try:
        if password is None:
            nmcli.run(args, timeout=nmcli.CONNECT_TIMEOUT)
        else:
            nmcli.run(["--ask", *args], timeout=nmcli.CONNECT_TIMEOUT, stdin=password + "\n")
    except nmcli.WifiCommandFailed as err:
        if device is not None and device.connection == AP_NAME:
            enable_ap()
        if isinstance(err.details, dict) and err.details.get("exit_code") == NO_SUCH_NETWORK:
            # The request named a network that is not there: the client's to fix (a 400),
            # not a failure of the panel's network tools (a 502).
            raise ValidationError(
                f"no network named {ssid!r} is in range (nmcli: {err.message})",
                error_code="INVALID_FIELD", details={"field": "ssid"}) from err
        raise


def disconnect(forget: str | None) -> str | None:
    """Disconnect the Wi-Fi device; with ``forget``, delete that saved network too.

    Return the network that was left (None when none was connected).
    """
    device = wifi_device()
    left = None
    if device is not None and device.state == "connected":
        left = device.connection
        nmcli.run(["device", "disconnect", device.name])
    if forget is not None:
        if forget not in saved_networks():
            raise ValidationError(f"no saved network is named {forget!r}",
                                  error_code="INVALID_FIELD", details={"field": "forget"})
        nmcli.run(["connection", "delete", "id", forget])
    return left


def enable_ap() -> None:
    """Open the setup access point (an open network named AP_NAME)."""
    device = wifi_device()
    if device is None:
        raise nmcli.WifiUnavailable("this device has no Wi-Fi adapter NetworkManager can use")
    names = nmcli.run(["-t", "-f", "NAME", "connection", "show"]).splitlines()
    if AP_NAME not in names:
        nmcli.run(["connection", "add", "type", "wifi", "ifname", device.name,
                   "con-name", AP_NAME, "autoconnect", "no", "ssid", AP_NAME,
                   "802-11-wireless.mode", "ap", "802-11-wireless.band", "bg",
                   "ipv4.method", "shared", "ipv4.addresses", f"{AP_ADDRESS}/24",
                   "ipv6.method", "ignore"])
    nmcli.run(["--wait", "20", "connection", "up", "id", AP_NAME],
              timeout=nmcli.CONNECT_TIMEOUT)


def disable_ap() -> bool:
    """Close the setup access point; return whether it was open."""
    out = nmcli.run(["-t", "-f", "NAME", "connection", "show", "--active"])
    if AP_NAME not in out.splitlines():
        return False
    nmcli.run(["connection", "down", "id", AP_NAME])
    return True


def ap_active() -> bool:
    out = nmcli.run(["-t", "-f", "NAME", "connection", "show", "--active"])
    return AP_NAME in out.splitlines()
