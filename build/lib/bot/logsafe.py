"""Logging that survives any text: a player's lone surrogate never breaks a log line.

Discord hands the bot whatever a client typed, and a string holding half of a UTF-16 pair (a lone
surrogate such as ``"\\ud800"``) cannot be encoded as UTF-8: a handler writing it to a UTF-8 stream
fails with ``UnicodeEncodeError`` and the line is lost.  ``install()`` replaces the process's log
record factory so every record, from any logger, carries text that encodes: message, traceback and
stack.  Unencodable characters are written as backslash escapes (``\\ud800``), so nothing is hidden.

``install()`` is idempotent; call it once at start-up, before the first log line (``bot.__main__``
does, and the error handler installs it too, so the bot is covered either way).
"""

from __future__ import annotations

import logging
from typing import Any

_MARK = "_pyramid_logsafe"


def safe_text(text: str) -> str:
    """``text`` with every character UTF-8 cannot encode (lone surrogates) as a backslash escape."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text


def _encodes(text: str | None) -> bool:
    if text is None:
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def make_safe(record: logging.LogRecord) -> logging.LogRecord:
    """Make ``record`` safe to write to any UTF-8 stream (in place); returns it."""
    try:
        message = record.getMessage()
    except Exception:  # a broken format string: let logging report it as it always does
        return record
    if not _encodes(message):
        record.msg, record.args = safe_text(message), ()
    if record.exc_info and not record.exc_text:
        text = logging.Formatter().formatException(record.exc_info)
        if not _encodes(text):
            record.exc_text = safe_text(text)
    if not _encodes(record.stack_info):
        record.stack_info = safe_text(record.stack_info or "")
    return record


class SafeFormatter(logging.Formatter):
    """A formatter whose output always encodes as UTF-8 (for handlers set up elsewhere)."""

    def format(self, record: logging.LogRecord) -> str:
        return safe_text(super().format(make_safe(record)))


class SafeFilter(logging.Filter):
    """A filter that makes each record safe to write; add it to a handler (it never drops a record)."""

    def filter(self, record: logging.LogRecord) -> bool:
        make_safe(record)
        return True


def install() -> None:
    """Make every log record of this process safe to write, whatever logger or handler it goes to."""
    previous = logging.getLogRecordFactory()
    if getattr(previous, _MARK, False):
        return

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        return make_safe(previous(*args, **kwargs))

    setattr(factory, _MARK, True)
    logging.setLogRecordFactory(factory)
