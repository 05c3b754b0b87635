//! The native dialogs' texts follow the window's language (issue 21: the
//! folder picker and "Save as…" said English in a 中文 window).
//!
//! The page sends each text in its own words, from its message catalogue
//! (`ui/src/i18n.ts`), rather than a language code the shell would map: the
//! interface text stays in one catalogue, the shell keeps no strings of its
//! own to translate, and a language added to the UI needs no Rust change.
//! The shell only makes the text fit for a title bar or a menu and falls
//! back to English when nothing usable came (an older page, a broken
//! header). GTK's own buttons ("Cancel", "Save") follow the system's locale,
//! not this.

/// The folder picker's title when the page sends none.
pub const PICK_FOLDER_TITLE: &str = "Open a data folder";
/// The "Save as…" dialog's title when the page sends none.
pub const SAVE_TITLE: &str = "Save the report";
/// The request header carrying the save dialog's title, percent-encoded
/// (`save_export`'s body is the export's bytes; a header value is ASCII only).
pub const TITLE_HEADER: &str = "x-labwright-title";
/// The request header carrying the label of the save dialog's file type
/// ("PDF 文档"), percent-encoded; the English label is export.rs's.
pub const FILE_TYPE_HEADER: &str = "x-labwright-file-type";
/// Longer than any catalogue text; a title bar or a menu shows no more anyway.
const MAX_CHARS: usize = 120;

/// The text to show: `asked` on one line (control characters become spaces,
/// runs of spaces one), at most MAX_CHARS characters; `fallback` when that
/// leaves nothing.
pub fn one_line(asked: Option<&str>, fallback: &str) -> String {
    let spaced: String = asked
        .unwrap_or_default()
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let text: String = spaced
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .chars()
        .take(MAX_CHARS)
        .collect();
    let text = text.trim_end();
    if text.is_empty() {
        fallback.to_string()
    } else {
        text.to_string()
    }
}

/// A text from a request header (percent-encoded UTF-8); `fallback` when the
/// header is missing or broken.
pub fn from_header(header: Option<&str>, fallback: &str) -> String {
    let decoded = header.and_then(crate::export::percent_decode);
    one_line(decoded.as_deref(), fallback)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_s_text_is_used_as_it_is() {
        assert_eq!(
            one_line(Some("打开数据文件夹"), PICK_FOLDER_TITLE),
            "打开数据文件夹"
        );
        assert_eq!(
            one_line(Some("Open a data folder"), PICK_FOLDER_TITLE),
            "Open a data folder"
        );
    }

    #[test]
    fn nothing_usable_falls_back_to_english() {
        assert_eq!(one_line(None, PICK_FOLDER_TITLE), PICK_FOLDER_TITLE);
        assert_eq!(one_line(Some(""), SAVE_TITLE), SAVE_TITLE);
        assert_eq!(one_line(Some(" \n\t\u{7}"), SAVE_TITLE), SAVE_TITLE);
    }

    #[test]
    fn a_text_is_one_line_and_bounded() {
        assert_eq!(one_line(Some("  保存\n报告\r\n "), SAVE_TITLE), "保存 报告");
        let long = "报".repeat(500);
        assert_eq!(one_line(Some(&long), SAVE_TITLE).chars().count(), MAX_CHARS);
    }

    #[test]
    fn a_text_is_read_from_its_percent_encoded_header() {
        // encodeURIComponent("保存报告"), encodeURIComponent("PDF 文档")
        let title = "%E4%BF%9D%E5%AD%98%E6%8A%A5%E5%91%8A";
        assert_eq!(from_header(Some(title), SAVE_TITLE), "保存报告");
        assert_eq!(
            from_header(Some("PDF%20%E6%96%87%E6%A1%A3"), "PDF document"),
            "PDF 文档"
        );
        assert_eq!(from_header(None, SAVE_TITLE), SAVE_TITLE);
        // A broken escape or bytes that are not UTF-8: the English text.
        assert_eq!(from_header(Some("%E4%BF"), SAVE_TITLE), SAVE_TITLE);
        assert_eq!(from_header(Some("%zz"), "Zip archive"), "Zip archive");
    }
}
