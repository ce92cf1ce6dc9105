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

from difflib import SequenceMatcher
from typing import Any

import msgpack

__all__ = ["DeltaError", "apply", "diff", "same"]

SET, REMOVE, MAP, SPLICE, ITEMS = 0, 1, 2, 3, 4

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
        else:
            op = _op(old[key], value)
            if op is not None:
                ops[key] = op
    for key in old:
        if key not in new:
            ops[key] = [REMOVE]
    return ops


def _op(old: Any, new: Any) -> list[Any] | None:
    """The operation turning ``old`` into ``new``, or None when they are the same."""
    if isinstance(old, dict) and isinstance(new, dict):
        ops = diff(old, new)
        return [MAP, ops] if ops else None
    if isinstance(old, list) and isinstance(new, list):
        return _list_op(old, new)
    return None if same(old, new) else [SET, new]


def _list_op(old: list[Any], new: list[Any]) -> list[Any] | None:
    """The changed spans replaced, or (same length) the changed items patched one by one; the smaller on the wire,
    and never larger than the new list set whole."""
    front, most = 0, min(len(old), len(new))
    while front < most and same(old[front], new[front]):
        front += 1
    if front == len(old) == len(new):
        return None
    back = 0
    while back < most - front and same(old[-1 - back], new[-1 - back]):
        back += 1
    choices = [[SET, new], [SPLICE, _spans(old, new, front, back)]]
    if len(old) == len(new):
        pairs: list[Any] = []
        for index in range(front, len(new) - back):
            op = _op(old[index], new[index])
            if op is not None:
                pairs += [index, op]
        choices.append([ITEMS, pairs])
    return min(choices, key=lambda op: len(_size(op)))


def _spans(old: list[Any], new: list[Any], front: int, back: int) -> list[Any]:
    """The flat ``[at, count, items, ...]`` of a splice from ``old`` to ``new``, which agree on their first ``front``
    and last ``back`` items: the fewest items kept apart (an item moved or changed is sent again)."""
    middle = new[front:len(new) - back]
    if front + back == len(old) or front + back == len(new):  # one span: only added, or only removed
        return [front, len(old) - back - front, middle]
    matcher = SequenceMatcher(None, [_size(x) for x in old[front:len(old) - back]], [_size(x) for x in middle],
                              autojunk=False)
    spans: list[Any] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "equal":
            spans += [front + i1, i2 - i1, middle[j1:j2]]
    return spans


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
