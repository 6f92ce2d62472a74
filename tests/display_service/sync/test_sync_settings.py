"""The sync settings as the display reads them: defaults, bad values, the panel's name."""

from __future__ import annotations

import pytest

from display_service.sync.settings import read_sync_settings
from shared.config.values import check_value
from shared.errors import ValidationError

BROKER = {"enabled": True, "host": "127.0.0.1", "port": 1883, "base_topic": "ledpanel/hall"}


def test_defaults_make_a_standalone_panel_without_a_connection() -> None:
    settings = read_sync_settings({})
    assert (settings.role, settings.group, settings.leader, settings.position) == (
        "standalone", "home", "", "none")
    assert not settings.active and settings.why_inactive() is None and not settings.problems


def test_a_follower_on_a_usable_broker_is_active_and_named_by_its_base_topic() -> None:
    settings = read_sync_settings({"sync": {"role": "follower", "group": "wall",
                                            "leader": "hall-2", "follower_position": "left"},
                                   "mqtt": {**BROKER, "base_topic": "home/panels/Kitchen"}})
    assert settings.active and settings.name == "kitchen"
    assert (settings.role, settings.group, settings.leader, settings.position) == (
        "follower", "wall", "hall-2", "left")


def test_a_leader_without_a_broker_says_why_it_makes_no_connection() -> None:
    settings = read_sync_settings({"sync": {"role": "leader"}, "mqtt": {"enabled": False}})
    assert not settings.active
    assert "mqtt.enabled" in str(settings.why_inactive())


def test_bad_values_in_a_hand_edited_file_get_their_defaults_and_a_problem() -> None:
    settings = read_sync_settings({"sync": {"role": "boss", "group": "Home Wall",
                                            "leader": 5, "follower_position": "up"},
                                   "mqtt": BROKER})
    assert (settings.role, settings.group, settings.leader, settings.position) == (
        "standalone", "home", "", "none")
    assert len(settings.problems) == 4 and "sync.group" in settings.problems[1]


@pytest.mark.parametrize(("name", "value"), [
    ("sync.role", "boss"), ("sync.role", ""), ("sync.group", ""), ("sync.group", "Home"),
    ("sync.group", "a/b"), ("sync.group", "x" * 65), ("sync.leader", "hall#"),
    ("sync.leader", None),
])
def test_saves_refuse_what_the_display_could_not_use(name: str, value: object) -> None:
    with pytest.raises(ValidationError, match=name):
        check_value(name, value)


@pytest.mark.parametrize(("name", "value"), [
    ("sync.role", "leader"), ("sync.role", "follower"), ("sync.role", "standalone"),
    ("sync.group", "living-room_2"), ("sync.leader", ""), ("sync.leader", "hall"),
])
def test_saves_take_what_the_display_uses(name: str, value: object) -> None:
    check_value(name, value)
