"""What the game screen shows, as pure functions of the match, the table's facts and the moment."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum

from rich.cells import set_cell_size

from ..rules import Match, Move, Position, Tower
from ..rules.wording import plural
from .coach import Coach, Turn
from .looks import HistoryEntry, Note, TallyInfo, TowerLook

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
    #: The seat of this terminal's player in a match against someone elsewhere (over SSH).
    you: int | None = None


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

    @property
    def thinking(self) -> bool:
        return self.phase is not Phase.IDLE


def tower_looks(
    position: Position,
    *,
    mover_slot: int | None = None,
    target: Tower | None = None,
    last: Tower | None = None,
    hinted: frozenset[int] = frozenset(),
    notes: Mapping[int, Note] | None = None,
) -> list[TowerLook]:
    """How each tower looks: the lifted one, the lit targets (or just ``target``), the rest dimmed.

    ``last`` marks the tower the latest move made; ``notes`` are (text, kind) per slot.
    """
    mover = position.towers[mover_slot] if mover_slot is not None else None
    looks = []
    last_marked = False
    for slot, tower in enumerate(position.towers):
        is_target = False
        if mover is not None and slot != mover_slot:
            # Another slot: a legal target exactly when it accepts the mover (both are on the board).
            is_target = tower == target if target is not None else tower.accepts(mover)
        is_last = mover is None and tower == last and not last_marked
        last_marked = last_marked or is_last
        note, kind = (notes or {}).get(slot, ("", ""))
        looks.append(
            TowerLook(
                tower=tower,
                picked=slot == mover_slot,
                target=is_target,
                dimmed=mover is not None and slot != mover_slot and not is_target,
                last=is_last,
                hinted=slot in hinted,
                note=note,
                note_kind=kind,
            )
        )
    return looks


def shown_position(match: Match, viewing: HistoryEntry | None) -> Position:
    """The live position, or the earlier one picked in the history."""
    if viewing is not None:
        return match.rounds[viewing.round_number - 1].position_at(viewing.ply)
    return match.position


def last_result(match: Match, viewing: HistoryEntry | None) -> Tower | None:
    """The tower the latest move shown made, to highlight it."""
    if viewing is not None:
        played = match.rounds[viewing.round_number - 1]
        ply = viewing.ply
    else:
        played, ply = match.round, match.round.ply
    return played.moves[ply - 1].result if ply else None


def board_looks(match: Match, moment: Moment, coach: Coach, analysis_on: bool) -> list[TowerLook]:
    """The towers as shown now: the computer's move landing, the tower in hand, hints and analysis marks."""
    position = shown_position(match, moment.viewing)
    if moment.viewing is None and moment.revealing is not None:
        return tower_looks(position, mover_slot=position.towers.index(moment.revealing.mover),
                           target=moment.revealing.target)
    mover_slot = moment.picked_slot if moment.viewing is None else None
    # A hint points at towers; with a tower in hand, its lit targets say more.
    live = position if moment.viewing is None else None
    hint_marks = coach.hint_marks(moment.turn, live) if mover_slot is None else {}
    notes = coach.analysis_notes(position, mover_slot) if analysis_on else {}
    return tower_looks(position, mover_slot=mover_slot, last=last_result(match, moment.viewing),
                       hinted=frozenset(hint_marks), notes={**notes, **hint_marks})


def tally_info(match: Match, facts: TableFacts, moment: Moment) -> TallyInfo:
    to_move = None if match.round.is_over or match.is_over else match.to_move
    status = ("thinking..." if moment.ascii else "thinking…") if moment.thinking else ""
    return TallyInfo(
        names=match.players,
        stars=match.stars,
        stars_to_win=match.options.stars_to_win,
        round_number=match.round_number,
        to_move=to_move,
        rules=f"{match.options.preset_name} rules",
        mode=f"{plural(match.options.discs, 'disc')}, {facts.mode_label}",
        seed=match.seed,
        hints=facts.hints,
        status=status,
        away=facts.away,
        comeback=facts.comeback,
        you=facts.you,
    )


def history_entries(match: Match) -> list[HistoryEntry]:
    """Every round's heading and every move, numbered within its round."""
    entries = []
    for number, played in enumerate(match.rounds, start=1):
        outcome = played.outcome
        if outcome is not None:
            heading = f"Round {number}: {match.players[outcome.winner]} won"
        else:
            heading = f"Round {number}: {match.players[played.opener]} opened"
        entries.append(HistoryEntry(number, 0, heading, heading=True))
        for ply, move in enumerate(played.moves, start=1):
            name = set_cell_size(match.players[played.mover_at(ply - 1)], HISTORY_NAME_WIDTH)
            entries.append(HistoryEntry(number, ply, f"{ply:>2}. {name} {move}"))
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
    if teaching is not None:
        return teaching
    if moment.picked_slot is not None:
        picked = match.position.towers[moment.picked_slot]
        return (f"{name}: put {picked} on a lit tower (Enter), or Esc to put it back.", "info")
    # "Your move" where this terminal has one player (a remote match, the computer): no doubt who.
    mover = "Your move" if facts.one_local_player else f"{name} to move"
    return (f"{mover}: pick a tower up (arrows, Enter).", "info")
