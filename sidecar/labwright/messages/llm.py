"""The model provider and the model-backed stages (llm/errors.py, agent/)."""

ENTRIES: dict[str, tuple[str, str]] = {
    # -- what went wrong with the provider (LLMError.user_message) -------------------------
    "llm.failed": (
        "The language model call failed; try again or switch to offline mode.",
        "调用语言模型失败；请重试或改用离线模式。",
    ),
    "llm.no_config": (
        "No usable language model is configured; add an API key in Settings or use offline mode.",
        "尚未配置可用的语言模型；请在“设置”中添加 API 密钥，或使用离线模式。",
    ),
    "llm.auth": (
        "The provider rejected the API key; check the key in Settings.",
        "模型服务拒绝了 API 密钥；请在“设置”中检查密钥。",
    ),
    "llm.bad_request": (
        "The provider refused the request as invalid; check the model name in Settings.",
        "模型服务认为请求无效；请在“设置”中检查模型名称。",
    ),
    "llm.rate_limited": (
        "The provider is rate-limiting this key; wait a minute and try again.",
        "模型服务正在限制此密钥的调用频率；请等一分钟后重试。",
    ),
    "llm.server_error": (
        "The provider had a server error; try again in a moment.",
        "模型服务出现服务器错误；请稍后重试。",
    ),
    "llm.connection": (
        "The provider could not be reached or dropped the connection; check your network and try again.",
        "无法连接模型服务，或连接被中断；请检查网络后重试。",
    ),
    "llm.timeout": (
        "The provider did not answer in time; try again or raise the timeout in Settings.",
        "模型服务未能及时响应；请重试，或在“设置”中延长超时时间。",
    ),
    "llm.empty": (
        "The model returned an empty answer; try again or pick another model.",
        "模型返回了空回答；请重试或换一个模型。",
    ),
    "llm.cancelled": (
        "The model call was cancelled; start the step again when you are ready.",
        "模型调用已取消；准备好后可重新开始这一步。",
    ),
    "llm.bad_tool_arguments": (
        "The model called a tool with arguments that are not valid JSON; it will be asked to retry.",
        "模型调用工具时给出的参数不是有效的 JSON；将请它重试。",
    ),
    "llm.no_model": (
        "No usable language model is configured; add a provider and key in Settings, "
        "or start an offline run.",
        "尚未配置可用的语言模型；请在“设置”中添加模型服务和密钥，或开始离线运行。",
    ),
    # -- how a run copes -------------------------------------------------------------------
    "llm.degraded": (
        "The model failed during {stage} ({reason}); the offline writer's result is used for it.",
        "模型在{stage}时出错（{reason}）；这一部分改用离线写作的结果。",
    ),
    "llm.unreachable_offline": (
        "The model provider {provider} cannot be reached ({reason}), so this report is written "
        "offline; check the provider in Settings.",
        "无法连接模型服务 {provider}（{reason}），本次报告改为离线撰写；请在“设置”中检查模型服务。",
    ),
    "llm.refused": ("the connection was refused", "连接被拒绝"),
    "llm.no_answer": ("no answer within {seconds} s", "{seconds} 秒内没有响应"),
    "llm.no_route": ("the address cannot be reached", "地址无法访问"),
    "llm.unknown_host": ("the host name is unknown", "主机名无法解析"),
    "llm.tls": ("the secure connection failed", "安全连接失败"),
    "llm.draft_contract": (
        "The model's drafts broke the output contract; the offline report is used.",
        "模型写出的草稿不符合输出约定；改用离线报告。",
    ),
    "llm.explore_loop": (
        "The same tool call was repeated five times; exploration was cut off and the report "
        "will be written from what was read.",
        "同一个工具调用重复了五次；浏览已中止，报告将根据已读取的内容撰写。",
    ),
    "llm.explore_stopped": (
        "The model stopped calling tools; exploration ends.",
        "模型不再调用工具；浏览结束。",
    ),
    "llm.explore_done": ("Exploration finished: {summary}", "浏览完成：{summary}"),
    "llm.explore_budget": (
        "The exploration budget is spent; writing from what was read.",
        "浏览的预算已用完；根据已读取的内容撰写。",
    ),
    # -- the request the model fills through the typed tool (agent/request_tool.py) -------
    "llm.request_read": (
        "The request: {asked} quantities asked, {bindings} variables bound to columns.",
        "分析要求：{asked} 个待求量，{bindings} 个变量已对应到数据列。",
    ),
    "llm.request_dropped": (
        "{count} item(s) of the model's request failed the checks and were dropped: {items}.",
        "模型给出的分析要求中有 {count} 项未通过检查，已舍弃：{items}。",
    ),
    "llm.request_unusable": (
        "The model's reading of the notes could not be used ({reason}); the rules' reading is kept.",
        "模型对笔记的解读无法使用（{reason}）；保留按规则读出的要求。",
    ),
    "llm.request_no_call": (
        "it did not call the request tool",
        "模型没有调用分析要求工具",
    ),
    "llm.gaps": ("{count} gap(s): {gaps}", "{count} 处遗漏：{gaps}"),
    "llm.reflect_round": (
        "Round {round}: {count} change(s) proposed.",
        "第 {round} 轮：提出 {count} 处修改。",
    ),
    "llm.repair_first": (
        "Compiled with {passes} pass(es); {errors} error(s).",
        "编译 {passes} 遍；{errors} 个错误。",
    ),
    "llm.repair_round": (
        "Repair round {round}: {errors} error(s).",
        "第 {round} 轮修复：{errors} 个错误。",
    ),
    "llm.bib_files": (
        "Using {count} .bib file(s) from the folder.",
        "使用文件夹中的 {count} 个 .bib 文件。",
    ),
    "llm.bib_generated": (
        "{count} bibliography entries were written by the model and marked unverified: {keys}",
        "{count} 条参考文献由模型写出，已标记为未核实：{keys}",
    ),
    "llm.bib_missing": (
        "These citations have no bibliography entry: {keys}",
        "以下引用没有对应的参考文献条目：{keys}",
    ),
    "cite.no_correction": (
        "The check has no correction for the reference {key} in this version; rebuild the report to check it again.",
        "此版本的核查没有参考文献 {key} 的更正；请重新生成报告以再次核查。",
    ),
    "cite.not_in_bibliography": (
        "The reference {key} is not in this version's bibliography; rebuild the report, then propose the correction again.",
        "参考文献 {key} 不在此版本的参考文献表中；请重新生成报告后再提出更正。",
    ),
    "cite.already_corrected": (
        "The reference {key} already reads as the index records it; there is nothing to change.",
        "参考文献 {key} 已与索引的记录一致，无需更改。",
    ),
    "llm.citation_missing": (
        "Citation without an entry: {key}",
        "引用缺少参考文献条目：{key}",
    ),
    "llm.unsourced_numbers": (
        "{count} number(s) in the text have no source in the material: {numbers}",
        "正文中有 {count} 个数值在材料中找不到来源：{numbers}",
    ),
    "llm.image_unopened": (
        "The image could not be opened, so it was not described.",
        "无法打开该图像，因此没有描述它。",
    ),
    "llm.image_undescribed": (
        "The image could not be described ({reason}).",
        "无法描述该图像（{reason}）。",
    ),
}
