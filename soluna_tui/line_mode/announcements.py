"""What a match in lines tells without being asked: the match introduced, every move by either player, a new
round, the end of a round or of the match, and where the match stands.

``Announcements`` is a part the line game owns, seeing it as a ``LineHost`` (``line_host.py``). Every move is
announced once, whoever made it, as the match catches up with what the player has been told (``catch_up``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..play.match_text import result_line
from ..play.you_wording import match_result_words, verb
from ..rules.wording import plural
from .speech import round_move_line, stars_line, table_line

if TYPE_CHECKING:
    from ..play.match_flow import Accuracy, MatchOver
    from ..rules import Round
    from .line_host import LineHost


class Announcements:
    """The match told as it goes, in short sentences."""

    def __init__(self, game: LineHost) -> None:
        self._game = game
        #: What the player has been told: the round and the moves of it announced.
        self.told = (1, 0)

    def verb(self, player: int, third: str, second: str, first: bool = True) -> str:
        """``player`` and a verb, as "you" where the player sits here (``first``: at the start of a sentence)."""
        return verb(self._game.table.match.players[player], third, second, you=player == self._game.flow.you,
                    first=first)

    def introduce(self) -> None:
        """Say what the match is and where it stands."""
        game = self._game
        table, match = game.table, game.table.match
        names, options = match.players, match.options
        setup = table.setup
        opponent = f"{names[1]} at {setup.mode_label}" if setup.vs_computer else names[1]
        clock = f", clock {setup.clock.words}" if setup.clock is not None else ""
        hints = "" if setup.hints and table.hints_allowed else ", no hints"
        game.say(f"Soluna. {names[0]} against {opponent}: {options.preset_name} rules, "
                 f"{plural(options.discs, 'disc')}, {plural(options.stars_to_win, 'star')} to win{clock}{hints}.",
                 game.notice,
                 "Type a move as two tower numbers, like 3>7, or help for the commands.")
        if match.round_number > 1 or match.round.ply:
            game.say(f"Round {match.round_number}, {plural(match.round.ply, 'move')} played. {stars_line(match)}")
            if match.round.ply:
                game.say(f"Last move: {round_move_line(match.round, names, match.round.ply - 1)}")
        game.say(f"Round {match.round_number}. {table_line(match.round.table)}")
        if not match.round.ply and not match.round.is_over:
            game.say(f"{self.verb(match.round.opener, 'opens', 'open')}.")
        self.told = (match.round_number, match.round.ply)

    def state_line(self) -> str:
        """Where the match stands, for an empty line: whose turn, or what is awaited."""
        game = self._game
        match = game.table.match
        if match.is_over:
            return f"{result_line(match, game.table.ended).removeprefix('Result: ')} Type rematch, or quit."
        if match.round.is_over:
            return game.between_rounds.question()
        if game.flow.thinking:
            return f"{match.players[match.to_move]} is thinking."
        return (f"{self.verb(match.to_move, 'is', 'are')} to move in round {match.round_number}. "
                "Type a move like 3>7, or help.")

    def catch_up(self) -> None:
        """Announce every move the player has not been told of yet, and a new round as it starts."""
        game = self._game
        match = game.table.match
        number, ply = self.told
        names = match.players
        while number < match.round_number:
            earlier = match.rounds[number - 1]
            game.say(*(round_move_line(earlier, names, each) for each in range(ply, earlier.ply)))
            number, ply = number + 1, 0
            self._round_started(match.rounds[number - 1], number)
        played = match.round
        if ply > played.ply:
            game.say(f"{plural(ply - played.ply, 'move')} taken back. {table_line(played.table)}")
        game.say(*(round_move_line(played, names, each) for each in range(ply, played.ply)))
        self.told = (match.round_number, played.ply)

    def _round_started(self, played: Round, number: int) -> None:
        self._game.between_rounds.begin()
        self._game.say(f"Round {number}: {self.verb(played.opener, 'opens', 'open')}. {table_line(played.table)}")

    def announce_end(self) -> None:
        """A round, or the match, has just been decided: say how, then what follows."""
        game = self._game
        match = game.table.match
        if match.forfeited_by is None:
            outcome = match.round.outcome
            if outcome is not None:
                game.say(f"{self.verb(outcome.loser, 'cannot', 'cannot')} move: "
                         f"{self.verb(outcome.winner, 'wins', 'win', first=False)} round {match.round_number}, "
                         f"after {plural(match.round.ply, 'move')}. {stars_line(match)}")
        if game.flow.review_first and match.round.moves:
            game.say("Type review to hear the round judged move by move.")
        game.steps.go_on(game.flow.after_review(game.flow.turn))

    def match_over(self, over: MatchOver) -> None:
        """The finished match counted and told, with what may be typed next."""
        game = self._game
        table, match = game.table, game.table.match
        troubles = game.flow.count_in_stats(game.stats_store, over.accuracy) if game.stats_store else []
        game.say(f"Match over. {match_result_words(match, table.ended, game.flow.you)}.",
                 *self._accuracy_lines(over.accuracy),
                 *(f"{trouble.title}: {trouble.text}" for trouble in troubles))
        if table.save_problem:
            game.say(f"Not saved: {table.save_problem}")
        what = ["review" if any(played.outcome for played in match.rounds) else "",
                "rematch" if game.rematch_table and table.offers_rematch else "",
                "undo" if table.can_undo else ""]
        choices = ", ".join(filter(None, what))
        game.say(f"Type {choices}, or quit." if choices else "Type quit to leave.")

    def _accuracy_lines(self, accuracy: Accuracy) -> list[str]:
        """Each player's accuracy and hints used, a sentence each (never ``Name:``, which starts a move)."""
        table = self._game.table
        lines = []
        for player, name in enumerate(table.match.players):
            facts = []
            if accuracy[player] is not None:
                facts.append(f"kept the best outcome in {accuracy[player]:.0%} of moves")
            if player in table.local_players:
                facts.append(f"used {plural(table.hints_used[player], 'hint')}")
            if facts:
                lines.append(f"{name} {' and '.join(facts)}.")
        return lines
