// Variations: from a reviewed turn, play any candidate on instead of the move played, and
// keep analysing (/api/game/variation weighs each position's candidates). The lines tried
// make a move tree to walk back through; a line is saved in the record as the turn's
// `variations` (docs/formats.md), as `rummikub game annotate` writes its best lines.
"use strict";

// The tree: a node is a position reached; its `moves` the line from the turn (record moves),
// `data` the server's answer for it (once asked), `children` the lines tried from it.
const variation = { turn: 0, root: null, node: null };

function newNode(parent, move, label) {
  return { parent, move, label, data: null, children: [] };
}

function lineOf(node) {
  const moves = [];
  for (let at = node; at && at.parent; at = at.parent) moves.unshift(at.move);
  return moves;
}

async function openVariation(turn, moves = []) {
  variation.turn = turn;
  variation.root = newNode(null, null, t("variation_root", turn));
  variation.node = variation.root;
  $("variation").hidden = false;
  $("variation-comment").value = "";
  await visit(variation.root);
  // A saved line: its moves played on one by one, each a node of the tree.
  for (const move of moves) {
    const found = (variation.node.data.candidates || []).find(
      (c) => JSON.stringify(c.move) === JSON.stringify(move)
    );
    if (!(await playOn(move, found ? candidateLabel(found) : moveLabel(move)))) break;
  }
  scrollToAnswer("variation");
}

function closeVariation() {
  variation.root = null;
  variation.node = null;
  $("variation").hidden = true;
}

async function visit(node) {
  if (!node.data) {
    const { data } = await call("/api/game/variation", {
      record: review.record,
      turn: variation.turn,
      moves: lineOf(node),
    });
    if (!data) return false;
    node.data = data;
  }
  variation.node = node;
  renderVariation();
  return true;
}

async function playOn(move, label) {
  const node = variation.node;
  let child = node.children.find((c) => JSON.stringify(c.move) === JSON.stringify(move));
  if (!child) {
    child = newNode(node, move, label);
    node.children.push(child);
  }
  if (await visit(child)) return true;
  node.children = node.children.filter((c) => c !== child);
  variation.node = node;
  renderVariation();
  return false;
}

function moveLabel(move) {
  if (move.play) return t("variation_play", move.play.join(" | "));
  if (move.draw) return t("review_draw");
  return t("move_pass");
}

function candidateLabel(candidate) {
  return candidate.played.length ? candidate.played.join(" ") : candidate.move.draw ? t("review_draw") : t("move_pass");
}

function renderVariation() {
  const node = variation.node;
  if (!node || !node.data) return;
  const data = node.data;
  $("variation-title").textContent = t("variation_from", variation.turn);
  let status;
  if (data.over) status = t("variation_over");
  else if (data.win === null) status = t("variation_unknown", data.turn, data.player);
  else status = t("variation_status", data.turn, data.player, percent(data.win));
  $("variation-status").textContent = status;
  meldList($("variation-table"), data.table, []);
  $("variation-rack").replaceChildren(
    ...(data.rack || []).map((tile) => tileElement(tile, { label: t("tile_in", tileName(tile), t("rack")) }))
  );
  $("variation-candidates").replaceChildren(
    ...data.candidates.map((candidate) => {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.className = "move";
      const label = candidateLabel(candidate);
      button.textContent = t("variation_candidate", label, percent(candidate.win));
      button.addEventListener("click", () => playOn(candidate.move, label));
      item.appendChild(button);
      return item;
    })
  );
  renderTree();
  $("variation-back").disabled = !node.parent;
  $("variation-save").disabled = !node.parent;
}

// The move tree as nested lists: each node a button that walks there.
function renderTree() {
  const numberOf = (node) => variation.turn + lineOf(node).length - 1;
  const item = (node) => {
    const li = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "tree-move";
    const said = node.data && node.data.turns.length ? node.data.turns[node.data.turns.length - 1] : null;
    button.textContent = node.parent
      ? numberOf(node) + ". " + (said ? said.player + ": " + said.text : node.label)
      : node.label;
    if (node === variation.node) button.setAttribute("aria-current", "true");
    button.addEventListener("click", () => visit(node));
    li.appendChild(button);
    if (node.children.length) {
      const list = document.createElement("ul");
      list.append(...node.children.map(item));
      li.appendChild(list);
    }
    return li;
  };
  $("variation-tree").replaceChildren(item(variation.root));
}

// The line to the node shown saved as a variation of its turn; the record, read back by the
// server (/api/game/load), is the page's again (Download record keeps it).
async function saveVariation(event) {
  event.preventDefault();
  const moves = lineOf(variation.node);
  if (!moves.length) return;
  const record = JSON.parse(JSON.stringify(games.record));
  const turn = record.turns[variation.turn - 1];
  const comment = $("variation-comment").value.trim();
  const line = comment ? { comment, moves } : { moves };
  const same = (v) => JSON.stringify(v.moves) === JSON.stringify(moves);
  turn.variations = [...(turn.variations || []).filter((v) => !same(v)), line];
  const { data } = await call("/api/game/load", { record });
  if (!data) return;
  takeGame(data);
  review.record = games.record;
  renderSaved();
  $("variation-status").textContent += " " + t("variation_saved", variation.turn);
}

// The variations the record holds for the turn shown, each opened in the tree on a click.
function renderSaved() {
  const box = $("review-saved");
  const index = review.step;
  const turn = games.record && review.record ? games.record.turns[index] : null;
  const lines = (turn && turn.variations) || [];
  if (!lines.length) {
    box.replaceChildren();
    return;
  }
  const title = document.createElement("h3");
  title.textContent = t("variations_saved", index + 1);
  const list = document.createElement("ul");
  list.className = "move-list";
  list.append(
    ...lines.map((line) => {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.className = "move";
      button.textContent = (line.comment ? line.comment + ": " : "") + line.moves.map(moveLabel).join(", ");
      button.addEventListener("click", () => openVariation(index + 1, line.moves));
      item.appendChild(button);
      return item;
    })
  );
  box.replaceChildren(title, list);
}

function startVariations() {
  $("review-vary").addEventListener("click", () => openVariation(review.step + 1));
  $("variation-back").addEventListener("click", () => {
    if (variation.node && variation.node.parent) visit(variation.node.parent);
  });
  $("variation-close").addEventListener("click", closeVariation);
  $("variation-save-form").addEventListener("submit", saveVariation);
}

document.addEventListener("DOMContentLoaded", startVariations);
