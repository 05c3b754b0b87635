//! The native dialogs' titles follow the window's language (issue 21: the
//! folder picker and "Save as…" said English in a 中文 window).
//!
//! The page sends the title in its own words, from its message catalogue
//! (`ui/src/i18n.ts`), rather than a language code the shell would map: the
//! interface text stays in one catalogue, the shell keeps no strings of its
//! own to translate, and a language added to the UI needs no Rust change.
//! The shell only makes the text fit to be a title and falls back to English
//! when nothing usable came (an older page, a broken header). GTK's own
//! buttons ("Cancel", "Open") follow the system's locale, not this.

/// The folder picker's title when the page sends none.
pub const PICK_FOLDER: &str = "Open a data folder";
/// The "Save as…" dialog's title when the page sends none.
pub const SAVE: &str = "Save the report";
/// The request header carrying the save dialog's title, percent-encoded
/// (`save_export`'s body is the export's bytes; a header value is ASCII only).
pub const TITLE_HEADER: &str = "x-labwright-title";
/// Longer than any catalogue title; a title bar shows no more anyway.
const MAX_CHARS: usize = 120;

/// The title to show: `asked` on one line (control characters become spaces,
/// runs of spaces one), at most MAX_CHARS characters; `fallback` when that
/// leaves nothing.
pub fn dialog_title(asked: Option<&str>, fallback: &str) -> String {
    let one_line: String = asked
        .unwrap_or_default()
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let title: String = one_line
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .chars()
        .take(MAX_CHARS)
        .collect();
    let title = title.trim_end();
    if title.is_empty() {
        fallback.to_string()
    } else {
        title.to_string()
    }
}

/// The save dialog's title from the request's header (percent-encoded UTF-8);
/// the English title when the header is missing or broken.
pub fn from_header(header: Option<&str>) -> String {
    let decoded = header.and_then(crate::export::percent_decode);
    dialog_title(decoded.as_deref(), SAVE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_s_title_is_used_as_it_is() {
        assert_eq!(
            dialog_title(Some("打开数据文件夹"), PICK_FOLDER),
            "打开数据文件夹"
        );
        assert_eq!(
            dialog_title(Some("Open a data folder"), PICK_FOLDER),
            "Open a data folder"
        );
    }

    #[test]
    fn nothing_usable_falls_back_to_english() {
        assert_eq!(dialog_title(None, PICK_FOLDER), PICK_FOLDER);
        assert_eq!(dialog_title(Some(""), SAVE), SAVE);
        assert_eq!(dialog_title(Some(" \n\t\u{7}"), SAVE), SAVE);
    }

    #[test]
    fn a_title_is_one_line_and_bounded() {
        assert_eq!(dialog_title(Some("  保存\n报告\r\n "), SAVE), "保存 报告");
        let long = "报".repeat(500);
        assert_eq!(dialog_title(Some(&long), SAVE).chars().count(), MAX_CHARS);
    }

    #[test]
    fn the_save_title_is_read_from_its_percent_encoded_header() {
        // encodeURIComponent("保存报告")
        let header = "%E4%BF%9D%E5%AD%98%E6%8A%A5%E5%91%8A";
        assert_eq!(from_header(Some(header)), "保存报告");
        assert_eq!(from_header(None), SAVE);
        // A broken escape or bytes that are not UTF-8: the English title.
        assert_eq!(from_header(Some("%E4%BF")), SAVE);
        assert_eq!(from_header(Some("%zz")), SAVE);
    }
}
