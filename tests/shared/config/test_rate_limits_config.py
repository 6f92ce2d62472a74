"""``web.rate_limits``: read tolerantly, checked strictly on save."""

from __future__ import annotations

import ipaddress
from typing import Any

import pytest

from shared.config.limits import check_config_limits
from shared.config.rate_limits import (
    DEFAULT_PER_MINUTE,
    MAX_EXEMPT_ADDRESSES,
    RateLimitSettings,
    settings_from,
)
from shared.errors import ValidationError


def _web(**section: Any) -> dict[str, Any]:
    return {"rate_limits": section}


def test_defaults_when_the_section_is_missing_or_not_an_object() -> None:
    for web in (None, [], {}, {"rate_limits": "on"}, _web()):
        found = settings_from(web)
        assert found == RateLimitSettings()
        assert found.enabled and found.exempt_loopback
        assert dict(found.per_minute) == DEFAULT_PER_MINUTE


def test_a_hand_edit_gone_wrong_falls_back_value_by_value() -> None:
    found = settings_from(_web(enabled="no", exempt_loopback=0,
                               exempt_addresses=["10.0.0.0/8", "nonsense", 7],
                               per_minute={"store": 5, "uploads": 0, "backup": True,
                                           "renders": "9", "nope": 3}))
    assert found.enabled and found.exempt_loopback
    assert found.exempt_networks == (ipaddress.ip_network("10.0.0.0/8"),)
    assert dict(found.per_minute) == {**DEFAULT_PER_MINUTE, "store": 5}


def test_who_is_exempt() -> None:
    default = RateLimitSettings()
    assert default.exempt("127.0.0.1") and default.exempt("::1")
    assert default.exempt("::ffff:127.0.0.1")
    assert not default.exempt("192.168.1.5") and not default.exempt(None)
    assert not default.exempt("not an address")
    listed = settings_from(_web(exempt_loopback=False,
                                exempt_addresses=["192.168.1.0/24", "fd00::/8"]))
    assert not listed.exempt("127.0.0.1")
    assert listed.exempt("192.168.1.77") and listed.exempt("fd00::5")
    assert listed.exempt("::ffff:192.168.1.3")
    assert not listed.exempt("192.168.2.1") and not listed.exempt("fe80::1%eth0")


def _save(section: dict[str, Any]) -> None:
    check_config_limits({"web": {"rate_limits": section}})


@pytest.mark.parametrize(("section", "field", "code"), [
    ({"enabled": "yes"}, "web.rate_limits.enabled", "INVALID_FIELD"),
    ({"exempt_loopback": 1}, "web.rate_limits.exempt_loopback", "INVALID_FIELD"),
    ({"exempt_addresses": "10.0.0.1"}, "web.rate_limits.exempt_addresses", "INVALID_FIELD"),
    ({"exempt_addresses": ["10.0.0.1", "10.0.0.300"]}, "web.rate_limits.exempt_addresses",
     "INVALID_FIELD"),
    ({"exempt_addresses": ["10.0.0.1"] * (MAX_EXEMPT_ADDRESSES + 1)},
     "web.rate_limits.exempt_addresses", "INVALID_FIELD"),
    ({"per_minute": {"stores": 5}}, "web.rate_limits.per_minute", "INVALID_FIELD"),
    ({"per_minute": {"store": 2.5}}, "web.rate_limits.per_minute", "INVALID_FIELD"),
    ({"per_minute": {"store": 0}}, "web.rate_limits.per_minute.store", "OUT_OF_RANGE"),
    ({"per_minute": {"checks": 10_001}}, "web.rate_limits.per_minute.checks", "OUT_OF_RANGE"),
])
def test_a_save_refuses_what_the_section_cannot_hold(section, field, code) -> None:
    with pytest.raises(ValidationError) as caught:
        _save(section)
    assert caught.value.error_code == code
    assert caught.value.details["field"] == field


def test_a_save_takes_good_values() -> None:
    _save({"enabled": False, "exempt_loopback": False,
           "exempt_addresses": ["192.168.1.20", "192.168.1.0/24", "fd00::/8"],
           "per_minute": {"store": 1, "checks": 10_000}})
