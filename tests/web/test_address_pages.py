"""The pages where an address is typed (signing in by mail, a new address on /me, a friend's
seat on /games/new, the organiser's give-a-seat) check it as the API does
(`pbem.addresses.kept_address`): one that is none gets a 422 page saying what to mend, with
what was typed still in its field, and nothing changes; never a 500. A good one is kept, and
mailed, in its one form."""

from __future__ import annotations

import pytest

from tests.server.conftest import table_snapshot
from tests.server.test_addresses import BAD
from tests.web.helpers import queued_mails, sign_in_seat
from tests.web.html import parse
from tests.web.test_new_game import form, sign_in_with_key

CASES = pytest.mark.parametrize(("typed", "said"), list(BAD.values()), ids=list(BAD))


def _refused(answer, said: str, field: str, typed: str) -> None:
    assert answer.status_code == 422, answer.status_code
    page = parse(answer.get_data(as_text=True))
    assert said in page.find("p", cls="error").text
    kept = page.find("input", name=field).get("value")
    # An HTML parser reads CRLF in an attribute as LF, as browsers do.
    assert kept.replace("\r\n", "\n") == typed.replace("\r\n", "\n")


def _csrf(client, path: str) -> str:
    page = parse(client.get(path).get_data(as_text=True))
    return page.find("input", name="csrf_token").get("value")


@CASES
def test_signing_in_by_mail(app, client, typed, said):
    before = table_snapshot(app)
    token = _csrf(client, "/sign-in")
    answer = client.post("/sign-in/mail", data={"csrf_token": token, "email": typed})
    _refused(answer, said, "email", typed)
    assert table_snapshot(app) == before


@CASES
def test_a_new_address_on_me(app, api, client, typed, said):
    key = api.register("uma@example.org", "Uma")
    token = sign_in_with_key(client, key)
    before = table_snapshot(app)
    answer = client.post("/me", data={"csrf_token": token, "action": "email", "email": typed})
    if said == "cannot receive mail":
        said = "No mail reaches"  # /me's own words for .invalid, as before
    _refused(answer, said, "email", typed)
    assert table_snapshot(app) == before


@CASES
def test_a_friends_seat_on_a_new_game(app, api, client, typed, said):
    key = api.register("cy@example.org", "Cy")
    token = sign_in_with_key(client, key)
    before = table_snapshot(app)
    answer = client.post("/games/new", data=form(token, **{"email-1": typed}))
    if said != "Give an email address":
        said = "Seat 2: "  # the seat as the form numbers it, then what is wrong
        assert said in parse(answer.get_data(as_text=True)).find("p", cls="error").text
    else:
        said = "give their email address"
    _refused(answer, said, "email-1", typed)
    assert table_snapshot(app) == before


@CASES
def test_the_organiser_gives_a_seat(app, api, client, typed, said):
    game_id, _keys = api.new_game(["red", "blue", "green"])
    sign_in_seat(app, client, game_id, "red")
    token = _csrf(client, f"/games/{game_id}/organise")
    before = table_snapshot(app)
    data = {"csrf_token": token, "action": "give", "colour": "blue", "email": typed}
    answer = client.post(f"/games/{game_id}/organise", data=data)
    if said == "Give an email address":
        said = "Give the email address of the person who takes the seat"
    assert answer.status_code == 422
    page = parse(answer.get_data(as_text=True))
    assert said in page.find("p", cls="error").text
    give = [f for f in page.find_all("form") if f.find("input", name="colour", value="blue")]
    kept = next(f for f in give if f.find("input", name="email")).find("input", name="email")
    assert kept.get("value").replace("\r\n", "\n") == typed.replace("\r\n", "\n")
    assert table_snapshot(app) == before


def test_a_good_address_typed_is_kept_and_mailed_in_its_one_form(app, client):
    token = _csrf(client, "/sign-in")
    answer = client.post(
        "/sign-in/mail", data={"csrf_token": token, "email": " Ida@Bücher.Example.org "}
    )
    assert answer.status_code == 200
    kept = "ida@xn--bcher-kva.example.org"
    assert kept in answer.get_data(as_text=True)
    mails = queued_mails(app, "sign_in")
    assert [recipient for recipient, _ in mails] == [kept]
    assert f"To: ida <{kept}>" in mails[0][1]
