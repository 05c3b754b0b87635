import { describe, expect, it } from "vitest";
import { exportName } from "../src/state/exportName";

describe("exportName", () => {
  const tex = "\\title{Pendulum: $g$ from $T^2$}\n";
  it("names the report's exports after its title and version", () => {
    expect(exportName(tex, "s", 3, "pdf")).toBe("Pendulum g from T2 (v3).pdf");
    expect(exportName(tex, "s", 3, "zip")).toBe("Pendulum g from T2 (v3).zip");
  });
  it("says the compendium holds the analysis and is a zip", () => {
    expect(exportName(tex, "s", 3, "compendium")).toBe("Pendulum g from T2 (v3) analysis.zip");
    expect(exportName("", "植物 生长", 1, "compendium")).toBe("植物 生长 (v1) analysis.zip");
  });
});
