"""The Wi-Fi routes (``/wifi/...``, the existing system's paths): state, scan, connect,
disconnect or forget, the setup access point, its automatic opening and the radio.

All of them go through NetworkManager (``web_service.wifi``). A password is passed to
nmcli on standard input and is never answered, logged or stored here.
"""

from __future__ import annotations

from flask import Blueprint, request

from shared.errors import ValidationError
from web_service.api.requests import json_object
from web_service.envelope import Reply, ok
from web_service.services import services
from web_service.wifi import captive, network, settings_file
from web_service.wifi.monitor_restart import restart_monitor

bp = Blueprint("wifi", __name__)


@bp.get("/wifi/status")
def status() -> Reply:
    """The Wi-Fi device, the network joined and its signal, the setup access point."""
    data = network.status()
    data[settings_file.AUTO_KEY] = settings_file.auto_enable(
        services().settings.paths.wifi_config_file)
    return ok(data)


@bp.get("/wifi/scan")
def scan() -> Reply:
    """Scan for networks in range; also the saved networks."""
    return ok({"networks": network.scan(), "saved": network.saved_networks()})


@bp.post("/wifi/connect")
def connect() -> Reply:
    """Join a network (``ssid``, ``password`` for a secured one)."""
    body = json_object()
    ssid = network.check_ssid(body.get("ssid"))
    password = network.check_password(body.get("password"))
    network.connect(ssid, password)
    captive.forget_ap_state()
    return ok({"ssid": ssid}, f"connected to {ssid}")


@bp.post("/wifi/disconnect")
def disconnect() -> Reply:
    """Leave the network joined; ``forget`` also deletes a saved network."""
    forget = json_object().get("forget")
    if forget is not None:
        forget = network.check_ssid(forget)
    left = network.disconnect(forget)
    parts = [f"disconnected from {left}" if left else "no network was connected"]
    if forget:
        parts.append(f"forgot {forget}")
    return ok({"disconnected": left, "forgotten": forget}, "; ".join(parts))


@bp.post("/wifi/ap/enable")
def ap_enable() -> Reply:
    """Open the setup access point (an open network)."""
    network.enable_ap()
    captive.forget_ap_state()
    return ok({"ap_active": True, "ap_ssid": network.AP_NAME},
              f"the setup access point {network.AP_NAME} is open; join it and open "
              f"http://{network.AP_ADDRESS}")


@bp.post("/wifi/ap/disable")
def ap_disable() -> Reply:
    """Close the setup access point."""
    was_open = network.disable_ap()
    captive.forget_ap_state()
    return ok({"ap_active": False}, "the setup access point is closed" if was_open
              else "the setup access point was not open")


@bp.route("/wifi/ap/auto-enable", methods=["GET", "POST"])
def auto_enable() -> Reply:
    """Read or set auto_enable_ap_mode; a change restarts the Wi-Fi monitor."""
    path = services().settings.paths.wifi_config_file
    if request.method == "GET":
        return ok({settings_file.AUTO_KEY: settings_file.auto_enable(path)})
    body = json_object()
    if settings_file.AUTO_KEY not in body:
        raise ValidationError(f"send {settings_file.AUTO_KEY}: true or false",
                              error_code="INVALID_FIELD", details={"field": settings_file.AUTO_KEY})
    value = settings_file.set_auto_enable(path, body[settings_file.AUTO_KEY])
    restarted, message = restart_monitor()
    return ok({settings_file.AUTO_KEY: value, "monitor_restarted": restarted}, message)


@bp.route("/wifi/radio", methods=["GET", "POST"])
def radio() -> Reply:
    """Read or switch the Wi-Fi radio (``enabled``)."""
    if request.method == "POST":
        enabled = json_object().get("enabled")
        if not isinstance(enabled, bool):
            raise ValidationError("send enabled: true or false", error_code="INVALID_FIELD",
                                  details={"field": "enabled"})
        network.set_radio(enabled)
        captive.forget_ap_state()
    on = network.radio_on()
    return ok({"enabled": on}, "the Wi-Fi radio is on" if on else "the Wi-Fi radio is off")
