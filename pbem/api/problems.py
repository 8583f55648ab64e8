"""Errors as RFC 9457 `application/problem+json`, each with a sentence a person can act on.

The one place where domain errors (`pbem.errors`) become HTTP: services raise them knowing
nothing of responses; HTTP errors raised by Flask, webargs or `abort` go through the same
formatting, so every error a client sees has one shape.
"""

from __future__ import annotations

import http
from typing import Any

import marshmallow as ma
from apispec import BasePlugin
from flask import Flask, Response, current_app, jsonify
from flask_smorest import Api
from flask_smorest.utils import prepare_response
from werkzeug.exceptions import HTTPException

from pbem.api.fields import Refusal
from pbem.bodies import too_large
from pbem.errors import ServiceError, TooMany
from pbem.languages import _
from pbem.store import outage

PROBLEM_CONTENT_TYPE = "application/problem+json"


class ProblemSchema(ma.Schema):
    """The problem document (RFC 9457), plus `errors` for field-level validation messages."""

    type = ma.fields.String(metadata={"description": "A URI reference naming the problem kind"})
    title = ma.fields.String(metadata={"description": "Short summary of the problem kind"})
    status = ma.fields.Integer(metadata={"description": "The HTTP status code"})
    detail = ma.fields.String(metadata={"description": "What went wrong and how to fix it"})
    code = ma.fields.String(
        metadata={
            "description": "The refusal's stable name (`game-not-active`), the same in every "
            "language; absent where no service refused (a field refused by the service's "
            "own rule, such as a name's or a title's, names it: `name-control-characters`)"
        }
    )
    errors = ma.fields.Raw(metadata={"description": "Field-level validation messages"})
    seq = ma.fields.Integer(metadata={"description": "The game's current sequence number"})


def problem(status: int, detail: str, kind: str | None = None, **extra: Any) -> Response:
    """Build a problem+json response."""
    phrase = http.HTTPStatus(status).phrase
    body = {
        "type": f"/problems/{kind}" if kind else "about:blank",
        "title": phrase,
        "status": status,
        "detail": detail,
    }
    body.update(extra)
    response = jsonify(body)
    response.status_code = status
    response.mimetype = PROBLEM_CONTENT_TYPE
    return response


def _flatten(messages: Any, prefix: str = "") -> list[str]:
    """Marshmallow's nested message dicts as readable `field: message` lines."""
    if isinstance(messages, dict):
        lines = []
        for key, value in messages.items():
            name = f"{prefix}.{key}" if prefix else str(key)
            lines.extend(_flatten(value, name))
        return lines
    if isinstance(messages, list | tuple):
        lines = []
        for item in messages:
            lines.extend(_flatten(item, prefix))
        return lines
    return [f"{prefix}: {messages}" if prefix else str(messages)]


def _leaves(messages: Any) -> list[Any]:
    """Marshmallow's messages, nested dicts and lists undone, in order."""
    if isinstance(messages, dict):
        return [leaf for value in messages.values() for leaf in _leaves(value)]
    if isinstance(messages, list | tuple):
        return [leaf for item in messages for leaf in _leaves(item)]
    return [messages]


class ProblemApi(Api):
    """flask-smorest's Api, with errors rendered and documented as problem+json."""

    ERROR_SCHEMA = ProblemSchema

    def handle_http_exception(self, error: HTTPException) -> Response:
        data = getattr(error, "data", None) or {}
        messages = data.get("messages") or data.get("errors")
        code = error.code or 500
        if messages:
            # webargs puts messages under the location ("json", "headers", ...), which is
            # noise for a person; the field names carry the meaning.
            if isinstance(messages, dict) and len(messages) == 1:
                (only,) = messages.values()
                messages = only
            lines = _flatten(messages)
            detail = _("The request was not accepted: %(lines)s", lines="; ".join(lines))
            if not detail.endswith("."):
                detail += "."
            # A field the service's own rule refused (a name's, a title's) names that
            # refusal, as the service's errors do; the first, if several.
            refused = [m.code for m in _leaves(messages) if isinstance(m, Refusal)]
            named = {"code": refused[0]} if refused else {}
            response = problem(code, detail, kind="invalid-request", errors=messages, **named)
        elif code == 413:
            response = problem(
                413, too_large(current_app.config.get("MAX_CONTENT_LENGTH")), kind="too-large"
            )
        else:
            detail = error.description or http.HTTPStatus(code).phrase
            response = problem(code, detail)
        for name, value in (data.get("headers") or {}).items():
            response.headers[name] = value
        if hasattr(error, "get_headers"):
            for name, value in error.get_headers():
                if name.lower() != "content-type":
                    response.headers[name] = value
        return response

    def _register_responses(self) -> None:
        """Document every error response with the problem schema and its content type."""
        for status in http.HTTPStatus:
            response: dict[str, Any] = {"description": status.phrase}
            if not (100 <= status < 200) and status not in (204, 304):
                response["schema"] = self.ERROR_SCHEMA
            prepare_response(response, self.spec, PROBLEM_CONTENT_TYPE)
            self.spec.components.response(status.name, response, lazy=True)
        response = {"description": "Default error response", "schema": self.ERROR_SCHEMA}
        prepare_response(response, self.spec, PROBLEM_CONTENT_TYPE)
        self.spec.components.response("DEFAULT_ERROR", response, lazy=True)


class DeclaredErrors(BasePlugin):
    """Declares in the spec the errors every operation may answer besides its own: 401 where
    a key is asked for (a key nobody holds), 404 where the path names a game, a seat, a seq
    or an absence (none such); where a body is sent, 400 (not JSON the server can read),
    413 (too large) and 415 (not JSON at all); and everywhere 503 (the database is away for
    a moment: try again after `Retry-After`)."""

    def operation_helper(
        self, path: str | None = None, operations: dict[str, Any] | None = None, **kwargs: Any
    ) -> None:
        for operation in (operations or {}).values():
            responses = operation.setdefault("responses", {})
            if any("bearerAuth" in needed for needed in operation.get("security", [])):
                responses.setdefault("401", "UNAUTHORIZED")
            if path and "{" in path:
                responses.setdefault("404", "NOT_FOUND")
            if "requestBody" in operation:
                responses.setdefault("400", "BAD_REQUEST")
                responses.setdefault("413", "REQUEST_ENTITY_TOO_LARGE")
                responses.setdefault("415", "UNSUPPORTED_MEDIA_TYPE")
            responses.setdefault("503", "SERVICE_UNAVAILABLE")


def register_error_handlers(app: Flask) -> None:
    """Service errors and unexpected exceptions as problem+json."""

    @app.errorhandler(ServiceError)
    def _service_error(error: ServiceError) -> Response:
        # Read here, in the request's language, whatever language was active when raised.
        detail = error.detail
        response = problem(error.status, detail, kind=error.kind, code=error.code, **error.extra)
        if error.status == 401:
            response.headers["WWW-Authenticate"] = 'Bearer realm="pbem"'
        if isinstance(error, TooMany):
            response.headers["Retry-After"] = str(error.retry_after)
        return response

    @app.errorhandler(Exception)
    def _unexpected(error: Exception) -> Response:
        if outage.is_outage(error):
            app.logger.warning("database unavailable: %s", str(error).splitlines()[0])
            response = problem(503, outage.UNAVAILABLE, kind="database-unavailable")
            response.headers["Retry-After"] = str(outage.RETRY_AFTER_SECONDS)
            return response
        # A bug: logged with its traceback, answered in the same shape as every other error.
        app.logger.exception("unexpected error")
        return problem(
            500,
            _("The server failed on this request; nothing was changed. Please report it."),
            kind="internal",
        )
