// What the engine says, in the interface language. Events carry their text in
// English and, where the engine knows it, a message key with parameters
// (`key`, `params`); the window translates the key from these catalogues and
// falls back to the English text only for a key it does not know yet (an
// older window talking to a newer engine). Stage names are keyed by the
// stage's id, which every milestone carries.
import type { Lang } from "./i18n";

export type Params = Record<string, string | number | boolean | null | undefined>;

/** A message as an event carries it. */
export interface Said {
  key?: string | null;
  params?: Params | null;
  /** The engine's English text: shown when the key is unknown. */
  text: string;
}

const en: Record<string, string> = {
  "stage.scan": "Reading the folder",
  "stage.analyse": "Fitting and summarising the data",
  "stage.explore": "Exploring the material",
  "stage.figures": "Drawing figures",
  "stage.gaps": "Checking for gaps",
  "stage.draft": "Writing the report",
  "stage.reflect": "Revising (round {round})",
  "stage.bibliography": "Adding the bibliography",
  "stage.compile": "Compiling the PDF",
  "stage.skipped": "{stage} (skipped)",
  "gate.accepted": "accepted",
  "gate.refused": "refused",
};

const zh: Record<string, string> = {
  "stage.scan": "读取文件夹",
  "stage.analyse": "拟合与汇总数据",
  "stage.explore": "浏览材料",
  "stage.figures": "绘制图表",
  "stage.gaps": "检查遗漏",
  "stage.draft": "撰写报告",
  "stage.reflect": "修订（第 {round} 轮）",
  "stage.bibliography": "添加参考文献",
  "stage.compile": "编译 PDF",
  "stage.skipped": "{stage}（已跳过）",
  "gate.accepted": "通过",
  "gate.refused": "未通过",
};

export const serverCatalogues: Record<Lang, Record<string, string>> = { en, zh };

/** Adds message keys to the catalogues (the engine's own list, see messages in events). */
export function extendCatalogues(more: Record<Lang, Record<string, string>>): void {
  Object.assign(en, more.en);
  Object.assign(zh, more.zh);
}

function fill(template: string, params: Params | null | undefined, lang: Lang): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const v = params?.[name];
    if (v === undefined || v === null) return whole;
    if (typeof v === "number") return v.toLocaleString(lang === "zh" ? "zh-CN" : "en", { maximumFractionDigits: 6 });
    return String(v);
  });
}

/** The message in `lang`: its key translated, else the engine's text as it is. */
export function say(lang: Lang, said: Said): string {
  const template = said.key ? serverCatalogues[lang][said.key] : undefined;
  return template === undefined ? said.text : fill(template, said.params, lang);
}

/** A milestone's name: by stage id, the round of a revision and "(skipped)" from its label. */
export function stageName(lang: Lang, stage: string, label: string): string {
  const round = /\(round (\d+)\)/.exec(label)?.[1];
  const base = say(lang, { key: `stage.${stage}`, params: { round }, text: label.replace(/ \(skipped\)$/, "") || stage });
  return / \(skipped\)$/.test(label) ? say(lang, { key: "stage.skipped", params: { stage: base }, text: label }) : base;
}
