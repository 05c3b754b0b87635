import { lazy, Suspense, useEffect, useMemo, useState } from "react";
import { Api } from "./api/client";
import { connect, type ConnState } from "./api/conn";
import { LangContext, systemLang, translator, type Lang } from "./i18n";
import { parseRoute, type Route } from "./route";
import { StartScreen } from "./screens/Start";
// The session and settings screens load on demand: the start screen, which the
// window opens on, carries only what it needs.
// A chunk whose download was cut (a network blip) is fetched again rather than
// leaving the window blank.
async function retried<M>(load: () => Promise<M>): Promise<M> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await load();
    } catch (err) {
      if (attempt >= 30) throw err;
      await new Promise((r) => setTimeout(r, Math.min(500 * 2 ** attempt, 4000)));
    }
  }
}
const SessionScreen = lazy(() => retried(() => import("./screens/Session")).then((m) => ({ default: m.SessionScreen })));
const SettingsScreen = lazy(() => retried(() => import("./screens/Settings")).then((m) => ({ default: m.SettingsScreen })));
import { Header } from "./components/Header";
import { LinkBanner } from "./components/LinkBanner";
import { useTheme, type ThemeChoice } from "./theme";
import { setReportLanguage } from "./prefs";
import type { components } from "./api/schema";

type UiPrefs = components["schemas"]["UiPrefs-Output"];

export function App() {
  const [conn, setConn] = useState<ConnState>({ state: "starting" });
  const [route, setRoute] = useState<Route>(() => parseRoute(window.location.hash));
  const [lang, setLangState] = useState<Lang>(
    () => (localStorage.getItem("labwright.lang") as Lang | null) ?? systemLang(navigator.languages),
  );
  const theme = useTheme();

  useEffect(() => connect(setConn), []);
  const api = useMemo(() => (conn.state === "ready" ? new Api(conn.conn) : null), [conn]);
  // The engine keeps the language and theme: in browser mode the page's origin
  // (its port) is new at every start, so the browser's storage forgets them.
  useEffect(() => {
    if (!api) return;
    void api.get<UiPrefs>("/settings/ui").then(
      (p) => {
        if (p.lang) {
          localStorage.setItem("labwright.lang", p.lang);
          setLangState(p.lang);
        }
        if (p.theme) theme.restore(p.theme);
        if (p.report_lang) setReportLanguage(p.report_lang);
      },
      () => undefined, // an older engine without the route: the browser's storage only
    );
  }, [api]); // `theme.restore` only writes state
  useEffect(() => {
    const onHash = () => setRoute(parseRoute(window.location.hash));
    window.addEventListener("hashchange", onHash);
    return () => window.removeEventListener("hashchange", onHash);
  }, []);
  useEffect(() => {
    document.documentElement.lang = lang === "zh" ? "zh-CN" : "en";
  }, [lang]);

  const i18n = useMemo(
    () => ({
      lang,
      t: translator(lang),
      setLang: (l: Lang) => {
        localStorage.setItem("labwright.lang", l);
        setLangState(l);
        void api?.send("PUT", "/settings/ui", { lang: l }).catch(() => undefined);
      },
    }),
    [lang, api],
  );
  const themeApi = useMemo(
    () => ({
      ...theme,
      setChoice: (c: ThemeChoice) => {
        theme.setChoice(c);
        void api?.send("PUT", "/settings/ui", { theme: c }).catch(() => undefined);
      },
    }),
    [theme, api],
  );
  const t = i18n.t;

  let body;
  if (conn.state === "starting") {
    body = (
      <p className="center" role="status" data-testid="starting">
        {t("starting")}
      </p>
    );
  } else if (conn.state === "failed" || api === null) {
    const failed = conn.state === "failed" ? conn : null;
    body = (
      <div className="center notice" role="alert">
        {failed?.message ? (
          <>
            <p>{failed.message}</p>
            {failed.log && <p>{t("startFailedAction")} <code>{failed.log}</code></p>}
          </>
        ) : (
          <>
            <p>{t("noToken")}</p>
            <p>{t("noTokenAction")}</p>
          </>
        )}
      </div>
    );
  } else if (route.name === "settings") {
    body = <SettingsScreen api={api} />;
  } else if (route.name === "session") {
    body = <SessionScreen api={api} id={route.id} tab={route.tab} />;
  } else {
    body = <StartScreen api={api} />;
  }

  return (
    <LangContext.Provider value={i18n}>
      <Header route={route} theme={themeApi} />
      {api && <LinkBanner api={api} />}
      <main className={route.name === "session" && route.tab === "report" ? "wide" : undefined}>
        <Suspense fallback={null}>{body}</Suspense>
      </main>
    </LangContext.Provider>
  );
}
