"""hunt and fuzz keep Hypothesis's caches in the user's cache folder, not
in the folder they run in; a place the user names is kept."""

from __future__ import annotations

import os

from oracle.caches import VARIABLE, keep_out_of_the_folder


def test_the_caches_go_to_the_user_cache_folder(monkeypatch, tmp_path):
    monkeypatch.delenv(VARIABLE, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    keep_out_of_the_folder()
    assert os.environ[VARIABLE] == str(tmp_path / "cache" / "mb-oracle" / "hypothesis")


def test_without_xdg_the_home_cache_folder(monkeypatch, tmp_path):
    monkeypatch.delenv(VARIABLE, raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    keep_out_of_the_folder()
    assert os.environ[VARIABLE] == str(tmp_path / ".cache" / "mb-oracle" / "hypothesis")


def test_a_place_the_user_names_is_kept(monkeypatch, tmp_path):
    monkeypatch.setenv(VARIABLE, str(tmp_path / "mine"))
    keep_out_of_the_folder()
    assert os.environ[VARIABLE] == str(tmp_path / "mine")
