"""The wheel `pip install .` builds (the Dockerfile's install) carries what the server reads
from files: templates, migrations, the stylesheet."""

import os
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_wheel_carries_every_template_migration_and_static_file(tmp_path):
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--quiet",
            "--no-deps",
            "--wheel-dir",
            str(tmp_path),
            str(ROOT),
        ],
        check=True,
        capture_output=True,
    )
    (wheel,) = tmp_path.glob("*.whl")
    shipped = set(zipfile.ZipFile(wheel).namelist())
    expected = {
        "pbem/templates/" + str(path.relative_to(ROOT / "templates"))
        for path in (ROOT / "templates").rglob("*")
        if path.is_file()
    }
    expected |= {
        str(path.relative_to(ROOT))
        for folder in ("pbem/migrations/versions", "pbem/web/static")
        for path in (ROOT / folder).glob("*")
        if path.is_file() and path.suffix != ".pyc"
    }
    assert len(expected) > 40
    assert expected - shipped == set()


def test_the_app_writes_nothing_where_it_is_installed(monkeypatch, tmp_path):
    """Catalogs are compiled when the package is built or installed; starting the app (and
    drawing a page in German) opens no file for writing inside the package, which may be
    read-only (site-packages, a container's image)."""
    import builtins
    import io

    import pbem
    from pbem import create_app

    package = Path(pbem.__file__).resolve().parent
    # A catalog changed since it was compiled (a checkout being worked on): still not
    # compiled by the app.
    po = package / "translations" / "de" / "LC_MESSAGES" / "messages.po"
    os.utime(po)
    written: list[str] = []
    real_open = builtins.open

    def watching_open(file, mode="r", *args, **kwargs):
        if any(flag in mode for flag in "wax+") and Path(str(file)).resolve().is_relative_to(
            package
        ):
            written.append(str(file))
        return real_open(file, mode, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", watching_open)
    monkeypatch.setattr(io, "open", watching_open)
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://"})
    page = app.test_client().get("/rules", headers={"Accept-Language": "de"})
    assert page.status_code == 200 and "Spiel" in page.get_data(as_text=True)
    assert written == []
