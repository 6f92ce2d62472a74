"""One connection attempt with given settings, answered as a sentence (the web's
"Test connection"): connected, refused by the broker (and why), or not reachable.

It uses a client id of its own (``-test``) and a clean session, so it never takes the
running bridge's place at the broker, and leaves no will behind.
"""

from __future__ import annotations

import socket
import ssl
import threading
from typing import Any

import paho.mqtt.client as mqtt

from shared.mqtt.client_options import KEEPALIVE, client_id, make_client
from shared.mqtt.settings import MqttSettings

TIMEOUT = 5.0  # seconds for the whole attempt


def connect_once(client: mqtt.Client, settings: MqttSettings,
                 timeout: float = TIMEOUT) -> str | None:
    """Connect ``client`` and start its network thread; return None once the broker
    accepted it, else a sentence saying what went wrong. The caller disconnects and
    stops the loop in either case."""
    where = f"{settings.host}:{settings.port}"
    client.connect_timeout = timeout
    answered = threading.Event()
    outcome: list[Any] = []

    def on_connect(_client: mqtt.Client, _userdata: Any, _flags: Any, reason: Any,
                   _properties: Any) -> None:
        outcome.append(reason)
        answered.set()

    client.on_connect = on_connect
    try:
        client.connect(settings.host, settings.port, KEEPALIVE)
    except (OSError, ValueError) as err:
        return _unreachable(where, err)
    client.loop_start()
    if not answered.wait(timeout):
        return f"the broker at {where} did not answer within {timeout:g} s"
    if outcome[0].is_failure:
        return f"the broker at {where} refused the connection: {outcome[0]}"
    return None


def probe(settings: MqttSettings, timeout: float = TIMEOUT) -> tuple[bool, str]:
    """Connect once; return whether it worked and a sentence saying what happened."""
    client = make_client(settings, identity=client_id(settings.base_topic, "-test"),
                         will=False, persistent=False)
    try:
        problem = connect_once(client, settings, timeout)
        if problem is not None:
            return False, problem
        return True, f"connected to the broker at {settings.host}:{settings.port}"
    finally:
        client.disconnect()
        client.loop_stop()


def _unreachable(where: str, err: BaseException) -> str:
    if isinstance(err, socket.gaierror):
        return f"the broker's host name in {where} does not resolve"
    if isinstance(err, ConnectionRefusedError):
        return f"nothing accepts connections at {where} (connection refused)"
    if isinstance(err, ssl.SSLError | ssl.CertificateError):
        return f"the TLS handshake with {where} failed: {err}"
    if isinstance(err, TimeoutError | socket.timeout):
        return f"the broker at {where} did not answer (timed out)"
    return f"cannot reach the broker at {where}: {err}"
