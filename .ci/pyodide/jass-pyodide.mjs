// Load the jass wheel and its two dependencies into Pyodide, with no network and no micropip.
//
// The same code runs in Node, in a page and in a Web Worker: the caller brings `loadPyodide`
// (from the npm package `pyodide`), where the package's files are (`indexURL`: a directory in
// Node, a same-origin URL such as "./pyodide/" in a browser), and the wheels as bytes (read
// from disk in Node, fetched from local files in a browser).
//
// How a wheel is installed: jass, attrs and typing-extensions are pure Python wheels
// (py3-none-any), so installing one is unpacking its zip into site-packages (Pyodide's
// `unpackArchive(bytes, "wheel", {extractDir})`, which also writes the .dist-info); nothing is
// compiled and no dependency is resolved. The site-packages path comes from Python itself
// (`sysconfig.get_path("purelib")`, /lib/python3.13/site-packages in Pyodide 0.29), in the
// in-memory file system, so it is redone on every load.
//
// Offline: `loadPyodide` reads pyodide.asm.js, pyodide.asm.wasm, python_stdlib.zip and
// pyodide-lock.json from `indexURL` and nothing else, as long as no Pyodide package is asked
// for (`packages: []`, no `loadPackage`, no micropip). jass needs none: it uses only the
// standard library modules that python_stdlib.zip holds.

/**
 * Start Pyodide and install the given wheels.
 *
 * @param {object} options
 * @param {Function} options.loadPyodide the `loadPyodide` export of the `pyodide` package
 * @param {string} options.indexURL where pyodide.asm.wasm and python_stdlib.zip are
 * @param {{name: string, bytes: Uint8Array | ArrayBuffer}[]} options.wheels pure-Python wheels
 * @param {object} [options.config] more options for `loadPyodide` (stdout, stderr, ...)
 * @returns {Promise<object>} the Pyodide instance, with the wheels importable
 */
export async function loadJassPyodide({ loadPyodide, indexURL, wheels, config = {} }) {
  const pyodide = await loadPyodide({ ...config, indexURL, packages: [] });
  installWheels(pyodide, wheels);
  return pyodide;
}

/**
 * Unpack pure-Python wheels into Pyodide's site-packages; returns that directory.
 *
 * @param {object} pyodide a loaded Pyodide instance
 * @param {{name: string, bytes: Uint8Array | ArrayBuffer}[]} wheels
 * @returns {string}
 */
export function installWheels(pyodide, wheels) {
  const site = pyodide.runPython("import sysconfig; sysconfig.get_path('purelib')");
  for (const { name, bytes } of wheels) {
    // A wheel name ends in -{python tag}-{abi tag}-{platform tag}.whl.
    const tags = /-([^-]+)-([^-]+)-([^-]+)\.whl$/.exec(name);
    if (!tags || tags[2] !== "none" || tags[3] !== "any") {
      throw new Error(`${name}: not a pure-Python wheel (…-none-any.whl)`);
    }
    // A plain Uint8Array view: Pyodide refuses subclasses such as Node's Buffer.
    const view = ArrayBuffer.isView(bytes)
      ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)
      : new Uint8Array(bytes);
    pyodide.unpackArchive(view, "wheel", { extractDir: site });
  }
  pyodide.runPython("import importlib; importlib.invalidate_caches()");
  return site;
}
