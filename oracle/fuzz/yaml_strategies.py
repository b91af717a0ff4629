"""hypothesis strategies that break YAML input: scenario documents and
expectation files (mb-expect/1), and any YAML file a game's strategies
hand them (Mindbug's card files, oracle.games.mindbug.fuzz.card_files),
mutated as data (a parsed document with values replaced, removed or added)
and as text (anchors, tabs, NUL, lines removed or repeated, bytes that are
not UTF-8)."""

from __future__ import annotations

import json
from typing import Any

import yaml
from hypothesis import strategies as st

from .strategies import CODES, WORDS, byte_mutation, json_values

# -- YAML documents ------------------------------------------------------------------

def _paths(node, path=()) -> list[tuple]:
    out = [path]
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, path + (i,))
    return out


# Values of the default game's words (strategies.WORDS): names, copies of a
# name (#2), clauses, keywords, editions, dates, steps.
_NAMES = WORDS["names"]
yaml_values = st.one_of(
    json_values, st.sampled_from(_NAMES), st.sampled_from(_NAMES).map(lambda n: n + "#2"),
    st.sampled_from(_NAMES).map(lambda n: n + "#3"), st.sampled_from(WORDS["clauses"]),
    st.sampled_from(WORDS["keywords"]), st.sampled_from(WORDS["editions"]), st.dates(),
    st.fixed_dictionaries({}, optional={k: st.sampled_from(_NAMES) | st.none() | st.booleans()
                                        for k in WORDS["step_keys"]}),
    st.sampled_from(WORDS["step_words"]),
)


SCENARIO_KEYS = ("extra", "given", "expect", "illegal", "steps", "step", "editions")


@st.composite
def tree_mutation(draw, doc: Any, values: st.SearchStrategy = yaml_values, keys: tuple = SCENARIO_KEYS) -> Any:
    """A parsed YAML document with one to three values replaced (by one of
    `values`), removed or added (under one of `keys`)."""
    import copy

    doc = copy.deepcopy(doc)
    for _ in range(draw(st.integers(1, 3))):
        paths = _paths(doc)
        path = draw(st.sampled_from(paths))
        if not path:
            if draw(st.integers(0, 9)) == 0:
                doc = draw(values)
            continue
        parent = doc
        for step in path[:-1]:
            parent = parent[step]
        key = path[-1]
        op = draw(st.sampled_from(["set", "set", "set", "delete", "add", "repeat"]))
        if op == "set":
            parent[key] = draw(values)
        elif op == "delete":
            del parent[key]
        elif op == "add" and isinstance(parent, dict):
            parent[draw(st.sampled_from(keys))] = draw(values)
        elif op == "repeat" and isinstance(parent, list):
            parent.insert(key, copy.deepcopy(parent[key]))
    return doc


YAML_NASTY = ("&a ", "*a", "*nope", "\t", "\0", "\ufeff", "[" * 70, "{", "? ", "!!python/object:os.system ",
              "!!binary ", "<<: *a\n", "---\n", "...\n", "%YAML 1.1\n", "\x85", "'", '"', ": ", "- ", "\\x")


@st.composite
def text_mutation(draw, text: str) -> bytes:
    """YAML text with a few edits: anchors and aliases, tabs, NUL, deep
    brackets, lines removed or repeated, bytes that are not UTF-8."""
    lines = text.split("\n")
    for _ in range(draw(st.integers(1, 3))):
        op = draw(st.sampled_from(["insert", "insert", "delete-line", "repeat-line", "indent", "bytes"]))
        i = draw(st.integers(0, max(0, len(lines) - 1)))
        if op == "insert":
            col = draw(st.integers(0, len(lines[i]))) if lines else 0
            if lines:
                lines[i] = lines[i][:col] + draw(st.sampled_from(YAML_NASTY) | st.text(max_size=4)) + lines[i][col:]
        elif op == "delete-line" and lines:
            del lines[i]
        elif op == "repeat-line" and lines:
            lines.insert(i, lines[i])
        elif op == "indent" and lines:
            lines[i] = " " * draw(st.integers(1, 3)) + lines[i]
    data = "\n".join(lines).encode("utf-8", "surrogatepass")
    if draw(st.integers(0, 7)) == 0:
        data = draw(byte_mutation(data))
    return data


def dump(doc: Any) -> str:
    try:
        return yaml.safe_dump(doc, sort_keys=False, allow_unicode=True)
    except yaml.YAMLError:
        return json.dumps(doc, default=str)


@st.composite
def scenario_file(draw, texts: tuple) -> bytes:
    """One or two scenario documents, mutated as data and/or as text."""
    docs = []
    for _ in range(draw(st.integers(1, 2))):
        how = draw(st.sampled_from(["tree", "tree", "text", "both", "none"]))
        docs.append(draw(mutated_yaml(draw(st.sampled_from(texts)), how)))
    return b"\n---\n".join(docs)


@st.composite
def mutated_yaml(draw, text: str, how: str, values: st.SearchStrategy = yaml_values,
                 keys: tuple = SCENARIO_KEYS) -> bytes:
    """A YAML text mutated as data (`tree`), as text (`text`), both, or not at all."""
    if how in ("tree", "both"):
        try:
            parsed = yaml.safe_load(text)
        except yaml.YAMLError:
            parsed = None
        if parsed is not None:
            text = dump(draw(tree_mutation(parsed, values, keys)))
    if how in ("text", "both"):
        return draw(text_mutation(text))
    return text.encode("utf-8", "surrogatepass")


expect_entry = st.one_of(
    st.fixed_dictionaries({"code": st.sampled_from(CODES)}, optional={
        "clause": st.sampled_from(WORDS["clauses"]) | st.none(), "game": st.text(max_size=8) | st.none(),
        "note": st.text(max_size=10), "extra": json_values}),
    json_values)


@st.composite
def expect_file(draw, texts: tuple) -> bytes:
    """An expectation file: generated entries, or a seed mutated as data or text."""
    how = draw(st.sampled_from(["generated", "generated", "tree", "text"]))
    if how == "generated":
        doc = {"format": draw(st.sampled_from(["mb-expect/1", "mb-expect/1", "mb-expect/2", 1])),
               "expected": draw(st.lists(expect_entry, max_size=5) | json_values)}
        text = dump(doc) if draw(st.booleans()) else json.dumps(doc, default=str)
        return text.encode("utf-8", "surrogatepass")
    text = draw(st.sampled_from(texts))
    if how == "tree":
        return dump(draw(tree_mutation(yaml.safe_load(text)))).encode("utf-8", "surrogatepass")
    return draw(text_mutation(text))
