// pdf.js needs its character maps to read fonts such as the Chinese Fandol
// fonts XeLaTeX embeds (CID fonts without a ToUnicode map): without them every
// Chinese glyph is blank. They ship beside the build (dist/cmaps/, about 1.5 MB,
// fetched only when a PDF needs one), never from a CDN.
import { cpSync } from "node:fs";

const from = new URL("../node_modules/pdfjs-dist/cmaps/", import.meta.url);
const to = new URL("../dist/cmaps/", import.meta.url);
cpSync(from, to, { recursive: true });
