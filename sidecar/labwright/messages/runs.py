"""How a run starts, stops and ends (agent/run.py, the server's run manager)."""

ENTRIES: dict[str, tuple[str, str]] = {
    "plain": ("{text}", "{text}"),
    # -- the folder -----------------------------------------------------------------
    "folder.missing": (
        "The folder {folder} does not exist; check the path and try again.",
        "文件夹 {folder} 不存在；请检查路径后重试。",
    ),
    "folder.is_file": (
        "{folder} is a file, not a folder; give the folder that holds the data.",
        "{folder} 是一个文件而不是文件夹；请选择存放数据的文件夹。",
    ),
    "folder.unreadable": (
        "The folder {folder} cannot be read ({reason}); check its permissions.",
        "无法读取文件夹 {folder}（{reason}）；请检查它的访问权限。",
    ),
    "folder.empty": (
        "The folder {folder} is empty; put the data files in it and try again.",
        "文件夹 {folder} 是空的；请把数据文件放进去后重试。",
    ),
    "folder.output_inside": (
        "The output folder lies inside the data folder, which Labwright never writes to; "
        "choose another output folder.",
        "输出文件夹位于数据文件夹之内，而 Labwright 从不写入数据文件夹；请另选输出文件夹。",
    ),
    "folder.no_data": (
        "No readable data was found in the folder {folder}; add CSV, Excel, MATLAB, NumPy, "
        "JSON or image files and try again.",
        "文件夹 {folder} 中没有可读取的数据；请加入 CSV、Excel、MATLAB、NumPy、JSON "
        "或图像文件后重试。",
    ),
    "folder.only_file_unusable": (
        "The folder's only data file cannot be used: {reason}",
        "文件夹中唯一的数据文件无法使用：{reason}",
    ),
    "folder.no_file_usable": (
        "None of the folder's {count} data files can be used; the first: {reason}",
        "文件夹中的 {count} 个数据文件都无法使用；第一个：{reason}",
    ),
    "api.folder_missing": (
        "This folder does not exist; choose an existing folder.",
        "此文件夹不存在；请选择一个已有的文件夹。",
    ),
    "api.folder_relative": (
        "The folder path must be absolute; drop the folder onto the window.",
        "文件夹路径必须是绝对路径；请把文件夹拖到窗口上。",
    ),
    "api.folder_is_file": (
        "This path is a file, not a folder; choose the folder that holds it.",
        "此路径是文件而不是文件夹；请选择存放它的文件夹。",
    ),
    # -- actions ----------------------------------------------------------------------
    "action.add_data": ("Add data files to the folder.", "请向文件夹中加入数据文件。"),
    "action.give_data_folder": (
        "Give a folder that holds the experiment's data files.",
        "请选择存放实验数据文件的文件夹。",
    ),
    "action.fix_data_file": (
        "Fix or replace the file, then start the run again.",
        "请修复或替换该文件，然后重新开始。",
    ),
    "action.start_again": ("Start it again when ready.", "准备好后可重新开始。"),
    "action.doctor": ("Run `labwright doctor`.", "请运行 `labwright doctor` 检查。"),
    "action.open_log": ("Open main.log in the build folder.", "请打开构建文件夹中的 main.log。"),
    "action.open_version_log": (
        "Open the log of this version's build.",
        "请打开此版本构建的日志。",
    ),
    "action.restart_run": (
        "Start the run again; finished versions were kept.",
        "请重新开始运行；已完成的版本都已保留。",
    ),
    "action.settings": ("Check the model provider in Settings.", "请在“设置”中检查模型服务。"),
    # -- how a run ends -------------------------------------------------------------------
    "run.cancelled": (
        "The run was cancelled; what it had produced is kept.",
        "运行已取消；已生成的内容都已保留。",
    ),
    "run.interrupted": (
        "The run stopped because Labwright was closed or crashed while it was working.",
        "Labwright 在运行过程中被关闭或崩溃，运行已停止。",
    ),
    "run.shutting_down": (
        "The app is shutting down; start the run again.",
        "应用正在关闭；请稍后重新开始运行。",
    ),
    "run.stopped_because": (
        "The run stopped because {reason}; start it again.",
        "运行已停止，原因：{reason}；请重新开始。",
    ),
    "stop.window_closed": ("the Labwright window closed", "Labwright 窗口已关闭"),
    "stop.window_gone": ("the Labwright window went away", "Labwright 窗口已消失"),
    "stop.sidecar_stopped": ("the sidecar stopped", "后台服务已停止"),
    "run.crashed": (
        "The run failed because of an internal error; try again, and report it if it happens again.",
        "运行因内部错误而失败；请重试，如果再次发生请报告此问题。",
    ),
    "run.no_report": (
        "The run ended without a report; see the log above.",
        "运行结束但没有生成报告；请查看上方的日志。",
    ),
    "run.could_not_start": ("The run could not start; try again.", "运行无法开始；请重试。"),
    "run.event_unreadable": (
        "An event of this run ({type}) could not be read; update Labwright to see it.",
        "此次运行的一个事件（{type}）无法读取；请更新 Labwright 后查看。",
    ),
    "run.no_tex": (
        "No TeX engine was found, so only the .tex source was written; run `labwright doctor`.",
        "未找到 TeX 引擎，因此只写出了 .tex 源文件；请运行 `labwright doctor`。",
    ),
    "run.no_pdf": ("LaTeX did not produce a PDF.", "LaTeX 没有生成 PDF。"),
    "run.compile_status": ("The compile ended as {status}.", "编译结束状态：{status}。"),
    # -- log lines (steps) ---------------------------------------------------------------
    "step.scan": (
        "{files} files: {datasets} datasets, {images} images, {documents} documents, "
        "{skipped} not read",
        "{files} 个文件：{datasets} 个数据集、{images} 张图像、{documents} 份文档、{skipped} 个未读取",
    ),
    "step.scan_agent": (
        "{files} files, {datasets} datasets; writing in {lang}.",
        "{files} 个文件、{datasets} 个数据集；报告语言：{lang}。",
    ),
    "step.language": (
        "Report language: {lang} ({basis}).",
        "报告语言：{lang}（{basis}）。",
    ),
    "step.analyse": (
        "language {lang}; analyses: {analyses}; figures planned: {figures}; fits: {fits}",
        "语言 {lang}；分析：{analyses}；计划 {figures} 幅图、{fits} 次拟合",
    ),
    "step.numbers_recorded": (
        "{count} numbers recorded in {file}",
        "已在 {file} 中记录 {count} 个数值",
    ),
    "step.compile": (
        "typeset in {seconds} s, passes: {count} ({passes})",
        "编译 {count} 遍（{passes}），用时 {seconds} 秒",
    ),
    "step.compile_short": (
        "typeset in {seconds} s ({count} × XeLaTeX)",
        "编译 {count} 遍，用时 {seconds} 秒",
    ),
    "none": ("none", "无"),
    "lang.en": ("English", "英文"),
    "lang.zh": ("Chinese", "中文"),
    "lang.basis.chosen": ("chosen", "由用户选择"),
    "lang.basis.notes": ("from the notes", "根据笔记判断"),
    "lang.basis.names": ("from the file and column names", "根据文件名和列名判断"),
    "lang.basis.default": ("the default", "默认"),
}
