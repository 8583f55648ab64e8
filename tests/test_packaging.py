"""The wheel `pip install .` builds (the Dockerfile's install) carries what the server reads
from files: templates, migrations, the stylesheet."""

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
