"""Runs in the server process.

The names players are shown by: an SSH user name made safe to show, a keyed player's chosen name
(kept with their key in the store, on every server), and a guest never passing for a keyed player.
"""

from __future__ import annotations

from ...link.messages import ChooseName, Welcome
from ...link.safe_names import passes_for, visible_text
from ...local.match_setup import NAME_LIMIT, clean_name
from ..storage import NameTaken, Storage
from .visitors import Asker, Guest, Visitor

#: Names that would read as someone else on an opponent's screen ("You win").
RESERVED_NAMES = {"you", "computer"}


def player_name(username: str) -> str:
    """The name shown for an SSH user: cleaned (no control, escape or invisible characters; fullwidth and
    styled letters made plain), short, and never a reserved name however it is spelt (look-alike letters,
    accents, zero-width characters), nor letters of two alphabets mixed to look like another name."""
    name = clean_name(visible_text(username), "guest")
    if passes_for(name, RESERVED_NAMES):
        name = f"{name} (guest)"
    return name


def guest_variant(name: str) -> str:
    """How a guest is shown whose name a player with a key holds."""
    return f"{name[:NAME_LIMIT - 8]} (guest)"


def taken_words(wanted: str, holder: str) -> str:
    """Why ``wanted`` may not be had: it is ``holder``'s name, or looks like it (by case, spaces, invisible or
    full-width characters, or letters of another alphabet)."""
    if wanted == holder:
        return f"The name {holder} belongs to another player: choose another."
    return f"That name looks like {holder}, another player's name: choose another."


def welcome(visitor: Visitor, hold_time: float) -> Welcome:
    """Who the server says this player is, with their secret and how long seats are held."""
    return Welcome(visitor.secret, hold_time, visitor.name, visitor.rated, visitor.name_chosen)


class Names:
    """Looks players up by key and name, and lets a keyed player choose the name they keep."""

    def __init__(self, store: Storage) -> None:
        self.store = store

    async def look_up(self, guest: Guest, visitor: Visitor) -> None:
        """A keyed player's stored name (then ``name_chosen``), else the SSH name unless a key holds it."""
        if guest.fingerprint is not None:
            known = await self.store.players.get(guest.fingerprint)
            if known is not None:
                visitor.last_seen = known.last_seen
                await self.store.players.see(guest.fingerprint, known.name)
                visitor.name, visitor.name_chosen = known.name, True
                return
        holder = await self.store.players.name_holder(guest.name)
        visitor.name = guest_variant(guest.name) if holder is not None and holder.fingerprint != guest.fingerprint \
            else guest.name

    async def choose(self, asker: Asker, request: ChooseName) -> bool:
        """A keyed player's name, kept with their key; whether it was taken (else the asker was told why not)."""
        wanted = request.name.strip()
        fingerprint = asker.guest.fingerprint
        if fingerprint is None:
            asker.refuse("Only players who connect with an SSH key can keep a name: connect with ssh -i KEY to "
                         "have one.")
            return False
        holder = await self.store.players.name_holder(wanted) if wanted else None
        if holder is not None and holder.fingerprint != fingerprint:  # before the letters: say whose it looks like
            asker.refuse(taken_words(wanted, holder.name))
            return False
        name = player_name(wanted)
        if not wanted or name != " ".join(wanted.split()) or "(guest)" in name.casefold():
            asker.refuse(f"A name is 1 to {NAME_LIMIT} letters, digits or signs of one alphabet, and not a word the "
                         "game uses (you, computer, guest).")
            return False
        if asker.visitor.code is not None:
            asker.refuse("Leave the match you are at first (n), then choose a name.")
            return False
        try:
            if await self.store.players.get(fingerprint) is None:
                await self.store.players.see(fingerprint, name)
            else:
                await self.store.players.rename(fingerprint, name)
        except NameTaken as taken:  # claimed on another server since
            asker.refuse(taken_words(name, taken.holder))
            return False
        asker.visitor.name, asker.visitor.name_chosen = name, True
        return True
