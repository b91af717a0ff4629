"""Loading YAML from untrusted files, within limits.

PyYAML's safe loader builds no arbitrary objects, but it will still follow
an alias bomb ("billion laughs") into an exponential amount of work, recurse
until Python's stack runs out on deeply nested input, and silently keep the
last of two equal keys. This module loads documents with:

- a size limit on the text (MAX_BYTES) and a refusal of NUL characters;
- a limit on aliases per document (MAX_ALIASES) and on the number of values
  (MAX_NODES) in the file, and in a document once its aliases are expanded;
- a limit on nesting (MAX_DEPTH), checked while the document is composed;
- duplicate keys refused;
- values built only into types that cannot fail: a timestamp (`2001-02-30`,
  `2001-13-45`, valid or not) stays the text it is, an integer has at most
  MAX_INT_DIGITS digits, and a value its explicit tag cannot build
  (`!!int abc`, `!!bool maybe`) is a problem at its line, and a set
  (`!!set {a, b}`) is the list of its members in the order written, not a
  Python set, whose order would change from one run to the next;
- every problem a `YamlProblem` (a yaml.YAMLError) with the line, never
  another exception.
"""

from __future__ import annotations

import re
from array import array
from itertools import accumulate
from typing import IO, Iterator

import yaml

MAX_BYTES = 1 << 20      # one YAML file
MAX_ALIASES = 100        # aliases (*name) in one document
MAX_NODES = 20_000       # values in one file (and in one document, aliases expanded)
MAX_DEPTH = 64           # nesting of mappings and sequences
MAX_INT_DIGITS = 64      # digits of one integer (PyYAML would build any size, or fail past 4,300)


# Opening flow brackets count +1, closing ones -1, anything else 0 (signed bytes).
_FLOW_STEPS = bytes(1 if b in b"[{" else 255 if b in b"]}" else 0 for b in range(256))


class YamlProblem(yaml.YAMLError):
    """A document that cannot be loaded: `line` (1-based) or None, and a message.
    Has `problem` and `problem_mark` like PyYAML's own errors."""

    def __init__(self, line: int | None, message: str, mark=None, from_parser: bool = False):
        super().__init__(message)
        self.from_parser = from_parser   # PyYAML or libyaml found the text invalid
        self.line = line
        self.message = message
        self.problem = message
        if mark is None and line is not None:
            mark = yaml.Mark("<yaml>", 0, line - 1, 0, None, None)
        self.problem_mark = mark

    def __str__(self) -> str:
        return self.message


class _Limits:
    """Counts aliases, values and nesting while a document is composed."""

    def _start_limits(self):
        self._aliases = 0
        self._depth = 0
        self._nodes = 0

    def compose_document(self):
        self._aliases = 0
        return super().compose_document()

    def compose_node(self, parent, index):
        if self.check_event(yaml.AliasEvent):
            self._aliases += 1
            if self._aliases > MAX_ALIASES:
                mark = self.peek_event().start_mark
                raise YamlProblem(mark.line + 1, f"more than {MAX_ALIASES} aliases in one document "
                                                 "(MAX_ALIASES)", mark)
            return super().compose_node(parent, index)
        self._depth += 1
        self._nodes += 1
        try:
            if self._nodes > MAX_NODES:
                mark = self.peek_event().start_mark
                raise YamlProblem(mark.line + 1, f"the file holds more than {MAX_NODES} values (MAX_NODES)",
                                  mark)
            if self._depth > MAX_DEPTH:
                mark = self.peek_event().start_mark
                raise YamlProblem(mark.line + 1, f"nested deeper than {MAX_DEPTH} levels (MAX_DEPTH)", mark)
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


_TIMESTAMP = "tag:yaml.org,2002:timestamp"
_INT_PREFIX = re.compile(r"^[-+]?(0[box])?")


class _Resolver(yaml.resolver.Resolver):
    """YAML 1.1's implicit types, but for timestamps: `2001-02-03` is text."""

    yaml_implicit_resolvers = {first: [(tag, rx) for tag, rx in found if tag != _TIMESTAMP]
                               for first, found in yaml.resolver.Resolver.yaml_implicit_resolvers.items()}


class _Constructor(yaml.constructor.SafeConstructor):
    """PyYAML's safe constructor, with no value that fails to build other
    than as a YamlProblem at the value's line."""

    def construct_object(self, node, deep=False):
        try:
            return super().construct_object(node, deep)
        except yaml.YAMLError:
            raise
        except (ValueError, TypeError, KeyError, IndexError, OverflowError) as e:
            # A scalar its tag cannot build: `!!int abc`, `!!bool maybe`, `!!float x`.
            tag = str(node.tag).rpartition(":")[2] or str(node.tag)
            shown = str(node.value)[:40] + ("..." if len(str(node.value)) > 40 else "")
            raise YamlProblem(node.start_mark.line + 1, f"{shown!r} cannot be read as {tag}", node.start_mark) from None

    def construct_yaml_int(self, node):
        digits = len(_INT_PREFIX.sub("", str(node.value).replace("_", "")))   # sexagesimal: ":" counted
        if digits > MAX_INT_DIGITS:
            raise YamlProblem(node.start_mark.line + 1, f"an integer of {digits:,} digits: at most {MAX_INT_DIGITS} "
                              "(MAX_INT_DIGITS)", node.start_mark)
        return super().construct_yaml_int(node)

    def construct_yaml_set(self, node):
        """`!!set {a, b}`: its members as a list, in the order written."""
        return list(self.construct_mapping(node))


_Constructor.add_constructor("tag:yaml.org,2002:int", _Constructor.construct_yaml_int)
_Constructor.add_constructor("tag:yaml.org,2002:set", _Constructor.construct_yaml_set)
_Constructor.add_constructor(_TIMESTAMP, _Constructor.construct_yaml_str)   # `!!timestamp x` is text too


class _Limited(_Limits, yaml.reader.Reader, yaml.scanner.Scanner, yaml.parser.Parser, yaml.composer.Composer,
               _Constructor, _Resolver):
    """PyYAML's safe loader, in Python, within the limits."""

    def __init__(self, stream):
        yaml.reader.Reader.__init__(self, stream)
        yaml.scanner.Scanner.__init__(self)
        yaml.parser.Parser.__init__(self)
        yaml.composer.Composer.__init__(self)
        _Constructor.__init__(self)
        _Resolver.__init__(self)
        self._start_limits()


_Fast = None
if getattr(yaml, "__with_libyaml__", False):
    from yaml._yaml import CParser

    class _Fast(_Limits, yaml.composer.Composer, CParser, _Constructor, _Resolver):  # type: ignore[no-redef]
        """libyaml's parser (several times faster) with the same composer,
        constructor and limits as _Limited."""

        def __init__(self, stream):
            CParser.__init__(self, stream)
            yaml.composer.Composer.__init__(self)
            _Constructor.__init__(self)
            _Resolver.__init__(self)
            self._start_limits()


def scalar(node: yaml.Node):
    """The value of one node of a document `documents` gave, built as
    `documents` builds it (a timestamp is text). Raises YamlProblem."""
    return _Constructor().construct_object(node, deep=True)


def _message(e: yaml.YAMLError) -> tuple[int | None, str, object]:
    """Line, message and mark of one of PyYAML's errors."""
    if isinstance(e, YamlProblem):
        return e.line, e.message, e.problem_mark
    if isinstance(e, yaml.reader.ReaderError):
        # Raised for characters YAML does not allow, NUL among them.
        what = "a NUL character" if e.character in ("\0", 0) else f"the character {e.character!r}"
        return None, f"invalid YAML: {what} is not allowed (at byte {e.position})", None
    mark = getattr(e, "problem_mark", None) or getattr(e, "context_mark", None)
    problem = getattr(e, "problem", None) or str(e)
    context = getattr(e, "context", None)
    cmark = getattr(e, "context_mark", None)
    if context and cmark is not None and mark is not None and cmark.line != mark.line:
        context += f" started at line {cmark.line + 1}"
    msg = f"invalid YAML: {problem}" + (f" ({context})" if context else "")
    return (mark.line + 1 if mark else None), msg, mark


def _check_tree(node: yaml.Node) -> None:
    """Duplicate keys, recursive aliases, and the size and depth of the
    document with its aliases expanded, visiting each node once (aliases
    share nodes: a walk without memory would be exponential)."""
    measured: dict[int, tuple[int, int]] = {}   # node -> (size, depth), aliases expanded
    open_: set[int] = set()                     # nodes whose children are being measured
    stack: list[tuple[yaml.Node, bool]] = [(node, False)]
    while stack:
        n, children_done = stack.pop()
        key = id(n)
        if isinstance(n, yaml.ScalarNode):
            if not n.value.isascii():
                try:
                    n.value.encode("utf-8")
                except UnicodeEncodeError:
                    raise YamlProblem(n.start_mark.line + 1, "a string holds a lone surrogate escape (such as "
                                      "\\ud800), which is not a character", n.start_mark) from None
            measured[key] = (1, 1)
            continue
        children = [c for pair in n.value for c in pair] if isinstance(n, yaml.MappingNode) else n.value
        if not children_done:
            if key in measured:
                continue
            if key in open_:
                raise YamlProblem(n.start_mark.line + 1, "a recursive alias (a value that contains itself)",
                                  n.start_mark)
            if isinstance(n, yaml.MappingNode):
                seen: set = set()
                for k, _v in n.value:
                    if isinstance(k, yaml.ScalarNode):
                        if k.value in seen:
                            raise YamlProblem(k.start_mark.line + 1, f"duplicate key {k.value!r}", k.start_mark)
                        seen.add(k.value)
            open_.add(key)
            stack.append((n, True))
            for c in children:
                if id(c) in open_:
                    raise YamlProblem(c.start_mark.line + 1, "a recursive alias (a value that contains itself)",
                                      c.start_mark)
                if id(c) not in measured:
                    stack.append((c, False))
            continue
        open_.discard(key)
        size, depth = 1, 1
        for c in children:
            cs, cd = measured[id(c)]
            size += cs
            depth = max(depth, cd + 1)
        mark = n.start_mark
        if size > MAX_NODES:
            raise YamlProblem(mark.line + 1, f"the document holds more than {MAX_NODES} values once its "
                                             "aliases are expanded (MAX_NODES)", mark)
        if depth > MAX_DEPTH:
            raise YamlProblem(mark.line + 1, f"nested deeper than {MAX_DEPTH} levels once its aliases are "
                                             "expanded (MAX_DEPTH)", mark)
        measured[key] = (size, depth)


def read_file(path) -> bytes:
    """The bytes of a file, at most MAX_BYTES + 1 of them: enough to tell a
    file over the limit, never more (a device or a pipe may not end).
    Raises OSError."""
    with open(path, "rb") as f:
        return f.read(MAX_BYTES + 1)


class NotReadable(Exception):
    """A file a client named that may not be read (`read_within`)."""


def read_within(path: str, folders, files=()) -> bytes:
    """The bytes of the file at `path` (absolute, or relative to the working
    directory) for a client that may read only regular files of at most
    MAX_BYTES under `folders`, or one of `files` (symbolic links resolved
    first). Nothing but such a file is opened, so a FIFO or a device is
    never waited on; a path outside the folders, missing or unreadable gets
    one message that says nothing of it. Raises NotReadable."""
    import os
    import stat

    unknown = NotReadable(f"{path!r}: no such file in the folders this service reads")
    try:
        real = os.path.realpath(path)
    except (OSError, ValueError):   # a NUL in the path, a loop of links
        raise unknown from None
    roots = [os.path.realpath(f) for f in folders]
    if not any(os.path.commonpath([real, r]) == r for r in roots) and \
            real not in {os.path.realpath(f) for f in files}:
        raise unknown
    try:
        if not stat.S_ISREG(os.stat(real).st_mode):
            raise NotReadable(f"{path!r} is not a regular file")
        fd = os.open(real, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        raise unknown from None
    with open(fd, "rb") as f:
        st = os.fstat(f.fileno())
        if not stat.S_ISREG(st.st_mode):     # replaced between the two looks
            raise NotReadable(f"{path!r} is not a regular file")
        if st.st_size > MAX_BYTES:
            raise NotReadable(f"{path!r} is larger than {MAX_BYTES} bytes (MAX_BYTES)")
        return f.read(MAX_BYTES + 1)


def _text(source: str | bytes | IO) -> str:
    if hasattr(source, "read"):
        source = source.read(MAX_BYTES + 1)
    if isinstance(source, bytes):
        if len(source) > MAX_BYTES:
            raise YamlProblem(None, f"the file is larger than {MAX_BYTES} bytes (MAX_BYTES)")
        try:
            source = source.decode("utf-8")
        except UnicodeDecodeError as e:
            raise YamlProblem(None, f"not UTF-8 text (byte 0x{source[e.start]:02x} at offset {e.start})") from None
    if len(source) > MAX_BYTES:
        raise YamlProblem(None, f"the file is larger than {MAX_BYTES} bytes (MAX_BYTES)")
    nul = source.find("\0")
    if nul >= 0:
        raise YamlProblem(source.count("\n", 0, nul) + 1, "a NUL character: this is not a text file")
    if source.count("[") + source.count("{") > MAX_DEPTH:
        # Deep flow collections ([[[...) cost PyYAML's scanner time in proportion
        # to their depth for every token: refuse them before scanning. Brackets
        # inside quotes count too; only a file with more than MAX_DEPTH of them
        # open at once is refused.
        steps = array("b", source.encode("utf-8", "surrogatepass").translate(_FLOW_STEPS))
        for i, depth in enumerate(accumulate(steps)):
            if depth > MAX_DEPTH:
                line = source.encode("utf-8", "surrogatepass").count(b"\n", 0, i) + 1
                raise YamlProblem(line, f"nested deeper than {MAX_DEPTH} levels (MAX_DEPTH)")
    return source


def documents(source: str | bytes | IO) -> Iterator[tuple[yaml.Node, object]]:
    """(node, data) for each non-empty document of `source` (text, bytes
    or a file). Raises YamlProblem at the first problem; the documents
    before it have been given."""
    try:
        text = _text(source)
    except UnicodeDecodeError as e:   # a text file that is not UTF-8
        raise YamlProblem(None, f"not UTF-8 text ({e.reason})") from None
    if _Fast is not None:
        # libyaml first; the file is read again in Python only when libyaml
        # finds it invalid, for PyYAML's wording of the problem.
        found: list = []
        try:
            for doc in _load(_Fast, text):
                found.append(doc)
        except YamlProblem as e:
            if not e.from_parser:
                yield from found
                raise
        else:
            yield from found
            return
    yield from _load(_Limited, text)


def _load(cls, text: str) -> Iterator[tuple[yaml.Node, object]]:
    try:
        loader = cls(text)
    except yaml.YAMLError as e:   # the reader checks the first characters at once
        line, message, mark = _message(e)
        raise YamlProblem(line, message, mark, from_parser=True) from None
    try:
        while True:
            try:
                if not loader.check_node():
                    return
                node = loader.get_node()
                _check_tree(node)
                data = loader.construct_document(node)
            except YamlProblem:
                raise
            except yaml.YAMLError as e:
                line, message, mark = _message(e)
                raise YamlProblem(line, message, mark, from_parser=True) from None
            except RecursionError:
                raise YamlProblem(None, f"nested too deeply (the limit is {MAX_DEPTH} levels)") from None
            if data is None:
                continue  # an empty document, e.g. after a final ---
            yield node, data
    finally:
        dispose = getattr(loader, "dispose", None)
        if dispose is not None:
            dispose()


def load(source: str | bytes | IO):
    """The data of a single-document YAML (or JSON) source; None if empty.
    Raises YamlProblem."""
    found = None
    for i, (node, data) in enumerate(documents(source)):
        if i:
            raise YamlProblem(node.start_mark.line + 1, "a second document: this file holds one", node.start_mark)
        found = data
    return found
