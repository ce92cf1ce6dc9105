"""What the server sends and logs is packed by ormsgpack where it is installed, by msgpack otherwise: the same bytes
either way (protocol/packing.py)."""
from __future__ import annotations

import sys
from typing import Any

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from protocol import packing
from tests.protocol.native import native

ormsgpack = pytest.importorskip("ormsgpack")

scalars = (st.none() | st.booleans() | st.integers(min_value=-(2**63), max_value=2**64 - 1)
           | st.floats(allow_nan=False) | st.text(max_size=300) | st.binary(max_size=300))
values = st.recursive(
    scalars,
    lambda inner: (st.lists(inner, max_size=20) | st.tuples(inner, inner)
                   | st.dictionaries(st.text(max_size=20) | st.integers(min_value=-(2**31), max_value=2**31), inner,
                                     max_size=20)),
    max_leaves=60,
)


@settings(max_examples=400, deadline=None)
@given(values)
def test_ormsgpack_and_msgpack_pack_alike(value: Any) -> None:
    assert packing.packer(fast=True)(value) == msgpack.packb(value)
    assert packing.packer(fast=False)(value) == msgpack.packb(value)


def test_the_server_packs_with_ormsgpack_where_it_is_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    called: list[Any] = []
    monkeypatch.setattr(ormsgpack, "packb", lambda value: called.append(value) or b"\xc0")
    assert packing.packer()({"t": "view"}) == b"\xc0" and called == [{"t": "view"}]


def test_without_ormsgpack_msgpack_packs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ormsgpack", None)  # an import of it fails
    fallback = packing.packer()
    assert isinstance(getattr(fallback, "__self__", None), msgpack.Packer)  # msgpack's own packer, not the wrapper
    frame = {"t": "view", "room": "r1", "version": 3, "delta": {"hp": [0, [30, 28]]}, "keyed": {1: b"\x00"}}
    assert fallback(frame) == msgpack.packb(frame) == packing.pack(frame)


def test_a_map_with_int_keys_is_packed_as_msgpack_packs_it() -> None:
    """ormsgpack refuses keys other than str without an option that slows every call: msgpack packs those."""
    value = {"seats": {0: "ann", 1: None}}
    with pytest.raises(TypeError):
        ormsgpack.packb(value)
    assert packing.packer()(value) == msgpack.packb(value)


@pytest.mark.parametrize("name", ["creature_wars", "fairy_meat", "fairy_tableau", "queens_challenge"])
def test_every_state_of_random_matches_packs_alike(name: str) -> None:
    """The server packs snapshots with ormsgpack and digests those bytes; ``cardroom verify`` packs them with msgpack:
    every state of a game's random matches must pack to the same bytes both ways."""
    import random

    from engine import registry

    game = registry.get(name)
    assert game is not None
    rng = random.Random(7)
    checked = 0
    for seed in range(8):
        state = game.setup({}, seed)
        for _ in range(400):
            dumped = game.dump(state)
            assert packing.pack(dumped) == msgpack.packb(dumped)
            checked += 1
            if game.outcome(state) is not None:
                break
            seat, decision = rng.choice([(s, d) for s in range(game.players) for d in game.legal(state, s)])
            state, _ = game.apply(state, seat, decision)
    assert checked > 50


cpack, needs_c = native("_cpack")


def str_keys_only(value: Any) -> bool:
    if isinstance(value, dict):
        return all(isinstance(k, str) for k in value) and all(str_keys_only(v) for v in value.values())
    if isinstance(value, list | tuple):
        return all(str_keys_only(v) for v in value)
    return True


@needs_c
@settings(max_examples=400, deadline=None)
@given(values)
def test_the_c_packer_packs_as_msgpack_or_leaves_it(value: Any) -> None:
    """Maps with str keys and every scalar the protocol holds: msgpack's bytes; a map with other keys: None (the
    caller packs it as before), and nothing of it remembered."""
    packer = cpack.Packer()
    packed = packer.pack(value)
    if str_keys_only(value):
        assert packed == msgpack.packb(value)
    else:
        assert packed is None and packer.parts() == 0
    given = cpack.Packer(msgpack.packb)
    assert given.pack(value) == msgpack.packb(value), "a value it does not take goes to its fallback"
    if not str_keys_only(value):
        assert given.parts() == 0
    assert packing.shared().pack(value) == msgpack.packb(value)


@needs_c
def test_the_c_packers_fallback_is_callable_and_its_errors_are_the_callers() -> None:
    with pytest.raises(TypeError):
        cpack.Packer(3)

    def refuse(value: Any) -> bytes:
        raise ValueError("refused")

    with pytest.raises(ValueError):
        cpack.Packer(refuse).pack({1: 2})
    assert cpack.Packer(refuse).pack({"a": [1]}) == msgpack.packb({"a": [1]}), "taken values never reach it"


@needs_c
def test_parts_frames_share_are_packed_once_and_let_go_on_close() -> None:
    """The frames of one broadcast hold the same objects (the events told alike, the clocks, the pile's new cards):
    each is packed once and copied after, each frame still msgpack's bytes; ``close`` lets go of them."""
    card = {"text": "Lvl.3 Fire Pirate {3}", "kind": "creature", "level": 3, "rally": []}
    events = [{"kind": "reveal", "text": "Revealed.", "cards": [card, card]}]
    clock = {"seats": [{"left": 30.0, "bank": 60.0}, {"left": None, "bank": 55.5}], "limits": {"move": 30}}
    frames = [{"t": "view", "seat": seat, "delta": {"discard": [3, [4, 0, [card]]], "hp": [0, [30 - seat, 28]]},
               "events": events, "clock": clock} for seat in (0, 1)]
    held = sys.getrefcount(card), sys.getrefcount(events), sys.getrefcount(clock)
    packer = cpack.Packer()
    for frame in frames:
        assert packer.pack(frame) == msgpack.packb(frame)
    assert packer.parts() > 0
    assert sys.getrefcount(card) > held[0], "a part packed is held while the packer may copy it"
    refused = {"events": events, "seats": {0: "ann"}}
    before = packer.parts()
    assert packer.pack(refused) is None and packer.parts() == before, "a frame not packed leaves nothing behind"
    del refused
    assert packer.pack(frames[0]) == msgpack.packb(frames[0])
    packer.close()
    assert packer.parts() == 0
    assert (sys.getrefcount(card), sys.getrefcount(events), sys.getrefcount(clock)) == held


@needs_c
def test_a_part_met_again_in_the_same_frame_is_copied() -> None:
    face = {"text": "Lvl.1 Holy Wolf {2}", "kind": "creature", "level": 1, "tribe": "Wolf"}
    frame = {"discard": [face, face], "last_duel": {"cards": [face, {"text": "other"}]}, "again": [face]}
    packer = cpack.Packer()
    assert packer.pack(frame) == msgpack.packb(frame) == packer.pack(frame)


def test_without_the_c_packer_a_broadcast_packs_each_frame_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(packing, "_NATIVE", None)
    shared = packing.shared()
    frame = {"t": "view", "events": [{"kind": "x"}], "keyed": {1: b"\x00"}}
    assert shared.pack(frame) == msgpack.packb(frame)
    shared.close()
