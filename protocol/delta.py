"""View deltas: what changed between two views of one seat, and how a client applies it (docs/protocol.md,
"View deltas").

A delta is a map from key to an operation on that key's value; each operation is a list whose first item
says which:

- ``[0, value]`` set the key to ``value`` (added or replaced whole);
- ``[1]`` remove the key;
- ``[2, delta]`` the value is a map: apply ``delta`` (a map of key to operation, as this one) to it;
- ``[3, [at, count, items, at, count, items, ...]]`` the value is a list: at each index ``at`` of the old list
  (ascending, the spans not overlapping), its ``count`` items are replaced by the list ``items``;
- ``[4, [index, op, index, op, ...]]`` the value is a list of the same length: apply each ``op`` (0, 2, 3 or 4)
  to the item at ``index``.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgpack

__all__ = ["DeltaError", "apply", "diff", "same", "walk"]

SET, REMOVE, MAP, SPLICE, ITEMS = 0, 1, 2, 3, 4
SHORT = 4
"""A changed list of at most this many scalars is set whole: looking into it would save next to nothing."""
LOOK = 4
"""How many items ahead a splice looks for where two lists agree again."""

_size = msgpack.Packer(use_bin_type=True).pack
_ABSENT = object()


class DeltaError(ValueError):
    """A delta that does not fit the value it is applied to (a client holding another view than its base)."""


def same(a: Any, b: Any) -> bool:
    """Equal as the wire tells them apart: ``True`` is not ``1``, nor ``1`` ``1.0``."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(value, b[key]) for key, value in a.items())
    if isinstance(a, list | tuple):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def _native() -> Callable[[dict[str, Any], dict[str, Any]], dict[str, Any]] | None:
    """``protocol._cdelta``'s diff, the same walk in C, when the compiled build holds it (it packs through
    :data:`_size` what it does not know); else None."""
    try:
        from protocol import _cdelta
    except ImportError:
        return None
    _cdelta.set_packer(_size)
    return _cdelta.diff


_NATIVE = _native()


def diff(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """The delta that turns map ``old`` into map ``new`` (empty when they are the same): :func:`walk`'s, made in C
    when the compiled build is there."""
    if _NATIVE is not None:
        return _NATIVE(old, new)
    return walk(old, new)


def walk(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """:func:`diff` in Python. Two views of one seat mostly hold the same keys in the same order, and where one holds
    more, they come last (a sealed card's, say): the maps are walked side by side, and the keys of the longer one
    past the other's end are set or removed."""
    ops: dict[str, Any] = {}
    for (key, was), (same_key, value) in zip(old.items(), new.items()):  # noqa: B905 (a keyword: no compiled zip)
        if key is not same_key:
            return _keyed(old, new)
        if was is not value:
            op = _op(was, value)
            if op is not None:
                ops[key] = op
    if len(old) != len(new):  # the shorter map's keys are the longer one's first ones: the rest are only in the longer
        walked = min(len(old), len(new))
        if len(new) > walked:
            for key in list(new)[walked:]:
                ops[key] = [SET, new[key]]
        else:
            for key in list(old)[walked:]:
                ops[key] = [REMOVE]
    return ops


def _keyed(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """:func:`walk` of maps whose keys differ, or come in another order: each key looked up."""
    ops: dict[str, Any] = {}
    added = 0
    for key, value in new.items():
        if key not in old:
            ops[key] = [SET, value]
            added += 1
            continue
        was = old[key]
        if was is not value:
            op = _op(was, value)
            if op is not None:
                ops[key] = op
    if len(old) > len(new) - added:  # some key of old is not in new
        for key in old:
            if key not in new:
                ops[key] = [REMOVE]
    return ops


def _op(old: Any, new: Any) -> list[Any] | None:
    """The operation turning ``old`` into ``new``, or None when they are the same on the wire. Maps and lists are
    looked into, part by part: successive views share the parts that did not change (cards, piles), so those
    cost an identity check."""
    if old is new:
        return None
    kind = type(new)
    if kind is not type(old):
        return [SET, new]
    if kind is dict:
        if len(new) > 2 and 2 * _changed(old, new) > len(new):
            # most of the map is new (a duel fought since the last view, say): set whole, not looked into
            return None if old == new and _size(old) == _size(new) else [SET, new]
        delta = walk(old, new)
        return [MAP, delta] if delta else None
    if kind is list:
        return _list_op(old, new)
    return None if old == new else [SET, new]


def _changed(old: dict[str, Any], new: dict[str, Any]) -> int:
    """How many of ``new``'s values are not the very objects ``old`` holds under their keys: walked side by side
    while the keys come in the same order (maps made by the same code), else looked up."""
    if len(old) == len(new):
        changed = 0
        for (key, was), (same_key, value) in zip(old.items(), new.items()):  # noqa: B905 (a keyword: no compiled zip)
            if key is not same_key:
                break
            if was is not value:
                changed += 1
        else:
            return changed
    return sum(1 for key, value in new.items() if old.get(key, _ABSENT) is not value)


def _equal(a: Any, b: Any) -> bool:
    """Whether two items are the same on the wire: the same object, or equal and packed alike (``True`` is not
    ``1``): packed only when Python's equality, in C, already says equal."""
    return a is b or (a == b and _size(a) == _size(b))


def _list_op(old: list[Any], new: list[Any]) -> list[Any] | None:
    """The changed spans replaced, or (where each span puts as many items as it takes) the changed items patched one
    by one; else the new list set whole, when that is smaller. Only the items that differ are packed to reckon
    sizes, and the whole list only when they do not settle it (a patch of a map is at most the map and a few
    bytes: one card changed of a hand is sent as its patch, the hand never packed)."""
    n_old, n_new = len(old), len(new)
    most = min(n_old, n_new)
    front = 0
    while front < most:  # the same object mostly (a pile's cards, a hand's): told apart without a call
        was, now = old[front], new[front]
        if was is not now and not _equal(was, now):
            break
        front += 1
    if front == n_old == n_new:
        return None
    back = 0
    while back < most - front:
        was, now = old[n_old - 1 - back], new[n_new - 1 - back]
        if was is not now and not _equal(was, now):
            break
        back += 1
    if n_new <= SHORT and not any(_is_part(x) for x in new):
        return [SET, new]  # a few scalars: set whole, never worth a splice
    spans = _spans(old, new, front, n_old - back, n_new - back)
    if all(spans[at + 1] == len(spans[at + 2]) for at in range(0, len(spans), 3)):
        # every span replaces as many items as it puts (the lists are as long): patching those items is the delta
        pairs: list[Any] = []
        for at in range(0, len(spans), 3):
            for index in range(spans[at], spans[at] + spans[at + 1]):
                op = _op(old[index], new[index])
                if op is not None:
                    pairs += [index, op]
        if not pairs:
            return None
        if all(_is_part(x) for x in new):
            # a list of maps or lists (the hands, a hand's cards): each patch is at most its item and a few bytes (a
            # map mostly new is set whole), so the patches are no bigger than the list whole, which is not packed to
            # weigh them, even when every item changed (both hands, one a card less and the other's count)
            return [ITEMS, pairs]
        return [ITEMS, pairs] if len(_size(pairs)) < _items_size(new) else [SET, new]
    added = [x for at in range(2, len(spans), 3) for x in spans[at]]
    # the splice takes 4 bytes, 8 a span and the added items; the new list set whole holds the added items and the
    # kept ones, a byte each at least, or (maps and lists, as the cards of a pile) about as many bytes as the added
    # ones each: the splice is smaller when 8 a span and 1 are less than the kept items' bytes. The added items are
    # packed to weigh them only when the least they can take does not settle it (a map takes a byte and two a
    # key at least, a list a byte and one an item), and the new list only when neither settles it.
    kept = n_new - len(added)
    if not kept:  # every item is added: the list whole is the added items and a header, smaller than any splice
        return [SET, new]
    parts = bool(added) and all(_is_part(x) for x in new)
    if parts and 8 * (len(spans) // 3) + 1 < kept * max(sum(_least(x) for x in added) // len(added), 1):
        return [SPLICE, spans]
    added_bytes = sum(len(_size(x)) for x in added)
    size = 4 + 8 * (len(spans) // 3) + added_bytes
    each = added_bytes // len(added) if parts else 1
    if size < added_bytes + kept * max(each, 1) + 3 or size < _items_size(new):
        return [SPLICE, spans]
    return [SET, new]


def _least(item: Any) -> int:
    """The fewest bytes a map or a list packs to: its header and a byte for each key and item."""
    return 1 + (2 * len(item) if type(item) is dict else len(item))


def _is_part(item: Any) -> bool:
    """Whether a list's item is a map or a list (a card, a decision), which successive views share by identity,
    rather than a scalar."""
    return type(item) is dict or type(item) is list


def _items_size(items: list[Any]) -> int:
    """The bytes of the list's items packed, plus 3 (an array header's most): the list packed in one C call."""
    header = 1 if len(items) < 16 else 3 if len(items) < 0x10000 else 5
    return len(_size(items)) - header + 3


def _spans(old: list[Any], new: list[Any], front: int, old_end: int, new_end: int) -> list[Any]:
    """The flat ``[at, count, items, ...]`` of a splice from ``old`` to ``new``, which agree before ``front`` and
    from ``old_end`` / ``new_end`` on. Maps and lists in ``old`` are found again in ``new`` by identity (successive
    views share the parts that did not change), in one pass; between two found again, the old items are replaced
    by the new. A list of scalars is walked instead: where the lists part, the nearest point where they agree again
    (within ``LOOK`` items) ends the span, so that an item removed here and one added there cost those two, not the
    items between."""
    if any(_is_part(x) for x in old[front:old_end]):
        return _anchored(old, new, front, old_end, new_end)
    spans: list[Any] = []
    i, j = front, front
    while i < old_end or j < new_end:
        if i < old_end and j < new_end and _equal(old[i], new[j]):
            i, j = i + 1, j + 1
            continue
        skip_old, skip_new = old_end - i, new_end - j  # no agreement ahead: the rest is one span
        for reach in range(1, LOOK + 1):
            agree = next((d for d in range(reach + 1) if i + d < old_end and j + reach - d < new_end
                          and _equal(old[i + d], new[j + reach - d])), None)
            if agree is not None:
                skip_old, skip_new = agree, reach - agree
                break
        spans += [i, skip_old, new[j:j + skip_new]]
        i, j = i + skip_old, j + skip_new
    return spans


def _anchored(old: list[Any], new: list[Any], front: int, old_end: int, new_end: int) -> list[Any]:
    """:func:`_spans` for a list holding maps or lists: the old items kept are those ``new`` holds too, the very
    objects, in the same order (an item found out of order is sent again)."""
    where = {id(x): at for at, x in enumerate(old[front:old_end], front)}
    spans: list[Any] = []
    i, start = front, front
    for j in range(front, new_end):
        at = where.get(id(new[j]), -1)
        if at >= i and old[at] is new[j]:
            if at > i or j > start:
                spans += [i, at - i, new[start:j]]
            i, start = at + 1, j + 1
    if i < old_end or start < new_end:
        spans += [i, old_end - i, new[start:new_end]]
    return spans


def apply(old: Any, delta: Any) -> dict[str, Any]:
    """Map ``old`` with ``delta`` applied, as a new map: ``old`` is left as it was (unchanged parts are shared).
    Either may be anything off the wire (typed ``Any`` so that the compiled build checks them here, as a
    :class:`DeltaError`, rather than refusing them with a ``TypeError`` at the call)."""
    if not isinstance(old, dict) or not isinstance(delta, dict):
        raise DeltaError("a map delta applies to a map")
    out = dict(old)
    for key, op in delta.items():
        if not isinstance(op, list) or not op:
            raise DeltaError(f"bad operation for {key!r}")
        if op[0] == REMOVE:
            if key not in out:
                raise DeltaError(f"removes {key!r}, which is absent")
            del out[key]
        elif op[0] == SET and len(op) == 2:
            out[key] = op[1]
        elif key not in out:
            raise DeltaError(f"changes {key!r}, which is absent")
        else:
            out[key] = _apply_op(out[key], op)
    return out


def _apply_op(old: Any, op: list[Any]) -> Any:
    kind = op[0]
    if len(op) < 2:
        raise DeltaError(f"operation {kind!r} lacks its argument")
    if kind == SET:
        return op[1]
    if kind == MAP:
        return apply(old, op[1])
    if not isinstance(old, list):
        raise DeltaError("a list operation applies to a list")
    if kind == SPLICE:
        spans, out, kept = op[1] if len(op) == 2 else None, [], 0
        if not isinstance(spans, list) or len(spans) % 3:
            raise DeltaError("a splice holds [at, count, items] triples")
        for at in range(0, len(spans), 3):
            start, count, items = spans[at], spans[at + 1], spans[at + 2]
            if not (isinstance(start, int) and isinstance(count, int) and isinstance(items, list)
                    and kept <= start <= start + count <= len(old)):
                raise DeltaError("a splice's spans are out of order or out of the list")
            out += old[kept:start]
            out += items
            kept = start + count
        return out + old[kept:]
    if kind == ITEMS:
        out = list(old)
        pairs = op[1] if len(op) == 2 else None
        if not isinstance(pairs, list) or len(pairs) % 2:
            raise DeltaError("an items operation holds [index, op] pairs")
        for at in range(0, len(pairs), 2):
            index, each = pairs[at], pairs[at + 1]
            if not isinstance(index, int) or not 0 <= index < len(out) or not isinstance(each, list) or not each:
                raise DeltaError(f"no item {index} in a list of {len(out)}")
            out[index] = _apply_op(out[index], each)
        return out
    raise DeltaError(f"unknown operation {kind!r}")
