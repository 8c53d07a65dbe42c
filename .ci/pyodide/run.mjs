// Run a Python script in Pyodide under Node, with the wheels of a directory installed, offline.
//
//   node run.mjs --wheels DIR --script check.py [--node-modules DIR]
//
// Prints one JSON object: {"stdout": what the script printed, "node": {...}} where "node"
// holds the Pyodide version, the seconds each stage took and every network request that was
// attempted (there must be none: each is refused and makes the run fail).
// --node-modules is where `npm ci` installed the `pyodide` package (default: next to this file).

import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

import { loadJassPyodide } from "./jass-pyodide.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));

function parseArgs(argv) {
  const args = { nodeModules: path.join(here, "node_modules") };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    if (flag === "--wheels") args.wheels = value;
    else if (flag === "--script") args.script = value;
    else if (flag === "--node-modules") args.nodeModules = value;
    else throw new Error(`unknown option ${flag}`);
  }
  if (!args.wheels || !args.script) {
    throw new Error("usage: node run.mjs --wheels DIR --script FILE [--node-modules DIR]");
  }
  return args;
}

// Offline, enforced: before Pyodide is even imported, every way out to the network that
// Pyodide could take in Node (fetch, and any TCP socket: http, https, WebSocket) throws and is
// recorded. Files are read from disk with node:fs, which this leaves alone.
const requests = [];
globalThis.fetch = async (resource) => {
  const where = typeof resource === "string" ? resource : resource?.url ?? String(resource);
  requests.push(`fetch ${where}`);
  throw new Error(`offline: fetch(${where}) refused`);
};
net.Socket.prototype.connect = function refuse(...args) {
  const where = JSON.stringify(args[0]);
  requests.push(`socket ${where}`);
  throw new Error(`offline: connect(${where}) refused`);
};

// An error's message only: Node would print the minified line of pyodide.asm.js it came from.
process.on("uncaughtException", (error) => {
  process.stderr.write(`${error?.message ?? error}\n`);
  process.exit(1);
});
process.on("unhandledRejection", (error) => {
  process.stderr.write(`${error?.message ?? error}\n`);
  process.exit(1);
});

const args = parseArgs(process.argv.slice(2));
const seconds = {};
let started = performance.now();
function lap(name) {
  const now = performance.now();
  seconds[name] = Math.round(now - started) / 1000;
  started = now;
}

const indexURL = path.join(args.nodeModules, "pyodide") + path.sep;
const { loadPyodide, version } = await import(pathToFileURL(path.join(indexURL, "pyodide.mjs")));
const wheels = fs
  .readdirSync(args.wheels)
  .filter((name) => name.endsWith(".whl"))
  .sort()
  .map((name) => ({ name, bytes: fs.readFileSync(path.join(args.wheels, name)) }));
lap("import");

const printed = [];
const pyodide = await loadJassPyodide({
  loadPyodide,
  indexURL,
  wheels,
  config: { stdout: (line) => printed.push(line), stderr: (line) => process.stderr.write(`${line}\n`) },
});
lap("load_and_install");
// No Pyodide package may be loaded: the lock file's packages would come from the CDN.
pyodide.loadPackage = async (names) => {
  requests.push(`loadPackage ${names}`);
  throw new Error(`offline: loadPackage(${names}) refused`);
};

// The script runs as __main__ from a file in Pyodide's file system, as `python check.py` would.
const script = "/home/pyodide/" + path.basename(args.script);
pyodide.FS.writeFile(script, fs.readFileSync(args.script, "utf8"));
pyodide.globals.set("_script", script);
pyodide.runPython("import runpy; runpy.run_path(_script, run_name='__main__')");
lap("script");

const report = {
  stdout: printed.join("\n"),
  node: { pyodide: version, node: process.version, wheels: wheels.map((w) => w.name), seconds, requests },
};
process.stdout.write(`${JSON.stringify(report)}\n`);
if (requests.length) {
  process.stderr.write(`network requests were attempted: ${requests.join(", ")}\n`);
  process.exitCode = 1;
}
