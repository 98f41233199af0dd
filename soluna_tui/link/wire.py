"""Shared by the server process and the child: a message as the JSON object that travels, and back.

``to_wire`` turns a message of ``messages.py`` into the object that travels; ``from_wire`` reads one
back and checks every field against the message's declaration: its type (a bool is not a number, an
int is a float where floats are wanted, numbers are finite), its length, the items of its lists and
the fields of the records inside it, all through ``rules.json_fields.checked``, the one check every reader
of our documents (match, setup, stats, saves) shares. Anything else is a ``ProtocolError``, naming
the place of what was wrong. Each declared type's reader is made once, on the first message that
needs it. Documents carried whole (a match, a saved match) are checked here as objects and read by
their own readers (``Match.from_dict``, ``SavedMatch.from_document``) where they are used.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import types
from collections.abc import Callable, Hashable, Iterable, Mapping
from typing import Annotated, Any, Literal, Union, cast, get_args, get_origin, get_type_hints

from ..rules.json_fields import LONGEST, checked, is_one_of
from .messages import Longest, MatchTerms, Message, ProtocolError, Seek


def to_wire(message: Message) -> dict[str, Any]:
    """The JSON object of ``message``: its ``type`` first, then its fields in declared order."""
    return {"type": message.TYPE, **_plain_fields(message)}


def _plain_fields(record: Any) -> dict[str, Any]:
    return {each.name: _plain(getattr(record, each.name)) for each in dataclasses.fields(record)}


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _plain_fields(value)
    if isinstance(value, (tuple, list)):
        return [_plain(item) for item in value]
    if isinstance(value, enum.Enum):
        return value.value
    return value


def from_wire(document: Any, kinds: Mapping[str, type[Message]]) -> Message:
    """The message in a decoded JSON object, one of ``kinds``, every field checked; ``ProtocolError`` if not."""
    if not isinstance(document, dict) or not isinstance(document.get("type"), str):
        raise ProtocolError("a message without a type")
    kind = kinds.get(document["type"])
    if kind is None:
        raise ProtocolError(f"an unknown message {_short(document['type'])!r}")
    values = {key: value for key, value in document.items() if key != "type"}
    try:
        message: Message = _reader(cast(Hashable, kind), LONGEST)(values)  # a class is hashable
    except _Misread as wrong:
        raise ProtocolError(f"{kind.TYPE!r} message{wrong.tail}") from None
    return message


def terms_document(terms: MatchTerms) -> dict[str, Any]:
    """Match terms as the plain JSON object the wire has (as the store keeps a seek's, a challenge's and a
    tournament's, and the pairing compares them)."""
    document: dict[str, Any] = to_wire(Seek(terms))["terms"]
    return document


def terms_from_document(document: Any) -> MatchTerms:
    """Match terms back from such an object, every field checked as a child's would be (``ProtocolError`` if not)."""
    message = from_wire({"type": Seek.TYPE, "terms": document}, {Seek.TYPE: Seek})
    assert isinstance(message, Seek)
    return message.terms


def _short(name: str) -> str:
    """A name from a line, as a log may quote it."""
    return name[:40]


class _Misread(Exception):
    """What was wrong with a value; each record and list it is in puts its place (`` field 'code'``, `` item 3``)
    before ``tail`` on the way out. Not a ``ValueError``: only ``from_wire`` turns it into one."""

    def __init__(self, tail: str) -> None:
        super().__init__(tail)
        self.tail = tail

    def within(self, part: str) -> _Misread:
        self.tail = part + self.tail
        return self


#: Reads one value as its declaration says: the value itself, a tuple for a list, a record for an object.
Reader = Callable[[Any], Any]


@functools.cache
def _reader(annotation: Any, longest: int) -> Reader:
    """The reader of ``annotation`` (see the module's docstring for what is checked), made once for each."""
    origin, arguments = get_origin(annotation), get_args(annotation)
    if origin is Annotated:
        limit = next((extra.limit for extra in arguments[1:] if isinstance(extra, Longest)), longest)
        return _reader(arguments[0], limit)
    if origin in (Union, types.UnionType):
        (only,) = [each for each in arguments if each is not type(None)]
        inner = _reader(only, longest)
        if type(None) not in arguments:
            return inner
        return lambda value: None if value is None else inner(value)
    if origin is Literal:
        return _literal_reader(arguments)
    if origin is tuple:
        return _tuple_reader(arguments, longest)
    if origin is dict:  # a document carried whole: checked through and through here, read where it is used
        return lambda value: _checked(value, (dict,), longest)
    if isinstance(annotation, type) and dataclasses.is_dataclass(annotation):
        return _record_reader(annotation, LONGEST)
    if isinstance(annotation, type) and issubclass(annotation, enum.StrEnum):
        return _enum_reader(annotation, longest)
    if annotation in (str, int, bool):
        return lambda value: value if type(value) is annotation and (
            annotation is not str or len(value) <= longest) else _checked(value, (annotation,), longest)
    if annotation is float:
        return _float_reader(longest)
    raise TypeError(f"a message field declared as {annotation!r}, which this reader does not know")


def _checked(value: Any, kinds: tuple[type, ...], longest: int, deep: bool = True) -> Any:
    """``rules.json_fields.checked``, its complaint raised as a ``_Misread`` (its place put before it on the way
    out)."""
    try:
        return checked(value, kinds, "", _MisreadText, longest, deep)
    except _MisreadText as error:
        raise _Misread(str(error)) from None


class _MisreadText(ValueError):
    """``checked``'s words about a value, without the value's place (added on the way out)."""


def _float_reader(longest: int) -> Reader:
    def number(value: Any) -> float:
        try:
            return float(_checked(value, (float,), longest))
        except OverflowError:  # an int too big for a float
            raise _Misread(" is not a finite number") from None
    return number


def _literal_reader(choices: tuple[Any, ...]) -> Reader:
    def literal(value: Any) -> Any:
        if not is_one_of(value, choices):  # the very type too: 1.0 or true is not the seat 1
            raise _Misread(f" is not one of {', '.join(map(repr, choices))}")
        return value
    return literal


def _tuple_reader(arguments: tuple[Any, ...], longest: int) -> Reader:
    if len(arguments) == 2 and arguments[1] is Ellipsis:
        item = _reader(arguments[0], LONGEST)

        def many(value: Any) -> tuple[Any, ...]:
            return _read_items((item, each) for each in _checked(value, (list,), longest, deep=False))
        return many
    readers = tuple(_reader(each, LONGEST) for each in arguments)

    def fixed(value: Any) -> tuple[Any, ...]:
        items = _checked(value, (list,), longest, deep=False)
        if len(items) != len(readers):
            raise _Misread(f" has {len(items)} items, not {len(readers)}")
        return _read_items(zip(readers, items, strict=True))
    return fixed


def _read_items(items: Iterable[tuple[Reader, Any]]) -> tuple[Any, ...]:
    """Each item read by its reader; a misread names the item's place."""
    read = []
    for number, (reader, each) in enumerate(items, start=1):
        try:
            read.append(reader(each))
        except _Misread as wrong:
            raise wrong.within(f" item {number}") from None
    return tuple(read)


def _record_reader(kind: type, longest: int) -> Reader:
    hints = get_type_hints(kind, include_extras=True)
    fields = tuple((each.name, _reader(hints[each.name], LONGEST), each.default is not dataclasses.MISSING)
                   for each in dataclasses.fields(kind))
    names = frozenset(name for name, _, _ in fields)

    def record(document: Any) -> Any:
        document = _checked(document, (dict,), longest, deep=False)
        if not names.issuperset(document):
            raise _Misread(f" has an unknown field {_short(sorted(set(document) - names)[0])!r}")
        values = {}
        for name, reader, optional in fields:
            if name in document:
                try:
                    values[name] = reader(document[name])
                except _Misread as wrong:
                    raise wrong.within(f" field {name!r}") from None
            elif not optional:
                raise _Misread(f" has no {name!r} field")
        try:
            return kind(**values)
        except ProtocolError:
            raise
        except ValueError as error:  # a record that checks itself (a clock setting out of range)
            raise _Misread(f": {error}") from None
    return record


def _enum_reader(kind: type[enum.StrEnum], longest: int) -> Reader:
    def member(value: Any) -> enum.StrEnum:
        text = _checked(value, (str,), longest)
        try:
            return kind(text)
        except ValueError:
            raise _Misread(f" is not one of {', '.join(map(str, kind))}") from None
    return member
