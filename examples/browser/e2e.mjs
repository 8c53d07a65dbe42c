// End-to-end test of the built site in a real browser: Playwright (playwright-core) drives
// Debian's Chromium, headless, and plays a whole hand as a person would, by clicking.
//
//   node examples/browser/e2e.mjs [--site DIR] [--artifacts DIR] [--chromium PATH] [--seed N]
//
// It serves DIR (default examples/browser/site, made by build.py) with `python3 -m http.server`
// on a free local port, as the README says to, and refuses every request that is not to that
// server: one attempted request fails the test. It checks that
//   - the page becomes ready (navigation to the first table shown) and how long that takes;
//   - the rules in play are labelled on screen (SCHIEBER_1000, to 1000 points, by default);
//   - choosing a contract, when seat 0 must, works (seed 12 deals seat 0 the choice);
//   - after each click on a legal card the hand loses that card and the card lies in the
//     trick (or, if it closed the trick, in the last trick), in front of seat 0;
//   - a click on a card that is not legal does nothing: same hand, same trick, no move;
//   - at the hand's end the card points add up to 157, or 257 with the match bonus, and the
//     panel, its data attributes, the table picture and the tricks of the log agree, and the
//     log box shows whole lines (none cut in half at its bottom edge);
//   - the next hand is dealt;
//   - a one-hand game (?rules=JASSKIT) ends with "Game over", scores adding up to 157, and a
//     New game button that starts a new game; the second visit's ready time is recorded too.
// Artifacts in --artifacts (default examples/browser/build): screenshot.png (mid-hand),
// hand-end.png, game-over.png and e2e.json (timings and checks).

import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { chromium } from "playwright-core";

const here = path.dirname(fileURLToPath(import.meta.url));
const options = {
  site: path.join(here, "site"),
  artifacts: path.join(here, "build"),
  chromium: process.env.CHROMIUM ?? "/usr/bin/chromium",
  seed: "12",
  delay: "120",
};
for (let i = 2; i < process.argv.length; i += 2) {
  const key = process.argv[i].replace(/^--/, "");
  if (!(key in options) || process.argv[i + 1] === undefined) {
    throw new Error(`usage: node e2e.mjs [--site DIR] [--artifacts DIR] [--chromium PATH] [--seed N] [--delay MS]`);
  }
  options[key] = process.argv[i + 1];
}
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

let passed = 0;
const failures = [];
function check(condition, what) {
  if (condition) passed += 1;
  else failures.push(what);
  if (!condition) console.error(`FAILED: ${what}`);
}
const started = performance.now();
const timings = {};
const lap = (name, since) => (timings[name] = Math.round(performance.now() - since));

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function serve(folder) {
  if (!fs.existsSync(path.join(folder, "manifest.json"))) {
    throw new Error(`${folder} is not a built site: run python examples/browser/build.py`);
  }
  const port = await freePort();
  const python = process.env.PYTHON ?? "python3";
  const server = spawn(python, ["-m", "http.server", String(port), "--bind", "127.0.0.1", "-d", folder], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let log = "";
  server.stderr.on("data", (chunk) => (log += chunk));
  const origin = `http://127.0.0.1:${port}`;
  for (let tries = 0; ; tries += 1) {
    try {
      await new Promise((resolve, reject) => {
        const socket = net.connect(port, "127.0.0.1", () => socket.end(resolve));
        socket.on("error", reject);
      });
      break;
    } catch (error) {
      if (tries > 100 || server.exitCode !== null) throw new Error(`the server did not start: ${log}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return { origin, stop: () => server.kill() };
}

// What the page shows now, read from the DOM: the table picture and the panels.
function snapshot(page) {
  return page.evaluate(() => {
    const cards = (selector) =>
      [...document.querySelectorAll(selector)].map((g) => ({ card: g.dataset.card, seat: g.dataset.seat }));
    const body = document.body.dataset;
    return {
      phase: body.phase,
      yourTurn: body.yourTurn === "true",
      moves: Number(body.moves),
      computeMs: Number(body.computeMs),
      hand: cards('#table g.hand[data-seat="0"] g.card').map((c) => c.card),
      legal: cards('#table g.hand[data-seat="0"] g.card.legal').map((c) => c.card),
      trick: cards("#table g.trick g.card"),
      lastTrick: cards("#table g.last-trick g.card"),
      buttons: [...document.querySelectorAll("#actions button")].map((b) => ({
        kind: b.dataset.kind,
        label: b.textContent,
      })),
      error: document.getElementById("error").hidden ? null : document.getElementById("error").textContent,
    };
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitForMove(page, before) {
  await page.waitForFunction((moves) => Number(document.body.dataset.moves) > moves, before, {
    timeout: 30_000,
  });
}

// The player's turn, or the end of the hand.
async function waitForTurn(page) {
  await page.waitForFunction(
    () => document.body.dataset.yourTurn === "true" || document.body.dataset.phase === "OVER",
    null,
    { timeout: 60_000 },
  );
}

async function playHand(page, { screenshot = true, illegalTries = 3 } = {}) {
  let illegalTried = 0;
  let chose = false;
  let clicks = 0;
  let shot = false;
  const computeMs = [];
  for (;;) {
    await waitForTurn(page);
    const now = await snapshot(page);
    computeMs.push(now.computeMs);
    if (now.phase === "DEAL" || now.phase === "OVER") {
      const move_ms = { mean: Math.round(computeMs.reduce((a, b) => a + b) / computeMs.length), max: Math.max(...computeMs) };
      return { illegalTried, chose, clicks, shot, move_ms };
    }
    if (now.phase === "CHOOSE") {
      const contracts = now.buttons.filter((b) => b.kind === "choose");
      check(contracts.length >= 4, `contract buttons offered (${JSON.stringify(now.buttons)})`);
      await page.locator('#actions button[data-kind="choose"]').first().click();
      await waitForMove(page, now.moves);
      chose = true;
      continue;
    }
    check(now.legal.length > 0, `legal cards marked on the player's turn (${now.hand})`);
    const illegal = now.hand.filter((card) => !now.legal.includes(card));
    if (illegal.length && illegalTried < illegalTries) {
      // A card that may not be played: the click must change nothing.
      await page.locator(`#table g.hand[data-seat="0"] g.card[data-card="${illegal[0]}"]`).click();
      await sleep(400);
      const after = await snapshot(page);
      check(
        after.moves === now.moves &&
          JSON.stringify(after.hand) === JSON.stringify(now.hand) &&
          JSON.stringify(after.trick) === JSON.stringify(now.trick) &&
          after.yourTurn,
        `an illegal click on ${illegal[0]} changes nothing`,
      );
      illegalTried += 1;
    }
    const card = now.legal[now.legal.length - 1];
    await page.locator(`#table g.hand[data-seat="0"] g.card.legal[data-card="${card}"]`).click();
    await waitForMove(page, now.moves);
    clicks += 1;
    const after = await snapshot(page);
    const inTrick = after.trick.some((c) => c.card === card && c.seat === "0");
    const inLast = after.lastTrick.some((c) => c.card === card && c.seat === "0");
    const closedHand = after.phase === "DEAL" || after.phase === "OVER";
    check(
      closedHand || (after.hand.length === now.hand.length - 1 && !after.hand.includes(card)),
      `${card} left the hand`,
    );
    check(closedHand || inTrick || inLast, `${card} lies in the trick in front of seat 0`);
    if (screenshot && clicks >= 4 && !shot) {
      // Mid-hand, on a turn with cards in the trick: the picture the CI artifact shows.
      await waitForTurn(page);
      if ((await snapshot(page)).trick.length >= 2) {
        await page.screenshot({ path: path.join(options.artifacts, "screenshot.png") });
        shot = true;
      }
    }
  }
}

async function checkHandScore(page) {
  const read = await page.evaluate(() => {
    const data = document.getElementById("hand-result").dataset;
    const rows = [...document.querySelectorAll("#hand-rows tr")].map((tr) =>
      [...tr.children].map((cell) => cell.textContent),
    );
    const svgTexts = [...document.querySelectorAll("#table g.trick text")].map((t) => t.textContent);
    const log = [...document.querySelectorAll("#log li")].map((li) => li.textContent);
    return { data: { ...data }, rows, svgTexts, log };
  });
  const number = (key) => Number(read.data[key]);
  const cards = number("cardPointsUs") + number("cardPointsThem");
  const bonus = number("bonusUs") + number("bonusThem");
  check(read.data.hand === "1", `the panel shows hand 1 (${read.data.hand})`);
  check(cards === 157, `card points add up to 157 (${cards})`);
  check(bonus === 0 || bonus === 100, `a match bonus is 0 or 100 (${bonus})`);
  check(cards + bonus === 157 || cards + bonus === 257, `the hand's points: 157, or 257 with a match`);
  // The panel's rows say the same as its data attributes.
  const cardRow = read.rows.find((r) => r[0] === "Card points");
  check(
    cardRow && Number(cardRow[1]) === number("cardPointsUs") && Number(cardRow[2]) === number("cardPointsThem"),
    `the panel's card points row agrees (${cardRow})`,
  );
  // The table picture's score box: "Cards" then the us and them numbers.
  const at = read.svgTexts.indexOf("Cards");
  check(
    at >= 0 && Number(read.svgTexts[at + 1]) + Number(read.svgTexts[at + 2]) === cards,
    `the table picture's card points agree (${read.svgTexts.join("|")})`,
  );
  // The nine tricks of the log: their points add up to the same 157.
  const tricks = read.log.map((line) => /^Trick to .*, (\d+) points$/.exec(line)).filter(Boolean);
  // The log box: it scrolls, and its height is a whole number of lines.
  const box = await page.evaluate(() => {
    const list = document.getElementById("log");
    return {
      height: list.clientHeight,
      scroll: list.scrollHeight,
      line: Number.parseFloat(getComputedStyle(list).lineHeight),
    };
  });
  const lines = box.height / box.line;
  check(
    box.scroll > box.height && Math.abs(lines - Math.round(lines)) < 0.05,
    `the log box shows whole lines (${box.height} px of ${box.line} px lines)`,
  );
  const trickSum = tricks.reduce((sum, m) => sum + Number(m[1]), 0);
  check(tricks.length === 9 && trickSum === cards, `nine tricks in the log, ${trickSum} points`);
  // Totals: multiplier x (cards + bonus + Weis + Stöck), per team.
  const totalRow = read.rows.find((r) => r[0].startsWith("Total ×"));
  const times = Number(totalRow?.[0].slice("Total ×".length));
  for (const side of ["Us", "Them"]) {
    const parts = ["cardPoints", "bonus", "weis", "stoeck"].reduce((s, k) => s + number(k + side), 0);
    check(number(`totals${side}`) === times * parts, `the total for ${side} is ×${times} of its parts`);
  }
  return { cards, bonus, data: read.data };
}

async function main() {
  fs.mkdirSync(options.artifacts, { recursive: true });
  const server = await serve(path.resolve(options.site));
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "jass-e2e-"));
  const attempted = [];
  const pageErrors = [];
  let context;
  try {
    let since = performance.now();
    context = await chromium.launchPersistentContext(profile, {
      executablePath: options.chromium,
      headless: true,
      args: FLAGS,
      viewport: { width: 1180, height: 720 },
      deviceScaleFactor: 1,
    });
    lap("launch_ms", since);
    // Offline: the local server or nothing. Workers' requests pass here too.
    await context.route("**/*", (route) => {
      const url = route.request().url();
      if (url.startsWith(`${server.origin}/`)) return route.continue();
      attempted.push(url);
      return route.abort("blockedbyclient");
    });
    const page = context.pages()[0] ?? (await context.newPage());
    page.on("pageerror", (error) => pageErrors.push(String(error)));
    page.on("console", (message) => {
      if (message.type() === "error") pageErrors.push(message.text());
    });

    since = performance.now();
    await page.goto(`${server.origin}/?seed=${options.seed}&delay=${options.delay}`);
    await page.waitForSelector("#table svg", { timeout: 120_000 });
    lap("ready_ms", since);
    timings.ready_page_ms = Number(await page.evaluate(() => document.body.dataset.readyMs));
    // The worker's own stages, in seconds: Pyodide's start, the wheels, importing jass.
    timings.engine_s = JSON.parse(await page.evaluate(() => document.body.dataset.engineSeconds ?? "{}"));
    check(timings.ready_page_ms > 0, "the page records when the first table was shown");
    const goal = await page.evaluate(() => document.getElementById("goal").textContent);
    check(goal === "Rules SCHIEBER_1000: playing to 1000 points", `the default rules are labelled (${goal})`);

    since = performance.now();
    const hand = await playHand(page);
    lap("hand_ms", since);
    check(hand.chose, "seat 0 chose the contract by clicking a button");
    check(hand.illegalTried > 0, "an illegal card was clicked at least once");
    check(hand.clicks === 9, `nine cards were played by clicking (${hand.clicks})`);
    check(hand.shot, "a mid-hand screenshot was taken");
    const end = await snapshot(page);
    check(end.phase === "DEAL", `the hand ended, the game did not (${end.phase})`);
    await page.screenshot({ path: path.join(options.artifacts, "hand-end.png") });
    const score = await checkHandScore(page);

    // The next hand: a button, then nine new cards.
    await page.locator('#actions button[data-kind="deal"]').click();
    await page.waitForFunction(() => document.body.dataset.handNumber === "2");
    await page.waitForFunction(
      () => document.querySelectorAll('#table g.hand[data-seat="0"] g.card').length === 9,
    );
    check(true, "the next hand is dealt");
    check(end.error === null, `no error shown (${end.error})`);

    // A second visit, the files cached: a one-hand game (JASSKIT) played to its end.
    since = performance.now();
    await page.goto(`${server.origin}/?seed=${options.seed}&delay=20&rules=JASSKIT`);
    await page.waitForSelector("#table svg", { timeout: 120_000 });
    lap("ready_again_ms", since);
    const quick = await playHand(page, { screenshot: false, illegalTries: 0 });
    check(quick.clicks === 9, `the one-hand game took nine clicks (${quick.clicks})`);
    await page.screenshot({ path: path.join(options.artifacts, "game-over.png") });
    const over = await page.evaluate(() => ({
      phase: document.body.dataset.phase,
      prompt: document.getElementById("prompt").textContent,
      buttons: [...document.querySelectorAll("#actions button")].map((b) => b.textContent),
      us: Number(document.getElementById("score-us").textContent),
      them: Number(document.getElementById("score-them").textContent),
    }));
    check(over.phase === "OVER" && over.prompt.startsWith("Game over"), `game over shown (${over.prompt})`);
    // One hand, card points only, single count: the two scores are the hand's 157.
    check(over.us + over.them === 157, `the one-hand game's scores add up to 157 (${over.us}, ${over.them})`);
    check(JSON.stringify(over.buttons) === '["New game"]', `a New game button (${over.buttons})`);
    await page.locator("#actions button", { hasText: "New game" }).click();
    await page.waitForFunction(
      () =>
        document.body.dataset.moves === "0" &&
        document.querySelectorAll('#table g.hand[data-seat="0"] g.card').length === 9,
    );
    check(true, "New game deals a new game");

    check(attempted.length === 0, `no request left the local server (${attempted.join(", ")})`);
    check(pageErrors.length === 0, `no error in the page (${pageErrors.join(" | ")})`);
    timings.total_ms = Math.round(performance.now() - started);
    const report = {
      seed: Number(options.seed),
      delay_ms: Number(options.delay),
      timings,
      hand: { ...hand, ...score },
      engine: await page.evaluate(() => document.body.dataset.engine),
      attempted,
      passed,
      failed: failures.length,
      failures,
    };
    fs.writeFileSync(path.join(options.artifacts, "e2e.json"), `${JSON.stringify(report, null, 2)}\n`);
    console.log(JSON.stringify(report));
  } finally {
    await context?.close();
    server.stop();
    fs.rmSync(profile, { recursive: true, force: true });
  }
  console.log(`screenshot: ${path.join(options.artifacts, "screenshot.png")}`);
  console.log(`e2e: ${passed} passed, ${failures.length} failed`);
  if (failures.length) process.exitCode = 1;
}

await main();
