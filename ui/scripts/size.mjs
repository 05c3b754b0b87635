// Print the gzipped size of the production bundle, without pdf.js's worker
// (it loads only when a PDF is shown, in its own thread), and fail the build
// when it is over the budget of 400 KB.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

const dist = new URL("../dist/", import.meta.url).pathname;
const files = [];
(function walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else files.push(path);
  }
})(dist);

let total = 0;
let worker = 0;
for (const path of files) {
  if (!/\.(js|mjs|css|html)$/.test(path)) continue;
  const gz = gzipSync(readFileSync(path), { level: 9 }).length;
  if (/pdf\.worker/.test(path)) worker += gz;
  else total += gz;
}
const kb = (n) => (n / 1024).toFixed(1);
console.log(
  `bundle size: ${kb(total)} KB gzipped without the pdf.js worker (budget 400 KB, ${((100 * total) / (400 * 1024)).toFixed(0)}% used); worker ${kb(worker)} KB gzipped`,
);
if (total > 400 * 1024) {
  console.error("the bundle is over its 400 KB budget: find what grew (npx vite build --mode production) before raising it");
  process.exit(1);
}
