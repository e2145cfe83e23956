"""Fails unless most of a box of a screenshot is map: neither black (unseen squares, the
unlit) nor the window's background (43, 44, 47) beyond the level's edges.

    python3 .ci/map_middle.py SHOT.png CENTRE_X CENTRE_Y SIDE
"""
import sys

from png_not_blank import pixels

BACKGROUND = (43, 44, 47)


def main():
    path, cx, cy, side = sys.argv[1], *map(int, sys.argv[2:5])
    width, height, bpp, rows = pixels(path)
    x0, y0 = cx - side // 2, cy - side // 2
    if x0 < 0 or y0 < 0 or x0 + side > width or y0 + side > height:
        sys.exit(f"{path}: the box {side}x{side} at ({cx}, {cy}) is not within {width}x{height}")
    black = background = 0
    for y in range(y0, y0 + side):
        row = rows[y]
        for x in range(x0, x0 + side):
            px = tuple(row[x * bpp:x * bpp + 3])
            if max(px) < 12:
                black += 1
            elif all(abs(a - b) <= 2 for a, b in zip(px, BACKGROUND)):
                background += 1
    total = side * side
    shown = 1 - (black + background) / total
    print(f"{path}: the middle {side}x{side}: map {shown:.0%}, black {black / total:.0%}, "
          f"background {background / total:.0%}")
    if shown < 0.5:
        sys.exit(f"{path}: the middle of the map is mostly black or background")


if __name__ == "__main__":
    main()
