"""An answer stays in its game's thread however long the thread grows."""

from __future__ import annotations

from email.message import EmailMessage

from pbem.notify import answers


def test_an_answer_keeps_the_threads_root_and_its_last_ids():
    references = [f"<{number}@elgrande.example>" for number in range(12)]
    mail = EmailMessage()
    answers.thread(mail, "<12@elgrande.example>", references)
    ids = mail["References"].split()
    assert ids[0] == "<0@elgrande.example>"  # the root, which threads the rest
    assert ids[1:-1] == references[-7:]
    assert ids[-1] == "<12@elgrande.example>" == mail["In-Reply-To"]


def test_a_short_thread_is_kept_whole():
    references = ["<0@elgrande.example>", "<1@elgrande.example>"]
    mail = EmailMessage()
    answers.thread(mail, "<2@elgrande.example>", references)
    assert mail["References"].split() == [*references, "<2@elgrande.example>"]
