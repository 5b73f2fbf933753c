// The review of a game in win probability (/api/game/review with equity): the command line's
// `analyse RECORD --equity`, asked for a few turns at a time so that the graph and the move
// list fill in as it goes (and it can be stopped). Every figure (marks, accuracy, luck, the
// players' lines, key moments) is the server's: the page only shows them.
"use strict";

const review = {
  record: null, // the record under review
  turns: [], // the turns reviewed so far, in order
  total: 0,
  players: [],
  budget: null,
  step: 0, // the index of the turn shown
  running: false,
  controller: null,
  stopped: false,
};

// The seats' colours in the graph (the tiles' own four).
const SEAT_COLORS = ["#1a1a1a", "#b00d28", "#004a9f", "#9a4a00"];

// A request of the review: its own fetch, so that the page stays usable while it runs and
// Stop can abort it (the server then stops at its next step).
async function reviewFetch(body) {
  review.controller = new AbortController();
  try {
    const response = await fetch("/api/game/review", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
      signal: review.controller.signal,
    });
    const data = await response.json().catch(() => null);
    if (!response.ok) {
      showMessage((data && data.error) || t("server_error", response.status));
      return null;
    }
    return data;
  } catch (error) {
    if (error.name !== "AbortError") showMessage(t("unreachable"));
    return null;
  } finally {
    review.controller = null;
  }
}

async function reviewGame() {
  closeReview();
  review.record = games.record;
  review.turns = [];
  review.total = games.record.turns.length;
  review.step = 0;
  review.stopped = false;
  $("review").hidden = false;
  renderReview();
  scrollToAnswer("review");
  await runReview();
}

// Asks for the next turns until the review is whole, stopped, or a request fails.
async function runReview() {
  review.running = true;
  review.stopped = false;
  renderProgress();
  while (review.running && review.turns.length < review.total) {
    const data = await reviewFetch({
      record: review.record,
      equity: true,
      first: review.turns.length + 1,
      // What the players' lines need of the turns before, no more: the body stays small
      // (the server takes 64 kB) however long the game.
      reviewed: review.turns.map(({ seat, graded, lost, luck }) => ({ seat, graded, lost, luck })),
    });
    if (!data || !review.running) break;
    review.total = data.total;
    review.budget = data.budget;
    review.players = data.players;
    review.turns.push(...data.turns);
    renderReview();
  }
  if (review.turns.length < review.total) review.stopped = true;
  review.running = false;
  renderProgress();
}

function stopReview() {
  review.running = false;
  if (review.controller) review.controller.abort();
  review.stopped = true;
  renderProgress();
}

function closeReview() {
  stopReview();
  review.record = null;
  review.turns = [];
  review.players = [];
  $("review").hidden = true;
  if (typeof closeVariation === "function") closeVariation();
}

function renderProgress() {
  if (!review.record) return;
  const done = review.turns.length;
  let text;
  if (done >= review.total) text = t("review_done", review.total);
  else if (review.running) text = t("review_progress", done, review.total);
  else text = t("review_stopped", done, review.total);
  $("review-progress").textContent = text;
  $("review-stop").hidden = !review.running;
  $("review-resume").hidden = review.running || done >= review.total;
}

function signed(value) {
  return (value > 0 ? "+" : value < 0 ? "\u2212" : "") + Math.abs(value).toFixed(2);
}

function markName(mark) {
  return t({ "?!": "mark_inaccuracy", "?": "mark_mistake", "??": "mark_blunder" }[mark]);
}

// The game's turns (their words), with what the review says of each where it has.
function gameTurns() {
  return (games.game && games.game.turns) || [];
}

// A turn in words: the review's (which names every tile the record knows), else the game's.
function turnWords(index) {
  const turn = review.turns[index];
  if (turn) return turn.player + ": " + turn.text;
  const said = gameTurns()[index];
  return said ? said.player + ": " + said.text : t("review_turn_n", index + 1);
}

function renderReview() {
  if (!review.record) return;
  const budget = review.budget;
  const graded = review.turns.filter((turn) => turn.graded).length;
  $("review-summary").textContent = budget
    ? t("review_equity_summary", review.total, graded, budget.samples, budget.rounds)
    : "";
  renderProgress();
  renderPlayers();
  renderGraph();
  renderMoves();
  renderTurn();
}

function renderPlayers() {
  const box = $("review-players");
  if (!review.players.length) {
    box.replaceChildren();
    return;
  }
  const table = document.createElement("table");
  table.className = "outs review-lines";
  const caption = document.createElement("caption");
  caption.textContent = t("review_players");
  const head = document.createElement("tr");
  // The marks' columns are headed by the marks themselves, their names spelt out for
  // screen readers and on hover (a phone has no room for the words).
  const heads = [["player"], ["accuracy"], ["mark_inaccuracy", "?!"], ["mark_mistake", "?"], ["mark_blunder", "??"], ["luck"]];
  for (const [key, short] of heads) {
    const cell = document.createElement("th");
    cell.scope = "col";
    if (short) {
      const abbr = document.createElement("abbr");
      abbr.title = t(key);
      abbr.textContent = short;
      const hidden = document.createElement("span");
      hidden.className = "sr-only";
      hidden.textContent = " " + t(key);
      cell.append(abbr, hidden);
    } else cell.textContent = t(key);
    head.appendChild(cell);
  }
  const rows = review.players.map((line) => {
    const row = document.createElement("tr");
    const cells = [
      line.player,
      line.accuracy === null ? "\u2013" : line.accuracy.toFixed(1),
      line.marks["?!"],
      line.marks["?"],
      line.marks["??"],
      signed(line.luck),
    ];
    for (const text of cells) {
      const cell = document.createElement("td");
      cell.textContent = String(text);
      row.appendChild(cell);
    }
    row.lastChild.title = t("draws_n", line.draws);
    row.firstChild.style.color = SEAT_COLORS[line.seat % SEAT_COLORS.length];
    return row;
  });
  const body = document.createElement("tbody");
  body.append(...rows);
  const thead = document.createElement("thead");
  thead.appendChild(head);
  table.append(caption, thead, body);
  box.replaceChildren(table);
}

// -- the evaluation graph: each player's chance to win at their turns, a point a turn --------

const SVG = "http://www.w3.org/2000/svg";

function svgElement(name, attributes) {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  return element;
}

function renderGraph() {
  const box = $("review-graph");
  const total = Math.max(review.total, 1);
  const width = 600;
  const height = 160;
  const x = (index) => 10 + ((width - 20) * index) / Math.max(total - 1, 1);
  const y = (win) => 8 + (height - 16) * (1 - win);
  const svg = svgElement("svg", {
    viewBox: `0 0 ${width} ${height}`,
    role: "slider",
    tabindex: 0,
    "aria-label": t("review_graph"),
    "aria-valuemin": 1,
    "aria-valuemax": total,
    "aria-valuenow": review.step + 1,
    "aria-valuetext": turnSummary(review.step),
    preserveAspectRatio: "none",
  });
  svg.appendChild(svgElement("rect", { x: 0, y: 0, width, height, fill: "#fbfbf8" }));
  svg.appendChild(
    svgElement("line", { x1: 0, x2: width, y1: y(0.5), y2: y(0.5), stroke: "#bbb", "stroke-dasharray": "4 4" })
  );
  const seats = new Set(review.turns.map((turn) => turn.seat));
  for (const seat of seats) {
    const points = review.turns
      .map((turn, index) => [turn, index])
      .filter(([turn]) => turn.seat === seat && turn.win !== null)
      .map(([turn, index]) => `${x(index).toFixed(1)},${y(turn.win).toFixed(1)}`);
    if (points.length) {
      svg.appendChild(
        svgElement("polyline", {
          points: points.join(" "),
          fill: "none",
          stroke: SEAT_COLORS[seat % SEAT_COLORS.length],
          "stroke-width": 2,
          "vector-effect": "non-scaling-stroke",
        })
      );
    }
  }
  svg.appendChild(
    svgElement("line", {
      x1: x(review.step), x2: x(review.step), y1: 0, y2: height,
      stroke: "#1a56c8", "stroke-width": 2, "vector-effect": "non-scaling-stroke",
    })
  );
  review.turns.forEach((turn, index) => {
    if (turn.win === null) return;
    const marked = turn.mark !== null;
    const point = svgElement("circle", {
      cx: x(index), cy: y(turn.win), r: marked ? 6 : 3.5,
      class: "point" + (marked ? " mark-" + markClass(turn.mark) : ""),
      fill: marked ? markColor(turn.mark) : SEAT_COLORS[turn.seat % SEAT_COLORS.length],
      "data-turn": turn.turn,
    });
    svg.appendChild(point);
  });
  // A click anywhere picks the nearest turn: a phone's finger need not hit the point.
  svg.addEventListener("click", (event) => {
    const box = svg.getBoundingClientRect();
    const at = ((event.clientX - box.left) / box.width) * width;
    const index = Math.round(((at - 10) / (width - 20)) * Math.max(total - 1, 1));
    showTurn(Math.min(Math.max(index, 0), total - 1));
  });
  svg.addEventListener("keydown", (event) => {
    if (reviewKey(event)) event.preventDefault();
  });
  const hadFocus = box.contains(document.activeElement);
  box.replaceChildren(svg);
  if (hadFocus) svg.focus();
}

function markClass(mark) {
  return { "?!": "inaccuracy", "?": "mistake", "??": "blunder" }[mark];
}

function markColor(mark) {
  return { "?!": "#b58900", "?": "#d2691e", "??": "#b00d28" }[mark];
}

function turnSummary(index) {
  const turn = review.turns[index];
  let text = t("review_turn_n", index + 1) + ", " + turnWords(index);
  if (turn && turn.win !== null) text += ", " + t("review_win", percent(turn.win));
  if (turn && turn.mark) text += ", " + turn.mark + " " + markName(turn.mark);
  return text;
}

// -- the move list -------------------------------------------------------------------------

function renderMoves() {
  const list = $("review-moves");
  const items = [];
  for (let index = 0; index < review.total; index += 1) {
    const turn = review.turns[index];
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "review-move" + (turn && turn.key ? " key" : "");
    button.dataset.index = String(index);
    let text = (index + 1) + ". " + turnWords(index);
    if (turn && turn.mark) text += " " + turn.mark;
    if (!turn) text += " \u2026";
    button.textContent = text;
    if (turn && turn.mark) button.classList.add("mark-" + markClass(turn.mark));
    if (index === review.step) button.setAttribute("aria-current", "step");
    button.addEventListener("click", () => showTurn(index));
    item.appendChild(button);
    items.push(item);
  }
  list.replaceChildren(...items);
}

function keyMoments() {
  return review.turns.map((turn, index) => (turn.key ? index : -1)).filter((index) => index >= 0);
}

function showTurn(index) {
  review.step = Math.min(Math.max(index, 0), Math.max(review.total - 1, 0));
  renderGraph();
  for (const button of $("review-moves").querySelectorAll("button")) {
    if (Number(button.dataset.index) === review.step) button.setAttribute("aria-current", "step");
    else button.removeAttribute("aria-current");
  }
  const current = $("review-moves").querySelector("[aria-current]");
  if (current) current.scrollIntoView({ block: "nearest" });
  renderTurn();
}

function renderTurn() {
  const index = review.step;
  const turn = review.turns[index];
  $("review-turn").textContent = t("review_turn", index + 1, review.total, turnWords(index));
  $("review-grade").textContent = turn ? verdict(turn) : t("review_not_yet");
  const before = turn ? turn.before : { table: [], rack: null };
  const after = turn ? turn.after : { table: [], rack: null };
  meldList($("review-before-table"), before.table, []);
  meldList($("review-after-table"), after.table, turn ? turn.played : []);
  for (const [id, rack] of [["review-before-rack", before.rack], ["review-after-rack", after.rack]]) {
    $(id).replaceChildren(...(rack || []).map((tile) => tileElement(tile, { label: t("tile_in", tileName(tile), t("rack")) })));
  }
  const keys = keyMoments();
  $("review-prev").disabled = index === 0;
  $("review-next").disabled = index >= review.total - 1;
  $("review-prev-key").disabled = !keys.some((k) => k < index);
  $("review-next-key").disabled = !keys.some((k) => k > index);
  $("review-open").disabled = !(turn && turn.notation);
  $("review-vary").disabled = !(turn && turn.before.rack);
  if (typeof renderSaved === "function") renderSaved();
}

// The turn's verdict in words, from the server's figures.
function verdict(turn) {
  const parts = [];
  if (turn.win === null) return t("review_unknown");
  parts.push(t("review_win", percent(turn.win)));
  if (turn.graded) {
    if (turn.mark) parts.push(turn.mark + " " + markName(turn.mark));
    parts.push(t("review_lost", percent(turn.played_win), (turn.lost * 100).toFixed(1), turn.accuracy.toFixed(1)));
    if (turn.lost > 0 && turn.best) {
      const best = turn.best.played.length ? turn.best.played.join(" ") : t("review_draw");
      parts.push(t("review_best_was", best, percent(turn.best.win)));
    } else parts.push(t("grade_best"));
  } else if (turn.choices <= 1) parts.push(t("review_no_choice"));
  if (turn.luck !== null) parts.push(t("review_luck", turn.drew || "?", signed(turn.luck)));
  return parts.join(" \u2022 ");
}

function reviewKey(event) {
  if (!review.record || review.total === 0) return false;
  const keys = keyMoments();
  const index = review.step;
  const moves = {
    ArrowLeft: index - 1,
    ArrowRight: index + 1,
    ArrowDown: index - 1,
    ArrowUp: index + 1,
    Home: 0,
    End: review.total - 1,
    "[": [...keys].reverse().find((k) => k < index),
    "]": keys.find((k) => k > index),
  };
  if (!(event.key in moves)) return false;
  const to = moves[event.key];
  if (to !== undefined) showTurn(to);
  return true;
}

function startReview() {
  $("game-review").addEventListener("click", reviewGame);
  $("review-stop").addEventListener("click", stopReview);
  $("review-resume").addEventListener("click", runReview);
  $("review-prev").addEventListener("click", () => showTurn(review.step - 1));
  $("review-next").addEventListener("click", () => showTurn(review.step + 1));
  $("review-prev-key").addEventListener("click", () => {
    const back = keyMoments().filter((k) => k < review.step);
    if (back.length) showTurn(back[back.length - 1]);
  });
  $("review-next-key").addEventListener("click", () => {
    const on = keyMoments().find((k) => k > review.step);
    if (on !== undefined) showTurn(on);
  });
  $("review-open").addEventListener("click", () => {
    const turn = review.turns[review.step];
    analyseOnBoard(turn.notation, turn.view);
  });
  // The arrow keys walk the game while the review is open (not while typing, nor on the
  // graph, which handles them itself).
  document.addEventListener("keydown", (event) => {
    if (currentMode() !== "game" || $("review").hidden || event.defaultPrevented) return;
    if (event.target.matches("input, select, textarea, [role=slider]")) return;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === "ArrowUp" || event.key === "ArrowDown") return; // the page scrolls
    if (reviewKey(event)) event.preventDefault();
  });
}

document.addEventListener("DOMContentLoaded", startReview);
