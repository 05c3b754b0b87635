import { useT, type Lang } from "../i18n";
import { href, type Route } from "../route";
import type { ThemeApi, ThemeChoice } from "../theme";

export function Header({ route, theme }: { route: Route; theme: ThemeApi }) {
  const { t, lang, setLang } = useT();
  return (
    <header className="bar">
      <a className="brand" href={href({ name: "start" })}>
        {t("appName")}
      </a>
      <nav aria-label="main">
        <a href={href({ name: "start" })} aria-current={route.name === "start" ? "page" : undefined}>
          {t("home")}
        </a>
        <a
          href={href({ name: "settings" })}
          aria-current={route.name === "settings" ? "page" : undefined}
          data-testid="nav-settings"
        >
          {t("settings")}
        </a>
      </nav>
      <span className="spacer" />
      <label>
        <span className="sr-only">{t("interfaceLanguage")}</span>
        <select
          value={lang}
          onChange={(e) => setLang(e.target.value as Lang)}
          data-testid="lang-switch"
          aria-label={t("interfaceLanguage")}
        >
          <option value="en">English</option>
          <option value="zh">中文</option>
        </select>
      </label>
      <label>
        <span className="sr-only">{t("theme")}</span>
        <select
          value={theme.choice}
          onChange={(e) => theme.setChoice(e.target.value as ThemeChoice)}
          data-testid="theme-switch"
          aria-label={t("theme")}
        >
          <option value="system">{t("system")}</option>
          <option value="light">{t("light")}</option>
          <option value="dark">{t("dark")}</option>
        </select>
      </label>
    </header>
  );
}
