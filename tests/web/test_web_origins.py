"""Where the web door's page is its own, without a server: the public URL's origin, else the address listened on,
localhost and the names the owner gives; never the Host a request says (DNS rebinding)."""

from __future__ import annotations

import pytest

from soluna_tui.server.web.origins import Host, PageOrigins, WebHostNameError, parse_host_name


def test_a_door_on_one_address_is_its_own_at_that_address_at_the_port_the_host_says() -> None:
    origins = PageOrigins.of(None, "127.0.0.1")
    assert origins.origin("127.0.0.1:8080") == "http://127.0.0.1:8080"
    assert origins.origin("127.0.0.1") == "http://127.0.0.1"  # port 80, forwarded to the door's
    assert origins.origin("LOCALHOST:8080") == "http://localhost:8080"  # a loopback door: localhost too
    for host in ("rebind.attacker.example:8080", "[::1]:8080", "127.0.0.2:8080", "", "a b:8080",
                 "127.0.0.1:8080/x", "127.0.0.1:99999", "127.0.0.1:0"):
        assert origins.origin(host) is None, host
    lan = PageOrigins.of(None, "192.0.2.7")
    assert lan.origin("192.0.2.7:8080") == "http://192.0.2.7:8080" and lan.origin("localhost:8080") is None
    six = PageOrigins.of(None, "::1")
    assert six.origin("[0:0::1]:8080") == "http://[::1]:8080" and six.origin("localhost:8080") == "http://localhost:8080"


def test_a_door_on_every_address_is_its_own_at_any_address_typed_but_at_no_name_it_was_not_given() -> None:
    for listening in ("0.0.0.0", "::", ""):
        origins = PageOrigins.of(None, listening)
        assert origins.origin("192.0.2.7:8080") == "http://192.0.2.7:8080"
        assert origins.origin("[2001:DB8::7]:8080") == "http://[2001:db8::7]:8080"
        assert origins.origin("localhost:8080") == "http://localhost:8080"
        assert origins.origin("rebind.attacker.example:8080") is None  # a name resolving to us: not ours
        assert origins.origin("rebind.attacker.example") is None


def test_the_names_the_owner_gives_are_its_own() -> None:
    origins = PageOrigins.of(None, "0.0.0.0", ("soluna.lan", "play.example.org", "2001:db8::9"))
    assert origins.origin("Soluna.LAN:8080") == "http://soluna.lan:8080"
    assert origins.origin("soluna.lan.:8080") == "http://soluna.lan:8080"
    assert origins.origin("play.example.org") == "http://play.example.org"  # port 80: none in the origin
    assert origins.origin("[2001:db8::9]:443") == "http://[2001:db8::9]:443"
    assert origins.origin("other.example.org") is None
    assert PageOrigins.of(None, "127.0.0.1", ("soluna.lan",)).origin("soluna.lan:8080") == "http://soluna.lan:8080"


def test_a_public_url_is_the_only_origin_whatever_the_host() -> None:
    origins = PageOrigins.of("https://soluna.example.org", "127.0.0.1")
    assert origins.origin("127.0.0.1:8080") == origins.origin("anything") == "https://soluna.example.org"


def test_a_host_name_is_read_as_a_browser_writes_it() -> None:
    assert parse_host_name(" Soluna.LAN ") == "soluna.lan"
    assert parse_host_name("[2001:DB8:0::9]") == "2001:db8::9"
    assert parse_host_name("192.0.2.7") == "192.0.2.7"


@pytest.mark.parametrize(("text", "said"), [
    ("http://soluna.lan", "is not a host name or address"), ("soluna lan", "is not a host name or address"),
    ("[zz::1]", "is not a host name or address"), ("::1", "is not a host name or address"),
    ("a..b", "is not a host name or address"), ("", "is not a host name or address"),
    ("soluna.lan/play", "is not a host name or address"), ("[192.0.2.1]", "is not a host name or address"),
    ("soluna.lan:8080", "without a port"),
])
def test_a_host_name_that_is_none_is_said_in_one_line(text: str, said: str) -> None:
    with pytest.raises(WebHostNameError, match=said) as caught:
        parse_host_name(text)
    assert "\n" not in str(caught.value)


def test_a_host_is_read_as_a_browser_writes_its_origin() -> None:
    assert Host.parse("Example.ORG") == Host("example.org", 80)
    assert Host.parse("[2001:DB8:0::1]:8443") == Host("2001:db8::1", 8443)
    assert Host("2001:db8::1", 8443).origin == "http://[2001:db8::1]:8443"
