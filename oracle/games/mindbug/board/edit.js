// Mindbug's part of the board's page (the BOARD_EDIT part): the position's zones (each player's hand, play
// area, discard pile and draw pile, the unused pile; life, Mindbugs, whose turn, exhausted creatures and, where
// the sets have them, Octonite counters, stages and boost cards) and the board as the rules play it.
"use strict";
BOARD_EDITORS.mindbug = (() => {
  const K = BOARD_KIT;
  const el = K.el;
  const ZONES = [["hand", "hand"], ["play", "play area"], ["discard", "discard pile"], ["deck", "draw pile (top first)"]];
  const FIRST_SETS = ["first-contact", "new-servants"];
  const later = () => K.sets().some((s) => !FIRST_SETS.includes(s));
  const base = (name) => String(name).replace(/#\d+$/, "");

  function side() { return { life: 3, mindbugs: 2, hand: [], play: [], discard: [], deck: [] }; }
  function empty() { return { active: 0, turn: 1, players: [side(), side()], unused: [] }; }
  function creature(c) { return typeof c === "string" ? { card: c, exhausted: false, octonite: null, stage: 1, boosts: [] } :
    { card: c.card, exhausted: !!c.exhausted, octonite: c.octonite === undefined ? null : c.octonite, stage: c.stage || 1,
      boosts: (c.boosts || []).slice() }; }

  // Every name placed, so a second copy of a card is written Name#2 (as scenarios write it).
  function names(pos) {
    const out = new Set(pos.unused);
    for (const p of pos.players) {
      for (const z of ["hand", "discard", "deck"]) for (const n of p[z]) out.add(n);
      for (const c of p.play) { out.add(c.card); for (const b of c.boosts) out.add(b); }
    }
    return out;
  }
  function copyName(pos, name) {
    const used = names(pos);
    if (!used.has(name)) return name;
    let n = 2;
    while (used.has(name + "#" + n)) n++;
    return name + "#" + n;
  }

  function given(pos) {
    const g = { players: pos.players.map((p) => {
      const out = {};
      if (p.life !== 3) out.life = p.life;
      if (p.mindbugs !== 2) out.mindbugs = p.mindbugs;
      for (const [z] of ZONES) if (p[z].length) out[z] = z === "play" ? p.play.map(written) : p[z].slice();
      return out;
    }) };
    if (pos.active) g.active = pos.active;
    if (pos.turn !== 1) g.turn = pos.turn;
    if (pos.unused.length) g.unused = pos.unused.slice();
    return g;
  }
  function written(c) {
    const out = { card: c.card };
    if (c.exhausted) out.exhausted = true;
    if (c.octonite !== null) out.octonite = c.octonite;
    if (c.stage > 1) out.stage = c.stage;
    if (c.boosts.length) out.boosts = c.boosts.slice();
    return Object.keys(out).length === 1 ? c.card : out;
  }
  function fromGiven(g) {
    const pos = empty();
    (g.players || []).forEach((p, i) => {
      const s = pos.players[i];
      if (!s) return;
      if (p.life !== undefined) s.life = p.life;
      if (p.mindbugs !== undefined) s.mindbugs = p.mindbugs;
      for (const z of ["hand", "discard", "deck"]) s[z] = (p[z] || []).slice();
      s.play = (p.play || []).map(creature);
    });
    pos.active = g.active || 0;
    pos.turn = g.turn || 1;
    pos.unused = (g.unused || []).slice();
    return pos;
  }

  // -- the set-up view --
  function drawSetup(pos) {
    const head = el("div", { class: "row" },
      el("fieldset", { class: "inline", "data-field": "given.active" }, el("legend", { text: "Whose turn" }),
        ...[0, 1].map((p) => el("label", {}, el("input", { type: "radio", name: "mb-active", value: String(p),
          checked: pos.active === p, onchange: () => { pos.active = p; K.changed(); } }), " player " + p))),
      K.numberField("given.turn", "Turn", pos.turn, (v) => { pos.turn = v; }, 1, 999));
    const sides = [1, 0].map((p) => drawSide(pos, p));
    const unused = K.dropZone("given.unused", "Unused pile (top first; empty: every card placed nowhere)",
      pos.unused.map((n, i) => ({ label: n, remove: () => pos.unused.splice(i, 1) })),
      (key) => pos.unused.push(copyName(pos, key)), { small: true });
    return [head, sides[0], unused, sides[1]];
  }
  function drawSide(pos, p) {
    const s = pos.players[p];
    const f = "given.players[" + p + "]";
    const stats = el("div", { class: "stats" }, el("strong", { text: "Player " + p + (pos.active === p ? " (their turn)" : "") }),
      K.numberField(f + ".life", "life", s.life, (v) => { s.life = v; }, 0, 99),
      K.numberField(f + ".mindbugs", "Mindbugs", s.mindbugs, (v) => { s.mindbugs = v; }, 0, 2));
    const zones = ZONES.map(([z, title]) => K.dropZone(f + "." + z, "Player " + p + " " + title,
      z === "play" ? s.play.map((c, i) => ({ el: drawCreature(pos, s, c, i, f + ".play[" + i + "]") })) :
        s[z].map((n, i) => ({ label: n, remove: () => s[z].splice(i, 1) })),
      (key) => { const n = copyName(pos, key); if (z === "play") s.play.push(creature(n)); else s[z].push(n); },
      { small: z !== "play" && z !== "hand" }));
    return el("section", { class: "side p" + p + (pos.active === p ? " active" : ""), "data-field": f,
      "aria-label": "Player " + p }, stats, ...zones);
  }
  function drawCreature(pos, s, c, i, f) {
    const extra = [el("label", { class: "flag", "data-field": f + ".exhausted" }, el("input", { type: "checkbox",
      checked: c.exhausted, "aria-label": "exhausted", onchange: (ev) => { c.exhausted = ev.target.checked; K.changed(); } }),
    " exhausted")];
    if (later() || c.octonite !== null || c.stage > 1 || c.boosts.length) {
      extra.push(el("label", { class: "num", "data-field": f + ".octonite" }, "Octonite ",
        el("input", { type: "number", min: 0, max: 99, value: c.octonite === null ? "" : c.octonite,
          onchange: (ev) => { c.octonite = ev.target.value === "" ? null : Number(ev.target.value); K.changed(); } })));
      extra.push(el("label", { class: "num", "data-field": f + ".stage" }, "stage ",
        el("select", { onchange: (ev) => { c.stage = Number(ev.target.value); K.changed(); } },
          ...[1, 2, 3].map((n) => el("option", { value: n, selected: c.stage === n, text: ["I", "II", "III"][n - 1] })))));
      extra.push(K.dropZone(f + ".boosts", "boost cards under " + c.card,
        c.boosts.map((n, j) => ({ label: n, remove: () => c.boosts.splice(j, 1) })),
        (key) => c.boosts.push(copyName(pos, key)), { small: true }));
    }
    return K.placed(f, c.card, c.card + (c.exhausted ? ", exhausted" : ""), () => s.play.splice(i, 1), extra);
  }

  // -- the board as the rules play it --
  function cardOf(b, c) {
    const names = b.cards || b.names || {};
    if (Array.isArray(c)) return { id: c[0], name: names[String(c[0])], power: c[1], exhausted: !!c[3], octonite: c[4] || 0 };
    if (typeof c === "number") return { id: c, name: names[String(c)] };
    if (typeof c === "string") return { name: c };
    return Object.assign({}, c, { name: c.name || c.card || names[String(c.id)] });
  }
  function shown(b, c) {
    const x = cardOf(b, c);
    const label = (x.name || "card") + (x.id !== undefined ? " (" + x.id + ")" : "") +
      (x.power !== undefined ? ", power " + x.power : "") + (x.exhausted ? ", exhausted" : "") +
      (x.octonite ? ", " + x.octonite + " Octonite" : "") + (x.stage > 1 ? ", stage " + ["I", "II", "III"][x.stage - 1] : "") +
      ((x.boosts || []).length ? ", " + x.boosts.length + " boost" : "");
    return el("div", { class: "bcard" + (x.exhausted ? " exhausted" : ""), role: "listitem", "aria-label": label, title: label },
      el("span", { class: "name", text: x.face || x.name || "card " + x.id }),
      x.power !== undefined ? el("span", { class: "power", text: String(x.power) }) : null,
      x.exhausted ? el("span", { class: "tag", text: "exhausted" }) : null,
      x.octonite ? el("span", { class: "tag", text: x.octonite + " Octonite" }) : null,
      x.stage > 1 ? el("span", { class: "tag", text: "stage " + ["I", "II", "III"][x.stage - 1] }) : null,
      (x.boosts || []).length ? el("span", { class: "tag", text: "boosts: " + x.boosts.map((y) => cardOf(b, y).name).join(", ") }) : null);
  }
  const at = (v, p) => (Array.isArray(v) ? v[p] : v);
  function zoneOf(b, key, p) {
    if (b.players && b.players[p]) return b.players[p][key];
    return at(b[key], p);
  }
  function bzone(b, title, cards) {
    const list = Array.isArray(cards) ? cards : [];
    const n = Array.isArray(cards) ? cards.length : cards || 0;
    return el("div", { class: "zone" }, el("div", { class: "zname", text: title + " (" + n + ")" }),
      el("div", { class: "dz", role: "list", "aria-label": title }, ...list.map((c) => shown(b, c))));
  }
  function drawBoard(b) {
    const sideOf = (p) => el("section", { class: "side p" + p + (b.active === p ? " active" : ""), "aria-label": "Player " + p },
      el("div", { class: "stats" }, el("strong", { text: "Player " + p + (b.active === p ? " (their turn)" : "") }),
        el("span", { text: "life " + zoneOf(b, "life", p) }), el("span", { text: "Mindbugs " + zoneOf(b, "mindbugs", p) })),
      bzone(b, "Player " + p + " play area", zoneOf(b, "play", p)),
      bzone(b, "Player " + p + " hand", zoneOf(b, "hand", p)),
      bzone(b, "Player " + p + " discard pile", zoneOf(b, "discard", p)),
      bzone(b, "Player " + p + " draw pile", zoneOf(b, "deck", p)));
    const mid = el("div", { class: "middle" }, el("span", { text: "Turn " + (b.turn || 1) }));
    if (b.played !== null && b.played !== undefined) mid.append(el("div", {}, "Waiting for the Mindbug decision on ", shown(b, b.played)));
    return [sideOf(1), mid, sideOf(0)];
  }

  function who(p) {
    const players = p.players || (p.player === null || p.player === undefined ? [] : [p.player]);
    const stage = p.stage || p.kind || "";
    return players.length ? "Player " + players.join(", ") + " decides: " + stage : "Chance decides: " + stage;
  }
  return {
    empty, given, fromGiven, drawSetup, drawBoard, who,
    cardKey: (c) => c.name,
    cardLabel: (c) => c.name,
    result: (o) => "player " + o.winner + " wins (" + o.reason + ")",
  };
})();
