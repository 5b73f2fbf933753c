// The card rummies on the board (/api/cards/...): a hand, a table and a discard pile typed in
// card notation and drawn as cards as they are typed (rank and suit symbol, red and black);
// the best turn and a proposed turn's verdict drawn the same way.
"use strict";

const SUITS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
const SUIT_NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
const CONTRACT_GAMES = ["continental", "california"];

// A card as written (7S, 10H, TH, AH=8S, *) drawn as a card; what the server reads is the
// text itself, so a word that is not a card is drawn as it is, marked.
function cardElement(word) {
  const element = document.createElement("span");
  element.setAttribute("role", "img");
  const [own, stands] = word.split("=");
  const text = own.toUpperCase();
  let rank = null;
  let suit = null;
  if (text === "*" || text === "JK" || text === "JOKER") {
    element.className = "card joker";
    element.textContent = "\u2605";
    element.setAttribute("aria-label", "joker" + (stands ? " = " + stands : ""));
    return element;
  }
  const match = /^(10|[2-9TJQKA])([SHDC\u2660\u2665\u2666\u2663])$/.exec(text);
  if (match) {
    rank = match[1] === "T" ? "10" : match[1];
    suit = Object.keys(SUITS).find((key) => key === match[2] || SUITS[key] === match[2]);
  }
  if (!suit) {
    element.className = "card unknown";
    element.textContent = word;
    element.setAttribute("aria-label", word);
    return element;
  }
  element.className = "card " + (suit === "H" || suit === "D" ? "red" : "black");
  const r = document.createElement("span");
  r.className = "rank";
  r.textContent = rank;
  const s = document.createElement("span");
  s.className = "suit";
  s.textContent = SUITS[suit];
  element.append(r, s);
  if (stands) {
    const note = document.createElement("span");
    note.className = "stands";
    note.textContent = "=" + stands;
    element.appendChild(note);
  }
  element.setAttribute(
    "aria-label",
    rank + " of " + SUIT_NAMES[suit] + (stands ? " standing for " + stands : "")
  );
  return element;
}

function cardWords(text) {
  return text
    .replace(/,/g, " ")
    .split(/\s+/)
    .filter(Boolean);
}

function cardRow(words) {
  const row = document.createElement("div");
  row.className = "cards-row";
  row.append(...words.map(cardElement));
  return row;
}

function meldsOf(text) {
  return text
    .split("|")
    .map((meld) => meld.trim())
    .filter(Boolean);
}

function drawCardInputs() {
  $("card-hand-view").replaceChildren(...cardWords($("card-hand").value).map(cardElement));
  $("card-discard-view").replaceChildren(...cardWords($("card-discard").value).map(cardElement));
  $("card-table-view").replaceChildren(
    ...meldsOf($("card-table").value).map((meld) => cardRow(cardWords(meld)))
  );
  $("card-deal").disabled = !CONTRACT_GAMES.includes($("card-game").value);
}

function cardPosition() {
  const body = {
    game: $("card-game").value,
    hand: $("card-hand").value,
    table: meldsOf($("card-table").value),
    opened: $("card-opened").checked,
    drawn: $("card-drawn").checked,
  };
  const discard = cardWords($("card-discard").value);
  if (discard.length) body.discard = discard;
  if (CONTRACT_GAMES.includes(body.game)) body.deal = Number($("card-deal").value);
  return body;
}

function cardSection(title, words) {
  const box = document.createElement("div");
  const head = document.createElement("h3");
  head.textContent = title;
  if (words.length) {
    box.append(head, cardRow(words));
  } else {
    const none = document.createElement("p");
    none.textContent = t("nothing");
    box.append(head, none);
  }
  return box;
}

async function solveCards(event) {
  if (event) event.preventDefault();
  const { data } = await call("/api/cards/solve", cardPosition());
  if (!data) return;
  $("card-broken").replaceChildren();
  const lines = [t("card_status_" + data.status) + "."];
  if (data.draw === "stock") lines.push(t("card_draw_stock"));
  else if (data.draw !== null) lines.push(t("card_draw_pile", data.draw + 1));
  lines.push(t("card_laid", data.played.join(" ") || t("nothing"), data.points, data.penalty));
  if (data.discard) lines.push(t("card_discard", data.discard));
  $("card-summary").textContent = lines.join(" ");
  const table = document.createElement("div");
  const head = document.createElement("h3");
  head.textContent = t("card_new_table");
  table.appendChild(head);
  for (const meld of data.table) table.appendChild(cardRow(meld.cards));
  $("card-result").replaceChildren(table, cardSection(t("card_hand_left"), data.hand));
  scrollToAnswer("card-answer");
}

async function checkCards() {
  const body = { ...cardPosition(), after: meldsOf($("card-after").value) };
  const discard = $("card-after-discard").value.trim();
  if (discard) body.after_discard = discard;
  const { data } = await call("/api/cards/check", body);
  if (!data) return;
  const count = data.violations.length;
  $("card-summary").textContent = data.legal
    ? t("card_legal", data.played.join(" ") || t("nothing"), data.points)
    : count === 1
      ? t("card_illegal_one")
      : t("card_illegal", count);
  $("card-result").replaceChildren(
    ...meldsOf($("card-after").value).map((meld) => cardRow(cardWords(meld)))
  );
  list("card-broken", data.errors);
  scrollToAnswer("card-answer");
}

// -- the card position kept in the URL and in localStorage, as the tiles' is -----------------

// Each field and its URL parameter; the checkboxes as 1 or 0.
const CARD_FIELDS = {
  "card-game": "game",
  "card-hand": "hand",
  "card-table": "table",
  "card-discard": "discard",
  "card-deal": "deal",
  "card-opened": "down",
  "card-drawn": "drawn",
};
const CARD_DEFAULTS = { game: "rummy", hand: "", table: "", discard: "", deal: "1", down: "0", drawn: "1" };

function cardFields() {
  const found = {};
  for (const [id, key] of Object.entries(CARD_FIELDS)) {
    const field = $(id);
    found[key] = field.type === "checkbox" ? (field.checked ? "1" : "0") : field.value;
  }
  return found;
}

// The card position's parameters (those not at their default) for app.js's URL.
function cardParams(params) {
  for (const [key, value] of Object.entries(cardFields())) {
    if (value !== CARD_DEFAULTS[key]) params.set(key, value);
  }
}

function keepCards() {
  localStorage.setItem("rummikub.cards", JSON.stringify(cardFields()));
  keepPosition(notation(), false);
}

// The card position from the URL when it names one, else the one kept; run as the script
// loads, before the board writes the URL again.
function restoreCards() {
  const params = new URLSearchParams(location.search);
  let found = null;
  if (Object.values(CARD_FIELDS).some((key) => params.has(key))) {
    found = Object.fromEntries(Object.values(CARD_FIELDS).map((key) => [key, params.get(key)]));
  } else {
    try {
      found = JSON.parse(localStorage.getItem("rummikub.cards") || "null");
    } catch (error) {
      found = null;
    }
  }
  for (const [id, key] of Object.entries(CARD_FIELDS)) {
    const field = $(id);
    const value = found && typeof found[key] === "string" ? found[key] : CARD_DEFAULTS[key];
    if (field.type === "checkbox") field.checked = value === "1";
    else if (field.tagName !== "SELECT" || [...field.options].some((o) => o.value === value)) {
      field.value = value;
    }
  }
  drawCardInputs();
}

function startCards() {
  $("cards-form").addEventListener("submit", solveCards);
  for (const id of ["card-hand", "card-table", "card-discard", "card-game"]) {
    $(id).addEventListener("input", drawCardInputs);
  }
  for (const id of Object.keys(CARD_FIELDS)) $(id).addEventListener("change", keepCards);
  for (const id of ["card-hand", "card-table", "card-discard"]) $(id).addEventListener("input", keepCards);
  window.addEventListener("popstate", restoreCards);
  $("card-check").addEventListener("click", checkCards);
  for (const id of ["card-after", "card-after-discard"]) {
    $(id).addEventListener("keydown", (event) => {
      if (event.key === "Enter") {
        event.preventDefault();
        checkCards();
      }
    });
  }
  drawCardInputs();
}

restoreCards();
document.addEventListener("DOMContentLoaded", startCards);
