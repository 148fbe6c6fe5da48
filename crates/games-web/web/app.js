// games-cli serve: the page's logic. The server is stateless: every change re-sends the game,
// its options, the set-up text and the moves, and draws the board it describes (`board`: SVG
// shapes plus one anchor per legal move), with each move's value from `report.moves`.
"use strict";
const SVG = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);
const state = {
  games: [],
  setup: null,      // judge text the game starts from, or null
  moves: [],        // moves played (judge notation)
  movers: [],       // who played each move (player name), for undo against the solver
  redo: [],
  data: null,       // the last reply shown
  pv: null,         // PV stepper: { base: moves, line: pv moves, step: k }
  busy: false,      // a request the page waits for is in flight (moves are ignored)
  hints: null,      // the analysis in flight while a person thinks (an AbortController)
};

function optionWords() {
  return $("options").value.split(/\s+/).filter((w) => w.length > 0);
}

// `extra.reply` asks for the solver's move too; `extra.signal` aborts the request.
async function call(moves, analyze, setup, extra) {
  const more = extra || {};
  const body = { game: $("game").value, options: optionWords(), moves, analyze };
  if (more.reply) { body.reply = true; }
  const s = setup === undefined || setup === null ? state.setup : setup;
  if (s !== null) { body.setup = s; }
  let reply;
  try {
    reply = await fetch("/api/analyze", {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
      signal: more.signal,
    });
  } catch (e) {
    if (e.name === "AbortError") { return { ok: false, status: 0, aborted: true, error: "" }; }
    return { ok: false, status: 0, error: "server unreachable: " + e };
  }
  const text = await reply.text();
  let data;
  try { data = JSON.parse(text); } catch (e) { data = { error: text }; }
  return reply.ok ? { ok: true, data } : { ok: false, status: reply.status, error: data.error || text };
}

// Requests in flight: the page is busy while any it waits for is (`thinking`), and says it
// is thinking after 150 ms while any request is, the hints included (`data-busy` on the body
// too, which the tests wait on).
function thinking(on) {
  state.inflight = (state.inflight || 0) + (on ? 1 : -1);
  state.busy = state.inflight > 0;
  indicate();
}

function indicate() {
  const any = state.busy || state.hints !== null;
  if (any && !state.timer) {
    state.timer = setTimeout(() => { $("thinking").hidden = false; }, 150);
  } else if (!any) {
    clearTimeout(state.timer);
    state.timer = null;
    $("thinking").hidden = true;
  }
  document.body.dataset.busy = any ? "1" : "0";
}

// Stops the hints in flight (the server stops their search when the request goes away).
function cancelHints() {
  if (state.hints !== null) {
    state.hints.abort();
    state.hints = null;
    indicate();
  }
}

// Shows the current position at once (a bad last move is taken back); then, if the solver is
// to move, asks for its move alone (what `games-cli play` computes: no move values, no
// principal variation) and plays it; otherwise asks for the analysis, which a move made
// meanwhile cancels.
async function refresh() {
  state.pv = null;
  cancelHints();
  const seq = state.seq = (state.seq || 0) + 1;
  thinking(true);
  $("error").textContent = "";
  const b = await call(state.moves, false);
  if (seq !== state.seq) { thinking(false); return; } // a newer request replaced this one
  if (!b.ok) {
    $("error").textContent = b.error;
    if (state.moves.length > 0 && state.pending) {
      state.moves.pop();
      state.movers.pop();
    }
    state.pending = false;
    thinking(false);
    return;
  }
  state.pending = false;
  show(b.data);
  if (!b.data.finished && !humanToMove()) {
    await solverMove(seq);
    thinking(false);
    return;
  }
  thinking(false);
  if (!b.data.finished) { hints(seq); }
}

// Asks for the solver's move in the position shown and plays it after a moment.
async function solverMove(seq) {
  const r = await call(state.moves, false, null, { reply: true });
  if (seq !== state.seq) { return; }
  if (!r.ok) { $("error").textContent = r.error; return; }
  if (r.data.reply === null || r.data.reply === undefined) { return; }
  setTimeout(() => { if (seq === state.seq && !state.busy) { play(r.data.reply); } }, 400);
}

// The analysis of the position shown: every move's value and the principal variation.
async function hints(seq) {
  const controller = new AbortController();
  state.hints = controller;
  indicate();
  const r = await call(state.moves, true, null, { signal: controller.signal });
  if (state.hints === controller) {
    state.hints = null;
    indicate();
  }
  if (seq !== state.seq || r.aborted) { return; }
  if (r.ok) {
    show(r.data);
  } else {
    // 422: too large to solve within the budget; the board stays without values.
    $("error").textContent = r.error;
  }
}

function valueColor(t) {
  return "hsl(" + Math.round(120 * (1 - t)) + ", 75%, 38%)";
}

function el(shape) {
  const e = document.createElementNS(SVG, shape.el);
  for (const [k, v] of Object.entries(shape.attrs)) { e.setAttribute(k, String(v)); }
  if (shape.text !== undefined) { e.textContent = shape.text; }
  return e;
}

// Draws `board`; with `report` every move gets its value badge; `next` marks a PV move.
function drawBoard(board, report, next) {
  const svg = $("board");
  svg.textContent = "";
  svg.setAttribute("viewBox", "0 0 " + board.width + " " + board.height);
  for (const s of board.shapes) { svg.appendChild(el(s)); }
  const values = new Map();
  let best = 0, worst = 0;
  if (report && report.moves.length > 0) {
    for (const m of report.moves) { values.set(m.move, m.value); }
    best = report.moves[0].value;
    worst = report.moves[report.moves.length - 1].value;
  }
  for (const m of board.moves) {
    const g = document.createElementNS(SVG, "g");
    g.setAttribute("class", "move");
    g.dataset.move = m.move;
    const target = el(m.target);
    const has = values.has(m.move);
    const v = values.get(m.move);
    const t = !has || best === worst ? 0 : (best - v) / (best - worst);
    const color = has ? valueColor(t) : (m.move === next ? "#111827" : "#9ca3af");
    if (m.target.el === "line") {
      target.setAttribute("stroke", color);
      target.setAttribute("stroke-width", has || m.move === next ? "9" : "5");
      target.setAttribute("stroke-dasharray", has ? "none" : "10 8");
    } else if (has || m.move === next) {
      target.setAttribute("fill", color);
      target.setAttribute("fill-opacity", "0.28");
    }
    g.appendChild(target);
    const r = board.badge;
    if (has || m.move === next) {
      const c = el({ el: "circle", attrs: { cx: m.at[0], cy: m.at[1], r, fill: color, class: "badge" } });
      const label = has ? String(v) : "▶";
      const size = r * (label.length <= 2 ? 1.05 : label.length === 3 ? 0.85 : label.length === 4 ? 0.68 : 0.55);
      const text = el({ el: "text", attrs: { x: m.at[0], y: m.at[1], "font-size": size.toFixed(1),
        "font-weight": "bold", fill: "#ffffff", "text-anchor": "middle", "dominant-baseline": "central",
        class: "value" }, text: label });
      if (has) {
        g.dataset.value = String(v);
        if (v === best) {
          g.classList.add("best");
          c.setAttribute("stroke", "#000000");
          c.setAttribute("stroke-width", String(Math.max(4, r / 5)));
        } else {
          c.setAttribute("stroke", "#ffffff");
          c.setAttribute("stroke-width", "2");
        }
      }
      g.appendChild(c);
      g.appendChild(text);
    } else {
      // No value (over the budget, or stepping through the PV): a grey ring marks the move.
      g.appendChild(el({ el: "circle", attrs: { cx: m.at[0], cy: m.at[1], r: r * 0.45, fill: "#ffffff",
        "fill-opacity": "0.6", stroke: "#6b7280", "stroke-width": "3", class: "badge" } }));
    }
    if (state.pv === null) { g.addEventListener("click", () => play(m.move)); }
    svg.appendChild(g);
  }
  const legend = $("legend");
  legend.textContent = "";
  for (const p of board.legend) {
    const sw = document.createElement("span");
    sw.className = "swatch";
    sw.style.background = p.color;
    legend.appendChild(sw);
    legend.appendChild(document.createTextNode(p.name));
  }
}

function show(data) {
  state.data = data;
  const r = data.report;
  drawBoard(data.board, r, null);
  $("board-text").textContent = data.board_text;
  $("note").textContent = data.value_note;
  let status = data.finished ? "Game over: " : data.to_move + " to move. ";
  if (r) { status += (data.finished ? "" : "Perfect play: ") + r.answer + ". "; }
  $("status").textContent = status + "Score so far: " + data.score_text + ".";
  showPv();
}

function showPv() {
  const r = state.data && state.data.report;
  const line = state.pv ? state.pv.line : (r ? r.pv : []);
  const step = state.pv ? state.pv.step : 0;
  const box = $("pv");
  box.textContent = "";
  line.forEach((m, i) => {
    const s = document.createElement("span");
    s.textContent = m;
    if (state.pv && i === step) { s.className = "current"; }
    box.appendChild(s);
    box.appendChild(document.createTextNode(" "));
  });
  $("pv-step").textContent = state.pv ? "step " + step + " of " + line.length + " (not played)" : "";
}

// Shows the position `step` moves down the PV, without values, the next PV move marked.
async function pvGo(step) {
  const r = state.data && state.data.report;
  if (!r || state.busy) { return; }
  if (state.pv === null) { state.pv = { base: state.moves.slice(), line: r.pv.slice(), step: 0 }; }
  const pv = state.pv;
  step = Math.max(0, Math.min(pv.line.length, step));
  if (step === 0) { state.pv = null; drawBoard(state.data.board, r, null); showPv(); return; }
  thinking(true);
  const b = await call(pv.base.concat(pv.line.slice(0, step)), false);
  thinking(false);
  if (!b.ok) { $("error").textContent = b.error; return; }
  pv.step = step;
  drawBoard(b.data.board, null, pv.line[step]);
  $("board-text").textContent = b.data.board_text;
  showPv();
}

function humanToMove() {
  const d = state.data;
  if (!d || d.finished) { return true; }
  const mode = $("mode").value;
  if (mode === "both") { return true; }
  const first = d.board.legend.length > 0 ? d.board.legend[0].name : "";
  return (d.to_move === first) === (mode === "first");
}

// Against the solver (the mode changed): it moves if it is to move.
function solverTurn() {
  const d = state.data;
  if (!d || d.finished || state.busy || humanToMove()) { return; }
  refresh();
}

function play(move) {
  if (state.busy) { return; }
  cancelHints();
  state.movers.push(state.data ? state.data.to_move : "");
  state.moves.push(move);
  state.redo = [];
  state.pending = true;
  refresh();
}

function newGame(keepSetup) {
  if (!keepSetup) { state.setup = null; }
  state.moves = [];
  state.movers = [];
  state.redo = [];
  refresh();
}

function undo() {
  if (state.busy || state.moves.length === 0) { return; }
  const mode = $("mode").value;
  const first = state.data ? state.data.board.legend[0].name : "";
  const human = (who) => mode === "both" || (who === first) === (mode === "first") || who === "";
  // Take back moves until one of yours is taken back (the solver's replies go with it).
  while (state.moves.length > 0) {
    const who = state.movers.pop();
    state.redo.push(state.moves.pop());
    if (human(who)) { break; }
  }
  refresh();
}

async function loadGames() {
  const reply = await fetch("/api/games");
  state.games = await reply.json();
  const select = $("game");
  for (const g of state.games) {
    const o = document.createElement("option");
    o.value = g.name;
    o.textContent = g.title;
    select.appendChild(o);
  }
  gameChanged();
}

function gameChanged() {
  const g = state.games.find((x) => x.name === $("game").value);
  $("options").value = "";
  $("options").placeholder = "e.g. " + g.example;
  $("help").textContent = g.help;
  $("setup").value = "";
  newGame(false);
}

async function setUp() {
  if (state.busy) { return; }
  const text = $("setup").value;
  thinking(true);
  const r = await call([], false, text);
  thinking(false);
  if (!r.ok) { $("error").textContent = r.error; return; }
  // Formats that record moves (Triangle War, Connect Four) become moves, undoable one by one.
  if (r.data.setup_moves.length > 0) {
    state.setup = null;
    state.moves = r.data.setup_moves.slice();
    state.movers = state.moves.map(() => "");
  } else {
    state.setup = text;
    state.moves = [];
    state.movers = [];
  }
  state.redo = [];
  refresh();
}

function copyOut() {
  if (!state.data) { return; }
  $("setup").value = state.data.setup_text;
  if (navigator.clipboard) { navigator.clipboard.writeText(state.data.setup_text).catch(() => {}); }
}

$("game").onchange = gameChanged;
$("apply").onclick = () => newGame(false);
$("options").onkeydown = (e) => { if (e.key === "Enter") { newGame(false); } };
$("mode").onchange = () => solverTurn();
$("new").onclick = () => newGame(true);
$("undo").onclick = undo;
$("redo").onclick = () => {
  if (!state.busy && state.redo.length) {
    state.movers.push(state.data ? state.data.to_move : "");
    state.moves.push(state.redo.pop());
    refresh();
  }
};
$("solver").onclick = async () => {
  if (state.busy || !state.data || state.data.finished) { return; }
  cancelHints();
  const seq = state.seq = (state.seq || 0) + 1;
  thinking(true);
  await solverMove(seq);
  thinking(false);
};
$("pv-first").onclick = () => pvGo(0);
$("pv-back").onclick = () => pvGo((state.pv ? state.pv.step : 0) - 1);
$("pv-next").onclick = () => pvGo((state.pv ? state.pv.step : 0) + 1);
$("setup-apply").onclick = setUp;
$("setup-copy").onclick = copyOut;
loadGames();
