//! A size-rotated log file: `sidecar.log`, then `sidecar.log.1` .. `.N`.
//!
//! The sidecar's stdout (after the handshake) and stderr are drained into it
//! so a crash can be diagnosed; rotation keeps a chatty or looping sidecar
//! from filling the user's disk.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

pub struct RotatingLog {
    path: PathBuf,
    max_bytes: u64,
    keep: usize,
    file: File,
    written: u64,
}

impl RotatingLog {
    /// Open (append) `path`, creating its directory; rotate once it exceeds `max_bytes`.
    pub fn open(path: &Path, max_bytes: u64, keep: usize) -> io::Result<Self> {
        if let Some(dir) = path.parent() {
            fs::create_dir_all(dir)?;
        }
        let file = OpenOptions::new().create(true).append(true).open(path)?;
        let written = file.metadata()?.len();
        Ok(Self {
            path: path.to_path_buf(),
            max_bytes,
            keep: keep.max(1),
            file,
            written,
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    fn numbered(&self, n: usize) -> PathBuf {
        let mut name = self.path.as_os_str().to_owned();
        name.push(format!(".{n}"));
        PathBuf::from(name)
    }

    fn rotate(&mut self) -> io::Result<()> {
        self.file.flush()?;
        let _ = fs::remove_file(self.numbered(self.keep));
        for n in (1..self.keep).rev() {
            let from = self.numbered(n);
            if from.exists() {
                fs::rename(&from, self.numbered(n + 1))?;
            }
        }
        fs::rename(&self.path, self.numbered(1))?;
        self.file = OpenOptions::new()
            .create(true)
            .append(true)
            .truncate(false)
            .open(&self.path)?;
        self.written = 0;
        Ok(())
    }

    /// Append one line (a newline is added).
    pub fn line(&mut self, text: &str) -> io::Result<()> {
        if self.written > 0 && self.written + text.len() as u64 + 1 > self.max_bytes {
            self.rotate()?;
        }
        self.file.write_all(text.as_bytes())?;
        self.file.write_all(b"\n")?;
        self.file.flush()?;
        self.written += text.len() as u64 + 1;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("lw-rotlog-{tag}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn rotates_and_keeps_at_most_n_files() {
        let dir = temp_dir("rotate");
        let path = dir.join("logs").join("sidecar.log");
        let mut log = RotatingLog::open(&path, 100, 2).unwrap();
        for i in 0..40 {
            log.line(&format!("line number {i:04}")).unwrap();
        }
        assert!(path.exists());
        assert!(dir.join("logs/sidecar.log.1").exists());
        assert!(dir.join("logs/sidecar.log.2").exists());
        assert!(!dir.join("logs/sidecar.log.3").exists());
        for p in [path.clone(), dir.join("logs/sidecar.log.1")] {
            assert!(fs::metadata(&p).unwrap().len() <= 100);
        }
        let newest = fs::read_to_string(&path).unwrap();
        assert!(newest.ends_with("line number 0039\n"));
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn appends_across_reopen() {
        let dir = temp_dir("append");
        let path = dir.join("sidecar.log");
        RotatingLog::open(&path, 1000, 3)
            .unwrap()
            .line("first")
            .unwrap();
        RotatingLog::open(&path, 1000, 3)
            .unwrap()
            .line("second")
            .unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "first\nsecond\n");
        fs::remove_dir_all(&dir).unwrap();
    }
}
