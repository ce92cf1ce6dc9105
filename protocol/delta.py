"""View deltas: what changed between two views of one seat, and how a client applies it (docs/protocol.md,
"View deltas").

A delta is a map from key to an operation on that key's value; each operation is a list whose first item
says which:

- ``[0, value]`` set the key to ``value`` (added or replaced whole);
- ``[1]`` remove the key;
- ``[2, delta]`` the value is a map: apply ``delta`` (a map of key to operation, as this one) to it;
- ``[3, front, back, items]`` the value is a list: keep its first ``front`` and last ``back`` items and put
  ``items`` between them;
- ``[4, [index, op, index, op, ...]]`` the value is a list of the same length: apply each ``op`` (0, 2, 3 or 4)
  to the item at ``index``.
"""
from __future__ import annotations

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
    """A splice of the changed middle, or (same length) the changed items patched one by one; the smaller on the
    wire, and never larger than the new list set whole."""
    front, most = 0, min(len(old), len(new))
    while front < most and same(old[front], new[front]):
        front += 1
    if front == len(old) == len(new):
        return None
    back = 0
    while back < most - front and same(old[-1 - back], new[-1 - back]):
        back += 1
    choices = [[SET, new], [SPLICE, front, back, new[front:len(new) - back]]]
    if len(old) == len(new):
        pairs: list[Any] = []
        for index in range(front, len(new) - back):
            op = _op(old[index], new[index])
            if op is not None:
                pairs += [index, op]
        choices.append([ITEMS, pairs])
    return min(choices, key=lambda op: len(_size(op)))


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
        elif op[0] == SET:
            out[key] = op[1]
        else:
            if key not in out:
                raise DeltaError(f"changes {key!r}, which is absent")
            out[key] = _apply_op(out[key], op)
    return out


def _apply_op(old: Any, op: list[Any]) -> Any:
    kind = op[0]
    if kind == SET:
        return op[1]
    if kind == MAP:
        return apply(old, op[1])
    if not isinstance(old, list):
        raise DeltaError("a list operation applies to a list")
    if kind == SPLICE:
        front, back, items = op[1], op[2], op[3]
        if front + back > len(old):
            raise DeltaError("a splice keeps more items than the list has")
        return old[:front] + list(items) + old[len(old) - back:]
    if kind == ITEMS:
        out = list(old)
        pairs = op[1]
        for at in range(0, len(pairs), 2):
            index = pairs[at]
            if not 0 <= index < len(out):
                raise DeltaError(f"no item {index} in a list of {len(out)}")
            out[index] = _apply_op(out[index], pairs[at + 1])
        return out
    raise DeltaError(f"unknown operation {kind!r}")
