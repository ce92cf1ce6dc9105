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
SMALL = 24
"""A changed list packed in at most this many bytes is set whole: looking into it would save next to nothing."""
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
    for key, value in new.items():
        if key not in old:
            ops[key] = [SET, value]
            continue
        was = old[key]
        kind = type(value)
        if was is value:
            continue
        if kind is not type(was):
            ops[key] = [SET, value]
        elif kind is list:
            op = _list_op(was, value)
            if op is not None:
                ops[key] = op
        elif kind is dict:
            if _size(was) != _size(value):
                ops[key] = [MAP, diff(was, value)]
        elif was != value:  # a scalar (scalars are inlined: most of a view's fields)
            ops[key] = [SET, value]
    for key in old:
        if key not in new:
            ops[key] = [REMOVE]
    return ops


def _op(old: Any, new: Any, old_packed: bytes = b"", new_packed: bytes = b"") -> list[Any] | None:
    """The operation turning ``old`` into ``new``, or None when they are the same. Maps and lists are compared by
    their packed bytes first (in C, and as the wire tells values apart; given when known), and looked into only
    when they differ."""
    if old is new:
        return None
    kind = type(old)
    if kind is not type(new):
        return [SET, new]
    if kind is dict:
        if (old_packed or _size(old)) == (new_packed or _size(new)):
            return None
        return [MAP, diff(old, new)]
    if kind is list:
        return _list_op(old, new, old_packed, new_packed)
    return None if old == new else [SET, new]


def _list_op(old: list[Any], new: list[Any], old_packed: bytes = b"", new_packed: bytes = b"") -> list[Any] | None:
    """The changed spans replaced, or (same length) the changed items patched one by one; the smaller on the wire
    (sizes reckoned from the packed items), and never larger than the new list set whole."""
    if old_packed and old_packed == new_packed:
        return None
    if len(new) <= 4:  # a short list: packed whole first (faster than item by item)
        new_packed = new_packed or _size(new)
        if new_packed == (old_packed or _size(old)):
            return None
        if len(new_packed) <= SMALL:
            return [SET, new]
    keys_old, keys_new = [_size(x) for x in old], [_size(x) for x in new]
    if keys_old == keys_new:
        return None
    whole = len(new_packed) if new_packed else 3 + sum(map(len, keys_new))
    if whole <= SMALL:
        return [SET, new]
    front, most = 0, min(len(old), len(new))
    while front < most and keys_old[front] == keys_new[front]:
        front += 1
    back = 0
    while back < most - front and keys_old[-1 - back] == keys_new[-1 - back]:
        back += 1
    spans, size = _spans(keys_old, keys_new, new, front, back)
    best: list[Any] = [SPLICE, spans]
    if len(old) == len(new):
        pairs: list[Any] = []
        for index in range(front, len(new) - back):
            if keys_old[index] != keys_new[index]:
                op = _op(old[index], new[index], keys_old[index], keys_new[index])
                if op is not None:
                    pairs += [index, op]
        items = len(_size(pairs))
        if items < size:
            best, size = [ITEMS, pairs], items
    return best if size < whole else [SET, new]


def _spans(keys_old: list[bytes], keys_new: list[bytes], new: list[Any], front: int, back: int) -> tuple[list[Any], int]:
    """The flat ``[at, count, items, ...]`` of a splice from the old list to ``new`` (their items packed: ``keys_``),
    which agree on their first ``front`` and last ``back`` items, with about its size packed. Where the lists part,
    the nearest point where they agree again (within ``LOOK`` items) ends the span: an item removed here and one
    added there cost those two, not the items between."""
    old_end, new_end = len(keys_old) - back, len(keys_new) - back
    spans: list[Any] = []
    size, i, j = 4, front, front
    while i < old_end or j < new_end:
        if i < old_end and j < new_end and keys_old[i] == keys_new[j]:
            i, j = i + 1, j + 1
            continue
        skip_old, skip_new = old_end - i, new_end - j  # no agreement ahead: the rest is one span
        for reach in range(1, LOOK + 1):
            agree = next((d for d in range(reach + 1) if i + d < old_end and j + reach - d < new_end
                          and keys_old[i + d] == keys_new[j + reach - d]), None)
            if agree is not None:
                skip_old, skip_new = agree, reach - agree
                break
        spans += [i, skip_old, new[j:j + skip_new]]
        size += 8 + sum(len(k) for k in keys_new[j:j + skip_new])
        i, j = i + skip_old, j + skip_new
    return spans, size


def apply(old: dict[str, Any], delta: dict[str, Any]) -> dict[str, Any]:
    """Map ``old`` with ``delta`` applied, as a new map: ``old`` is left as it was (unchanged parts are shared)."""
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
