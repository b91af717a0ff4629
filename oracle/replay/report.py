"""Rendering verdicts for people (a terminal) and for tools (JSON Lines);
JUnit XML is written by `oracle.replay.outputs` with `oracle.junit`."""

from __future__ import annotations

import msgspec

from ..term import json_encode_visible, plural, style, visible
from .findings import DUPLICATE_KEYS_NOTE, DUPLICATE_NOTE, LINE_TEXT, NO_REVEALS_NOTE, UNKNOWN_FIELDS_NOTE

_enc = msgspec.json.Encoder()

MARK = {"conforms": ("ok", "green"), "violates": ("VIOLATES", "red"), "malformed": ("MALFORMED", "yellow"),
        "error": ("ERROR", "red")}


def _fmt_option(o: dict) -> str:
    t = o["t"]
    if "hand" in o:         # a simultaneous choice (Mind Up!): the cards one player may choose
        return f"{t} player {chr(ord('A') + o['p'])} {o['hand']}"
    if "cards" in o:
        return f"{t} {o['cards']}"
    if "card" in o:
        return f"{t} {o['card'] if o['card'] is not None else 'null'}"
    if "round" in o:        # the next round's start (Mind Up!)
        return f"{t} {o['round']}"
    return t


# A line of the human report quotes values from the log (a claim, a card
# name, an id, a note): one of a hostile size is cut there, with what was
# left out counted. The JSON report keeps every value whole.
HUMAN_TEXT_MAX = 2000


def _cap(text: str) -> str:
    """A line of the report that quotes the log: escaped (`visible`) and cut."""
    text = visible(text)
    if len(text) <= HUMAN_TEXT_MAX:
        return text
    return f"{text[:HUMAN_TEXT_MAX]}... ({len(text) - HUMAN_TEXT_MAX:,} more characters: --format json has them all)"


def unknown_fields_note(note: str) -> bool:
    """Notes on fields mb-replay/1 does not define, on keys a line gives
    twice, and on an id an earlier game of the run has, are shown for
    every game."""
    rest = note.split(": ", 1)[-1]
    return (rest.startswith(UNKNOWN_FIELDS_NOTE) or rest.startswith(DUPLICATE_KEYS_NOTE)
            or note.startswith(DUPLICATE_NOTE))


def _team(clause: str) -> str | None:
    """The team's choice of a reading, of whichever game's readings name the clause."""
    from .. import games

    for name in games.GAMES:
        for r in games.entry(name).all_readings():
            if r.clause == clause:
                return r.team
    return None


def human_game(rep, verbose: bool = False, side: str = "log") -> str:
    """A game's report in words; `side`: what the rules are compared with
    (a log for verify, the engine for conform), named in the finding's rows."""
    label, colour = MARK[rep.verdict]
    if rep.outcome == "xfail":
        label, colour = "xfail", "cyan"
    elif rep.outcome == "xpass":
        label, colour = "XPASS", "magenta"
    head = f"{style(f'{label:<9}', fg=colour, bold=rep.verdict != 'conforms')} {_cap(rep.id)}"
    # Every text from the input goes through _cap: ids, names, messages, notes.
    where = f"{_cap(rep.file)}:{rep.line}"
    game = f"{_cap(rep.game)} " if isinstance(rep.game, str) else ""
    info = f"  [{game}{_cap(rep.edition or '?')}, {plural(rep.decisions, 'decision')}]  {where}"
    out = [head + style(info, dim=True)]
    if rep.readings:
        out.append(_cap("  readings: " + ", ".join(f"{c}={v}" for c, v in rep.readings.items())))
    if rep.conforms_to is not None:
        out.append(_cap(f"  conforms to: {', '.join(rep.conforms_to) or 'no edition'}"))
    if rep.consistent_with is not None:
        shown = [c["edition"] + "".join(f" {k}={v}" for k, v in c["readings"].items()) for c in rep.consistent_with]
        out.append(_cap(f"  consistent with: {'; '.join(shown) or 'no edition and readings'}"))
    for f in rep.findings:
        tag = " (expected)" if f.expected else ""
        clauses = f" [{', '.join(f.clauses)}]" if f.clauses else ""
        shown = ", ".join(map(str, f.lines[:20])) + (", ..." if len(f.lines) > 20 else "")
        again = f" (found {f.count} times, at lines {shown})" if f.count > 1 else ""
        out.append(f"  line {f.line}: {style(_cap(f.code), bold=True)}{_cap(clauses)}{tag}{again}")
        out.append(_cap(f"    {f.message}"))
        if f.basis == "reading" and f.reading:
            r = f.reading
            whose = "the team's reading" if _team(r["clause"]) == r["choice"] else "the reading"
            out.append(_cap(f"    only under {whose} {r['clause']}={r['choice']}; "
                            f"the rules accept this line under {' or '.join(f.alternatives)}"))
        elif f.under:
            out.append(_cap("    found under " + ", ".join(f"{c}={v}" for c, v in f.under.items())
                            + ", the reading under which the game's earlier lines conform"))
        if f.log is not None or f.rules is not None:
            import json         # a divergence's values as JSON: loaded when one is first shown (start-up)

            if f.log is not None:
                said = f"{side} says:"
                # The text of a line that could not be read is shown as the
                # log wrote it (_cap escapes its control characters only).
                shown = f.log if f.code in LINE_TEXT and isinstance(f.log, str) else json.dumps(f.log, ensure_ascii=False)
                out.append(_cap(f"    {said}{' ' * max(1, 12 - len(said))}{shown}"))
            if f.rules is not None:
                out.append(_cap(f"    rules say:  {json.dumps(f.rules, ensure_ascii=False)}"))
        if f.options:
            shown = ", ".join(_fmt_option(o) for o in f.options[:12])
            more = f" (+{len(f.options) - 12} more)" if len(f.options) > 12 else ""
            out.append(_cap(f"    legal here: {shown}{more}"))
        if f.cards:
            out.append(_cap("    cards:      " + ", ".join(f"{c} {n}" for c, n in f.cards.items())))
        for e in f.diff or ():
            out.append(_cap(f"    differs:    {e.text}"))
        if f.events:
            out.append(f"    the rules did, since {side} and rules last agreed:")
            out.extend(_cap(f"      {e.text} [{', '.join(e.clauses)}]") for e in f.events)
    for n in rep.notes:
        if verbose or (rep.verdict != "conforms" or rep.outcome == "xpass") and n != NO_REVEALS_NOTE \
                or unknown_fields_note(n):
            out.append(style(_cap(f"  note: {n}"), dim=True))
    return "\n".join(out)


def human_summary(summary) -> str:
    """The closing line: the verdicts, then the outcomes that differ from them."""
    s = summary
    verdicts = [f"{s.conforms:,} {'conforms' if s.conforms == 1 else 'conform'}",
                f"{s.violates:,} {'violates' if s.violates == 1 else 'violate'}", f"{s.malformed:,} malformed"]
    if s.error:
        verdicts.append(f"{s.error:,} not verified (error)")
    text = f"summary: {plural(s.games, 'game')}: " + ", ".join(verdicts)
    extra = []
    if s.xfail or s.xpass:
        extra += [plural(s.xfail, "expected failure"), plural(s.xpass, "unexpected pass", "unexpected passes")]
    if s.reading_only:
        extra.append(f"{s.reading_only:,} of the violations only under a team reading")
    if s.aborted:
        extra.append(f"{s.aborted:,} aborted by the implementation")
    if s.stale:
        extra.append(plural(len(s.stale), "stale expectation") + (" (failing: --strict-expect)" if s.strict_expect
                                                                    else ""))
    if extra:
        text += "; " + ", ".join(extra)
    text += f"; {plural(s.decisions, 'decision')}"
    colour = "green" if s.exit == 0 else ("red" if s.exit == 1 else "yellow")
    return style(text, fg=colour, bold=True)


def stale_warning(st) -> str:
    """One line per stale expectation, like a compiler warning."""
    what = f"{st.code} [{st.clause or '*'}]" + (f" game {st.game}" if st.game else "") + \
        (f" edition {st.edition}" if st.edition else "")
    return visible(f"{st.file}:{st.line}: warning: stale expectation {what}: {st.reason}")


def statistics(stats) -> str:
    """Findings by code and by clause, most frequent first (`--statistics`)."""
    width = len(f"{max([*stats.by_code.values(), *stats.by_clause.values(), 1]):,}")
    out = [f"findings by code ({plural(stats.findings, 'finding')}, {stats.expected:,} expected):"]
    out += [f"  {n:>{width},}  {code}" for code, n in stats.by_code.items()] or ["  (none)"]
    out.append("findings by clause (the most specific clause of each):")
    out += [f"  {n:>{width},}  {clause}" for clause, n in stats.by_clause.items()] or ["  (none)"]
    return "\n".join(map(visible, out))


def _game_line(obj) -> bytes:
    """A game's report line: `obj` (the report, or its builtins) encoded,
    with `"t":"game"` first. The report is encoded as it stands, without
    being made into builtins first (the same bytes: msgspec writes a
    Struct's fields in order, as `to_builtins` lists them)."""
    return b'{"t":"game",' + _enc.encode(obj)[1:]


def json_game(rep) -> bytes:
    return json_encode_visible(_game_line, rep)


def json_summary(summary) -> bytes:
    return json_encode_visible(_enc.encode, {"t": "summary", **msgspec.to_builtins(summary)})
