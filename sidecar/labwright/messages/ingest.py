"""Scanning a folder and reading its files (ingest/).

`read.*` sentences name the file as {file}; the readers raise
`ReadError("read.<key>", **params)` and `read_file` adds the file.
"""

ENTRIES: dict[str, tuple[str, str]] = {
    # -- the scan (inventory warnings) -------------------------------------------------
    "scan.not_a_folder": (
        "{folder} is not a folder; choose a folder of experiment data.",
        "{folder} 不是文件夹；请选择存放实验数据的文件夹。",
    ),
    "scan.too_many_files": (
        "The folder has more than {max} files, so only the first {max} were listed; "
        "choose a folder that holds just this experiment.",
        "文件夹中的文件超过 {max} 个，只列出了前 {max} 个；请选择只包含本次实验的文件夹。",
    ),
    "scan.too_big_to_hash": (
        "The folder holds more than {gb} GB of files, so {count} file(s) were listed without a "
        "checksum; choose a folder that holds just this experiment.",
        "文件夹中的文件超过 {gb} GB，其中 {count} 个文件没有计算校验和；请选择只包含本次实验的文件夹。",
    ),
    "scan.too_deep": (
        "{count} folder(s) nested deeper than {max} levels were not opened; "
        "move the data closer to the top of the folder.",
        "{count} 个嵌套超过 {max} 层的文件夹没有打开；请把数据移到离顶层更近的位置。",
    ),
    "scan.linked_dirs": (
        "{count} linked folder(s) were not followed ({names}); "
        "copy the data in if it belongs to the report.",
        "没有跟随 {count} 个链接文件夹（{names}）；如果其中的数据属于本报告，请把它复制进来。",
    ),
    "scan.unreadable": (
        "{count} item(s) could not be opened ({names}); check their permissions.",
        "{count} 个项目无法打开（{names}）；请检查它们的访问权限。",
    ),
    # -- reading one file ---------------------------------------------------------------
    "read.empty": ("{file} is empty.", "{file} 是空文件。"),
    "read.empty_data": (
        "{file} is empty (0 bytes), so it holds no measurements.",
        "{file} 是空文件（0 字节），其中没有测量数据。",
    ),
    "read.permission": (
        "{file} could not be opened because permission was denied.",
        "无法打开 {file}：没有访问权限。",
    ),
    "read.memory": (
        "{file} is too large to read into memory.",
        "{file} 太大，无法读入内存。",
    ),
    "read.reader_failed": ("{file} could not be read as {what}.", "无法把 {file} 当作{what}读取。"),
    "read.outside_link": (
        "{file} links to a place outside the folder, so it was not read.",
        "{file} 链接到文件夹之外的位置，因此没有读取。",
    ),
    "read.gone": (
        "{file} is no longer a file inside the folder, so it was not read.",
        "{file} 已不再是文件夹中的文件，因此没有读取。",
    ),
    "read.unsupported": (
        "{file} is a {suffix} file, a type that is not read.",
        "{file} 是 {suffix} 文件，这种类型不会被读取。",
    ),
    "read.no_extension": (
        "{file} is a file without an extension, a type that is not read.",
        "{file} 没有扩展名，这种类型不会被读取。",
    ),
    "read.xls": (
        "{file} is an old-style Excel .xls workbook, which is not read; save it as .xlsx.",
        "{file} 是旧版 Excel .xls 工作簿，不会被读取；请另存为 .xlsx。",
    ),
    "read.docx": (
        "{file} is a Word document, which is not read; save it as PDF or plain text.",
        "{file} 是 Word 文档，不会被读取；请另存为 PDF 或纯文本。",
    ),
    "read.vector_image": (
        "{file} is a vector image, which is not read; export it as PNG.",
        "{file} 是矢量图，不会被读取；请导出为 PNG。",
    ),
    "read.other": ("{file} {reason}.", "{file}：{reason}。"),
    # text and tables
    "read.binary": (
        "{file} is not a text file (its bytes look binary).",
        "{file} 不是文本文件（内容看起来是二进制）。",
    ),
    "read.no_table": ("{file} has no table.", "{file} 中没有表格。"),
    "read.no_rows": ("{file} has no rows.", "{file} 中没有数据行。"),
    "read.no_number_rows": ("{file} has no rows of numbers.", "{file} 中没有数值行。"),
    "read.open_quote": (
        "{file} could not be parsed as a table (a quotation mark may be left open).",
        "{file} 无法解析为表格（可能有未闭合的引号）。",
    ),
    "read.no_data_rows": ("{file} has no rows of data.", "{file} 中没有数据行。"),
    "read.no_numeric_columns": ("{file} has no numeric columns.", "{file} 中没有数值列。"),
    # JSON
    "read.json_too_large": (
        "{file} is larger than 64 MB, too large to read as JSON.",
        "{file} 超过 64 MB，太大，无法作为 JSON 读取。",
    ),
    "read.json_invalid": (
        "{file} is not valid JSON (it may be damaged or truncated).",
        "{file} 不是有效的 JSON（可能已损坏或不完整）。",
    ),
    "read.json_no_numbers": (
        "{file} holds no records, columns or arrays of numbers.",
        "{file} 中没有记录、列或数值数组。",
    ),
    # PDF
    "read.not_pdf": ("{file} is not a PDF file.", "{file} 不是 PDF 文件。"),
    "read.pdf_password": ("{file} is password-protected.", "{file} 受密码保护。"),
    "read.pdf_aes": (
        "{file} is AES-encrypted, which this build cannot decrypt: print it to a new PDF and add that.",
        "{file} 使用 AES 加密，当前版本无法解密：请把它打印为新的 PDF 后再加入。",
    ),
    "read.pdf_damaged": (
        "{file} could not be read as a PDF (it may be damaged or truncated).",
        "{file} 无法作为 PDF 读取（可能已损坏或不完整）。",
    ),
    "read.pdf_no_text": (
        "{file} has no extractable text (it may be a scanned image).",
        "{file} 中没有可提取的文字（可能是扫描图像）。",
    ),
    # Excel
    "read.excel_invalid": (
        "{file} is not a valid Excel workbook (it may be damaged or truncated).",
        "{file} 不是有效的 Excel 工作簿（可能已损坏或不完整）。",
    ),
    "read.excel_unopened": (
        "{file} could not be opened as an Excel workbook (it may be damaged or truncated).",
        "{file} 无法作为 Excel 工作簿打开（可能已损坏或不完整）。",
    ),
    "read.sheet_no_numbers": (
        "Sheet {sheet} of {file} has no table of numbers.",
        "{file} 的工作表 {sheet} 中没有数值表格。",
    ),
    # images
    "read.image_stopped": (
        "{file} could not be read as an image (the image decoder stopped on it).",
        "{file} 无法作为图像读取（图像解码器在处理它时停止了）。",
    ),
    "read.not_inside": ("{file} is not inside the data folder.", "{file} 不在数据文件夹内。"),
    "read.image_bomb": (
        "{file} has too many pixels to open safely (over the decompression-bomb limit).",
        "{file} 的像素太多，无法安全打开（超过解压炸弹限制）。",
    ),
    "read.image_unknown": (
        "{file} is not an image format that can be read.",
        "{file} 不是可读取的图像格式。",
    ),
    "read.image_damaged": (
        "{file} could not be read as an image (it may be damaged or truncated).",
        "{file} 无法作为图像读取（可能已损坏或不完整）。",
    ),
    # MATLAB figures
    "read.fig_hdf5": (
        "{file} is a figure saved in the HDF5 format, whose plotted data cannot be read yet.",
        "{file} 是以 HDF5 格式保存的图，暂时无法读取其中绘制的数据。",
    ),
    "read.fig_damaged": (
        "{file} could not be read as a MATLAB figure (it may be damaged or truncated).",
        "{file} 无法作为 MATLAB 图读取（可能已损坏或不完整）。",
    ),
    "read.fig_no_tree": (
        "{file} holds no figure tree this reader understands (no hgS_070000 variable).",
        "{file} 中没有可识别的图结构（缺少 hgS_070000 变量）。",
    ),
    "read.fig_empty": (
        "{file} is a figure with no plotted lines or images to extract.",
        "{file} 是一幅没有可提取的曲线或图像的图。",
    ),
    # NumPy
    "read.npy_objects": (
        "{file} holds Python objects, which are never loaded because loading them can run code.",
        "{file} 中含有 Python 对象；加载它们可能执行代码，因此从不加载。",
    ),
    "read.npy_invalid": (
        "{file} is not a valid NumPy .npy file.",
        "{file} 不是有效的 NumPy .npy 文件。",
    ),
    "read.npy_damaged": (
        "{file} is not a valid NumPy .npy file (it may be damaged or truncated).",
        "{file} 不是有效的 NumPy .npy 文件（可能已损坏或不完整）。",
    ),
    "read.npy_dtype": (
        "{file} holds {dtype} values, not numbers.",
        "{file} 中是 {dtype} 类型的值，不是数值。",
    ),
    "read.npy_no_array": ("{file} holds no array of numbers.", "{file} 中没有数值数组。"),
    "read.npz_damaged": (
        "{file} is not a valid NumPy .npz archive (it may be damaged or truncated).",
        "{file} 不是有效的 NumPy .npz 压缩包（可能已损坏或不完整）。",
    ),
    "read.npz_no_arrays": ("{file} holds no arrays of numbers.", "{file} 中没有数值数组。"),
    "read.array_too_large": (
        "Array {name} in {file} is larger than 512 MB and was not read.",
        "{file} 中的数组 {name} 超过 512 MB，没有读取。",
    ),
    "read.array_objects": (
        "Array {name} in {file} holds Python objects, which are never loaded because loading "
        "them can run code.",
        "{file} 中的数组 {name} 含有 Python 对象；加载它们可能执行代码，因此从不加载。",
    ),
    # MATLAB and HDF5 data
    "read.mat_invalid": (
        "{file} is not a MATLAB data file (it may be damaged, truncated or empty).",
        "{file} 不是 MATLAB 数据文件（可能已损坏、不完整或为空）。",
    ),
    "read.mat_variant": (
        "{file} uses a MATLAB format variant that cannot be read.",
        "{file} 使用了无法读取的 MATLAB 格式变体。",
    ),
    "read.mat_damaged": (
        "{file} could not be read as a MATLAB data file (it may be damaged or truncated).",
        "{file} 无法作为 MATLAB 数据文件读取（可能已损坏或不完整）。",
    ),
    "read.mat73_damaged": (
        "{file} could not be read as a MATLAB v7.3 (HDF5) file (it may be damaged or truncated).",
        "{file} 无法作为 MATLAB v7.3（HDF5）文件读取（可能已损坏或不完整）。",
    ),
    "read.mat_too_large": (
        "{file} is larger than 512 MB, too large to read.",
        "{file} 超过 512 MB，太大，无法读取。",
    ),
    "read.mat_no_variables": ("{file} holds no variables.", "{file} 中没有变量。"),
    "read.no_numeric_arrays": ("{file} holds no numeric arrays.", "{file} 中没有数值数组。"),
    "read.hdf5_damaged": (
        "{file} could not be read as an HDF5 file (it may be damaged or truncated).",
        "{file} 无法作为 HDF5 文件读取（可能已损坏或不完整）。",
    ),
    "read.too_many_variables": (
        "{file} holds more than {max} variables; the rest were not read.",
        "{file} 中的变量超过 {max} 个；其余的没有读取。",
    ),
    "read.variable_ndim": (
        "Variable {name} in {file} is a {ndim}-D array, which the report cannot show.",
        "{file} 中的变量 {name} 是 {ndim} 维数组，报告无法展示。",
    ),
    "read.variable_deep": (
        "Variable {name} in {file} is nested too deeply to read.",
        "{file} 中的变量 {name} 嵌套太深，无法读取。",
    ),
    "read.variable_complex": (
        "Variable {name} in {file} holds complex numbers, which the report cannot plot yet.",
        "{file} 中的变量 {name} 是复数，报告暂时无法绘制。",
    ),
    "read.variable_type": (
        "Variable {name} in {file} has a type ({type}) that is not read.",
        "{file} 中的变量 {name} 的类型（{type}）不会被读取。",
    ),
    # what a reader reads, for read.reader_failed
    "what.csv": ("a CSV table", "CSV 表格"),
    "what.tsv": ("a TSV table", "TSV 表格"),
    "what.text": ("a text file", "文本文件"),
    "what.text_data": ("a text data file", "文本数据文件"),
    "what.delimited": ("a delimited data table", "分隔符数据表"),
    "what.markdown": ("a Markdown document", "Markdown 文档"),
    "what.document": ("a text document", "文本文档"),
    "what.names": ("a data description", "数据说明"),
    "what.latex": ("a LaTeX document", "LaTeX 文档"),
    "what.bibtex": ("a BibTeX file", "BibTeX 文件"),
    "what.excel": ("an Excel workbook", "Excel 工作簿"),
    "what.json": ("JSON", "JSON"),
    "what.npy": ("a NumPy array", "NumPy 数组"),
    "what.npz": ("a NumPy archive", "NumPy 压缩包"),
    "what.mat": ("a MATLAB data file", "MATLAB 数据文件"),
    "what.fig": ("a MATLAB figure", "MATLAB 图"),
    "what.hdf5": ("an HDF5 file", "HDF5 文件"),
    "what.pdf": ("a PDF", "PDF"),
    "what.image": ("an image", "图像"),
    "what.word": ("a Word document", "Word 文档"),
}
