"""Who meets whom, pure (``server/lobby/pairs.py``): quick matches' pairing and the challenges' limits, without a
server; and the terms as the store keeps them."""

from __future__ import annotations

import pytest

from soluna_tui.link.messages import MatchTerms, ProtocolError
from soluna_tui.rules import MatchOptions
from soluna_tui.rules.clock import ClockSetting
from soluna_tui.server.lobby.meeting import checked_terms, terms_document, terms_from_document
from soluna_tui.server.lobby.pairs import (
    KEYED_SHARE,
    OPEN_PER_ADDRESS,
    OPEN_PER_ADDRESS_TO_TARGET,
    OPEN_PER_SENDER,
    OPEN_PER_TARGET,
    accept_refusal,
    challenge_refusal,
    may_meet,
    partner_for,
    terms_agree,
    why_not_paired,
)
from soluna_tui.server.storage.pairing import ACCEPTED, CLAIMED, OPEN, ChallengeRecord, SeekRecord, Someone

BOX4 = MatchOptions.preset("box", stars_to_win=4).to_dict()
TERMS = terms_document(MatchTerms(BOX4, ClockSetting(3, 2), rated=True))
UNRATED = terms_document(MatchTerms(BOX4, ClockSetting(3, 2), rated=False))


def someone(name: str, key: bool = True, address: str | None = None, rating: int | None = None,
            person: str | None = None, session: str | None = None) -> Someone:
    fingerprint = f"SHA256:{name}" if key else None
    return Someone(person or (f"key:{fingerprint}" if key else f"guest:s1:{name}"), session or f"s1:{name}", "s1",
                   name, fingerprint, address or f"10.0.0.{len(name)}{ord(name[0])}", rating)


def seek(who: Someone, terms: dict = TERMS, since: float = 0.0, code: str | None = None) -> SeekRecord:
    return SeekRecord(who, terms, since, code)


def test_terms_agree_on_rules_stars_discs_clock_and_rating_but_not_on_who_opens() -> None:
    mine = terms_document(MatchTerms(MatchOptions.preset("box", stars_to_win=4, first_opener=0).to_dict(),
                                     ClockSetting(3, 2), rated=True, hints=True))
    theirs = terms_document(MatchTerms(MatchOptions.preset("box", stars_to_win=4, first_opener=1).to_dict(),
                                       ClockSetting(3, 2), rated=True, hints=False))
    assert terms_agree(mine, theirs)
    for other in (MatchTerms(MatchOptions.preset("online", stars_to_win=4).to_dict(), ClockSetting(3, 2), True),
                  MatchTerms(MatchOptions.preset("box", stars_to_win=3).to_dict(), ClockSetting(3, 2), True),
                  MatchTerms(MatchOptions.preset("box", stars_to_win=4, discs=10).to_dict(), ClockSetting(3, 2), True),
                  MatchTerms(BOX4, ClockSetting(10, 5), True), MatchTerms(BOX4, None, True),
                  MatchTerms(BOX4, ClockSetting(3, 2), False)):
        assert not terms_agree(mine, terms_document(other)), other


def test_the_terms_come_back_from_the_store_as_they_went_and_bad_options_are_refused() -> None:
    terms = MatchTerms(BOX4, ClockSetting(3, 2), rated=True, hints=True)
    assert terms_from_document(terms_document(terms)) == terms
    assert checked_terms(terms, keyed=False).rated is False  # a guest plays unrated
    assert checked_terms(terms, keyed=True) == terms
    with pytest.raises(ProtocolError):
        checked_terms(MatchTerms({"stars_to_win": 99}), keyed=True)
    with pytest.raises(ProtocolError):
        checked_terms(MatchTerms({"dance": 1}), keyed=True)


def test_nobody_meets_themselves_and_a_rated_match_needs_two_keys_from_two_addresses() -> None:
    ann, bob = someone("ann"), someone("bob")
    assert may_meet(ann, bob, rated=True)
    ann_again = someone("ann", session="s2:ann")  # the same key on another terminal
    assert not may_meet(ann, ann_again, rated=False) and not may_meet(ann, ann, rated=False)
    same_place = someone("bob", address=ann.address)
    assert not may_meet(ann, same_place, rated=True) and may_meet(ann, same_place, rated=False)
    guest = someone("cyd", key=False)
    assert not may_meet(ann, guest, rated=True) and may_meet(ann, guest, rated=False)
    other_key_same_person = someone("ann", person="key:SHA256:zed", session="s3:x")  # one key, other person id
    assert not may_meet(ann, other_key_same_person, rated=False)


def test_a_newcomer_is_paired_with_the_nearest_rating_else_whoever_waited_longest() -> None:
    ann = someone("ann", rating=1500)
    far, near, unrated = someone("bob", rating=1900), someone("cyd", rating=1450), someone("dan")
    waiting = [seek(far, since=1), seek(unrated, since=2), seek(near, since=3)]
    assert partner_for(seek(ann, since=9), waiting).seeker is near
    assert partner_for(seek(someone("eve"), since=9), waiting).seeker is far  # no rating: the longest waiting
    equal = [seek(someone("fay", rating=1600), since=5), seek(someone("gus", rating=1400), since=4)]
    assert partner_for(seek(ann, since=9), equal).seeker.name == "gus"  # as near: the longer waiting


def test_a_newcomer_waits_when_no_terms_agree_and_is_never_paired_with_themselves() -> None:
    ann, bob = someone("ann"), someone("bob")
    assert partner_for(seek(ann), [seek(bob, UNRATED)]) is None  # other terms: waits
    assert partner_for(seek(ann), [seek(someone("bob", address=ann.address))]) is None  # rated, one address
    assert partner_for(seek(ann, UNRATED), [seek(someone("bob", address=ann.address), UNRATED)]) is not None
    assert partner_for(seek(bob), [seek(someone("cyd"), code=CLAIMED)]) is None  # being paired already
    refusal = partner_for(seek(ann), [seek(someone("ann", session="s2:ann"))])
    assert refusal == "You are looking for an opponent on another terminal already."  # one queue at a time


def test_two_waiting_on_the_same_settings_but_rated_or_not_are_each_told_why() -> None:
    # Issue 39: a rated seeker and a guest with the same settings waited side by side forever, neither told why.
    ann, guest, bob = someone("ann"), someone("gus", key=False), someone("bob", address="10.1.1.1")
    rated, unrated = seek(ann), seek(guest, UNRATED)
    assert partner_for(unrated, [rated]) is None  # not paired...
    to_ann, to_guest = why_not_paired(rated, unrated), why_not_paired(unrated, rated)
    assert to_ann is not None and to_ann.startswith("gus, a guest, waits on the same settings, unrated")
    assert "set Rated to no" in to_ann
    assert to_guest is not None and "a guest's matches are unrated" in to_guest  # ...and both told why
    assert "set Rated to yes" in why_not_paired(seek(bob, UNRATED), rated)
    next_door = someone("eve", address=ann.address)
    assert "from your address" in why_not_paired(rated, seek(next_door))
    assert why_not_paired(rated, seek(bob)) is None  # they would be paired: nothing to say
    other_stars = terms_document(MatchTerms(MatchOptions.preset("box", stars_to_win=5).to_dict(), ClockSetting(3, 2)))
    assert why_not_paired(rated, seek(guest, other_stars)) is None  # other settings: nothing worth telling
    assert why_not_paired(rated, seek(guest, UNRATED, code=CLAIMED)) is None  # paired already


def challenge(number: int, sender: Someone, target: str, state: str = OPEN) -> ChallengeRecord:
    return ChallengeRecord(number, sender, target, "bob", TERMS, 0.0, state)


def test_a_challenge_is_refused_to_oneself_to_someone_gone_twice_and_rated_to_a_guest() -> None:
    ann, bob = someone("ann"), someone("bob")
    assert challenge_refusal(ann, ann.person, "ann", True, False, True, []) == "You cannot challenge yourself."
    assert "not online" in challenge_refusal(ann, bob.person, "bob", False, False, True, [])
    assert "SSH keys" in challenge_refusal(ann, "guest:s1:cyd", "cyd", True, True, False, [])
    assert "SSH keys" in challenge_refusal(someone("cyd", key=False), bob.person, "bob", True, True, True, [])
    assert challenge_refusal(ann, bob.person, "bob", True, True, True, []) is None
    kept = [challenge(1, ann, bob.person)]
    assert "already" in challenge_refusal(ann, bob.person, "bob", True, False, True, kept)
    answered = [challenge(1, ann, bob.person, ACCEPTED)]
    assert challenge_refusal(ann, bob.person, "bob", True, False, True, answered) is None


def test_a_flood_of_challenges_from_many_keys_and_addresses_cannot_bury_anyone() -> None:
    bob = someone("bob")
    ann = someone("ann")
    sent = [challenge(number, ann, f"key:other{number}") for number in range(OPEN_PER_SENDER)]
    assert "withdraw one first" in challenge_refusal(ann, bob.person, "bob", True, False, True, sent)
    one_place = [challenge(number, someone(f"k{number}", address="6.6.6.6"), f"key:t{number}")
                 for number in range(OPEN_PER_ADDRESS)]
    cheat = someone("k99", address="6.6.6.6")
    assert "your address" in challenge_refusal(cheat, bob.person, "bob", True, False, True, one_place)
    crowd = [challenge(number, someone(f"c{number}", address=f"7.7.{number}.1"), bob.person)
             for number in range(OPEN_PER_TARGET)]
    zed = someone("zed", key=False, address="8.8.8.8")
    assert "too many challenges" in challenge_refusal(zed, bob.person, "bob", True, False, True, crowd)


def test_guests_on_two_addresses_cannot_fill_an_inbox_and_keys_and_old_opponents_always_reach_it() -> None:
    # Issue 39: five guests from two addresses filled bob's inbox, and his friend could not challenge him.
    bob = someone("bob")
    guests = [someone(f"g{number}", key=False, address=f"6.6.6.{number % 2}") for number in range(5)]
    kept: list[ChallengeRecord] = []
    refusals = []
    for number, guest in enumerate(guests):
        refusal = challenge_refusal(guest, bob.person, "bob", True, False, True, kept)
        refusals.append(refusal)
        if refusal is None:
            kept.append(challenge(number, guest, bob.person))
    assert refusals.count(None) == 2 * OPEN_PER_ADDRESS_TO_TARGET
    assert "waiting for bob's answer" in refusals[-1]
    friend = someone("fay", key=False, address="5.5.5.5")
    assert challenge_refusal(friend, bob.person, "bob", True, False, True, kept) is None
    # Guests from many addresses fill the guests' share; keys have theirs beyond it.
    crowd = [challenge(number, someone(f"c{number}", key=False, address=f"7.7.{number}.1"), bob.person)
             for number in range(OPEN_PER_TARGET)]
    assert "too many challenges" in challenge_refusal(friend, bob.person, "bob", True, False, True, crowd)
    keyed = [challenge(100 + number, someone(f"k{number}", address=f"8.8.{number}.1"), bob.person)
             for number in range(KEYED_SHARE)]
    assert challenge_refusal(someone("kim"), bob.person, "bob", True, False, True, crowd) is None
    full = crowd + keyed
    assert "too many challenges" in challenge_refusal(someone("kim"), bob.person, "bob", True, False, True, full)
    # Someone bob has played before reaches him however full his inbox (their own limits still hold).
    assert challenge_refusal(someone("kim"), bob.person, "bob", True, False, True, full, played_before=True) is None
    assert challenge_refusal(guests[0], bob.person, "bob", True, False, True, kept, played_before=True) is not None


def test_a_challenge_is_accepted_only_open_by_its_target_from_another_address_when_rated_with_the_sender_here() -> (
        None):
    ann, bob = someone("ann"), someone("bob")
    open_one = challenge(1, ann, bob.person)
    assert accept_refusal(open_one, bob, sender_in_lobby=True) is None
    assert "not in the lobby" in accept_refusal(open_one, bob, sender_in_lobby=False)
    assert "not open" in accept_refusal(challenge(1, ann, bob.person, ACCEPTED), bob, True)
    assert "not open" in accept_refusal(open_one, someone("cyd"), True)
    bob_next_door = someone("bob", address=ann.address)
    assert "one address" in accept_refusal(open_one, bob_next_door, True)
