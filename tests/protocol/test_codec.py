"""The codec contract: decode(bytes) returns a valid client message or raises ProtocolError, nothing else."""
from __future__ import annotations

from typing import Any

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from protocol import CLIENT_MESSAGES, MAX_FRAME, ErrorCode, Fields, ProtocolError, decode, decode_any, decode_frame, encode, error

VALID: dict[str, dict[str, Any]] = {
    "hello": {"t": "hello", "id": 1, "v": 1, "name": "ada"},
    "list_rooms": {"t": "list_rooms", "id": 2, "game": "creature_wars"},
    "create_room": {"t": "create_room", "id": 3, "game": "creature_wars", "options": {"hp": 20}, "seed": 9, "sit": True},
    "join": {"t": "join", "id": 4, "room": "r1", "seat": 1},
    "resume": {"t": "resume", "id": 5, "room": "r1", "token": "tok"},
    "spectate": {"t": "spectate", "id": 6, "room": "r1"},
    "leave": {"t": "leave", "id": 7, "room": "r1"},
    "view": {"t": "view", "id": 7, "room": "r1"},
    "decide": {"t": "decide", "id": 8, "room": "r1", "token": "tok", "version": 3,
               "decision": {"kind": "play", "slot": 0}},
    "scores": {"t": "scores", "id": 9, "game": "fairy_tableau", "daily": True, "limit": 5},
    "export": {"t": "export", "id": 10, "room": "r1"},
    "replay": {"t": "replay", "id": 20, "room": "r1", "token": "tok", "start": 0, "limit": 10},
    "admin": {"t": "admin", "id": 17, "op": "show", "secret": "s", "room": "r1", "seat": 0},
    "ratings": {"t": "ratings", "id": 18, "game": "creature_wars", "limit": 5},
    "history": {"t": "history", "id": 19, "player": "0123456789abcdef", "limit": 5},
    "cancel": {"t": "cancel", "id": 13, "room": "r1", "token": "tok"},
    "chat": {"t": "chat", "id": 11, "room": "r1", "text": "good luck"},
    "rematch": {"t": "rematch", "id": 12, "room": "r1", "token": "tok"},
    "my_rooms": {"t": "my_rooms", "id": 14},
    "resign": {"t": "resign", "id": 15, "room": "r1", "token": "tok"},
    "abort": {"t": "abort", "id": 16, "room": "r1", "token": "tok"},
    "queue": {"t": "queue", "id": 40, "game": "creature_wars", "rated": False, "clock": {"move": 30},
              "computer_after": 20, "computer": "strong", "nonce": "n"},
    "unqueue": {"t": "unqueue", "id": 41, "game": "creature_wars"},
    "create_event": {"t": "create_event", "id": 50, "game": "creature_wars", "title": "cup", "options": {"hp": 10},
                     "clock": {"move": 30}, "rounds": 3, "start": 1_800_000_000, "invite": ["ada"], "rated": True},
    "list_events": {"t": "list_events", "id": 51, "game": "creature_wars", "status": "running", "limit": 10},
    "follow_event": {"t": "follow_event", "id": 52, "event": "e1"},
    "register": {"t": "register", "id": 53, "event": "e1", "nonce": "n"},
    "unregister": {"t": "unregister", "id": 54, "event": "e1"},
    "drop": {"t": "drop", "id": 55, "event": "e1"},
    "start_event": {"t": "start_event", "id": 56, "event": "e1"},
    "play_event": {"t": "play_event", "id": 57, "event": "e1"},
}

SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(2**63), max_value=2**64 - 1), st.floats(allow_nan=False),
    st.text(max_size=20), st.binary(max_size=20),
)
STRUCTURES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=5), st.dictionaries(st.text(max_size=8), inner, max_size=5)),
    max_leaves=20,
)
FIELD_NAMES = sorted({"t", "id", *(f.name for fields in CLIENT_MESSAGES.values() for f in fields)})


def packed(value: Any) -> bytes:
    frame: bytes = msgpack.packb(value, use_bin_type=True)
    return frame


def decode_or_error(data: bytes) -> dict[str, Any] | ProtocolError:
    """decode(), with a ProtocolError returned instead of raised; any other exception propagates."""
    try:
        return decode(data)
    except ProtocolError as exc:
        assert isinstance(exc.code, ErrorCode)
        return exc


def assert_valid(message: dict[str, Any]) -> None:
    """A decoded message obeys the client table."""
    fields = CLIENT_MESSAGES[message["t"]]
    assert isinstance(message["id"], int) and not isinstance(message["id"], bool)
    for f in fields:
        if f.name in message:
            value = message[f.name]
            assert isinstance(value, f.kind) and not (f.kind is int and isinstance(value, bool))
        else:
            assert not f.required


def error_of(data: bytes) -> ProtocolError:
    with pytest.raises(ProtocolError) as info:
        decode(data)
    return info.value


# -- fuzzing ---------------------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(data=st.binary(max_size=200))
def test_fuzz_random_bytes(data: bytes) -> None:
    """Random bytes: a valid message or a ProtocolError."""
    result = decode_or_error(data)
    if isinstance(result, dict):
        assert_valid(result)


@settings(max_examples=300, deadline=None)
@given(value=STRUCTURES)
def test_fuzz_packed_structures(value: Any) -> None:
    """Any msgpack structure: a valid message or a ProtocolError."""
    result = decode_or_error(packed(value))
    if isinstance(result, dict):
        assert_valid(result)


@settings(max_examples=300, deadline=None)
@given(
    kind=st.one_of(st.sampled_from(sorted(CLIENT_MESSAGES)), STRUCTURES),
    body=st.dictionaries(st.sampled_from(FIELD_NAMES), STRUCTURES, max_size=8),
    rid=st.one_of(st.integers(min_value=-(2**63), max_value=2**63 - 1), STRUCTURES),
)
def test_fuzz_near_valid_messages(kind: Any, body: dict[str, Any], rid: Any) -> None:
    """Maps with real message types and field names but random values: valid or a ProtocolError."""
    message = {**body, "t": kind, "id": rid}
    result = decode_or_error(packed(message))
    if isinstance(result, dict):
        assert_valid(result)
        assert result == message


@settings(max_examples=100, deadline=None)
@given(kind=st.sampled_from(sorted(VALID)), cut=st.integers(min_value=0, max_value=200))
def test_fuzz_truncated_frames(kind: str, cut: int) -> None:
    """A valid frame cut short is a bad_frame (or, uncut, the message itself)."""
    frame = encode(VALID[kind])
    result = decode_or_error(frame[:cut])
    if cut >= len(frame):
        assert result == VALID[kind]
    else:
        assert isinstance(result, ProtocolError) and result.code is ErrorCode.BAD_FRAME


# -- exact cases -----------------------------------------------------------------------------


@pytest.mark.parametrize("value", [[1, 2], "hello", 5, None, True, b"raw", 1.5])
def test_non_map_is_bad_frame(value: Any) -> None:
    """A frame must be a map."""
    assert error_of(packed(value)).code is ErrorCode.BAD_FRAME


GARBAGE = [
    b"",  # nothing
    b"\xc1",  # the never-used byte
    b"\x81",  # a map with its entry missing
    b"\x81\xa1t",  # a map with its value missing
    b"\xdb\xff\xff\xff\xff",  # a str32 claiming 4 GiB
    b"\xdd\xff\xff\xff\xff",  # an array32 claiming 4 billion items
    b"\x81\x90\x00",  # a map keyed by an array
    b"\x91" * 60_000 + b"\x00",  # nesting far deeper than the decoder's stack (still under MAX_FRAME)
    b"\xd4\xff\x00",  # a timestamp extension of impossible length
    packed({"t": "hello"}) + b"x",  # trailing junk
]


@pytest.mark.parametrize("data", GARBAGE)
def test_garbage_is_bad_frame(data: bytes) -> None:
    """Invalid, truncated, hostile or trailing-junk msgpack is a bad_frame."""
    assert error_of(data).code is ErrorCode.BAD_FRAME


def test_non_string_map_keys_are_bad_frame() -> None:
    """Map keys must be strings."""
    assert error_of(packed({1: "hello"})).code is ErrorCode.BAD_FRAME


def test_binary_keys_are_not_field_names() -> None:
    """A map keyed by bytes has no ``t``: bad_field, not a crash."""
    exc = error_of(packed({b"t": "hello", b"id": 1}))
    assert exc.code is ErrorCode.BAD_FIELD and "'t'" in exc.message


def test_unknown_type() -> None:
    """An unknown ``t`` is unknown_type, named in the message, with the request id echoed."""
    exc = error_of(packed({"t": "fly", "id": 12}))
    assert exc.code is ErrorCode.UNKNOWN_TYPE
    assert "'fly'" in exc.message and exc.re == 12


@pytest.mark.parametrize("kind", [None, 5, True, b"hello"])
def test_missing_or_mistyped_t_is_bad_field(kind: Any) -> None:
    """``t`` must be a string."""
    message = {"id": 1} if kind is None else {"t": kind, "id": 1}
    exc = error_of(packed(message))
    assert exc.code is ErrorCode.BAD_FIELD and "'t'" in exc.message


@pytest.mark.parametrize("rid", [None, "1", 1.0, True, [1]])
def test_missing_or_mistyped_id_is_bad_field(rid: Any) -> None:
    """Every client message needs an integer ``id``."""
    message = dict(VALID["spectate"])
    del message["id"]
    if rid is not None:
        message["id"] = rid
    exc = error_of(packed(message))
    assert exc.code is ErrorCode.BAD_FIELD and "'id'" in exc.message and exc.re is None


@pytest.mark.parametrize(
    ("kind", "name"),
    [(kind, f.name) for kind, fields in CLIENT_MESSAGES.items() for f in fields if f.required],
)
def test_missing_required_field_is_bad_field(kind: str, name: str) -> None:
    """Each required field, when missing, is named."""
    message = dict(VALID[kind])
    del message[name]
    exc = error_of(packed(message))
    assert exc.code is ErrorCode.BAD_FIELD
    assert repr(name) in exc.message and "missing" in exc.message
    assert exc.re == VALID[kind]["id"]


def wrong_value(kind: type) -> Any:
    """A value of a different wire type."""
    return 7 if kind is not int else "7"


@pytest.mark.parametrize(
    ("kind", "name"),
    [(kind, f.name) for kind, fields in CLIENT_MESSAGES.items() for f in fields],
)
def test_mistyped_field_is_bad_field(kind: str, name: str) -> None:
    """Each field with a value of the wrong type is named."""
    field_type = next(f.kind for f in CLIENT_MESSAGES[kind] if f.name == name)
    message = {**VALID[kind], name: wrong_value(field_type)}
    exc = error_of(packed(message))
    assert exc.code is ErrorCode.BAD_FIELD and repr(name) in exc.message


@pytest.mark.parametrize(("kind", "name"), [("hello", "v"), ("create_room", "seed"), ("join", "seat"), ("decide", "version")])
def test_bool_is_not_an_int(kind: str, name: str) -> None:
    """msgpack booleans are not integers on this protocol."""
    exc = error_of(packed({**VALID[kind], name: True}))
    assert exc.code is ErrorCode.BAD_FIELD and repr(name) in exc.message


def test_bool_id_is_bad_field() -> None:
    """A boolean request id is not an id."""
    exc = error_of(packed({**VALID["hello"], "id": False}))
    assert exc.code is ErrorCode.BAD_FIELD and "'id'" in exc.message


@pytest.mark.parametrize(
    ("kind", "name"),
    [(kind, f.name) for kind, fields in CLIENT_MESSAGES.items() for f in fields if f.max_len],
)
def test_overlong_string_is_bad_field(kind: str, name: str) -> None:
    """Strings over their bound are rejected and named; at the bound they pass."""
    limit = next(f.max_len for f in CLIENT_MESSAGES[kind] if f.name == name)
    assert decode(packed({**VALID[kind], name: "x" * limit}))[name] == "x" * limit
    exc = error_of(packed({**VALID[kind], name: "x" * (limit + 1)}))
    assert exc.code is ErrorCode.BAD_FIELD and repr(name) in exc.message


def test_oversize_frame() -> None:
    """A frame over MAX_FRAME is frame_too_large, even if it is otherwise valid msgpack."""
    big = packed({**VALID["create_room"], "options": {"pad": "x" * MAX_FRAME}})
    assert len(big) > MAX_FRAME
    assert error_of(big).code is ErrorCode.FRAME_TOO_LARGE
    assert error_of(b"\x00" * (MAX_FRAME + 1)).code is ErrorCode.FRAME_TOO_LARGE


def test_oversize_frame_answers_its_id_when_it_can_be_read() -> None:
    """An oversize frame's error carries its id as ``re`` when the frame is a readable map, else null."""
    big = packed({**VALID["create_room"], "id": 77, "options": {"pad": "x" * MAX_FRAME}})
    exc = error_of(big)
    assert exc.code is ErrorCode.FRAME_TOO_LARGE and exc.re == 77
    assert error_of(packed({"t": "hello", "id": True, "pad": "x" * MAX_FRAME})).re is None
    assert error_of(packed(["x" * MAX_FRAME, 5])).re is None
    assert error_of(big[:-1]).re is None  # truncated: not msgpack
    beyond = packed({"t": "hello", "id": 78, "pad": "x" * (MAX_FRAME * 16)})
    assert error_of(beyond).code is ErrorCode.FRAME_TOO_LARGE and error_of(beyond).re is None


def test_frame_at_the_limit_is_decoded() -> None:
    """A valid frame of exactly MAX_FRAME bytes is decoded; one byte more is frame_too_large."""
    base = packed({**VALID["create_room"], "options": {"pad": ""}})
    length = MAX_FRAME - len(base) - 2  # a str16 header is two bytes longer than an empty fixstr's
    frame = packed({**VALID["create_room"], "options": {"pad": "x" * length}})
    assert len(frame) == MAX_FRAME
    assert decode(frame)["options"]["pad"] == "x" * length
    over = packed({**VALID["create_room"], "options": {"pad": "x" * (length + 1)}})
    assert error_of(over).code is ErrorCode.FRAME_TOO_LARGE


def test_valid_examples_cover_every_client_message() -> None:
    """The round-trip table below covers the whole client table."""
    assert set(VALID) == set(CLIENT_MESSAGES)


@pytest.mark.parametrize("kind", sorted(VALID))
def test_round_trip_every_client_message(kind: str) -> None:
    """encode then decode gives back the same message, with and without optional fields."""
    message = VALID[kind]
    assert decode(encode(message)) == message
    required = {k: v for k, v in message.items()
                if k in ("t", "id") or any(f.name == k and f.required for f in CLIENT_MESSAGES[kind])}
    assert decode(encode(required)) == required


def test_unknown_extra_fields_pass_through() -> None:
    """Fields not in the table are neither checked nor dropped (forward compatibility)."""
    message = {**VALID["leave"], "extra": [1, 2]}
    assert decode(encode(message)) == message


def test_error_message_is_decodable() -> None:
    """``error()`` builds a server map any client can read."""
    frame = error(ErrorCode.BAD_FIELD, "nope", re=4)
    assert decode_any(frame) == {"t": "error", "code": "bad_field", "message": "nope", "re": 4}


def test_decode_any_rejects_non_maps() -> None:
    """The client-side decoder also insists on a map."""
    with pytest.raises(ProtocolError) as info:
        decode_any(packed([1]))
    assert info.value.code is ErrorCode.BAD_FRAME


def test_a_server_frame_reads_the_same_through_either_unpacker() -> None:
    """``decode_frame`` (ormsgpack where installed) reads what ``decode_any`` reads, bytes, floats and deep maps
    alike, and sends what ormsgpack refuses (other map keys, a non-map) to ``decode_any``, which names it."""
    frames = [encode({"t": "view", "room": "ab12cd", "version": 2**40, "view": {"hand": [{"id": 3, "face": "A\u2660"}],
                                                                                   "hp": [1.5, -2], "blob": b"\x00\xff"},
                      "re": None, "ok": True}),
              error(ErrorCode.BAD_FIELD, "nope", re=4)]
    for frame in frames:
        assert decode_frame(frame) == decode_any(frame)
    assert decode_frame(packed({"t": "x", "n": {b"k": 1}})) == {"t": "x", "n": {b"k": 1}}  # bytes keys: msgpack takes them
    for refused in (packed([1]), packed({1: 2}), b"\xc1"):
        with pytest.raises(ProtocolError) as info:
            decode_frame(refused)
        assert info.value.code is ErrorCode.BAD_FRAME


def test_fields_encoded_once_join_the_fields_added_per_message() -> None:
    small = {"t": "view", "room": "ab12cd", "view": {"hand": [1, 2]}, "recent": []}
    large = {f"f{n}": n for n in range(20)}  # past a fixmap's 15 pairs
    for fields in (small, large):
        encoded = Fields(fields)
        for more in ({}, {"re": 7, "spectators": 3}, {"re": None}):
            assert encoded.encode(**more) == encode({**fields, **more})
            assert decode_any(encoded.encode(**more)) == {**fields, **more}
