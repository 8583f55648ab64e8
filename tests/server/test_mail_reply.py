"""`pbem mail reply`: answering one of the `.eml` files as a mail client would, through the
mail door, and saying where the server's answer was written."""

from __future__ import annotations

import re
import threading
from email import policy
from email.parser import BytesParser
from pathlib import Path

import pytest

from pbem import cli, create_app
from pbem.demo import start_demo
from pbem.notify import sender
from tests.server.conftest import empty_tables


@pytest.fixture
def file_mail_app(database_url, tmp_path, monkeypatch):
    """Mail written to files (no SMTP_URL) in an instance folder of its own."""
    monkeypatch.setenv("PBEM_INSTANCE_PATH", str(tmp_path / "instance"))
    app = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": database_url,
            "SECRET_KEY": "reply-" + "s" * 40,
            "SMTP_URL": None,
            "PBEM_BASE_URL": "http://127.0.0.1:5000",
        }
    )
    yield app
    empty_tables(app)


def headers(path: Path):
    return BytesParser(policy=policy.default).parsebytes(path.read_bytes(), headersonly=True)


def test_the_answer_another_process_sends_is_still_named(file_mail_app, monkeypatch, capsys):
    """A `pbem serve` or `pbem demo` on the same instance may claim the answer in its own
    pass, after this command's pass found nothing to send: the command waits for the file
    answering its reply and names it."""
    app = file_mail_app
    demo = start_demo(app, "http://127.0.0.1:5000")
    decision = demo.mails[-1]
    real_deliver = sender.deliver_due
    monkeypatch.setattr(sender, "deliver_due", lambda *a, **k: None)  # this command's pass

    returned = threading.Event()

    def the_other_process() -> None:
        # Its sender's passes, as `pbem serve` runs them, until the command has returned: on
        # a loaded machine the answer may be queued after the first of them.
        while not returned.wait(0.5):
            with app.app_context():
                real_deliver()

    other = threading.Thread(target=the_other_process)
    other.start()
    try:
        code = cli.reply_by_file(app, str(decision), "moves")
    finally:
        returned.set()
        other.join()
    out = capsys.readouterr().out
    assert code == 0 and "Mail: answered: moves." in out, out
    named = [Path(p) for p in re.findall(r"new mail: (\S+\.eml)", out)]
    answers = [p for p in named if "Reply above this line to play" in p.read_text()]
    assert len(answers) == 1, out
    answer = headers(answers[0])
    # In the thread of the reply the command wrote, itself in reply to the decision mail.
    assert str(answer["In-Reply-To"]) != str(headers(decision)["Message-ID"])
    assert str(headers(decision)["Message-ID"]) in str(answer["References"])
    assert answer["To"].addresses[0].addr_spec == "you@example.org"


def test_latest_eml_is_a_copy_of_the_newest_mail_and_answers_as_it(file_mail_app, capsys):
    app = file_mail_app
    demo = start_demo(app, "http://127.0.0.1:5000")
    latest = sender.latest_mail(app)
    assert latest.read_bytes() == demo.mails[-1].read_bytes()
    assert latest not in sender.mail_files(app)  # not a mail of its own
    code = cli.reply_by_file(app, str(latest), "moves")
    out = capsys.readouterr().out
    assert code == 0 and "Mail: answered: moves." in out, out
    named = [Path(p) for p in re.findall(r"new mail: (\S+\.eml)", out)]
    assert latest not in named and named, out
    # The answer is in the thread of the newest mail, and is now the newest mail itself.
    answer = headers(named[-1])
    assert str(headers(demo.mails[-1])["Message-ID"]) in str(answer["References"])
    assert latest.read_bytes() == named[-1].read_bytes()
