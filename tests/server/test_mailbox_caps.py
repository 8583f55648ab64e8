"""A mailbox is one person for every cap and for the never-invite list: its sub-addresses
(`x+0@d`, `x+1@d`, ...) reach one inbox, so they share its invitations a day and its
sign-in links an hour, and one of them asking never to be invited speaks for them all.
Accounts stay one an address."""

from __future__ import annotations

import pytest

from pbem.addresses import kept_address, mailbox


@pytest.mark.parametrize(
    ("address", "box"),
    [
        ("x+games@example.org", "x@example.org"),
        ("x@example.org", "x@example.org"),
        ("x+a+b@example.org", "x@example.org"),
        ("x+@example.org", "x@example.org"),
        ("+x@example.org", "+x@example.org"),
        ("+@example.org", "+@example.org"),
        ("first.last+1@example.org", "first.last@example.org"),
        ("x+y@sub.example.org", "x@sub.example.org"),
    ],
)
def test_a_mailbox_is_the_address_with_its_sub_address_folded(address, box):
    assert mailbox(address) == box
    assert mailbox(box) == box


def test_a_mailbox_of_what_a_person_typed_is_in_lowercase_already():
    assert mailbox(kept_address("  Ana+Games@Example.ORG ")) == "ana@example.org"
