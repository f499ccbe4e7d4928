"""acl.app_log as aclAppLogImpl (hicann/runtime src/acl/aclrt_impl/log.cpp): the level
filter of ASCEND_GLOBAL_LOG_LEVEL, stdout only with ASCEND_LOG_PRINT_TO_STDOUT=1 (or its
deprecated name), the 1024-byte cut with "...[truncated]", and no wall-clock time."""
from __future__ import annotations

import pytest

from acl_lab.session import SESSION


def plog():
    return list(SESSION.simulator.rt.plog.lines)


def log_here(acl, level, message):
    acl.app_log(level, message)


@pytest.fixture
def quiet(monkeypatch):
    for var in ("ASCEND_GLOBAL_LOG_LEVEL", "ASCEND_LOG_PRINT_TO_STDOUT",
                "ASCEND_SLOG_PRINT_TO_STDOUT"):
        monkeypatch.delenv(var, raising=False)
    return monkeypatch


def test_by_default_only_errors_reach_the_plog_and_nothing_is_printed(bare_acl, quiet, capsys):
    for level in range(4):
        assert bare_acl.app_log(level, f"level {level}") is None
    assert plog() == ['[ERROR] APP: MainThread '
                      'test_by_default_only_errors_reach_the_plog_and_nothing_is_printed:'
                      'test_app_log.py:29: "level 3"']
    assert capsys.readouterr().out == ""


@pytest.mark.parametrize("var", ["ASCEND_LOG_PRINT_TO_STDOUT", "ASCEND_SLOG_PRINT_TO_STDOUT"])
def test_the_level_and_stdout_variables(bare_acl, quiet, capsys, var):
    quiet.setenv("ASCEND_GLOBAL_LOG_LEVEL", "1")
    quiet.setenv(var, "1")
    log_here(bare_acl, 0, "debug")
    log_here(bare_acl, 1, "info")
    log_here(bare_acl, 7, "no such level")        # ACLSaveLog drops it
    assert capsys.readouterr().out == '[INFO] APP: MainThread log_here:test_app_log.py:16: "info"\n'


@pytest.mark.parametrize("value, shown", [("4", 0), ("9", 1), ("", 1), ("2", 1)])
def test_level_4_silences_and_an_invalid_value_means_error(bare_acl, quiet, value, shown):
    quiet.setenv("ASCEND_GLOBAL_LOG_LEVEL", value)
    bare_acl.app_log(3, "error")
    assert len(plog()) == shown


def test_a_long_message_is_cut_to_1024_bytes_with_the_mark(bare_acl, quiet):
    bare_acl.app_log(3, "x" * 5000)
    [line] = plog()
    body = line.split(" APP: ", 1)[1]
    assert len(body.encode()) == 1023 and body.endswith("...[truncated]")


def test_wrong_types_are_type_errors(bare_acl):
    with pytest.raises(TypeError):
        bare_acl.app_log(3, b"bytes")
    with pytest.raises(TypeError):
        bare_acl.app_log("ERROR", "text")
