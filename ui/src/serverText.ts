// What the engine says, in the interface language. Events carry their text in
// English and the same sentence as a catalogue key with parameters (`text`,
// `action_text`, `problem_texts`: docs/window-contract.md); the catalogue is
// the engine's own, generated into api/messages.gen.ts, plus the few words the
// window adds itself (below). A key unknown to both falls back to the
// engine's English (an older window with a newer engine). Rows stored before
// keys existed are named by their stage id.
import type { Lang } from "./i18n";
import { MESSAGES } from "./api/messages.gen";

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

/** Words the window adds: a gate's verdict (a log detail, not an engine sentence). */
const WINDOW: Record<Lang, Record<string, string>> = {
  en: { "gate.accepted": "accepted", "gate.refused": "refused" },
  zh: { "gate.accepted": "通过", "gate.refused": "未通过" },
};

export const serverCatalogues: Record<Lang, Record<string, string>> = {
  en: { ...MESSAGES.en, ...WINDOW.en },
  zh: { ...MESSAGES.zh, ...WINDOW.zh },
};

const isText = (v: unknown): v is Text => !!v && typeof v === "object" && typeof (v as Text).key === "string";

function render(lang: Lang, t: Text, fallback: string): string {
  if (t.key === PLAIN) return typeof t.params?.text === "string" && t.params.text ? t.params.text : fallback;
  const template = serverCatalogues[lang][t.key] ?? serverCatalogues.en[t.key];
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
