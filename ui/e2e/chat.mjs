// End-to-end run of the chat panel against a real `labwright serve --open`,
// driven by playwright-core in Debian's Chromium (never a downloaded browser).
// For English and for Chinese: a session with a built report (offline writer,
// real XeLaTeX), then in the window: type a request, see a proposal card with
// its diff, accept it, see version 2 and a re-rendered PDF; ask again, reject,
// and see nothing change. One line per check; screenshots under ui/artifacts/.
// Exit code 0 only when every check passed.
//
//   node e2e/chat.mjs
// Env: LABWRIGHT_BIN (default ../.venv/bin/labwright), CHROMIUM (default /usr/bin/chromium),
//      LABWRIGHT_ARTIFACTS (default ui/artifacts).
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const here = dirname(fileURLToPath(import.meta.url));
const uiRoot = resolve(here, "..");
const repo = resolve(uiRoot, "..");
const example = join(repo, "examples", "pendulum");
const shots = join(resolve(process.env.LABWRIGHT_ARTIFACTS ?? join(uiRoot, "artifacts")), "screenshots");
mkdirSync(shots, { recursive: true });

let failures = 0;
function check(name, ok, detail = "") {
  if (!ok) failures++;
  console.log(`${ok ? "PASS" : "FAIL"} ${name}${detail ? ` — ${detail}` : ""}`);
}

/** `labwright serve --open` on a free port; the address (with its token) is printed on stderr. */
async function startServer(home) {
  const bin = process.env.LABWRIGHT_BIN ?? join(repo, ".venv", "bin", "labwright");
  if (!existsSync(bin)) throw new Error(`no labwright at ${bin}: run scripts/test.sh first`);
  const child = spawn(bin, ["serve", "--open", "--port", "0", "--ui-dir", join(uiRoot, "dist")], {
    env: { ...process.env, LABWRIGHT_HOME: home, BROWSER: "false" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let err = "";
  const url = await new Promise((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`labwright serve printed no address:\n${err}`)), 120_000);
    child.stderr.on("data", (chunk) => {
      err += chunk;
      const m = /(http:\/\/127\.0\.0\.1:\d+\/#token=[A-Za-z0-9_\-]+)/.exec(err);
      if (m) {
        clearTimeout(timer);
        ok(m[1]);
      }
    });
    child.on("exit", (code) => fail(new Error(`labwright serve exited with ${code}:\n${err}`)));
  });
  child.stdout.resume();
  const stop = () =>
    new Promise((done) => {
      if (child.exitCode !== null) return done();
      child.once("exit", () => done());
      child.kill("SIGINT");
      setTimeout(() => child.kill("SIGKILL"), 10_000).unref();
    });
  return { url, base: url.split("/#")[0], token: url.split("#token=")[1], stop };
}

const home = mkdtempSync(join(tmpdir(), "lw-chat-e2e-"));
const server = await startServer(home);
const api = async (path, init = {}) => {
  const res = await fetch(`${server.base}/api${path}`, {
    ...init,
    headers: { Authorization: `Bearer ${server.token}`, "Content-Type": "application/json", ...(init.headers ?? {}) },
  });
  if (!res.ok) throw new Error(`${init.method ?? "GET"} ${path}: ${res.status} ${await res.text()}`);
  return res.json();
};

async function waitRun(runId, limit = 300_000) {
  const t0 = Date.now();
  for (;;) {
    const run = await api(`/runs/${runId}`);
    if (!["queued", "running"].includes(run.status)) return run;
    if (Date.now() - t0 > limit) throw new Error(`run ${runId} did not end`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** A session whose first version was built by the offline writer (real figures, real XeLaTeX). */
async function builtSession(language) {
  const session = await api("/sessions", { method: "POST", body: JSON.stringify({ path: example }) });
  const run = await api(`/sessions/${session.id}/runs`, {
    method: "POST",
    body: JSON.stringify({ language, mode: "offline" }),
  });
  const done = await waitRun(run.id);
  return { id: session.id, status: done.status };
}

const profile = mkdtempSync(join(tmpdir(), "lw-chat-chromium-"));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  headless: true,
  viewport: { width: 1400, height: 900 },
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run", "--disable-sync"],
});
const page = context.pages()[0] ?? (await context.newPage());
// A wait is a ceiling, not a claim about speed: on a shared 2-core machine a panel
// can take longer than Playwright's 30 s default to appear while other builds run.
page.setDefaultTimeout(120_000);
const pageErrors = [];
page.on("pageerror", (e) => pageErrors.push(e.message));

/** A hash of the first page as drawn: it changes when the PDF is re-rendered with new text. */
async function pdfInk() {
  await page.waitForFunction(
    () => Number(document.querySelector("[data-testid=pdf]")?.getAttribute("data-pages")) >= 1,
    null,
    { timeout: 120_000 },
  );
  await page.waitForTimeout(500); // the canvas is painted after the page count is set
  const data = await page.evaluate(() => {
    const c = document.querySelector("[data-testid=pdf] canvas");
    return c ? c.toDataURL("image/png") : "";
  });
  return createHash("sha256").update(data).digest("hex").slice(0, 12);
}

async function card(status) {
  const locator = page.locator(`[data-testid=proposal][data-status=${status}]`).last();
  await locator.waitFor({ timeout: 120_000 });
  return locator;
}

async function scenario(lang, requests) {
  const { id: sid, status } = await builtSession(lang);
  check(`[${lang}] the offline build made version 1`, status === "done", status);
  await page.goto(server.url);
  await page.evaluate((l) => localStorage.setItem("labwright.lang", l), lang);
  await page.goto(`${server.url.split("#")[0]}#/s/${sid}/report`);
  await page.reload();
  await page.getByTestId("chat").waitFor({ timeout: 60_000 });
  const before = await pdfInk();
  const sendLabel = await page.getByTestId("chat-send").textContent();
  check(`[${lang}] the panel speaks the interface language`, lang === "zh" ? sendLabel === "发送" : sendLabel === "Send", sendLabel ?? "");

  // 1. type a request, see the proposal and its diff, accept it
  await page.getByTestId("chat-input").fill(requests.accept.text);
  await page.getByTestId("chat-send").click();
  const first = await card("pending");
  const diffText = (await first.getByTestId("proposal-diff").textContent()) ?? "";
  check(`[${lang}] the proposal shows a line diff`, diffText.includes(`+ ${requests.accept.added}`) && diffText.includes("− "), diffText.slice(0, 160));
  await page.screenshot({ path: join(shots, `chat-${lang}-proposal.png`) });
  await first.getByTestId("accept").click();
  await page.getByTestId("chat-note").filter({ hasText: requests.rebuilt }).waitFor({ timeout: 240_000 });
  const versions = await api(`/sessions/${sid}/versions`);
  check(`[${lang}] accepting made version 2 with its own PDF`, versions.length === 2 && versions[1].has_pdf === true, JSON.stringify(versions.map((v) => [v.version_no, v.origin, v.has_pdf])));
  await page.waitForFunction(() => document.querySelector("[data-testid=report-version]")?.value === "2", null, { timeout: 60_000 });
  const after = await pdfInk();
  check(`[${lang}] the report shows version 2 and a re-rendered PDF`, after !== before, `${before} → ${after}`);
  await page.screenshot({ path: join(shots, `chat-${lang}-accepted.png`) });

  // 2. ask again, reject, and nothing changes
  await page.getByTestId("chat-input").fill(requests.reject);
  await page.getByTestId("chat-send").click();
  const second = await card("pending");
  await second.getByTestId("reject").click();
  await card("rejected");
  const still = await api(`/sessions/${sid}/versions`);
  const proposals = await api(`/sessions/${sid}/proposals`);
  check(`[${lang}] rejecting changed no version`, still.length === 2, `${still.length} versions`);
  check(`[${lang}] the proposals are one accepted, one rejected`, proposals.map((p) => p.status).join(",") === "accepted,rejected", proposals.map((p) => p.status).join(","));
  check(`[${lang}] the PDF did not change`, (await pdfInk()) === after);
  const messages = await api(`/sessions/${sid}/messages`);
  check(`[${lang}] the conversation was stored`, messages.length === 4, messages.map((m) => m.role).join(","));
  await page.screenshot({ path: join(shots, `chat-${lang}-rejected.png`) });
}

try {
  await scenario("en", {
    accept: { text: "Change the title to Timing a simple pendulum", added: "Timing a simple pendulum" },
    rebuilt: "The PDF shows version 2.",
    reject: "Change the title to Something else entirely",
  });
  await scenario("zh", {
    accept: { text: "把标题改为“单摆周期的测量”", added: "单摆周期的测量" },
    rebuilt: "PDF 已更新为第 2 版。",
    reject: "把标题改为“另一个标题”",
  });
  check("no script errors in the page", pageErrors.length === 0, pageErrors.join(" | "));
} catch (err) {
  failures++;
  console.log(`FAIL the chat run stopped: ${err instanceof Error ? err.stack : err}`);
  await page.screenshot({ path: join(shots, "chat-failure.png") }).catch(() => undefined);
} finally {
  await context.close();
  await server.stop();
  rmSync(profile, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
}
console.log(failures === 0 ? "chat e2e: all checks passed" : `chat e2e: ${failures} check(s) failed`);
process.exit(failures === 0 ? 0 : 1);
