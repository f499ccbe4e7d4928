"""What the official runtime examples' own helpers do, for the tests that run them as
written: CHECK_ERROR, INFO_LOG, and the lines the example printed."""
from __future__ import annotations


def check(ret, call: str) -> None:
    """The examples' CHECK_ERROR."""
    assert ret == 0, f"{call} returned {ret}"


def info(text: str) -> None:
    """The examples' INFO_LOG."""
    print(f"[INFO]  {text}")


def lines(capsys) -> list[str]:
    return capsys.readouterr().out.splitlines()
