"""What chat editing says to the person, in English and Chinese, keyed by meaning.

The reply follows the language of the request (people write in their own
language, whatever the report's is): any CJK character makes it Chinese.
Every entry is one sentence plus what to do, like every user-facing message.
"""

from __future__ import annotations

import re
from typing import Literal

ReplyLang = Literal["en", "zh"]
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")

_EN: dict[str, str] = {
    # router
    "missing_part": "The report has no {part}; name a part from its outline.",
    "needs_model_to_route": "I could not tell which part of the report you mean without a language model; name the section (for example \u201csection 2\u201d or its title), or add a model in Settings.",
    "unclear": "I could not tell which part of the report you mean; name the section, for example \u201csection 2\u201d or its title.",
    # deterministic
    "needs_model": "This request needs a language model; add a provider in Settings, or ask for a rename, a title change, a language switch, a figure removal or a unit fix in a named table.",
    "cite_not_found": "The citation of {keys} was not added: Crossref and OpenAlex do not hold that work; give its DOI or exact title and ask again.",
    "cite_unchecked": "The citation of {keys} was not added: it could not be checked (no network, or checks are off in Settings); ask again when online.",
    "cite_added": "The bibliography gains {keys}, checked against Crossref or OpenAlex.",
    "rename_not_found": "I could not find exactly one section matching \u201c{ref}\u201d; name it by number (for example \u201csection 2\u201d) or by its exact title.",
    "rename_summary": "Rename the section \u201c{old}\u201d to \u201c{new}\u201d.",
    "rename_reply": "Proposed: rename \u201c{old}\u201d to \u201c{new}\u201d.",
    "no_title": "The report has no \\title to change; add one in the source first.",
    "title_summary": "Change the title to \u201c{new}\u201d.",
    "title_reply": "Proposed: the title becomes \u201c{new}\u201d.",
    "lang_unknown": "This report does not use the Labwright class, so its language switch is not known; edit the source instead.",
    "lang_already": "The report's fixed texts are already in {name}; nothing to change.",
    "lang_summary": "Switch the report's fixed texts (labels, captions) to {name}.",
    "lang_reply": "Proposed: the fixed texts switch to {name}; the prose is not translated (that needs a model).",
    "lang_en": "English",
    "lang_zh": "Chinese",
    "no_figure": "The report has no Figure {n}; check the number in the PDF.",
    "figure_summary": "Remove Figure {n}.",
    "figure_reply": "Proposed: remove Figure {n}.",
    "figure_still_cited": "Proposed: remove Figure {n}; the text still refers to it, so remove those references too.",
    "no_table": "The report has no Table {n}; check the number in the PDF.",
    "no_cell": "Table {n} has no cell text \u201c{old}\u201d; quote the text exactly as it appears.",
    "cell_summary": "In Table {n}, change \u201c{old}\u201d to \u201c{new}\u201d.",
    "cell_reply": "Proposed: in Table {n}, \u201c{old}\u201d becomes \u201c{new}\u201d.",
    # model edits
    "refused": "Nothing was changed because the model's answer {reason}; ask again or rephrase the request.",
    "why_heading": "adds, removes or moves a heading, and an edit must keep the report's sections",
    "why_pseudo": "adds or removes the abstract or the keywords",
    "why_latex": "did not pass the LaTeX check ({detail})",
    "why_not_document": "is not a whole LaTeX document",
    "why_loses": "loses parts of the report ({detail})",
    "unchanged": "The model returned {what} unchanged, so there is nothing to accept; rephrase the request.",
    "what_section": "the section",
    "what_block": "the {kind}",
    "what_bib": "the bibliography",
    "what_report": "the report",
    "no_block": "The report has no {kind}; add one in the source first.",
    "no_bib": "The report has no bibliography yet; cite a source first, then ask again.",
    "section_reply": "Proposed a change to \u201c{title}\u201d.",
    "block_reply": "Proposed a change to the {kind}.",
    "bib_reply": "Proposed a change to the bibliography; the body is untouched.",
    "whole_one": "Proposed one change to the whole report; its structure changed, so it cannot be split by section.",
    "whole_split": "Proposed changes to {n} section(s); each can be accepted on its own.",
    "section_gone": "That section is no longer in the report; ask again.",
    # service
    "no_version": "There is no report in this session yet; build one first, then ask for changes.",
    "cancelled": "The request was cancelled, so nothing was changed; send it again when you are ready.",
    "model_failed": "The model could not answer ({error}); check the provider in Settings and try again.",
    # block names
    "kind_abstract": "abstract",
    "kind_keywords": "keywords",
    "kind_title": "title",
}

_ZH: dict[str, str] = {
    "missing_part": "报告中没有{part}；请按大纲中的名称指明要改的部分。",
    "needs_model_to_route": "没有语言模型时，我无法判断你指的是报告的哪一部分；请写明章节（例如“第2节”或章节标题），或在设置中添加模型。",
    "unclear": "我无法判断你指的是报告的哪一部分；请写明章节，例如“第2节”或章节标题。",
    "needs_model": "这个请求需要语言模型；请在设置中添加模型提供方，或改为请求：重命名章节、修改标题、切换语言、删除图、修改指定表格中的单位。",
    "rename_not_found": "没有找到唯一匹配“{ref}”的章节；请用编号（例如“第2节”）或完整标题指明。",
    "rename_summary": "把章节“{old}”改名为“{new}”。",
    "rename_reply": "已提出修改：把“{old}”改名为“{new}”。",
    "no_title": "报告中没有 \\title 可以修改；请先在源文件中添加标题。",
    "title_summary": "把标题改为“{new}”。",
    "title_reply": "已提出修改：标题改为“{new}”。",
    "lang_unknown": "这份报告没有使用 Labwright 的文档类，无法切换语言；请直接修改源文件。",
    "lang_already": "报告的固定文字已经是{name}，无需修改。",
    "lang_summary": "把报告的固定文字（标签、图表标题前缀）切换为{name}。",
    "lang_reply": "已提出修改：固定文字切换为{name}；正文不会被翻译（翻译需要语言模型）。",
    "lang_en": "英文",
    "lang_zh": "中文",
    "no_figure": "报告中没有图{n}；请核对 PDF 中的编号。",
    "figure_summary": "删除图{n}。",
    "figure_reply": "已提出修改：删除图{n}。",
    "figure_still_cited": "已提出修改：删除图{n}；正文仍引用了它，请一并删除这些引用。",
    "no_table": "报告中没有表{n}；请核对 PDF 中的编号。",
    "no_cell": "表{n}中没有“{old}”这段文字；请按原样引用要修改的文字。",
    "cell_summary": "把表{n}中的“{old}”改为“{new}”。",
    "cell_reply": "已提出修改：表{n}中的“{old}”改为“{new}”。",
    "refused": "没有做任何修改，因为模型的回答{reason}；请重新提出或换一种说法。",
    "why_heading": "增加、删除或移动了标题，而修改必须保留报告的章节结构",
    "why_pseudo": "增加或删除了摘要或关键词",
    "why_latex": "没有通过 LaTeX 检查（{detail}）",
    "why_not_document": "不是一份完整的 LaTeX 文档",
    "why_loses": "丢失了报告的部分内容（{detail}）",
    "unchanged": "模型返回的{what}没有任何变化，没有可接受的修改；请换一种说法。",
    "what_section": "章节",
    "what_block": "{kind}",
    "what_bib": "参考文献",
    "what_report": "报告",
    "no_block": "报告中没有{kind}；请先在源文件中添加。",
    "no_bib": "报告还没有参考文献；请先引用文献，再提出修改。",
    "section_reply": "已对“{title}”提出修改。",
    "block_reply": "已对{kind}提出修改。",
    "bib_reply": "已对参考文献提出修改；正文保持不变。",
    "whole_one": "已对整篇报告提出一处修改；它改变了报告结构，因此无法按章节拆分。",
    "whole_split": "已对 {n} 个章节提出修改；每一处都可以单独接受。",
    "section_gone": "该章节已不在报告中；请重新提出。",
    "no_version": "这个会话还没有报告；请先生成报告，再提出修改。",
    "cancelled": "请求已取消，没有做任何修改；准备好后请重新发送。",
    "model_failed": "模型未能回答（{error}）；请在设置中检查模型提供方后重试。",
    "cite_not_found": "未添加对 {keys} 的引用：Crossref 和 OpenAlex 中没有这篇文献；请给出它的 DOI 或准确标题后重试。",
    "cite_unchecked": "未添加对 {keys} 的引用：无法核对（没有网络或已在设置中关闭核对）；联网后重试。",
    "cite_added": "参考文献中加入了已在 Crossref 或 OpenAlex 核对过的 {keys}。",
    "kind_abstract": "摘要",
    "kind_keywords": "关键词",
    "kind_title": "标题",
}

CATALOGUES: dict[ReplyLang, dict[str, str]] = {"en": _EN, "zh": _ZH}


def reply_lang(request: str) -> ReplyLang:
    return "zh" if _CJK.search(request) else "en"


def say(lang: ReplyLang, key: str, **values: object) -> str:
    text = CATALOGUES[lang][key]
    for name, value in values.items():
        text = text.replace("{" + name + "}", str(value))
    return text
