"""The MQTT settings read from config.json and config_secrets.json, tolerantly."""

from __future__ import annotations

import socket

import pytest

from shared.mqtt.settings import (
    DEFAULT_TLS_PORT,
    default_base_topic,
    read_settings,
    topic_name,
    topic_problem,
)


def test_defaults_when_nothing_is_set() -> None:
    settings = read_settings({}, {})
    assert (settings.enabled, settings.host) == (False, "")
    assert (settings.port, settings.tls) == (1883, False)
    assert settings.base_topic == default_base_topic()
    assert settings.discovery_prefix == "homeassistant"
    assert settings.problems == () and not settings.usable


def test_default_base_topic_is_the_host_name_made_safe(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(socket, "gethostname", lambda: "Living Room+Pi.local")
    assert default_base_topic() == "ledpanel/living-room-pi"
    assert topic_name("###") == "panel"


def test_values_and_credentials_are_read() -> None:
    config = {"mqtt": {"enabled": True, "host": " broker.lan ", "tls": True,
                       "base_topic": "home/panel", "discovery_prefix": "ha"}}
    secrets = {"mqtt": {"username": "panel", "password": " pass word "}}
    settings = read_settings(config, secrets)
    assert settings.usable and settings.host == "broker.lan"
    assert settings.port == DEFAULT_TLS_PORT  # TLS without a port: 8883
    assert (settings.username, settings.password) == ("panel", " pass word ")
    assert (settings.base_topic, settings.discovery_prefix) == ("home/panel", "ha")


@pytest.mark.parametrize(("section", "named"), [
    ({"port": 0}, "mqtt.port"), ({"port": "1883"}, "mqtt.port"), ({"port": True}, "mqtt.port"),
    ({"enabled": "yes"}, "mqtt.enabled"), ({"host": 5}, "mqtt.host"),
    ({"base_topic": "a/#"}, "mqtt.base_topic"),
    ({"discovery_prefix": "/ha"}, "mqtt.discovery_prefix"),
])
def test_a_bad_value_is_its_default_and_named(section: dict[str, object], named: str) -> None:
    settings = read_settings({"mqtt": section}, {})
    assert any(named in problem for problem in settings.problems)
    assert read_settings({}, {}).port == settings.port


def test_garbage_sections_do_not_raise() -> None:
    settings = read_settings({"mqtt": ["x"]}, {"mqtt": "nope"})
    assert settings.problems == ("mqtt is not an object",)


@pytest.mark.parametrize("topic", ["", "a//b", "/a", "a/", "a/+/b", "$SYS/x", "x" * 201])
def test_topic_problems(topic: str) -> None:
    assert topic_problem(topic) is not None


def test_a_plain_topic_has_no_problem() -> None:
    assert topic_problem("ledpanel/kitchen") is None
