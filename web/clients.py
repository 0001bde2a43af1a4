"""Which address a request comes from, for the per-address limits
(models/accounts/throttle.py; the page that refuses a client over one is
web/account/limits.py's).  A route takes it as a dependency,
:data:`web.deps.ClientAddress`.

The address is the socket's peer.  Behind a load balancer or a reverse
proxy the peer is the proxy, and the client's address is in
``X-Forwarded-For``, which anyone can also send: the header is read only
when the peer is one of the trusted proxies the setting names
(``PERMITS_TRUSTED_PROXIES``: addresses or networks, comma-separated).
Then the header is read from its right end (the entry the nearest proxy
added), skipping trusted proxies; the first address that is not one is the
client.  Entries further left were written by the client and are ignored.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Sequence

__all__ = ["Networks", "parse_trusted_proxies", "resolve"]

Networks = tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]


def parse_trusted_proxies(text: str | Iterable[str] | None) -> Networks:
    """``"10.0.0.0/8, 192.0.2.7"`` as networks; ValueError naming a bad one."""
    items = text.split(",") if isinstance(text, str) else list(text or ())
    out = []
    for item in (i.strip() for i in items):
        if not item:
            continue
        try:
            out.append(ipaddress.ip_network(item, strict=False))
        except ValueError:
            raise ValueError(
                f"PERMITS_TRUSTED_PROXIES: {item[:60]!r} is not an IP address or network (e.g. 10.0.0.5 or 10.0.0.0/24)"
            ) from None
    return tuple(out)


def _ip(text: str):
    try:
        return ipaddress.ip_address(text.strip())
    except ValueError:
        return None


def _trusted(ip, trusted: Networks) -> bool:
    return ip is not None and any(ip.version == n.version and ip in n for n in trusted)


def resolve(peer: str, forwarded: Sequence[str], trusted: Networks) -> str:
    """The client's address from the socket's ``peer`` and the
    ``X-Forwarded-For`` headers, trusting the header only from ``trusted``."""
    current = _ip(peer)
    if not _trusted(current, trusted):
        return str(current) if current is not None else peer[:64]
    hops = [h for header in forwarded for h in header.split(",")]
    for hop in reversed(hops):
        ip = _ip(hop)
        if ip is None:  # a proxy we trust wrote nonsense: the last address we know
            break
        current = ip
        if not _trusted(ip, trusted):
            break
    return str(current)
