"""The line mode's words: the table, a tower, a move, the stars and the clock, as short sentences.

Pure functions of the rules' values, shared by the game and the puzzles in line mode. Towers are named by
their place on the table, counted from 1 as the player types them (``tower 7``); a place keeps its number
for the whole round, and is empty once its tower has been moved onto another. A move is said in words and
in the notation of docs/rules.md: ``Computer: moon 3 onto moon 7, now a tower of two, moon on top (1M>1M).``
"""

from __future__ import annotations

from collections.abc import Sequence

from ..rules import Arrangement, Match, PlacedMove, Position, Round, Symbol, Tower
from ..rules.clock import ClockReading
from ..rules.wording import minutes, plural

#: Heights and counts said as words (a screen reader reads "3" as "three" too, but beside a tower's number
#: a word keeps the two apart: "7: two high").
NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen",
                "twenty", "twenty-one", "twenty-two", "twenty-three", "twenty-four")


def number_word(count: int) -> str:
    """``two``; digits past the words known."""
    return NUMBER_WORDS[count] if 0 <= count < len(NUMBER_WORDS) else str(count)


def tower_words(tower: Tower) -> str:
    """A tower as the board says it: ``one sun``, ``one star`` (not "one stars"), ``three high, moon on top``."""
    if tower.height == 1:
        return f"one {'star' if tower.symbol is Symbol.STARS else tower.symbol.word}"
    return f"{number_word(tower.height)} high, {tower.symbol.word} on top"


def tower_name(tower: Tower, place: int) -> str:
    """A tower named in a move by its top symbol and its place (from 1): ``moon 3``, ``moon 3 (two high)``."""
    if tower.height == 1:
        return f"{tower.symbol.word} {place}"
    return f"{tower.symbol.word} {place} ({number_word(tower.height)} high)"


def count_towers(count: int) -> str:
    """``Twelve towers``, ``One tower``."""
    word = number_word(count)
    return f"{word[:1].upper()}{word[1:]} {'tower' if count == 1 else 'towers'}"


def table_line(table: Arrangement) -> str:
    """Every tower standing, by its place: ``Twelve towers. 1: one sun. 2: one moon. ...``."""
    standing = [f"{slot + 1}: {tower_words(tower)}." for slot, tower in enumerate(table) if tower is not None]
    return " ".join([f"{count_towers(len(standing))}.", *standing])


def position_line(position: Position) -> str:
    """A position whose towers have no places yet (a puzzle's), numbered as ``Arrangement.opening`` places them."""
    return table_line(Arrangement.opening(position))


def move_line(name: str, placed: PlacedMove) -> str:
    """One move by ``name`` in words and notation: ``Ann: moon 3 onto moon 7, now a tower of two, moon on top
    (1M>1M).``"""
    move = placed.move
    mover, target = placed.places
    result = move.result
    return (f"{name}: {tower_name(move.mover, mover)} onto {tower_name(move.target, target)}, now a tower of "
            f"{number_word(result.height)}, {result.symbol.word} on top ({move}).")


def round_move_line(played: Round, names: Sequence[str], ply: int) -> str:
    """Move ``ply`` (0-based) of a round, by whoever made it."""
    return move_line(names[played.mover_at(ply)], played.placed_at(ply))


def where_it_goes(table: Arrangement, slot: int) -> list[int]:
    """The places (from 1) the tower at ``slot`` may be put on now."""
    tower = table[slot]
    if tower is None:
        return []
    counts = table.position.counts
    return [other + 1 for other, target in enumerate(table)
            if target is not None and other != slot and target.accepts(tower)
            and (target != tower or counts[tower] >= 2)]


def what_comes_onto(table: Arrangement, slot: int) -> list[int]:
    """The places (from 1) whose towers may be put on the tower at ``slot`` now."""
    return [other + 1 for other in table.occupied if other != slot and slot + 1 in where_it_goes(table, other)]


def targets_words(table: Arrangement, slot: int, places: Sequence[int]) -> str:
    """Where the tower at ``slot`` can go, said short when it is everywhere: ``any other tower``, ``3 and 8``."""
    if len(places) > 2 and len(places) == len(table.occupied) - 1:
        return "any other tower"
    return numbers(places)


def numbers(places: Sequence[int]) -> str:
    """``3``, ``3 and 8``, ``2, 5 and 9``."""
    texts = [str(place) for place in places]
    return texts[0] if len(texts) == 1 else f"{', '.join(texts[:-1])} and {texts[-1]}"


def tower_line(table: Arrangement, slot: int) -> str:
    """One place: its tower, where it can go and what can come onto it (``tower 7``)."""
    tower = table[slot]
    if tower is None:
        return f"Tower {slot + 1} is gone: it was moved onto another tower this round."
    goes, comes = where_it_goes(table, slot), what_comes_onto(table, slot)
    text = f"Tower {slot + 1}: {tower_words(tower)} ({tower})."
    text += f" It can go onto {targets_words(table, slot, goes)}." if goes else " It cannot move."
    if comes:
        text += f" {numbers(comes)} can go onto it."
    return text


def legal_moves_lines(table: Arrangement) -> list[str]:
    """The legal moves, grouped by the tower that moves: ``Tower 3, one moon: onto 7 and 9.``"""
    lines = []
    total = 0
    for slot in table.occupied:
        goes = where_it_goes(table, slot)
        tower = table[slot]
        if goes and tower is not None:
            total += len(goes)
            lines.append(f"Tower {slot + 1}, {tower_words(tower)}: onto {targets_words(table, slot, goes)}.")
    stuck = [slot + 1 for slot in table.occupied if not where_it_goes(table, slot)]
    head = f"{plural(total, 'legal move')}, by the tower that moves."
    if stuck:
        head += f" Towers that cannot move: {numbers(stuck)}."
    return [head, *lines] if total else ["No legal move: the player to move has lost the round."]


def stars_line(match: Match) -> str:
    """``Stars: You 1, Computer 0; 4 to win.``"""
    names, stars = match.players, match.stars
    return f"Stars: {names[0]} {stars[0]}, {names[1]} {stars[1]}; {match.options.stars_to_win} to win."


def clock_line(names: Sequence[str], reading: ClockReading | None, read_at: float, now: float) -> str:
    """Each player's time left, and whose clock runs: ``Clock 3+2: You 2 min 41 s, running; Computer 3
    minutes.``"""
    if reading is None:
        return "This match has no clock."
    parts = []
    for seat, name in enumerate(names):
        left = reading.left[seat] - (now - read_at if reading.running == seat else 0.0)
        running = ", running" if reading.running == seat else ""
        parts.append(f"{name} {minutes(max(0.0, left))}{running}")
    stopped = "" if reading.running is not None else " Both clocks are stopped."
    return f"Clock {reading.setting.label}: {'; '.join(parts)}.{stopped}"


def plain(text: str, ascii_only: bool) -> str:
    """``text`` as the terminal can show it: every character not in ASCII a ``?`` where the locale asks for ASCII."""
    return text.encode("ascii", "replace").decode("ascii") if ascii_only else text


def error_sentence(error: Exception) -> str:
    """An error said as a sentence: its first letter upper case, a full stop after it."""
    text = str(error)
    return f"{text[:1].upper()}{text[1:]}."
