"""The dialogs a match opens over the game screen: a decided round's review, then the round-over or the
match-over dialog and what the player chose there; the question before resigning; and a dialog closed once
the match has moved past it (decided elsewhere).

``MatchDialogs`` is a part the game screen owns. The dialogs' modules are imported only when a round ends,
so the screen asks whichever dialog is shown by what it does (``DescribesMatch``, ``ShowsResultNotes``), not
by its class. A side line opens none of them: its status line says who won (``side_line.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, runtime_checkable

from textual.screen import ModalScreen

from ..rules import SolunaError

if TYPE_CHECKING:
    from ..play.match_flow import MatchOver
    from ..rules import Match
    from .game_host import GameHost
    from .match_over import MatchOverChoice
    from .round_over import RoundOverChoice


@runtime_checkable
class DescribesMatch(Protocol):
    """A dialog about where the match stands, which goes once the match has moved past it (decided elsewhere)."""

    def still_true(self, match: Match) -> bool:
        """Whether this dialog still describes ``match``."""
        ...


@runtime_checkable
class ShowsResultNotes(Protocol):
    """The match-over summary: lines about the finished match that come after it opened (the ratings)."""

    def show_notes(self, notes: tuple[str, ...]) -> None:
        """Draw ``notes`` (whenever they come)."""
        ...


class MatchDialogs:
    """The review, round-over, match-over and resign dialogs of the match on the game screen."""

    def __init__(self, game: GameHost) -> None:
        self._game = game

    def announce_end(self) -> None:
        """A round (or the match) has just been decided: its review, then what comes next (a side line: nothing,
        its status line says it)."""
        game = self._game
        if game.side_line_start is not None:
            return
        flow, turn = game.flow, game.flow.turn
        if flow.review_first:
            from .review import ReviewScreen

            review = ReviewScreen(game.match, game.match.round_number, flow.you,
                                  side_lines=game.table.side_lines_allowed, hints=game.teaching.side_line_hints)
            game.app.push_screen(review, lambda _: game.computer.go_on(flow.after_review(turn)))
        else:
            game.computer.go_on(flow.after_review(turn))

    def show_round_over(self, computer_opens: bool | None) -> None:
        from .round_over import RoundOverScreen

        game = self._game
        teaching = game.teaching
        count_hint = teaching.count_hint if teaching.hints_allowed else None
        screen = RoundOverScreen(game.match, game.glyphs, game.table.local_players, computer_opens, count_hint,
                                 can_take_back=game.table.can_undo, you=game.flow.you)
        game.app.push_screen(screen, self._round_over_chosen)

    def show_match_over(self, over: MatchOver) -> None:
        """The finished match, judged: counted in the stats, and its summary shown."""
        from .match_over import MatchOverScreen

        game = self._game
        for trouble in game.flow.count_in_stats(game.soluna.stats_store, over.accuracy):
            game.notify(trouble.text, title=trouble.title, severity="warning", timeout=trouble.timeout)
        table = game.table
        hints = table.hints_used
        counted = (hints[0], hints[1]) if game.teaching.hints_allowed else None  # none offered: none to count
        screen = MatchOverScreen(game.match, game.glyphs, counted, over.accuracy, table.local_players,
                                 can_take_back=table.can_undo, you=game.flow.you, ended=table.ended,
                                 notes=table.result_notes, tournament=table.tournament)
        game.app.push_screen(screen, self._match_over_chosen)

    def _round_over_chosen(self, choice: RoundOverChoice | None) -> None:
        if choice is None:
            return
        game = self._game
        if choice.undo:
            game.action_undo()
            return
        try:
            game.table.start_next_round(choice.opener, choice.chooser)
        except SolunaError as error:
            game.say(str(error), "error")
            return
        game.picking.drop()
        game.after_change(cursor=0)

    def _match_over_chosen(self, choice: MatchOverChoice | None) -> None:
        from .match_over import MatchOverChoice

        game = self._game
        if choice is MatchOverChoice.UNDO:
            game.action_undo()
        elif choice is MatchOverChoice.REMATCH:
            game.action_rematch()
        elif choice is MatchOverChoice.NEW:
            game.soluna.action_new_match()
        elif choice is MatchOverChoice.QUIT:
            game.app.exit()

    def close_stale(self) -> None:
        """A round-over or match-over dialog goes once the match has moved past it (decided elsewhere); the
        match-over summary shows the lines that came after it opened (ratings), even under another dialog."""
        game = self._game
        dialog = game.app.screen
        if isinstance(dialog, ModalScreen) and isinstance(dialog, DescribesMatch) and not dialog.still_true(game.match):
            dialog.dismiss(None)
            game.flow.announce_again()
            return
        for screen in game.app.screen_stack:
            if isinstance(screen, ShowsResultNotes):
                screen.show_notes(game.table.result_notes)

    def ask_resign(self) -> None:
        """``R``: give the match up, asked first."""
        from .confirm import ConfirmScreen

        game = self._game
        player = game.table.resigner()
        if player is None:
            game.say("There is no match in play to resign.")
            return
        question = game.flow.resign_question(player)
        game.app.push_screen(ConfirmScreen(question, "Resign the match", "Keep playing", "Resign?"),
                             lambda yes: self._resign_answered(player, yes))

    def _resign_answered(self, player: int, yes: bool | None) -> None:
        game = self._game
        if not yes or game.table.resigner() != player:
            return  # kept playing, or the match moved on while asking (the computer's move ended the round)
        game.end_match_now(lambda: game.table.resign(player))
