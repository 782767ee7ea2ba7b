//! Reading the files a user names (variant definitions): only regular
//! files, and at most [`MAX_FILE`] bytes, so that a path to a device
//! (`/dev/zero`), a FIFO or a terminal neither reads without end nor blocks.

use std::io::Read;

/// The largest file read, in bytes (16 MiB): far more than any variant
/// definition needs.
pub const MAX_FILE: u64 = 16 << 20;

/// Reads a regular file of at most [`MAX_FILE`] bytes as UTF-8 text. The
/// error says what is wrong (not a regular file, too large, not UTF-8, or
/// the system's reason), without the path.
pub fn read_text_file(path: &str) -> Result<String, String> {
    // the type first, so that opening a FIFO cannot block
    let meta = std::fs::metadata(path).map_err(|e| e.to_string())?;
    check(&meta)?;
    let file = open(path).map_err(|e| e.to_string())?;
    // what was opened, in case the path changed since
    check(&file.metadata().map_err(|e| e.to_string())?)?;
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(MAX_FILE + 1).read_to_end(&mut bytes).map_err(|e| e.to_string())?;
    if bytes.len() as u64 > MAX_FILE {
        return Err(too_large());
    }
    String::from_utf8(bytes).map_err(|_| "not UTF-8 text".to_string())
}

fn too_large() -> String {
    format!("larger than {} MiB", MAX_FILE >> 20)
}

fn check(meta: &std::fs::Metadata) -> Result<(), String> {
    if !meta.is_file() {
        return Err("not a regular file".into());
    }
    if meta.len() > MAX_FILE {
        return Err(too_large());
    }
    Ok(())
}

/// Opens for reading; on Unix without blocking (a FIFO swapped in after the
/// check would otherwise wait for a writer).
#[cfg(unix)]
fn open(path: &str) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new().read(true).custom_flags(libc::O_NONBLOCK).open(path)
}

#[cfg(not(unix))]
fn open(path: &str) -> std::io::Result<std::fs::File> {
    std::fs::File::open(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(tag: &str) -> std::path::PathBuf {
        std::env::temp_dir().join(format!("chimera-files-test-{}-{tag}", std::process::id()))
    }

    #[test]
    fn reads_regular_files_up_to_the_cap() {
        let p = temp("ok");
        std::fs::write(&p, "name = \"x\"\n").unwrap();
        assert_eq!(read_text_file(p.to_str().unwrap()).unwrap(), "name = \"x\"\n");
        // exactly the cap is read, one byte more is refused (sparse files)
        let f = std::fs::OpenOptions::new().write(true).open(&p).unwrap();
        f.set_len(MAX_FILE).unwrap();
        assert_eq!(read_text_file(p.to_str().unwrap()).unwrap().len() as u64, MAX_FILE);
        f.set_len(MAX_FILE + 1).unwrap();
        assert_eq!(read_text_file(p.to_str().unwrap()), Err("larger than 16 MiB".into()));
        std::fs::write(&p, [0xff, 0xfe]).unwrap();
        assert_eq!(read_text_file(p.to_str().unwrap()), Err("not UTF-8 text".into()));
        std::fs::remove_file(&p).unwrap();
        assert!(read_text_file(p.to_str().unwrap()).is_err());
    }

    #[cfg(unix)]
    #[test]
    fn devices_and_directories_are_refused() {
        for path in ["/dev/zero", "/dev/null", "/"] {
            assert_eq!(read_text_file(path), Err("not a regular file".into()), "{path}");
        }
    }
}
