"""support/files.py: the one reader of files the kit did not make — regular files only,
bounded, never blocking, never outside the folder it is told to stay in."""
import os

import pytest

from acl_lab.support import files


def test_a_regular_file_is_read_whole(tmp_path):
    (tmp_path / "a").write_bytes(b"x" * 100)
    assert files.read(tmp_path / "a", 100) == b"x" * 100
    assert files.read_head(tmp_path / "a", 4) == b"xxxx"


@pytest.mark.parametrize("make, words", [
    (lambda p: os.mkfifo(p), "FIFO"),
    (lambda p: os.symlink("/dev/zero", p), "device"),
    (lambda p: p.mkdir(), "folder"),
    (lambda p: p.write_bytes(b"x" * 101), "more than the 100 B"),
    (lambda p: None, "No such file"),
])
def test_anything_else_is_refused_in_words_without_waiting(tmp_path, make, words):
    path = tmp_path / "thing"
    make(path)
    with pytest.raises(files.Refused, match=words):
        files.read(path, 100)


def test_a_file_past_its_limit_is_not_read(tmp_path):
    with open(tmp_path / "big", "wb") as f:
        f.truncate(3 << 30)                          # sparse: costs nothing on disk
    with pytest.raises(files.Refused, match="more than"):
        files.read(tmp_path / "big", 1 << 20)


def test_a_symlink_out_of_its_folder_is_refused(tmp_path):
    (tmp_path / "home").mkdir()
    (tmp_path / "outside.json").write_text("{}")
    (tmp_path / "home" / "link.json").symlink_to(tmp_path / "outside.json")
    (tmp_path / "home" / "inside.json").write_text("[]")
    with pytest.raises(files.Refused, match="outside"):
        files.read(tmp_path / "home" / "link.json", 100, within=tmp_path / "home")
    assert files.read(tmp_path / "home" / "inside.json", 100, within=tmp_path / "home") == b"[]"


@pytest.mark.parametrize("text, words", [("{not json", "not valid JSON"),
                                         ("[" * 100000 + "]" * 100000, "nested too deeply"),
                                         (b"\xff\xfe", "not valid JSON")])
def test_json_that_is_not_is_refused(text, words):
    with pytest.raises(files.Refused, match=words):
        files.parse_json(text)
