"""One careful check of a value read from JSON, shared by every reader of documents and messages.

A match document, a match setup, the stats file and the messages between the SSH server and
its sessions all come from outside (a file, another process), so each of their fields is
checked the same way: the expected type, a bool never taken for a number, numbers finite,
strings and lists of sane length. Types are checked exactly: JSON gives only plain values, so
``0.0`` or ``false`` is never taken for the seat ``0`` (a float or a bool is no int). Each reader
names the error it raises, so the player hears which thing was damaged.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any, Final, TypeGuard, TypeVar

T = TypeVar("T")

#: Without a length of their own, no string or list read from outside is longer than this.
LONGEST: Final = 200


class _Required:
    """The default of a field that must be present."""

    def __repr__(self) -> str:
        return "REQUIRED"


REQUIRED: Final = _Required()


def _kind_names(kinds: tuple[type, ...]) -> str:
    return " or ".join("null" if kind is type(None) else kind.__name__ for kind in kinds)


def checked(value: Any, kinds: tuple[type, ...], what: str, error: type[ValueError] = ValueError,
            longest: int = LONGEST, deep: bool = True) -> Any:
    """``value`` when it is one of ``kinds`` and sane, else ``error`` saying what was wrong with ``what``.

    The type must be one of ``kinds`` itself, not a subclass: a bool is not an int (JSON's ``true``
    is no seat number); only an int is also a float where floats are wanted (JSON writes ``300``
    for 300.0). No float, even one inside a list or an object, is infinite or not a number; a
    string, list or object is at most ``longest`` long. ``deep=False``: the items of a list or an
    object are the caller's to check, each in turn (their numbers are not looked at here).
    """
    kind = type(value)
    if kind not in kinds and not (kind is int and float in kinds):
        if kind is bool:
            raise error(f"{what} is true or false, not {_kind_names(kinds)}")
        raise error(f"{what} has the wrong type (wanted {_kind_names(kinds)})")
    if kind in (str, list, dict) and len(value) > longest:
        raise error(f"{what} is too long ({len(value)}, at most {longest})")
    if (deep or kind is float) and not _all_finite(value):
        raise error(f"{what} is not a finite number" if kind is float else f"{what} holds a number that is not finite")
    return value


def is_one_of(value: object, allowed: Iterable[T]) -> TypeGuard[T]:
    """Whether ``value`` is one of ``allowed`` with the very same type: ``0.0`` or ``False`` is not the seat ``0``."""
    return any(type(value) is type(choice) and value == choice for choice in allowed)


def _all_finite(value: Any) -> bool:
    """No float in ``value`` (or anywhere inside its lists and objects) is infinite or not a number.

    Walked without recursion, so no nesting however deep can stop the check itself."""
    waiting = [value]
    while waiting:
        item = waiting.pop()
        if type(item) is float:
            if not math.isfinite(item):
                return False
        elif type(item) is list:
            waiting.extend(item)
        elif type(item) is dict:
            waiting.extend(item.values())
    return True


def read_field(document: Any, key: str, *kinds: type, where: str, error: type[ValueError] = ValueError,
          longest: int = LONGEST, default: Any = REQUIRED) -> Any:
    """``document[key]`` checked by ``checked``; ``default`` when it is absent (if one is given)."""
    if not isinstance(document, dict):
        raise error(f"{where} is not an object")
    if key not in document:
        if default is REQUIRED:
            raise error(f"{where} has no {key!r} field")
        return default
    return checked(document[key], kinds, f"{where} field {key!r}", error, longest)


def read_items(document: Any, key: str, *kinds: type, where: str, error: type[ValueError] = ValueError,
          count: int | None = None, longest: int = LONGEST, default: Any = REQUIRED) -> list[Any]:
    """The list ``document[key]``, each item one of ``kinds`` (exactly ``count`` of them, if given)."""
    values = read_field(document, key, list, where=where, error=error, longest=longest, default=default)
    if values is default and default is not REQUIRED:
        return list(values)
    if count is not None and len(values) != count:
        raise error(f"{where} field {key!r} has {len(values)} items, not {count}")
    return [checked(value, kinds, f"{where} field {key!r} item {number}", error)
            for number, value in enumerate(values, start=1)]
