import { describe, expect, it } from "vitest";
import { MESSAGES } from "../src/api/messages.gen";
import { translate } from "../src/api/text";

describe("backend sentences", () => {
  it("fill parameters, nested sentences included, in either language", () => {
    const text = {
      key: "llm.degraded",
      params: { stage: { key: "during.explore", params: {} }, reason: { key: "llm.timeout", params: {} } },
    };
    expect(translate(text, "en")).toBe(
      "The model failed during exploration (The provider did not answer in time; try again or raise the timeout in Settings.); the offline writer's result is used for it.",
    );
    const zh = translate(text, "zh");
    expect(zh).toContain("浏览材料");
    expect(zh).not.toMatch(/[{}]/);
  });

  it("show an uncatalogued sentence as it came", () => {
    expect(translate({ key: "plain", params: { text: "as is" } }, "zh")).toBe("as is");
    expect(translate({ key: "no.such.key", params: {} }, "zh", "English")).toBe("English");
  });

  it("have the same keys and placeholders in both languages", () => {
    expect(Object.keys(MESSAGES.zh).sort()).toEqual(Object.keys(MESSAGES.en).sort());
    const names = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const [key, en] of Object.entries(MESSAGES.en)) {
      expect(names((MESSAGES.zh as Record<string, string>)[key]!), key).toEqual(names(en));
    }
  });
});
