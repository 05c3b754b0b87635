// Hash routes (#/, #/settings, #/s/12/report): the sidecar serves only real
// files, so a path route would be a 404 on reload.
export type Tab = "inventory" | "progress" | "report" | "versions" | "cost";
export type Route = { name: "start" } | { name: "settings" } | { name: "session"; id: number; tab: Tab };

const TABS: readonly Tab[] = ["inventory", "progress", "report", "versions", "cost"];

export function parseRoute(hash: string): Route {
  if (hash === "#/settings") return { name: "settings" };
  const m = /^#\/s\/(\d{1,15})(?:\/([a-z]+))?$/.exec(hash);
  if (m) {
    const tab = (TABS as readonly string[]).includes(m[2] ?? "") ? (m[2] as Tab) : "progress";
    return { name: "session", id: Number(m[1]), tab };
  }
  return { name: "start" };
}

export function href(route: Route): string {
  if (route.name === "settings") return "#/settings";
  if (route.name === "session") return `#/s/${route.id}/${route.tab}`;
  return "#/";
}

export function go(route: Route): void {
  window.location.hash = href(route);
}
