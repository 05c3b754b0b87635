// Client-side checks of the settings form, before anything is sent: one
// sentence per problem, keyed by field. The server checks again.
export interface SettingsForm {
  provider: string;
  base_url: string;
  models: { main: string; cheap: string; vision: string };
  offline: boolean;
  local_detection: boolean;
}

export type SettingsErrors = Partial<Record<"provider" | "base_url" | "main" | "cheap" | "vision", string>>;

export function validateSettings(form: SettingsForm, providers: readonly string[]): SettingsErrors {
  const errors: SettingsErrors = {};
  if (!providers.includes(form.provider)) errors.provider = "Pick a provider from the list.";
  const url = form.base_url.trim();
  if (url) {
    let parsed: URL | null = null;
    try {
      parsed = new URL(url);
    } catch {
      parsed = null;
    }
    if (!parsed || !/^https?:$/.test(parsed.protocol)) {
      errors.base_url = "Enter a web address that starts with http:// or https://.";
    } else if (parsed.username || parsed.password) {
      errors.base_url = "Remove the user name and password from the address; store the key below instead.";
    } else if (url.length > 2048) {
      errors.base_url = "Shorten the address to at most 2048 characters.";
    }
  }
  for (const tier of ["main", "cheap", "vision"] as const) {
    const m = form.models[tier];
    if (m.length > 200 || /\s/.test(m.trim()) || /[\u0000-\u001f]/.test(m)) {
      errors[tier] = "Enter a model name without spaces, as the provider lists it.";
    }
  }
  return errors;
}

/** A key looks pasteable: non-empty, no spaces inside, no line breaks. Never echoed anywhere. */
export function keyProblem(key: string): string | null {
  const k = key.trim();
  if (!k) return "Paste the key first.";
  if (/\s/.test(k)) return "The key has a space or line break inside; paste it again.";
  if (k.length > 4096) return "The key is too long; paste only the key.";
  return null;
}
