"""Rendering verdicts: for people (a terminal), for tools (JSON Lines), for CI (JUnit XML)."""

from __future__ import annotations

import json
from xml.etree import ElementTree as ET

import click
import msgspec

_enc = msgspec.json.Encoder()

MARK = {"conforms": ("ok", "green"), "violates": ("VIOLATES", "red"), "malformed": ("MALFORMED", "yellow"),
        "error": ("ERROR", "red")}


def _fmt_option(o: dict) -> str:
    t = o["t"]
    if "cards" in o:
        return f"{t} {o['cards']}"
    if "card" in o:
        return f"{t} {o['card'] if o['card'] is not None else 'null'}"
    return t


def human_game(rep, verbose: bool = False) -> str:
    label, colour = MARK[rep.verdict]
    if rep.outcome == "xfail":
        label, colour = "xfail", "cyan"
    elif rep.outcome == "xpass":
        label, colour = "XPASS", "magenta"
    head = f"{click.style(f'{label:<9}', fg=colour, bold=rep.verdict != 'conforms')} {rep.id}"
    where = f"{rep.file}:{rep.line}"
    info = f"  [{rep.edition or '?'}, {rep.decisions} decisions]  {where}"
    out = [head + click.style(info, dim=True)]
    if rep.conforms_to is not None:
        out.append(f"  conforms to: {', '.join(rep.conforms_to) or 'no edition'}")
    for f in rep.findings:
        tag = " (expected)" if f.expected else ""
        clauses = f" [{', '.join(f.clauses)}]" if f.clauses else ""
        out.append(f"  line {f.line}: {click.style(f.code, bold=True)}{clauses}{tag}")
        out.append(f"    {f.message}")
        if f.log is not None:
            out.append(f"    log says:   {json.dumps(f.log, ensure_ascii=False)}")
        if f.rules is not None:
            out.append(f"    rules say:  {json.dumps(f.rules, ensure_ascii=False)}")
        if f.options:
            shown = ", ".join(_fmt_option(o) for o in f.options[:12])
            more = f" (+{len(f.options) - 12} more)" if len(f.options) > 12 else ""
            out.append(f"    legal here: {shown}{more}")
        if f.cards:
            out.append("    cards:      " + ", ".join(f"{c} {n}" for c, n in f.cards.items()))
        if f.diff:
            for kind, changes in f.diff.items():
                for path, change in (changes.items() if isinstance(changes, dict) else enumerate(changes)):
                    out.append(f"    diff {kind}: {path} {json.dumps(change, ensure_ascii=False)}")
    for n in rep.notes:
        if verbose or rep.verdict != "conforms" or rep.outcome == "xpass":
            out.append(click.style(f"  note: {n}", dim=True))
    return "\n".join(out)


def human_summary(summary: dict) -> str:
    parts = [f"{summary['games']} games", f"{summary['conforms']} conform", f"{summary['violates']} violate",
             f"{summary['malformed']} malformed"]
    if summary.get("error"):
        parts.append(f"{summary['error']} not verified (error)")
    if summary.get("xfail") or summary.get("xpass"):
        parts += [f"{summary['xfail']} expected failures", f"{summary['xpass']} unexpected passes"]
    parts.append(f"{summary['decisions']} decisions")
    colour = "green" if summary["exit"] == 0 else ("red" if summary["exit"] == 1 else "yellow")
    return click.style("summary: " + ", ".join(parts), fg=colour, bold=True)


def json_game(rep) -> bytes:
    d = msgspec.to_builtins(rep)
    return _enc.encode({"t": "game", **d})


def json_summary(summary: dict) -> bytes:
    return _enc.encode({"t": "summary", **summary})


def junit(reports: list, summary: dict) -> str:
    suite = ET.Element("testsuite", name="mb-oracle verify", tests=str(summary["games"]),
                       failures=str(summary["violates"]), errors=str(summary["malformed"] + summary.get("error", 0)),
                       skipped=str(summary.get("xfail", 0)))
    for rep in reports:
        case = ET.SubElement(suite, "testcase", classname=rep.file, name=rep.id)
        first = rep.findings[0] if rep.findings else None
        text = human_game(rep)
        if rep.outcome == "xfail":
            ET.SubElement(case, "skipped", message="expected divergence: " + first.code).text = click.unstyle(text)
        elif rep.verdict in ("malformed", "error"):
            ET.SubElement(case, "error", message=f"{first.code} at line {first.line}: {first.message}",
                          type=first.code).text = click.unstyle(text)
        elif rep.verdict == "violates" or rep.outcome == "xpass":
            msg = (f"{first.code} [{', '.join(first.clauses)}] at line {first.line}: {first.message}"
                   if first else "expected divergence did not happen")
            ET.SubElement(case, "failure", message=msg, type=first.code if first else "XPASS").text = click.unstyle(text)
    root = ET.Element("testsuites")
    root.append(suite)
    ET.indent(root)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
