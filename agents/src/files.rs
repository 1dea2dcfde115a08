//! Reading the files named in agent specs and options with a size bound, so that an endless
//! file such as `/dev/zero` (or a huge one named by mistake) is refused at once instead of
//! read into memory without end; and writing a file whole or not at all.

use std::io::{self, Read as _, Write as _};
use std::path::Path;

/// The most bytes the program reads from a weights or specs file: 64 MiB, far above any
/// file it writes (the shipped weights are under 1 MiB).
pub const MAX_FILE_BYTES: u64 = 64 << 20;

/// Reads at most `limit` bytes of `path`.
///
/// # Errors
/// The I/O error; a file longer than `limit` is refused with an [`io::ErrorKind::InvalidData`]
/// error saying so (and nothing more is read).
pub fn read_bounded(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    refuse_pipe(path)?;
    let file = std::fs::File::open(path)?;
    let mut bytes = Vec::new();
    file.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(too_long(limit));
    }
    Ok(bytes)
}

/// [`read_bounded`] as UTF-8 text.
///
/// # Errors
/// As [`read_bounded`], and [`io::ErrorKind::InvalidData`] for text that is not UTF-8.
pub fn read_to_string_bounded(path: &Path, limit: u64) -> io::Result<String> {
    String::from_utf8(read_bounded(path, limit)?)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "the file is not UTF-8 text"))
}

/// The first parameter of `spec` that names a file to read (an `eval` or `tablebase` value
/// that is not one of their keywords), as `(key, value)`. A server reachable over HTTP
/// refuses such specs, so that its answers say nothing of the files on the machine.
pub fn file_parameter(spec: &crate::AgentSpec) -> Option<(&str, &str)> {
    spec.params()
        .iter()
        .find(|(k, v)| match k.as_str() {
            "eval" => !["learned", "hand"].contains(&v.as_str()),
            "tablebase" => !["auto", "off", "cache", "build"].contains(&v.as_str()),
            _ => false,
        })
        .map(|(k, v)| (k.as_str(), v.as_str()))
}

/// Whether `spec` asks for a tablebase built in memory at first use (`tablebase=build`,
/// about 30 s of work that no time limit or stop interrupts).
pub fn builds_tablebase(spec: &crate::AgentSpec) -> bool {
    spec.params()
        .iter()
        .any(|(k, v)| k == "tablebase" && v == "build")
}

/// Refuses a named pipe or a socket: opening a pipe waits for a writer, for ever if none
/// comes (a search's time limit or `cancel` cannot stop a thread blocked there).
///
/// # Errors
/// [`io::ErrorKind::InvalidInput`] for a pipe or socket; the I/O error of reading the
/// path's metadata (a missing file, say).
pub(crate) fn refuse_pipe(path: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt as _;
        let kind = std::fs::metadata(path)?.file_type();
        if kind.is_fifo() || kind.is_socket() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "a named pipe or socket, not a file (reading it would wait for a writer)",
            ));
        }
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

fn too_long(limit: u64) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!(
            "the file is longer than {} (not a file this program reads)",
            if limit >= 1 << 20 {
                format!("{} MiB", limit >> 20)
            } else {
                format!("{limit} bytes")
            }
        ),
    )
}

/// Writes `bytes` to `path` atomically: to `PATH.tmp`, synced, then renamed over `path`; when
/// any step fails (a full disk, say), `PATH.tmp` is removed, so no partial file is left.
///
/// # Errors
/// The I/O error.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = std::path::PathBuf::from(tmp);
    let written = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_endless_file_is_refused() {
        let e = read_bounded(Path::new("/dev/zero"), 1000).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidData);
        assert!(e.to_string().contains("longer than 1000 bytes"), "{e}");
    }

    /// Before, opening the pipe waited for a writer for ever.
    #[cfg(unix)]
    #[test]
    fn a_named_pipe_is_refused_without_waiting_for_a_writer() {
        let dir = std::env::temp_dir().join(format!("stickdice-files-fifo-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("weights.sdw");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .expect("mkfifo (coreutils)");
        assert!(made.success());
        let e = read_bounded(&fifo, 1000).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
        assert!(e.to_string().contains("named pipe"), "{e}");
        // A tablebase file is read alike.
        let e = crate::solve::tablebase::Tablebase::load(&fifo).unwrap_err();
        assert!(e.to_string().contains("named pipe"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
