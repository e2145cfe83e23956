//! The report as one self-contained HTML page, written from the report's own tables (not from
//! its Markdown): headings, paragraphs, tables whose columns sort when their heading is clicked,
//! and the pictures inline.

use std::fmt::Write;

use super::Report;
use crate::lab::tables::{escape, paragraphs};

/// The head of the page: its title and style.
const HEAD: &str = "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>Delve lab</title>\n\
     <style>body{font-family:sans-serif;max-width:72em;margin:2em auto;color:#222}\
     table{border-collapse:collapse}td,th{border:1px solid #bbb;padding:.25em .6em}\
     th{cursor:pointer;background:#f2f2f2;user-select:none}th[aria-sort]::after{content:' \\2195'}\
     th[aria-sort=ascending]::after{content:' \\2191'}th[aria-sort=descending]::after{content:' \\2193'}\
     td{text-align:right}td.w{text-align:left}img{max-width:100%}</style>\n\
     </head><body>\n";

/// Sorts a table of the page by the column whose heading is clicked (again: the other way):
/// by the number a cell begins with where every cell of the column has one, else by its words.
/// Inline, so the page needs no network.
const SORT_SCRIPT: &str = r#"<script>
document.querySelectorAll("table.sortable th").forEach(function (th, _) {
  th.addEventListener("click", function () {
    var table = th.closest("table"), body = table.tBodies[0];
    var col = Array.prototype.indexOf.call(th.parentNode.children, th);
    var up = th.getAttribute("aria-sort") !== "ascending";
    table.querySelectorAll("th").forEach(function (h) { h.setAttribute("aria-sort", "none"); });
    th.setAttribute("aria-sort", up ? "ascending" : "descending");
    var rows = Array.prototype.slice.call(body.rows);
    var key = function (r) { return (r.cells[col] || {}).textContent || ""; };
    var num = function (t) { var m = t.replace(/^\(/, "").match(/^-?[0-9]+(\.[0-9]+)?/); return m ? parseFloat(m[0]) : NaN; };
    var numeric = rows.every(function (r) { return !isNaN(num(key(r))) || key(r) === "\u2014"; });
    rows.sort(function (a, b) {
      var x = key(a), y = key(b), d;
      if (numeric) { d = (isNaN(num(x)) ? -1 : num(x)) - (isNaN(num(y)) ? -1 : num(y)); }
      else { d = x.localeCompare(y); }
      return up ? d : -d;
    });
    rows.forEach(function (r) { body.appendChild(r); });
  });
});
</script>
"#;

/// A picture the report names that cannot be read to go inline in its page.
#[derive(Debug)]
pub struct PictureUnreadable {
    pub path: std::path::PathBuf,
    pub why: std::io::Error,
}

impl std::fmt::Display for PictureUnreadable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.why)
    }
}

/// The report as one page, the pictures inline (read from the lab's folder `dir`).
pub fn html(report: &Report, dir: &std::path::Path) -> Result<String, PictureUnreadable> {
    use base64::Engine;
    let mut out = String::from(HEAD);
    let _ = writeln!(out, "<h1>{}</h1>", escape(&report.title));
    paragraphs(&report.about, &mut out);
    for table in &report.tables {
        table.html(&mut out);
    }
    if !report.pictures.is_empty() {
        out += "<h2>Pictures</h2>\n";
        for (file, title) in &report.pictures {
            let path = dir.join(file);
            let bytes = std::fs::read(&path).map_err(|why| PictureUnreadable { path, why })?;
            let data = base64::engine::general_purpose::STANDARD.encode(bytes);
            let _ = writeln!(
                out,
                "<figure><img alt=\"{0}\" src=\"data:image/png;base64,{data}\">\
                 <figcaption>{0}</figcaption></figure>",
                escape(title)
            );
        }
    }
    if !report.failed.is_empty() {
        super::failed_table(&report.failed).html(&mut out);
    }
    out += SORT_SCRIPT;
    out += "</body></html>\n";
    Ok(out)
}
