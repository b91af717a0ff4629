"""Loading YAML from untrusted files, within limits.

PyYAML's safe loader builds no arbitrary objects, but it will still follow
an alias bomb ("billion laughs") into an exponential amount of work, recurse
until Python's stack runs out on deeply nested input, and silently keep the
last of two equal keys. This module loads documents with:

- a size limit on the text (MAX_BYTES) and a refusal of NUL characters;
- a limit on aliases per document (MAX_ALIASES) and on the number of nodes
  the document holds once its aliases are expanded (MAX_NODES);
- a limit on nesting (MAX_DEPTH), checked while the document is composed;
- duplicate keys refused;
- every problem a `YamlProblem` (a yaml.YAMLError) with the line, never
  another exception.
"""

from __future__ import annotations

from typing import IO, Iterator

import yaml

MAX_BYTES = 1 << 20      # one YAML file
MAX_ALIASES = 100        # aliases (*name) in one document
MAX_NODES = 100_000      # values of one document, aliases expanded
MAX_DEPTH = 64           # nesting of mappings and sequences


class YamlProblem(yaml.YAMLError):
    """A document that cannot be loaded: `line` (1-based) or None, and a message.
    Has `problem` and `problem_mark` like PyYAML's own errors."""

    def __init__(self, line: int | None, message: str, mark=None):
        super().__init__(message)
        self.line = line
        self.message = message
        self.problem = message
        if mark is None and line is not None:
            mark = yaml.Mark("<yaml>", 0, line - 1, 0, None, None)
        self.problem_mark = mark

    def __str__(self) -> str:
        return self.message


class _Limited(yaml.SafeLoader):
    """The safe loader, counting aliases and nesting while it composes."""

    def __init__(self, stream):
        super().__init__(stream)
        self._aliases = 0
        self._depth = 0
        self._nodes = 0

    def compose_document(self):
        self._aliases = 0
        self._nodes = 0
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
                raise YamlProblem(mark.line + 1, f"the document holds more than {MAX_NODES} values (MAX_NODES)",
                                  mark)
            if self._depth > MAX_DEPTH:
                mark = self.peek_event().start_mark
                raise YamlProblem(mark.line + 1, f"nested deeper than {MAX_DEPTH} levels (MAX_DEPTH)", mark)
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


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
    return source


def documents(source: str | bytes | IO) -> Iterator[tuple[yaml.Node, object]]:
    """(node, data) for each non-empty document of `source` (text, bytes
    or a file). Raises YamlProblem at the first problem; the documents
    before it have been given."""
    try:
        text = _text(source)
    except UnicodeDecodeError as e:   # a text file that is not UTF-8
        raise YamlProblem(None, f"not UTF-8 text ({e.reason})") from None
    try:
        loader = _Limited(text)
    except yaml.YAMLError as e:   # the reader checks the first characters at once
        line, message, mark = _message(e)
        raise YamlProblem(line, message, mark) from None
    try:
        while True:
            try:
                if not loader.check_node():
                    return
                node = loader.get_node()
                _check_tree(node)
                data = loader.construct_document(node)
            except yaml.YAMLError as e:
                line, message, mark = _message(e)
                raise YamlProblem(line, message, mark) from None
            except RecursionError:
                raise YamlProblem(None, f"nested too deeply (the limit is {MAX_DEPTH} levels)") from None
            if data is None:
                continue  # an empty document, e.g. after a final ---
            yield node, data
    finally:
        loader.dispose()


def load(source: str | bytes | IO):
    """The data of a single-document YAML (or JSON) source; None if empty.
    Raises YamlProblem."""
    found = None
    for i, (node, data) in enumerate(documents(source)):
        if i:
            raise YamlProblem(node.start_mark.line + 1, "a second document: this file holds one", node.start_mark)
        found = data
    return found
