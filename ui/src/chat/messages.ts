// The chat panel's interface text, English and Chinese, keyed by meaning.
// Kept beside the panel (same shape as ../i18n.ts) so the panel ships as one
// folder; it follows the interface language the rest of the window uses.
import { useT, type Lang } from "../i18n";

const en = {
  chatTitle: "Ask for a change",
  placeholder: "e.g. “Shorten the abstract” or “Rename section 2 to Theory”",
  send: "Send",
  sending: "Working on it…",
  you: "You",
  assistant: "Labwright",
  empty: "Say what to change; you will see the change before anything is applied.",
  onlyLatest: "You are looking at version {shown}; changes are made to the latest version ({latest}).",
  onlyLatestAction: "Switch the report to version {latest} to ask for changes.",
  noReport: "There is no report yet; write it first, then ask for changes here.",
  busyRun: "A run is in progress; wait until it finishes, then send again.",
  accept: "Accept",
  reject: "Reject",
  confirmWhole: "This changes the whole report. Apply it?",
  confirm: "Apply",
  keep: "Keep as is",
  accepted: "Accepted as version {n}.",
  rejected: "Rejected.",
  acceptedShort: "Accepted.",
  stale: "Made for an older version; ask again to change the current one.",
  rebuilding: "Rebuilding the PDF…",
  rebuilt: "The PDF shows version {n}.",
  rebuildFailed: "The PDF of version {n} could not be built; open the diagnostics.",
  scope_section: "Section",
  scope_whole: "Whole report",
  scope_bib: "Bibliography",
  scope_abstract: "Abstract",
  scope_keywords: "Keywords",
  added: "added",
  removed: "removed",
  freeDecision: "found without a model",
  modelDecision: "found by the model",
  codeDecision: "done by code, no model needed",
  identical: "no change to the text",
};

export type ChatKey = keyof typeof en;

const zh: Record<ChatKey, string> = {
  chatTitle: "提出修改",
  placeholder: "例如“摘要写短一些”或“把第2节改名为理论”",
  send: "发送",
  sending: "正在处理…",
  you: "你",
  assistant: "Labwright",
  empty: "说出要改什么；任何修改在应用前都会先给你看。",
  onlyLatest: "你正在查看第 {shown} 版；修改只针对最新的第 {latest} 版。",
  onlyLatestAction: "把报告切换到第 {latest} 版后再提出修改。",
  noReport: "还没有报告；请先生成报告，再在这里提出修改。",
  busyRun: "正在运行任务；请等它结束后再发送。",
  accept: "接受",
  reject: "拒绝",
  confirmWhole: "这会修改整篇报告。确定应用吗？",
  confirm: "应用",
  keep: "保持不变",
  accepted: "已接受，生成第 {n} 版。",
  rejected: "已拒绝。",
  acceptedShort: "已接受。",
  stale: "这是针对旧版本的修改；请重新提出，以修改当前版本。",
  rebuilding: "正在重新生成 PDF…",
  rebuilt: "PDF 已更新为第 {n} 版。",
  rebuildFailed: "第 {n} 版的 PDF 未能生成；请查看诊断信息。",
  scope_section: "章节",
  scope_whole: "整篇报告",
  scope_bib: "参考文献",
  scope_abstract: "摘要",
  scope_keywords: "关键词",
  added: "新增",
  removed: "删除",
  freeDecision: "无需模型即定位",
  modelDecision: "由模型定位",
  codeDecision: "由代码完成，无需模型",
  identical: "文本没有变化",
};

export const chatDictionaries: Record<Lang, Record<ChatKey, string>> = { en, zh };

export type ChatT = (key: ChatKey, vars?: Record<string, string | number>) => string;

export function chatTranslator(lang: Lang): ChatT {
  const dict = chatDictionaries[lang];
  return (key, vars) => {
    let text = dict[key];
    if (vars) for (const [k, v] of Object.entries(vars)) text = text.replaceAll(`{${k}}`, String(v));
    return text;
  };
}

export function useChatT(): ChatT {
  const { lang } = useT();
  return chatTranslator(lang);
}
