"""schemathesis against /api/openapi.json: no 5xx, and every answer matches the spec; one
request at a time, and in runs that follow the spec's links from a game made to its moves."""

import os
import zlib

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import (
    ignored_auth,
    missing_required_header,
    negative_data_rejection,
    positive_data_acceptance,
)

from pbem import create_app
from pbem.extensions import db
from pbem.store.health import beat

EXAMPLES = int(os.environ.get("SCHEMATHESIS_EXAMPLES", "25"))


@pytest.fixture
def seeded(app, api):
    """A game with a real key, so generated requests reach past 401 and 404 now and then; and
    a sweep, so the health check answers 200 (its 503 is tested in test_health)."""
    game_id, keys = api.new_game(["red", "blue", "green"])
    with app.app_context():
        beat("sweep")
        db.session.commit()
    return {"game_id": game_id, "key": keys["red"]}


# The spec is read from an app that never touches its database; the calls go to each test's
# own app (`app=` below), which has the migrated test database behind it.
schema = schemathesis.openapi.from_wsgi(
    "/api/openapi.json", create_app({"SQLALCHEMY_DATABASE_URI": "sqlite://"})
)


@schema.parametrize()
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,  # the same cases every run: a failure seen once is seen again
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_api_matches_its_spec(case, app, seeded):
    # A body that fits the schema may still break the rules (an illegal move, a colour given
    # twice, an unregistered email): that is a 422 by design, so "valid data accepted" is
    # not asked of the endpoints that take game content.
    excluded = []
    if case.path != "/api/players" and case.method in ("POST", "PUT"):
        excluded.append(positive_data_acceptance)
    # Half the cases aim at the real game with a real key; the rest stay as generated (and
    # then meet 401 and 404). With the real key put in by hand, schemathesis's own auth
    # checks would take it for a generated, invalid one, and a path made invalid on purpose
    # is no longer invalid; test_bad_input covers both.
    # crc32, not hash(): str hashes change with PYTHONHASHSEED, so a failure would not replay.
    if zlib.crc32(repr(case.body).encode("utf-8", "surrogatepass")) % 2 == 0:
        if "game_id" in (case.path_parameters or {}):
            case.path_parameters["game_id"] = seeded["game_id"]
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {seeded['key']}"}
        excluded += [ignored_auth, missing_required_header, negative_data_rejection]
    case.call_and_validate(app=app, excluded_checks=excluded)


def test_errors_any_operation_may_answer_are_declared(app):
    """401 wherever a key is asked for, 404 wherever the path names something."""
    spec = app.test_client().get("/api/openapi.json").get_json()
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            if method not in ("get", "post", "put", "delete"):
                continue  # the path's own parameters
            declared = set(operation["responses"])
            if any("bearerAuth" in s for s in operation.get("security", [])):
                assert "401" in declared, (method, path)
            if "{" in path:
                assert "404" in declared, (method, path)
    moves = spec["paths"]["/api/games/{game_id}/moves"]["post"]
    assert moves["responses"]["401"] == {"$ref": "#/components/responses/UNAUTHORIZED"}


#: Runs of the stateful test, and calls in each at most (CI's time: a few seconds).
RUNS = int(os.environ.get("SCHEMATHESIS_STATEFUL_RUNS", "8"))
STEPS = 12


def _game_body(players: dict[str, str]) -> dict:
    """A game schemathesis could not guess: the caller (red) among registered players, and
    red to begin, so red's legal moves are not empty."""
    return {
        "title": "Stateful",
        "seats": [{"email": email, "colour": colour} for colour, email in players.items()],
        "options": {"first_player": "red"},
    }


#: The operations of playing a game (the rest are the test above's): few enough that runs
#: of a dozen calls follow the links from a new game to a move played in it.
PLAYING = r"^/api/games(/\{game_id\}(/(legal-moves|moves|log))?)?$"


class GameRuns(schema.include(path_regex=PLAYING).as_state_machine()):  # type: ignore[misc]
    """Runs of calls chained by the spec's links (POST /api/games -> its view, its legal
    moves, its moves, its log, ...), as red. The body of a new game is ours (its
    rules, such as who may sit, are more than a schema says), and red asks as red (a
    generated `colour` would be another seat's: 403); the rest is generated."""

    app = None
    players: dict[str, str] = {}
    key = ""
    seen: set[tuple[str, str, int]] = set()

    def before_call(self, case):
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {self.key}"}
        if (case.method, case.path) == ("POST", "/api/games"):
            case.body = _game_body(self.players)
        if case.path == "/api/games/{game_id}/legal-moves":
            case.query = {}

    def call(self, case, **kwargs):
        return case.call(app=self.app, **kwargs)

    def after_call(self, response, case):
        self.seen.add((case.method, case.path, response.status_code))

    def validate_response(self, response, case, additional_checks=None, **kwargs):
        # As above: a body that fits the schema may break the game's rules (a 422 by
        # design), and the key is put in by hand.
        excluded = [ignored_auth, missing_required_header]
        if case.method in ("POST", "PUT"):
            excluded.append(positive_data_acceptance)
        case.validate_response(response, excluded_checks=excluded, transport_kwargs=kwargs)


def test_runs_following_the_links_reach_a_game_and_play_in_it(app, api):
    players = {colour: f"{colour}-stateful@example.org" for colour in ("red", "blue", "green")}
    keys = {colour: api.register(email) for colour, email in players.items()}
    GameRuns.app, GameRuns.players, GameRuns.key = app, players, keys["red"]
    GameRuns.seen = set()
    GameRuns.run(
        settings=settings(
            max_examples=RUNS,
            stateful_step_count=STEPS,
            deadline=None,
            derandomize=True,
            suppress_health_check=list(HealthCheck),
        )
    )
    seen = GameRuns.seen
    assert ("POST", "/api/games", 201) in seen
    assert ("GET", "/api/games/{game_id}/legal-moves", 200) in seen
    # Moves sent to a game the runs made (the links give its id): answered by the game (a
    # move played, refused as stale or illegal), not as "no such game".
    answers = {status for method, path, status in seen if path.endswith("/moves")}
    assert answers & {201, 409, 422}, sorted(seen)
