"""Hostile surroundings of the input files: folders the search cannot read,
outputs that are inputs of the run, names that carry a newline."""

from __future__ import annotations

import errno
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from oracle.cli import main

ROOT = Path(__file__).resolve().parents[1]
LOG = ROOT / "replays" / "conforming" / "en-first.jsonl"
SCENARIO = ROOT / "scenarios" / "setup.yaml"


def _invoke(*args):
    return CliRunner().invoke(main, [*map(str, args)], catch_exceptions=False)


# -- folders the search cannot read --------------------------------------------


@pytest.fixture
def locked(monkeypatch):
    """Folders named `locked` cannot be listed, as a folder without read
    permission (the tests run as root, whom permissions do not stop)."""
    real = os.scandir

    def scandir(path="."):
        if os.path.basename(os.fspath(path)) == "locked":
            raise PermissionError(errno.EACCES, "Permission denied", os.fspath(path))
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)


def _deep(top: Path, depth: int = 20) -> str:
    """Folders nested under `top` until the path is longer than 4,096 bytes; the innermost one's path."""
    fd = os.open(top, os.O_RDONLY)
    path = str(top)
    try:
        for i in range(depth):
            name = f"d{i:02d}" + "x" * 250
            os.mkdir(name, dir_fd=fd)
            inner = os.open(name, os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = inner
            path = os.path.join(path, name)
    finally:
        os.close(fd)
    assert len(path) > 4096
    return path


@pytest.mark.parametrize("how", ["folder", "glob", "double-star"])
def test_verify_names_a_subfolder_it_cannot_read(tmp_path, locked, how):
    (tmp_path / "a").mkdir()
    (tmp_path / "locked").mkdir()
    shutil.copy(LOG, tmp_path / "a" / "games.jsonl")
    arg = {"folder": tmp_path, "glob": tmp_path / "*", "double-star": tmp_path / "**" / "*.jsonl"}[how]
    r = _invoke("verify", arg, "-q")
    assert r.exit_code == 2, r.output
    assert f"MALFORMED {tmp_path / 'locked'}" in r.stdout
    assert "cannot read the folder: Permission denied" in r.stdout
    assert "0 violate, 1 malformed" in r.stdout          # the games of the readable folder are verified


def test_verify_in_parallel_names_a_subfolder_it_cannot_read(tmp_path, locked):
    (tmp_path / "locked").mkdir()
    shutil.copy(LOG, tmp_path / "games.jsonl")
    r = _invoke("verify", tmp_path, "-q", "-j", "2", "--format", "json")
    assert r.exit_code == 2
    assert f'"file":"{tmp_path / "locked"}"' in r.stdout and "UNREADABLE" in r.stdout


def test_verify_names_a_folder_past_the_longest_path(tmp_path):
    shutil.copy(LOG, tmp_path / "games.jsonl")
    deep = _deep(tmp_path)
    for arg in (tmp_path, tmp_path / "**" / "*.jsonl"):
        r = _invoke("verify", arg, "-q")
        assert r.exit_code == 2, r.output
        assert "cannot read the folder: its path is longer than the system takes" in r.stdout
        assert str(deep)[:200] in r.stdout


def test_scenarios_name_a_subfolder_they_cannot_read(tmp_path, locked):
    (tmp_path / "locked").mkdir()
    shutil.copy(SCENARIO, tmp_path / "setup.yaml")
    r = _invoke("scenarios", tmp_path)
    assert r.exit_code == 2
    assert f"{tmp_path / 'locked'}: cannot read the folder: Permission denied" in r.stderr
    assert "36 passed" in r.stdout                       # the readable file still runs


def test_scenarios_name_a_folder_past_the_longest_path(tmp_path):
    shutil.copy(SCENARIO, tmp_path / "setup.yaml")
    _deep(tmp_path)
    r = _invoke("scenarios", tmp_path)
    assert r.exit_code == 2
    assert "cannot read the folder: its path is longer than the system takes" in r.stderr
