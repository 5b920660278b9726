"""What the arcade counts of its connections (``damier.server.connections``): caps per address group and in all,
room made by closing the connection that has waited longest for a request, WebSockets, trusted proxies, and the
capacity the open-file limit leaves."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from damier.server.connections import (
    BACKLOG,
    Capacity,
    Connection,
    ConnectionLimits,
    ConnectionTable,
    Proxies,
    Refusal,
)


class Ends:
    """The connections the table closed to make room, by name."""

    def __init__(self) -> None:
        self.ended: list[str] = []

    def of(self, name: str) -> Callable[[], None]:
        return lambda: self.ended.append(name)


def table(connections: int = 100, proxies: str = "", **limits: int) -> ConnectionTable:
    bounds = ConnectionLimits(**limits)
    return ConnectionTable(Capacity(10_000, 0, connections, connections * 3 // 4), bounds, Proxies(proxies))


def admit(table: ConnectionTable, name: str, peer: str, ends: Ends | None = None) -> Connection:
    connection = table.open(name, peer, (ends or Ends()).of(name))
    assert isinstance(connection, Connection), connection
    return connection


def test_an_address_past_its_cap_is_refused_and_others_are_not() -> None:
    arcade = table(address_connections=2)
    admit(arcade, "a", "192.0.2.1")
    admit(arcade, "b", "192.0.2.1")
    refused = arcade.open("c", "192.0.2.1", lambda: None)
    assert isinstance(refused, Refusal) and refused.limit == "address_connections"
    admit(arcade, "d", "192.0.2.2")


def test_an_ipv6_client_is_counted_by_its_64() -> None:
    arcade = table(address_connections=2)
    admit(arcade, "a", "2001:db8:1:2::1")
    admit(arcade, "b", "2001:db8:1:2:ffff::9")
    assert isinstance(arcade.open("c", "2001:db8:1:2::77", lambda: None), Refusal)
    admit(arcade, "d", "2001:db8:1:3::1")


def test_a_closed_connection_frees_its_place_once() -> None:
    arcade = table(address_connections=1)
    first = admit(arcade, "a", "192.0.2.1")
    arcade.close(first)
    arcade.close(first)
    admit(arcade, "b", "192.0.2.1")
    assert isinstance(arcade.open("c", "192.0.2.1", lambda: None), Refusal)


def test_a_full_arcade_closes_the_connection_that_waited_longest_for_a_request() -> None:
    arcade, ends = table(connections=3), Ends()
    old, answering, recent = (admit(arcade, name, f"192.0.2.{i}", ends)
                              for i, name in enumerate(("old", "answering", "recent")))
    arcade.waiting(old)
    arcade.waiting(recent)
    arcade.busy(answering)
    admit(arcade, "new", "192.0.2.9", ends)
    assert ends.ended == ["old"] and len(arcade) == 3
    arcade.close(old)  # its connection_lost, later: nothing more
    assert len(arcade) == 3
    admit(arcade, "newer", "192.0.2.10", ends)
    assert ends.ended == ["old", "recent"]


def test_a_full_arcade_with_no_connection_waiting_refuses() -> None:
    arcade = table(connections=2)
    for i in range(2):
        arcade.busy(admit(arcade, f"c{i}", f"192.0.2.{i}"))
    refused = arcade.open("c", "192.0.2.3", lambda: None)
    assert isinstance(refused, Refusal) and refused.limit == "connections"
    assert b"HTTP/1.1 503" in refused.http() and b"retry-after: " in refused.http()


def test_a_connection_that_waits_again_goes_last() -> None:
    arcade, ends = table(connections=2), Ends()
    first, second = admit(arcade, "first", "192.0.2.1", ends), admit(arcade, "second", "192.0.2.2", ends)
    arcade.waiting(first)
    arcade.waiting(second)
    arcade.waiting(first)  # answered, and waiting for its next request
    admit(arcade, "third", "192.0.2.3", ends)
    assert ends.ended == ["second"]


def test_websockets_are_capped_per_address_and_in_all_and_never_closed_to_make_room() -> None:
    arcade, ends = table(connections=8, address_sockets=2), Ends()
    sockets = [admit(arcade, f"s{i}", "192.0.2.1", ends) for i in range(3)]
    arcade.waiting(sockets[0])
    assert arcade.open_socket(sockets[0], "192.0.2.1") is None
    assert arcade.open_socket(sockets[1], "192.0.2.1") is None
    refused = arcade.open_socket(sockets[2], "192.0.2.1")
    assert refused is not None and refused.limit == "address_sockets"
    others = [admit(arcade, f"o{i}", f"198.51.100.{i}", ends) for i in range(5)]
    for other in others[:4]:
        assert arcade.open_socket(other, other.group or "") is None
    full = arcade.open_socket(others[4], "198.51.100.4")
    assert full is not None and full.limit == "sockets"  # 6 of 8 connections
    assert isinstance(arcade.open("late", "203.0.113.1", lambda: None), Refusal)
    assert ends.ended == []
    arcade.close(sockets[0])
    assert arcade.sockets == 5 and arcade.open_socket(sockets[2], "192.0.2.1") is None


def test_a_trusted_proxys_connections_are_not_capped_as_one_address() -> None:
    arcade = table(address_connections=2, proxies="10.0.0.0/8")
    for i in range(5):
        admit(arcade, f"p{i}", "10.1.2.3")
    assert isinstance(arcade.open("x", "192.0.2.1", lambda: None), Connection)


def test_proxies_are_addresses_or_networks() -> None:
    with pytest.raises(ValueError, match=r"'proxy\.local' is neither an address nor a network"):
        Proxies("10.0.0.1, proxy.local")
    assert Proxies("10.0.0.1 , ::1").spec == "10.0.0.1,::1"
    assert not Proxies() and "127.0.0.1" not in Proxies()


def test_the_client_behind_trusted_proxies_is_the_last_address_not_a_proxy() -> None:
    proxies = Proxies("10.0.0.0/8")
    assert proxies.client("10.0.0.1", ["203.0.113.5, 198.51.100.2, 10.0.0.7"]) == "198.51.100.2"
    assert proxies.client("192.0.2.1", ["203.0.113.5"]) == "192.0.2.1"  # not a proxy: its header is not believed
    assert proxies.client("10.0.0.1", []) == "10.0.0.1"
    assert Proxies("*").client("192.0.2.1", ["203.0.113.5"]) == "203.0.113.5"
    assert Proxies("10.0.0.1, *").spec == "*"


def test_the_capacity_is_the_open_file_limit_less_a_reserve() -> None:
    small = Capacity.of(1024, 2, ConnectionLimits())
    assert small.reserve > BACKLOG and small.connections == (1024 - small.reserve) // 2
    assert small.sockets == small.connections * 3 // 4
    assert small.concurrency > small.connections
    assert Capacity.of(1 << 20, 2, ConnectionLimits()).connections == ConnectionLimits().connections
    assert Capacity.of(1 << 20, 2, ConnectionLimits(connections=10)).connections == 10
    with pytest.raises(ValueError, match=r"the open-file limit \(128\) is too low"):
        Capacity.of(128, 1, ConnectionLimits())


def test_bounds_are_named_whole_numbers() -> None:
    assert ConnectionLimits.parse(" header_seconds = 3 ,address_sockets=4") == ConnectionLimits(
        header_seconds=3, address_sockets=4)
    for bad in ("header_seconds=0", "sockets=many", "speed=3"):
        with pytest.raises(ValueError, match="a bound is NAME=N with N >= 1"):
            ConnectionLimits.parse(bad)


@pytest.mark.parametrize(("limits", "pings", "messages"), [({}, 40, 180),
                                                            ({"address_pings": 10, "address_messages": 100}, 100, 300)])
def test_an_address_group_may_send_its_burst_of_pings_and_messages_and_no_more(limits: dict[str, int], pings: int,
                                                                               messages: int) -> None:
    arcade = table(**limits)
    taken = [sum(budgets.take("10.0.0.1") for _ in range(1000)) for budgets in (arcade.pings, arcade.messages)]
    # at once: ten times the pings a second, three times the messages (the bucket refills a little meanwhile)
    assert pings <= taken[0] <= pings + 1 and messages <= taken[1] <= messages + 1, taken
    assert arcade.messages.take("10.0.0.2") and arcade.pings.take("10.0.0.2")  # another address has its own
