// Backend sentences in the interface language. Every run event carries its
// sentences as catalogue keys with parameters (`text`, `action_text`,
// `problem_texts`; see docs/window-contract.md); the catalogue itself is
// generated from the sidecar's (messages.gen.ts), so a key the window does not
// know cannot happen with a matching sidecar. A parameter may be a sentence of
// its own (a stage name inside "the model failed during {stage}").
import { MESSAGES } from "./messages.gen";
import type { components } from "./schema";

export type Text = components["schemas"]["Text"];
type Catalogue = Record<string, string>;

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** The sentence of `text` in `lang`; English when the key is unknown in `lang`,
 *  `fallback` (the event's English text) when it is unknown altogether. */
export function translate(text: Text, lang: "en" | "zh", fallback = ""): string {
  const catalogue: Catalogue = MESSAGES[lang];
  const english: Catalogue = MESSAGES.en;
  const template = catalogue[text.key] ?? english[text.key];
  if (template === undefined) return fallback || text.key;
  return template.replace(PLACEHOLDER, (whole, name: string) => {
    const value = text.params[name];
    if (value === undefined) return whole;
    return typeof value === "object" ? translate(value, lang) : String(value);
  });
}
