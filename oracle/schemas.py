"""Portable JSON Schemas of the public formats, generated from msgspec types.

Every `mb-oracle schema ...` printer calls `json_schema`. It takes msgspec's
schema of a type and makes it a JSON Schema 2020-12 document that strict
validators accept (Ajv in strict mode, Python's jsonschema) and that refuses
what the decoder refuses:

- `$schema` names the dialect; `$id`, `title` and `description` are set.
- The keys of a mapping are constrained as the decoder constrains them
  (msgspec's schema leaves keys free): integer keys (card ids) by a pattern,
  literal keys (editions) by an enum.
- A tagged union (msgspec writes `anyOf` with an OpenAPI `discriminator`,
  a keyword strict validators refuse) becomes one `if`/`then` per tag, so a
  validator reports the errors of the one branch the tag selects.
- A one-value `enum` (a format version, a line type) is written `const`;
  descriptions taken from docstrings lose their line breaks and indents.
"""

from __future__ import annotations

from typing import Any, Union

import msgspec
import msgspec.inspect as mi

DIALECT = "https://json-schema.org/draft/2020-12/schema"

# A JSON object key that msgspec decodes as an int: an optional minus sign
# and decimal digits, without leading zeros.
INT_KEY_PATTERN = r"^-?(0|[1-9][0-9]*)$"


def strict_twins(types: tuple, prefix: str) -> Any:
    """The union of `types` (tagged msgspec structs), each as a subclass
    that refuses fields it does not define, named `prefix` + its name: what a
    request reads where a log line of the same type may carry more."""
    return Union[tuple(msgspec.defstruct(prefix + cls.__name__, [], bases=(cls,), forbid_unknown_fields=True)
                       for cls in types)]  # type: ignore[return-value]


def json_schema(tp: Any, *, id: str, title: str, description: str) -> dict:
    """The JSON Schema 2020-12 document of the msgspec type `tp`."""
    schema = msgspec.json.schema(tp)
    defs = schema.get("$defs", {})
    _constrain_keys(mi.type_info(tp), schema, defs, set())
    schema = _tidy(_unfold_discriminators(schema))
    head = {"$schema": DIALECT, "$id": id, "title": title, "description": description}
    return {**head, **{k: v for k, v in schema.items() if k not in head}}


# -- mapping keys ------------------------------------------------------------------


def _constrain_keys(t: mi.Type, node: dict, defs: dict, seen: set) -> None:
    """Walk the type and its schema node together; give every mapping's
    schema the constraint on keys that the decoder applies."""
    if isinstance(t, mi.Metadata):
        t = t.type
    if isinstance(t, mi.StructType):
        ref = node.get("$ref", "")
        name = ref.rsplit("/", 1)[-1]
        if not ref.startswith("#/$defs/") or name in seen or name not in defs:
            return
        seen.add(name)
        props = defs[name].get("properties", {})
        for f in t.fields:
            if f.encode_name in props:
                _constrain_keys(f.type, props[f.encode_name], defs, seen)
    elif isinstance(t, mi.UnionType):
        members = [m for m in t.types if not isinstance(m, mi.NoneType)]
        branches = node.get("anyOf")
        if branches is None:
            for m in members:
                _constrain_keys(m, node, defs, seen)
            return
        for m in members:
            branch = next((b for b in branches if _branch_of(m, b)), None)
            if branch is not None:
                _constrain_keys(m, branch, defs, seen)
    elif isinstance(t, (mi.ListType, mi.SetType, mi.FrozenSetType, mi.VarTupleType)):
        if isinstance(node.get("items"), dict):
            _constrain_keys(t.item_type, node["items"], defs, seen)
    elif isinstance(t, (mi.DictType, mi.FrozenDictType)):
        values = node.get("additionalProperties", {})
        if isinstance(values, dict):
            _constrain_keys(t.value_type, values, defs, seen)
        key = t.key_type.type if isinstance(t.key_type, mi.Metadata) else t.key_type
        if isinstance(key, mi.IntType):
            node["patternProperties"] = {INT_KEY_PATTERN: node.pop("additionalProperties", {})}
            node["additionalProperties"] = False
        elif isinstance(key, mi.LiteralType):
            node["propertyNames"] = {"enum": list(key.values)}
        elif isinstance(key, mi.StrType) and (key.pattern or key.min_length or key.max_length is not None):
            names: dict = {"type": "string"}
            if key.pattern:
                names["pattern"] = key.pattern
            if key.min_length:
                names["minLength"] = key.min_length
            if key.max_length is not None:
                names["maxLength"] = key.max_length
            node["propertyNames"] = names


def _branch_of(t: mi.Type, branch: dict) -> bool:
    """Whether an `anyOf` branch is the schema of the union member `t`."""
    if isinstance(t, mi.Metadata):
        t = t.type
    if isinstance(t, mi.StructType):
        return branch.get("$ref", "").rsplit("/", 1)[-1] == t.cls.__name__
    if isinstance(t, (mi.DictType, mi.FrozenDictType)):
        return branch.get("type") == "object" and "$ref" not in branch
    if isinstance(t, (mi.ListType, mi.SetType, mi.FrozenSetType, mi.VarTupleType)):
        return branch.get("type") == "array"
    return False


# -- tagged unions -----------------------------------------------------------------


def _unfold_discriminators(node: Any) -> Any:
    if isinstance(node, list):
        return [_unfold_discriminators(x) for x in node]
    if not isinstance(node, dict):
        return node
    node = {k: _unfold_discriminators(v) for k, v in node.items()}
    disc = node.pop("discriminator", None)
    if disc is None:
        return node
    tag, mapping = disc["propertyName"], disc["mapping"]
    node.pop("anyOf", None)
    node["type"] = "object"
    node["required"] = [tag]
    node["properties"] = {tag: {"enum": list(mapping)}}
    node["allOf"] = [
        {"if": {"type": "object", "required": [tag], "properties": {tag: {"const": value}}},
         "then": {"$ref": ref}}
        for value, ref in mapping.items()
    ]
    return node


def _tidy(node: Any) -> Any:
    if isinstance(node, list):
        return [_tidy(x) for x in node]
    if not isinstance(node, dict):
        return node
    out = {k: _tidy(v) for k, v in node.items()}
    enum = out.get("enum")
    if isinstance(enum, list) and len(enum) == 1:
        del out["enum"]
        out["const"] = enum[0]
    if isinstance(out.get("description"), str):
        out["description"] = " ".join(out["description"].split())
    return out
