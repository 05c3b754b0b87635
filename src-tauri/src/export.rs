//! Saving an export where the person chooses (issue 21: in the desktop app a
//! download went, silently, into a folder that depended on the working
//! directory the app was started from).
//!
//! The page sends the export's bytes and the name it suggests (built from the
//! report's title, `ui/src/state/exportName.ts`); the shell asks with the
//! native "Save as…" dialog and writes the file. The page never names a path:
//! it can only write where the person has just chosen, so the capability is
//! one command, not file-system access. This module is the pure part (names,
//! the starting folder, the write and how a failure is told); lib.rs only
//! shows the dialog.

use serde::Serialize;
use std::ffi::OsString;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The request header carrying the suggested name, percent-encoded (an HTTP
/// header value is ASCII only; a Chinese title is not).
pub const NAME_HEADER: &str = "x-labwright-name";
/// The name used when the page sends none that is usable.
const FALLBACK: &str = "report";

/// What the UI is told (docs/window-contract.md, "Exports").
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "outcome", rename_all = "lowercase")]
pub enum SaveOutcome {
    /// Written; `name` is the file's name as saved (the UI says it).
    Saved { path: String, name: String },
    /// The person closed the dialog: nothing was written, nothing to say.
    Cancelled,
    /// The dialog was answered but the file could not be written.
    Failed { reason: FailReason, name: String },
}

/// Why a write failed, as far as the person can act on it (the UI has one
/// sentence for each; the OS's own error text goes to the log).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FailReason {
    /// No permission, or a read-only file system: choose another folder.
    Denied,
    /// The disk (or the quota) is full: free space or choose another disk.
    Full,
    /// Anything else.
    Other,
}

/// Decodes `%XX` escapes (as `encodeURIComponent` writes them) into UTF-8;
/// None for a broken escape or bytes that are not UTF-8.
pub fn percent_decode(text: &str) -> Option<String> {
    let raw = text.as_bytes();
    let mut out = Vec::with_capacity(raw.len());
    let mut i = 0;
    while i < raw.len() {
        if raw[i] == b'%' {
            let hex = std::str::from_utf8(raw.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(raw[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// The file name to suggest: the page's name, decoded, as one file name only
/// (the page cannot steer the dialog into another folder with `../` or
/// `/etc/…`), without control characters or characters some file system
/// refuses; "report" when nothing usable is left. The UI already makes names
/// safe; the shell does not rely on it.
pub fn suggested_name(header: Option<&str>) -> String {
    let decoded = header.and_then(percent_decode).unwrap_or_default();
    let last = decoded.rsplit(['/', '\\']).next().unwrap_or_default();
    let cleaned: String = last
        .chars()
        .map(|c| {
            if c.is_control() || "<>:\"|?*".contains(c) {
                ' '
            } else {
                c
            }
        })
        .collect();
    let spaced = cleaned.split_whitespace().collect::<Vec<_>>().join(" ");
    let trimmed = spaced.trim_end_matches(['.', ' ']);
    if trimmed.is_empty() || trimmed.chars().all(|c| c == '.') {
        FALLBACK.to_string()
    } else {
        trimmed.to_string()
    }
}

/// The dialog's file type filter for a name: its English label (the page
/// sends the label in the window's language, dialog_text.rs) and extension.
pub fn filter_for(name: &str) -> Option<(&'static str, &'static str)> {
    match Path::new(name)
        .extension()?
        .to_str()?
        .to_ascii_lowercase()
        .as_str()
    {
        "pdf" => Some(("PDF document", "pdf")),
        "zip" => Some(("Zip archive", "zip")),
        _ => None,
    }
}

/// The path to write: what the person chose, with the export's extension
/// added when the name they typed has none ("Pendulum" → "Pendulum.pdf"; GTK
/// does not add it). A name with an extension of its own is kept as typed.
/// If adding the extension would land on a file that already exists, the
/// name is kept as chosen: the dialog asked about overwriting the chosen
/// name, not that other file, so it is never replaced silently.
pub fn with_extension(chosen: PathBuf, ext: &str) -> PathBuf {
    if chosen.extension().is_some() || chosen.file_name().is_none() {
        return chosen;
    }
    let mut name: OsString = chosen.file_name().unwrap_or_default().to_owned();
    name.push(".");
    name.push(ext);
    let extended = chosen.with_file_name(name);
    if extended.exists() {
        chosen
    } else {
        extended
    }
}

/// Where the dialog opens: the folder of the last export saved in this
/// launch, else the Documents folder, else the home folder; the first that
/// exists. Never the working directory (which is where downloads went before).
pub fn start_dir(candidates: &[Option<PathBuf>]) -> Option<PathBuf> {
    candidates.iter().flatten().find(|d| d.is_dir()).cloned()
}

/// Writes `bytes` to `path` whole or not at all: into a temporary file beside
/// it, flushed to disk, then renamed over the target. A failed write leaves
/// neither a half-written export nor the temporary file behind, and an
/// existing file (whose overwrite the dialog confirmed) is replaced only by
/// the complete new one.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "no file name"))?;
    let mut part = OsString::from(".");
    part.push(name);
    part.push(".labwright-part");
    let temp = path.with_file_name(part);
    let written = (|| {
        let mut file = std::fs::File::create(&temp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        drop(file);
        std::fs::rename(&temp, path)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    written
}

/// What the person can do about a failed write.
pub fn reason(err: &io::Error) -> FailReason {
    // Raw codes: ErrorKind::StorageFull and ReadOnlyFilesystem need a newer
    // Rust than the crate's rust-version.
    #[cfg(unix)]
    const FULL: &[i32] = &[28 /* ENOSPC */, 122 /* EDQUOT (Linux) */];
    #[cfg(unix)]
    const READ_ONLY: &[i32] = &[30 /* EROFS */];
    #[cfg(windows)]
    const FULL: &[i32] = &[
        39,  /* ERROR_HANDLE_DISK_FULL */
        112, /* ERROR_DISK_FULL */
    ];
    #[cfg(windows)]
    const READ_ONLY: &[i32] = &[19 /* ERROR_WRITE_PROTECT */];
    #[cfg(not(any(unix, windows)))]
    const FULL: &[i32] = &[];
    #[cfg(not(any(unix, windows)))]
    const READ_ONLY: &[i32] = &[];
    let code = err.raw_os_error();
    if code.is_some_and(|c| FULL.contains(&c)) {
        FailReason::Full
    } else if err.kind() == io::ErrorKind::PermissionDenied
        || code.is_some_and(|c| READ_ONLY.contains(&c))
    {
        FailReason::Denied
    } else {
        FailReason::Other
    }
}

/// Writes the chosen file and says how it went.
pub fn save_to(path: &Path, bytes: &[u8]) -> (SaveOutcome, Option<io::Error>) {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    match write_atomically(path, bytes) {
        Ok(()) => (
            SaveOutcome::Saved {
                path: path.display().to_string(),
                name,
            },
            None,
        ),
        Err(e) => (
            SaveOutcome::Failed {
                reason: reason(&e),
                name,
            },
            Some(e),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A fresh folder under the system's temp dir (no tempfile crate).
    fn scratch(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "labwright-export-{tag}-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn decodes_what_encode_uri_component_writes() {
        assert_eq!(
            percent_decode("%E6%A4%8D%E7%89%A9%20(v1).pdf").as_deref(),
            Some("植物 (v1).pdf")
        );
        assert_eq!(percent_decode("plain.zip").as_deref(), Some("plain.zip"));
        assert_eq!(percent_decode("bad%2"), None);
        assert_eq!(percent_decode("bad%zz"), None);
        assert_eq!(percent_decode("%FF"), None, "not UTF-8");
    }

    #[test]
    fn suggests_one_safe_file_name() {
        assert_eq!(
            suggested_name(Some("Pendulum%20g%20(v3).pdf")),
            "Pendulum g (v3).pdf"
        );
        // The page cannot point the dialog at another folder.
        assert_eq!(suggested_name(Some("..%2F..%2Fetc%2Fpasswd")), "passwd");
        assert_eq!(suggested_name(Some("a%5Cb%5Cc.pdf")), "c.pdf");
        assert_eq!(
            suggested_name(Some("x%3Cy%3E%22%7C%3F*%0A.pdf")),
            "x y .pdf"
        );
        for nothing in [
            None,
            Some(""),
            Some("%20."),
            Some(".."),
            Some("a%2F"),
            Some("%zz"),
        ] {
            assert_eq!(suggested_name(nothing), "report", "{nothing:?}");
        }
    }

    #[test]
    fn filters_by_the_export_kind() {
        assert_eq!(filter_for("a (v1).pdf"), Some(("PDF document", "pdf")));
        assert_eq!(
            filter_for("a (v1) analysis.ZIP"),
            Some(("Zip archive", "zip"))
        );
        assert_eq!(filter_for("report"), None);
        assert_eq!(filter_for("notes.txt"), None);
    }

    #[test]
    fn adds_the_extension_only_to_a_bare_name_and_never_over_another_file() {
        let dir = scratch("ext");
        assert_eq!(
            with_extension(dir.join("Pendulum"), "pdf"),
            dir.join("Pendulum.pdf")
        );
        assert_eq!(with_extension(dir.join("a.PDF"), "pdf"), dir.join("a.PDF"));
        assert_eq!(with_extension(dir.join("a.v2"), "pdf"), dir.join("a.v2"));
        std::fs::write(dir.join("taken.pdf"), b"old").unwrap();
        assert_eq!(with_extension(dir.join("taken"), "pdf"), dir.join("taken"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn opens_in_the_first_folder_that_exists() {
        let dir = scratch("start");
        let missing = dir.join("missing");
        assert_eq!(
            start_dir(&[None, Some(missing.clone()), Some(dir.clone())]),
            Some(dir.clone())
        );
        assert_eq!(start_dir(&[Some(missing), None]), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn writes_the_whole_file_and_replaces_an_existing_one() {
        let dir = scratch("write");
        let target = dir.join("植物 (v1).pdf");
        std::fs::write(&target, b"old").unwrap();
        let (outcome, err) = save_to(&target, b"%PDF-1.5 new");
        assert!(err.is_none());
        assert_eq!(
            outcome,
            SaveOutcome::Saved {
                path: target.display().to_string(),
                name: "植物 (v1).pdf".into()
            }
        );
        assert_eq!(std::fs::read(&target).unwrap(), b"%PDF-1.5 new");
        let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert_eq!(left.len(), 1, "no temporary file is left");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_failed_write_says_why_and_leaves_nothing() {
        let dir = scratch("fail");
        // A "folder" that is a file: the write cannot happen (root or not).
        std::fs::write(dir.join("file"), b"x").unwrap();
        let (outcome, err) = save_to(&dir.join("file").join("a.pdf"), b"data");
        assert!(err.is_some());
        assert_eq!(
            outcome,
            SaveOutcome::Failed {
                reason: FailReason::Other,
                name: "a.pdf".into()
            }
        );
        let (_, err) = save_to(&dir.join("gone").join("a.pdf"), b"data");
        assert!(err.is_some());
        let names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .map(|e| e.file_name())
            .collect();
        assert_eq!(names, vec![OsString::from("file")]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn tells_a_full_disk_from_a_refusal() {
        assert_eq!(
            reason(&io::Error::from(io::ErrorKind::PermissionDenied)),
            FailReason::Denied
        );
        assert_eq!(
            reason(&io::Error::from(io::ErrorKind::NotFound)),
            FailReason::Other
        );
        #[cfg(unix)]
        {
            assert_eq!(reason(&io::Error::from_raw_os_error(28)), FailReason::Full);
            assert_eq!(
                reason(&io::Error::from_raw_os_error(30)),
                FailReason::Denied
            );
            assert_eq!(
                reason(&io::Error::from_raw_os_error(13)),
                FailReason::Denied
            );
        }
    }

    #[test]
    fn serializes_as_the_contract_says() {
        assert_eq!(
            serde_json::to_value(SaveOutcome::Cancelled).unwrap(),
            json!({"outcome": "cancelled"})
        );
        assert_eq!(
            serde_json::to_value(SaveOutcome::Failed {
                reason: FailReason::Full,
                name: "a.pdf".into()
            })
            .unwrap(),
            json!({"outcome": "failed", "reason": "full", "name": "a.pdf"})
        );
        assert_eq!(
            serde_json::to_value(SaveOutcome::Saved {
                path: "/d/a.pdf".into(),
                name: "a.pdf".into()
            })
            .unwrap(),
            json!({"outcome": "saved", "path": "/d/a.pdf", "name": "a.pdf"})
        );
    }
}
