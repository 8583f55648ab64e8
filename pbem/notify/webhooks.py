"""Where webhooks and pushes may post: a player's URL (a webhook, a browser's push
subscription) must not turn the server into their way into the operator's network (loopback,
private, link-local, multicast or reserved addresses), and outside a test bench it must be
https.

Checked twice by the one function `refusal`: when the URL is set (its form, and an address
written into it), and when a webhook is sent, where its host is then resolved too; the post
then goes to the very address that was checked, so a name that resolves elsewhere a second
later (DNS rebinding) gains nothing. A name is not resolved when it is set: DNS may fail for
a moment, and only the send-time answer decides where a post goes. The operator may allow http
(`PBEM_WEBHOOK_ALLOW_HTTP`) and name hosts or networks that are fine although internal
(`PBEM_WEBHOOK_ALLOWED_HOSTS`: `chat.lan, 10.1.0.0/16`); pushes have settings of their own
(`PUSH`: `PBEM_PUSH_ALLOW_HTTP`, `PBEM_PUSH_ALLOWED_HOSTS`), read by the same code.
"""

from __future__ import annotations

import http.client
import ipaddress
import re
import socket
import ssl
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import cast
from urllib.parse import urlsplit

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network

#: Names that are this machine or its local network whatever DNS says.
_LOCAL_NAMES = ("localhost", ".localhost", ".local", ".internal", ".home.arpa", ".lan")


class WebhookRefused(OSError):
    """A webhook (or a push endpoint) this server will not post to; the sentence says why."""


@dataclass(frozen=True)
class Door:
    """Whose URLs these are: the settings that loosen the rules for them, and their name in
    a refusal."""

    settings: str  # the settings' prefix: <prefix>_ALLOW_HTTP, <prefix>_ALLOWED_HOSTS
    noun: str  # "Webhooks"
    one: str  # "webhook"


WEBHOOK = Door("PBEM_WEBHOOK", "Webhooks", "webhook")
PUSH = Door("PBEM_PUSH", "Push notifications", "push endpoint")


def _allowed(config: Mapping[str, object], door: Door) -> tuple[set[str], list[Network]]:
    names: set[str] = set()
    networks: list[Network] = []
    raw = config.get(f"{door.settings}_ALLOWED_HOSTS") or ""
    entries = raw.split(",") if isinstance(raw, str) else cast(Iterable[str], raw)
    for entry in (e.strip().lower() for e in entries):
        if not entry:
            continue
        try:
            networks.append(ipaddress.ip_network(entry, strict=False))
        except ValueError:
            names.add(entry)
    return names, networks


def _literal_address(host: str) -> Address | None:
    """`host` as an address if it is one, in any form a URL library would connect to
    (`2130706433`, `0x7f.1`, `[::ffff:127.0.0.1]`)."""
    try:
        address = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        try:
            # The legacy forms inet_aton reads (decimal, octal, hex, fewer parts).
            address = ipaddress.IPv4Address(socket.inet_aton(host))
        except OSError:
            return None
    return address


def _address_refusal(address: Address, networks: list[Network], door: Door) -> str | None:
    # `::ffff:127.0.0.1` is 127.0.0.1 to the network stack.
    address = getattr(address, "ipv4_mapped", None) or address
    public = address.is_global and not address.is_multicast
    if public or any(address in network for network in networks):
        return None
    kind = (
        "a loopback"
        if address.is_loopback
        else "a link-local"
        if address.is_link_local
        else "a multicast"
        if address.is_multicast
        else "a private"
        if address.is_private
        else "a reserved"
    )
    return f"{door.noun} go only to public addresses; {address} is {kind} address."


def _host(url: str) -> str:
    """The URL's host as the network stack reads it: in lower case, without the trailing dots
    of a fully qualified name (`localhost.` is localhost) and IDNA-folded (full-width
    letters are the ASCII ones); "" for none, or for a name IDNA cannot read."""
    host = (urlsplit(url).hostname or "").rstrip(".")
    if not host.isascii():
        try:
            host = host.encode("idna").decode("ascii")
        except UnicodeError:
            return ""
    return host.lower()


#: The `aud` claim a VAPID signature names (RFC 8292: the push service's origin), as py_vapid
#: accepts it: a host without colons (so no IPv6 literal) and an optional port.
_SIGNABLE_ORIGIN = re.compile(r"^https?://[^/:]+(:\d+)?$", re.IGNORECASE)


def origin(url: str) -> str:
    """The URL's scheme, host and port, without any user part: a push's `aud` claim."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc.rpartition('@')[2]}"


def refusal(url: str, config: Mapping[str, object], door: Door = WEBHOOK) -> str | None:
    """Why this server will not post to `url` as it is written, or None: the one check, when
    a webhook or push subscription is set and again when it is sent (which also checks where
    its name resolves). Whatever the sender would choke on is refused here, so a player's
    URL can fail only its own row, never a pass."""
    if any(c.isspace() or unicodedata.category(c) in ("Cc", "Cf") for c in url):
        # A NUL in the host would fail its look-up with a ValueError, and a line break is a
        # header's end: a URL holds neither, nor any space or invisible character.
        return f"This {door.one} URL holds a space, a control or an invisible character."
    parts = urlsplit(url)
    allow_http = bool(config.get(f"{door.settings}_ALLOW_HTTP"))
    if parts.scheme != "https" and not (allow_http and parts.scheme == "http"):
        return f"{door.noun} must use https; this server does not post to other addresses."
    try:
        port = parts.port
    except ValueError:  # "Port out of range", "could not be cast to integer"
        port = 0
    if port == 0:
        return f"This {door.one} URL's port must be a number from 1 to 65535."
    host = _host(url)
    if not host:
        return f"This {door.one} URL names no host."
    if door is PUSH and not _SIGNABLE_ORIGIN.match(origin(url)):
        return (
            f"{door.noun} are signed for their service's name, and {host} is an address "
            "written out (an IPv6 literal): this server cannot sign for it."
        )
    names, networks = _allowed(config, door)
    if host in names:
        return None
    address = _literal_address(host)
    if address is not None:
        return _address_refusal(address, networks, door)
    if host.endswith(_LOCAL_NAMES) or host.startswith("localhost."):
        return f"{door.noun} go only to public addresses; {host} is a name of the local network."
    return None


def _resolved(host: str, port: int, config: Mapping[str, object], door: Door) -> str:
    """The address to connect to for `host`, each of its addresses checked."""
    names, networks = _allowed(config, door)
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError as error:
        raise WebhookRefused(
            f"The {door.one}'s host {host} could not be resolved: {error}"
        ) from None
    addresses = [str(info[4][0]) for info in found]
    if host not in names:
        for text in addresses:
            refused = _address_refusal(ipaddress.ip_address(text.split("%")[0]), networks, door)
            if refused is not None:
                raise WebhookRefused(f"{refused} ({host} resolves to it)")
    return addresses[0]


class _PinnedHTTPS(http.client.HTTPSConnection):
    """https to a checked address, with the certificate checked for the URL's host name."""

    def __init__(self, host: str, address: str, port: int, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout, context=ssl.create_default_context())
        self._address = address

    def connect(self) -> None:
        sock = socket.create_connection((self._address, self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)  # type: ignore[attr-defined]


def post(url: str, body: str, config: Mapping[str, object], timeout: float = 10) -> None:
    """POST a webhook's `body` (JSON) to `url`, after checking it again; redirects are not
    followed."""
    json = {"Content-Type": "application/json"}
    status = send(url, body.encode(), json, config, WEBHOOK, timeout)
    if status >= 300:
        raise OSError(f"the webhook answered {status}")


def send(
    url: str,
    body: bytes,
    headers: Mapping[str, str],
    config: Mapping[str, object],
    door: Door,
    timeout: float = 10,
) -> int:
    """POST `body` to `url` after checking it again (its name resolved, and the post sent to
    the very address checked); the status it answered. A redirect is refused, not followed."""
    refused = refusal(url, config, door)
    if refused is not None:
        raise WebhookRefused(refused)
    parts = urlsplit(url)
    host = _host(url)
    port = parts.port or (443 if parts.scheme == "https" else 80)  # checked by `refusal`
    address = _resolved(host, port, config, door)
    connection: http.client.HTTPConnection
    if parts.scheme == "https":
        connection = _PinnedHTTPS(host, address, port, timeout)
    else:
        connection = http.client.HTTPConnection(address, port, timeout=timeout)
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    sent = {**headers, "Host": parts.netloc.rpartition("@")[2]}
    try:
        connection.request("POST", path, body=body, headers=sent)
        status = connection.getresponse().status
    finally:
        connection.close()
    if 300 <= status < 400:
        raise WebhookRefused(
            f"the {door.one} answered {status} (a redirect, which is not followed)"
        )
    return status
