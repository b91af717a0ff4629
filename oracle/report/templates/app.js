"use strict";
(function () {
  const DATA = JSON.parse(document.getElementById("page-data").textContent);
  const INDEX = JSON.parse(document.getElementById("game-index").textContent);
  const ROWS = INDEX.rows;   // [id, verdict, codes, clauses, cards, board, file, line, outcome, edition, decisions, data]
  const list = document.getElementById("game-list");
  const more = document.getElementById("more");
  const detail = document.getElementById("detail");
  const shown = document.getElementById("shown");
  const PAGE = 500;          // rows drawn at a time; "Show more" draws the next ones
  let matching = [];         // indices of the games that match the filters
  let drawn = 0;
  const STAGES = { action: "turn action", mindbug: "Mindbug decision", frenzy: "FRENZY: a second attack or not",
    hunt: "HUNTER: the creature that must block", block: "block decision", choose: "choice for an effect",
    order: "order of the waiting effects", random: "random outcome" };
  const IMPLIED = "not written on this line: a decision with one legal option the log left out, " +
    "or an answer the log gave before the rules asked";
  let game = null;      // the open game: {i, data, step}

  // -- small DOM helpers (text only: nothing from a log is ever parsed as HTML) --
  // Text shown as the page's server-drawn parts show it (oracle.term.visible):
  // each character a browser or a terminal would act on or hide (Unicode
  // categories Cc, Cf, Zl, Zp and Cs; the newline is kept) as a visible escape.
  const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;
  function visible(s) {
    return String(s).replace(HIDDEN, (c) => {
      if (c === "\n") return c;
      const n = c.codePointAt(0), h = n.toString(16);
      return n < 0x100 ? "\\x" + h.padStart(2, "0") : n < 0x10000 ? "\\u" + h.padStart(4, "0") : "\\U" + h.padStart(8, "0");
    });
  }
  function el(tag, attrs, ...kids) {
    const e = document.createElement(tag);
    if (attrs) for (const [k, v] of Object.entries(attrs)) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") e.className = v; else if (k === "text") e.textContent = visible(v);
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v === true ? "" : typeof v === "string" ? visible(v) : v);
    }
    for (const k of kids) if (k !== null && k !== undefined) e.append(typeof k === "string" ? visible(k) : k);
    return e;
  }
  // JSON with lists of plain values on one line: [1, 2, 3]
  function pretty(v, pad) {
    pad = pad || "";
    if (Array.isArray(v)) {
      if (v.every((x) => x === null || typeof x !== "object")) return "[" + v.map((x) => JSON.stringify(x)).join(", ") + "]";
      return "[\n" + v.map((x) => pad + "  " + pretty(x, pad + "  ")).join(",\n") + "\n" + pad + "]";
    }
    if (v && typeof v === "object") {
      const keys = Object.keys(v);
      if (!keys.length) return "{}";
      const flat = keys.every((k) => v[k] === null || typeof v[k] !== "object");
      const line = "{" + keys.map((k) => JSON.stringify(k) + ": " + JSON.stringify(v[k])).join(", ") + "}";
      if (flat && line.length <= 60) return line;
      return "{\n" + keys.map((k) => pad + "  " + JSON.stringify(k) + ": " + pretty(v[k], pad + "  ")).join(",\n") + "\n" + pad + "}";
    }
    return JSON.stringify(v === undefined ? null : v);
  }
  const plural = (n, w) => n + " " + w + (n === 1 ? "" : "s");

  // -- the game list and its filters --
  const fields = ["verdict", "code", "clause", "card", "id"].map((k) => document.getElementById("f-" + k));
  const designIndex = new Map(DATA.design_names.map((n, k) => [n.toLowerCase(), k]));
  function rowEl(i) {
    const r = ROWS[i];
    const b = el("button", { type: "button", class: "open", "data-i": i, "aria-controls": "detail" },
      el("span", { class: "badge v-" + r[1], text: r[1] }), " ", el("span", { class: "gid", text: r[0] }));
    if (r[2].length) b.append(" ", el("span", { class: "codes", text: r[2].join(", ") }));
    if (!r[5]) b.append(" ", el("span", { class: "noboard", title: "the page draws boards for a limited number of games; "
      + "open the game to see how to draw this one", text: "no board" }));
    return el("li", { class: "row v-" + r[1] + (game && game.i === i ? " current" : ""), "data-verdict": r[1] }, b);
  }
  function drawMore() {
    const frag = document.createDocumentFragment();
    const end = Math.min(matching.length, drawn + PAGE);
    for (; drawn < end; drawn++) frag.append(rowEl(matching[drawn]));
    list.append(frag);
    more.hidden = drawn >= matching.length;
    more.textContent = "Show more games (" + (matching.length - drawn) + " not shown yet)";
  }
  function applyFilters() {
    const [v, code, clause, card, id] = fields.map((f) => f.value.trim());
    const cardKey = card.toLowerCase();
    let cards = null;
    if (cardKey) {
      cards = new Set();
      designIndex.forEach((k, n) => { if (n.includes(cardKey)) cards.add(k); });
    }
    const idKey = id.toLowerCase();
    matching = [];
    for (let i = 0; i < ROWS.length; i++) {
      const r = ROWS[i];
      if ((!v || r[1] === v) && (!code || r[2].includes(code)) && (!clause || r[3].includes(clause)) &&
          (!cards || r[4].some((c) => cards.has(c))) && (!idKey || r[0].toLowerCase().includes(idKey)))
        matching.push(i);
    }
    drawn = 0;
    list.replaceChildren();
    drawMore();
    shown.textContent = plural(matching.length, "game") + (matching.length === ROWS.length ? "" : " of " + ROWS.length) + " shown";
  }
  for (const f of fields) { f.addEventListener("input", applyFilters); f.addEventListener("change", applyFilters); }
  more.addEventListener("click", drawMore);
  list.addEventListener("click", (ev) => {
    const b = ev.target.closest("button.open");
    if (b) openGame(Number(b.dataset.i), null, true);
  });
  list.addEventListener("keydown", (ev) => {
    // arrow up and down move between the games of the list
    if (ev.key !== "ArrowDown" && ev.key !== "ArrowUp") return;
    const li = ev.target.closest("li");
    const next = li && (ev.key === "ArrowDown" ? li.nextElementSibling : li.previousElementSibling);
    if (next) { ev.preventDefault(); ev.stopPropagation(); next.querySelector("button").focus(); }
  });

  // -- cards --
  function keywordNames(mask) {
    return Object.entries(DATA.keywords).filter(([bit]) => mask & Number(bit)).map(([, n]) => n);
  }
  const ROMAN = { 1: "I", 2: "II", 3: "III" };
  function cardEl(id, opts) {
    const printed = (game.data.cards || {})[String(id)] || (opts.names || {})[String(id)] || ("card " + id);
    // An evolved creature shows the face of its stage (later.evolve).
    const name = opts.face || printed;
    const d = DATA.designs[name] || { power: null, keywords: 0, text: "" };
    const boosts = opts.boosts || [];
    const boostNames = boosts.map((b) => ((game.data.cards || {})[String(b)] || ("card " + b)) + " (" + b + ")");
    const power = opts.power !== undefined ? opts.power : d.power;
    const kws = keywordNames(opts.keywords !== undefined ? opts.keywords : d.keywords);
    const marked = opts.mark ? opts.mark.has(id) : game.marked.has(id);
    const stage = opts.stage && printed !== name ? "stage " + ROMAN[opts.stage] + " of " + printed : "";
    const boostWords = boosts.length ? boosts.length + " boost card" + (boosts.length > 1 ? "s" : "") +
      " under it: " + boostNames.join(", ") : "";
    const label = name + " (" + id + (stage ? ", " + stage : "") + "), power " + power +
      (kws.length ? ", " + kws.join(", ") : "") +
      (opts.exhausted ? ", exhausted" : "") + (opts.octonite ? ", " + opts.octonite + " Octonite" : "") +
      (boostWords ? ", " + boostWords : "") +
      (marked ? ", differs between log and rules" : "");
    const pw = el("span", { class: "power" + (power > d.power ? " up" : power < d.power ? " down" : ""),
      title: power !== d.power ? "printed power " + d.power : "power", text: String(power) });
    const card = el("div", { class: "card" + (opts.small ? " small" : "") + (opts.exhausted ? " exhausted" : "") +
      (marked ? " mark" : ""), role: "listitem", "aria-label": label, "data-card": id },
      el("div", { class: "ctop" }, el("span", { class: "name", text: name }), pw),
      el("div", { class: "kws" }, ...kws.map((k) => el("span", { class: "kw", text: k }))),
      el("div", { class: "text", text: d.text || "" }),
      opts.exhausted ? el("span", { class: "ex", text: "exhausted" }) : null,
      opts.octonite ? el("span", { class: "octo", title: "Octonite counters", text: opts.octonite + " Octonite" }) : null,
      stage ? el("span", { class: "stage", text: stage }) : null,
      boostWords ? el("span", { class: "boost", title: boostWords, text: "+" + boosts.length + " boost: " +
        boostNames.join(", ") }) : null,
      el("span", { class: "cid", text: "#" + id }));
    return card;
  }
  function zone(title, ids, opts, b) {
    const cards = el("div", { class: "cards", role: "list", "aria-label": title });
    const evolved = new Map(((b && b.evolved) || []).map((e) => [e[0], e]));
    const boosted = new Map(((b && b.boosts) || []).map((e) => [e[0], e[1]]));
    for (const c of ids) cards.append(Array.isArray(c) ?
      cardEl(c[0], { power: c[1], keywords: c[2], exhausted: !!c[3], octonite: c[4] || 0,
        stage: evolved.has(c[0]) ? evolved.get(c[0])[1] : 0, face: evolved.has(c[0]) ? evolved.get(c[0])[2] : "",
        boosts: boosted.get(c[0]) || [] }) : cardEl(c, opts || {}));
    return el("div", { class: "zone" }, el("div", { class: "zname", text: title + " (" + ids.length + ")" }), cards);
  }

  // -- the board --
  function side(b, p) {
    const stats = el("div", { class: "stats" },
      el("span", { class: "who", text: "Player " + p + (b.active === p && !b.over ? " (their turn)" : "") }),
      el("span", { text: "life " + b.life[p] }),
      el("span", { text: "Mindbugs " + b.mindbugs[p] }),
      el("span", { text: "draw pile " + b.deck[p] }),
      b.life_pile ? el("span", { text: "life cards " + b.life_pile[p] }) : null);
    return el("section", { class: "side p" + p + (b.active === p && !b.over ? " active" : ""),
      "aria-label": "Player " + p }, stats,
      zone("Player " + p + " play area", b.play[p], {}, b),
      zone("Player " + p + " hand", b.hand[p]),
      zone("Player " + p + " discard pile", b.discard[p], { small: true }));
  }
  function middle(b) {
    const m = el("div", { class: "middle", "aria-label": "Between the players" });
    m.append(el("div", { text: "Turn " + b.turn + " · unused pile " + b.unused }));
    if (b.played !== null && b.played !== undefined)
      m.append(el("div", {}, el("div", { class: "zname", text: "Waiting for the Mindbug decision" }),
        el("div", { class: "cards", role: "list" }, cardEl(b.played, {}))));
    if (b.set_aside && b.set_aside.length)
      m.append(zone("Set aside (double-sided cards of evolution lines)", b.set_aside, { small: true }));
    if (b.over) m.append(el("div", { class: "over", text: "Game over: player " + b.over.winner + " wins (" + b.over.reason + ")" }));
    const p = b.pending;
    if (p) {
      const who = p.player === null ? "The rules wait for a " : "Player " + p.player + "'s ";
      m.append(el("div", { class: "pending" },
        el("div", {}, el("strong", { text: who + (STAGES[p.stage] || p.stage) }), p.prompt ? " — " + p.prompt : "",
          " ", ...p.clauses.map(chip)),
        el("div", { class: "zname", text: "Legal options (" + p.options.length + ")" }),
        el("ul", { class: "opts" }, ...p.options.map((o) => el("li", { text: o })))));
    }
    return m;
  }
  // -- the board of a game of Mind Up! (players lettered A, B, ... as the rules name them) --
  const MU = DATA.mind_up || { cards: {}, objectives: {} };
  function muWho(p) { return "Player " + String.fromCharCode(65 + p); }
  function muCard(n, extra) {
    const c = MU.cards[String(n)] || ["?", 0];
    const bubble = c[1] ? (c[1] > 0 ? "+" : "") + c[1] : "";
    const marked = game.marked.has(n);
    return el("div", { class: "mucard mu-" + c[0] + (marked ? " mark" : ""), role: "listitem", "data-card": n,
      "aria-label": "card " + n + ", " + c[0] + (bubble ? ", bubble " + bubble : "") + (extra ? ", " + extra : "") +
        (marked ? ", differs between log and rules" : "") },
      el("span", { class: "num", text: String(n) }),
      bubble ? el("span", { class: "bub" + (c[1] > 0 ? " plus" : " minus"), text: bubble }) : null,
      extra ? el("span", { class: "who", text: extra }) : null);
  }
  function muCards(title, cards) {
    return el("div", { class: "zone" }, el("div", { class: "zname", text: title + " (" + cards.length + ")" }),
      el("div", { class: "mucards", role: "list", "aria-label": title }, ...cards.map((n) => muCard(n))));
  }
  function muBoard(b) {
    const root = el("div", { class: "muboard", "aria-label": "Mind Up! board" });
    const objs = b.objectives.map((o) => { const x = MU.objectives[String(o)] || ["?", 0, ""];
      return "objective " + o + " (" + x[0] + ", " + (x[1] > 0 ? "+" : "") + x[1] + "): " + x[2]; });
    root.append(el("div", { class: "muhead" },
      el("span", { text: b.round ? "Round " + b.round + " · turn " + b.turn : "Before round 1" }),
      el("span", { text: "Score order " + (b.order.length ? b.order.join("-") : "not drawn yet") }),
      b.pile !== null ? el("span", { text: "pile " + b.pile }) : null),
      ...objs.map((t) => el("div", { class: "muobj", text: t })));
    const line = el("div", { class: "muline", role: "list", "aria-label": "The line and the cards played this turn" });
    b.line.forEach((n, k) => {
      const u = b.under[k];
      line.append(el("div", { class: "muslot", role: "listitem" }, muCard(n),
        u ? muCard(u[0], muWho(u[1])) : el("div", { class: "mucard empty", "aria-hidden": "true" })));
    });
    root.append(el("div", { class: "zone" }, el("div", { class: "zname", text: b.under.length ?
      "The line, and under it the cards played this turn (each took the line card above it)" : "The line" }), line));
    if (b.winners) root.append(el("div", { class: "over", text: "Game over: " + (b.winners.length > 1 ?
      "a shared victory of " : "the winner is ") + b.winners.map(muWho).join(", ") }));
    else if (b.pending.kind === "choose") root.append(el("div", { class: "pending", text: "Waiting for a card from " +
      b.pending.players.map(muWho).join(", ") }));
    else if (b.pending.kind === "round") root.append(el("div", { class: "pending", text: "Waiting for round " +
      (b.round + 1) + " to start (its Score order)" }));
    for (let p = 0; p < b.players; p++) {
      const cols = el("div", { class: "mucols", role: "list", "aria-label": muWho(p) + " Score columns" });
      let sum = 0;
      b.columns[p].forEach((col, i) => {
        const v = b.order.length ? b.order[i] : null;
        if (v !== null) sum += v * col.length;
        cols.append(el("div", { class: "mucol", role: "listitem", "aria-label": "Score card " + (i + 1) +
          (v !== null ? ", value " + v : "") + ", " + col.length + " cards" },
          el("div", { class: "muval", text: v !== null ? "×" + v + " = " + v * col.length : "Score card " + (i + 1) }),
          el("div", { class: "mucards", role: "list" }, ...col.map((n) => muCard(n)))));
      });
      const rounds = b.scores[p];
      root.append(el("section", { class: "muplayer", "aria-label": muWho(p) },
        el("div", { class: "stats" }, el("span", { class: "who", text: muWho(p) }),
          el("span", { text: "rounds " + (rounds.length ? rounds.join(" + ") : "none yet") }),
          el("span", { text: "game score " + b.totals[p] }),
          b.order.length ? el("span", { text: "columns now " + sum }) : null,
          b.chosen[p] ? el("span", { class: "chosen", text: "has chosen" }) : null),
        cols, muCards(muWho(p) + " hand", b.hands[p])));
    }
    return root;
  }
  function chip(cid) {
    const c = DATA.clauses[cid];
    return el("abbr", { class: "chip", title: c ? c.title + ": " + c.text : "clause " + cid, text: cid });
  }
  function clauseBlock(cid) {
    const c = DATA.clauses[cid];
    return el("div", { class: "clause" }, el("span", { class: "cid", text: cid }),
      c ? " — " + c.title + ". " + c.text : " (not in the catalogue)");
  }

  // -- a game --
  function gameData(i) {
    const r = ROWS[i];
    if (!r) return null;
    const s = r[11] ? document.getElementById("game-" + i) : null;
    if (s) return JSON.parse(s.textContent);
    // a conforming game with nothing more to say than its row
    return { report: { id: r[0], verdict: r[1], file: INDEX.files[r[6]], line: r[7], outcome: r[8], edition: r[9],
      decisions: r[10], findings: [], notes: [] }, no_board: "board_limit", kind: "verify" };
  }
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
    const head = el("div", { class: "head" }, f.code + " at line " + f.line,
      f.count > 1 ? " (found " + f.count + " times)" : "", f.expected ? " (expected)" : "",
      f.basis === "reading" ? " — only under a team reading" : "");
    const box = el("li", { class: "finding" + (["BAD_JSON", "BAD_LINE", "UNKNOWN_LINE_TYPE", "BAD_VERSION", "UNKNOWN_CARD",
      "UNKNOWN_EDITION", "UNSUPPORTED_SET", "MISSING_SETUP", "LINE_OUTSIDE_GAME", "MISSING_END", "EMPTY_INPUT",
      "BAD_REFERENCE", "UNREADABLE", "UNKNOWN_FIELD", "TOO_LARGE"].includes(f.code) ? " malformed" : ""),
      id: "g" + i + "-f" + k }, head, el("p", { class: "msg", text: f.message }));
    const acts = el("div", {});
    if (d.steps) acts.append(el("button", { type: "button", onclick: () => go(d.at[k]),
      "aria-label": "Show finding " + (k + 1) + " on the board (step " + d.at[k] + ")", text: "Show on the board (step " + d.at[k] + ")" }), " ");
    if (d.log) acts.append(el("a", { href: "#g" + i + "-L" + f.line, onclick: (ev) => { ev.preventDefault(); showLine(f.line); },
      text: (d.kind === "scenario" ? "scenario line " : "log line ") + f.line }));
    else acts.append(el("span", { class: "note", text: rep.file + ":" + f.line }));
    box.append(acts);
    for (const cid of f.clauses) box.append(clauseBlock(cid));
    if (f.basis === "reading" && f.reading)
      box.append(el("p", { class: "note", text: "Under the team reading " + Object.entries(f.reading).map(([a, b]) => a + "=" + b).join(", ") +
        (f.alternatives && f.alternatives.length ? "; accepted under: " + f.alternatives.join(", ") : "") }));
    if (f.log !== undefined || f.rules !== undefined) {
      const mark = markedCards(f);
      const rulesSide = (f.rules === null || f.rules === undefined) && f.options && f.options.length ?
        optionsEl("The rules", f) : sideEl("The rules", f.rules, f, mark);
      box.append(el("div", { class: "sides" },
        sideEl(d.kind === "scenario" ? "The scenario expects" : "The log", f.log, f, mark), rulesSide));
    }
    if (f.diff && f.diff.length) {
      const t = el("table", { class: "diff" }, el("caption", { class: "note", text: "Differences, card by card" }),
        el("tr", {}, el("th", { scope: "col", text: "difference" }), el("th", { scope: "col", text: d.kind === "scenario" ? "expected" : "the log" }), el("th", { scope: "col", text: "the rules" })));
      for (const e of f.diff) t.append(el("tr", {}, el("td", { text: e.text }),
        el("td", { class: "mono", text: pretty(e.log === undefined ? null : e.log) }),
        el("td", { class: "mono", text: pretty(e.rules === undefined ? null : e.rules) })));
      box.append(t);
    }
    if (f.options && f.options.length)
      box.append(el("details", {}, el("summary", { text: "Legal options the rules gave (" + f.options.length + ")" }),
        el("pre", { text: f.options.map((o) => JSON.stringify(o)).join("\n") })));
    if (f.events && f.events.length)
      box.append(el("details", {}, el("summary", { text: "What the rules did since log and rules last agreed (" + f.events.length + ")" }),
        el("ol", { class: "events" }, ...f.events.map((e) => el("li", {}, e.text, " ", ...e.clauses.map(chip))))));
    return box;
  }
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
  function sideEl(title, v, f, mark) {
    const box = el("div", {}, el("h4", { text: title }));
    if (v && typeof v === "object" && !Array.isArray(v)) {
      const rest = {};
      for (const [k, val] of Object.entries(v)) {
        if (Array.isArray(val) && val.length === 2 && val.every((z) => Array.isArray(z) && z.every(isCard))) {
          for (const p of [0, 1]) {
            const cards = el("div", { class: "cards", role: "list", "aria-label": title + ": " + (ZONES[k] || k) + " of player " + p });
            for (const c of val[p]) {
              const id = typeof c === "number" ? c : c.card;
              const o = { small: true, exhausted: typeof c === "object" && !!c.exhausted, mark: mark, names: f.cards };
              if (typeof c === "object" && typeof c.power === "number") o.power = c.power;
              // An evolved creature as the side shows it: the face of its stage.
              if (typeof c === "object" && typeof c.face === "string" && c.stage > 1) { o.face = c.face; o.stage = c.stage; }
              cards.append(cardEl(id, o));
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
  function openGame(i, step, focus) {
    const d = gameData(i);
    if (!d) return;
    game = { i: i, data: d, step: 0, marked: new Set() };
    for (const r of list.querySelectorAll(".row.current")) r.classList.remove("current");
    const row = list.querySelector('button.open[data-i="' + i + '"]');
    if (row) row.parentElement.classList.add("current");
    const rep = d.report;
    detail.replaceChildren();
    detail.append(el("h2", { text: rep.id }),
      el("p", { class: "meta" }, el("span", { class: "badge v-" + rep.verdict, text: rep.verdict }), " ",
        (rep.outcome === "xfail" ? "(expected divergence) " : rep.outcome === "xpass" ? "(an expected divergence did not happen) " : ""),
        (rep.edition || "no edition") + (d.kind === "scenario" ? "" : " · " + plural(rep.decisions, "decision")) + " · " + rep.file + ":" + rep.line +
        (rep.impl ? " · " + rep.impl : "") +
        (rep.result && rep.result.winners ? " · the rules' result: " + rep.result.winners.map(muWho).join(" and ") +
          (rep.result.winners.length > 1 ? " share the victory" : " wins") + " (" + rep.result.scores.join(", ") + ")" :
          rep.result ? " · the rules' result: player " + rep.result.winner + " wins (" + rep.result.reason + ")" : "") +
        (rep.readings ? " · readings " + Object.entries(rep.readings).map(([a, b]) => a + "=" + b).join(", ") : "")));
    for (const n of rep.notes || []) detail.append(el("p", { class: "note", text: "Note: " + n }));
    if (rep.findings.length) {
      detail.append(el("h3", { text: plural(rep.findings.length, "finding") }));
      detail.append(el("ol", { class: "findings" }, ...rep.findings.map((f, k) => findingEl(f, k, d, i))));
    }
    if (d.steps) {
      detail.append(el("h3", { text: "Board" }));
      const controls = el("div", { class: "controls", role: "group", "aria-label": "Step through the game" },
        el("button", { type: "button", id: "b-first", onclick: () => go(0), "aria-label": "First step (the deal)", text: "« Deal" }),
        el("button", { type: "button", id: "b-prev", onclick: () => go(game.step - 1), "aria-label": "Previous step", text: "◀ Back" }),
        el("button", { type: "button", id: "b-next", onclick: () => go(game.step + 1), "aria-label": "Next step", text: "Next ▶" }),
        el("button", { type: "button", id: "b-last", onclick: () => go(d.steps.length - 1), "aria-label": "Last step", text: "End »" }),
        d.at && d.at.length ? el("button", { type: "button", id: "b-finding", onclick: nextFinding, "aria-label": "Next finding", text: "⚑ Finding" }) : null,
        el("span", { id: "step-status", class: "status", role: "status", "aria-live": "polite" }));
      const stepsList = el("ol", {});
      const findingSteps = new Set(d.at || []);
      d.steps.forEach((s, n) => {
        stepsList.append(el("li", { class: (findingSteps.has(n) ? "finding-step" : "") + (s.forced ? " forced" : "") },
          el("button", { type: "button", "data-step": n, onclick: () => go(n),
            title: s.forced ? IMPLIED : null,
            "aria-label": "Step " + n + ": " + (s.decision || "the deal") + (s.forced ? ", implied" : "") +
              (findingSteps.has(n) ? ", a finding" : ""),
            text: n + ". " + (s.decision || "the deal") + (s.forced ? " (implied)" : "") + (findingSteps.has(n) ? " ⚑" : "") })));
      });
      detail.append(controls, el("div", { class: "stepper" },
        el("div", {}, el("div", { id: "board", class: "board", "aria-label": "The board" }),
          el("h4", { text: "Events of this step" }), el("ol", { id: "events", class: "events" })),
        el("nav", { class: "steps", "aria-label": "Steps" }, stepsList)));
      if (d.cut) detail.append(el("p", { class: "note", text: "The game has more steps than a page shows; the rest are left out." }));
    } else {
      detail.append(el("p", { class: "note", text: "No board for this game: " + (d.no_board === "board_limit" ?
        "the page draws boards for a limited number of games" : d.no_board) +
        (d.kind === "verify" ? ". Draw it with: mb-oracle show " + rep.file + " --game " + rep.id : "") }));
    }
    if (d.log) {
      const bad = new Set(rep.findings.map((f) => f.line));
      detail.append(el("details", { class: "log", id: "g" + i + "-log", open: true }, el("summary", { text: (d.kind === "scenario" ? "The scenario (" : "The log (") + plural(d.log.length, "line") + ")" }),
        el("ol", { "aria-label": "Log lines" }, ...d.log.map(([n, text]) => el("li", { id: "g" + i + "-L" + n, class: bad.has(n) ? "bad" : "" },
          el("span", { class: "ln", text: String(n) }), " ", text)))));
    }
    later();
    if (d.steps) go(step !== null && step !== undefined ? step : (d.at && d.at.length ? d.at[0] : 0));
    if (focus) detail.focus({ preventScroll: false });
  }
  function showLine(n) {
    const li = document.getElementById("g" + game.i + "-L" + n);
    if (!li) return;
    li.parentElement.closest("details").open = true;
    li.scrollIntoView({ block: "nearest" });
    for (const x of document.querySelectorAll(".log li.cur")) x.classList.remove("cur");
    li.classList.add("cur");
  }
  function go(n) {
    const d = game && game.data;
    if (!d || !d.steps) return;
    n = Math.max(0, Math.min(d.steps.length - 1, n));
    game.step = n;
    const s = d.steps[n];
    const here = (d.at || []).map((a, k) => (a === n ? k : -1)).filter((k) => k >= 0);
    game.marked = new Set();
    for (const k of here) for (const c of markedCards(d.report.findings[k])) game.marked.add(c);
    const b = s.board;
    if (b.game === "mind-up") document.getElementById("board").replaceChildren(muBoard(b));
    else document.getElementById("board").replaceChildren(side(b, 1), middle(b), side(b, 0));
    document.getElementById("events").replaceChildren(...(s.events.length ? s.events.map((e) =>
      el("li", {}, e[2], " ", ...e[1].map(chip))) : [el("li", { class: "note", text: "no event" })]));
    const st = document.getElementById("step-status");
    st.textContent = "Step " + n + " of " + (d.steps.length - 1) + ": " + visible(s.decision || "the deal") +
      " (line " + s.line + ")" + (here.length ? " — finding: " + here.map((k) => d.report.findings[k].code).join(", ") : "");
    st.classList.toggle("at-finding", here.length > 0);
    for (const li of detail.querySelectorAll(".steps li")) li.classList.remove("current");
    const cur = detail.querySelector('.steps button[data-step="' + n + '"]');
    if (cur) { cur.parentElement.classList.add("current"); cur.setAttribute("aria-current", "step"); }
    for (const x of detail.querySelectorAll('.steps button[aria-current]')) if (x !== cur) x.removeAttribute("aria-current");
    for (const f of detail.querySelectorAll(".finding")) f.classList.remove("here");
    for (const k of here) { const f = document.getElementById("g" + game.i + "-f" + k); if (f) f.classList.add("here"); }
    document.getElementById("b-prev").disabled = n === 0;
    document.getElementById("b-first").disabled = n === 0;
    document.getElementById("b-next").disabled = n === d.steps.length - 1;
    document.getElementById("b-last").disabled = n === d.steps.length - 1;
    if (d.log) {
      for (const x of detail.querySelectorAll(".log li.cur")) x.classList.remove("cur");
      const li = document.getElementById("g" + game.i + "-L" + s.line);
      if (li) li.classList.add("cur");
    }
    later();
  }
  // What waits for the next frame (one layout for many steps): the step list
  // scrolled to the current step, and the address naming it.
  let pendingFrame = 0;
  function later() {
    if (pendingFrame) return;
    pendingFrame = requestAnimationFrame(() => {
      pendingFrame = 0;
      if (!game) return;
      const cur = detail.querySelector('.steps button[aria-current]');
      const box = cur && cur.closest(".steps");
      if (box) {   // scroll the step list alone, never the page
        const li = cur.parentElement;
        if (li.offsetTop < box.scrollTop || li.offsetTop + li.offsetHeight > box.scrollTop + box.clientHeight)
          box.scrollTop = li.offsetTop - box.clientHeight / 2;
      }
      history.replaceState(null, "", "#game-" + game.i + (game.data.steps ? "-step-" + game.step : ""));
    });
  }
  function nextFinding() {
    const at = (game.data.at || []).slice().sort((a, b) => a - b);
    if (!at.length) return;
    go(at.find((a) => a > game.step) ?? at[0]);
  }
  document.addEventListener("keydown", (ev) => {
    if (!game || !game.data.steps || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const t = ev.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) return;
    const keys = { ArrowRight: () => go(game.step + 1), ArrowLeft: () => go(game.step - 1),
      Home: () => go(0), End: () => go(game.data.steps.length - 1), f: nextFinding };
    const fn = keys[ev.key];
    if (fn) { ev.preventDefault(); fn(); }
  });

  applyFilters();
  const m = /^#game-(\d+)(?:-step-(\d+))?$/.exec(location.hash);
  if (m) openGame(Number(m[1]), m[2] === undefined ? null : Number(m[2]), false);
  else if (ROWS.length === 1) openGame(0, null, false);
  window.mbReport = { openGame: openGame, go: go, current: () => game && { i: game.i, step: game.step } };
})();
