"""Mail in: replies to the server's mails play moves and run commands.

`process_inbound(raw_bytes)` is the one service; `pbem mail receive` (a pipe from the MTA),
`pbem mail smtpd` (an SMTP/LMTP listener) and `pbem mail imap` (a mailbox poller) feed it.
"""

from pbem.mailin.door import EX_NOUSER, Result, accepts, process_inbound

__all__ = ["EX_NOUSER", "Result", "accepts", "process_inbound"]
