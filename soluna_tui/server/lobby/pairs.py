"""Runs in the server process.

Who meets whom, as pure functions (tested without a server): which waiting player a quick match pairs a
newcomer with, and whether a challenge may be sent.

- Two players meet only on terms that agree: the same rules, stars, discs and clock, both rated or both not
  (who opens round 1 is the creator's, as for a match created by code).
- Nobody meets themselves: not the same person (a key on two terminals, a guest's session), not the same key;
  a rated match never between two players from one address (``gate.client_key``), nor with a guest.
- Where several could meet a newcomer, a keyed newcomer with a rating meets the nearest rating (players
  without one count as ``UNRATED_DISTANCE`` away); otherwise, and between equals, whoever has waited longest.
- Two players waiting on the same settings but for whether the match is rated (or rated, from one address) are
  told why they are not paired (``why_not_paired``): nobody waits beside a match they cannot have, untold.
- A challenge is refused to oneself, to a person who is not online, twice from one player to one person, past
  ``OPEN_PER_SENDER`` open from one player or ``OPEN_PER_ADDRESS`` from one address, past
  ``OPEN_PER_ADDRESS_TO_TARGET`` from one address to one person, and past ``OPEN_PER_TARGET`` open to one person:
  a flood from many keys and addresses cannot bury anyone. Nor can it make anyone unreachable: a keyed player has
  ``KEYED_SHARE`` more places kept for keys alone, and someone the person has played before (two keys with a
  finished match between them) is never refused for the person's inbox being full.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..storage.pairing import OPEN, ChallengeRecord, SeekRecord, Someone

#: Open challenges one player may have sent, one address may have sent, and one person may have waiting.
OPEN_PER_SENDER = 3
OPEN_PER_ADDRESS = 5
OPEN_PER_TARGET = 5
#: Open challenges from one address to one person: five guests on two addresses leave room for a third.
OPEN_PER_ADDRESS_TO_TARGET = 2
#: Places in one person's inbox beyond ``OPEN_PER_TARGET`` that only keyed players' challenges take.
KEYED_SHARE = 3
#: How far a rated newcomer counts a player without a rating (past any two ratings' likely distance).
UNRATED_DISTANCE = 10_000
#: The options that must agree; who opens round 1 is the creator's.
AGREEING_OPTIONS = ("stars_to_win", "discs", "next_layout", "next_opener")


def terms_agree(first: dict[str, Any], second: dict[str, Any]) -> bool:
    """Whether two players' terms (``MatchTerms`` as the wire has them) make the same match."""
    options_one, options_two = first.get("options", {}), second.get("options", {})
    return (all(options_one.get(name) == options_two.get(name) for name in AGREEING_OPTIONS)
            and first.get("clock") == second.get("clock") and bool(first.get("rated")) == bool(second.get("rated")))


def may_meet(one: Someone, other: Someone, rated: bool) -> bool:
    """Whether ``one`` may play ``other``: never themselves; rated, two keys from two addresses."""
    if one.person == other.person or one.session == other.session:
        return False
    if one.fingerprint is not None and one.fingerprint == other.fingerprint:
        return False
    return not rated or (one.fingerprint is not None and other.fingerprint is not None
                         and one.address != other.address)


def partner_for(newcomer: SeekRecord, waiting: Iterable[SeekRecord]) -> SeekRecord | str | None:
    """The waiting player ``newcomer`` is paired with (see the module's docstring), ``None`` (it waits), or why it
    may not wait: its person waits on another terminal already (one queue at a time)."""
    rated = bool(newcomer.terms.get("rated"))
    candidates = []
    for each in waiting:
        if each.seeker.person == newcomer.seeker.person:
            return "You are looking for an opponent on another terminal already."
        if (each.code is None and terms_agree(newcomer.terms, each.terms)
                and may_meet(newcomer.seeker, each.seeker, rated)):
            candidates.append(each)
    mine = newcomer.seeker.rating

    def distance(each: SeekRecord) -> tuple[int, float]:
        theirs = each.seeker.rating
        if mine is None:
            return 0, each.since
        return (UNRATED_DISTANCE if theirs is None else abs(mine - theirs)), each.since

    return min(candidates, key=distance, default=None)


def seek_refusal(seek: SeekRecord, accepter: Someone) -> str | None:
    """Why ``accepter`` may not accept ``seek`` from the seeks board, on its terms (``None``: they may)."""
    name = seek.seeker.name
    if seek.code is not None:
        return f"{name} has just been paired: that seek is not open any more."
    if seek.seeker.person == accepter.person or seek.seeker.session == accepter.session:
        return "That is your own seek: the others see it on their board."
    rated = bool(seek.terms.get("rated"))
    if rated and accepter.fingerprint is None:
        return f"{name} asks for a rated match, between players with SSH keys: a guest cannot accept it."
    if not may_meet(accepter, seek.seeker, rated):
        if rated and accepter.address == seek.seeker.address:
            return f"{name} is at your address, and a rated match is never between two players from one address."
        return "That is your own seek on another terminal."
    return None


def why_not_paired(mine: SeekRecord, other: SeekRecord) -> str | None:
    """Why ``mine``'s player, waiting, is not paired with ``other``'s, waiting on the same settings but for
    whether the match is rated, or rated from the same address; ``None``: they would be paired, or their settings
    differ in more (nothing worth telling)."""
    if other.code is not None or other.seeker.person == mine.seeker.person:
        return None
    rated, theirs = bool(mine.terms.get("rated")), bool(other.terms.get("rated"))
    if not terms_agree(mine.terms, {**other.terms, "rated": rated}):
        return None
    name = other.seeker.name
    if rated and not theirs:
        whom = f"{name}, a guest," if other.seeker.fingerprint is None else name
        return (f"{whom} waits on the same settings, unrated: you are not paired while you ask for a rated match "
                "(Escape, set Rated to no, and ask again).")
    if theirs and not rated:
        if mine.seeker.fingerprint is None:
            return (f"{name} waits on the same settings, rated: a guest's matches are unrated, so you are not "
                    f"paired until {name} asks for an unrated one.")
        return (f"{name} waits on the same settings, rated: you are not paired while you ask for an unrated match "
                "(Escape, set Rated to yes, and ask again).")
    if rated and not may_meet(mine.seeker, other.seeker, rated=True):
        return (f"{name} waits on the same settings, rated, from your address: a rated match is never between two "
                "players from one address (set Rated to no to play them).")
    return None


def challenge_refusal(sender: Someone, target: str, target_name: str, online: bool, rated: bool, target_keyed: bool,
                      kept: Iterable[ChallengeRecord], played_before: bool = False,
                      target_beside: bool = False) -> str | None:
    """Why ``sender`` may not challenge ``target`` now (``None``: they may); ``kept``, every challenge in the store;
    ``played_before``, whether the two have a finished match together (then ``target``'s full inbox is no bar);
    ``target_beside``, whether every terminal of ``target`` is at the sender's address (then no rated challenge
    could ever be accepted)."""
    if target == sender.person:
        return "You cannot challenge yourself."
    if not online:
        return f"{target_name} is not online any more."
    if rated and (sender.fingerprint is None or not target_keyed):
        return "A rated match is between two players with SSH keys: set Rated to no to challenge a guest."
    if rated and target_beside:
        return (f"{target_name} is at your address, and a rated match is never between two players from one "
                f"address: set Rated to no to challenge {target_name}.")
    from_sender = from_address = to_target = from_address_to_target = 0
    for challenge in kept:
        if challenge.state != OPEN:
            continue
        if challenge.sender.person == sender.person and challenge.target == target:
            return f"You have challenged {target_name} already: wait for their answer (or withdraw it)."
        from_sender += challenge.sender.person == sender.person
        from_address += challenge.sender.address == sender.address
        to_target += challenge.target == target
        from_address_to_target += challenge.target == target and challenge.sender.address == sender.address
    if from_sender >= OPEN_PER_SENDER:
        return f"You have {from_sender} challenges waiting for an answer: withdraw one first."
    if from_address >= OPEN_PER_ADDRESS:
        return "Too many challenges from your address are waiting for an answer: try again later."
    if from_address_to_target >= OPEN_PER_ADDRESS_TO_TARGET:
        return f"Too many challenges from your address are waiting for {target_name}'s answer: try again later."
    room = OPEN_PER_TARGET + (KEYED_SHARE if sender.fingerprint is not None else 0)
    if to_target >= room and not played_before:
        return f"{target_name} has too many challenges to answer already: try again later."
    return None


#: Told to a player answering a challenge that is no longer there to answer (answered, withdrawn or lapsed).
NOT_OPEN = "That challenge is not open any more."


def accept_refusal(challenge: ChallengeRecord, accepter: Someone, sender_in_lobby: bool) -> str | None:
    """Why ``accepter`` may not accept ``challenge`` now (``None``: they may)."""
    if challenge.state != OPEN or challenge.target != accepter.person:
        return NOT_OPEN
    if not may_meet(accepter, challenge.sender, bool(challenge.terms.get("rated"))):
        return "A rated match is never between two players from one address: that challenge cannot be accepted."
    if not sender_in_lobby:
        return f"{challenge.sender.name} is not in the lobby right now: accept once they are back."
    return None
