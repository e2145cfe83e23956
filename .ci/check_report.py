#!/usr/bin/env python3
"""Opens a lab's report.html in headless Chromium and checks what a reader would see: no
console errors, every picture loaded (natural width > 0), and a click on a table's heading
sorts that table. Writes a screenshot beside the page (report.png).

Usage: check_report.py LAB_DIR/report.html
"""
import html
import json
import os
import subprocess
import sys
import tempfile

# Hooks console errors before the page's own scripts run.
HOOK = """<script>
window.__errors = [];
window.addEventListener("error", function (e) { window.__errors.push(String(e.message)); });
var __consoleError = console.error;
console.error = function () {
  window.__errors.push(Array.prototype.join.call(arguments, " "));
  __consoleError.apply(console, arguments);
};
</script>"""

# After the page has loaded: the pictures, then a sort of the first table with a numeric
# column of at least two distinct rows, checked row by row.
CHECK = """<script>
window.addEventListener("load", function () {
  var out = { errors: window.__errors, images: [], sorted: null };
  document.querySelectorAll("img").forEach(function (img) {
    out.images.push({ alt: img.alt, width: img.naturalWidth });
  });
  var num = function (t) { var m = t.replace(/^\\(/, "").match(/^-?[0-9]+(\\.[0-9]+)?/); return m ? parseFloat(m[0]) : NaN; };
  var tables = document.querySelectorAll("table.sortable");
  for (var t = 0; t < tables.length && out.sorted === null; t++) {
    var table = tables[t], heads = table.tHead.rows[0].cells, rows = table.tBodies[0].rows;
    if (rows.length < 3) continue;
    for (var c = 1; c < heads.length && out.sorted === null; c++) {
      var values = Array.prototype.map.call(rows, function (r) { return num(r.cells[c].textContent); });
      if (values.some(isNaN) || new Set(values).size < 2) continue;
      heads[c].click();
      var after = Array.prototype.map.call(table.tBodies[0].rows, function (r) { return num(r.cells[c].textContent); });
      var ascending = after.every(function (v, i) { return i === 0 || after[i - 1] <= v; });
      heads[c].click();
      var again = Array.prototype.map.call(table.tBodies[0].rows, function (r) { return num(r.cells[c].textContent); });
      var descending = again.every(function (v, i) { return i === 0 || again[i - 1] >= v; });
      out.sorted = { table: t, column: heads[c].textContent, ascending: ascending, descending: descending };
    }
  }
  var pre = document.createElement("pre");
  pre.id = "report-check";
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});
</script>"""


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        for d in os.environ.get("PATH", "").split(os.pathsep):
            if os.access(os.path.join(d, name), os.X_OK):
                return os.path.join(d, name)
    sys.exit("check_report: no Chromium found (install the chromium package)")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    page = os.path.abspath(sys.argv[1])
    text = open(page, encoding="utf-8").read()
    if "<head>" not in text or "</body>" not in text:
        sys.exit(f"{page}: not a report page (no <head> or </body>)")
    probe = text.replace("<head>", "<head>" + HOOK, 1).replace("</body>", CHECK + "</body>", 1)
    browser = chromium()
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
             "--virtual-time-budget=10000"]
    with tempfile.TemporaryDirectory() as tmp:
        copy = os.path.join(tmp, "probe.html")
        with open(copy, "w", encoding="utf-8") as f:
            f.write(probe)
        dom = subprocess.run([browser, *flags, f"--user-data-dir={tmp}/profile", "--dump-dom",
                              "file://" + copy], capture_output=True, text=True, timeout=120)
    start = dom.stdout.find('<pre id="report-check">')
    if start < 0:
        sys.exit(f"{page}: the check did not run in Chromium:\n{dom.stderr[-2000:]}")
    end = dom.stdout.index("</pre>", start)
    result = json.loads(html.unescape(dom.stdout[start + len('<pre id="report-check">'):end]))
    failures = []
    if result["errors"]:
        failures.append("console errors: " + "; ".join(result["errors"]))
    if not result["images"]:
        failures.append("no pictures on the page")
    for img in result["images"]:
        if img["width"] <= 0:
            failures.append(f"picture not loaded: {img['alt']}")
    sorted_ = result["sorted"]
    if sorted_ is None:
        failures.append("no table with a numeric column to sort")
    elif not (sorted_["ascending"] and sorted_["descending"]):
        failures.append(f"sorting table {sorted_['table']} by '{sorted_['column']}' "
                        f"left it out of order: {sorted_}")
    shot = os.path.join(os.path.dirname(page), "report.png")
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([browser, *flags, f"--user-data-dir={tmp}/profile",
                        "--window-size=1280,1600", f"--screenshot={shot}", "file://" + page],
                       capture_output=True, timeout=120)
    if failures:
        sys.exit(f"{page}:\n  " + "\n  ".join(failures))
    print(f"{page}: {len(result['images'])} pictures loaded, no console errors, "
          f"sorted by '{sorted_['column']}' both ways; screenshot {shot}")


if __name__ == "__main__":
    main()
