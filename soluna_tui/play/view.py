"""What the game screen shows, as pure functions of the match, the table's facts and the moment."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum

from rich.cells import cell_len, set_cell_size

from ..local.table import Seat, Table
from ..rules import Arrangement, Match, Move, PlacedMove, Position, Round, Tower
from ..rules.wording import plural
from .coach import Coach, Turn
from .looks import JUMP_KEYS, HistoryEntry, Note, TallyInfo, TowerLook, move_words

HISTORY_NAME_WIDTH = 9


class Phase(Enum):
    """What the computer is doing on this screen."""

    IDLE = "idle"
    #: Choosing a move, whether to open, or judging the finished match (off the event loop).
    THINKING = "thinking"
    #: Its chosen tower held over the target a moment before it lands.
    REVEALING = "revealing"


@dataclass(frozen=True)
class TableFacts:
    """What the view needs to know of the table the match is played at."""

    #: The player to move sits at this keyboard.
    local_to_move: bool
    #: This terminal has one player (a remote match, one against the computer): "Your move" is not in doubt.
    one_local_player: bool
    mode_label: str = "two players"
    hints: bool = True
    analysis_on: bool = False
    away: tuple[float | None, float | None] = (None, None)
    comeback: str = ""
    #: The computer plays a seat at this table.
    computer_plays: bool = False
    #: The seat of this terminal's player in a match against someone elsewhere (over SSH).
    you: int | None = None
    #: How many watch the match (over SSH), and the names of those who do not hide.
    spectators: int = 0
    spectator_names: tuple[str, ...] = ()
    #: Each seat's rating, beside the name (over SSH, a keyed player's).
    ratings: tuple[int | None, int | None] = (None, None)

    @classmethod
    def of(cls, table: Table, *, hints: bool, analysis_on: bool) -> TableFacts:
        """The facts of ``table`` now (``hints``, ``analysis_on``: as the screen allows them)."""
        seats = (table.seat(0), table.seat(1))
        return cls(
            local_to_move=seats[table.match.to_move] is Seat.HUMAN,
            one_local_player=len(table.local_players) == 1,
            mode_label=table.mode_label,
            hints=hints,
            analysis_on=analysis_on,
            away=(table.away_until(0), table.away_until(1)),
            comeback=table.comeback,
            computer_plays=Seat.COMPUTER in seats,
            you=next((seat for seat in table.local_players if seats[1 - seat] is Seat.REMOTE), None),
            spectators=table.spectators,
            spectator_names=table.spectator_names,
            ratings=table.seat_ratings,
        )


@dataclass(frozen=True)
class Moment:
    """The screen's state beside the match: the computer, the history shown, the prompt, the hand."""

    turn: Turn
    phase: Phase = Phase.IDLE
    revealing: Move | None = None
    viewing: HistoryEntry | None = None
    prompt_open: bool = False
    picked_slot: int | None = None
    ascii: bool = False
    #: The tower in hand (at ``picked_slot``).
    picked: Tower | None = None

    @property
    def thinking(self) -> bool:
        return self.phase is not Phase.IDLE


@dataclass(frozen=True)
class SideLineStart:
    """Where a side line leaves its match: the match's own play comes before it (every earlier round and the
    first ``ply`` moves of round ``round_number``), the side line's after it. Each side is named by who plays
    it now; ``handovers``: the positions where the sides changed hands on the way here (you took the
    computer's side and it yours; a side line from a side line may hand them over again). Whatever was played
    before a handover was played with the names the other way round, and is shown with them."""

    round_number: int
    ply: int
    handovers: tuple[tuple[int, int], ...] = ()

    @classmethod
    def at(cls, round_number: int, ply: int, sides_swapped: bool, before: SideLineStart | None = None) -> SideLineStart:
        """A side line from the position after ``ply`` moves of round ``round_number``, the sides changing hands
        there if ``sides_swapped``; ``before``: where the side line it starts from started (a handover of its
        later than this start is one here: what came after it is gone)."""
        here = (round_number, ply)
        handovers = tuple(min(handover, here) for handover in (before.handovers if before else ()))
        return cls(round_number, ply, handovers + ((here,) if sides_swapped else ()))

    def swapped_at(self, round_number: int, ply: int) -> bool:
        """Move ``ply`` (from 0; -1: the round's opening) of round ``round_number`` was played by the sides
        the other way round from now."""
        return sum((round_number, ply) < handover for handover in self.handovers) % 2 == 1

    def names(self, names: tuple[str, str], round_number: int, ply: int) -> tuple[str, str]:
        """The sides' ``names`` (as named now) for move ``ply`` (from 0; -1: the round's opening) of round
        ``round_number``: as they were when it was played."""
        return swapped(names) if self.swapped_at(round_number, ply) else names

    def seat_now(self, seat: int, round_number: int, ply: int) -> int:
        """The seat now of who played ``seat`` at move ``ply`` (-1: the opening) of round ``round_number``."""
        return 1 - seat if self.swapped_at(round_number, ply) else seat


def swapped(names: tuple[str, str]) -> tuple[str, str]:
    """Two sides' names the other way round (a side line where you and the computer changed sides)."""
    return (names[1], names[0])


def names_at(names: tuple[str, str], round_number: int, ply: int,
             side_line: SideLineStart | None) -> tuple[str, str]:
    """The sides' ``names`` (as named now) for move ``ply`` (from 0; -1: the opening) of round ``round_number``,
    seat by seat: as they were when it was played."""
    return side_line.names(names, round_number, ply) if side_line is not None else names


def tower_looks(
    table: Arrangement,
    *,
    mover_slot: int | None = None,
    target_slot: int | None = None,
    last: PlacedMove | None = None,
    hinted: frozenset[int] = frozenset(),
    notes: Mapping[int, Note] | None = None,
) -> list[TowerLook]:
    """How each place looks: the lifted tower, the lit targets (or just ``target_slot``), the rest
    dimmed; an empty place where a tower was moved away.

    ``last`` marks the places of the latest move (where it came from, where it went); ``notes``
    are (text, kind) per place.
    """
    mover = table[mover_slot] if mover_slot is not None else None
    last_places = (last.mover_slot, last.target_slot) if last is not None and mover is None else ()
    marks = notes or {}
    looks = []
    for slot, tower in enumerate(table):
        if tower is None:
            looks.append(TowerLook(last=slot in last_places))
            continue
        is_target = False
        if mover is not None and slot != mover_slot:
            # Another place: a legal target exactly when it accepts the mover (both are on the table).
            is_target = slot == target_slot if target_slot is not None else tower.accepts(mover)
        note, kind = marks.get(slot, ("", ""))
        looks.append(
            TowerLook(
                tower=tower,
                label=JUMP_KEYS[slot],
                picked=slot == mover_slot,
                target=is_target,
                dimmed=mover is not None and slot != mover_slot and not is_target,
                last=slot in last_places,
                hinted=slot in hinted,
                note=note,
                note_kind=kind,
            )
        )
    return looks


def shown_round(match: Match, viewing: HistoryEntry | None) -> tuple[int, Round, int]:
    """The round shown (its number, itself) and how many of its moves: the live one, or the
    earlier moment picked in the history."""
    if viewing is not None:
        return viewing.round_number, match.rounds[viewing.round_number - 1], viewing.ply
    return match.round_number, match.round, match.round.ply


def shown_position(match: Match, viewing: HistoryEntry | None) -> Position:
    """The live position, or the earlier one picked in the history."""
    _, played, ply = shown_round(match, viewing)
    return played.position_at(ply)


def shown_table(match: Match, viewing: HistoryEntry | None) -> tuple[Arrangement, PlacedMove | None]:
    """The table shown (live or earlier) with every tower in its place, and the latest move shown
    with the places it went from and onto."""
    _number, played, ply = shown_round(match, viewing)
    return played.table_at(ply), played.placed_at(ply - 1) if ply else None


def board_looks(table: Arrangement, last: PlacedMove | None, moment: Moment, coach: Coach,
                analysis_on: bool) -> list[TowerLook]:
    """The places as shown now: the computer's move landing, the tower in hand, hints and analysis marks."""
    live = moment.viewing is None
    if live and moment.revealing is not None:
        placed = table.resolve(moment.revealing)
        return tower_looks(table, mover_slot=placed.mover_slot, target_slot=placed.target_slot)
    mover_slot = moment.picked_slot if live else None
    # A hint points at towers; with a tower in hand, its lit targets say more.
    hint_marks = coach.hint_marks(moment.turn, table if live else None) if mover_slot is None else {}
    notes = coach.analysis_notes(table, mover_slot) if analysis_on else {}
    return tower_looks(table, mover_slot=mover_slot, last=last, hinted=frozenset(hint_marks),
                       notes={**notes, **hint_marks})


def last_move_words(match: Match, viewing: HistoryEntry | None,
                    side_line: SideLineStart | None = None) -> tuple[str, ...]:
    """The latest move shown, in words, from the longest wording to the shortest (the line that
    shows it takes the first that fits): ``Last move: Ann 1S>1M, the sun tower onto the moon tower``.
    ``side_line``: where a side line shown left its match (the match's own moves keep their names)."""
    number, played, ply = shown_round(match, viewing)
    if not ply:
        return (f"No move yet in round {number}.", "No move yet.")
    move, written = played.moves[ply - 1], move_words(played, ply - 1)
    name = names_at(match.players, number, ply - 1, side_line)[played.mover_at(ply - 1)]
    heading = "Last move" if viewing is None else f"Move {ply}"
    mover, target = move.mover.symbol.word, move.target.symbol.word
    return (f"{heading}: {name} {written}, the {mover} tower onto the {target} tower",
            f"{heading}: {name} {written}, {mover} onto {target}",
            f"{heading}: {name} {written}",
            f"{name} {written}")


def tally_info(match: Match, facts: TableFacts, moment: Moment, side_line: SideLineStart | None = None) -> TallyInfo:
    """The star tally's lines; the turn's marker is on the side to move in the position shown (an
    earlier one, while the history view shows it). ``side_line``: where a side line shown left its match
    (its round wins no star of the match; the match's stars and turns stay with who won and had them)."""
    to_move = None if match.round.is_over or match.is_over else match.to_move
    if moment.viewing is not None:
        number, ply = moment.viewing.round_number, moment.viewing.ply
        played = match.rounds[number - 1]
        over = ply == len(played.moves) and played.outcome is not None
        to_move = None if over else played.mover_at(ply)
        if to_move is not None and side_line is not None:
            to_move = side_line.seat_now(to_move, number, ply)
    status = ("thinking..." if moment.ascii else "thinking…") if moment.thinking else ""
    return TallyInfo(
        names=match.players,
        stars=stars_of(match, side_line),
        stars_to_win=match.options.stars_to_win,
        round_number=match.round_number,
        to_move=to_move,
        rules=f"{match.options.preset_name} rules",
        mode=f"{plural(match.options.discs, 'disc')}, {facts.mode_label}",
        seed=match.seed,
        hints=facts.hints,
        status=status,
        status_line=facts.computer_plays,
        away=facts.away,
        comeback=facts.comeback,
        you=facts.you,
        spectators=facts.spectators,
        spectator_names=facts.spectator_names,
        ratings=facts.ratings,
    )


def stars_of(match: Match, side_line: SideLineStart | None = None) -> tuple[int, int]:
    """The stars each side has won; in a side line (``side_line``), only the match's, each with who won it."""
    if side_line is None:
        return match.stars
    won = [side_line.seat_now(played.outcome.winner, number, -1)
           for number, played in enumerate(match.rounds[:side_line.round_number - 1], start=1)
           if played.outcome is not None]
    return (won.count(0), won.count(1))


GUEST_MARK = " (guest)"


def short_names(players: tuple[str, str], width: int = HISTORY_NAME_WIDTH) -> tuple[str, str]:
    """The players' names for a narrow panel: without " (guest)" where the two still differ, and
    longer names cut to ``width`` cells with an ellipsis, so each line reads whole."""
    bare = tuple(name.removesuffix(GUEST_MARK) for name in players)
    names = bare if bare[0].casefold() != bare[1].casefold() else players
    return (_fit(names[0], width), _fit(names[1], width))


def _fit(name: str, width: int) -> str:
    return name if cell_len(name) <= width else set_cell_size(name, width - 1) + "…"


def history_entries(match: Match, side_line: SideLineStart | None = None) -> list[HistoryEntry]:
    """Every round's heading and every move, numbered within its round (with the keys of its places
    where alike towers leave the notation in doubt). ``side_line``: where a side line shown left its
    match; the match's own rounds and moves keep their names, and the side line's round is none won."""
    entries = []
    now = short_names(match.players)
    for number, played in enumerate(match.rounds, start=1):
        outcome = played.outcome
        names = names_at(now, number, -1, side_line)
        if outcome is not None and (side_line is None or number < side_line.round_number):
            heading = f"Round {number}: {names[outcome.winner]} won"
        else:
            heading = f"Round {number}: {names[played.opener]} opened"
        entries.append(HistoryEntry(number, 0, heading, heading=True))
        for ply in range(played.ply):
            name = set_cell_size(names_at(now, number, ply, side_line)[played.mover_at(ply)], HISTORY_NAME_WIDTH)
            entries.append(HistoryEntry(number, ply + 1, f"{ply + 1:>2}. {name} {move_words(played, ply)}"))
    return entries


def status_prompt(match: Match, facts: TableFacts, moment: Moment,
                  teaching: tuple[str, str] | None) -> tuple[str, str]:
    """The status line for the moment, and its kind; ``teaching`` is the coach's line, if any."""
    if moment.viewing is not None:
        entry = moment.viewing
        when = "start" if entry.ply == 0 else f"after move {entry.ply}"
        viewing = f"Round {entry.round_number}, {when} (read-only). Esc returns to play."
        return (f"{viewing} {teaching[0]}", teaching[1]) if teaching else (viewing, "info")
    winner = match.winner
    if winner is not None:
        return (f"{match.players[winner]} won the match. Press n for a new match.", "info")
    outcome = match.round.outcome
    if outcome is not None:
        return (f"{match.players[outcome.winner]} won round {match.round_number}.", "info")
    name = match.players[match.to_move]
    if moment.revealing is not None:
        return (f"{name} plays {moment.revealing}.", "thinking")
    if moment.thinking:
        return (f"{name} is thinking...", "thinking")
    if not facts.local_to_move:
        return (f"Waiting for {name}.", "info")
    if moment.prompt_open:
        return (f"{name}: type a move, 2S>1S or by the towers' keys 3>6; Enter plays it, Esc closes.", "info")
    # "Your move" where this terminal has one player (a remote match, the computer): no doubt who.
    mover = "Your move" if facts.one_local_player else f"{name} to move"
    if teaching is not None:  # a hint or the analysis: whose turn it is still said first
        return (f"{mover}. {teaching[0]}", teaching[1])
    if moment.picked is not None:
        return (f"{name}: put {moment.picked} on a lit tower (Enter), or Esc to put it back.", "info")
    return (f"{mover}: pick a tower up (arrows, Enter).", "info")
