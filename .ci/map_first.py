"""Fails unless the map comes first in a screenshot of the window: its space (as the window
printed it: `the map's space: X0 Y0 X1 Y1 of WxH`) is at least 60% of the window, and what is
drawn in it fills it as far as the level's shape allows: the level (anything but the window's
background (43, 44, 47) beyond the level's edges) spans at least 90% of the space's width or of
its height.

    python3 .ci/map_first.py SHOT.png OUTPUT.txt
"""
import re
import sys

from png_not_blank import pixels

BACKGROUND = (43, 44, 47)


def main():
    path, said = sys.argv[1], open(sys.argv[2]).read()
    m = re.search(r"the map's space: (\d+) (\d+) (\d+) (\d+) of (\d+)x(\d+)", said)
    if not m:
        sys.exit(f"{sys.argv[2]}: the window did not say where the map's space is")
    x0, y0, x1, y1, ww, wh = map(int, m.groups())
    share = (x1 - x0) * (y1 - y0) / (ww * wh)
    width, height, bpp, rows = pixels(path)
    x1, y1 = min(x1, width), min(y1, height)
    drawn = 0
    cols, lines = set(), set()
    for y in range(y0, y1, 2):
        row = rows[y]
        for x in range(x0, x1, 2):
            px = tuple(row[x * bpp:x * bpp + 3])
            if not all(abs(a - b) <= 2 for a, b in zip(px, BACKGROUND)):
                drawn += 1
                cols.add(x)
                lines.add(y)
    total = ((x1 - x0 + 1) // 2) * ((y1 - y0 + 1) // 2)
    across = (max(cols) - min(cols) + 2) / (x1 - x0) if cols else 0
    down = (max(lines) - min(lines) + 2) / (y1 - y0) if lines else 0
    covered = drawn / max(total, 1)
    print(f"{path}: the map's space {share:.0%} of the window; the level drawn across "
          f"{across:.0%} of it, down {down:.0%}, over {covered:.0%}")
    if share < 0.6:
        sys.exit(f"{path}: the map's space is {share:.0%} of the window, not 60%")
    if max(across, down) < 0.9:
        sys.exit(f"{path}: the level does not fill the map's space")


if __name__ == "__main__":
    main()
