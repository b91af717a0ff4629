  // The page's script, part 4 of 4 (see app.js): a game opened, stepped through, and the page's start.
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
        (d.kind === "scenario" ? (rep.edition ? rep.edition + " · " : "") + rep.file + (rep.line ? ":" + rep.line : "") :
          (rep.edition || "no edition") + " · " + plural(rep.decisions, "decision") + " · " + rep.file + ":" + rep.line) +
        (rep.impl ? " · " + rep.impl : "") +
        (rep.result ? " · the rules' result: " + boardOf(gameOf(d)).result(rep.result) : "") +
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
      detail.append(el("p", { class: "note", text: (d.kind === "scenario" ? "No board here: " : "No board for this game: ") +
        (d.no_board === "board_limit" ?
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
    document.getElementById("board").replaceChildren(...boardOf(gameOf(d)).draw(b));
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
