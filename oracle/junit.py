"""JUnit XML for CI servers (Jenkins, GitLab), written by `verify` and `scenarios`.

One `<testsuites>` holding one `<testsuite>`; a `<testcase>` per game or
per scenario run. The counts in `<testsuite>` and `<testsuites>` are the
counts of the cases written: a case is passed, failed (`<failure>`), in
error (`<error>`, input that cannot be read) or skipped (`<skipped>` with a
message: an expected failure, or a note that fails nothing).

The report streams: cases go to a temporary file as they come, and the
header with the counts is written when the writer is closed, followed by
the cases. Memory does not grow with the number of cases.

Class names. Jenkins reads a `classname` "a.b.c" as package "a.b" and
class "c", so a file name such as `games.jsonl` would be split in two. A
case's class is therefore `mb-oracle.<command>.<file>` with every dot of
the file part replaced by an underscore (`mb-oracle.verify.logs/games_jsonl`):
Jenkins shows package `mb-oracle.verify`, class `logs/games_jsonl`. The
file itself, unchanged, is in the `file` attribute.

Text. Characters that XML 1.0 cannot hold (most control characters, lone
surrogates, U+FFFE and U+FFFF) and every character `oracle.term.visible`
escapes (newlines and tabs are kept in multi-line bodies only)
are written as visible escapes (`\\x1b`, `\\ud800`, `\\u202e`), so the file
always parses and the reader sees that something odd was there.
"""

from __future__ import annotations

import re
from typing import TextIO

from .safefile import spool
from .term import visible

RESULTS = ("passed", "failure", "error", "skipped")

# The two characters XML 1.0 forbids that `visible` leaves.
_NOT_XML = re.compile("[\ufffe\uffff]")


def _xml_visible(m: re.Match) -> str:
    return f"\\u{ord(m.group(0)):04x}"


def clean_line(text: str) -> str:
    """A one-line field (a name, a message) that any XML parser reads back as written."""
    return _NOT_XML.sub(_xml_visible, visible(text))


def clean_text(text: str) -> str:
    """A multi-line body: newlines and tabs kept, other controls escaped."""
    parts = text.replace("\r\n", "\n").split("\t")
    return _NOT_XML.sub(_xml_visible, "\t".join(visible(part, lines=True) for part in parts))


def classname(command: str, file: str) -> str:
    """`mb-oracle.<command>.<file with dots replaced>` (see the module text)."""
    part = (file or "-").replace(".", "_").strip("<>") or "-"
    return f"mb-oracle.{command}.{part}"


# XML's escapes, written out as xml.sax.saxutils writes them (escape,
# quoteattr): that module brings urllib, http and email with it, most of
# the start of a `verify --format junit`.
_ATTR_ENTITIES = (("\n", "&#10;"), ("\r", "&#13;"), ("\t", "&#9;"))


def escape(text: str) -> str:
    """`text` with &, < and > escaped (ampersand first)."""
    return text.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;")


def _attr(value) -> str:
    """`value` as a quoted attribute: escaped, its line breaks and tabs as
    character references, in double quotes (single quotes when it holds a
    double quote and no single one; else its double quotes as &quot;)."""
    data = escape(clean_line(str(value)))
    for char, entity in _ATTR_ENTITIES:
        data = data.replace(char, entity)
    if '"' not in data:
        return f'"{data}"'
    if "'" not in data:
        return f"'{data}'"
    return '"' + data.replace('"', "&quot;") + '"'


class JUnitWriter:
    """Write cases with `case()`, then `close()` writes the whole document to `out`."""

    def __init__(self, out: TextIO, name: str):
        self.out = out
        self.name = name
        self.tests = 0
        self.failures = 0
        self.errors = 0
        self.skipped = 0
        self.time = 0.0
        self._cases = spool(text=True)
        self._closed = False

    def __enter__(self) -> JUnitWriter:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def case(self, classname: str, name: str, *, result: str = "passed", time: float = 0.0,
             file: str | None = None, line: int | None = None, message: str = "", type: str | None = None,
             text: str = "", system_out: str = "") -> None:
        """One test case. `result` is passed, failure, error or skipped;
        `message` is the one-line reason, `text` the full account;
        `system_out` what a passing case still has to say (a warning)."""
        if result not in RESULTS:
            raise ValueError(f"result {result!r} is not one of {', '.join(RESULTS)}")
        self.tests += 1
        self.time += time
        attrs = f"classname={_attr(classname)} name={_attr(name)} time=\"{max(time, 0.0):.3f}\""
        if file is not None:
            attrs += f" file={_attr(file)}"
        if line is not None:
            attrs += f' line="{max(int(line), 0)}"'
        w = self._cases.write
        out = f"      <system-out>{escape(clean_text(system_out))}</system-out>\n" if system_out else ""
        if result == "passed":
            w(f"    <testcase {attrs}>\n{out}    </testcase>\n" if out else f"    <testcase {attrs}/>\n")
            return
        if result == "failure":
            self.failures += 1
        elif result == "error":
            self.errors += 1
        else:
            self.skipped += 1
        tag = {"failure": "failure", "error": "error", "skipped": "skipped"}[result]
        inner = f"message={_attr(message)}"
        if type is not None and tag != "skipped":
            inner += f" type={_attr(type)}"
        body = escape(clean_text(text)) if text else ""
        w(f"    <testcase {attrs}>\n")
        w(f"      <{tag} {inner}>{body}</{tag}>\n" if body else f"      <{tag} {inner}/>\n")
        w(out)
        w("    </testcase>\n")

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        counts = (f'tests="{self.tests}" failures="{self.failures}" errors="{self.errors}" '
                  f'skipped="{self.skipped}" time="{self.time:.3f}"')
        out = self.out
        out.write('<?xml version="1.0" encoding="UTF-8"?>\n')
        out.write(f"<testsuites name={_attr(self.name)} {counts}>\n")
        out.write(f"  <testsuite name={_attr(self.name)} {counts}>\n")
        self._cases.seek(0)
        for chunk in iter(lambda: self._cases.read(1 << 16), ""):
            out.write(chunk)
        self._cases.close()
        out.write("  </testsuite>\n</testsuites>\n")
        out.flush()
