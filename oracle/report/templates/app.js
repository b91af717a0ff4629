  // The page's script, part 1 of 4: the page's data, the DOM helpers, the game list and its filters.
  // report.html.j2 includes the four parts in one function scope, in order: app.js, board.js,
  // findings.js, game.js.
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

