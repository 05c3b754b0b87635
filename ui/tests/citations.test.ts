import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Citations } from "../src/components/Citations";
import { LangContext, translator } from "../src/i18n";
import {
  canPropose,
  countVerdicts,
  differenceLines,
  evidenceLine,
  sortedVerdicts,
  type CitationVerdict,
} from "../src/state/citations";

const evidence = {
  source: "crossref",
  record_id: "10.1038/nature14539",
  url: "https://doi.org/10.1038/nature14539",
  title: "Deep learning",
  authors: ["Yann LeCun", "Yoshua Bengio", "Geoffrey Hinton", "Someone Else"],
  year: 2015,
  venue: "Nature",
  doi: "10.1038/nature14539",
  found_by: "doi",
  cached_at: null,
};

const VERDICTS: CitationVerdict[] = [
  { key: "watson", verdict: "verified", reason: "Crossref holds this work.", origin: "user", file: "refs.bib", matched: ["title"], differences: [], cited: true },
  {
    key: "lecun",
    verdict: "corrected",
    reason: "Crossref holds this work, but its year differ.",
    origin: "user",
    file: "refs.bib",
    evidence,
    matched: ["title"],
    differences: [{ field: "year", entry: "2014", record: "2015" }],
    proposal: { entry: "@article{lecun, year={2015}}", diff: "-year\n+year" },
    cited: true,
  },
  { key: "fake", verdict: "not_found", reason: "Neither Crossref nor OpenAlex holds this work (likely invented).", origin: "model", file: "", matched: [], differences: [], cited: false },
  { key: "late", verdict: "unverifiable", reason: "It was not checked in the time the build allows.", origin: "user", file: "refs.bib", matched: [], differences: [], cited: true },
  {
    key: "model_fix",
    verdict: "corrected",
    reason: "OpenAlex holds this work, but its pages differ.",
    origin: "model",
    file: "",
    matched: [],
    differences: [{ field: "pages", entry: "1-2", record: "1--3" }],
    proposal: { entry: "@article{model_fix}", diff: "" },
    cited: true,
  },
];

function render(verdicts: CitationVerdict[], lang: "en" | "zh" = "en", onPropose?: (key: string) => Promise<void>): string {
  const panel = createElement(Citations, { verdicts, onPropose });
  return renderToStaticMarkup(createElement(LangContext.Provider, { value: { lang, t: translator(lang), setLang: () => undefined } }, panel));
}

describe("citation verdicts", () => {
  it("sort what needs a look first, then by key", () => {
    expect(sortedVerdicts(VERDICTS).map((v) => v.key)).toEqual(["fake", "lecun", "model_fix", "late", "watson"]);
    expect(countVerdicts(VERDICTS)).toEqual({ not_found: 1, corrected: 2, unverifiable: 1, verified: 1 });
  });

  it("only a correction of the person's own entry can be proposed", () => {
    expect(VERDICTS.filter(canPropose).map((v) => v.key)).toEqual(["lecun"]);
  });

  it("describe the record and the differences", () => {
    const [watson, lecun] = VERDICTS;
    if (!watson || !lecun) throw new Error("the fixture changed");
    expect(evidenceLine(lecun)).toBe("Yann LeCun, Yoshua Bengio, Geoffrey Hinton et al. (2015). Deep learning. Nature");
    expect(evidenceLine(watson)).toBe("");
    expect(differenceLines(lecun)).toEqual(["year: 2014 → 2015"]);
  });
});

describe("the citations panel", () => {
  it("lists every reference with its verdict, and a proposal button only for the user's correction", () => {
    const html = render(VERDICTS, "en", async () => undefined);
    for (const v of VERDICTS) expect(html).toContain(`data-key="${v.key}"`);
    expect(html.indexOf('data-key="fake"')).toBeLessThan(html.indexOf('data-key="watson"'));
    expect(html).toContain('data-verdict="not_found"');
    expect(html).toContain("not found (likely invented)");
    expect(html).toContain("year: 2014 → 2015");
    expect(html).toContain('href="https://doi.org/10.1038/nature14539"');
    expect(html).toContain('data-testid="propose-lecun"');
    expect(html).not.toContain('data-testid="propose-model_fix"');
    expect(html).toContain("suggested by the model, left out");
    expect(html).toContain("not found (likely invented): 1 · corrected: 2 · not checked: 1 · verified: 1");
  });

  it("has no button without a way to propose, speaks Chinese, and says when nothing was checked", () => {
    expect(render(VERDICTS)).not.toContain("propose-lecun");
    expect(render(VERDICTS, "zh", async () => undefined)).toContain("提出此更正");
    expect(render([])).toContain('data-testid="citations-none"');
  });
});
