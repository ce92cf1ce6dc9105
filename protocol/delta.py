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

from typing import Any

import msgpack

__all__ = ["DeltaError", "apply", "diff", "same"]

SET, REMOVE, MAP, SPLICE, ITEMS = 0, 1, 2, 3, 4
SHORT = 4
"""A changed list of at most this many scalars is set whole: looking into it would save next to nothing."""
LOOK = 4
"""How many items ahead a splice looks for where two lists agree again."""

_size = msgpack.Packer(use_bin_type=True).pack


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


def diff(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """The delta that turns map ``old`` into map ``new`` (empty when they are the same)."""
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
        delta = diff(old, new)
        return [MAP, delta] if delta else None
    if kind is list:
        return _list_op(old, new)
    return None if old == new else [SET, new]


def _equal(a: Any, b: Any) -> bool:
    """Whether two items are the same on the wire: the same object, or equal and packed alike (``True`` is not
    ``1``): packed only when Python's equality, in C, already says equal."""
    return a is b or (a == b and _size(a) == _size(b))


def _list_op(old: list[Any], new: list[Any]) -> list[Any] | None:
    """The changed spans replaced, or (same length) the changed items patched one by one; the smaller on the wire,
    and never larger than the new list set whole. Only the items that differ are packed (to reckon sizes)."""
    n_old, n_new = len(old), len(new)
    most = min(n_old, n_new)
    front = 0
    while front < most and _equal(old[front], new[front]):
        front += 1
    if front == n_old == n_new:
        return None
    back = 0
    while back < most - front and _equal(old[n_old - 1 - back], new[n_new - 1 - back]):
        back += 1
    if n_new <= SHORT and all(type(x) is not dict and type(x) is not list for x in new):
        return [SET, new]  # a few scalars: set whole, never worth a splice
    spans = _spans(old, new, front, n_old - back, n_new - back)
    if n_old == n_new:
        pairs: list[Any] = []
        for index in range(front, n_new - back):
            op = _op(old[index], new[index])
            if op is not None:
                pairs += [index, op]
        if all(spans[at + 1] == len(spans[at + 2]) for at in range(0, len(spans), 3)):
            # every span replaces as many items as it puts: patching those items is the delta (not sized as a splice)
            size = len(_size(pairs))
            return [ITEMS, pairs] if size < _items_size(new) else [SET, new]
    added = [x for at in range(2, len(spans), 3) for x in spans[at]]
    added_bytes = sum(len(_size(x)) for x in added)
    best: list[Any] = [SPLICE, spans]
    size = 4 + 8 * (len(spans) // 3) + added_bytes
    if n_old == n_new:
        items = len(_size(pairs))
        if items < size:
            best, size = [ITEMS, pairs], items
    # the new list set whole is at least its new items' bytes and a byte for each other item: packed only if
    # the delta is not already smaller than that
    if size < added_bytes + (n_new - len(added)) + 3:
        return best
    return best if size < _items_size(new) else [SET, new]


def _items_size(items: list[Any]) -> int:
    """The bytes of the list's items packed, plus 3 (an array header's most): the list packed in one C call."""
    header = 1 if len(items) < 16 else 3 if len(items) < 0x10000 else 5
    return len(_size(items)) - header + 3


def _spans(old: list[Any], new: list[Any], front: int, old_end: int, new_end: int) -> list[Any]:
    """The flat ``[at, count, items, ...]`` of a splice from ``old`` to ``new``, which agree before ``front`` and
    from ``old_end`` / ``new_end`` on. Where the lists part, the nearest point where they agree again (within
    ``LOOK`` items) ends the span: an item removed here and one added there cost those two, not the items
    between."""
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
