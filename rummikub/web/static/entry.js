// Fewer taps and keys to set up a position on the analysis board, and what goes with it:
// type-ahead from the keyboard, a run filled from its two ends, the same number in the other
// colours one tap away, the game around the position for the chances to win, the picture
// of the answer to download. The board itself (`board`, `edit`, `addTile`) is app.js's.
"use strict";

// -- a run filled from its ends, the same number again --------------------------------------

// The tiles a tap on `tile` adds to `place`: the tile, and in a meld that is so far a run of
// one colour, the numbers between the run's last tile and this one (R1 then R4 lays R2 R3
// R4: a run has no gaps, so the tap can only mean that).
function tilesToAdd(place, tile) {
  const meld = place === "rack" ? null : board.table[place];
  if (!meld || !meld.length || tile === "J") return [tile];
  const last = meld[meld.length - 1];
  const run = meld.every(
    (t, i) =>
      t !== "J" && t[0] === tile[0] && (i === 0 || tileNumber(t) === tileNumber(meld[i - 1]) + 1)
  );
  if (!run || tileNumber(tile) <= tileNumber(last) + 1) return [tile];
  const between = [];
  for (let n = tileNumber(last) + 1; n < tileNumber(tile); n++) between.push(tile[0] + n);
  return [...between, tile];
}

// Under the picker: the number last added in the three other colours (a group, or a rack of
// sevens, in one tap a tile).
function showAgain(tile) {
  const again = $("again");
  if (!tile || tile === "J") {
    again.hidden = true;
    return;
  }
  const others = COLORS.filter((c) => c !== tile[0]).map((c) => c + tile.slice(1));
  again.replaceChildren(
    ...others.map((other) =>
      tileElement(other, { label: t("add_again", tileName(other)), onClick: () => addTile(other) })
    )
  );
  again.hidden = false;
}

// The place being filled stays in sight below the picker (a phone keeps the picker at the
// top of the window while the editor scrolls).
function keepTargetInView() {
  const place = board.target === "rack" ? $("rack-place") : $("table").children[board.target];
  if (place) place.scrollIntoView({ block: "nearest" });
}

// -- the rest of the rack, typed ---------------------------------------------------------------

// Tiles typed as the notation writes a rack (R4-6 KRB7 J), read by the server and added to
// the rack: what is left of a rack once the melds are in, in a few keys.
async function addRackText(event) {
  event.preventDefault();
  const text = $("rack-text").value.trim();
  if (!text) return;
  if (!(await settled())) return;
  const { data, failed } = await call("/api/position", { position: "- / " + text, rules: rules() }, { quiet: true });
  if (!data) {
    $("rack-text").setAttribute("aria-invalid", "true");
    $("rack-text-state").textContent = failed;
    return;
  }
  $("rack-text").removeAttribute("aria-invalid");
  $("rack-text-state").textContent = "";
  $("rack-text").value = "";
  await edit(() => {
    board.rack.push(...data.rack);
    board.target = "rack";
  });
}

// -- type-ahead -------------------------------------------------------------------------------

// K R B O a colour, a number adds the tile (1 waits for a second digit: 10-13), J a joker,
// N or | a new meld, / the rack, Backspace the last tile of the place, Enter the best move;
// a space ends a lone 1.
const typed = { digit: null, timer: null };
// How long a lone 1 waits for the 0-3 of 10-13.
const DIGIT_WAIT_MS = 900;

function typeNumber(number) {
  clearTimeout(typed.timer);
  typed.digit = null;
  if (number >= 1 && number <= NUMBERS) addTile(board.color + number);
}

function flushDigit() {
  if (typed.digit !== null) typeNumber(typed.digit);
}

function typeAhead(event) {
  if (event.defaultPrevented || currentMode() !== "board" || board.preview) return;
  if (!$("proposal").hidden) return;
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.target.matches("input, select, textarea, [contenteditable]")) return;
  const key = event.key;
  if (/^[0-9]$/.test(key)) {
    event.preventDefault();
    if (typed.digit === 1 && Number(key) <= NUMBERS - 10) {
      typeNumber(10 + Number(key));
    } else {
      flushDigit();
      if (key === "1") {
        typed.digit = 1;
        typed.timer = setTimeout(flushDigit, DIGIT_WAIT_MS);
      } else if (key !== "0") {
        typeNumber(Number(key));
      }
    }
    return;
  }
  if (key === " " && typed.digit !== null) {
    // A space ends a lone 1 (R1, then 3: R1 R2 R3; R13 is 1 3 run together).
    event.preventDefault();
    flushDigit();
    return;
  }
  const upper = key.toUpperCase();
  let action = null;
  if (COLORS.includes(upper)) {
    action = () => {
      board.color = upper;
      buildPicker();
    };
  } else if (upper === "J") {
    action = () => addTile("J");
  } else if (upper === "N" || key === "|") {
    action = () =>
      edit(() => {
        board.table.push([]);
        board.target = board.table.length - 1;
      });
  } else if (key === "/") {
    action = () => selectPlace("rack");
  } else if (key === "Backspace" && !board.selected) {
    action = () => {
      const tiles = tilesOf(board.target) || [];
      if (tiles.length) moveTile(board.target, tiles.length - 1, null);
    };
  } else if (key === "Enter" && event.target === document.body) {
    // On the page itself (a button's Enter presses the button).
    action = () => askSolve();
  }
  if (!action) return;
  event.preventDefault();
  flushDigit();
  action();
}

// -- the game around the position, for the chances to win ------------------------------------

// The `equity` object of /api/analyse: the players and the other racks' sizes set on the
// board (from a game when it was opened from one), or the defaults (2 players, the other
// rack as large as yours).
function equityRequest() {
  const request = {};
  const players = Number($("players").value);
  if (players !== 2) request.players = players;
  const sizes = $("other-racks")
    .value.split(/[\s,]+/)
    .filter(Boolean)
    .map(Number);
  if (sizes.length) {
    request.rack_sizes = sizes;
    if (!("players" in request) && sizes.length !== 1) request.players = sizes.length + 1;
  }
  if (board.othersOpened === false) request.others_opened = false;
  return Object.keys(request).length ? request : true;
}

// A game's view of the position (its players, each rack's size from the mover on, who has
// opened) set on the board.
function setGameView(view) {
  if (!view) return;
  $("players").value = String(view.players);
  $("other-racks").value = view.rack_counts.slice(1).join(" ");
  board.othersOpened = view.opened.slice(1).every(Boolean);
}

function equityTitle(found) {
  const others = found.rack_counts.slice(1).join(", ");
  const game = found.players === 2 ? t("equity_game_one", others) : t("equity_game", found.players, others);
  return t("equity_title", game);
}

// The best-equity move against the most-points one, in the page's language, from the
// server's `difference` (the words of `analyse --equity`).
function adviceText(found) {
  const difference = found.difference;
  if (!difference) return t("equity_same");
  const words = (tiles) => tiles.map((tile) => (tile === "J" ? t("the_joker") : tile)).join(" ");
  const what = {
    keep: () => t("advice_keep", words(difference.keep)),
    lay: () => t("advice_lay", words(difference.lay), words(difference.keep)),
    draw: () => t("advice_draw"),
    pass: () => t("advice_pass"),
  }[difference.action]();
  const best = found.candidates[0];
  const most = found.candidates[found.most_points];
  return t("equity_advice", what, wholePercent(best.win), wholePercent(most.win));
}

// -- the picture of the answer (or of the position), to download ------------------------------

async function pictureSvg() {
  const shown = $("picture").querySelector("svg");
  if (shown) return new XMLSerializer().serializeToString(shown);
  if (!(await settled())) return null;
  const { data } = await call("/api/position", { position: positionText(), rules: rules(), svg: true });
  return data ? data.svg : null;
}

function saveBlob(blob, name) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

async function downloadPicture(kind) {
  const svg = await pictureSvg();
  if (!svg) return;
  const blob = new Blob([svg], { type: "image/svg+xml" });
  if (kind === "svg") {
    saveBlob(blob, "rummikub-board.svg");
    return;
  }
  // PNG: the SVG drawn on a canvas at twice its size (sharp on a phone's screen).
  const image = new Image();
  const url = URL.createObjectURL(blob);
  await new Promise((resolve, reject) => {
    image.onload = resolve;
    image.onerror = reject;
    image.src = url;
  });
  const scale = 2;
  const canvas = document.createElement("canvas");
  canvas.width = Math.ceil(image.naturalWidth * scale);
  canvas.height = Math.ceil(image.naturalHeight * scale);
  const context = canvas.getContext("2d");
  context.fillStyle = "#ffffff";
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.drawImage(image, 0, 0, canvas.width, canvas.height);
  URL.revokeObjectURL(url);
  canvas.toBlob((png) => saveBlob(png, "rummikub-board.png"), "image/png");
}

function startEntry() {
  document.addEventListener("keydown", typeAhead);
  $("rack-text-form").addEventListener("submit", addRackText);
  $("picture-svg").addEventListener("click", () => downloadPicture("svg"));
  $("picture-png").addEventListener("click", () => downloadPicture("png"));
  // The row's labels are in the language it was drawn in: gone until the next tile.
  $("lang").addEventListener("change", () => ($("again").hidden = true));
  for (const id of ["players", "other-racks"]) {
    $(id).addEventListener("change", () => {
      board.othersOpened = undefined;
      keepPosition(notation(), false);
    });
  }
}

document.addEventListener("DOMContentLoaded", startEntry);
