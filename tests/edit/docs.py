"""Two realistic reports (English, Chinese) in the shape our template writes, for the edit tests.

Outline of both (anchor, number):
n0 1 aim, n1 2 principle, n2 3 apparatus, n3 4 results (n4 4.1 periods with
Table 1 and Figure 1, n5 4.2 fit with Table 2 and Figure 2), n6 5 error
analysis, n7 6 discussion, n8 7 conclusion; then the bibliography.
"""

from __future__ import annotations


def _float(env: str, caption: str, label: str, body: str) -> str:
    return f"\\begin{{{env}}}[htbp]\n\\centering\n\\caption{{{caption}}}\\label{{{label}}}\n{body}\n\\end{{{env}}}\n"


def _table(caption: str, label: str, header: str, rows: list[str]) -> str:
    body = "\\begin{tabular}{lr}\n\\hline\n" + header + " \\\\\n\\hline\n"
    body += "".join(r + " \\\\\n" for r in rows) + "\\hline\n\\end{tabular}"
    return _float("table", caption, label, body)


def _figure(caption: str, label: str, name: str) -> str:
    return _float(
        "figure", caption, label, f"\\includegraphics[width=0.7\\linewidth]{{figures/{name}}}"
    )


EN = (
    "\\documentclass[en]{labwright-report}\n"
    "\\title{Simple pendulum and the local value of g}\n"
    "\\author{A. Student}\n\\date{2026-11-30}\n\n"
    "\\begin{document}\n\\maketitle\n"
    "\\reportabstract{We timed a simple pendulum at five lengths and fitted the period against the "
    "square root of the length, giving $g = 9.79 \\pm 0.04$ m/s$^2$.}\n"
    "\\keywords{pendulum, gravitational acceleration, period}\n\n"
    "\\section{Aim}\nTo measure the local gravitational acceleration with a simple pendulum.\n\n"
    "\\section{Principle}\nFor small angles the period is $T = 2\\pi\\sqrt{L/g}$ "
    "\\cite{halliday}.\n\n"
    "\\section{Apparatus and procedure}\nA steel bob on a light string; a stopwatch; "
    "a tape measure. Ten oscillations were timed at each length.\n\n"
    "\\section{Results}\nThe periods are listed below.\n\n"
    "\\subsection{Period measurements}\nTable~\\ref{tab:periods} lists the periods.\n\n"
    + _table(
        "Measured periods",
        "tab:periods",
        "Length (m) & Period (ms)",
        ["0.50 & 1419", "0.75 & 1738", "1.00 & 2006"],
    )
    + "\n"
    + _figure("Period against length", "fig:periods", "periods.png")
    + "\n\\subsection{Fit of $g$}\nA straight-line fit of $T^2$ against $L$ gives the slope.\n\n"
    + _table(
        "Fit results",
        "tab:fit",
        "Quantity & Value",
        ["slope (s$^2$/m) & 4.03", "g (m/s$^2$) & 9.79"],
    )
    + "\n"
    + _figure("Fit of $T^2$ against $L$", "fig:fit", "fit.png")
    + "\n\\section{Error analysis}\nThe reaction time of the stopwatch dominates the uncertainty.\n\n"
    "\\section{Discussion}\nThe value agrees with the reference value within two standard "
    "uncertainties.\n\n"
    "\\section{Conclusion}\nWe measured $g = 9.79 \\pm 0.04$ m/s$^2$.\n\n"
    "\\bibliographystyle{plain}\n\\bibliography{refs}\n\\end{document}\n"
)

ZH = (
    "\\documentclass[zh]{labwright-report}\n"
    "\\title{单摆测量重力加速度}\n"
    "\\author{某同学}\n\\date{2026-11-30}\n\n"
    "\\begin{document}\n\\maketitle\n"
    "\\reportabstract{我们在五个摆长下测量单摆周期，拟合得到 $g = 9.79 \\pm 0.04$ m/s$^2$。}\n"
    "\\keywords{单摆，重力加速度，周期}\n\n"
    "\\section{实验目的}\n用单摆测量当地重力加速度。\n\n"
    "\\section{实验原理}\n小角度下周期为 $T = 2\\pi\\sqrt{L/g}$。\n\n"
    "\\section{实验装置与步骤}\n钢球、细线、秒表和卷尺；每个摆长计时十次全振动。\n\n"
    "\\section{实验结果}\n周期见下表。\n\n"
    "\\subsection{周期测量}\n表~\\ref{tab:periods}列出了周期。\n\n"
    + _table(
        "周期测量值",
        "tab:periods",
        "摆长 (m) & 周期 (ms)",
        ["0.50 & 1419", "0.75 & 1738", "1.00 & 2006"],
    )
    + "\n"
    + _figure("周期与摆长的关系", "fig:periods", "periods.png")
    + "\n\\subsection{拟合}\n以 $T^2$ 对 $L$ 作直线拟合得到斜率。\n\n"
    + _table("拟合结果", "tab:fit", "量 & 值", ["斜率 (s$^2$/m) & 4.03", "g (m/s$^2$) & 9.79"])
    + "\n"
    + _figure("$T^2$ 对 $L$ 的拟合", "fig:fit", "fit.png")
    + "\n\\section{误差分析}\n秒表的反应时间是主要误差来源。\n\n"
    "\\section{讨论}\n测量值与参考值在两倍标准不确定度内一致。\n\n"
    "\\section{结论}\n测得 $g = 9.79 \\pm 0.04$ m/s$^2$。\n\n"
    "\\begin{thebibliography}{9}\n\\bibitem{halliday} Halliday, Resnick. Fundamentals of Physics.\n"
    "\\end{thebibliography}\n\\end{document}\n"
)


# The same reports with the keywords written by hand, as people do without
# our template's \keywords command.
EN_HAND = EN.replace(
    "\\keywords{pendulum, gravitational acceleration, period}",
    "\\noindent\\textbf{Keywords:} pendulum, gravitational acceleration, period",
)
ZH_HAND = ZH.replace("\\keywords{单摆，重力加速度，周期}", "关键词：单摆；重力加速度；周期")
EN_ITALIC = EN.replace(
    "\\keywords{pendulum, gravitational acceleration, period}",
    "\\noindent\\textit{Key words}: pendulum; gravitational acceleration",
)
