"""The offline writer's figures and self-checks (agent/offline/)."""

ENTRIES: dict[str, tuple[str, str]] = {
    "fig.not_drawn": (
        "The figure for {source} could not be drawn: {reason}.",
        "无法绘制 {source} 的图：{reason}。",
    ),
    "fig.reason.outside": ("the image points outside the folder", "图像指向文件夹之外"),
    "fig.reason.copy_failed": ("cannot copy the image ({reason})", "无法复制图像（{reason}）"),
    "fig.reason.worker_failed": ("the plotting process failed", "绘图进程出错"),
    "fig.reason.stopped": ("the plotting process stopped", "绘图进程停止了"),
    "fig.reason.draw_failed": (
        "the plotting code failed on this data",
        "绘图代码在处理这份数据时出错",
    ),
    "fig.reason.no_image": (
        "the plotting process left no usable image",
        "绘图进程没有生成可用的图像",
    ),
    "fig.reason.no_result": ("no result", "没有结果"),
    "fig.max": (
        "Only the first {max} figures are drawn; every dataset still has its table.",
        "只绘制了前 {max} 幅图；每个数据集仍有各自的表格。",
    ),
    "fig.no_provenance": (
        "The number {token} in the report has no provenance entry.",
        "报告中的数值 {token} 没有来源记录。",
    ),
    "tex.sanitized": ("{rule}: {detail}", "{rule}：{detail}"),
    # The number-tag gate (verify/tags.py) on model text.
    "tags.untagged.one": (
        "1 number is not traced to the data: {numbers}.",
        "1 个数字未追溯到数据：{numbers}。",
    ),
    "tags.untagged.many": (
        "{count} numbers are not traced to the data: {numbers}.",
        "{count} 个数字未追溯到数据：{numbers}。",
    ),
    "tags.retraced.one": (
        "1 number is traced again at a new precision.",
        "1 个数字以新的精度重新追溯。",
    ),
    "tags.retraced.many": (
        "{count} numbers are traced again at a new precision.",
        "{count} 个数字以新的精度重新追溯。",
    ),
}
