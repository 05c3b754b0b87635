// The native dialogs follow the interface language (issue 21): the page sends
// each dialog's title (and the Save dialog's file type) from its catalogue;
// the shell shows them as sent (src-tauri/src/dialog_text.rs; the real window
// test checks the title of the dialog that appears, tests/desktop/test_window.py).
import { describe, expect, it } from "vitest";
import { pickFolder, type InvokeArgs } from "../src/api/conn";
import { FILE_TYPE_HEADER, TITLE_HEADER, saveExport, type Invoke } from "../src/api/save";
import { translator, type Lang } from "../src/i18n";

// Spelled out, not read from the catalogue: these are what a person reads in
// the title bar, and what the window test looks for.
const TITLES: Record<Lang, { pick: string; save: string; pdf: string; zip: string }> = {
  en: { pick: "Open a data folder", save: "Save the report", pdf: "PDF document", zip: "Zip archive" },
  zh: { pick: "打开数据文件夹", save: "保存报告", pdf: "PDF 文档", zip: "Zip 压缩包" },
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

    it(`the Save dialog and its file type in ${lang}`, async () => {
      const sent = async (name: string) => {
        const headers: Record<string, string>[] = [];
        const invoke: Invoke = async (_cmd, _body, options) => {
          headers.push(options.headers);
          return { outcome: "cancelled" };
        };
        await saveExport(new Blob([new Uint8Array([1])]), name, t, true, invoke);
        // A header value is ASCII only: the texts travel percent-encoded.
        for (const value of Object.values(headers[0]!)) expect(/^[\x20-\x7e]*$/.test(value)).toBe(true);
        const text = (header: string) => {
          const value = headers[0]![header];
          return value === undefined ? undefined : decodeURIComponent(value);
        };
        return { title: text(TITLE_HEADER), fileType: text(FILE_TYPE_HEADER) };
      };
      expect(await sent("植物生长 (v1).pdf")).toEqual({ title: TITLES[lang].save, fileType: TITLES[lang].pdf });
      expect(await sent("植物生长 (v1).ZIP")).toEqual({ title: TITLES[lang].save, fileType: TITLES[lang].zip });
      expect(await sent("植物生长 (v1) analysis.zip")).toEqual({ title: TITLES[lang].save, fileType: TITLES[lang].zip });
      // No file type the shell filters by: no label (the shell shows no filter).
      expect(await sent("report")).toEqual({ title: TITLES[lang].save, fileType: undefined });
    });
  }

  it("a cancelled picker is null, whatever the shell answers", async () => {
    for (const reply of [null, undefined, "", 42]) {
      expect(await pickFolder("t", async () => reply)).toBeNull();
    }
  });
});
