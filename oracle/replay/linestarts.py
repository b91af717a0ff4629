"""What the start of a line says before its content: byte order marks and
blank lines, as the reader (oracle.replay.reader) takes them.

A byte order mark at the start of any line is read as at a file's start
(logs joined with `cat`): a UTF-8 one is skipped, a UTF-16 one makes the
input unreadable from there to the next game line. Blank lines (of
whitespace only) belong to no game; a batch of lines is cleared of them in
few steps, whatever their number.
"""

from __future__ import annotations

BOM = b"\xef\xbb\xbf"   # a UTF-8 byte order mark: skipped at the start of an input or a line
UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")   # UTF-16 byte order marks (little, big endian)
_BLANK = b" \t\n\r\x0b\x0c"   # what `bytes.strip` takes off: a line of these only is blank


def without_boms(block: bytes) -> bytes:
    """`block` (which starts a line) without the UTF-8 byte order marks that
    start its lines: each line is read as if it started a file."""
    block = block.replace(b"\n" + BOM, b"\n")
    return block[len(BOM):] if block.startswith(BOM) else block


def utf16_lines(block: bytes) -> bool:
    """Whether a line of `block` (which starts a line) starts with a UTF-16
    byte order mark. (Both marks hold the byte 0xff, which UTF-8 text never
    does: the common block is told by one memchr instead of two searches of
    three bytes.)"""
    return block.find(b"\xff") >= 0 and (block[:2] in UTF16_BOMS or block.find(b"\n\xff\xfe") >= 0
                                         or block.find(b"\n\xfe\xff") >= 0)


def utf16_kind(num: int, first: bool) -> str:
    """The kind of the unreadable input that UTF-16 text at line `num` makes
    (`first`: the input's first line; else a file joined to other lines)."""
    where = "the file is" if first else f"from line {num} the input is"
    return f"unreadable:{where} UTF-16 text; mb-replay/1 logs are UTF-8"


def after_utf16(raw: bytes) -> bytes:
    """A line after UTF-16 text that starts with a NUL, the second byte of a
    little-endian line break: without it (and a UTF-8 byte order mark after it)."""
    raw = raw[1:]
    return raw[len(BOM):] if raw.startswith(BOM) else raw


def unblanked(batch: list[bytes], block: bytes, end: int, lineno: int) -> tuple[list[bytes], list[int]] | None:
    """The lines of `batch` (the lines of `block[:end]`, numbered from
    lineno + 1) that are not blank, with their numbers; None when every line
    is blank. Called for a batch whose least line is blank or space-led."""
    if not block[:end].translate(None, _BLANK):
        return None
    kept = [i for i, x in enumerate(batch) if x[:1] > b" " or x.strip()]
    return [batch[i] for i in kept], [lineno + i + 1 for i in kept]
