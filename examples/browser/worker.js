// The engine of the page: Pyodide, the jass wheel and jass_table.py, in a Web Worker, so that
// the page never freezes while Python starts or thinks. Every file comes from this site's own
// folder: Pyodide from ./pyodide/ (copied from the npm package), the wheels from ./wheels/.
//
// Protocol (README.md): the page sends
//   {type: "new", seed, ruleset, swiss, delay}   start a game (delay: ms before each bot move)
//   {type: "act", index} or {type: "act", card}  your move: a button of the last state, or a card
// and the worker answers
//   {type: "loading", text}                       progress while Python starts
//   {type: "ready", seconds, versions}            Python and jass are loaded
//   {type: "state", ...}                          after every move: what seat 0 may see
//   {type: "error", message}                      a refused message; nothing changed
// A classic worker (importScripts), so any static server's MIME types for .js do.

importScripts("pyodide/pyodide.js");

const say = (message) => self.postMessage(message);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const elapsed = (since) => Math.round(performance.now() - since) / 1000;

// Pure-Python wheels (…-none-any.whl) are zip files: installing one is unpacking it into
// site-packages. No micropip, so no package index is asked for anything.
function installWheels(pyodide, wheels) {
  const site = pyodide.runPython("import sysconfig; sysconfig.get_path('purelib')");
  for (const { name, bytes } of wheels) {
    if (!/-none-any\.whl$/.test(name)) throw new Error(`${name} is not a pure-Python wheel`);
    pyodide.unpackArchive(bytes, "wheel", { extractDir: site });
  }
  pyodide.runPython("import importlib; importlib.invalidate_caches()");
}

async function fetchOk(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response;
}

// The wheels and jass_table.py, fetched while Pyodide starts.
async function fetchFiles() {
  const manifest = await (await fetchOk("manifest.json")).json();
  const wheels = await Promise.all(
    manifest.wheels.map(async (name) => ({
      name,
      bytes: new Uint8Array(await (await fetchOk(`wheels/${name}`)).arrayBuffer()),
    })),
  );
  const module = await (await fetchOk("jass_table.py")).text();
  return { wheels, module };
}

async function start() {
  const seconds = {};
  let since = performance.now();
  say({ type: "loading", text: "Starting Python (Pyodide)…" });
  const files = fetchFiles();
  files.catch(() => {}); // awaited below; this only keeps an early failure from going unhandled
  const indexURL = new URL("pyodide/", self.location.href).href;
  // packages: [] — Pyodide loads no package of its own, so nothing beyond indexURL is read.
  const pyodide = await loadPyodide({ indexURL, packages: [] });
  seconds.pyodide = elapsed(since);

  since = performance.now();
  say({ type: "loading", text: "Installing jass…" });
  const { wheels, module } = await files;
  installWheels(pyodide, wheels);
  pyodide.FS.writeFile("/home/pyodide/jass_table.py", module);
  pyodide.runPython("import sys; sys.path.insert(0, '/home/pyodide')");
  seconds.install = elapsed(since);
  since = performance.now();
  const jassTable = pyodide.pyimport("jass_table"); // imports jass: most of this step
  const jassVersion = pyodide.runPython("import jass; jass.__version__");
  seconds.import = elapsed(since);
  say({ type: "ready", seconds, versions: { pyodide: pyodide.version, jass: jassVersion } });
  return jassTable;
}

const engine = start();
engine.catch((error) => say({ type: "error", message: `Python did not start: ${error.message}` }));

let table = null; // the jass_table.Table of the game in play
let game = 0; // counts "new" messages, so that a new game stops the bots of the old one
let delay = 600;

// Call Python; its dict comes back as a plain object (None as undefined), with the
// milliseconds the call took (the move, the view and the picture) as `ms`.
function call(python) {
  const since = performance.now();
  const proxy = python();
  try {
    const state = proxy.toJs({ dict_converter: Object.fromEntries });
    return { ...state, ms: Math.round(performance.now() - since) };
  } finally {
    proxy.destroy();
  }
}

async function botsPlay(current) {
  while (current === game && table.bot_to_move()) {
    await sleep(delay);
    if (current !== game) return;
    say({ type: "state", ...call(() => table.bot_step()) });
  }
}

async function handle(message, current) {
  const jassTable = await engine;
  if (message.type === "new") {
    if (current !== game) return; // a newer game was asked for meanwhile
    delay = Number.isFinite(message.delay) ? message.delay : delay;
    table?.destroy();
    const seed = Number.isInteger(message.seed) ? message.seed : 1;
    const ruleset = message.ruleset ?? "SCHIEBER_1000";
    table = jassTable.Table.callKwargs(seed, ruleset, { swiss: Boolean(message.swiss) });
  } else if (message.type === "act") {
    if (!table || table.bot_to_move()) throw new Error("it is not your turn");
    const move = typeof message.card === "string" ? { card: message.card } : { index: message.index };
    say({ type: "state", ...call(() => table.act.callKwargs(move)) });
    await botsPlay(current);
    return;
  } else {
    throw new Error(`unknown message type ${JSON.stringify(message.type)}`);
  }
  say({ type: "state", ...call(() => table.state()) });
  await botsPlay(current);
}

// Messages are handled one at a time, in order. A "new" message counts at once, so the bots of
// the old game stop after their current move instead of playing on to your turn.
let queue = Promise.resolve();
self.onmessage = (event) => {
  const message = event.data ?? {};
  if (message.type === "new") game += 1;
  const current = game;
  queue = queue.then(() =>
    handle(message, current).catch((error) => {
      // A Python exception's message ends with its last line: "jass.errors.X: why".
      const lines = String(error.message).trim().split("\n");
      say({ type: "error", message: lines[lines.length - 1] });
    }),
  );
};
