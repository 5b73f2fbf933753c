// Games against the solver players (/api/game/...). The server keeps nothing: the page holds
// the game's record (kept in localStorage, so a reload finds the game again), sends it with
// every request and keeps the record it gets back.
"use strict";

const games = { record: null, game: null, selected: new Set() };

function keepGame() {
  if (games.record) localStorage.setItem("rummikub.game", JSON.stringify(games.record));
  else localStorage.removeItem("rummikub.game");
}

function takeGame(data) {
  games.record = data.record;
  games.game = data.game;
  games.selected = new Set();
  keepGame();
  renderGame();
}

async function gameCall(path, body) {
  const { data } = await call(path, body);
  if (data) {
    takeGame(data);
    $("game-hint-text").textContent = "";
  }
  return data;
}

function gameTable(list, table) {
  meldList(list, table.map((meld) => meld.tiles), []);
}

function renderGame() {
  const game = games.game;
  $("game-area").hidden = !game;
  if (!game) {
    $("game-status").textContent = t("no_game");
    refreshGameControls();
    return;
  }
  if (game.over) {
    const result = game.result;
    const names = result.winners.map((seat) => game.players[seat]).join(", ");
    $("game-status").textContent = t("game_over", names ? t("winners", names) : t("no_winner"));
  } else {
    $("game-status").textContent = t("your_turn", game.turn, game.pool);
  }
  $("game-others").textContent = game.players
    .map((name, seat) =>
      seat === 0
        ? null
        : t("others", name, game.rack_counts[seat], game.opened[seat] ? "" : t("not_opened"))
    )
    .filter(Boolean)
    .join("; ");
  gameTable($("game-table"), game.table);
  if (!game.table.length) {
    const item = document.createElement("li");
    item.className = "empty";
    item.textContent = t("empty_table");
    $("game-table").appendChild(item);
  }
  $("game-rack").replaceChildren(
    ...(game.rack || []).map((tile, index) => {
      const selected = games.selected.has(index);
      const element = tileElement(tile, {
        label: t("tile_in", tileName(tile), t("rack")),
        classes: selected ? "selected" : "",
        onClick: () => {
          if (games.selected.has(index)) games.selected.delete(index);
          else games.selected.add(index);
          renderGame();
        },
      });
      element.setAttribute("aria-pressed", String(selected));
      return element;
    })
  );
  list(
    "game-turns",
    game.turns.map((turn) => turn.player + ": " + turn.text)
  );
  $("game-draw").textContent = game.pool ? t("draw") : t("pass");
  refreshGameControls();
}

function refreshGameControls() {
  if (busyCount > 0) return;
  const game = games.game;
  const playing = Boolean(game && game.your_turn);
  for (const id of ["game-play", "game-draw", "game-hint", "game-table-text"]) $(id).disabled = !playing;
  $("game-undo").disabled = !(game && game.undo);
  $("game-analyse").disabled = !(game && game.notation);
  $("game-download").disabled = !games.record;
  $("game-review").disabled = !(games.record && games.record.turns.length);
}

async function newGame(event) {
  event.preventDefault();
  const count = Number($("opponent-count").value);
  const body = { opponents: Array(count).fill(opponentName()) };
  const seed = $("seed").value;
  if (seed !== "") body.seed = Number(seed);
  const chosen = rules();
  if (Object.keys(chosen).length > 1 || chosen.preset !== "standard") body.rules = chosen;
  closeReview();
  if (await gameCall("/api/game/new", body)) scrollToAnswer("game-area");
}

async function playSelected() {
  const text = $("game-table-text").value.trim();
  if (text) {
    if (await gameCall("/api/game/move", { record: games.record, table: text })) {
      $("game-table-text").value = "";
    }
    return;
  }
  const rack = games.game.rack;
  const tiles = [...games.selected].sort((a, b) => a - b).map((index) => rack[index]);
  if (!tiles.length) {
    showMessage(t("select_first"));
    return;
  }
  await gameCall("/api/game/move", { record: games.record, tiles: tiles.join(" ") });
}

async function hint() {
  const { data } = await call("/api/game/hint", { record: games.record });
  if (!data) return;
  const text = data.played.length
    ? t("hint_text", t("play_value", t("status_" + data.status), data.played.join(" "), data.value))
    : t("hint_none");
  $("game-hint-text").textContent = text;
  // The hint's tiles are selected, ready to play.
  const left = countOf(data.played);
  games.selected = new Set();
  games.game.rack.forEach((tile, index) => {
    if (left.get(tile)) {
      left.set(tile, left.get(tile) - 1);
      games.selected.add(index);
    }
  });
  renderGame();
}

function download() {
  const text = JSON.stringify(games.record, null, 1) + "\n";
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  link.download = "rummikub-game.json";
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

async function loadFile() {
  const file = $("game-file").files[0];
  if (!file) return;
  const text = await file.text();
  $("game-file").value = "";
  closeReview();
  await gameCall("/api/game/load", { text });
}

// A position of the game opened on the board, under the game's rules, with the game around
// it (its players, their racks' sizes) for the chances to win.
function analyseOnBoard(text, view) {
  setRules(games.record.rules);
  setGameView(view);
  showMode("board", true);
  $("notation").value = text;
  readNotation(text, { push: true, quiet: false });
}

function showGame() {
  renderGame();
}

function languageChanged() {
  renderGame();
  if (typeof renderReview === "function") renderReview();
  if (typeof renderVariation === "function") renderVariation();
}

// -- the opponents: every registered strategy, and a strength that picks one ----------------

// The players the server knows (/api "strategies", its registry), each in words where the
// page has them; the strength select names one of them, or "the player chosen".
async function listOpponents() {
  let names = null;
  try {
    const response = await fetch("/api");
    if (response.ok) names = (await response.json()).strategies;
  } catch (error) {
    names = null;
  }
  if (!Array.isArray(names)) return;
  const kind = $("opponent-kind");
  const chosen = kind.value;
  kind.replaceChildren(
    ...names.map((name) => {
      const option = document.createElement("option");
      option.value = name;
      const key = "strategy_" + name;
      // A player the page has no words for is shown by its name.
      if (t(key) !== key) option.dataset.i18n = key;
      option.textContent = t(key) !== key ? t(key) : name;
      return option;
    })
  );
  kind.value = names.includes(chosen) ? chosen : names[0];
  for (const option of $("opponent-strength").options) {
    option.disabled = option.value !== "" && !names.includes(option.value);
  }
}

function opponentName() {
  return $("opponent-kind").value;
}

function startOpponents() {
  $("opponent-strength").addEventListener("change", () => {
    const name = $("opponent-strength").value;
    if (name) $("opponent-kind").value = name;
  });
  $("opponent-kind").addEventListener("change", () => {
    const name = $("opponent-kind").value;
    const level = [...$("opponent-strength").options].find((o) => o.value === name);
    $("opponent-strength").value = level ? name : "";
  });
  listOpponents();
}

async function startGames() {
  startOpponents();
  $("new-game").addEventListener("submit", newGame);
  $("game-play").addEventListener("click", playSelected);
  $("game-table-form").addEventListener("submit", (event) => {
    event.preventDefault();
    playSelected();
  });
  $("game-draw").addEventListener("click", () => gameCall("/api/game/draw", { record: games.record }));
  $("game-undo").addEventListener("click", () => gameCall("/api/game/undo", { record: games.record }));
  $("game-hint").addEventListener("click", hint);
  $("game-analyse").addEventListener("click", () => {
    const game = games.game;
    const view = { players: game.players.length, rack_counts: game.rack_counts, opened: game.opened };
    analyseOnBoard(game.notation, view);
  });
  $("game-download").addEventListener("click", download);
  $("game-file").addEventListener("change", loadFile);
  // The review and its variations: review.js and variations.js.
  renderGame();
  const kept = localStorage.getItem("rummikub.game");
  if (kept) {
    let record = null;
    try {
      record = JSON.parse(kept);
    } catch (error) {
      localStorage.removeItem("rummikub.game");
    }
    if (record) {
      const { data } = await call("/api/game/load", { record });
      if (data) takeGame(data);
    }
  }
}

document.addEventListener("DOMContentLoaded", startGames);
