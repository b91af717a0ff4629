// The board's page, its generic part: the pickers, the card list, the position's zones as drop targets,
// the problems, the play view (options, steps, events, board, lines) and the ruling panel. It knows no game:
// each game's script (the BOARD_EDIT part's page script, loaded after /api/hello) adds an editor to
// BOARD_EDITORS under the game's name. Everything the server sends is shown as text (textContent), never
// parsed as HTML.
"use strict";
const BOARD_EDITORS = {};
const BOARD_KIT = (() => {
  const TOKEN = new URLSearchParams(location.search).get("token") || "";
  const $ = (id) => document.getElementById(id);
  const S = {
    hello: null, game: null, editor: null, cards: [], clauses: {}, pos: null, armed: null,
    problems: [], lines: [[]], line: 0, at: 0, play: null, file: "", base: null, stepWords: {},
  };

  // -- DOM helpers: text only --
  function el(tag, attrs, ...kids) {
    const e = document.createElement(tag);
    if (attrs) for (const [k, v] of Object.entries(attrs)) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") e.className = v; else if (k === "text") e.textContent = String(v);
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v === true ? "" : String(v));
    }
    for (const k of kids) if (k !== null && k !== undefined && k !== false) e.append(k);
    return e;
  }
  function status(text, bad) { const s = $("status"); s.textContent = text || ""; s.className = "status" + (bad ? " bad" : ""); }

  // -- the server --
  // While a request is in flight (or a check is due), the body has the class "busy".
  let inflight = 0;
  function busy(d) { inflight += d; document.body.classList.toggle("busy", inflight > 0); }
  async function api(path, body) {
    busy(1);
    try { return await request(path, body); } finally { busy(-1); }
  }
  async function request(path, body) {
    const opts = { headers: { "X-Board-Token": TOKEN } };
    if (body !== undefined) {
      opts.method = "POST"; opts.body = JSON.stringify(body); opts.headers["Content-Type"] = "application/json";
    }
    const r = await fetch(path, opts);
    let data;
    try { data = await r.json(); } catch (e) { data = { ok: false, error: { code: "HTTP", message: "HTTP " + r.status } }; }
    data.httpStatus = r.status;
    if (!r.ok && data.error) status(data.error.message + (data.error.field ? " (" + data.error.field + ")" : ""), true);
    return data;
  }
  const q = (o) => Object.entries(o).map(([k, v]) => k + "=" + encodeURIComponent(v)).join("&");

  // -- clauses: a chip whose title is the clause's title and text, quoted from the catalogue --
  function chip(cid) {
    const c = S.clauses[cid];
    return el("abbr", { class: "chip", "data-clause": cid, title: c ? c.title + ": " + c.text : "clause " + cid, text: cid });
  }
  function clauseLine(cid) {
    const c = S.clauses[cid];
    return el("div", { class: "clause" }, el("span", { class: "cid", text: cid }),
      c ? " — " + c.title + ". " + c.text : " (not in the catalogue)");
  }

  // -- the pickers --
  function gameInfo() { return S.hello.games[S.game]; }
  const ident = (x) => (typeof x === "string" ? x : x.id);
  function pickers() {
    const g = gameInfo();
    const ed = $("edition");
    ed.replaceChildren(...g.editions.map((e) => el("option", { value: ident(e), text: ident(e),
      selected: ident(e) === g.default_edition })));
    const sets = $("sets");
    sets.replaceChildren(el("legend", { text: "Sets" }), ...(g.sets || []).map((s, i) => el("label", { class: "set" },
      el("input", { type: "checkbox", value: s.id, checked: i === 0, onchange: setsChanged }), " " + (s.name || s.id))));
    sets.hidden = !(g.sets || []).length;
    $("readings").replaceChildren(...(g.readings || []).map((r) => el("label", { class: "reading" },
      r.clause + " ", el("select", { "data-clause": r.clause, onchange: rulesChanged },
        ...r.choices.map((c) => el("option", { value: c, text: c, selected: c === r.default }))))));
    $("readings-box").hidden = !(g.readings || []).length;
    readingsSummary();
  }
  function readingsSummary() {
    const n = Object.keys(readings()).length;
    $("readings-sum").textContent = "Readings (" + (gameInfo().readings || []).length + (n ? ", " + n + " changed" : ", the team's") + ")";
  }
  function edition() { return $("edition").value; }
  function sets() { return [...document.querySelectorAll("#sets input:checked")].map((i) => i.value); }
  function readings() {
    const out = {};
    const g = gameInfo();
    for (const s of document.querySelectorAll("#readings select")) {
      const r = (g.readings || []).find((x) => x.clause === s.dataset.clause);
      if (r && s.value !== r.default) out[s.dataset.clause] = s.value;
    }
    return out;
  }
  function setPickers(doc) {
    const eds = doc.editions;
    if (Array.isArray(eds) && eds.length) $("edition").value = eds[0];
    if (Array.isArray(doc.sets)) for (const i of document.querySelectorAll("#sets input")) i.checked = doc.sets.includes(i.value);
    for (const s of document.querySelectorAll("#readings select")) {
      const r = (gameInfo().readings || []).find((x) => x.clause === s.dataset.clause);
      s.value = (doc.readings || {})[s.dataset.clause] || (r ? r.default : s.value);
    }
    readingsSummary();
  }

  // -- the card list: filter, drag, click to arm --
  async function loadCards() {
    const r = await api("/api/cards?" + q({ game: S.game, sets: sets().join(",") }));
    S.cards = r.cards || [];
    drawCards();
  }
  function cardWords(c) {
    return [S.editor.cardLabel(c), c.set, c.power !== undefined ? "power " + c.power : "", (c.keywords || []).join(" "), c.text || c.ability || ""]
      .filter(Boolean).join(" · ");
  }
  function drawCards() {
    const f = $("filter").value.trim().toLowerCase();
    const list = $("cards");
    list.replaceChildren();
    for (const c of S.cards) {
      const words = cardWords(c);
      if (f && !words.toLowerCase().includes(f)) continue;
      const key = S.editor.cardKey(c);
      const b = el("button", { type: "button", class: "avail" + (S.armed === key ? " armed" : ""),
        "data-card": key, title: words, "aria-pressed": S.armed === key ? "true" : "false",
        onclick: () => { S.armed = S.armed === key ? null : key; drawCards(); } },
        el("span", { class: "cname", text: S.editor.cardLabel(c) }),
        c.power !== undefined ? el("span", { class: "cpow", text: String(c.power) }) : null,
        (c.keywords || []).length ? el("span", { class: "ckw", text: c.keywords.join(" ") }) : null);
      list.append(el("li", { draggable: "true", ondragstart: (ev) => {
        ev.dataTransfer.setData("text/plain", String(key)); ev.dataTransfer.effectAllowed = "copy"; } }, b));
    }
  }

  // -- zones: drop targets the game's editor draws; `add(key)` places the card, `items` are the cards placed --
  // Each element that stands for a place of the document carries data-field (`given.players[0].hand[1]`),
  // so a problem the server names by field is marked on it.
  function dropZone(field, title, items, add, opts) {
    const o = opts || {};
    const take = (key) => { if (key === null || key === undefined || key === "") return; add(key); S.armed = null; changed(); };
    const box = el("div", { class: "dz" + (o.small ? " small" : ""), role: "list", "aria-label": title });
    items.forEach((it, i) => box.append(it.el || placed(field + "[" + i + "]", it.label, it.title, it.remove, it.extra)));
    return el("div", { class: "zone", "data-field": field, "data-zone": title, tabindex: "0",
      onclick: (ev) => {                 // a click on the zone itself, not on a card placed in it or a zone within
        if (ev.target.closest(".placed, .zone") !== ev.currentTarget || ev.target.closest("input,select,button")) return;
        take(S.armed);
      },
      onkeydown: (ev) => { if (ev.key === "Enter" && ev.target.classList.contains("zone")) take(S.armed); },
      ondragover: (ev) => { ev.preventDefault(); ev.currentTarget.classList.add("over"); },
      ondragleave: (ev) => ev.currentTarget.classList.remove("over"),
      ondrop: (ev) => { ev.preventDefault(); ev.stopPropagation(); take(ev.dataTransfer.getData("text/plain")); } },
      el("div", { class: "zname", text: title + " (" + items.length + ")" }), box);
  }
  function placed(field, label, title, remove, extra) {
    return el("div", { class: "placed", role: "listitem", "data-field": field, title: title || label },
      el("span", { class: "pname", text: label }), ...(extra || []),
      remove ? el("button", { type: "button", class: "rm", "aria-label": "Remove " + label, title: "remove",
        onclick: () => { remove(); changed(); }, text: "×" }) : null);
  }
  function numberField(field, label, value, set, min, max) {
    return el("label", { class: "num", "data-field": field }, label + " ",
      el("input", { type: "number", min, max, value, onchange: (ev) => { set(Number(ev.target.value)); changed(); } }));
  }

  // -- the position: drawn by the editor, checked by the server (every problem, marked where it is) --
  let checkTimer = null;
  function changed() {
    drawPosition();
    if (checkTimer === null) busy(1); else clearTimeout(checkTimer);
    checkTimer = setTimeout(() => { checkTimer = null; check().finally(() => busy(-1)); }, 150);
  }
  function drawPosition() {
    $("position").replaceChildren(...[].concat(S.editor.drawSetup(S.pos, BOARD_KIT)));
    drawCards();
    markProblems();
  }
  function documentOf(extra) {
    const doc = { format: "mb-scenario/1", game: S.game, editions: [edition()], readings: readings(),
      given: S.editor.given(S.pos) };
    if (!$("sets").hidden) doc.sets = sets();
    return Object.assign(doc, extra || {});
  }
  async function check() {
    const r = await api("/api/check", { document: documentOf() });
    S.problems = r.problems || (r.error ? [{ field: r.error.field || "", message: r.error.message }] : []);
    markProblems();
  }
  function fieldOf(p) { return String(p.field || "").replace(/^\$\./, ""); }
  function targetOf(field) {
    let f = field;
    while (f) {
      if (f === "given") return $("position");             // the position as a whole (a setup the rules refuse)
      const hit = document.querySelector('#position [data-field="' + CSS.escape(f) + '"]');
      if (hit) return hit;
      const cut = Math.max(f.lastIndexOf("."), f.lastIndexOf("["));
      f = cut > 0 ? f.slice(0, cut) : "";
    }
    return null;
  }
  function markProblems() {
    for (const m of document.querySelectorAll("#position, #position .problem")) { m.classList.remove("problem"); m.removeAttribute("data-problem"); }
    const list = $("problems");
    list.replaceChildren();
    if (!S.problems.length) list.append(el("li", { class: "note", text: "none" }));
    for (const p of S.problems) {
      const f = fieldOf(p);
      const t = targetOf(f);
      if (t) { t.classList.add("problem"); t.setAttribute("data-problem", p.message); t.title = p.message; }
      list.append(el("li", { class: "problem-item" }, el("code", { text: f || "(the document)" }), " ", p.message,
        p.clause ? " " : null, p.clause ? chip(p.clause) : null));
    }
    $("start").disabled = S.problems.length > 0;
  }

  // -- play: every request starts from the document and applies the decisions --
  function decisions() { return S.lines[S.line]; }
  async function playTo(at) {
    const ds = decisions().slice(0, at);
    const r = await api("/api/play", { document: documentOf(), decisions: ds });
    if (r.ok === false && r.problems) { S.problems = r.problems; showSetup(); markProblems(); status("The position has problems", true); return; }
    S.at = at; S.play = r;
    drawPlay();
  }
  async function choose(decision) {
    const line = decisions();
    if (S.at < line.length) {          // choosing at an earlier step: a new line, the old one kept
      S.lines.push(line.slice(0, S.at));
      S.line = S.lines.length - 1;
    }
    decisions().push(decision);
    await playTo(decisions().length);
    loadExpectations();
  }
  function drawPlay() {
    const r = S.play;
    const line = decisions();
    $("lines").replaceChildren(...(S.lines.length > 1 ? S.lines.map((l, i) => el("button", { type: "button",
      class: "line" + (i === S.line ? " current" : ""), "aria-pressed": i === S.line ? "true" : "false",
      onclick: () => { S.line = i; playTo(S.lines[i].length).then(loadExpectations); },
      text: "Line " + (i + 1) + " (" + l.length + " steps)" })) : []));
    const words = (r.steps || []).map((s) => s.words);
    const steps = $("steps");
    steps.replaceChildren(el("li", {}, el("button", { type: "button", class: "step" + (S.at === 0 ? " current" : ""),
      onclick: () => playTo(0).then(loadExpectations), text: "Start" })));
    line.forEach((d, i) => steps.append(el("li", {}, el("button", { type: "button",
      class: "step" + (S.at === i + 1 ? " current" : ""), "aria-current": S.at === i + 1 ? "step" : null,
      onclick: () => playTo(i + 1).then(loadExpectations),
      text: (i + 1) + ". " + (words[i] || S.stepWords[JSON.stringify(d)] || JSON.stringify(d)) }))));
    for (const s of r.steps || []) S.stepWords[JSON.stringify(s.decision)] = s.words;
    const ev = $("step-events");
    ev.replaceChildren();
    const last = S.at === 0 ? { words: "The start", events: r.start_events || [] } : (r.steps || [])[S.at - 1];
    if (r.ok === false && r.refusal) {
      ev.append(el("div", { class: "refusal" }, el("strong", { text: "Step " + (r.step + 1) + " is refused: " }),
        r.refusal.message || r.refusal.code, " ", r.refusal.clause ? chip(r.refusal.clause) : null));
    }
    if (last) {
      ev.append(el("h3", { text: last.words }));
      const seen = new Set();
      const ul = el("ul", { class: "evlist" });
      for (const e of last.events || []) {
        ul.append(el("li", { class: "event" }, el("span", { text: e.text }), " ", ...(e.clauses || []).map(chip)));
        for (const c of e.clauses || []) seen.add(c);
      }
      ev.append(ul, ...[...seen].map(clauseLine));
    }
    $("outcome").textContent = r.over ? "Game over: " + S.editor.result(r.over) : "";
    drawPending(r.pending, r.over);
    $("board").replaceChildren(...(r.board ? [].concat(S.editor.drawBoard(r.board, BOARD_KIT)) : []));
  }
  function drawPending(p, over) {
    const box = $("pending");
    box.replaceChildren();
    if (!p || over) return;
    const groups = S.editor.optionGroups ? S.editor.optionGroups(p) : [{ title: "", options: p.options || [] }];
    box.append(el("div", { class: "who" }, el("strong", { text: S.editor.who(p) }), " ", ...(p.clauses || []).map(chip)));
    for (const g of groups) {
      if (g.title) box.append(el("div", { class: "zname", text: g.title }));
      box.append(el("div", { class: "options" }, ...(g.extra || []), ...g.options.map((o) => el("button", { type: "button",
        class: "option", "data-decision": JSON.stringify(o.decision), onclick: () => choose(o.make ? o.make() : o.decision),
        text: o.words }))));
    }
  }

  // -- the ruling: tickable expectations, fields, preview, save --
  async function loadExpectations() {
    const r = await api("/api/expectations", { document: documentOf(), decisions: decisions().slice(0, S.at) });
    const items = r.items || [];
    const ticked = new Set([...document.querySelectorAll("#expectations input:checked")].map((i) => i.value));
    $("expectations").replaceChildren(...items.map((x) => el("li", {}, el("label", {},
      el("input", { type: "checkbox", value: x.key, checked: ticked.has(x.key) }), " " + x.label))));
    $("ruling").hidden = false;
  }
  function rulingBody() {
    const source = $("r-source").value.trim();
    const body = { document: documentOf(), decisions: decisions().slice(0, S.at),
      ticks: [...document.querySelectorAll("#expectations input:checked")].map((i) => i.value),
      clauses: $("r-clauses").value.split(/[\s,]+/).filter(Boolean) };
    for (const [k, f] of [["id", "r-id"], ["title", "r-title"]]) if ($(f).value.trim()) body[k] = $(f).value.trim();
    if (source) body.source = { kind: "team ruling", ref: source };
    return body;
  }
  async function preview() {
    const r = await api("/api/ruling", rulingBody());
    $("yaml").textContent = r.yaml || "";
    const v = $("verdict");
    v.textContent = r.yaml === undefined ? "" : r.passes ? "The ruling passes." : "The ruling does not pass: " +
      (r.report || []).map((x) => (typeof x === "string" ? x : x.message || JSON.stringify(x))).join("; ");
    v.className = "verdict " + (r.passes ? "ok" : "bad");
    return r;
  }
  async function save(overwrite) {
    const file = $("r-file").value.trim();
    const body = Object.assign(rulingBody(), { file, overwrite: !!overwrite });
    if (S.base && file === S.file) body.base = S.base;
    const r = await api("/api/save", body);
    $("overwrite").hidden = true;
    if (r.httpStatus === 409 && !overwrite) {
      $("overwrite-text").textContent = (r.error ? r.error.message : "The file exists.") + " Overwrite it?";
      $("overwrite").hidden = false;
      return r;
    }
    if (r.path) {
      S.file = file; S.base = r.sha256;
      loadScenarios();
      $("saved").textContent = "Saved to " + r.path;
      status("Saved to " + r.path);
    } else $("saved").textContent = r.error ? "Not saved: " + r.error.message : "Not saved";
    return r;
  }

  // -- opening a scenario or a game of the log --
  async function loadScenarios() {
    if (!S.hello.scenarios) { $("scenario-list").disabled = true; return; }
    const r = await api("/api/scenarios");
    const sel = $("scenario-list");
    sel.replaceChildren(el("option", { value: "", text: "(choose a scenario)" }));
    for (const f of r.files || []) for (const sc of f.scenarios || []) {
      if (!BOARD_EDITORS[sc.game]) continue;
      sel.append(el("option", { value: JSON.stringify([f.file, sc.id]), text: f.file + ": " + sc.id }));
    }
  }
  // A document opened as the position (`edition`: the one to play it in; `decisions`: its steps, as the
  // server gives them).
  async function openDocument(doc, edition, decisions) {
    S.game = doc.game || "mindbug";
    $("game").value = S.game;
    await switchGame(doc);
    if (edition) $("edition").value = edition;
    for (const [k, f] of [["id", "r-id"], ["title", "r-title"]]) if (doc[k]) $(f).value = doc[k];
    if (doc.clauses) $("r-clauses").value = doc.clauses.join(", ");
    S.lines = [decisions || []];
  }
  async function openScenario() {
    const v = $("scenario-list").value;
    if (!v) return;
    const [file, id] = JSON.parse(v);
    const r = await api("/api/scenario?" + q({ file, id }));
    if (!r.document) return;
    S.file = file; S.base = r.sha256; $("r-file").value = file;
    await openDocument(r.document, r.edition, r.decisions);
    status("Opened " + file + ": " + id);
  }
  async function openLog() {
    const r = await api("/api/log?" + q({ game: $("log-game").value, step: $("log-step").value }));
    if (!r.document) return;
    await openDocument(r.document, null, []);
    status("Opened the log's game " + $("log-game").value + " at step " + r.step);
  }

  // -- views --
  function showSetup() { $("setup").hidden = false; $("play").hidden = true; }
  async function start() {
    await check();
    if (S.problems.length) return;
    $("setup").hidden = true; $("play").hidden = false;
    await playTo(Math.min(S.at, decisions().length) || decisions().length);
    loadExpectations();
  }
  async function rulesChanged() {
    readingsSummary();
    if (!$("play").hidden) { await playTo(S.at); loadExpectations(); status("Replayed under " + edition()); }
    else changed();
  }
  async function setsChanged() { await loadCards(); changed(); }
  // A game picked (a new empty position) or a document opened (`doc`: its game, pickers and position).
  async function switchGame(doc) {
    S.editor = BOARD_EDITORS[S.game];
    pickers();
    if (doc) setPickers(doc);
    S.pos = doc ? S.editor.fromGiven(doc.given || {}) : S.editor.empty(gameInfo());
    S.lines = [[]]; S.line = 0; S.at = 0; S.armed = null; S.problems = [];
    showSetup();
    const c = await api("/api/clauses?" + q({ game: S.game }));
    S.clauses = c.clauses || {};
    await loadCards();
    changed();
  }

  function loadScript(src) {
    return new Promise((ok, fail) => document.head.append(el("script", { src, onload: ok, onerror: () => fail(src) })));
  }
  async function main() {
    S.hello = await api("/api/hello");
    if (!S.hello.games) return;
    const games = Object.keys(S.hello.games);
    for (const g of games) await loadScript("games/" + encodeURIComponent(g) + ".js");
    $("game").replaceChildren(...games.filter((g) => BOARD_EDITORS[g]).map((g) => el("option", { value: g, text: g })));
    $("game").addEventListener("change", () => { S.game = $("game").value; switchGame(null); });
    $("edition").addEventListener("change", rulesChanged);
    $("filter").addEventListener("input", drawCards);
    $("start").addEventListener("click", start);
    $("back-to-setup").addEventListener("click", showSetup);
    $("branch").addEventListener("click", () => {
      S.lines.push(decisions().slice(0, S.at)); S.line = S.lines.length - 1; playTo(S.at);
    });
    $("clear").addEventListener("click", () => switchGame(null));
    $("preview").addEventListener("click", preview);
    $("save").addEventListener("click", () => save(false));
    $("overwrite-yes").addEventListener("click", () => save(true));
    $("overwrite-no").addEventListener("click", () => { $("overwrite").hidden = true; $("saved").textContent = "Not saved"; });
    $("open-scenario").addEventListener("click", openScenario);
    $("open-log").addEventListener("click", openLog);
    if (S.hello.log) {
      $("log-open").hidden = false;
      $("log-game").replaceChildren(...S.hello.log.games.map((g) => el("option", { value: g, text: g })));
    }
    S.game = games.includes("mindbug") ? "mindbug" : games[0];
    $("game").value = S.game;
    await switchGame(null);
    loadScenarios();
    document.body.dataset.ready = "1";
  }
  document.addEventListener("DOMContentLoaded", () => main().catch((e) => status(String(e), true)));

  return { el, dropZone, placed, numberField, changed, sets, state: S };
})();
