"""DKIM signatures on outgoing mail (dkimpy), when the operator gives a selector, a domain
and an RSA private key (DKIM_SELECTOR, DKIM_DOMAIN, DKIM_PRIVATE_KEY: a PEM file's path).

Receivers want the sending domain's signature (Gmail's and Yahoo's rules for bulk senders),
and RFC 8058's one-click unsubscribe counts only when the signature covers
`List-Unsubscribe` and `List-Unsubscribe-Post`. Without the settings mail goes unsigned, for
the MTA to sign (OpenDKIM) or not at all; see deploy/README.md.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import dkim
from dkim.crypto import UnparsableKeyError, parse_pem_private_key

#: The headers signed, present or not (an absent one signed cannot be added on the way).
SIGNED_HEADERS = (
    "From",
    "To",
    "Subject",
    "Date",
    "Message-ID",
    "In-Reply-To",
    "References",
    "Reply-To",
    "List-Id",
    "List-Unsubscribe",
    "List-Unsubscribe-Post",
    "Auto-Submitted",
    "MIME-Version",
    "Content-Type",
)

#: rsaEncryption (1.2.840.113549.1.1.1), DER-encoded.
_RSA = bytes.fromhex("2a864886f70d010101")


class KeyProblem(ValueError):
    """The DKIM settings name a key that cannot be used; the message says why."""


@dataclass(frozen=True)
class Signer:
    selector: str
    domain: str
    key: bytes  # the private key, PEM

    def sign(self, message: str) -> str:
        """`message` with a DKIM-Signature header first (relaxed/relaxed, rsa-sha256)."""
        header: bytes = dkim.sign(
            message.encode(),
            self.selector.encode(),
            self.domain.encode(),
            self.key,
            canonicalize=(b"relaxed", b"relaxed"),
            include_headers=[name.encode() for name in SIGNED_HEADERS],
            linesep=b"\n",
        )
        return header.decode() + message

    def dns_record(self) -> tuple[str, str]:
        """The TXT record to publish: its name and its value."""
        return f"{self.selector}._domainkey.{self.domain}", public_key_record(self.key)


def signer(config: Mapping[str, Any]) -> Signer | None:
    """The signer the settings give, or None when they give none. Raises KeyProblem for a
    key file that cannot be read or is no RSA private key."""
    selector, domain, path = (
        config.get("DKIM_SELECTOR"),
        config.get("DKIM_DOMAIN"),
        config.get("DKIM_PRIVATE_KEY"),
    )
    if not (selector and domain and path):
        return None
    try:
        key = Path(path).read_bytes()
    except OSError as error:
        raise KeyProblem(f"DKIM_PRIVATE_KEY {path} cannot be read: {error.strerror}.") from None
    try:
        parse_pem_private_key(key)
    except (UnparsableKeyError, ValueError) as error:
        raise KeyProblem(f"DKIM_PRIVATE_KEY {path} is not an RSA private key: {error}.") from None
    return Signer(str(selector), str(domain), key)


def _der(tag: int, content: bytes) -> bytes:
    """One DER element (dkimpy's own encoder cannot write a length over 255)."""
    size = len(content)
    if size < 0x80:
        return bytes([tag, size]) + content
    length = size.to_bytes((size.bit_length() + 7) // 8, "big")
    return bytes([tag, 0x80 | len(length)]) + length + content


def _integer(value: int) -> bytes:
    # A leading zero byte keeps a number with its top bit set positive.
    return _der(0x02, value.to_bytes(value.bit_length() // 8 + 1, "big"))


def public_key_record(private_pem: bytes) -> str:
    """The DNS TXT value for the public half of `private_pem`: its SubjectPublicKeyInfo, as
    `openssl rsa -pubout` writes it."""
    key = parse_pem_private_key(private_pem)
    rsa = _der(0x30, _integer(key["modulus"]) + _integer(key["publicExponent"]))
    algorithm = _der(0x30, _der(0x06, _RSA) + _der(0x05, b""))
    info = _der(0x30, algorithm + _der(0x03, b"\x00" + rsa))
    return f"v=DKIM1; k=rsa; p={base64.b64encode(info).decode()}"
