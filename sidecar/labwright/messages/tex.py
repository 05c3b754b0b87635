"""What a compile found (latex/diagnose.humanize) and how the report's TeX was checked.

A count that changes the English wording has a `.one` and a `.many` entry
(`say_count` picks); Chinese has no plural, so both read the same.
"""

ENTRIES: dict[str, tuple[str, str]] = {
    "list.more": ("{items} and {more} more", "{items} 等（另有 {more} 项）"),
    "tex.fatal": (
        "LaTeX stopped before finishing the PDF. Open the log or fix the first error below.",
        "LaTeX 在 PDF 完成之前停止了。请打开日志，或修正下面的第一个错误。",
    ),
    "tex.blocked_reads": (
        "The document asked the PDF writer for something Labwright does not allow ({names}), "
        "so no PDF was made. Remove that \\special or outside file from the source.",
        "文档向 PDF 写出程序请求了 Labwright 不允许的内容（{names}），因此没有生成 PDF。"
        "请从源文件中删除该 \\special 或外部文件。",
    ),
    "tex.modified_inputs": (
        "The document overwrote its own input files ({names}), so this build must not be "
        "exported or reused; regenerate the report.",
        "文档覆盖了自己的输入文件（{names}），此次构建不能导出或复用；请重新生成报告。",
    ),
    "tex.timeout": (
        "LaTeX ran past its time limit and was stopped. Simplify the document or raise the limit.",
        "LaTeX 超出时间限制被停止。请简化文档或放宽时间限制。",
    ),
    "tex.budget": (
        "The compile used up its time budget before finishing. Compile again or simplify the document.",
        "编译在完成前用完了时间预算。请重新编译或简化文档。",
    ),
    "tex.cap": (
        "LaTeX still asked for another run after {passes} passes. Check cross-references in the PDF.",
        "编译 {passes} 遍后 LaTeX 仍要求再运行一遍。请检查 PDF 中的交叉引用。",
    ),
    "tex.removed_commands": (
        "{count} command(s) that run programs or read outside files were removed before "
        "compiling. Review the source if you wrote them on purpose.",
        "编译前删除了 {count} 条会运行程序或读取外部文件的命令。如果是有意写的，请检查源文件。",
    ),
    "tex.fixed_pitfalls": (
        "{count} known LaTeX pitfall(s) were corrected automatically. See the build log for the list.",
        "自动修正了 {count} 处常见的 LaTeX 问题。详见构建日志。",
    ),
    "tex.truncated_log": (
        "The LaTeX log was too long to read in full (stopped after {lines} lines), so some "
        "problems may not be listed. Open the log to see everything.",
        "LaTeX 日志太长，未能读完（读到第 {lines} 行为止），可能有问题没有列出。请打开日志查看全部内容。",
    ),
    "tex.driver_failed": (
        "The PDF writer (xdvipdfmx) failed, so the PDF is damaged or incomplete. "
        "Check the figures named below, or open the log.",
        "PDF 写出程序（xdvipdfmx）出错，PDF 已损坏或不完整。请检查下面列出的图，或打开日志。",
    ),
    "tex.missing_packages.one": (
        "{count} TeX package is missing: {names}. Run `labwright doctor` to see how to install them.",
        "缺少 {count} 个 TeX 宏包：{names}。请运行 `labwright doctor` 查看安装方法。",
    ),
    "tex.missing_packages.many": (
        "{count} TeX packages are missing: {names}. Run `labwright doctor` to see how to install them.",
        "缺少 {count} 个 TeX 宏包：{names}。请运行 `labwright doctor` 查看安装方法。",
    ),
    "tex.missing_fonts.one": (
        "{count} font was not found: {names}. Run `labwright doctor` to see which font package to install.",
        "找不到 {count} 个字体：{names}。请运行 `labwright doctor` 查看应安装的字体包。",
    ),
    "tex.missing_fonts.many": (
        "{count} fonts were not found: {names}. Run `labwright doctor` to see which font package to install.",
        "找不到 {count} 个字体：{names}。请运行 `labwright doctor` 查看应安装的字体包。",
    ),
    "tex.missing_characters.one": (
        "{count} character has no glyph in the font ({names}) and prints as a blank. "
        "Choose the report language of that text, or run `labwright doctor` to check the fonts.",
        "有 {count} 个字符在字体中没有字形（{names}），会显示为空白。"
        "请选择与该文字相符的报告语言，或运行 `labwright doctor` 检查字体。",
    ),
    "tex.missing_characters.many": (
        "{count} characters have no glyph in the font ({names}) and print as blanks. "
        "Choose the report language of that text, or run `labwright doctor` to check the fonts.",
        "有 {count} 个字符在字体中没有字形（{names}），会显示为空白。"
        "请选择与该文字相符的报告语言，或运行 `labwright doctor` 检查字体。",
    ),
    "tex.missing_figures.one": (
        "{count} figure is missing: {names}. Add the files to the folder or remove the figure from the text.",
        "缺少 {count} 幅图：{names}。请把文件加入文件夹，或从正文中删除该图。",
    ),
    "tex.missing_figures.many": (
        "{count} figures are missing: {names}. Add the files to the folder or remove the figure from the text.",
        "缺少 {count} 幅图：{names}。请把文件加入文件夹，或从正文中删除该图。",
    ),
    "tex.missing_files.one": (
        "{count} input file was not found: {names}. Remove the \\input line or add the file next to the report.",
        "找不到 {count} 个输入文件：{names}。请删除 \\input 行，或把文件放在报告旁边。",
    ),
    "tex.missing_files.many": (
        "{count} input files were not found: {names}. Remove the \\input line or add the file next to the report.",
        "找不到 {count} 个输入文件：{names}。请删除 \\input 行，或把文件放在报告旁边。",
    ),
    "tex.undefined_citations.one": (
        "{count} citation is undefined (shown as [?]): {names}. Add the entries to the .bib file or remove the \\cite.",
        "有 {count} 处引用未定义（显示为 [?]）：{names}。请在 .bib 文件中加入条目，或删除该 \\cite。",
    ),
    "tex.undefined_citations.many": (
        "{count} citations are undefined (shown as [?]): {names}. Add the entries to the .bib file or remove the \\cite.",
        "有 {count} 处引用未定义（显示为 [?]）：{names}。请在 .bib 文件中加入条目，或删除该 \\cite。",
    ),
    "tex.undefined_references.one": (
        "{count} cross-reference has no target (shown as ??): {names}. Add the matching \\label or remove the \\ref.",
        "有 {count} 处交叉引用没有目标（显示为 ??）：{names}。请加入对应的 \\label，或删除该 \\ref。",
    ),
    "tex.undefined_references.many": (
        "{count} cross-references have no target (shown as ??): {names}. Add the matching \\label or remove the \\ref.",
        "有 {count} 处交叉引用没有目标（显示为 ??）：{names}。请加入对应的 \\label，或删除该 \\ref。",
    ),
    "tex.error_at": (
        "{explanation}{where}. Check that spot in the source, or ask for a repair.",
        "{explanation}{where}。请检查源文件中的这个位置，或请求修复。",
    ),
    "tex.on_line": (" on line {line}", "（第 {line} 行）"),
    "tex.error_other": (
        "LaTeX reported an error{where}: {detail}. Check that spot in the source, or ask for a repair.",
        "LaTeX 报告了一个错误{where}：{detail}。请检查源文件中的这个位置，或请求修复。",
    ),
    "tex.further_errors": (
        "{count} further LaTeX errors follow. Open the log to see them all.",
        "之后还有 {count} 个 LaTeX 错误。请打开日志查看全部。",
    ),
    "tex.overfull.one": (
        "{count} line sticks out into the margin. Shorten long words, URLs or table columns if it matters.",
        "有 {count} 行伸出了页边。如有影响，请缩短过长的单词、网址或表格列。",
    ),
    "tex.overfull.many": (
        "{count} lines stick out into the margin. Shorten long words, URLs or table columns if it matters.",
        "有 {count} 行伸出了页边。如有影响，请缩短过长的单词、网址或表格列。",
    ),
    "tex.engine_missing": (
        "No XeLaTeX was found; install TeX Live's XeLaTeX or run `labwright doctor`.",
        "找不到 XeLaTeX；请安装 TeX Live 的 XeLaTeX，或运行 `labwright doctor`。",
    ),
    # what a LaTeX error means (latex/diagnose._KNOWN_ERRORS)
    "texerr.undefined_cs": (
        "An unknown LaTeX command was used (a typo or a missing package)",
        "使用了未知的 LaTeX 命令（拼写错误或缺少宏包）",
    ),
    "texerr.missing_dollar": (
        "A math symbol was used outside math mode",
        "在数学模式之外使用了数学符号",
    ),
    "texerr.extra_tab": (
        "A table row has more columns than the table declares",
        "表格某一行的列数多于表格声明的列数",
    ),
    "texerr.file_ended": (
        "A definition or argument was never closed (often a % hiding a closing brace)",
        "某个定义或参数没有闭合（常见原因是 % 遮住了右花括号）",
    ),
    "texerr.runaway": (
        "A brace was left open, so LaTeX read past the end of a command",
        "有花括号未闭合，LaTeX 读过了命令的结尾",
    ),
    "texerr.mathchar": (
        "A bold-math command is incompatible with the math font",
        "粗体数学命令与数学字体不兼容",
    ),
    "texerr.braces": ("Braces are unbalanced", "花括号不配对"),
    "texerr.environment": (
        "An environment is not known (a typo or a missing package)",
        "使用了未知的环境（拼写错误或缺少宏包）",
    ),
}
