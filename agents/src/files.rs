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
    let file = open_regular(path)?;
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

/// Opens `path` for reading if it is a regular file (a symbolic link is followed), and
/// refuses anything else without reading from it: a named pipe or socket (opening one waits
/// for a writer), a device (`/dev/zero` never ends, a read of `/dev/ptmx` waits for ever;
/// a search's time limit, `cancel` or Ctrl-C cannot stop a thread blocked there), a folder.
/// The type is checked before opening, from the metadata, and again on the opened file
/// (opened without waiting, `O_NONBLOCK`), so a file swapped for a device in between is
/// refused too.
///
/// # Errors
/// [`io::ErrorKind::InvalidInput`] for anything but a regular file, saying what it is; the
/// I/O error of reading the metadata (a missing file, say) or of opening the file.
pub fn open_regular(path: &Path) -> io::Result<std::fs::File> {
    check_regular(&std::fs::metadata(path)?.file_type())?;
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        // O_NONBLOCK: opening a pipe or a device put here since the check does not wait.
        // On a regular file it changes nothing.
        options.custom_flags(o_nonblock());
    }
    let file = options.open(path)?;
    check_regular(&file.metadata()?.file_type())?;
    Ok(file)
}

/// The `O_NONBLOCK` flag of `open(2)` (Linux and Android 0o4000; macOS and the BSDs 4).
#[cfg(unix)]
const fn o_nonblock() -> i32 {
    if cfg!(any(target_os = "linux", target_os = "android")) {
        0o4000
    } else {
        0x0004
    }
}

/// Refuses anything but a regular file, naming what it is.
fn check_regular(kind: &std::fs::FileType) -> io::Result<()> {
    if kind.is_file() {
        return Ok(());
    }
    let what = {
        #[cfg(unix)]
        {
            use std::os::unix::fs::FileTypeExt as _;
            if kind.is_fifo() || kind.is_socket() {
                "a named pipe or socket, not a regular file (reading it would wait for a writer)"
            } else if kind.is_char_device() || kind.is_block_device() {
                "a device, not a regular file (only regular files are read as weights, tablebases, logs or specs)"
            } else if kind.is_dir() {
                "a folder, not a regular file"
            } else {
                "not a regular file"
            }
        }
        #[cfg(not(unix))]
        {
            if kind.is_dir() {
                "a folder, not a regular file"
            } else {
                "not a regular file"
            }
        }
    };
    Err(io::Error::new(io::ErrorKind::InvalidInput, what))
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
    fn a_file_longer_than_the_bound_is_refused() {
        let dir = std::env::temp_dir().join(format!("stickdice-files-long-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let long = dir.join("long.sdw");
        std::fs::write(&long, vec![0u8; 1001]).unwrap();
        let e = read_bounded(&long, 1000).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidData);
        assert!(e.to_string().contains("longer than 1000 bytes"), "{e}");
        assert_eq!(read_bounded(&long, 1001).unwrap().len(), 1001);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Issue 39: a character device named as a weights or tablebase file was opened and
    /// read: `/dev/zero` read to the bound, `/dev/null` read as an empty file, and
    /// `/dev/ptmx` blocked the reader for good (no time limit, `cancel` or Ctrl-C could
    /// stop it). Only regular files are read, checked before opening and after.
    #[cfg(unix)]
    #[test]
    fn devices_are_refused_without_reading_them() {
        for dev in ["/dev/null", "/dev/zero", "/dev/ptmx"] {
            if !Path::new(dev).exists() {
                continue;
            }
            let e = read_bounded(Path::new(dev), 1000).unwrap_err();
            assert_eq!(e.kind(), io::ErrorKind::InvalidInput, "{dev}: {e}");
            assert!(e.to_string().contains("not a regular file"), "{dev}: {e}");
            let e = crate::solve::tablebase::Tablebase::load(Path::new(dev)).unwrap_err();
            assert!(e.to_string().contains("not a regular file"), "{dev}: {e}");
        }
        // A symbolic link to a device is the device.
        let dir = std::env::temp_dir().join(format!("stickdice-files-dev-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let link = dir.join("weights.sdw");
        std::os::unix::fs::symlink("/dev/null", &link).unwrap();
        let e = read_bounded(&link, 1000).unwrap_err();
        assert!(e.to_string().contains("not a regular file"), "{e}");
        // A folder is not a file either.
        let e = read_bounded(&dir, 1000).unwrap_err();
        assert!(e.to_string().contains("not a regular file"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
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
