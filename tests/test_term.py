"""oracle.term's styles are click's: the human report is written without
click (the fast path of `verify`), and must read the same as with it."""

import itertools

import click

from oracle.term import style, unstyle


def test_style_writes_what_click_style_writes():
    for fg, bold, dim in itertools.product((None, "green", "red", "yellow", "magenta", "bright_black"),
                                           (None, True, False), (None, True, False)):
        for text in ("ok", "", "a\x1b[1mb", 3):
            assert style(text, fg=fg, bold=bold, dim=dim) == click.style(text, fg=fg, bold=bold, dim=dim)


def test_unstyle_removes_what_click_unstyle_removes():
    for text in ("plain", click.style("x", fg="red", bold=True) + " y " + click.style("z", dim=True),
                 "\x1b[31;1mred\x1b[0m\x1b[K", "\x1b", "a\x1b[", "\x1b[?25l hidden cursor"):
        assert unstyle(text) == click.unstyle(text)
