// Mind Up!'s part of the board's page (the BOARD_EDIT part): the position's zones (the players' hands, the
// line, each player's five Score cards, the objectives shown, the round and its Score order) and the board
// as the rules play it: each player's hidden choice one player at a time, then the reveal. Players are
// their seats from 0, lettered A, B, ... as the rules name them.
"use strict";
BOARD_EDITORS["mind-up"] = (() => {
  const K = BOARD_KIT;
  const el = K.el;
  const who = (p) => "player " + String.fromCharCode(65 + p);
  const COLUMNS = 5;

  function player() { return { hand: [], columns: Array.from({ length: COLUMNS }, () => []) }; }
  let OBJECTIVES = [];
  function empty(info) { OBJECTIVES = (info && info.objectives) || OBJECTIVES; return { round: 1, order: [1, 2, 3, 4, 5], line: [], players: [player(), player(), player()], objectives: [] }; }
  function given(pos) {
    const g = { round: pos.round, order: pos.order.slice(), hands: pos.players.map((p) => p.hand.slice()), line: pos.line.slice() };
    if (pos.players.some((p) => p.columns.some((c) => c.length))) {
      g.columns = pos.players.map((p) => {
        const cols = p.columns.map((c) => c.slice());
        while (cols.length && !cols[cols.length - 1].length) cols.pop();
        return cols;
      });
    }
    if (pos.objectives.length) g.objectives = pos.objectives.slice();
    return g;
  }
  function fromGiven(g) {
    const pos = empty();
    const n = (g.hands || []).length || 3;
    pos.players = Array.from({ length: n }, (_, p) => {
      const s = player();
      s.hand = ((g.hands || [])[p] || []).slice();
      ((g.columns || [])[p] || []).forEach((c, j) => { if (j < COLUMNS) s.columns[j] = c.slice(); });
      return s;
    });
    pos.round = g.round || 1;
    pos.order = (g.order || [1, 2, 3, 4, 5]).slice();
    pos.line = (g.line || []).slice();
    pos.objectives = (g.objectives || []).slice();
    return pos;
  }

  // -- the set-up view --
  function cardInfo(n) { return K.state.cards.find((c) => String(key(c)) === String(n)) || {}; }
  function label(n) {
    const c = cardInfo(n);
    const bubble = c.bubble ? (c.bubble > 0 ? " +" : " ") + c.bubble : "";
    return String(n) + (c.colour ? " " + c.colour : "") + bubble;
  }
  function items(list) { return list.map((n, i) => ({ label: label(n), remove: () => list.splice(i, 1) })); }
  const num = (k) => Number(k);
  function drawSetup(pos) {
    const head = el("div", { class: "row" },
      el("label", { class: "num", "data-field": "given.hands" }, "Players ",
        el("select", { onchange: (ev) => { resize(pos, Number(ev.target.value)); K.changed(); } },
          ...[2, 3, 4, 5, 6].map((n) => el("option", { value: n, text: String(n), selected: pos.players.length === n })))),
      K.numberField("given.round", "Round", pos.round, (v) => { pos.round = v; }, 1, 3),
      el("label", { class: "num", "data-field": "given.order" }, "Score order ",
        el("input", { value: pos.order.join(" "), size: 10, "aria-label": "Score order",
          onchange: (ev) => { pos.order = ev.target.value.split(/[\s,]+/).filter(Boolean).map(Number); K.changed(); } })));
    const objectives = el("fieldset", { class: "inline", "data-field": "given.objectives" }, el("legend", { text: "Objectives shown" }),
      ...Array.from({ length: 14 }, (_, i) => i + 1).map((o) => el("label", { title: objective(o) }, el("input", { type: "checkbox",
        checked: pos.objectives.includes(o), onchange: (ev) => {
          if (ev.target.checked) pos.objectives.push(o); else pos.objectives.splice(pos.objectives.indexOf(o), 1);
          K.changed(); } }), " " + o)));
    const line = K.dropZone("given.line", "The line", items(pos.line), (k) => pos.line.push(num(k)));
    const players = pos.players.map((s, p) => {
      const f = "given.hands[" + p + "]";
      const cols = el("div", { class: "mucols" }, ...s.columns.map((c, j) => K.dropZone("given.columns[" + p + "][" + j + "]",
        who(p) + " Score card " + (j + 1), items(c), (k) => c.push(num(k)), { small: true })));
      return el("section", { class: "muplayer", "aria-label": who(p) }, el("strong", { text: who(p) }),
        K.dropZone(f, who(p) + " hand", items(s.hand), (k) => s.hand.push(num(k))), cols);
    });
    return [head, objectives, line, ...players];
  }
  function objective(o) {
    const x = OBJECTIVES.find((y) => y.id === o);
    return x ? "objective " + o + " (" + x.letter + ", " + (x.value > 0 ? "+" : "") + x.value + "): " + x.condition : "objective " + o;
  }
  function resize(pos, n) {
    while (pos.players.length < n) pos.players.push(player());
    pos.players.length = n;
  }

  // -- the board as the rules play it --
  function card(n, extra) {
    const t = label(n) + (extra ? ", " + extra : "");
    return el("div", { class: "bcard mu", role: "listitem", "aria-label": "card " + t, title: t }, el("span", { class: "name", text: label(n) }),
      extra ? el("span", { class: "tag", text: extra }) : null);
  }
  function cards(title, list) {
    return el("div", { class: "zone" }, el("div", { class: "zname", text: title + " (" + list.length + ")" }),
      el("div", { class: "dz", role: "list", "aria-label": title }, ...list.map((n) => card(n))));
  }
  function drawBoard(b) {
    const out = [el("div", { class: "stats" }, el("span", { text: "Round " + b.round + " · turn " + b.turn }),
      el("span", { text: "Score order " + (b.order || []).join("-") }),
      ...(b.objectives || []).map((o) => el("span", { class: "tag", text: objective(o) })))];
    const line = el("div", { class: "dz", role: "list", "aria-label": "The line" });
    (b.line || []).forEach((n, k) => {
      const u = (b.under || [])[k];
      line.append(card(n, u ? "taken by " + who(u[1]) + " with " + u[0] : ""));
    });
    out.push(el("div", { class: "zone" }, el("div", { class: "zname", text: "The line" }), line));
    (b.players || []).forEach((s, p) => {
      const cols = (s.columns || []).map((c, j) => cards("Score card " + (j + 1) + (b.order && b.order[j] ? " (×" + b.order[j] + ")" : ""), c));
      out.push(el("section", { class: "muplayer", "aria-label": who(p) },
        el("div", { class: "stats" }, el("strong", { text: who(p) }),
          el("span", { text: "rounds " + ((s.rounds || []).join(" + ") || "none yet") }),
          el("span", { text: "score " + (s.score || 0) }),
          s.chosen !== null && s.chosen !== undefined && s.chosen !== false ? el("span", { class: "tag", text: "has chosen (face down)" }) : null),
        cards(who(p) + " hand", s.hand || []), el("div", { class: "mucols" }, ...cols)));
    });
    return out;
  }

  // The hidden choices: one player at a time, the first still to choose; the reveal follows the last.
  function playerOf(o) { return o.player !== undefined ? o.player : o.decision && o.decision.p; }
  function optionGroups(p) {
    const players = p.players || [];
    const opts = p.options || [];
    if (p.kind === "round" && opts.length) {
      // chance: the next round's Score order, 1 to 5 unless written otherwise (the rules check it)
      const d = opts[0].decision;
      const order = el("input", { value: (d.order || []).join(" "), size: 10, "aria-label": "the new round's Score order" });
      const made = () => Object.assign({}, d, { order: order.value.split(/[\s,]+/).filter(Boolean).map(Number) });
      return [{ title: "", extra: [el("label", {}, "Score order ", order)],
        options: [{ words: "start round " + (p.round || "") + " with this Score order", decision: d, make: made }] }];
    }
    if (!players.length) return [{ title: "", options: opts }];
    const first = players[0];
    const mine = opts.filter((o) => playerOf(o) === first);
    const rest = players.slice(1).map(who).join(", ");
    return [{ title: who(first) + " chooses a card, face down" + (rest ? " (then " + rest + "; the cards are revealed after the last)" :
      " (the last: the cards are revealed)"), options: mine.length ? mine : opts }];
  }
  function pendingWho(p) {
    const players = p.players || [];
    const kind = p.kind || p.stage || "";
    if (kind === "choose" && players.length) return "Waiting for a hidden choice from " + players.map(who).join(", ");
    if (kind === "round") return "Chance: the next round's Score order";
    return kind;
  }
  const key = (c) => (c.number !== undefined ? c.number : Number(c.name));
  return {
    empty, given, fromGiven, drawSetup, drawBoard, optionGroups, who: pendingWho,
    cardKey: key,
    cardLabel: (c) => label(key(c)),
    result: (o) => (o.winners || []).map(who).join(" and ") + ((o.winners || []).length > 1 ? " share the victory" : " wins") +
      (o.scores ? " (" + o.scores.join(", ") + ")" : ""),
  };
})();
