"""Swagger UI's files for `/api/docs`, served by the app from the `swagger-ui-bundle` package
(Apache-2.0, a pinned Swagger UI), so the docs page works with no internet."""

from __future__ import annotations

from flask import Blueprint
from swagger_ui_bundle import swagger_ui_path

#: Where flask-smorest's docs page loads `swagger-ui-bundle.js` and `swagger-ui.css` from.
ASSETS_URL = "/api/docs/assets/"

blp = Blueprint(
    "swagger_ui_assets",
    __name__,
    static_folder=swagger_ui_path,
    static_url_path=ASSETS_URL.rstrip("/"),
)
