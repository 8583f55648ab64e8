"""The spec says what the server does: where schemathesis found them apart, each now agrees,
by the schema saying the server's rule or by the server keeping the schema's."""

from __future__ import annotations

import re

import jsonschema
import pytest

from pbem import texts
from tests.server.conftest import assert_problem, table_snapshot

#: What it tries comes out the same on every database (words, mails and pages as read and
#: written): once, in the SQLite pass; the PostgreSQL pass runs what a database decides.
pytestmark = pytest.mark.database_free


@pytest.fixture
def spec(client):
    return client.get("/api/openapi.json").get_json()


def _resolved(spec: dict, node):
    """A schema with its `$ref`s (and those inside it) resolved against the spec."""
    if isinstance(node, dict):
        if "$ref" in node:
            name = node["$ref"].rsplit("/", 1)[-1]
            return _resolved(spec, spec["components"]["schemas"][name])
        return {key: _resolved(spec, value) for key, value in node.items()}
    if isinstance(node, list):
        return [_resolved(spec, item) for item in node]
    return node


def _request_integers(spec: dict):
    """Every integer a request body may carry, by where it is."""
    found = []

    def walk(node, where, seen):
        if isinstance(node, dict):
            if "$ref" in node:
                name = node["$ref"].rsplit("/", 1)[-1]
                if name not in seen:
                    walk(spec["components"]["schemas"][name], f"{where}>{name}", seen | {name})
                return
            if node.get("type") == "integer":
                found.append((where, node))
            for key, value in node.items():
                walk(value, f"{where}.{key}", seen)
        elif isinstance(node, list):
            for item in node:
                walk(item, where, seen)

    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            body = operation.get("requestBody") if isinstance(operation, dict) else None
            if body:
                walk(body, f"{method.upper()} {path}", frozenset())
    return found


def test_every_integer_a_request_carries_is_bounded_as_the_server_reads_it(spec):
    integers = _request_integers(spec)
    assert any("PlayPowerCardMove" in where for where, _ in integers)
    for where, schema in integers:
        if "enum" in schema:
            continue
        # A number of over 30 digits is refused (400) whatever the field: the spec says less.
        assert "maximum" in schema and schema["maximum"] < 10**30, where
        assert "minimum" in schema and schema["minimum"] > -(10**30), where


def test_a_muted_game_past_any_id_is_refused(app, api):
    key = api.register("muted@example.org")
    before = table_snapshot(app)
    response = api.client.put(
        "/api/players/me/preferences", json={"muted_games": [2**31]}, headers=api.auth(key)
    )
    assert "muted_games" in assert_problem(response, 422)["detail"]
    assert table_snapshot(app) == before


def test_a_seat_has_an_email_or_a_bot_in_the_schema(spec):
    seat = _resolved(spec, spec["components"]["schemas"]["SeatIn"])
    email = {"email": "a@example.org", "colour": "red"}
    bot = {"bot": True, "colour": "red"}
    for body in (email, bot, {**email, "bot": False}):
        jsonschema.validate(body, seat)
    for body in ({"colour": "red"}, {**email, "bot": True}, {"bot": False, "colour": "red"}):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(body, seat)


def test_a_seat_with_neither_is_refused_by_the_server_too(app, api):
    key = api.register("lonely@example.org")
    body = {"title": "T", "seats": [{"email": "lonely@example.org", "colour": "red"}]}
    body["seats"].append({"colour": "blue"})
    before = table_snapshot(app)
    response = api.client.post("/api/games", json=body, headers=api.auth(key))
    assert '"bot": true' in assert_problem(response, 422)["detail"]
    assert table_snapshot(app) == before


def test_a_move_has_no_field_the_engine_does_not_know(spec):
    move = _resolved(spec, spec["components"]["schemas"]["PlayPowerCardMove"])
    jsonschema.validate({"type": "play_power_card", "card": 3}, move)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"type": "play_power_card", "card": 3, "note": 10**40}, move)


def test_errors_of_bodies_and_of_the_database_are_declared(spec):
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            if method not in ("get", "post", "put", "delete"):
                continue
            declared = set(operation["responses"])
            assert "503" in declared, (method, path)
            if "requestBody" in operation:
                assert {"400", "413", "415"} <= declared, (method, path)


def test_a_put_of_preferences_needs_a_body(app, api):
    key = api.register("silent@example.org")
    before = table_snapshot(app)
    response = api.client.put("/api/players/me/preferences", headers=api.auth(key))
    assert "needs a JSON body" in assert_problem(response, 400)["detail"]
    response = api.client.put(
        "/api/players/me/preferences",
        data='{"digest_hours": 4}',
        content_type="text/plain",
        headers=api.auth(key),
    )
    assert "Content-Type: application/json" in assert_problem(response, 415)["detail"]
    assert table_snapshot(app) == before


@pytest.mark.parametrize("value", [0, 1, "true", "on"])
def test_a_flag_is_true_or_false_not_a_number_or_a_word(app, api, value):
    key = api.register("flags@example.org")
    before = table_snapshot(app)
    response = api.client.put(
        "/api/players/me/preferences",
        json={"mail": {"game_over": value}},
        headers=api.auth(key),
    )
    assert "game_over" in assert_problem(response, 422)["detail"]
    assert table_snapshot(app) == before


def test_links_lead_from_a_new_game_to_its_moves(spec):
    created = spec["paths"]["/api/games"]["post"]["responses"]["201"]["links"]
    targets = {link["operationRef"] for link in created.values()}
    assert "#/paths/~1api~1games~1{game_id}~1moves/post" in targets
    assert all(link["parameters"]["game_id"] == "$response.body#/id" for link in created.values())


def test_every_name_and_title_in_a_request_carries_the_texts_rule_as_its_pattern(spec):
    """What a client may check before it sends: the characters `pbem.texts.kept_text`
    refuses, and something to read (the server refuses the rare rest, such as combining
    marks alone, with the same 422)."""
    schemas = spec["components"]["schemas"]
    for schema, field in [("PlayerCreate", "name"), ("GameCreate", "title"), ("SeatIn", "name")]:
        assert schemas[schema]["properties"][field]["pattern"] == texts.PATTERN, (schema, field)
    pattern = re.compile(texts.PATTERN)
    assert pattern.match("Ana María") and pattern.match("سارة")
    assert not any(pattern.match(t) for t in ["a\x00b", "a\r\nb", "a\u202eb", "\u200b\u2060"])


def test_an_address_under_a_special_use_domain_is_refused_as_the_spec_says(spec, client):
    """schemathesis found `x@y.lgpw3b99.test` valid by the spec (format email) and refused by
    the server (email-validator refuses .test, .invalid, .onion ...): the spec's pattern
    says it now, in any case."""
    email = spec["components"]["schemas"]["PlayerCreate"]["properties"]["email"]
    pattern = re.compile(email["pattern"])
    for address in ["ann@mail.example.TEST", "ann@b.onion", "ann@host.local", "ann@invalid"]:
        assert not pattern.match(address), address
        body = {"email": address, "name": "Ann"}
        assert_problem(client.post("/api/players", json=body), 422)
    assert pattern.match("ann@example.org") and pattern.match("ann@testing.org")
