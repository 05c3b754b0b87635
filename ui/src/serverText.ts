// What the engine says, in the interface language. Events carry their text in
// English and, where the engine knows it, a message key with parameters
// (`key`, `params`); the window translates the key from these catalogues and
// falls back to the English text only for a key it does not know yet (an
// older window talking to a newer engine). Stage names are keyed by the
// stage's id, which every milestone carries.
import type { Lang } from "./i18n";

/** A catalogued sentence as events carry it (labwright.messages on the engine's side). */
export interface Text {
  key: string;
  params?: Record<string, string | number | boolean | Text | null | undefined> | null;
}

/** A message as the window keeps it: the engine's English, and its key when it sent one. */
export interface Said {
  text: string;
  keyed?: Text | null;
}

/** The key of a sentence the engine has no catalogue entry for: shown as its `text` parameter. */
export const PLAIN = "plain";

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

const isText = (v: unknown): v is Text => !!v && typeof v === "object" && typeof (v as Text).key === "string";

function render(lang: Lang, t: Text, fallback: string): string {
  if (t.key === PLAIN) return typeof t.params?.text === "string" && t.params.text ? t.params.text : fallback;
  const template = serverCatalogues[lang][t.key];
  if (template === undefined) return fallback;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const v = t.params?.[name];
    if (v === undefined || v === null) return whole;
    if (isText(v)) return render(lang, v, "");
    if (typeof v === "number") return v.toLocaleString(lang === "zh" ? "zh-CN" : "en", { maximumFractionDigits: 6 });
    return String(v);
  });
}

/** The message in `lang`: its key translated, else the engine's English as it is. */
export function say(lang: Lang, said: Said): string {
  return said.keyed ? render(lang, said.keyed, said.text) : said.text;
}

/** The Text an event carries in `field`, if it is one. */
export function textField(ev: object, field: string): Text | null {
  const v = (ev as Record<string, unknown>)[field];
  return isText(v) ? v : null;
}

/** A milestone's name: its catalogued text when it has one, else by stage id; "(skipped)" added when passed over. */
export function milestoneName(lang: Lang, m: { stage: string; label: string; text?: unknown; skipped?: boolean }): string {
  const keyed = textField(m, "text");
  if (!keyed || keyed.key === PLAIN) return stageName(lang, m.stage, m.label);
  const base = say(lang, { text: m.label, keyed });
  return m.skipped ? say(lang, { text: m.label, keyed: { key: "stage.skipped", params: { stage: base } } }) : base;
}

/** A milestone's name by stage id, the round of a revision and "(skipped)" from its label. */
export function stageName(lang: Lang, stage: string, label: string): string {
  const round = /\(round (\d+)\)/.exec(label)?.[1];
  const bare = label.replace(/ \(skipped\)$/, "") || stage;
  const base = say(lang, { text: bare, keyed: { key: `stage.${stage}`, params: { round } } });
  return / \(skipped\)$/.test(label) ? say(lang, { text: label, keyed: { key: "stage.skipped", params: { stage: base } } }) : base;
}
