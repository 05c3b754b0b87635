"""The names of a run's stages (milestone labels) and of what failed "during" one."""

ENTRIES: dict[str, tuple[str, str]] = {
    "stage.scan": ("Reading the folder", "读取文件夹"),
    "stage.analyse": ("Fitting and summarising the data", "拟合与汇总数据"),
    "stage.figures": ("Drawing figures", "绘制图表"),
    "stage.write": ("Writing the report", "撰写报告"),
    "stage.compile": ("Compiling the PDF", "编译 PDF"),
    "stage.explore": ("Exploring the material", "浏览材料"),
    "stage.gaps": ("Checking for gaps", "检查遗漏"),
    "stage.draft": ("Writing the draft", "撰写初稿"),
    "stage.reflect": ("Revising (round {round})", "修订（第 {round} 轮）"),
    "stage.bibliography": ("Adding the bibliography", "添加参考文献"),
    "stage.zip": ("Writing the Overleaf zip", "生成 Overleaf 压缩包"),
    "stage.skipped": ("{stage} (skipped)", "{stage}（已跳过）"),
    "during.explore": ("exploration", "浏览材料"),
    "during.gaps": ("the gap check", "检查遗漏"),
    "during.draft": ("drafting", "撰写初稿"),
    "during.reflect": ("reflection round {round}", "第 {round} 轮修订"),
    "during.bibliography": ("the bibliography", "添加参考文献"),
    "during.repair": ("compile repair", "编译修复"),
}
