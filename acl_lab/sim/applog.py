"""aclAppLog: an application's own log lines, filtered and shaped as CANN shapes them.

hicann/runtime ``src/acl/aclrt_impl/log.cpp`` (aclAppLogImpl): a line is written only when
the level is at or above the configured one (``AclLog::IsLogOutputEnable``), its body is
cut to 1024 bytes and the whole line is ``<tid> <func>:<file>:<line>: "<body>"``, ending in
"...[truncated]" when either part was cut; ``ACLSaveLog`` knows the four levels
ACL_DEBUG..ACL_ERROR and drops any other. CANN writes the line to the plog files, or prints
it when ASCEND_LOG_PRINT_TO_STDOUT=1 (docs/zh/env_vars/ in hicann/runtime; the deprecated
ASCEND_SLOG_PRINT_TO_STDOUT too). ASCEND_GLOBAL_LOG_LEVEL sets the level: 0 DEBUG .. 3 ERROR
(the default, also for an unset or invalid value), 4 nothing.

The simulator keeps the plog in memory (the last ``KEPT`` lines) and prints without the
wall-clock time and process id a real line carries, so a notebook's output stays the same.
"""
from __future__ import annotations

import os
import sys
from collections import deque

MAX_LOG_STRING = 1024                    # acl::MAX_LOG_STRING, log_inner.h
TRUNCATED = b"...[truncated]"
LEVELS = {0: "DEBUG", 1: "INFO", 2: "WARNING", 3: "ERROR"}
DEFAULT_LEVEL, SILENT = 3, 4
KEPT = 1000


def configured_level(environ=os.environ) -> int:
    """ASCEND_GLOBAL_LOG_LEVEL: 0..4; unset, empty or invalid means ERROR (3)."""
    value = environ.get("ASCEND_GLOBAL_LOG_LEVEL", "").strip()
    return int(value) if value in ("0", "1", "2", "3", "4") else DEFAULT_LEVEL


def prints_to_stdout(environ=os.environ) -> bool:
    """ASCEND_LOG_PRINT_TO_STDOUT=1 (or its deprecated name ASCEND_SLOG_PRINT_TO_STDOUT)."""
    for var in ("ASCEND_LOG_PRINT_TO_STDOUT", "ASCEND_SLOG_PRINT_TO_STDOUT"):
        value = environ.get(var, "").strip()
        if value in ("0", "1"):
            return value == "1"
    return False


def format_line(thread: str, func: str, file: str, line: int, message: str) -> str:
    """The line aclAppLogImpl builds, cut to 1024 bytes the way it cuts."""
    limit = MAX_LOG_STRING - 1
    body = message.encode("utf-8", "replace")
    head = f'{thread} {func}:{file}:{line}: "'.encode("utf-8", "replace")
    whole = head + body[:limit] + b'"'
    if len(body) >= limit or len(whole) >= limit:
        whole = whole[:limit]
        whole = whole[:limit - len(TRUNCATED)] + TRUNCATED
    return whole.decode("utf-8", "ignore")


class AppLog:
    """The simulated process's plog: the application lines that passed the level filter."""

    def __init__(self):
        self.lines: deque[str] = deque(maxlen=KEPT)

    def write(self, level: int, thread: str, func: str, file: str, line: int,
              message: str) -> None:
        name = LEVELS.get(level)
        if name is None or level < configured_level():
            return
        text = f"[{name}] APP: " + format_line(thread, func, file, line, message)
        self.lines.append(text)
        if prints_to_stdout():
            print(text, file=sys.stdout, flush=True)
