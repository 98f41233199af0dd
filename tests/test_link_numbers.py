"""The link carries only numbers both its ends read: no ``Infinity`` or ``NaN`` is made or written.

``json.dumps`` writes ``Infinity`` unless told not to, and the link's reader refuses it: the
property test of ``test_messages`` found a message read back from a field holding one. Such a
message is refused where it is made (read from the wire) and where it is written (``encode``).
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from soluna_tui.link.messages import REPLIES, MatchState, ProtocolError
from soluna_tui.link.protocol import decode, encode
from soluna_tui.link.wire import from_wire, to_wire
from soluna_tui.rules import Match, MatchOptions

MATCH = Match(MatchOptions(discs=4), ("ann", "bob"), seed=3).to_dict()
NOT_FINITE = st.sampled_from([math.inf, -math.inf, math.nan])


def state_with(document: dict) -> MatchState:
    return MatchState("ABCD", 1, 0, document)


@given(NOT_FINITE, st.sampled_from(["top", "nested", "listed"]))
def test_encode_refuses_a_number_decode_would_refuse(number: float, where: str) -> None:
    document = {"top": {**MATCH, "extra": number}, "nested": {**MATCH, "extra": {"deep": number}},
                "listed": {**MATCH, "extra": [1, number]}}[where]
    with pytest.raises(ProtocolError, match="not finite"):
        encode(state_with(document))


@given(NOT_FINITE)
def test_a_message_read_from_the_wire_holds_no_such_number(number: float) -> None:
    wire = to_wire(state_with(MATCH))
    wire["match"] = {**MATCH, "extra": {"deep": [number]}}
    with pytest.raises(ProtocolError, match="not finite"):
        from_wire(wire, REPLIES)


def test_a_finite_message_still_goes_both_ways() -> None:
    message = state_with({**MATCH, "extra": [1.5, -2.0, 10**20]})
    assert decode(encode(message), REPLIES) == message
