// The smaller things of daily use (issue 21, points 7, 8 and 10), each
// checked as a person meets it: a real `labwright serve --open`, driven by
// playwright-core in Debian's Chromium. One line per check; screenshots in
// ui/artifacts/screenshots/details-*.png.
//
// - the cold first load paints "Starting…" before the app's code arrives;
// - a folder with nothing in it, or whose only data file is empty, gets one
//   sentence (the empty one: a failed run, not a full bar);
// - a file name of 200 characters overflows nothing; recent sessions show an
//   uploaded folder as such, never its internal path;
// - the PDF leads: wider than the source, zoom steps, fit page, fit width,
//   page navigation, the split resized, the source collapsed;
// - identical versions say so (not "+0 −0");
// - chat cards of one session never show in another;
// - a cancelled run says "Cancelled", never "Finished with problems";
// - a model provider that cannot be reached: the run is written offline and
//   says so once, with a link to Settings;
// - browser mode keeps the language and theme across a restart of the
//   engine (a new port, so a new origin and empty browser storage).
//
//   node e2e/details.mjs [example-folder]
// Env: LABWRIGHT_BIN, LABWRIGHT_PYTHON, CHROMIUM, LABWRIGHT_ARTIFACTS.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, cpSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { startServer } from "./server.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const uiRoot = resolve(here, "..");
const repo = resolve(uiRoot, "..");
const example = resolve(process.argv[2] ?? join(repo, "examples", "pendulum"));
const shots = join(resolve(process.env.LABWRIGHT_ARTIFACTS ?? join(uiRoot, "artifacts")), "screenshots");
mkdirSync(shots, { recursive: true });
const VIEW = { width: 1280, height: 860 };

let passes = 0;
let failures = 0;
function check(name, ok, detail = "") {
  if (ok) passes++;
  else failures++;
  console.log(`${ok ? "PASS" : "FAIL"} ${name}${detail ? ` — ${detail}` : ""}`);
  return ok;
}

// The folders a person might drop, made outside the repository.
const scratch = mkdtempSync(join(tmpdir(), "lw-details-files-"));
const nothing = join(scratch, "nothing here");
mkdirSync(nothing);
writeFileSync(join(nothing, ".DS_Store"), Buffer.from([0, 0, 0, 1, 66, 117, 100, 49]));
const onlyEmpty = join(scratch, "only-empty");
mkdirSync(onlyEmpty);
writeFileSync(join(onlyEmpty, "data.csv"), "");
const LONG = "cooling_curve_of_the_copper_block_in_still_air_" + "measured_again_after_recalibrating_the_thermocouple_".repeat(3);
const longNames = join(scratch, "long-names");
mkdirSync(longNames);
const longFile = `${LONG.slice(0, 195)}.csv`;
writeFileSync(
  join(longNames, longFile),
  "t (s),T (K)\n" + Array.from({ length: 12 }, (_, i) => `${i * 10},${(300 + 40 * Math.exp(-i / 4)).toFixed(2)}`).join("\n") + "\n",
);
const pendulum = join(scratch, "pendulum");
cpSync(example, pendulum, { recursive: true });

const home = mkdtempSync(join(tmpdir(), "lw-details-home-"));
let server = await startServer({ repo, home, uiDir: join(uiRoot, "dist") });
const api = async (path, init = {}) => {
  const res = await fetch(`${server.base}/api${path}`, {
    ...init,
    headers: { Authorization: `Bearer ${server.token}`, "Content-Type": "application/json", ...(init.headers ?? {}) },
  });
  if (!res.ok) throw new Error(`${init.method ?? "GET"} ${path}: ${res.status} ${await res.text()}`);
  return res.json();
};

const profile = mkdtempSync(join(tmpdir(), "lw-details-chromium-"));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  headless: true,
  viewport: VIEW,
  locale: "en-US",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run", "--disable-sync"],
});
const page = context.pages()[0] ?? (await context.newPage());
// A wait is a ceiling, not a claim about speed: on a shared 2-core machine a panel
// can take longer than Playwright's 30 s default to appear while other builds run.
page.setDefaultTimeout(120_000);
const pageErrors = [];
page.on("pageerror", (e) => pageErrors.push(e.message));
const sessionOf = () => Number(/#\/s\/(\d+)/.exec(page.url())?.[1] ?? 0);
const shot = (name) => page.screenshot({ path: join(shots, `details-${name}.png`) });

/** Elements wider than the page, or text boxes sticking out of their parent: what "overflows" means here. */
const overflow = () =>
  page.evaluate(() => {
    const out = [];
    const doc = document.documentElement;
    if (doc.scrollWidth > window.innerWidth + 1) out.push(`page ${doc.scrollWidth} > ${window.innerWidth}`);
    for (const el of document.querySelectorAll("code, .path, .session-title, strong, li, td, h1, h2, h3")) {
      const r = el.getBoundingClientRect();
      const p = el.parentElement?.getBoundingClientRect();
      if (r.width === 0) continue;
      if (r.right > window.innerWidth + 1 || (p && r.right > p.right + 1 && getComputedStyle(el.parentElement).overflowX === "visible"))
        out.push(`${el.tagName.toLowerCase()} "${(el.textContent ?? "").slice(0, 40)}…" ends at ${r.right.toFixed(0)}`);
    }
    return out;
  });

/** Uploads a folder through the page's folder input and waits for its session's progress screen. */
async function upload(folder) {
  await page.goto(`${server.base}/#/`);
  await page.getByTestId("drop-zone").waitFor();
  await page.getByTestId("folder-input").setInputFiles(folder);
  await page.getByTestId("progress").waitFor({ timeout: 60_000 });
  return sessionOf();
}

/** The progress screen's outcome once the run ended. */
async function ended(seconds = 240) {
  await page.waitForFunction(
    () => !["running", "waiting"].includes(document.querySelector("[data-testid=progress]")?.getAttribute("data-outcome") ?? "running"),
    null,
    { timeout: seconds * 1000 },
  );
  return page.getByTestId("progress").getAttribute("data-outcome");
}

try {
  // --- the cold first load is never blank ------------------------------------
  // The app's code is held back 3 s, as a cold start of the desktop app is.
  // (A flag, not unroute: a request held while its route is removed never completes.)
  let slow = true;
  await page.route("**/assets/*.js", async (route) => {
    if (slow) await new Promise((r) => setTimeout(r, 3000));
    await route.continue();
  });
  await page.goto(server.url, { waitUntil: "commit" });
  await page.waitForTimeout(700);
  const boot = await page.evaluate(() => {
    const b = document.querySelector("[data-testid=boot]");
    const r = b?.getBoundingClientRect();
    return {
      text: (b?.innerText ?? "").trim(),
      lang: document.documentElement.lang,
      shown: !!r && r.height > 0 && getComputedStyle(b).visibility === "visible",
      theme: document.documentElement.getAttribute("data-theme"),
      app: !!document.querySelector("[data-testid=drop-zone]"),
    };
  });
  await shot("boot");
  check(
    "the cold first load paints Starting… before the app's code has arrived",
    boot.shown && !boot.app && !!boot.theme &&
      (boot.lang.startsWith("zh") ? /正在启动…/.test(boot.text) && !/Starting/.test(boot.text) : /Starting…/.test(boot.text) && !/正在启动/.test(boot.text)),
    JSON.stringify(boot),
  );
  slow = false;
  await page.getByTestId("drop-zone").waitFor({ timeout: 60_000 });

  // --- a folder with nothing in it: one sentence, no session ----------------
  await page.getByTestId("folder-input").setInputFiles(nothing);
  const emptySaid = await page.getByTestId("start-error").textContent({ timeout: 30_000 });
  const sessionsAfterEmpty = await api("/sessions");
  await shot("empty-folder");
  check(
    "a folder with nothing in it gets one sentence and makes no session",
    /empty/i.test(emptySaid) && emptySaid.trim().split(/(?<=[.。])\s+/).length === 1 && sessionsAfterEmpty.length === 0,
    `${emptySaid} | ${sessionsAfterEmpty.length} sessions`,
  );

  // --- the only data file is empty: one sentence, a failed run ---------------
  await upload(onlyEmpty);
  const emptyOutcome = await ended();
  const notices = await page.getByTestId("notices").locator("li").allTextContents();
  const stageText = await page.getByTestId("stage").textContent();
  const barFill = await page.locator(".bar-fill").evaluate((el) => el.style.width);
  await shot("only-empty-file");
  check(
    "a folder whose only data file is empty: one sentence naming it, said once",
    notices.length === 1 && notices[0].includes("data.csv") && /empty/.test(notices[0]),
    notices.join(" | "),
  );
  check(
    "that run failed and does not look finished (no full bar, no Finished)",
    emptyOutcome === "failed" && barFill !== "100%" && !/Finished/.test(stageText),
    `${emptyOutcome}, bar ${barFill}, ${stageText}`,
  );

  // --- a 200-character file name overflows nothing ---------------------------
  const longSid = await upload(longNames);
  await ended();
  await page.getByTestId("tab-inventory").click();
  await page.getByTestId("inventory").waitFor();
  const inventoryOverflow = await overflow();
  await shot("long-name-inventory");
  check("a 200-character file name stays inside the inventory", inventoryOverflow.length === 0, inventoryOverflow.join("; "));
  await page.getByTestId("tab-progress").click();
  const progressOverflow = await overflow();
  check("…and inside the progress screen", progressOverflow.length === 0, progressOverflow.join("; "));

  // --- recent sessions: an uploaded folder is said as such -------------------
  await page.goto(`${server.base}/#/`);
  await page.getByTestId("session-state").first().waitFor();
  const recent = await page.getByTestId("sessions").textContent();
  await shot("recent");
  check(
    "recent sessions show an uploaded folder as such, never its internal path",
    recent.includes("uploaded folder") && !recent.includes(home) && !/uploads[\\/][0-9a-f]{32}/.test(recent),
    recent.slice(0, 200),
  );
  const onlyEmptyItem = (await page.getByTestId("sessions").locator("li").filter({ hasText: "only-empty" }).textContent()) ?? "";
  check(
    "a session whose run failed is listed as stopped, never as finished",
    /stopped without a report/.test(onlyEmptyItem) && !/Finished/.test(onlyEmptyItem),
    onlyEmptyItem,
  );
  const recentOverflow = await overflow();
  check("the long name overflows nothing in the recent list", recentOverflow.length === 0, recentOverflow.join("; "));

  // --- the PDF leads -----------------------------------------------------------
  const pendSid = await upload(pendulum);
  await page.waitForURL(/\/report$/, { timeout: 240_000 });
  await page.locator("[data-testid=pdf][data-pages]:not([data-pages='0'])").waitFor({ timeout: 60_000 });
  const panes = async () =>
    page.evaluate(() => {
      const box = (sel) => {
        const el = document.querySelector(sel);
        if (!el) return null;
        const r = el.getBoundingClientRect();
        return r.width > 0 ? { x: r.left, y: r.top, w: r.width, h: r.height } : null;
      };
      return {
        pdf: box(".pdf-scroll"),
        source: box(".source-pane"),
        page1: box("[data-testid=pdf-page][data-page='1']"),
        zoom: document.querySelector("[data-testid=zoom-value]")?.textContent ?? "",
        page: document.querySelector("[data-testid=page-input]")?.value ?? "",
      };
    });
  const first = await panes();
  await shot("pdf-default");
  check(
    "the PDF pane leads: wider than the LaTeX source",
    !!first.pdf && !!first.source && first.pdf.w > first.source.w * 1.4,
    `PDF ${first.pdf?.w.toFixed(0)} px, source ${first.source?.w.toFixed(0)} px`,
  );
  check(
    "fit width (the default) fills the pane's width",
    !!first.page1 && first.page1.w > first.pdf.w * 0.85 && first.page1.w <= first.pdf.w + 1,
    `page ${first.page1?.w.toFixed(0)} of ${first.pdf?.w.toFixed(0)} px`,
  );
  await page.getByTestId("zoom-in").click();
  await page.waitForTimeout(400);
  const zoomed = await panes();
  check("zoom in makes the page bigger and says by how much", zoomed.page1.w > first.page1.w * 1.05 && /%/.test(zoomed.zoom) && zoomed.zoom !== first.zoom, `${first.zoom} → ${zoomed.zoom}`);
  await page.getByTestId("fit-page").click();
  await page.waitForTimeout(400);
  const whole = await panes();
  check("fit page shows the whole page in the pane", whole.page1.h <= whole.pdf.h + 1 && whole.page1.h > whole.pdf.h * 0.8, `page ${whole.page1.h.toFixed(0)} of ${whole.pdf.h.toFixed(0)} px high`);
  await page.getByTestId("fit-width").click();
  const pages = Number((await page.getByTestId("pdf").getAttribute("data-pages")) ?? 0);
  if (pages >= 2) {
    await page.getByTestId("page-next").click();
    await page.waitForTimeout(600);
    const second = await page.evaluate(() => {
      const scroller = document.querySelector(".pdf-scroll").getBoundingClientRect();
      const p2 = document.querySelector("[data-testid=pdf-page][data-page='2']").getBoundingClientRect();
      return { input: document.querySelector("[data-testid=page-input]").value, offset: p2.top - scroller.top };
    });
    check("the next-page button goes to page 2", second.input === "2" && Math.abs(second.offset) < 60, JSON.stringify(second));
  } else check("the report has a second page to go to", false, `${pages} pages`);
  const handle = page.getByTestId("split-handle");
  await handle.focus();
  for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowLeft");
  const narrower = await panes();
  check("the split can be resized (keys on its handle)", narrower.pdf.w < first.pdf.w - 60, `${first.pdf.w.toFixed(0)} → ${narrower.pdf.w.toFixed(0)} px`);
  for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowRight");
  await page.getByTestId("toggle-source").click();
  const collapsed = await panes();
  await shot("pdf-source-hidden");
  check("the LaTeX source collapses and the PDF takes the width", collapsed.source === null && collapsed.pdf.w > first.pdf.w + 200, `PDF ${collapsed.pdf.w.toFixed(0)} px`);
  await page.getByTestId("toggle-source").click();

  // --- chat cards of another session never show ------------------------------
  await page.getByTestId("chat-input").fill("Change the title to Timing a simple pendulum");
  await page.getByTestId("chat-send").click();
  await page.locator("[data-testid=proposal][data-status=pending]").waitFor({ timeout: 120_000 });
  await page.goto(`${server.base}/#/s/${longSid}/report`);
  await page.getByTestId("chat").waitFor();
  await page.waitForTimeout(1500);
  const foreignCards = await page.locator("[data-testid=proposal]").count();
  const foreignLines = (await page.getByTestId("chat-lines").textContent()) ?? "";
  await shot("chat-other-session");
  check(
    "another session's report shows none of this session's chat",
    foreignCards === 0 && !foreignLines.includes("Timing a simple pendulum"),
    `${foreignCards} cards, lines: ${foreignLines.slice(0, 80)}`,
  );
  await page.goto(`${server.base}/#/s/${pendSid}/report`);
  const own = page.locator("[data-testid=proposal][data-status=pending] [data-testid=accept]");
  check("…and its own chat is there when the person comes back", await own.waitFor({ timeout: 30_000 }).then(() => true, () => false));

  // --- identical versions say so ----------------------------------------------
  // Version 2 is the accepted title; restoring version 1 makes version 3, the same text as 1.
  await own.click();
  await page.getByTestId("chat-note").filter({ hasText: "The PDF shows version 2." }).waitFor({ timeout: 240_000 });
  await page.getByTestId("tab-versions").click();
  await page.getByTestId("restore-1").click();
  await page.locator("[data-testid=history] tr[data-version='3']").waitFor({ timeout: 30_000 });
  await page.getByTestId("diff-a").selectOption("1");
  await page.getByTestId("diff-b").selectOption("3");
  const count = (await page.getByTestId("diff-count").textContent()) ?? "";
  await shot("identical-versions");
  check(
    "two identical versions say so, not +0 −0",
    /identical/.test(count) && !/\+0/.test(count) && (await page.getByTestId("diff").count()) === 0,
    count,
  );
  await page.getByTestId("diff-b").selectOption("2");
  const changed = (await page.getByTestId("diff-count").textContent()) ?? "";
  check("…while two different ones count their lines", /^\s*\+\d+/.test(changed) && !/identical/.test(changed), changed);

  // --- a cancelled run says Cancelled -----------------------------------------
  await page.getByTestId("tab-progress").click();
  // The rebuild of the accepted version may still be running: wait for the button.
  await page.locator("[data-testid=start-run]:not([disabled])").waitFor({ timeout: 240_000 });
  await page.getByTestId("start-run").click();
  await page.getByTestId("cancel-run").click({ timeout: 30_000 });
  const cancelOutcome = await ended();
  const cancelStage = await page.getByTestId("stage").textContent();
  const cancelRun = (await api(`/sessions/${pendSid}/runs`)).at(-1);
  await shot("cancelled");
  check(
    "a cancelled run ends as Cancelled, never Finished with problems",
    cancelOutcome === "cancelled" && /Cancelled/.test(cancelStage) && !/Finished/.test(cancelStage) && cancelRun.status === "cancelled",
    `${cancelOutcome}: ${cancelStage} (run ${cancelRun.status})`,
  );

  // --- a model provider that cannot be reached: offline, said once, a link to Settings
  const closedPort = await new Promise((res) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => res(port));
    });
  });
  const llm = (body) => api("/settings/llm", { method: "PUT", body: JSON.stringify({ provider: "custom", ...body }) });
  await llm({ base_url: `http://127.0.0.1:${closedPort}/v1`, models: { main: "any-model" }, offline: false });
  await upload(pendulum);
  await page.waitForURL(/\/report$/, { timeout: 240_000 });
  await page.getByTestId("tab-progress").click();
  const unreachOutcome = await ended();
  const unreachSaid = (await page.getByTestId("notices").locator("li").allTextContents()).filter((n) => /cannot be reached/.test(n));
  const settingsLinks = page.getByTestId("notice-settings");
  await shot("provider-unreachable");
  check(
    "a provider that cannot be reached: the report is written offline and the warning said once, with a link to Settings",
    ["done", "problems"].includes(unreachOutcome) && unreachSaid.length === 1 && (await settingsLinks.count()) === 1,
    `${unreachOutcome}: ${unreachSaid.join(" | ")}`,
  );
  await settingsLinks.first().click();
  check("…and the link opens Settings", await page.getByTestId("settings").waitFor({ timeout: 10_000 }).then(() => true, () => false), page.url());
  await llm({ offline: true });

  // --- browser mode keeps language and theme across a restart -----------------
  await page.getByTestId("lang-switch").selectOption("zh");
  await page.getByTestId("theme-switch").selectOption("dark");
  await page.waitForTimeout(500); // the choice is sent to the engine
  // The next cold load of the same origin (as the desktop app's always is)
  // says Starting… in the chosen language and theme before the app's code arrives.
  slow = true;
  await page.reload({ waitUntil: "commit" });
  await page.waitForTimeout(700);
  const bootZh = await page.evaluate(() => ({
    text: (document.querySelector("[data-testid=boot]")?.innerText ?? "").trim(),
    theme: document.documentElement.getAttribute("data-theme"),
    lang: document.documentElement.lang,
  }));
  await shot("boot-zh-dark");
  check(
    "…in the language and theme chosen last (正在启动…, dark)",
    bootZh.text.includes("正在启动…") && !bootZh.text.includes("Starting") && bootZh.theme === "dark",
    JSON.stringify(bootZh),
  );
  slow = false;
  await page.getByTestId("lang-switch").waitFor({ timeout: 60_000 }); // the app is back (a session's screen)
  const oldOrigin = server.base;
  await server.stop();
  server = await startServer({ repo, home, uiDir: join(uiRoot, "dist") });
  await page.goto(server.url);
  await page.getByTestId("drop-zone").waitFor({ timeout: 60_000 });
  await page.waitForFunction(() => document.documentElement.lang.startsWith("zh"), null, { timeout: 10_000 }).catch(() => undefined);
  const kept = await page.evaluate(() => ({
    lang: document.documentElement.lang,
    theme: document.documentElement.getAttribute("data-theme"),
    langSwitch: document.querySelector("[data-testid=lang-switch]")?.value,
    themeSwitch: document.querySelector("[data-testid=theme-switch]")?.value,
  }));
  await shot("restarted");
  check(
    "browser mode keeps the language and theme when the engine starts again on a new port",
    server.base !== oldOrigin && kept.lang.startsWith("zh") && kept.theme === "dark" && kept.langSwitch === "zh" && kept.themeSwitch === "dark",
    `${oldOrigin} → ${server.base}: ${JSON.stringify(kept)}`,
  );

  check("no uncaught error in the page", pageErrors.length === 0, pageErrors.join(" | "));
} catch (err) {
  failures++;
  console.log(`FAIL the walk stopped: ${err?.stack ?? err}`);
  await shot("failure").catch(() => undefined);
} finally {
  await context.close();
  await server.stop();
  rmSync(profile, { recursive: true, force: true });
  rmSync(scratch, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
}

console.log(`\n${passes} passed, ${failures} failed`);
process.exit(failures ? 1 : 0);
