"""Who gets in and with what: the gate's limits, the terminal a client may ask for, the protocol's lines."""

from __future__ import annotations

import pytest

from soluna_tui.link.messages import ChooseName
from soluna_tui.link.protocol import ProtocolError, decode, encode
from soluna_tui.server.config import Limits
from soluna_tui.server.gate import EXPLAINING_AT_ONCE, Admission, Gate, RateWindow, client_key
from soluna_tui.server.sessions.client_env import ascii_wanted, child_environment, clamp_size, term_refusal

from .helpers import Clock


@pytest.mark.parametrize(("address", "key"), [
    ("192.0.2.7", "192.0.2.7"), ("2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"),
    ("2001:db8:1:2:ffff::9", "2001:db8:1:2::/64"), ("::ffff:192.0.2.7", "192.0.2.7"), ("fe80::1%eth0", "fe80::/64"),
])
def test_addresses_are_counted_per_ipv4_address_or_ipv6_64(address, key) -> None:
    assert client_key(address) == key


def test_a_rate_window_forgets_after_a_minute_and_counts_hammering() -> None:
    clock = Clock()
    window = RateWindow(2, clock=clock)
    assert window.allow("a") and window.allow("a") and not window.allow("a")
    assert window.allow("b")
    clock.now += 30
    assert not window.allow("a")  # refused attempts count too
    clock.now += 61
    assert window.allow("a")


def test_the_gate_caps_per_address_and_game_sessions_in_all() -> None:
    gate = Gate(Limits(sessions=2, per_ip=2, new_per_minute=100), clock=Clock())
    assert gate.admit_connection("2001:db8::1", "a") == Admission()
    gate.started("2001:db8::1", "a")  # playing: its unstarted place is free again, its connection place is not
    assert gate.admit_connection("2001:db8::2", "b") == Admission()
    refused = gate.admit_connection("2001:db8::3", "c")
    assert refused.refusal.startswith("Slow down: at most 2 connections at once") and refused.explain
    gate.release_connection("2001:db8::2", "b")
    assert gate.admit_connection("2001:db8::5", "d") == Admission()
    assert (gate.connections, gate.unstarted) == (2, 1)
    assert gate.admit_session() is None and gate.admit_session() is None
    assert gate.admit_session().startswith("Server full: 2 players are on already")
    gate.release_session()
    assert gate.admit_session() is None


def test_unstarted_connections_never_keep_a_newcomer_out() -> None:
    clock = Clock()
    gate = Gate(Limits(per_ip=3, unstarted=4, unstarted_per_ip=2, new_per_minute=100), clock=clock)
    for name, address in [("a1", "192.0.2.1"), ("a2", "192.0.2.1"), ("b1", "192.0.2.2"), ("c1", "192.0.2.3")]:
        assert gate.admit_connection(address, name) == Admission()
        clock.now += 1
    assert gate.admit_connection("192.0.2.1", "a3").refusal == ("Slow down: at most 2 connections from one "
                                                                "address may be logging in at once.")
    # Every unstarted place is taken: the one waiting longest at the address holding most of them makes room.
    assert gate.admit_connection("198.51.100.9", "player") == Admission(evicted="a1")
    clock.now += 1
    assert gate.admit_connection("192.0.2.4", "d1") == Admission(evicted="a2")
    assert gate.admit_connection("192.0.2.5", "e1") == Admission(evicted="b1")  # one each now: the oldest goes
    assert gate.unstarted == 4
    for name, address in [("a1", "192.0.2.1"), ("a2", "192.0.2.1"), ("b1", "192.0.2.2")]:
        gate.release_connection(address, name)  # the closed ones go
    assert gate.unstarted == 4 and gate.connections == 4


def test_a_refusal_is_explained_unless_the_address_hammers_or_too_many_wait() -> None:
    gate = Gate(Limits(new_per_minute=2), clock=Clock())
    answers = [gate.admit_connection("192.0.2.1", number) for number in range(6)]
    assert [answer.refusal is None for answer in answers] == [True, True, False, False, False, False]
    assert [answer.explain for answer in answers[2:]] == [True, False, False, False]  # four tries: twice the limit
    assert gate.hold_to_explain("192.0.2.1") and gate.hold_to_explain("192.0.2.1")
    assert not gate.hold_to_explain("192.0.2.1")  # a few from one address at once
    gate.explained("192.0.2.1")
    assert gate.hold_to_explain("192.0.2.1")
    others = [gate.hold_to_explain(f"198.51.100.{number}") for number in range(EXPLAINING_AT_ONCE)]
    assert others.count(False) == 2  # and a few in all


@pytest.mark.parametrize(("term", "refused"), [
    ("xterm-256color", None), ("screen.xterm-256color", None), ("vt100", None), (None, "needs a terminal"),
    ("", "TERM=unset"), ("dumb", "TERM=dumb"), ("xterm;rm -rf /", "not one the game can trust"),
    ("\x1b]0;pwned\x07", "not one the game can trust"), ("x" * 60, "not one the game can trust"),
])
def test_terminal_types(term, refused) -> None:
    reason = term_refusal(term)
    assert (reason is None) if refused is None else (refused in reason)


def test_only_term_and_colour_hints_reach_the_child() -> None:
    requested = {"NO_COLOR": "yes", "COLORTERM": "truecolor", "LD_PRELOAD": "/evil.so", "TERM": "ignored",
                 "PATH": "/evil", "TEXTUAL": "devtools"}
    assert child_environment("xterm", requested) == {"TERM": "xterm", "NO_COLOR": "1", "COLORTERM": "truecolor"}
    assert child_environment("xterm", {"NO_COLOR": "", "COLORTERM": "true\x1bcolor"}) == {"TERM": "xterm"}
    assert child_environment("xterm", {"NO_COLOR": "x" * 100}) == {"TERM": "xterm"}


def test_ascii_drawing_follows_the_console_or_a_non_utf8_locale() -> None:
    assert not ascii_wanted("xterm-256color", {})
    assert ascii_wanted("linux", {})
    assert ascii_wanted("xterm", {"LANG": "en_US.ISO-8859-1"})
    assert not ascii_wanted("xterm", {"LANG": "de_DE.UTF-8"})
    assert not ascii_wanted("xterm", {"LANG": "bad value; x" * 10})


@pytest.mark.parametrize(("asked", "given"), [((80, 24), (80, 24)), ((0, 0), (1, 1)), ((10**6, 10**6), (500, 200)),
                                              ((501, 199), (500, 199))])
def test_window_sizes_are_clamped(asked, given) -> None:
    assert clamp_size(*asked) == given


@pytest.mark.parametrize("line", [b"not json\n", b"[1, 2]\n", b'{"no": "type"}\n', b'{"type": 3}\n', b"\xff\xfe\n",
                                  b"[" * 100_000 + b"\n"])
def test_lines_that_are_not_messages(line) -> None:
    with pytest.raises(ProtocolError):
        decode(line)


def test_messages_round_trip_on_one_line_of_utf8() -> None:
    message = ChooseName("Zoë\nthe second")
    line = encode(message)
    assert decode(line) == message and line.count(b"\n") == 1 and "Zoë".encode() in line
