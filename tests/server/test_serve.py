"""The README's run command: `pbem serve` starts on the embedded defaults and answers."""

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_pbem_serve_creates_its_database_and_plays(tmp_path):
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "TEST_DATABASE_URL")}
    env["DATABASE_URL"] = f"sqlite:///{tmp_path}/serve.sqlite"
    server = subprocess.Popen(
        [sys.executable, "-c", "from pbem.cli import main; main()", "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        # Healthy means the in-process scheduler has swept too (a 503 until then).
        for _ in range(150):
            try:
                with urllib.request.urlopen(base + "/api/health", timeout=2) as response:
                    health = json.load(response)
                break
            except OSError:  # not listening yet, or a 503
                time.sleep(0.1)
        else:
            raise AssertionError("pbem serve was not healthy within 15 s")
        assert health["status"] == "ok" and health["database"] == "ok"
        assert health["sweep"]["age_seconds"] < 15
        request = urllib.request.Request(
            base + "/api/players",
            method="POST",
            data=json.dumps({"email": "serve@example.org", "name": "Serve"}).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=5) as response:
            body = json.load(response)
        # A sign-up mails a link that proves the address; the key is shown where it leads.
        assert response.status == 202 and "serve@example.org" in body["detail"]
        assert "api_key" not in body
        assert (tmp_path / "serve.sqlite").exists()
    finally:
        server.terminate()
        server.wait(timeout=10)
