"""A small IMAP4rev1 server for the tests: one mailbox, LOGIN, SELECT, UID SEARCH UNSEEN,
UID FETCH BODY.PEEK[], UID STORE +FLAGS (enough for imapclient's poller)."""

from __future__ import annotations

import re
import socketserver
import threading


class Mailbox:
    def __init__(self) -> None:
        self.messages: list[tuple[int, bytes, set[str]]] = []  # uid, raw, flags
        self.lock = threading.Lock()

    def add(self, raw: bytes) -> int:
        with self.lock:
            uid = len(self.messages) + 1
            self.messages.append((uid, raw, set()))
            return uid

    def seen(self) -> list[int]:
        return [uid for uid, _, flags in self.messages if "\\Seen" in flags]


class _Handler(socketserver.StreamRequestHandler):
    def send(self, line: str | bytes) -> None:
        self.wfile.write((line.encode() if isinstance(line, str) else line) + b"\r\n")

    def handle(self) -> None:
        box: Mailbox = self.server.mailbox  # type: ignore[attr-defined]
        if self.server.drop_next > 0:  # type: ignore[attr-defined]
            # As a restarting server does: the connection closes before any greeting.
            self.server.drop_next -= 1  # type: ignore[attr-defined]
            return
        self.send("* OK [CAPABILITY IMAP4rev1] fake ready")
        while True:
            line = self.rfile.readline()
            if not line:
                return
            tag, _, rest = line.decode().rstrip("\r\n").partition(" ")
            command, _, arguments = rest.partition(" ")
            command = command.upper()
            if command == "UID":
                command, _, arguments = arguments.partition(" ")
                command = "UID " + command.upper()
            if command == "CAPABILITY":
                self.send("* CAPABILITY IMAP4rev1")
            elif command == "LOGIN":
                if [a.strip('"') for a in arguments.split()] != self.server.login:  # type: ignore[attr-defined]
                    self.send(f"{tag} NO login failed")
                    continue
            elif command == "SELECT":
                self.send(f"* {len(box.messages)} EXISTS")
                self.send("* 0 RECENT")
                self.send("* FLAGS (\\Seen)")
                self.send(f"{tag} OK [READ-WRITE] SELECT done")
                continue
            elif command == "UID SEARCH":
                unseen = [str(u) for u, _, f in box.messages if "\\Seen" not in f]
                self.send("* SEARCH " + " ".join(unseen))
            elif command == "UID FETCH":
                uid = int(arguments.split()[0])
                number, (_, raw, _) = next(
                    (i + 1, m) for i, m in enumerate(box.messages) if m[0] == uid
                )
                self.wfile.write(
                    f"* {number} FETCH (UID {uid} BODY[] {{{len(raw)}}}\r\n".encode()
                    + raw
                    + b")\r\n"
                )
            elif command == "UID STORE":
                uid = int(arguments.split()[0])
                flags = re.findall(r"\\\w+", arguments)
                for index, (u, _, kept) in enumerate(box.messages):
                    if u == uid:
                        kept.update(flags)
                        self.send(f"* {index + 1} FETCH (UID {uid} FLAGS ({' '.join(kept)}))")
            elif command == "LOGOUT":
                self.send("* BYE")
                self.send(f"{tag} OK LOGOUT done")
                return
            elif command != "NOOP":
                self.send(f"{tag} BAD unknown command")
                continue
            self.send(f"{tag} OK {command} done")


class FakeImap(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, user: str, password: str) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.mailbox = Mailbox()
        self.login = [user, password]
        self.drop_next = 0  # connections to close at once, as a server restarting does
        self.thread = threading.Thread(target=self.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        user, password = self.login
        return f"imap://{user}:{password}@127.0.0.1:{self.server_address[1]}/INBOX"

    def __enter__(self) -> FakeImap:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.shutdown()
        self.server_close()
