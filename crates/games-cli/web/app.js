// games-cli serve: the page's logic. Stateless server: every change re-sends the moves.
"use strict";
const state = { moves: [], redo: [], report: null };
const $ = (id) => document.getElementById(id);

function optionWords() {
  return $("options").value.split(/\s+/).filter((w) => w.length > 0);
}

async function refresh() {
  $("status").textContent = "Thinking…";
  $("error").textContent = "";
  let reply;
  try {
    reply = await fetch("/api/analyze", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ game: $("game").value, options: optionWords(), moves: state.moves }),
    });
  } catch (e) {
    $("status").textContent = "";
    $("error").textContent = "server unreachable: " + e;
    return;
  }
  const text = await reply.text();
  if (!reply.ok) {
    $("status").textContent = "";
    $("error").textContent = text;
    if (state.moves.length > 0) { state.redo.push(state.moves.pop()); }
    return;
  }
  show(JSON.parse(text));
}

function show(data) {
  const r = data.report;
  state.report = r;
  $("board").textContent = data.board_text;
  $("note").textContent = data.value_note;
  $("status").textContent = data.finished
    ? "Game over: " + r.answer
    : r.to_move + " to move; perfect play: " + r.answer + " (" + data.score_text + ")";
  const first = r.moves.length === 0 ? 0 : r.moves[0].value;
  const last = r.moves.length === 0 ? 0 : r.moves[r.moves.length - 1].value;
  const box = $("moves");
  box.textContent = "";
  for (const m of r.moves) {
    const b = document.createElement("button");
    b.textContent = m.move + ": " + m.value;
    b.dataset.move = m.move;
    b.dataset.value = String(m.value);
    // Moves come best first for the mover: green (best) to red (worst).
    const t = first === last ? 0 : (first - m.value) / (first - last);
    b.style.background = "hsl(" + Math.round(120 * (1 - t)) + ", 70%, 75%)";
    if (m.value === first) { b.classList.add("best"); }
    b.onclick = () => play(m.move);
    box.appendChild(b);
  }
  $("pv").textContent = r.pv.join("  ");
}

function play(move) {
  state.moves.push(move);
  state.redo = [];
  refresh();
}

$("new").onclick = () => { state.moves = []; state.redo = []; refresh(); };
$("undo").onclick = () => { if (state.moves.length) { state.redo.push(state.moves.pop()); refresh(); } };
$("redo").onclick = () => { if (state.redo.length) { state.moves.push(state.redo.pop()); refresh(); } };
$("solver").onclick = () => { if (state.report && state.report.moves.length) { play(state.report.moves[0].move); } };
$("game").onchange = () => { $("options").value = ""; state.moves = []; state.redo = []; refresh(); };
refresh();
