"""Each client address's share of the web's connections (the guard's own rules; the
daemon under a real flood is tests/web_service/test_slow_clients.py)."""

from __future__ import annotations

from web_service.connection_guard import ConnectionGuard, _address


def test_one_address_gets_its_share_and_gets_it_back_as_connections_close():
    guard = ConnectionGuard(per_address=3, limit=100, reserve=10, few=2)
    assert [guard.admit("10.0.0.5") for _ in range(4)] == [True, True, True, False]
    assert guard.admit("10.0.0.6")  # another address is not held up
    guard.release("10.0.0.5")
    assert guard.admit("10.0.0.5")
    assert guard.open_count("10.0.0.5") == 3


def test_a_crowded_server_keeps_its_last_connections_for_addresses_with_few():
    guard = ConnectionGuard(per_address=10, limit=20, reserve=5, few=2)
    greedy = [f"10.0.0.{n}" for n in range(1, 4)]
    admitted = sum(guard.admit(address) for address in greedy for _ in range(10))
    # 10, then 5 (crowded from 15 open on), then 2: a newcomer's browser-worth.
    assert admitted == 17
    for address in greedy:
        assert not guard.admit(address)
    newcomers = [f"10.0.1.{n}" for n in range(1, 4)]
    assert all(guard.admit(address) for address in newcomers)  # the reserve, one each
    assert not guard.admit("10.0.2.1")  # full: 20 open


def test_releasing_more_than_was_admitted_changes_nothing():
    guard = ConnectionGuard(per_address=1, limit=2, reserve=0, few=1)
    guard.release("10.0.0.5")
    assert guard.admit("10.0.0.5") and guard.admit("10.0.0.6")
    assert not guard.admit("10.0.0.7")


def test_an_ipv6_client_counts_by_its_64_and_a_mapped_ipv4_by_its_address():
    assert _address(("127.0.0.1", 5000)) == "127.0.0.1"
    assert _address(("2001:db8:1:2:aaaa::1", 5000, 0, 0)) == "2001:db8:1:2::/64"
    assert _address(("2001:db8:1:2:bbbb::9", 5000, 0, 0)) == "2001:db8:1:2::/64"
    assert _address(("fe80::1%eth0", 5000, 0, 2)) == "fe80::/64"
    assert _address(("::ffff:192.168.1.7", 5000, 0, 0)) == "192.168.1.7"
