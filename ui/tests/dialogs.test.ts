// The native dialogs follow the interface language (issue 21): the page sends
// each dialog's title from its catalogue; the shell shows it as sent
// (src-tauri/src/dialog_title.rs; the real window test checks the dialog that
// appears, tests/desktop/test_window.py).
import { describe, expect, it } from "vitest";
import { pickFolder, type InvokeArgs } from "../src/api/conn";
import { TITLE_HEADER, saveExport, type Invoke } from "../src/api/save";
import { translator, type Lang } from "../src/i18n";

// Spelled out, not read from the catalogue: these are what a person reads in
// the title bar, and what the window test looks for.
const TITLES: Record<Lang, { pick: string; save: string }> = {
  en: { pick: "Open a data folder", save: "Save the report" },
  zh: { pick: "打开数据文件夹", save: "保存报告" },
};

describe("native dialogs are titled in the window's language", () => {
  for (const lang of ["en", "zh"] as const) {
    const t = translator(lang);

    it(`the folder picker in ${lang}`, async () => {
      const calls: [string, Record<string, unknown>][] = [];
      const invoke: InvokeArgs = async (cmd, args) => {
        calls.push([cmd, args]);
        return "/data/植物生长";
      };
      expect(await pickFolder(t("dialogPickFolder"), invoke)).toBe("/data/植物生长");
      expect(calls).toEqual([["pick_folder", { title: TITLES[lang].pick }]]);
    });

    it(`the Save dialog in ${lang}`, async () => {
      const headers: Record<string, string>[] = [];
      const invoke: Invoke = async (_cmd, _body, options) => {
        headers.push(options.headers);
        return { outcome: "cancelled" };
      };
      await saveExport(new Blob([new Uint8Array([1])]), "r.pdf", t("dialogSave"), true, invoke);
      const sent = headers[0]![TITLE_HEADER]!;
      // A header value is ASCII only: the title travels percent-encoded.
      expect(/^[\x20-\x7e]*$/.test(sent)).toBe(true);
      expect(decodeURIComponent(sent)).toBe(TITLES[lang].save);
    });
  }

  it("a cancelled picker is null, whatever the shell answers", async () => {
    for (const reply of [null, undefined, "", 42]) {
      expect(await pickFolder("t", async () => reply)).toBeNull();
    }
  });
});
