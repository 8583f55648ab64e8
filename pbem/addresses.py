"""Email addresses as people type them: `kept_address`, the one check every door where an
address enters goes through (the API's schemas, the pages, and the functions that keep one),
so that what is kept, looked up and mailed is one address mail can reach, in ASCII.

email-validator (RFC 5321/5322, IDNA) decides; the checks before it only choose a sentence a
person can act on, since its own messages are English only. The house bots' addresses
(`bot-N@bots.invalid`) are refused here like any `.invalid` one: they are named by the
server, never typed, and `pbem.game.players` makes them without asking this module.
"""

from __future__ import annotations

import unicodedata

from email_validator import EmailNotValidError, validate_email

from pbem.errors import Invalid
from pbem.languages import N_

#: RFC 5321's limit for a whole address (a path of 256 less its angle brackets); the
#: database's columns are this long.
MAX_LENGTH = 254

#: Signs that make one text several addresses, or an address with a name around it.
_LIST_SIGNS = frozenset(',;<>"()[]\\')


def kept_address(typed: str) -> str:
    """The address to keep and mail for what a person typed: stripped, lowercased (lookups
    rely on it), an internationalised domain in its ASCII (IDNA) form. Raises Invalid with
    what to mend. Idempotent: a kept address comes back as it is."""
    text = typed.strip().lower()
    _refuse_the_plainly_wrong(text)
    local, _at, domain = text.partition("@")
    if not local.isascii():
        raise _not_ascii()
    if domain == "invalid" or domain.endswith(".invalid"):
        raise Invalid(
            N_(
                "%(email)s cannot receive mail: .invalid is a reserved name (the house bots' "
                "addresses use it). Give an address a person reads."
            ),
            code="address-reserved",
            email=text,
        )
    try:
        checked = validate_email(text, check_deliverability=False)
    except EmailNotValidError:
        raise Invalid(
            N_(
                "%(email)s is not an address mail can reach; check it for a typo (after the @ "
                "comes a domain such as example.org)."
            ),
            code="address-unreachable",
            email=text,
        ) from None
    if checked.ascii_email is None:  # not seen: the local part is ASCII, and so the domain
        raise _not_ascii()
    return checked.ascii_email


def _not_ascii() -> Invalid:
    # Such an address needs SMTPUTF8 at every relay on its way, which no one here promises.
    return Invalid(
        N_(
            "Addresses with letters outside ASCII before the @ are not supported here: give "
            "one whose part before the @ has only a-z, digits and signs such as . - _ +."
        ),
        code="address-not-ascii",
    )


def _refuse_the_plainly_wrong(text: str) -> None:
    """What is wrong with `text` in words a person knows, before email-validator looks."""
    if not text:
        raise Invalid(
            N_("Give an email address, such as someone@example.org."), code="address-missing"
        )
    if len(text) > MAX_LENGTH:
        raise Invalid(
            N_("An email address has at most %(most)s characters; this one has %(count)s."),
            code="address-too-long",
            most=MAX_LENGTH,
            count=len(text),
        )
    if any(c.isspace() or unicodedata.category(c) in ("Cc", "Cf") for c in text):
        # Cf: zero-width spaces and joiners, which a copied address sometimes brings along.
        raise Invalid(
            N_(
                "An email address has no spaces, line breaks or invisible characters (copying "
                "one sometimes brings them along): type it again."
            ),
            code="address-has-spaces",
        )
    if text.count("@") != 1 or any(c in _LIST_SIGNS for c in text):
        raise Invalid(
            N_(
                "Give one email address on its own, such as someone@example.org: one @, and no "
                "name, commas, quotes or angle brackets around it."
            ),
            code="address-not-single",
        )


def mailbox(address: str) -> str:
    """The mailbox a kept address delivers to: its local part cut at the first `+` (a
    subaddress, `x+tag@d` → `x@d`), unless the local part starts with one; otherwise the
    address unchanged."""
    local, at, domain = address.partition("@")
    if at and "+" in local and not local.startswith("+"):
        return f"{local.split('+', 1)[0]}@{domain}"
    return address
