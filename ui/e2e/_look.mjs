import { mkdtempSync, readFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { chromium } from "playwright-core";
import { startServer } from "./server.mjs";
const repo = resolve(".."); const out = "artifacts/look"; mkdirSync(out, { recursive: true });
const home = mkdtempSync(join(tmpdir(), "lw-look-"));
const server = await startServer({ repo, home, uiDir: "dist" });
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"] });
const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
page.on("pageerror", (e) => console.log("PAGEERROR", e.message));
page.on("response", (r) => r.status() >= 400 && console.log("HTTP", r.status(), r.url()));
const fixture = process.env.FIXTURE === "1";
if (fixture) {
  await page.route(/\/versions\/\d+\/pdf$/, (r) => r.fulfill({ body: readFileSync("tests/fixtures/lwnum.pdf"), contentType: "application/pdf" }));
  await page.route(/\/versions\/\d+\/provenance$/, (r) => r.fulfill({ json: { recorded: true, quotes: [], unsourced: [], unverified_citations: [], numbers: [
    { id: "n1", printed: "3.14", value: 3.14, computation: "mean of 10 periods", file: "periods.csv", column: "T (s)" },
    { id: "n2", printed: "0.25", value: 0.25, computation: "as recorded", file: "notes.md" },
    { id: "n3", printed: "9.81", value: 9.81, computation: "4π²L/T² from the fit", file: "periods.csv", column: "T (s)" } ] } }));
  await page.route(/\/versions\/\d+$/, async (r) => { const res = await r.fetch(); const j = await res.json(); j.content = readFileSync("tests/fixtures/lwnum.tex", "utf-8"); r.fulfill({ json: j }); });
}
await page.goto(server.url);
await page.getByTestId("drop-zone").waitFor();
await page.screenshot({ path: `${out}/start.png` });
await page.getByTestId("folder-input").setInputFiles(process.argv[2] ?? join(repo, "examples", "pendulum"));
await page.getByTestId("progress").waitFor({ timeout: 60000 });
await page.waitForURL(/report/, { timeout: 120000 }).catch(() => console.log("did not open the report"));
await page.screenshot({ path: `${out}/after-run.png` });
await page.waitForSelector("[data-testid=pdf] canvas", { timeout: 60000 }).catch(() => {});
await page.waitForTimeout(2500);
await page.screenshot({ path: `${out}/report.png` });
const n = await page.getByTestId("pdf-num").count();
console.log("pdf-num", n);
if (n) { await page.getByTestId("pdf-num").nth(Math.min(2, n - 1)).click(); await page.waitForTimeout(500); await page.screenshot({ path: `${out}/picked.png` }); }
console.log(await page.locator("[data-testid=pdf-problem]").allTextContents());
await browser.close(); await server.stop();
