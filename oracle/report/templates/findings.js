  // The page's script, part 3 of 4 (see app.js): a game's findings, their two sides and their differences.
  function markedCards(f) {
    const ids = new Set();
    for (const e of f.diff || []) if (typeof e.card === "number") ids.add(e.card);
    for (const side of [f.log, f.rules]) {
      if (side && typeof side === "object") {
        for (const k of ["card", "blocker"]) if (typeof side[k] === "number") ids.add(side[k]);
        if (Array.isArray(side.cards)) for (const c of side.cards) if (typeof c === "number") ids.add(c);
      }
    }
    return ids;
  }
  function findingEl(f, k, d, i) {
    const rep = d.report;
    const head = el("div", { class: "head" }, f.code + (f.line ? " at line " + f.line : ""),
      f.count > 1 ? " (found " + f.count + " times)" : "", f.expected ? " (expected)" : "",
      f.basis === "reading" ? " — only under a team reading" : "");
    const box = el("li", { class: "finding" + (["BAD_JSON", "BAD_LINE", "UNKNOWN_LINE_TYPE", "BAD_VERSION", "UNKNOWN_CARD",
      "UNKNOWN_EDITION", "UNSUPPORTED_SET", "MISSING_SETUP", "LINE_OUTSIDE_GAME", "MISSING_END", "EMPTY_INPUT",
      "BAD_REFERENCE", "UNREADABLE", "UNKNOWN_FIELD", "TOO_LARGE", "SCENARIO_ERROR"].includes(f.code) ? " malformed" : ""),
      id: "g" + i + "-f" + k }, head, el("p", { class: "msg", text: f.message }));
    const acts = el("div", {});
    if (d.steps) acts.append(el("button", { type: "button", onclick: () => go(d.at[k]),
      "aria-label": "Show finding " + (k + 1) + " on the board (step " + d.at[k] + ")", text: "Show on the board (step " + d.at[k] + ")" }), " ");
    if (d.log && f.line) acts.append(el("a", { href: "#g" + i + "-L" + f.line, onclick: (ev) => { ev.preventDefault(); showLine(f.line); },
      text: (d.kind === "scenario" ? "scenario line " : "log line ") + f.line }));
    else acts.append(el("span", { class: "note", text: rep.file + (f.line ? ":" + f.line : "") }));
    box.append(acts);
    for (const cid of f.clauses) box.append(clauseBlock(cid));
    if (f.basis === "reading" && f.reading)
      box.append(el("p", { class: "note", text: "Under the team reading " + Object.entries(f.reading).map(([a, b]) => a + "=" + b).join(", ") +
        (f.alternatives && f.alternatives.length ? "; accepted under: " + f.alternatives.join(", ") : "") }));
    if (f.log !== undefined || f.rules !== undefined) {
      const mark = markedCards(f);
      const rulesSide = (f.rules === null || f.rules === undefined) && f.options && f.options.length ?
        optionsEl("The rules", f) : sideEl("The rules", f.rules, f, mark, boardOf(gameOf(d)));
      box.append(el("div", { class: "sides" },
        sideEl(d.kind === "scenario" ? "The scenario expects" : "The log", f.log, f, mark, boardOf(gameOf(d))), rulesSide));
    }
    if (f.diff && f.diff.length) {
      const cards = f.diff.filter(isCardEntry), others = f.diff.filter((e) => !isCardEntry(e));
      if (cards.length) box.append(diffTable(cards, "Differences, card by card", "difference", d.kind, (e) => e.text));
      if (others.length) box.append(diffTable(others, "Differences, field by field", "field", d.kind, (e) =>
        d.kind === "scenario" ? el("code", { text: e.field }) :
          el("span", {}, el("code", { text: e.field }), el("br"), el("span", { class: "note", text: e.text }))));
    }
    if (f.options && f.options.length)
      box.append(el("details", {}, el("summary", { text: "Legal options the rules gave (" + f.options.length + ")" }),
        el("pre", { text: f.options.map((o) => JSON.stringify(o)).join("\n") })));
    if (f.events && f.events.length)
      box.append(el("details", { open: d.kind === "scenario" && !d.steps }, el("summary", { text: (d.kind === "scenario" ?
        "What happened at the step that failed (" : "What the rules did since log and rules last agreed (") + f.events.length + ")" }),
        el("ol", { class: "events" }, ...f.events.map((e) => el("li", {}, e.text, " ", ...e.clauses.map(chip))))));
    return box;
  }
  // A finding's differences: those about one card (verify's entries without
  // a field, a scenario's about one card) card by card; the others (a
  // player's life, the line, the winners) field by field, each with its field.
  function isCardEntry(e) { return e.field === undefined || e.field === null || typeof e.card === "number"; }
  function diffTable(entries, caption, first, kind, head) {
    const t = el("table", { class: "diff" }, el("caption", { class: "note", text: caption }),
      el("tr", {}, el("th", { scope: "col", text: first }), el("th", { scope: "col", text: kind === "scenario" ? "expected" : "the log" }),
        el("th", { scope: "col", text: "the rules" })));
    for (const e of entries) t.append(el("tr", {}, el("td", {}, head(e)),
      el("td", { class: "mono", text: shownValue(e.log) }), el("td", { class: "mono", text: shownValue(e.rules) })));
    return t;
  }
  // A value of a difference: text as it is, anything else (a number, a list) as JSON.
  function shownValue(v) { return typeof v === "string" ? v : pretty(v === undefined ? null : v); }
  // The rules' side of a finding that says only which decisions were
  // legal (ILLEGAL_DECISION): those decisions in words, "block: none".
  function cardWords(id, names) {
    const name = names && names[id];
    return name ? name + " (" + id + ")" : "card " + id;
  }
  function optionWords(o, names) {
    const who = typeof o.p === "number" ? "player " + o.p + ": " : "";
    const many = Array.isArray(o.cards) ? o.cards : Array.isArray(o.card) ? o.card : null;
    if (many) return who + o.t + " " + (many.length ? many.map((c) => cardWords(c, names)).join(", ") : "nothing");
    if (o.t === "mindbug" || o.t === "pass") return who + o.t;
    if (o.card === null || o.card === undefined) return who + o.t + ": none";
    return who + o.t + " " + cardWords(o.card, names);
  }
  function optionsEl(title, f) {
    return el("div", {}, el("h4", { text: title }),
      el("div", { class: "zname", text: "Legal here (" + f.options.length + ")" }),
      el("ul", { class: "opts legal" }, ...f.options.map((o) => el("li", { text: optionWords(o, f.cards) }))));
  }
  // One side of a finding: zones given as two lists of cards (one per
  // player) drawn as cards, every other field as JSON; the whole as JSON too.
  const ZONES = { hand: "hand", play: "play area", discard: "discard pile", deck: "draw pile", life_pile: "life cards" };
  function isCard(c) { return typeof c === "number" || (c && typeof c === "object" && typeof c.card === "number"); }
  function sideEl(title, v, f, mark, board) {
    const box = el("div", {}, el("h4", { text: title }));
    if (v && typeof v === "object" && !Array.isArray(v)) {
      const rest = {};
      for (const [k, val] of Object.entries(v)) {
        if (board.claimCard && Array.isArray(val) && val.length === 2 && val.every((z) => Array.isArray(z) && z.every(isCard))) {
          for (const p of [0, 1]) {
            const cards = el("div", { class: "cards", role: "list", "aria-label": title + ": " + (ZONES[k] || k) + " of player " + p });
            for (const c of val[p]) {
              const id = typeof c === "number" ? c : c.card;
              const o = { small: true, exhausted: typeof c === "object" && !!c.exhausted, mark: mark, names: f.cards };
              if (typeof c === "object" && typeof c.power === "number") o.power = c.power;
              // An evolved creature as the side shows it: the face of its stage.
              if (typeof c === "object" && typeof c.face === "string" && c.stage > 1) { o.face = c.face; o.stage = c.stage; }
              cards.append(board.claimCard(id, o));
            }
            if (!val[p].length) cards.append(el("span", { class: "note", text: "none" }));
            box.append(el("div", { class: "zone" }, el("div", { class: "zname", text: (ZONES[k] || k) + " of player " + p }), cards));
          }
        } else rest[k] = val;
      }
      if (Object.keys(rest).length) box.append(el("pre", { text: pretty(rest) }));
      box.append(el("details", {}, el("summary", { text: "as JSON" }), el("pre", { text: pretty(v) })));
    } else box.append(el("pre", { text: pretty(v === undefined ? null : v) }));
    return box;
  }
