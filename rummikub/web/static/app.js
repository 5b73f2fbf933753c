// The analysis board: a position built by clicking or dragging tiles (or typed in the quick
// notation), kept in the URL and in localStorage, sent to the JSON API; the answers are drawn
// on the page (the best move with its steps, the k best moves, outs, hold or play, a proposed
// table checked). One source of truth: `board` holds the position; the notation box shows it,
// and typed text becomes the board as soon as the server has read it.
"use strict";

const COLORS = ["K", "R", "B", "O"];
const NUMBERS = 13;
// The most draws the outs table lists.
const MOST_OUTS = 12;
const $ = (id) => document.getElementById(id);

const board = {
  table: [],
  rack: [],
  opened: true,
  target: "rack",
  selected: null, // {place: "rack" | meld index, index}
  color: "K",
  preview: null, // {title, table: [[tiles]], rack, played}
};
// Typed notation not read yet: a promise that resolves once the board has it.
let pendingRead = null;
let readTimer = null;

// -- the server ---------------------------------------------------------------------------

let busyCount = 0;

function setBusy(on) {
  busyCount += on ? 1 : -1;
  const busy = busyCount > 0;
  document.body.classList.toggle("busy", busy);
  $("busy-text").textContent = busy ? t("busy") : "";
  for (const control of document.querySelectorAll("main button, main input, main select")) {
    if (busy) {
      if (!control.disabled) {
        control.disabled = true;
        control.dataset.busy = "1";
      }
    } else if (control.dataset.busy) {
      control.disabled = false;
      delete control.dataset.busy;
    }
  }
  if (!busy) refreshControls();
}

// A request to the API; null (with the message shown) when it fails. `quiet` requests
// (reading typed notation) leave the controls alone and show no message.
async function call(path, body, { quiet = false } = {}) {
  if (!quiet) {
    showMessage("");
    setBusy(true);
  }
  try {
    let response;
    try {
      response = await fetch(path, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
    } catch (error) {
      if (!quiet) showMessage(t("unreachable"));
      return { failed: t("unreachable") };
    }
    let data = null;
    try {
      data = await response.json();
    } catch (error) {
      data = null;
    }
    if (!response.ok) {
      const text = failureText(path, data, response.status);
      if (!quiet) showMessage(text);
      return { failed: text };
    }
    return { data };
  } finally {
    if (!quiet) setBusy(false);
  }
}

// What went wrong, in words a player can act on: the server's own words, except for the
// chances to win of a position cut by the time limit before one playout of every move (the
// API's advice, fewer playouts, is not something the board asks for).
function failureText(path, data, status) {
  if (path === "/api/analyse" && data && data.stopped_by === "time limit" && data.playouts_done === 0) {
    return t("equity_no_playout", data.playouts);
  }
  return (data && data.error) || t("server_error", status);
}

function showMessage(text) {
  const message = $("message");
  message.textContent = text;
  message.hidden = !text;
  if (text) message.scrollIntoView({ block: "nearest" });
}

function scrollToAnswer(id) {
  const answer = $(id);
  answer.scrollIntoView({ block: "start" });
  answer.focus({ preventScroll: true });
}

// -- tiles ----------------------------------------------------------------------------------

function tileColor(tile) {
  return tile === "J" ? "J" : tile[0];
}

function tileName(tile) {
  return tile === "J" ? "J (" + t("joker") + ")" : tile;
}

// A tile as a button: its number big, its colour as a letter too (colour-blind players).
function tileElement(tile, { label, onClick, draggable, classes = "" } = {}) {
  const element = document.createElement(onClick ? "button" : "span");
  if (onClick) {
    element.type = "button";
    element.addEventListener("click", onClick);
  }
  element.className = "tile " + tileColor(tile) + (classes ? " " + classes : "");
  element.dataset.tile = tile;
  const number = document.createElement("span");
  number.className = "n";
  number.textContent = tile === "J" ? "\u263A" : tile.slice(1);
  const letter = document.createElement("span");
  letter.className = "c";
  letter.textContent = tile === "J" ? "J" : tile[0];
  element.append(number, letter);
  element.setAttribute("aria-label", label || tileName(tile));
  if (!onClick) element.setAttribute("role", "img");
  if (draggable) {
    element.draggable = true;
    element.addEventListener("dragstart", (event) => {
      event.dataTransfer.setData("text/plain", JSON.stringify(draggable));
      event.dataTransfer.effectAllowed = "move";
    });
  }
  return element;
}

function meldList(list, melds, played) {
  const left = countOf(played || []);
  list.replaceChildren(
    ...melds.map((meld) => {
      const item = document.createElement("li");
      const tiles = document.createElement("div");
      tiles.className = "tiles";
      for (const tile of meld) {
        let classes = "";
        if (left.get(tile)) {
          left.set(tile, left.get(tile) - 1);
          classes = "new";
        }
        tiles.appendChild(tileElement(tile, { classes }));
      }
      item.appendChild(tiles);
      return item;
    })
  );
}

function countOf(tiles) {
  const found = new Map();
  for (const tile of tiles) found.set(tile, (found.get(tile) || 0) + 1);
  return found;
}

const COLOR_ORDER = { K: 0, R: 1, B: 2, O: 3, J: 4 };

function tileNumber(tile) {
  return tile === "J" ? 99 : Number(tile.slice(1));
}

function byColor(a, b) {
  return COLOR_ORDER[tileColor(a)] - COLOR_ORDER[tileColor(b)] || tileNumber(a) - tileNumber(b);
}

function byNumber(a, b) {
  return tileNumber(a) - tileNumber(b) || COLOR_ORDER[tileColor(a)] - COLOR_ORDER[tileColor(b)];
}

// -- the position editor --------------------------------------------------------------------

function placeName(place) {
  return place === "rack" ? t("rack") : t("meld", place + 1);
}

function tilesOf(place) {
  return place === "rack" ? board.rack : board.table[place];
}

async function edit(change) {
  // Typed text first becomes the board, then the click applies to it.
  if (pendingRead) await pendingRead;
  if (board.preview) board.preview = null;
  change();
  commit(true);
}

function addTile(tile) {
  edit(() => {
    if (board.target !== "rack" && board.table[board.target] === undefined) board.target = "rack";
    tilesOf(board.target).push(...tilesToAdd(board.target, tile));
  }).then(() => {
    showAgain(tile);
    keepTargetInView();
  });
}

function moveTile(from, index, to) {
  edit(() => {
    const [tile] = tilesOf(from).splice(index, 1);
    if (tile !== undefined && to !== null) tilesOf(to).push(tile);
    board.selected = null;
  });
}

function selectPlace(place) {
  if (board.selected) {
    const { place: from, index } = board.selected;
    if (from !== place) {
      moveTile(from, index, place);
      return;
    }
  }
  board.target = place;
  board.selected = null;
  render();
}

function dropOn(element, place) {
  element.addEventListener("dragover", (event) => {
    event.preventDefault();
    element.classList.add("drop");
  });
  element.addEventListener("dragleave", () => element.classList.remove("drop"));
  element.addEventListener("drop", (event) => {
    event.preventDefault();
    element.classList.remove("drop");
    let what;
    try {
      what = JSON.parse(event.dataTransfer.getData("text/plain"));
    } catch (error) {
      return;
    }
    if (what.from === "picker") {
      if (place !== null) {
        board.target = place;
        addTile(what.tile);
      }
    } else if (place !== what.from) {
      moveTile(what.from, what.index, place);
    }
  });
}

function buildPicker() {
  const picker = $("picker");
  const tiles = [];
  for (let n = 1; n <= NUMBERS; n++) tiles.push(board.color + n);
  tiles.push("J");
  picker.replaceChildren(
    ...tiles.map((tile) =>
      tileElement(tile, {
        label: t("add", tileName(tile)),
        onClick: () => addTile(tile),
        draggable: { from: "picker", tile },
      })
    )
  );
  for (const button of document.querySelectorAll(".color-pick")) {
    button.setAttribute("aria-pressed", String(button.dataset.color === board.color));
  }
}

function placeTiles(container, place) {
  const tiles = tilesOf(place);
  container.replaceChildren(
    ...tiles.map((tile, index) => {
      const selected =
        board.selected && board.selected.place === place && board.selected.index === index;
      const element = tileElement(tile, {
        label: t("tile_in", tileName(tile), placeName(place)),
        classes: selected ? "selected" : "",
        onClick: (event) => {
          event.stopPropagation();
          board.selected = selected ? null : { place, index };
          render();
        },
        draggable: { from: place, index },
      });
      element.setAttribute("aria-pressed", String(Boolean(selected)));
      return element;
    })
  );
  if (!tiles.length) {
    const empty = document.createElement("span");
    empty.className = "empty";
    empty.textContent = place === "rack" ? t("empty_rack") : t("empty_meld");
    container.appendChild(empty);
  }
}

function render() {
  const preview = board.preview;
  $("board").classList.toggle("previewing", Boolean(preview));
  $("preview").hidden = !preview;
  if (preview) {
    $("preview-title").textContent = preview.title;
    meldList($("preview-table"), preview.table, preview.played);
    $("preview-rack").replaceChildren(...preview.rack.map((tile) => tileElement(tile)));
  }
  placeTiles($("rack"), "rack");
  $("rack-target").setAttribute("aria-pressed", String(board.target === "rack"));
  $("rack-place").classList.toggle("selected", board.target === "rack");
  const table = $("table");
  table.replaceChildren(
    ...board.table.map((meld, m) => {
      const item = document.createElement("li");
      item.className = "meld-row" + (board.target === m ? " selected" : "");
      // A tap anywhere on the meld but its tiles and its x makes it the place to fill.
      item.addEventListener("click", (event) => {
        if (!event.target.closest("button")) selectPlace(m);
      });
      const target = document.createElement("button");
      target.type = "button";
      target.className = "target";
      target.textContent = String(m + 1);
      target.setAttribute("aria-label", placeName(m));
      target.setAttribute("aria-pressed", String(board.target === m));
      target.addEventListener("click", () => selectPlace(m));
      const tiles = document.createElement("div");
      tiles.className = "tiles";
      placeTiles(tiles, m);
      dropOn(tiles, m);
      const remove = document.createElement("button");
      remove.type = "button";
      remove.className = "delete";
      remove.textContent = "\u00D7";
      remove.setAttribute("aria-label", t("delete_meld", m + 1));
      remove.title = t("delete_meld", m + 1);
      remove.addEventListener("click", () =>
        edit(() => {
          board.table.splice(m, 1);
          board.target = "rack";
          board.selected = null;
        })
      );
      item.append(target, tiles, remove);
      return item;
    })
  );
  if (!board.table.length) {
    const item = document.createElement("li");
    item.className = "empty";
    item.textContent = t("empty_table");
    table.appendChild(item);
  }
  const selected = board.selected;
  $("selected-tools").hidden = !selected;
  if (selected) {
    const tile = tilesOf(selected.place)[selected.index];
    $("selected-text").textContent = t("selected", tileName(tile));
  }
  $("opened").checked = board.opened;
}

function notation() {
  const melds = board.table.filter((meld) => meld.length).map((meld) => meld.join(" "));
  let text = (melds.join(" | ") || "-") + " / " + (board.rack.join(" ") || "-");
  if (!board.opened) text += " / not-opened";
  return text;
}

// The options beyond the preset and the initial meld (a record's small box, say), typed as
// the command line's --rule takes them: "numbers=7 colors=KRB". The server judges them.
function ruleOptions() {
  const found = {};
  for (const word of $("rule-options").value.split(/[\s,]+/)) {
    if (!word) continue;
    const at = word.indexOf("=");
    const key = at < 0 ? word : word.slice(0, at);
    const raw = at < 0 ? "" : word.slice(at + 1);
    if (/^-?\d+$/.test(raw)) found[key] = Number(raw);
    else if (raw === "true" || raw === "false") found[key] = raw === "true";
    else found[key] = raw;
  }
  return found;
}

function rules() {
  const found = { ...ruleOptions(), preset: $("preset").value };
  const initial = $("initial-meld").value;
  if (initial !== "" && Number(initial) !== 30) found.initial_meld = Number(initial);
  return found;
}

// Rules as a record or a puzzle writes them ({} is standard) shown on the board, so that a
// position opened from a game is analysed under the game's rules.
function setRules(data) {
  const { preset = "standard", initial_meld: initial, ...options } = data || {};
  $("preset").value = preset;
  $("initial-meld").value = initial === undefined ? "30" : String(initial);
  $("rule-options").value = Object.entries(options)
    .map(([key, value]) => `${key}=${value}`)
    .join(" ");
}

// The board changed: the notation box, the URL (a new history entry when `push`), and
// localStorage follow it.
function commit(push) {
  const text = notation();
  $("notation").value = text;
  $("notation-state").textContent = t("notation_read");
  $("notation").removeAttribute("aria-invalid");
  keepPosition(text, push);
  render();
}

function urlOf(text) {
  const params = new URLSearchParams();
  if (text && text !== "- / -") params.set("p", text);
  const preset = $("preset").value;
  if (preset !== "standard") params.set("rules", preset);
  const initial = $("initial-meld").value;
  if (initial !== "" && Number(initial) !== 30) params.set("initial", initial);
  for (const [key, value] of Object.entries(ruleOptions())) params.append("rule", `${key}=${value}`);
  if ($("players").value !== "2") params.set("players", $("players").value);
  if ($("other-racks").value.trim()) params.set("racks", $("other-racks").value.trim());
  if (typeof cardParams === "function") cardParams(params);
  const mode = currentMode();
  if (mode !== "board") params.set("mode", mode);
  const query = params.toString();
  return location.pathname + (query ? "?" + query : "");
}

function keepPosition(text, push) {
  const url = urlOf(text);
  if (url !== location.pathname + location.search) {
    if (push) history.pushState({ p: text }, "", url);
    else history.replaceState({ p: text }, "", url);
  }
  localStorage.setItem(
    "rummikub.board",
    JSON.stringify({
      p: text,
      rules: $("preset").value,
      initial: $("initial-meld").value,
      more: $("rule-options").value,
      players: $("players").value,
      racks: $("other-racks").value,
    })
  );
}

// Typed (or linked) notation read by the server and made the board.
async function readNotation(text, { push = false, quiet = true, stale = () => false } = {}) {
  if (!text.trim() || text.trim() === "- / -") {
    Object.assign(board, { table: [], rack: [], target: "rack", selected: null });
    commit(push);
    return true;
  }
  $("notation-state").textContent = t("notation_reading");
  const { data, failed } = await call("/api/position", { position: text, rules: rules() }, { quiet });
  // A read overtaken while it waited (Back, then Forward, before the server answered) would
  // write its position over the newer one, in the board and in the history's URL.
  if (stale()) return true;
  if (!data) {
    $("notation-state").textContent = t("notation_bad", failed);
    $("notation").setAttribute("aria-invalid", "true");
    return false;
  }
  board.table = data.table.map((meld) => meld.tiles.slice());
  board.rack = data.rack.slice();
  board.opened = data.opened;
  board.target = "rack";
  board.selected = null;
  board.preview = null;
  const typed = $("notation").value;
  commit(push);
  // Keep what the person typed while it says the same (commit wrote the long form).
  if (document.activeElement === $("notation")) $("notation").value = typed;
  return true;
}

function scheduleRead() {
  clearTimeout(readTimer);
  let finish;
  pendingRead = new Promise((resolve) => (finish = resolve));
  readTimer = setTimeout(async () => {
    await readNotation($("notation").value);
    pendingRead = null;
    finish();
  }, 300);
}

async function settled() {
  // Typed text not read yet, or read quietly and refused: read it now, the message shown,
  // so that an answer is never the last good position's while other text stands typed.
  const refused = $("notation").getAttribute("aria-invalid") === "true";
  if (pendingRead || refused) {
    clearTimeout(readTimer);
    const ok = await readNotation($("notation").value, { quiet: false });
    pendingRead = null;
    return ok;
  }
  return true;
}

function positionText() {
  return notation();
}

// -- answers -------------------------------------------------------------------------------

function clearAnswer() {
  const ids = ["summary", "picture", "steps", "broken", "moves", "outs-answer", "hold-answer"];
  for (const id of [...ids, "equity-answer"]) {
    $(id).replaceChildren();
  }
}

function list(id, items) {
  $(id).replaceChildren(
    ...items.map((text) => {
      const item = document.createElement("li");
      item.textContent = text;
      return item;
    })
  );
}

function summaryOf(data) {
  let summary = t("status_" + data.status);
  if (data.played && data.played.length) {
    summary = t("play_value", summary, data.played.join(" "), data.value);
  }
  return summary;
}

async function askSolve() {
  if (!(await settled())) return;
  const { data } = await call("/api/solve", {
    position: positionText(),
    rules: rules(),
    objective: $("objective").value,
    svg: true,
  });
  if (!data) return;
  clearAnswer();
  $("summary").textContent = summaryOf(data);
  // The picture is the server's own SVG (tiles and escaped text only).
  $("picture").innerHTML = data.svg || "";
  labelPicture(summaryOf(data));
  list("steps", (data.steps || []).map((step) => step.text));
  scrollToAnswer("answer");
}

function labelPicture(text) {
  const svg = $("picture").querySelector("svg");
  if (svg) {
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", text);
  }
}

async function analyse(options) {
  if (!(await settled())) return null;
  const { data } = await call("/api/analyse", {
    position: positionText(),
    rules: rules(),
    objective: $("objective").value,
    ...options,
  });
  if (data) clearAnswer();
  return data;
}

function moveTable(move) {
  return move.table.map((meld) => meld.tiles);
}

async function askTop() {
  const data = await analyse({ top: 3 });
  if (!data) return;
  $("summary").textContent = summaryOf(data);
  const box = $("moves");
  const title = document.createElement("h3");
  title.textContent = t("moves_title");
  const items = document.createElement("ol");
  items.className = "move-list";
  for (const move of data.moves) {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "move";
    button.textContent = move.played.length
      ? t("move_line", move.rank, move.played.join(" "), move.value, move.tiles)
      : t("no_move_line", move.rank);
    button.addEventListener("click", () => {
      board.preview = {
        title: t("preview_of", move.rank),
        table: moveTable(move),
        rack: move.rack,
        played: move.played,
      };
      render();
      $("preview").scrollIntoView({ block: "nearest" });
    });
    item.appendChild(button);
    items.appendChild(item);
  }
  box.append(title, items);
  scrollToAnswer("answer");
}

async function askOuts() {
  const data = await analyse({ outs: true });
  if (!data) return;
  const outs = data.outs;
  const box = $("outs-answer");
  const title = document.createElement("h3");
  title.textContent = t("outs_title");
  const summary = document.createElement("p");
  summary.id = "outs-summary";
  summary.textContent = t("outs_summary", outs.unseen, outs.today);
  box.append(title, summary);
  if (!outs.outs.length) {
    const none = document.createElement("p");
    none.textContent = t("outs_none");
    box.appendChild(none);
  } else {
    const table = document.createElement("table");
    table.className = "outs";
    const head = table.createTHead().insertRow();
    for (const key of ["out_tile", "out_count", "out_chance", "out_gain"]) {
      const cell = document.createElement("th");
      cell.scope = "col";
      cell.textContent = t(key);
      head.appendChild(cell);
    }
    const body = table.createTBody();
    // The draws that gain the most first (the server's order); a long tail is counted.
    const shown = outs.outs.filter((out) => out.gain > 0).slice(0, MOST_OUTS);
    for (const out of shown.length ? shown : outs.outs.slice(0, MOST_OUTS)) {
      const row = body.insertRow();
      row.insertCell().appendChild(tileElement(out.tile));
      row.insertCell().textContent = out.count;
      row.insertCell().textContent = percent(out.chance);
      row.insertCell().textContent = "+" + out.gain;
    }
    box.appendChild(table);
    const rest = outs.outs.length - body.rows.length;
    if (rest > 0) {
      const more = document.createElement("p");
      more.className = "hint";
      more.textContent = t("outs_more", rest);
      box.appendChild(more);
    }
    box.appendChild(chanceChart(outs.chance));
  }
  scrollToAnswer("answer");
}

// The equity of every candidate (analyse --equity): the evaluation bar of the position, then
// each candidate's chance to win as a bar with its 95% interval, the best equity first.
async function askEquity() {
  const data = await analyse({ equity: equityRequest() });
  if (!data) return;
  const found = data.equity;
  const box = $("equity-answer");
  const title = document.createElement("h3");
  title.textContent = equityTitle(found);
  const evaluation = document.createElement("p");
  evaluation.id = "equity-evaluation";
  // Cut short by the time limit: said plainly, in place of the position's chance, and no
  // advice from an unfinished comparison.
  const stopped = found.status === "stopped";
  if (stopped) {
    evaluation.className = "stopped";
    evaluation.textContent = t("equity_stopped", found.playouts_done, found.playouts);
    box.append(title, evaluation);
  } else {
    evaluation.textContent = found.exact
      ? t("equity_exact", wholePercent(found.win))
      : t("equity_eval", wholePercent(found.win), wholePercent(found.ci[0]), wholePercent(found.ci[1]));
    box.append(title, evaluation, equityBar(found.win, found.ci, t("equity_position")));
  }
  const table = document.createElement("table");
  table.className = "outs equity";
  const head = table.createTHead().insertRow();
  for (const key of ["eq_move", "eq_win", "eq_interval", "eq_score", "eq_value"]) {
    const cell = document.createElement("th");
    cell.scope = "col";
    cell.textContent = t(key);
    // On a phone the interval is the band behind each bar (and its label), not a column.
    if (key === "eq_interval") cell.className = "interval";
    head.appendChild(cell);
  }
  const body = table.createTBody();
  for (const candidate of found.candidates) {
    const row = body.insertRow();
    row.insertCell().textContent = candidateText(candidate, found.pool);
    const win = row.insertCell();
    const label = candidateText(candidate, found.pool) + ", " + intervalText(candidate);
    win.appendChild(equityBar(candidate.win, candidate.ci, label));
    const interval = row.insertCell();
    interval.className = "interval";
    interval.textContent = intervalText(candidate);
    row.insertCell().textContent = (candidate.score >= 0 ? "+" : "") + candidate.score.toFixed(1);
    row.insertCell().textContent = candidate.value;
  }
  box.appendChild(table);
  if (!stopped) {
    const advice = document.createElement("p");
    advice.id = "equity-advice";
    advice.textContent = adviceText(found);
    box.appendChild(advice);
  }
  scrollToAnswer("answer");
}

function intervalText(candidate) {
  if (candidate.exact) return t("eq_exact");
  return wholePercent(candidate.ci[0]) + "–" + wholePercent(candidate.ci[1]);
}

function wholePercent(chance) {
  return Math.round(100 * chance) + " %";
}

function candidateText(candidate, pool) {
  if (candidate.played.length) return candidate.played.join(" ");
  return t(pool === 0 ? "eq_pass" : "eq_draw");
}

// A bar from 0 to 100 %: the chance filled, its 95% interval a band behind it.
function equityBar(win, ci, label) {
  const bar = document.createElement("span");
  bar.className = "bar equity-bar";
  bar.setAttribute("role", "img");
  bar.setAttribute("aria-label", label + ": " + wholePercent(win));
  const band = document.createElement("span");
  band.className = "band";
  band.style.left = (100 * ci[0]).toFixed(1) + "%";
  band.style.width = (100 * (ci[1] - ci[0])).toFixed(1) + "%";
  const fill = document.createElement("span");
  fill.className = "fill";
  fill.style.width = (100 * win).toFixed(1) + "%";
  const value = document.createElement("span");
  value.className = "bar-text";
  value.textContent = wholePercent(win);
  bar.append(band, fill, value);
  return bar;
}

function percent(chance) {
  return (100 * chance).toFixed(1) + " %";
}

// A small bar chart: the chance that the next draw gains at least so many points.
function chanceChart(chances) {
  const figure = document.createElement("figure");
  figure.className = "chart";
  const caption = document.createElement("figcaption");
  caption.textContent = t("chance_title");
  figure.appendChild(caption);
  const top = Math.max(...chances.map((c) => c.chance), 0.0001);
  for (const chance of chances) {
    const row = document.createElement("div");
    row.className = "bar-row";
    const label = document.createElement("span");
    label.className = "bar-label";
    label.textContent = t("chance_row", chance.at_least);
    const bar = document.createElement("span");
    bar.className = "bar";
    const fill = document.createElement("span");
    fill.className = "fill";
    fill.style.width = ((100 * chance.chance) / top).toFixed(1) + "%";
    bar.appendChild(fill);
    const value = document.createElement("span");
    value.className = "bar-value";
    value.textContent = percent(chance.chance);
    row.append(label, bar, value);
    figure.appendChild(row);
  }
  return figure;
}

async function askHold() {
  const data = await analyse({ hold: true });
  if (!data) return;
  const hold = data.hold;
  const box = $("hold-answer");
  const title = document.createElement("h3");
  title.textContent = t("hold_title");
  box.appendChild(title);
  const lines = [];
  if (!hold) {
    lines.push(t("hold_no_jokers"));
  } else {
    if (hold.keep_jokers) {
      const keep = hold.keep_jokers;
      lines.push(t("hold_keep", keep.played.join(" ") || t("nothing"), keep.value));
    }
    if (hold.joker_cost) lines.push(t("hold_cost", hold.joker_cost, data.played.join(" ")));
    if (hold.fewest) lines.push(t("hold_fewest", hold.fewest.played.join(" "), hold.tiles_kept));
  }
  for (const line of lines) {
    const p = document.createElement("p");
    p.textContent = line;
    box.appendChild(p);
  }
  scrollToAnswer("answer");
}

// -- a proposed table, clicked in on a copy of the table ------------------------------------

const proposal = { table: [], rack: [], target: 0, selected: null, typed: false };

function openProposal() {
  proposal.table = board.table.filter((m) => m.length).map((meld) => meld.slice());
  proposal.rack = board.rack.slice();
  proposal.table.push([]);
  proposal.target = proposal.table.length - 1;
  proposal.selected = null;
  proposal.typed = false;
  $("proposal").hidden = false;
  renderProposal();
  $("proposal").scrollIntoView({ block: "nearest" });
}

function proposalTiles(place) {
  return place === "rack" ? proposal.rack : proposal.table[place];
}

function proposalSelect(place) {
  if (proposal.selected) {
    const { place: from, index } = proposal.selected;
    if (from !== place) {
      const [tile] = proposalTiles(from).splice(index, 1);
      proposalTiles(place).push(tile);
    }
    proposal.selected = null;
  } else if (place !== "rack") {
    proposal.target = place;
  }
  proposal.typed = false;
  renderProposal();
}

function proposalTile(place, index) {
  if (place === "rack" && !proposal.selected) {
    // A rack tile goes straight into the selected meld.
    const [tile] = proposal.rack.splice(index, 1);
    if (proposal.table[proposal.target] === undefined) proposal.table.push([]);
    const target = proposal.table[proposal.target] ? proposal.target : proposal.table.length - 1;
    proposal.table[target].push(tile);
  } else if (proposal.selected && proposal.selected.place === place && proposal.selected.index === index) {
    proposal.selected = null;
  } else {
    proposal.selected = { place, index };
  }
  proposal.typed = false;
  renderProposal();
}

function proposalPlace(container, place) {
  container.replaceChildren(
    ...proposalTiles(place).map((tile, index) => {
      const selected =
        proposal.selected && proposal.selected.place === place && proposal.selected.index === index;
      const name = place === "rack" ? t("rack_left") : t("meld", place + 1);
      const element = tileElement(tile, {
        label: t("tile_in", tileName(tile), name),
        classes: selected ? "selected" : "",
        onClick: () => proposalTile(place, index),
      });
      element.setAttribute("aria-pressed", String(Boolean(selected)));
      return element;
    })
  );
}

// A deleted meld gives its rack tiles back to the rack; its table tiles cannot leave the
// table, so they stay on it, gathered in one meld to place (a copy of the table keeps every
// tile the table had: the rack takes back only what the table now holds beyond that).
function deleteProposedMeld(m) {
  const [deleted] = proposal.table.splice(m, 1);
  const before = countOf(board.table.flat());
  const kept = [];
  for (const tile of deleted) {
    const onTable = countOf(proposal.table.flat().concat(kept));
    if ((onTable.get(tile) || 0) < (before.get(tile) || 0)) kept.push(tile);
    else proposal.rack.push(tile);
  }
  const last = proposal.table.length - 1;
  if (kept.length && last >= 0 && proposal.table[last].length === 0) proposal.table[last] = kept;
  else if (kept.length || last < 0) proposal.table.push(kept);
  proposal.target = proposal.table.length - 1;
  proposal.selected = null;
  proposal.typed = false;
  renderProposal();
}

function renderProposal() {
  proposalPlace($("proposal-rack"), "rack");
  $("proposal-rack-target").setAttribute("aria-pressed", String(Boolean(proposal.selected)));
  $("proposal-table").replaceChildren(
    ...proposal.table.map((meld, m) => {
      const item = document.createElement("li");
      item.className = "meld-row" + (proposal.target === m ? " selected" : "");
      const target = document.createElement("button");
      target.type = "button";
      target.className = "target";
      target.textContent = t("meld", m + 1);
      target.setAttribute("aria-pressed", String(proposal.target === m));
      target.addEventListener("click", () => proposalSelect(m));
      const tiles = document.createElement("div");
      tiles.className = "tiles";
      proposalPlace(tiles, m);
      const remove = document.createElement("button");
      remove.type = "button";
      remove.className = "delete";
      remove.textContent = "\u00D7";
      remove.setAttribute("aria-label", t("delete_meld", m + 1));
      remove.addEventListener("click", () => deleteProposedMeld(m));
      item.append(target, tiles, remove);
      return item;
    })
  );
  if (!proposal.typed) {
    $("after").value = proposal.table
      .filter((meld) => meld.length)
      .map((meld) => meld.join(" "))
      .join(" | ");
  }
}

async function askCheck() {
  if (!(await settled())) return;
  const { data } = await call("/api/check", {
    position: positionText(),
    rules: rules(),
    after: $("after").value,
    svg: true,
  });
  if (!data) return;
  clearAnswer();
  const count = data.errors.length;
  const summary = data.legal
    ? t("legal", data.played.join(" ") || t("nothing"), data.value)
    : count === 1
      ? t("illegal_one")
      : t("illegal", count);
  $("summary").textContent = summary;
  $("picture").innerHTML = data.svg || "";
  labelPicture(summary);
  list("steps", (data.steps || []).map((step) => step.text));
  list("broken", data.errors);
  scrollToAnswer("answer");
}

// -- modes, start ---------------------------------------------------------------------------

function currentMode() {
  const pressed = document.querySelector(".mode[aria-pressed=true]");
  return pressed ? pressed.dataset.mode : "board";
}

function showMode(mode, push) {
  for (const button of document.querySelectorAll(".mode")) {
    button.setAttribute("aria-pressed", String(button.dataset.mode === mode));
  }
  for (const panel of document.querySelectorAll(".mode-panel")) {
    panel.hidden = panel.id !== mode;
  }
  if (push !== undefined) keepPosition(notation(), push);
  if (mode === "game" && typeof showGame === "function") showGame();
}

// Buttons whose use depends on the state (set again after every request).
function refreshControls() {
  if (typeof refreshGameControls === "function") refreshGameControls();
}

async function copyLink() {
  if (!(await settled())) return;
  const url = location.origin + urlOf(notation());
  try {
    await navigator.clipboard.writeText(url);
  } catch (error) {
    // No clipboard (a page not on localhost, or refused): the link is shown to copy by hand.
  }
  showNote(t("link_copied", url));
}

function showNote(text) {
  $("summary").textContent = text;
}

// Each visit to a history entry: only the latest one's read may make the board.
let locationVisits = 0;

async function fromLocation() {
  const visit = ++locationVisits;
  const params = new URLSearchParams(location.search);
  let text = params.get("p");
  let preset = params.get("rules");
  let initial = params.get("initial");
  let more = params.getAll("rule").join(" ");
  let players = params.get("players");
  let racks = params.get("racks");
  if (text === null) {
    const kept = JSON.parse(localStorage.getItem("rummikub.board") || "null");
    if (kept) ({ p: text, rules: preset, initial, more = "", players, racks } = kept);
  }
  $("players").value = players || "2";
  $("other-racks").value = racks || "";
  if (preset) $("preset").value = preset;
  $("initial-meld").value = initial || "30";
  $("rule-options").value = more;
  showMode(params.get("mode") || "board");
  $("notation").value = text || "";
  await readNotation(text || "", { quiet: false, stale: () => visit !== locationVisits });
}

function start() {
  const chosen = chooseLanguage();
  $("lang").value = chosen;
  applyLanguage(chosen);
  $("lang").addEventListener("change", () => {
    localStorage.setItem("rummikub.lang", $("lang").value);
    applyLanguage($("lang").value);
    buildPicker();
    render();
    if (!$("proposal").hidden) renderProposal();
    if (typeof languageChanged === "function") languageChanged();
  });
  for (const button of document.querySelectorAll(".mode")) {
    button.addEventListener("click", () => showMode(button.dataset.mode, true));
  }
  for (const button of document.querySelectorAll(".color-pick")) {
    button.addEventListener("click", () => {
      board.color = button.dataset.color;
      buildPicker();
    });
  }
  buildPicker();
  dropOn($("rack"), "rack");
  dropOn($("picker"), null);
  $("rack-target").addEventListener("click", () => selectPlace("rack"));
  $("new-meld").addEventListener("click", () =>
    edit(() => {
      board.table.push([]);
      board.target = board.table.length - 1;
    })
  );
  $("sort-color").addEventListener("click", () => edit(() => board.rack.sort(byColor)));
  $("sort-number").addEventListener("click", () => edit(() => board.rack.sort(byNumber)));
  $("remove-tile").addEventListener("click", () => {
    if (board.selected) moveTile(board.selected.place, board.selected.index, null);
  });
  $("deselect").addEventListener("click", () => {
    board.selected = null;
    render();
  });
  document.addEventListener("keydown", (event) => {
    if (currentMode() !== "board" || !board.selected) return;
    if (event.target.matches("input, select, textarea")) return;
    if (event.key === "Delete" || event.key === "Backspace") {
      event.preventDefault();
      moveTile(board.selected.place, board.selected.index, null);
    } else if (event.key === "Escape") {
      board.selected = null;
      render();
    }
  });
  $("notation").addEventListener("input", scheduleRead);
  $("notation-form").addEventListener("submit", (event) => {
    event.preventDefault();
    askSolve();
  });
  $("opened").addEventListener("change", () => edit(() => (board.opened = $("opened").checked)));
  for (const id of ["preset", "initial-meld", "rule-options"]) {
    $(id).addEventListener("change", () => keepPosition(notation(), false));
  }
  $("clear").addEventListener("click", () =>
    edit(() => {
      Object.assign(board, { rack: [], table: [], target: "rack", selected: null, opened: true });
      // The game around the old position goes with it.
      $("players").value = "2";
      $("other-racks").value = "";
      board.othersOpened = undefined;
      clearAnswer();
      showMessage("");
    })
  );
  $("solve").addEventListener("click", askSolve);
  $("top").addEventListener("click", askTop);
  $("outs").addEventListener("click", askOuts);
  $("hold").addEventListener("click", askHold);
  $("equity").addEventListener("click", askEquity);
  $("propose").addEventListener("click", openProposal);
  $("proposal-close").addEventListener("click", () => ($("proposal").hidden = true));
  $("proposal-new-meld").addEventListener("click", () => {
    proposal.table.push([]);
    proposal.target = proposal.table.length - 1;
    renderProposal();
  });
  $("proposal-rack-target").addEventListener("click", () => proposalSelect("rack"));
  $("after").addEventListener("input", () => (proposal.typed = true));
  $("after-form").addEventListener("submit", (event) => {
    event.preventDefault();
    askCheck();
  });
  $("check").addEventListener("click", askCheck);
  $("copy-link").addEventListener("click", copyLink);
  $("preview-close").addEventListener("click", () => {
    board.preview = null;
    render();
  });
  window.addEventListener("popstate", () => fromLocation());
  render();
  fromLocation();
}

document.addEventListener("DOMContentLoaded", start);
