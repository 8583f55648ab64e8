"""Types generated from `/api/openapi.json` by openapi-typescript check a request body as
docs/api.md writes it (`{expected_seq, moves}`), and refuse a move with another move's field."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

#: It reads only the spec, which is the same on every database: once, in the SQLite pass.
pytestmark = pytest.mark.database_free

BODIES = """
import type { components } from "./api";
type MovesIn = components["schemas"]["MovesIn"];
export const asReadmeWritesIt: MovesIn = {
  expected_seq: 12,
  moves: [{ type: "take_caballeros", count: 3 }, { type: "choose_card", card: "king" },
          { type: "place", to: "aragon" }],
};
"""
WRONG = """
import type { components } from "./api";
export const wrong: components["schemas"]["MovesIn"] = {
  expected_seq: 0, moves: [{ type: "play_power_card", count: 9 }],
};
"""


def run(command: list[str], cwd) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=300)


@pytest.mark.skipif(
    shutil.which("npm") is None, reason="needs node and npm (.ci/run installs them)"
)
def test_typescript_types_from_the_spec_check_a_move_body(app, tmp_path) -> None:
    (tmp_path / "openapi.json").write_text(
        json.dumps(app.test_client().get("/api/openapi.json").get_json())
    )
    installed = run(
        [
            "npm",
            "install",
            "--silent",
            "--no-audit",
            "--no-fund",
            "openapi-typescript@7",
            "typescript@5",
        ],
        tmp_path,
    )
    assert installed.returncode == 0, installed.stderr
    bin_dir = tmp_path / "node_modules" / ".bin"
    made = run([str(bin_dir / "openapi-typescript"), "openapi.json", "-o", "api.d.ts"], tmp_path)
    assert made.returncode == 0, made.stderr
    (tmp_path / "body.ts").write_text(BODIES)
    (tmp_path / "wrong.ts").write_text(WRONG)
    # One run of the compiler for both (it takes seconds to start): the error is the wrong
    # body's alone.
    checked = run([str(bin_dir / "tsc"), "--noEmit", "--strict", "body.ts", "wrong.ts"], tmp_path)
    assert checked.returncode != 0 and "'count' does not exist" in checked.stdout, checked.stdout
    flagged = {line.split("(", 1)[0] for line in checked.stdout.splitlines() if "error TS" in line}
    assert flagged == {"wrong.ts"}, checked.stdout
