//! The user's configuration files — the keys (`gui::keys`) and the window's settings
//! (`gui::settings`): RON in `<config dir>/delve/`, written atomically, and when one cannot be
//! read, where in it and why.

use std::path::{Path, PathBuf};

use serde::Serialize;

/// `<config dir>/delve/NAME` (`~/.config/delve/NAME` on Linux).
pub fn in_config_dir(name: &str) -> Option<PathBuf> {
    dirs::config_dir().map(|d| d.join("delve").join(name))
}

/// Writes `value` to `path` as RON (atomically, making its directory); `what` names it in the
/// message of a failure.
pub fn write<T: Serialize>(path: &Path, value: &T, what: &str) -> Result<(), String> {
    let text = ron::ser::to_string_pretty(value, ron::ser::PrettyConfig::default())
        .map_err(|e| format!("cannot write the {what}: {e}"))?;
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot make {}: {e}", dir.display()))?;
    }
    delve_play::save::write_atomic(path, text.as_bytes()).map_err(|e| e.to_string())
}

/// Where a RON file went wrong and why: `LINE:COLUMN: what`.
pub fn error_at(e: &ron::error::SpannedError) -> String {
    format!(
        "{}:{}: {}",
        e.span.start.line.max(1),
        e.span.start.col.max(1),
        e.code
    )
}
