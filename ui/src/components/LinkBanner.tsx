// One line at the top while the engine does not answer: "reconnecting…" for a
// short loss (the screen below stays as it is and resumes by itself), then a
// plain sentence and what to do once it has been gone for a while.
import { useEffect, useState } from "react";
import type { Api } from "../api/client";
import { inShell } from "../api/conn";
import type { Link } from "../api/liveness";
import { useT } from "../i18n";

export function LinkBanner({ api }: { api: Api }) {
  const { t } = useT();
  const [link, setLink] = useState<Link>(api.liveness.link);
  useEffect(() => {
    setLink(api.liveness.link);
    return api.liveness.subscribe(setLink);
  }, [api]);
  if (link === "online") return null;
  if (link === "reconnecting")
    return (
      <p className="link-banner" role="status" data-testid="reconnecting">
        {t("reconnecting")}
      </p>
    );
  return (
    <p className="link-banner gone" role="alert" data-testid="engine-gone">
      {t("engineGone")} {t(inShell() ? "engineGoneShell" : "engineGoneBrowser")}
    </p>
  );
}
