"""The client's address behind a proxy: the PROXY protocol (v1 text and v2 binary, as HAProxy's
``send-proxy``/``send-proxy-v2`` write it) and ``X-Forwarded-For``, believed only from trusted proxies.

Pure functions over bytes and strings; the websocket side is server/edge/connection.py (``Socket``) and
server/edge/admission.py. The header formats are HAProxy's ``proxy-protocol.txt``:

- v1: ``PROXY TCP4|TCP6|UNKNOWN <src> <dst> <sport> <dport>\\r\\n``, at most 107 bytes;
- v2: the 12-byte signature ``\\r\\n\\r\\n\\0\\r\\nQUIT\\n``, a version/command byte (0x20 LOCAL, 0x21 PROXY),
  a family/transport byte, a big-endian length, then the addresses (IPv4: 12 bytes, IPv6: 36) and TLVs.
"""
from __future__ import annotations

import ipaddress
import os
from collections.abc import Iterable, Sequence

__all__ = ["BadHeader", "MAX_V2", "Trusted", "begins_header", "forwarded_for", "normal", "parse_header",
           "trusted_from_env"]

V1_PREFIX = b"PROXY "
V1_MAX = 107
"""The longest v1 header, CRLF included."""
V2_SIGNATURE = b"\r\n\r\n\x00\r\nQUIT\n"
MAX_V2 = 16 + 4096
"""The longest v2 header accepted (addresses and TLVs): HAProxy's own are far smaller."""


class BadHeader(ValueError):
    """Bytes that begin like a PROXY header but are not one."""


Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def normal(address: str) -> str:
    """An address as counted: an IPv4-mapped IPv6 address as its IPv4 form; anything unparsable as it is."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    return str(ip)


class Trusted:
    """The proxies whose PROXY header or forwarded header is believed: addresses or networks (CIDR)."""

    def __init__(self, specs: Iterable[str] = ()) -> None:
        self.networks: list[Network] = []
        for spec in specs:
            spec = spec.strip()
            if not spec:
                continue
            try:
                net = ipaddress.ip_network(spec, strict=False)
            except ValueError:
                raise ValueError(f"trusted proxy {spec!r} is not an IP address or network") from None
            if isinstance(net, ipaddress.IPv6Network) and net.prefixlen == 128 and net[0].ipv4_mapped is not None:
                net = ipaddress.ip_network(str(net[0].ipv4_mapped))
            self.networks.append(net)

    def __bool__(self) -> bool:
        return bool(self.networks)

    def __contains__(self, address: object) -> bool:
        if not isinstance(address, str) or not self.networks:
            return False
        try:
            ip = ipaddress.ip_address(normal(address))
        except ValueError:
            return False
        return any(ip in net for net in self.networks)

    def __repr__(self) -> str:
        return f"Trusted({[str(n) for n in self.networks]!r})"


def trusted_from_env(flags: Sequence[str] | None = None) -> Trusted:
    """``--trusted-proxy`` values if any were given, else ``CARDROOM_TRUSTED_PROXIES`` (commas or spaces)."""
    if flags:
        return Trusted(flags)
    return Trusted(os.environ.get("CARDROOM_TRUSTED_PROXIES", "").replace(",", " ").split())


def begins_header(data: bytes) -> bool | None:
    """Whether ``data`` begins with a PROXY header; None: too short to tell yet."""
    for signature in (V1_PREFIX, V2_SIGNATURE):
        n = min(len(data), len(signature))
        if data[:n] == signature[:n]:
            return True if n == len(signature) else None
    return False


def parse_header(data: bytes) -> tuple[str | None, int] | None:
    """The client address a PROXY header at the start of ``data`` gives and the header's length; None: more bytes
    are needed. The address is None for a header that names none (v1 ``UNKNOWN``, v2 ``LOCAL`` such as a health
    check, a Unix socket): the TCP peer stands. Raises ``BadHeader`` for a malformed one."""
    if data.startswith(V2_SIGNATURE):
        return _v2(data)
    if data.startswith(V1_PREFIX):
        return _v1(data)
    raise BadHeader("not a PROXY protocol header")


def _v1(data: bytes) -> tuple[str | None, int] | None:
    end = data.find(b"\r\n", 0, V1_MAX)
    if end < 0:
        if len(data) >= V1_MAX:
            raise BadHeader("PROXY v1 header longer than 107 bytes")
        return None
    fields = data[:end].decode("ascii", "replace").split(" ")
    if len(fields) >= 2 and fields[1] == "UNKNOWN":
        return None, end + 2
    if len(fields) != 6 or fields[1] not in ("TCP4", "TCP6"):
        raise BadHeader("PROXY v1 header: expected 'PROXY TCP4|TCP6 src dst sport dport'")
    try:
        src = ipaddress.ip_address(fields[2])
        ipaddress.ip_address(fields[3])
        ports = [int(p) for p in fields[4:6]]
    except ValueError:
        raise BadHeader("PROXY v1 header: bad address or port") from None
    if (src.version == 4) != (fields[1] == "TCP4") or not all(0 <= p <= 65535 for p in ports):
        raise BadHeader("PROXY v1 header: address family or port out of range")
    return normal(str(src)), end + 2


def _v2(data: bytes) -> tuple[str | None, int] | None:
    if len(data) < 16:
        return None
    version, command = data[12] >> 4, data[12] & 0x0F
    if version != 2 or command not in (0, 1):
        raise BadHeader(f"PROXY v2 header: version {version}, command {command}")
    length = int.from_bytes(data[14:16], "big")
    if 16 + length > MAX_V2:
        raise BadHeader(f"PROXY v2 header of {16 + length} bytes, over {MAX_V2}")
    if len(data) < 16 + length:
        return None
    family = data[13] >> 4
    body = data[16:16 + length]
    if command == 0 or family not in (1, 2):  # LOCAL (the proxy itself), or no IP to give (UNSPEC, UNIX)
        return None, 16 + length
    size = 4 if family == 1 else 16
    if length < 2 * size + 4:
        raise BadHeader(f"PROXY v2 header: {length} bytes of addresses, too short for the family")
    src = ipaddress.ip_address(bytes(body[:size]))
    return normal(str(src)), 16 + length


def forwarded_for(values: Sequence[str], trusted: Trusted) -> str | None:
    """The client's address from ``X-Forwarded-For`` header lines (in order) that a trusted proxy sent: the
    rightmost entry that is not itself a trusted proxy (those to its left are what the client wrote, and
    anyone can write anything). None: no usable entry (the TCP peer stands)."""
    entries = [e.strip() for value in values for e in value.split(",") if e.strip()]
    for entry in reversed(entries):
        if entry.startswith("[") and "]" in entry:  # [v6]:port
            entry = entry[1:entry.index("]")]
        elif entry.count(":") == 1:  # v4:port
            entry = entry.split(":", 1)[0]
        try:
            ipaddress.ip_address(entry)
        except ValueError:
            return None
        if entry not in trusted:
            return normal(entry)
    return None
