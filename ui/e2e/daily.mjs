// The window for daily use, end to end: a real `labwright serve --open` behind
// a cuttable loopback proxy (e2e/proxy.mjs), driven by playwright-core in
// Debian's Chromium. With the interface in 中文: drop a Chinese folder and get
// a Chinese report with no missing glyph; click three numbers in the PDF and
// see each source beside it and its line in the LaTeX pane; accept a rename in
// chat and click a number of the new version to its source; cut the
// connection mid-run and see the run resume; lose the engine for good and be
// told what to do. Every step is photographed in both languages and both
// themes (ui/artifacts/screenshots/daily-*.png). One line per check.
//
//   node e2e/daily.mjs [chinese-folder]
// Env: LABWRIGHT_BIN, LABWRIGHT_PYTHON, CHROMIUM, LABWRIGHT_ARTIFACTS.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { startProxy } from "./proxy.mjs";
import { startServer } from "./server.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const uiRoot = resolve(here, "..");
const repo = resolve(uiRoot, "..");
const folder = resolve(process.argv[2] ?? join(repo, "examples", "plant-growth-zh"));
const shots = join(resolve(process.env.LABWRIGHT_ARTIFACTS ?? join(uiRoot, "artifacts")), "screenshots");
mkdirSync(shots, { recursive: true });
const VIEW = { width: 1400, height: 900 };

let passes = 0;
let failures = 0;
function check(name, ok, detail = "") {
  if (ok) passes++;
  else failures++;
  console.log(`${ok ? "PASS" : "FAIL"} ${name}${detail ? ` — ${detail}` : ""}`);
  return ok;
}

const home = mkdtempSync(join(tmpdir(), "lw-daily-home-"));
const scratch = mkdtempSync(join(tmpdir(), "lw-daily-files-"));
const server = await startServer({ repo, home, uiDir: join(uiRoot, "dist") });
const proxy = await startProxy(server.base);
const pageUrl = `${proxy.origin}/#token=${server.token}`;
const api = async (path, init = {}) => {
  const res = await fetch(`${server.base}/api${path}`, {
    ...init,
    headers: { Authorization: `Bearer ${server.token}`, "Content-Type": "application/json", ...(init.headers ?? {}) },
  });
  if (!res.ok) throw new Error(`${init.method ?? "GET"} ${path}: ${res.status} ${await res.text()}`);
  return res;
};

const profile = mkdtempSync(join(tmpdir(), "lw-daily-chromium-"));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  headless: true,
  acceptDownloads: true,
  viewport: VIEW,
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run", "--disable-sync"],
});
await context.addInitScript(() => {
  window.__labwrightEvents = [];
});
const page = context.pages()[0] ?? (await context.newPage());
// A wait is a ceiling, not a claim about speed: on a shared 2-core machine a panel
// can take longer than Playwright's 30 s default to appear while other builds run.
page.setDefaultTimeout(120_000);
const pageErrors = [];
page.on("pageerror", (e) => pageErrors.push(e.message));

/** The step as it looks in both languages and both themes; the page is left as it was. */
async function photograph(step) {
  const was = await page.evaluate(() => ({
    lang: document.querySelector("[data-testid=lang-switch]")?.value ?? "zh",
    theme: document.querySelector("[data-testid=theme-switch]")?.value ?? "system",
  }));
  for (const lang of ["zh", "en"]) {
    for (const theme of ["light", "dark"]) {
      await page.getByTestId("lang-switch").selectOption(lang);
      await page.getByTestId("theme-switch").selectOption(theme);
      await page.waitForTimeout(150);
      await page.screenshot({ path: join(shots, `daily-${step}-${lang}-${theme}.png`) });
    }
  }
  await page.getByTestId("lang-switch").selectOption(was.lang);
  await page.getByTestId("theme-switch").selectOption(was.theme);
}

const inside = (box, frame) =>
  !!box && !!frame && box.x >= frame.x - 1 && box.y >= frame.y - 1 &&
  box.x + box.width <= frame.x + frame.width + 1 && box.y + box.height <= frame.y + frame.height + 1;
const viewport = { x: 0, y: 0, ...VIEW };
const sessionOf = () => Number(/#\/s\/(\d+)/.exec(page.url())?.[1] ?? 0);
const CJK = /[\u3400-\u9fff]/;

/** The fonts Chromium really drew a node's text with (CSS.getPlatformFontsForNode). */
async function platformFonts(selector) {
  const cdp = await context.newCDPSession(page);
  await cdp.send("DOM.enable");
  await cdp.send("CSS.enable");
  const { root } = await cdp.send("DOM.getDocument", { depth: -1 });
  const { nodeId } = await cdp.send("DOM.querySelector", { nodeId: root.nodeId, selector });
  const { fonts } = await cdp.send("CSS.getPlatformFontsForNode", { nodeId });
  await cdp.detach();
  return fonts.map((f) => f.familyName);
}

/** Clicks a number link of the PDF and checks what a reader sees. */
async function clickNumber(link, label) {
  const id = await link.getAttribute("data-id");
  await link.scrollIntoViewIfNeeded();
  const scroller = page.locator(".pdf-scroll");
  const before = await scroller.evaluate((el) => [el.scrollTop, el.scrollLeft]);
  await link.click();
  const pop = page.getByTestId("number-popover");
  await pop.waitFor({ timeout: 10_000 });
  const after = await scroller.evaluate((el) => [el.scrollTop, el.scrollLeft]);
  const popBox = await pop.boundingBox();
  const paneBox = await scroller.boundingBox();
  const linkBox = await link.boundingBox();
  const text = (await pop.textContent()) ?? "";
  const entry = (await (await api(`/sessions/${sessionOf()}/versions/${await shownVersion()}/provenance`)).json()).numbers.find(
    (n) => n.id === id,
  );
  const names = [entry?.file === "." ? null : entry?.file, entry?.sheet, entry?.variable, entry?.column].filter(Boolean);
  // A folder-level number (how many files or runs) names no file: the popover says it is the folder's.
  const folderLevel = names.length === 0 && (await pop.getByTestId("source-folder").count()) > 0;
  check(`${label}: the popover shows the number's source (file and column, or the folder)`, !!entry && (names.length > 0 ? names.every((n) => text.includes(n)) : folderLevel), `${id}: ${text.slice(0, 120)}`);
  // The computation line speaks the interface's language where the phrase
  // catalogue has a whole Chinese form (the record keeps the English).
  const uiLang = await page.evaluate(() => document.documentElement.lang);
  const said = uiLang.startsWith("zh") && entry?.computation_zh ? entry.computation_zh : entry?.computation;
  check(`${label}: the popover says the computation in the interface's language (${uiLang})`, !!said && text.includes(said), `${said} | ${text.slice(0, 160)}`);
  check(`${label}: the popover is inside the window and the PDF pane`, inside(popBox, viewport) && inside(popBox, paneBox), JSON.stringify(popBox));
  const gap = popBox && linkBox ? Math.max(0, popBox.x - (linkBox.x + linkBox.width), linkBox.x - (popBox.x + popBox.width), popBox.y - (linkBox.y + linkBox.height), linkBox.y - (popBox.y + popBox.height)) : Infinity;
  check(`${label}: the popover is beside the number`, gap <= 24, `${gap.toFixed(0)} px away`);
  check(`${label}: the PDF did not jump`, before[0] === after[0] && before[1] === after[1], `${before} → ${after}`);
  const line = page.getByTestId("tex-picked-line");
  await line.waitFor({ timeout: 5_000 }).catch(() => undefined);
  const lineBox = await line.boundingBox().catch(() => null);
  const texBox = await page.getByTestId("tex").boundingBox();
  const lineText = (await line.textContent().catch(() => "")) ?? "";
  // The pane shows a tag as its printed number (a button carrying the id), not as \lwnum{id}{...}.
  const tagged = (await line.locator(`[data-id="${id}"]`).count().catch(() => 0)) > 0;
  check(`${label}: the source line is highlighted and in view in the LaTeX pane`, inside(lineBox, texBox) && inside(lineBox, viewport) && tagged, lineText.slice(0, 100));
  return id;
}

/** Drops the folder `path` onto `selector` as a file manager does: Chromium's
 * own drag events carrying the real path (the DevTools protocol's
 * Input.dispatchDragEvent), so the page walks the folder through
 * webkitGetAsEntry exactly as in a person's drop; no input element is used. */
async function dropFolder(selector, path) {
  const box = await page.locator(selector).boundingBox();
  const at = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  const cdp = await context.newCDPSession(page);
  const data = { items: [], files: [path], dragOperationsMask: 1 };
  for (const type of ["dragEnter", "dragOver", "drop"]) await cdp.send("Input.dispatchDragEvent", { type, ...at, data });
  await cdp.detach();
}

async function shownVersion() {
  return Number(await page.getByTestId("report-version").inputValue());
}

try {
  // --- 1. the UI in 中文, a Chinese folder dropped -------------------------------
  await page.goto(pageUrl);
  await page.getByTestId("drop-zone").waitFor();
  await page.getByTestId("lang-switch").selectOption("zh");
  await page.getByTestId("theme-switch").selectOption("light");
  const langChoice = await page.getByTestId("report-language").inputValue();
  check("the report language is shown at drop time and is automatic by default", langChoice === "auto", langChoice);
  const fonts = await platformFonts("[data-testid=drop-zone] h1");
  check("Chinese interface text is drawn in a Hei face, never a Kai face", fonts.length > 0 && !fonts.some((f) => /kai|楷/i.test(f)), fonts.join(", "));
  await photograph("1-start");

  await dropFolder("[data-testid=drop-zone]", folder);
  await page.getByTestId("progress").waitFor({ timeout: 60_000 });
  const sid = sessionOf();
  await page.waitForURL(/\/report$/, { timeout: 300_000 });
  check("a finished run opens the report", page.url().endsWith("/report"), page.url());
  await page.getByTestId("tab-progress").click();
  const stageText = (await page.getByTestId("stage").textContent()) ?? "";
  const logText = (await page.getByTestId("log").textContent()) ?? "";
  check("the progress screen speaks Chinese (outcome and stage names)", CJK.test(stageText) && !/Reading the folder|Compiling the PDF|Drawing figures/.test(logText), `${stageText} | ${logText.slice(0, 120)}`);
  const outcome = await page.getByTestId("progress").getAttribute("data-outcome");
  check("the finished run shows its bar full", outcome === "done" || outcome === "problems", String(outcome));
  await photograph("2-progress-done");
  await page.getByTestId("tab-report").click();

  // The report is Chinese and every glyph is in the PDF.
  const versions = await (await api(`/sessions/${sid}/versions`)).json();
  const v1 = versions.at(-1);
  const content = (await (await api(`/sessions/${sid}/versions/${v1.version_no}`)).json()).content;
  check("the report is written in Chinese", /\\documentclass\[zh\]|\\documentclass\[[^\]]*zh/.test(content) || (content.match(/[\u4e00-\u9fff]/g) ?? []).length > 200, content.slice(0, 80));
  const pdfPath = join(scratch, "v1.pdf");
  writeFileSync(pdfPath, Buffer.from(await (await api(`/sessions/${sid}/versions/${v1.version_no}/pdf`)).arrayBuffer()));
  const pdfText = execFileSync("pdftotext", ["-enc", "UTF-8", pdfPath, "-"], { encoding: "utf-8" });
  const fontTable = execFileSync("pdffonts", [pdfPath], { encoding: "utf-8" }).trim().split("\n").slice(2);
  // pdffonts' last five columns: emb sub uni object generation.
  const unembedded = fontTable.filter((row) => row.trim().split(/\s+/).slice(-5)[0] !== "yes");
  const names = readdirSync(folder).flatMap((n) => [n.replace(/\.[^.]+$/, "")]);
  const missingNames = names.filter((n) => CJK.test(n) && !pdfText.includes(n));
  check("no missing glyph: the PDF's text has the folder's Chinese names and no replacement character", missingNames.length === 0 && !pdfText.includes("\ufffd") && (pdfText.match(/[\u4e00-\u9fff]/g) ?? []).length > 100, `missing: ${missingNames.join(", ") || "none"}`);
  check("no missing glyph: every font of the PDF is embedded", fontTable.length > 0 && unembedded.length === 0, fontTable.map((r) => r.split(/\s{2,}/)[0]).join("; "));

  await page.waitForFunction(() => Number(document.querySelector("[data-testid=pdf]")?.getAttribute("data-pages")) >= 1, null, { timeout: 60_000 });
  const problems = await page.getByTestId("pdf-problem").allTextContents();
  check("the text and link layers worked (no failure sentence)", problems.length === 0, problems.join(" | "));
  await photograph("3-report");

  // --- 2. three numbers clicked in the PDF ---------------------------------------
  const links = page.getByTestId("pdf-num");
  await links.first().waitFor({ timeout: 30_000 }).catch(() => undefined);
  const count = await links.count();
  check("the PDF has number links (one per number the writer tagged)", count >= 3, `${count} links`);
  const tagged = (content.match(/\\lwnum\s*\{/g) ?? []).length;
  check("only tagged numbers are links (no axis tick or section number)", count > 0 && count <= tagged, `${count} links, ${tagged} tags in the source`);
  const picks = count >= 3 ? [0, Math.floor(count / 2), count - 1] : [...Array(count).keys()];
  for (const [i, at] of picks.entries()) {
    await clickNumber(links.nth(at), `number ${i + 1} of 3`);
    await photograph(`4-number-${i + 1}`);
  }
  await page.keyboard.press("Escape");

  // --- 3. a rename accepted in chat; a number of the new version still has its source
  const section = /\\section\{([^}]+)\}/.exec(content.slice(content.indexOf("\\begin{document}")))?.[1] ?? "";
  await page.getByTestId("chat-input").fill(`把“${section}”改名为“结果与讨论”`);
  await page.getByTestId("chat-send").click();
  const card = page.locator("[data-testid=proposal][data-status=pending]").last();
  await card.waitFor({ timeout: 120_000 });
  await photograph("5-chat-proposal");
  await card.getByTestId("accept").click();
  await page.getByTestId("chat-note").filter({ hasText: /PDF 已更新为第 2 版|The PDF shows version 2/ }).waitFor({ timeout: 180_000 });
  await page.waitForFunction(() => document.querySelector("[data-testid=report-version]")?.value === "2", null, { timeout: 30_000 }).catch(() => undefined);
  check("the accepted rename is version 2", (await shownVersion()) === 2, String(await shownVersion()));
  await page.waitForFunction(() => Number(document.querySelector("[data-testid=pdf]")?.getAttribute("data-pages")) >= 1, null, { timeout: 60_000 });
  const v2links = page.getByTestId("pdf-num");
  await v2links.first().waitFor({ timeout: 30_000 }).catch(() => undefined);
  const v2count = await v2links.count();
  check("the new version keeps its number links", v2count >= 1, `${v2count}`);
  if (v2count > 0) await clickNumber(v2links.nth(Math.floor(v2count / 2)), "a number of version 2");
  await photograph("6-renamed-number");
  await page.keyboard.press("Escape");

  // --- 4. the connection cut mid-run; the run resumes on reconnect -------------------
  await page.getByTestId("tab-progress").click();
  await page.evaluate(() => (window.__labwrightEvents = []));
  await page.getByTestId("start-run").click();
  await page.locator("[data-testid=log] .log-milestone").first().waitFor({ timeout: 60_000 });
  const beforeCut = (await page.evaluate(() => window.__labwrightEvents.length));
  proxy.cut();
  await page.getByTestId("reconnecting").waitFor({ timeout: 30_000 });
  const kept = await page.getByTestId("progress").isVisible();
  check("a cut connection keeps the screen and says it is reconnecting", kept, `after ${beforeCut} events`);
  await photograph("7-reconnecting");
  await page.waitForTimeout(2500);
  proxy.restore();
  await page.getByTestId("reconnecting").waitFor({ state: "detached", timeout: 60_000 });
  await page.waitForFunction(() => document.querySelector("[data-testid=progress]")?.getAttribute("data-outcome") !== "running" && document.querySelector("[data-testid=progress]")?.getAttribute("data-outcome") !== "waiting", null, { timeout: 300_000 });
  const runs = await (await api(`/sessions/${sid}/runs`)).json();
  const run3 = runs.at(-1);
  const serverEvents = await (await api(`/runs/${run3.id}/events/list?limit=5000`)).json();
  const applied = await page.evaluate(() => [...window.__labwrightEvents]);
  const consecutive = applied.every((s, i) => s === i + 1);
  check("after the reconnect the run resumed: every event once, in order", consecutive && applied.length === serverEvents.length && beforeCut < serverEvents.length, `${beforeCut} before the cut, ${applied.length} applied, ${serverEvents.length} in the run`);
  const reopened = await page.waitForURL(/\/report$/, { timeout: 60_000 }).then(() => true, () => false);
  const finished = (await (await api(`/sessions/${sid}/runs`)).json()).at(-1);
  const runVersions = (await (await api(`/sessions/${sid}/versions`)).json()).filter((v) => v.run_id === run3.id);
  check("the resumed run finishes", finished.id === run3.id && finished.status === "done", `${finished.id}: ${finished.status}`);
  check("the resumed run's report opens", reopened && runVersions.length === 1 && (await shownVersion()) === runVersions[0].version_no, `${page.url()} shows version ${await shownVersion()}`);
  await photograph("8-resumed");

  // --- 5. the engine gone for good ---------------------------------------------------
  proxy.cut();
  await page.getByTestId("tab-versions").click();
  await page.getByTestId("engine-gone").waitFor({ timeout: 60_000 });
  const gone = (await page.getByTestId("engine-gone").textContent()) ?? "";
  check("a lost engine gets a plain sentence and what to do", /labwright serve --open/.test(gone), gone);
  await photograph("9-engine-gone");
  proxy.restore();
  check("no script errors in the page", pageErrors.length === 0, pageErrors.join(" | "));
} catch (err) {
  failures++;
  console.log(`FAIL the daily run stopped: ${err?.stack ?? err}`);
  await page.screenshot({ path: join(shots, "daily-failure.png") }).catch(() => undefined);
} finally {
  await context.close().catch(() => undefined);
  await proxy.close();
  await server.stop();
  for (const dir of [profile, home, scratch]) rmSync(dir, { recursive: true, force: true });
}
console.log(`${passes} passed, ${failures} failed`);
process.exit(failures === 0 ? 0 : 1);
