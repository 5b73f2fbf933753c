// The page: a position built by clicking tiles (or typed in the quick notation), sent to
// the JSON API; the answers are drawn by the server (SVG) and listed (steps, broken rules).
"use strict";

const COLORS = ["K", "R", "B", "O"];
const NUMBERS = 13;
const state = { rack: [], table: [], target: "rack", typed: false };
const $ = (id) => document.getElementById(id);

function tileButton(tile, onClick, label) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "tile " + (tile === "J" ? "J" : tile[0]);
  button.textContent = tile === "J" ? "\u263A" : tile.slice(1);
  button.dataset.tile = tile;
  button.title = label;
  button.setAttribute("aria-label", label);
  button.addEventListener("click", onClick);
  return button;
}

function buildPicker() {
  const picker = $("picker");
  for (const color of COLORS) {
    for (let n = 1; n <= NUMBERS; n++) {
      const tile = color + n;
      picker.appendChild(tileButton(tile, () => addTile(tile), "add " + tile));
    }
    if (color === "K") picker.appendChild(tileButton("J", () => addTile("J"), "add joker J"));
    else picker.appendChild(document.createElement("span"));
  }
}

function addTile(tile) {
  if (state.target === "rack") state.rack.push(tile);
  else state.table[state.target].push(tile);
  state.typed = false;
  render();
}

function render() {
  const rack = $("rack");
  rack.replaceChildren(
    ...state.rack.map((tile, i) =>
      tileButton(tile, () => { state.rack.splice(i, 1); state.typed = false; render(); },
        "remove " + tile + " from the rack"))
  );
  $("rack-place").classList.toggle("selected", state.target === "rack");
  const table = $("table");
  table.replaceChildren(
    ...state.table.map((meld, m) => {
      const item = document.createElement("li");
      item.className = state.target === m ? "selected" : "";
      const label = document.createElement("label");
      const radio = document.createElement("input");
      radio.type = "radio";
      radio.name = "target";
      radio.value = String(m);
      radio.checked = state.target === m;
      radio.setAttribute("aria-label", "meld " + (m + 1));
      radio.addEventListener("change", () => { state.target = m; render(); });
      const tiles = document.createElement("div");
      tiles.className = "tiles";
      tiles.dataset.place = "meld-" + (m + 1);
      tiles.replaceChildren(
        ...meld.map((tile, i) =>
          tileButton(tile, () => { meld.splice(i, 1); state.typed = false; render(); },
            "remove " + tile + " from meld " + (m + 1)))
      );
      label.append(radio, tiles);
      item.appendChild(label);
      return item;
    })
  );
  document.querySelector('input[name=target][value=rack]').checked = state.target === "rack";
  if (!state.typed) $("notation").value = notation();
}

function notation() {
  const melds = state.table.filter((meld) => meld.length).map((meld) => meld.join(" "));
  return (melds.join(" | ") || "-") + " / " + (state.rack.join(" ") || "-");
}

function positionText() {
  let text = $("notation").value.trim();
  if (!$("opened").checked && text.split("/").length < 3) text += " / not-opened";
  return text;
}

function rules() {
  const found = { preset: $("preset").value };
  const initial = $("initial-meld").value;
  if (initial !== "") found.initial_meld = Number(initial);
  return found;
}

async function call(path, body) {
  showMessage("");
  const response = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const data = await response.json();
  if (!response.ok) {
    showMessage(data.error || "The server could not answer (" + response.status + ").");
    clearAnswer();
    return null;
  }
  return data;
}

function showMessage(text) {
  const message = $("message");
  message.textContent = text;
  message.hidden = !text;
}

function clearAnswer() {
  $("summary").textContent = "";
  $("picture").replaceChildren();
  $("steps").replaceChildren();
  $("broken").replaceChildren();
}

function showAnswer(summary, data, broken) {
  clearAnswer();
  $("summary").textContent = summary;
  // The picture is the server's own SVG (tiles and escaped text only).
  $("picture").innerHTML = data.svg || "";
  $("steps").replaceChildren(
    ...(data.steps || []).map((step) => {
      const item = document.createElement("li");
      item.textContent = step.text;
      return item;
    })
  );
  $("broken").replaceChildren(
    ...broken.map((error) => {
      const item = document.createElement("li");
      item.textContent = error;
      return item;
    })
  );
}

const STATUS = {
  optimal: "Best move (proven optimal)",
  feasible: "Best move found in the time limit (not proven)",
  no_move: "No move: draw a tile (proven)",
};

async function solve() {
  const data = await call("/api/solve", {
    position: positionText(),
    rules: rules(),
    objective: $("objective").value,
    svg: true,
  });
  if (!data) return;
  let summary = STATUS[data.status] || data.status;
  if (data.played.length) {
    summary += ": play " + data.played.join(" ") + " (value " + data.value + ")";
  }
  showAnswer(summary, data, []);
}

async function check() {
  const data = await call("/api/check", {
    position: positionText(),
    rules: rules(),
    after: $("after").value,
    svg: true,
  });
  if (!data) return;
  const count = data.errors.length;
  const summary = data.legal
    ? "Legal move: plays " + (data.played.join(" ") || "nothing") + " (value " + data.value + ")"
    : "Illegal move: " + count + " rule" + (count === 1 ? "" : "s") + " broken";
  showAnswer(summary, data, data.errors);
}

async function read() {
  const data = await call("/api/position", { position: positionText(), rules: rules() });
  if (!data) return;
  state.table = data.table.map((meld) => meld.tiles.slice());
  state.rack = data.rack.slice();
  state.target = "rack";
  state.typed = false;
  $("opened").checked = data.opened;
  render();
}

function start() {
  buildPicker();
  document.querySelector('input[name=target][value=rack]').addEventListener("change", () => {
    state.target = "rack";
    render();
  });
  $("new-meld").addEventListener("click", () => {
    state.table.push([]);
    state.target = state.table.length - 1;
    render();
  });
  $("notation").addEventListener("input", () => { state.typed = true; });
  $("read").addEventListener("click", read);
  $("clear").addEventListener("click", () => {
    Object.assign(state, { rack: [], table: [], target: "rack", typed: false });
    clearAnswer();
    showMessage("");
    render();
  });
  $("solve").addEventListener("click", solve);
  $("check").addEventListener("click", check);
  render();
}

document.addEventListener("DOMContentLoaded", start);
