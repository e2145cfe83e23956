//! Reading the files a user names (levels, bestiaries, saves, journals, policies, lab folders):
//! whole files of bounded size only; and writing files whole or not at all. A FIFO would hang the read and `/dev/zero` would fill the
//! memory; a file past [`MAX_FILE_BYTES`] is no level, save or journal of a delve.

use std::io::{Read, Write};
use std::path::Path;

/// The largest file read: 256 MiB (the largest sample level is a few hundred KiB; a day's
/// delve journals a few MiB).
pub const MAX_FILE_BYTES: u64 = 256 << 20;

/// [`std::fs::read_to_string`] for files a user names: a regular file of at most
/// [`MAX_FILE_BYTES`], or an error that says why not.
///
/// The text is as an editor shows it: a UTF-8 byte-order mark at its start is dropped, and
/// Windows (CR LF) and old Mac (CR) line endings read as LF, so that every line and column
/// reported is the one the editor shows (a BOM once gave "Expected opening `(`" at 1:1).
pub fn read_text(path: impl AsRef<Path>) -> std::io::Result<String> {
    let bytes = read_bytes(path)?;
    let text = String::from_utf8(bytes)
        .map_err(|_| std::io::Error::new(std::io::ErrorKind::InvalidData, "not UTF-8 text"))?;
    Ok(as_an_editor_shows(text))
}

/// `text` without a byte-order mark, its line endings LF.
pub fn as_an_editor_shows(text: String) -> String {
    let text = match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_owned(),
        None => text,
    };
    if text.contains('\r') {
        text.replace("\r\n", "\n").replace('\r', "\n")
    } else {
        text
    }
}

/// [`std::fs::read`] for files a user names (see [`read_text`]).
pub fn read_bytes(path: impl AsRef<Path>) -> std::io::Result<Vec<u8>> {
    let path = path.as_ref();
    let not_a_file = || {
        std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a regular file (a pipe or a device is not read)",
        )
    };
    // (Looked at before it is opened: opening a FIFO waits for a writer.)
    if !std::fs::metadata(path)?.is_file() {
        return Err(not_a_file());
    }
    let file = std::fs::File::open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(not_a_file());
    }
    let too_big = || {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("larger than {} MiB", MAX_FILE_BYTES >> 20),
        )
    };
    if meta.len() > MAX_FILE_BYTES {
        return Err(too_big());
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    // (A file that grows while it is read is cut off at the bound, and refused.)
    file.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(too_big());
    }
    Ok(bytes)
}

/// Writes `bytes` to `path` so that the file is either the old one or the new one, never a
/// part: into a temporary file beside it, flushed to the disk, then renamed over it.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_atomic_with(path, bytes, |p| std::fs::File::create(p))
}

/// [`write_atomic`], opening the temporary file with `open` (tests give one that fails).
pub fn write_atomic_with<W: Write>(
    path: &Path,
    bytes: &[u8],
    open: impl FnOnce(&Path) -> std::io::Result<W>,
) -> std::io::Result<()> {
    let temporary = temporary_beside(path);
    let written = (|| {
        let mut file = open(&temporary)?;
        file.write_all(bytes)?;
        file.flush()?;
        drop(file);
        // Flushed to the disk before it takes the old file's place.
        std::fs::File::open(&temporary)?.sync_all()?;
        std::fs::rename(&temporary, path)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    written
}

fn temporary_beside(path: &Path) -> std::path::PathBuf {
    let name = path
        .file_name()
        .map_or_else(|| "file".into(), |n| n.to_string_lossy().into_owned());
    path.with_file_name(format!(".{name}.{}.tmp", std::process::id()))
}

/// Do two paths name one file (either perhaps not there yet)?
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A regular file is read whole; a directory, a device and a missing file are refused
    /// with a reason.
    #[test]
    fn only_regular_files_of_bounded_size_are_read() {
        let dir = std::env::temp_dir().join(format!("delve-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("a.ron");
        std::fs::write(&f, "(name: \"a\")").unwrap();
        assert_eq!(read_text(&f).unwrap(), "(name: \"a\")");
        let e = read_text(&dir).unwrap_err();
        assert!(e.to_string().contains("not a regular file"), "{e}");
        #[cfg(unix)]
        {
            let e = read_text(Path::new("/dev/zero")).unwrap_err();
            assert!(e.to_string().contains("not a regular file"), "{e}");
        }
        assert!(read_text(dir.join("missing.ron")).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
