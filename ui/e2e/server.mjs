// Start a real `labwright serve --open` on a free port with a private data
// directory, and read the address (with its token) that it prints when it
// cannot start a browser (BROWSER=false makes sure it cannot).
import { spawn } from "node:child_process";
import { existsSync, readdirSync, lstatSync } from "node:fs";
import { join, relative } from "node:path";

export async function startServer({ repo, home, uiDir }) {
  const bin = process.env.LABWRIGHT_BIN ?? join(repo, ".venv", "bin", "labwright");
  const python = process.env.LABWRIGHT_PYTHON ?? join(repo, ".venv", "bin", "python");
  if (!existsSync(bin)) throw new Error(`no labwright at ${bin}: run scripts/test.sh first`);
  const child = spawn(bin, ["serve", "--open", "--port", "0", "--ui-dir", uiDir], {
    env: { ...process.env, LABWRIGHT_HOME: home, BROWSER: "false" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let err = "";
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`labwright serve did not print its address:\n${err}`)), 120_000);
    child.stderr.on("data", (chunk) => {
      err += chunk;
      const m = /(http:\/\/127\.0\.0\.1:\d+\/#token=[A-Za-z0-9_\-]+)/.exec(err);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.on("exit", (code) => reject(new Error(`labwright serve exited with ${code}:\n${err}`)));
  });
  child.stdout.resume();
  const base = url.split("/#")[0];
  const token = url.split("#token=")[1];
  return {
    url,
    base,
    token,
    python,
    stderr: () => err,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGINT");
        setTimeout(() => child.kill("SIGKILL"), 10_000).unref();
      }),
  };
}

/** Every path under `root` (relative), without following links. */
export function treeOf(root) {
  const out = new Set();
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      out.add(relative(root, path));
      if (lstatSync(path).isDirectory()) walk(path);
    }
  };
  if (existsSync(root)) walk(root);
  return out;
}
