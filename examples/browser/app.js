// The page: it shows what the worker sends and sends back your clicks. It knows no rule of
// Jass: which cards are legal, the scores and the picture of the table all come from the
// engine in worker.js, built from what seat 0 may see.
//
// URL parameters: ?seed=N (the deal; random by default), ?delay=MS (pause before each bot
// move, 700 by default), ?rules=SCHIEBER_1000|SCHIEBER|BEGINNER|TOURNAMENT_12|JASSKIT, ?swiss=1.
"use strict";

const params = new URLSearchParams(location.search);
const $ = (id) => document.getElementById(id);
const worker = new Worker("worker.js");
const form = $("new-game");

let state = null; // the last "state" message
let waiting = false; // a move was sent and its state has not come back yet
let readyIn = null; // seconds the worker took to start Python and jass

function setData(name, value) {
  document.body.dataset[name] = String(value);
}

function startGame() {
  const fixed = Number.parseInt(params.get("seed") ?? "", 10);
  const seed = Number.isInteger(fixed) ? fixed : 1 + Math.floor(Math.random() * 999999);
  const delay = Number.parseInt(params.get("delay") ?? "700", 10);
  waiting = true;
  worker.postMessage({
    type: "new",
    seed,
    delay: Number.isFinite(delay) ? delay : 700,
    ruleset: form.elements.ruleset.value,
    swiss: form.elements.swiss.checked,
  });
}

function send(move) {
  if (waiting || !state?.yourTurn) return;
  waiting = true;
  setData("yourTurn", false);
  for (const button of $("actions").querySelectorAll("button")) button.disabled = true;
  worker.postMessage({ type: "act", ...move });
}

// Clicks on the table: one listener for every card there will ever be. Only a card that the
// engine marked legal (g.card.legal) and listed in the state is sent; any other click does
// nothing at all.
$("table").addEventListener("click", (event) => {
  const card = event.target.closest("g.card.legal[data-card]");
  if (card && state?.cards?.includes(card.dataset.card)) send({ card: card.dataset.card });
});
$("table").addEventListener("keydown", (event) => {
  const card = event.target.closest?.("g.card.legal[data-card]");
  if (card && (event.key === "Enter" || event.key === " ")) {
    event.preventDefault();
    card.dispatchEvent(new MouseEvent("click", { bubbles: true }));
  }
});

$("actions").addEventListener("click", (event) => {
  const button = event.target.closest("button[data-index]");
  if (button) send({ index: Number(button.dataset.index) });
});

form.addEventListener("submit", (event) => {
  event.preventDefault();
  $("log").replaceChildren();
  startGame();
});

function showTable(svg) {
  const table = $("table");
  const first = !table.querySelector("svg");
  table.innerHTML = svg;
  for (const card of table.querySelectorAll("g.hand g.card.legal[data-card]")) {
    card.setAttribute("tabindex", "0");
    card.setAttribute("role", "button");
    card.setAttribute("aria-label", `Play ${card.dataset.card}`);
  }
  if (first) {
    // From navigation start to the first table on screen: the page's "ready" time.
    performance.mark("jass-first-table");
    setData("readyMs", Math.round(performance.now()));
    showAbout();
  }
}

function showActions(actions) {
  const buttons = actions.map(({ index, kind, label }) => {
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.index = String(index);
    button.dataset.kind = kind;
    button.textContent = label;
    return button;
  });
  $("actions").replaceChildren(...buttons);
}

function row(label, pair, className) {
  const tr = document.createElement("tr");
  if (className) tr.className = className;
  const th = document.createElement("th");
  th.textContent = label;
  tr.append(th);
  for (const side of ["us", "them"]) {
    const td = document.createElement("td");
    td.textContent = String(pair[side]);
    td.dataset.side = side;
    tr.append(td);
  }
  return tr;
}

// The last hand's score, also as data attributes (data-card-points-us, ...) for scripts.
function showHand(hand) {
  const section = $("hand-result");
  section.hidden = !hand;
  if (!hand) return;
  $("hand-number").textContent = String(hand.number);
  $("hand-contract").textContent = hand.contract + (hand.match ? `, match for ${hand.match}` : "");
  const rows = [row("Card points", hand.cardPoints)];
  if (hand.bonus.us || hand.bonus.them) rows.push(row("Match bonus", hand.bonus));
  rows.push(row("Weis", hand.weis), row("Stöck", hand.stoeck));
  rows.push(row(`Total ×${hand.multiplier}`, hand.totals, "total"));
  $("hand-rows").replaceChildren(...rows);
  for (const [key, pair] of Object.entries({
    cardPoints: hand.cardPoints, bonus: hand.bonus, weis: hand.weis,
    stoeck: hand.stoeck, totals: hand.totals,
  })) {
    section.dataset[`${key}Us`] = String(pair.us);
    section.dataset[`${key}Them`] = String(pair.them);
  }
  section.dataset.hand = String(hand.number);
}

function showLog(lines) {
  const log = $("log");
  for (const old of log.querySelectorAll("li.news")) old.classList.remove("news");
  for (const line of lines) {
    const item = document.createElement("li");
    item.textContent = line;
    if (/^(Trick|Weis|Stöck|Hand|Game)/.test(line)) item.classList.add("news");
    log.prepend(item);
  }
  while (log.children.length > 200) log.lastElementChild.remove();
}

function showAbout() {
  const parts = [];
  if (state) parts.push(`Game ${state.seed} (add ?seed=${state.seed} to replay it)`);
  if (readyIn) parts.push(`engine ready in ${readyIn.toFixed(1)} s`);
  const ready = document.body.dataset.readyMs;
  if (ready) parts.push(`table shown after ${(Number(ready) / 1000).toFixed(1)} s`);
  $("about").textContent = parts.join(" · ");
}

function show(next) {
  state = next;
  waiting = false;
  showTable(next.svg);
  $("prompt").textContent = next.prompt;
  showActions(next.yourTurn ? next.actions : []);
  $("score-us").textContent = String(next.scores.us);
  $("score-them").textContent = String(next.scores.them);
  $("rules-name").textContent = next.rules;
  $("target").textContent = next.target;
  $("contract").textContent = next.contract ?? "none yet";
  $("weis").textContent = next.weis.length
    ? next.weis.map((w) => `${w.name}: ${w.text}`).join("; ")
    : "none shown";
  $("stoeck").textContent = next.stoeck ?? "none";
  showHand(next.lastHand);
  showLog(next.log);
  $("error").hidden = true;
  setData("phase", next.result ? "OVER" : next.phase);
  setData("yourTurn", next.yourTurn);
  setData("moves", next.moves);
  setData("computeMs", next.ms);
  setData("handNumber", next.handNumber);
  if (next.result) {
    const again = document.createElement("button");
    again.type = "button";
    again.textContent = "New game";
    again.addEventListener("click", () => form.requestSubmit());
    $("actions").replaceChildren(again);
  }
}

worker.onmessage = ({ data }) => {
  if (data.type === "state") {
    show(data);
  } else if (data.type === "loading") {
    const text = $("loading-text");
    if (text) text.textContent = data.text;
    $("prompt").textContent = data.text;
  } else if (data.type === "ready") {
    readyIn = Object.values(data.seconds).reduce((sum, s) => sum + s, 0);
    setData("engineSeconds", JSON.stringify(data.seconds));
    setData("engine", `pyodide ${data.versions.pyodide}, jass ${data.versions.jass}`);
    showAbout();
  } else if (data.type === "error") {
    // The move was refused and nothing changed: your turn again, as it was.
    waiting = false;
    setData("yourTurn", Boolean(state?.yourTurn));
    for (const button of $("actions").querySelectorAll("button")) button.disabled = false;
    $("error").textContent = data.message;
    $("error").hidden = false;
  }
};
worker.onerror = (event) => {
  $("error").textContent = `The engine stopped: ${event.message}`;
  $("error").hidden = false;
};

const rules = params.get("rules");
if (rules && [...form.elements.ruleset.options].some((o) => o.value === rules)) {
  form.elements.ruleset.value = rules;
}
form.elements.swiss.checked = params.get("swiss") === "1";
startGame();
