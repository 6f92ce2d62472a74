"""The paho client's options come from the settings: TLS, login, will, identity."""

from __future__ import annotations

import ssl

import paho.mqtt.client as mqtt

from shared.mqtt.client_options import client_id, make_client
from shared.mqtt.settings import MqttSettings, device_name


def test_tls_uses_the_system_authorities_and_checks_the_certificate() -> None:
    client = make_client(MqttSettings(enabled=True, host="broker.lan", port=8883, tls=True))
    context = client._ssl_context
    assert isinstance(context, ssl.SSLContext)
    assert context.verify_mode == ssl.CERT_REQUIRED and context.check_hostname
    assert context.cert_store_stats()["x509_ca"] > 0 or context.get_ca_certs() is not None


def test_no_tls_unless_asked() -> None:
    assert make_client(MqttSettings(enabled=True, host="b"))._ssl_context is None


def test_login_will_identity_and_session() -> None:
    settings = MqttSettings(enabled=True, host="b", username="u", password="p",
                            base_topic="home/panel")
    client = make_client(settings)
    assert client._username == b"u" and client._password == b"p"
    assert client._client_id == b"ledpanel-home-panel" == client_id("home/panel").encode()
    assert client._will and client._will_topic == b"home/panel/availability"
    assert client._will_payload == b"offline" and client._will_retain
    assert client._clean_session is False and client._manual_ack
    assert client._protocol == mqtt.MQTTv311


def test_a_test_connection_leaves_no_will_and_no_session() -> None:
    client = make_client(MqttSettings(enabled=True, host="b"), identity=client_id(None, "-test"),
                         will=False, persistent=False)
    assert not client._will and client._clean_session is True
    assert client._client_id.endswith(b"-test")


def test_two_panels_on_one_host_have_their_own_client_ids() -> None:
    # The broker drops the older of two clients with one id: they would take turns.
    assert client_id("ledpanel/hall") == "ledpanel-hall"
    assert client_id("ledpanel/kitchen") == "ledpanel-kitchen"
    assert client_id(None) == f"ledpanel-{device_name()}"


def test_no_login_without_a_username() -> None:
    assert make_client(MqttSettings(enabled=True, host="b", password="x"))._username is None
