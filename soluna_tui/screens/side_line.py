"""A side line: play on from an earlier position of a match (its history, a replay, a round's review)
against the computer or by hand, on a copy of the match; Escape comes back to where it started from.

The side line is a game screen over the screen it starts from, at a ``SideLineTable`` (never saved,
kept or counted). It has no round-over or match-over dialogs, no new match, no resignation: the status
line says who won, ``u`` takes back, Escape leaves. ``SolunaApp.game`` passes over it: the match is
still the screen under it. Screens open one through the app (``app_view(screen).side_line_opener``,
a ``SideLines``), never by importing this module.
"""

from __future__ import annotations

from typing import Any

from textual.binding import Binding
from textual.screen import Screen

from ..local.table import SideLineTable, Table
from ..play.view import Moment, SideLineStart, TableFacts, swapped
from ..rules import Match, other
from .game import GameScreen


def position_words(round_number: int, ply: int) -> str:
    """``Round 2, after move 5`` (``Round 2, start``): a position of a match, as the history names it."""
    return f"Round {round_number}, {'start' if ply == 0 else f'after move {ply}'}"


class SideLineScreen(GameScreen):
    """Play on from a copy of the match; Escape with nothing in hand comes back (``back_to`` says where)."""

    TALLY_TITLE = "Side line"

    BINDINGS = [
        Binding("escape", "back", "Back"),
        Binding("n,R", "match_only", show=False),  # a new match, resigning
    ]

    def __init__(self, table: SideLineTable, start: SideLineStart, back_to: str = "the match") -> None:
        super().__init__(table)
        self.start = start
        self.back_to = back_to

    def on_mount(self) -> None:
        self.call_after_refresh(self._tell)

    async def load(self, table: Table) -> None:
        """Another side line in place of this one (``p`` in its history): ``play_from`` says where it starts."""
        await super().load(table)
        self._tell()

    async def play_from(self, table: SideLineTable, start: SideLineStart) -> None:
        """Another side line in place of this one, leaving the match at ``start``."""
        self.start = start
        await self.load(table)

    def _tell(self) -> None:
        self.show_notice(f"A side line: the match is untouched. Esc returns to {self.back_to}.")

    @property
    def side_line_start(self) -> SideLineStart:
        """Where this side line left the match: winning its round is no star of the match, and what the match
        played before keeps its names, in the tally, the history and the last move."""
        return self.start

    def prompt(self, facts: TableFacts | None = None, moment: Moment | None = None) -> tuple[str, str]:
        """Once the side line's round is decided, who won it and what now (there is no dialog)."""
        outcome = self.match.round.outcome
        if self.browsing.viewing is None and outcome is not None:
            winner = "You" if outcome.winner == self.flow.you else self.match.players[outcome.winner]
            return (f"{winner} won the side line. Esc returns to {self.back_to}; u takes back.", "info")
        return super().prompt(facts, moment)

    def action_back(self) -> None:
        """Escape: the tower in hand back; with nothing in hand, back to where the side line started."""
        if self.picking.picked_slot is not None:
            self.action_put_back()
        else:
            self.dismiss(None)

    def action_match_only(self) -> None:
        self.say(f"In a side line: Esc returns to {self.back_to} first.")


def open_side_line(source: Screen[Any], table: SideLineTable, start: SideLineStart, back_to: str) -> None:
    """Show the side line over ``source``, leaving the match at ``start``; a side line started from a side
    line takes its place."""
    if isinstance(source, SideLineScreen):
        source.call_later(source.play_from, table, start)
        return
    if isinstance(source, GameScreen):  # the match shows where it stands when the side line is left
        source.set_focus(source.board, scroll_visible=False)
    source.app.push_screen(SideLineScreen(table, start, back_to))


def start_of(source: Screen[Any], round_number: int, ply: int, sides_swapped: bool) -> SideLineStart:
    """Where a side line from the position after ``ply`` moves of round ``round_number`` leaves the match,
    ``sides_swapped``: the sides change hands there; from a side line (``source``), after the hands they
    changed on its way."""
    return SideLineStart.at(round_number, ply, sides_swapped,
                            source.start if isinstance(source, SideLineScreen) else None)


class SideLines:
    """How a screen opens a side line over itself (a ``SideLineOpener``): the app hands this to its screens,
    so the game screen and the review, which this module's screen stands on, need not import it."""

    def play_on(self, source: Screen[Any], match: Match, round_number: int, ply: int, *, hints: bool,
                analysis_on: bool = False, back_to: str = "the match", you: int | None = None) -> str | None:
        """Ask whether the computer answers, then play on from the position after ``ply`` moves of round
        ``round_number`` (``you``: the player here, if one); or say why not (the round is over there)."""
        from .play_on import PlayOnScreen

        played = match.rounds[round_number - 1]
        if not played.position_at(ply).legal_moves:
            return "The round is over at this position: pick an earlier one to play on from."
        branch = match.branch(round_number, ply)  # now: the match may move on while the player chooses
        if isinstance(source, SideLineScreen):
            back_to = source.back_to
        mover = branch.to_move

        def chosen(computer: bool | None) -> None:
            if computer is None:
                return
            played_on = branch
            sides_swapped = bool(computer) and you is not None and mover != you  # you take its side, it yours
            if sides_swapped:  # each side named by who plays it now; what the match played keeps its names
                played_on = branch.branch(round_number, ply, players=swapped(branch.players))
            table = SideLineTable(played_on, computer_seat=other(mover) if computer else None, hints=hints,
                                  analysis_on=analysis_on)
            open_side_line(source, table, start_of(source, round_number, ply, sides_swapped), back_to)

        dialog = PlayOnScreen(position_words(round_number, ply), branch.players[mover], back_to, hints,
                              yours=mover == you)
        source.app.push_screen(dialog, chosen)
        return None

    def try_again(self, source: Screen[Any], match: Match, round_number: int, ply: int, *, hints: bool) -> None:
        """From the position before a mistake (after ``ply`` moves), the player who made it to move and
        the computer, perfect play, answering."""
        branch = match.branch(round_number, ply)
        table = SideLineTable(branch, computer_seat=other(branch.to_move), hints=hints)
        open_side_line(source, table, start_of(source, round_number, ply, False), "the review")
