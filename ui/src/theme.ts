// Light and dark: follows the system until the user picks one.
import { useEffect, useState } from "react";

export type ThemeChoice = "system" | "light" | "dark";

export function resolveTheme(choice: ThemeChoice, prefersDark: boolean): "light" | "dark" {
  return choice === "system" ? (prefersDark ? "dark" : "light") : choice;
}

export function useTheme() {
  const [choice, setChoiceState] = useState<ThemeChoice>(
    () => (localStorage.getItem("labwright.theme") as ThemeChoice | null) ?? "system",
  );
  const [prefersDark, setPrefersDark] = useState(
    () => window.matchMedia?.("(prefers-color-scheme: dark)").matches ?? false,
  );
  useEffect(() => {
    const mq = window.matchMedia?.("(prefers-color-scheme: dark)");
    if (!mq) return;
    const on = (e: MediaQueryListEvent) => setPrefersDark(e.matches);
    mq.addEventListener("change", on);
    return () => mq.removeEventListener("change", on);
  }, []);
  const resolved = resolveTheme(choice, prefersDark);
  useEffect(() => {
    document.documentElement.dataset.theme = resolved;
  }, [resolved]);
  return {
    choice,
    resolved,
    setChoice: (c: ThemeChoice) => {
      localStorage.setItem("labwright.theme", c);
      setChoiceState(c);
    },
    /** A choice kept elsewhere (the engine), applied without saving it back. */
    restore: (c: ThemeChoice) => {
      localStorage.setItem("labwright.theme", c);
      setChoiceState(c);
    },
  };
}
export type ThemeApi = ReturnType<typeof useTheme>;
