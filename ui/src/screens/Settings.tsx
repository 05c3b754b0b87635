import { useEffect, useState } from "react";
import { ApiError, type Api, type LLMSettingsOut } from "../api/client";
import type { components } from "../api/schema";
import { useT } from "../i18n";
import { keepReportLanguage, reportLanguage, type ReportLang } from "../prefs";
import { keyProblem, validateSettings, type SettingsErrors, type SettingsForm } from "../state/settings";

type LocalServers = components["schemas"]["LocalServerOut"][];
type TestOut = components["schemas"]["ConnectionTestOut"];

const formOf = (s: LLMSettingsOut): SettingsForm => ({
  provider: s.provider,
  base_url: s.base_url ?? "",
  models: { main: s.models.main ?? "", cheap: s.models.cheap ?? "", vision: s.models.vision ?? "" },
  offline: s.offline,
  local_detection: s.local_detection,
});

export function SettingsScreen({ api }: { api: Api }) {
  const { t } = useT();
  const [settings, setSettings] = useState<LLMSettingsOut | null>(null);
  const [form, setForm] = useState<SettingsForm | null>(null);
  const [errors, setErrors] = useState<SettingsErrors>({});
  const [key, setKey] = useState("");
  const [message, setMessage] = useState<string | null>(null);
  const [local, setLocal] = useState<LocalServers | null>(null);
  const [reportLang, setReportLang] = useState<ReportLang>(reportLanguage);

  const load = async () => {
    const s = await api.get<LLMSettingsOut>("/settings/llm");
    setSettings(s);
    setForm(formOf(s));
  };
  useEffect(() => {
    void load();
  }, [api]); // `load` reads only `api`
  useEffect(() => {
    if (settings?.local_detection) void api.get<LocalServers>("/settings/llm/local").then(setLocal, () => setLocal([]));
  }, [api, settings?.local_detection]);

  if (!settings || !form) return null;
  const preset = settings.providers.find((p) => p.id === form.provider);
  const say = (err: unknown) => setMessage(err instanceof ApiError && err.message ? err.message : t("error"));

  const save = async () => {
    const found = validateSettings(form, settings.providers.map((p) => p.id));
    setErrors(found);
    if (Object.keys(found).length) return;
    try {
      const s = await api.send<LLMSettingsOut>("PUT", "/settings/llm", { ...form, base_url: form.base_url || null });
      setSettings(s);
      setForm(formOf(s));
      setMessage(t("saved"));
    } catch (err) {
      say(err);
    }
  };

  const storeKey = async () => {
    const problem = keyProblem(key);
    if (problem) return setMessage(problem);
    try {
      await api.send("PUT", `/settings/llm/keys/${encodeURIComponent(form.provider)}`, { api_key: key.trim() });
      setKey(""); // the field is emptied at once: the page never holds a stored key
      await load();
      setMessage(t("saved"));
    } catch (err) {
      setKey("");
      say(err);
    }
  };

  const removeKey = async () => {
    await api.send("DELETE", `/settings/llm/keys/${encodeURIComponent(form.provider)}`);
    await load();
  };

  const test = async () => {
    setMessage(null);
    try {
      const r = await api.send<TestOut>("POST", "/settings/llm/test");
      setMessage(r.ok ? `${t("testOk")} (${r.model})` : r.message);
    } catch (err) {
      say(err);
    }
  };

  const set = (patch: Partial<SettingsForm>) => setForm({ ...form, ...patch });
  // Ticking detection is the consent to probe local ports: saved at once (with the
  // saved values of everything else), then the sidecar looks.
  const toggleDetection = async (on: boolean) => {
    set({ local_detection: on });
    setLocal(null);
    try {
      const saved = formOf(settings);
      const s = await api.send<LLMSettingsOut>("PUT", "/settings/llm", {
        ...saved,
        base_url: saved.base_url || null,
        local_detection: on,
      });
      setSettings(s);
    } catch (err) {
      say(err);
    }
  };
  const setModel = (tier: "main" | "cheap" | "vision", v: string) => set({ models: { ...form.models, [tier]: v } });
  const noProvider = form.offline || (preset?.needs_key && !preset.has_key);

  return (
    <form
      className="settings"
      data-testid="settings"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <h1>{t("settings")}</h1>
      {noProvider && (
        <p className="notice" data-testid="offline-explain">
          {t("offlineExplain")}
        </p>
      )}
      <label>
        <input type="checkbox" checked={form.offline} onChange={(e) => set({ offline: e.target.checked })} />{" "}
        {t("offline")}
      </label>
      <label>
        {t("provider")}
        <select value={form.provider} onChange={(e) => set({ provider: e.target.value })} data-testid="provider">
          {settings.providers.map((p) => (
            <option key={p.id} value={p.id}>
              {p.label}
            </option>
          ))}
        </select>
        {errors.provider && <span className="error">{errors.provider}</span>}
      </label>
      <label>
        {t("baseUrl")}
        <input
          value={form.base_url}
          placeholder={preset?.base_url}
          onChange={(e) => set({ base_url: e.target.value })}
          data-testid="base-url"
        />
        {errors.base_url && <span className="error">{errors.base_url}</span>}
      </label>
      {(["main", "cheap", "vision"] as const).map((tier) => (
        <label key={tier}>
          {t(tier === "main" ? "tierMain" : tier === "cheap" ? "tierCheap" : "tierVision")}
          <input
            value={form.models[tier]}
            placeholder={preset?.models[tier] ?? ""}
            onChange={(e) => setModel(tier, e.target.value)}
          />
          {errors[tier] && <span className="error">{errors[tier]}</span>}
        </label>
      ))}
      <div className="row">
        <button type="submit" className="primary">
          {t("save")}
        </button>
        <button type="button" onClick={() => void test()} data-testid="test-connection">
          {t("testConnection")}
        </button>
      </div>
      <fieldset>
        <legend>{t("apiKey")}</legend>
        <p data-testid="key-state">{preset?.has_key ? t("keyStored") : t("keyMissing")}</p>
        <p className="muted" data-testid="key-backend">
          {settings.key_storage === "file" ? t("keyBackendFile") : t("keyBackendKeychain")}
        </p>
        <div className="row">
          <input
            type="password"
            autoComplete="off"
            value={key}
            placeholder={t("keyPlaceholder")}
            onChange={(e) => setKey(e.target.value)}
            aria-label={t("apiKey")}
            data-testid="api-key"
          />
          <button type="button" onClick={() => void storeKey()} data-testid="save-key">
            {t("saveKey")}
          </button>
          {preset?.has_key && (
            <button type="button" onClick={() => void removeKey()}>
              {t("deleteKey")}
            </button>
          )}
        </div>
      </fieldset>
      <label>
        <input
          type="checkbox"
          checked={form.local_detection}
          onChange={(e) => void toggleDetection(e.target.checked)}
          data-testid="local-detection"
        />{" "}
        {t("localDetection")}
      </label>
      {form.local_detection && local && (
        <p data-testid="local-servers">
          {local.length === 0
            ? t("localNone")
            : `${t("localFound")}: ${local.map((s) => `${s.provider} (${s.base_url}, ${s.models.length})`).join("; ")}`}
        </p>
      )}
      <label>
        {t("reportLanguage")}
        <select
          value={reportLang}
          onChange={(e) => {
            keepReportLanguage(api, e.target.value as ReportLang);
            setReportLang(e.target.value as ReportLang);
          }}
          data-testid="settings-report-language"
        >
          <option value="auto">{t("reportLanguageAuto")}</option>
          <option value="en">{t("english")}</option>
          <option value="zh">{t("chinese")}</option>
        </select>
      </label>
      {message && (
        <p role="status" data-testid="settings-message">
          {message}
        </p>
      )}
    </form>
  );
}
