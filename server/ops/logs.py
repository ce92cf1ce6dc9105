"""Logging: JSON lines when stderr is not a terminal, readable lines when it is.

Log calls pass context as ``extra`` (``room``, ``seat``, ``re``, ``conn``, ``version``,
``kind``); both formats carry it. Nothing logged may hold a seat token or a hidden card:
decisions are logged by kind and version only, never by their contents.
"""
from __future__ import annotations

import json
import logging
import sys
import time
from typing import Any

__all__ = ["CONTEXT", "JsonFormatter", "TextFormatter", "configure"]

CONTEXT = ("room", "seat", "re", "conn", "version", "kind", "by")
"""The ``extra`` fields a log record may carry."""


def _context(record: logging.LogRecord) -> dict[str, Any]:
    return {key: getattr(record, key) for key in CONTEXT if getattr(record, key, None) is not None}


class JsonFormatter(logging.Formatter):
    """One JSON object a line: ts, level, logger, msg, the context fields, and ``exc`` for a traceback."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "ts": round(record.created, 6),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
            **_context(record),
        }
        if record.exc_info:
            line["exc"] = self.formatException(record.exc_info)
        return json.dumps(line, default=str)


class TextFormatter(logging.Formatter):
    """``time level logger message key=value ...`` for people at a terminal."""

    def format(self, record: logging.LogRecord) -> str:
        stamp = time.strftime("%H:%M:%S", time.localtime(record.created))
        fields = " ".join(f"{k}={v}" for k, v in _context(record).items())
        text = f"{stamp} {record.levelname.lower():7} {record.name} {record.getMessage()}"
        text = f"{text} {fields}" if fields else text
        if record.exc_info:
            text += "\n" + self.formatException(record.exc_info)
        return text


def configure(level: str = "INFO") -> None:
    """Send the process's logs to stderr, as JSON lines unless stderr is a terminal."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(TextFormatter() if sys.stderr.isatty() else JsonFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
