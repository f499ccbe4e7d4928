"""Reading a file the kit did not make, bounded in size and type: one reader for all of them.

A path can name a FIFO (opening it waits for a writer), a device such as /dev/zero (it
never ends), a file of many GiB, or a symlink to somewhere else. ``read`` opens without
waiting (O_NONBLOCK), checks on the open descriptor that it is a regular file no larger
than ``limit`` (``fstat``: the file checked is the file read, even if the path changes
meanwhile), and reads at most ``limit`` bytes. ``within`` also refuses a path whose real
location is outside a folder (a symlink out of it). Anything else is ``Refused``, whose
message says why in the learner's language; nothing is read past the limit.
"""
from __future__ import annotations

import json
import os
import stat

from acl_lab.i18n import _


class Refused(ValueError):
    """The path is not a file the kit may read; ``str()`` says why, in plain words."""


def kind(mode: int) -> str:
    """What a file of ``mode`` is, in words ("a FIFO", "a device" ...)."""
    if stat.S_ISDIR(mode):
        return _("a folder")
    if stat.S_ISFIFO(mode):
        return _("a FIFO (named pipe)")
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return _("a device")
    if stat.S_ISSOCK(mode):
        return _("a socket")
    return _("not a regular file")


def inside(path, folder) -> bool:
    """Is the real location of ``path`` (symlinks followed) inside ``folder``'s?"""
    real, root = os.path.realpath(path), os.path.realpath(folder)
    try:
        return os.path.commonpath([real, root]) == root
    except ValueError:          # different drives (Windows)
        return False


def open_regular(path, limit: int, within=None) -> tuple[int, int]:
    """(an open read-only descriptor, the file's size) of the regular file at ``path``, at
    most ``limit`` bytes; Refused otherwise. The caller closes the descriptor."""
    if within is not None and not inside(path, within):
        raise Refused(_("it leads outside {folder} (a symlink to {target})").format(
            folder=os.fspath(within), target=os.path.realpath(path)))
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError as e:
        raise Refused(e.strerror or str(e)) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise Refused(_("it is {kind}, not a regular file").format(kind=kind(info.st_mode)))
        if info.st_size > limit:
            raise Refused(_("it holds {size} B, more than the {limit} B read here").format(
                size=info.st_size, limit=limit))
    except BaseException:
        os.close(fd)
        raise
    return fd, info.st_size


def read(path, limit: int, within=None) -> bytes:
    """The bytes of the regular file at ``path`` (at most ``limit``); Refused otherwise."""
    fd, size = open_regular(path, limit, within)
    try:
        chunks, total = [], 0
        while total <= limit:
            chunk = os.read(fd, min(limit + 1 - total, 1 << 24) or 1)
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    except OSError as e:
        raise Refused(e.strerror or str(e)) from None
    finally:
        os.close(fd)
    if total > limit:            # it grew while being read
        raise Refused(_("it holds more than the {limit} B read here").format(limit=limit))
    return b"".join(chunks)


def read_head(path, n: int) -> bytes:
    """The first ``n`` bytes of the regular file at ``path`` (whatever its size)."""
    fd, _size = open_regular(path, 1 << 62)
    try:
        return os.read(fd, n)
    except OSError as e:
        raise Refused(e.strerror or str(e)) from None
    finally:
        os.close(fd)


def parse_json(data: bytes | str):
    """The JSON value of ``data``; Refused for text that is not JSON (bad UTF-8, bad syntax,
    nesting deeper than Python's recursion allows)."""
    try:
        return json.loads(data)
    except (ValueError, RecursionError) as e:
        reason = _("nested too deeply") if isinstance(e, RecursionError) else str(e)
        raise Refused(_("it is not valid JSON ({reason})").format(reason=reason)) from None
