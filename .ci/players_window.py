"""Fails unless the players' window, as the window said when it took its screenshot
(`the players' window: the clock C; the party A, B, ...; squares N px`), showed the clock, the
names of the party (at least N of them) and the party's surroundings at 24 pixels a square or
more.

    python3 .ci/players_window.py OUTPUT.txt NAMES
"""
import re
import sys


def main():
    said, names = open(sys.argv[1]).read(), int(sys.argv[2])
    m = re.search(r"the players' window: the clock (.*?); the party (.*?); squares (\d+) px", said)
    if not m:
        sys.exit(f"{sys.argv[1]}: the window did not say what the players' window showed")
    clock, party, square = m.group(1), m.group(2), int(m.group(3))
    print(f"the players' window: the clock {clock!r}, the party {party!r}, squares {square} px")
    if clock == "not shown" or not clock.startswith("hour"):
        sys.exit("the players' window shows no clock")
    shown = [] if party == "not shown" else party.split(", ")
    if len(shown) < names:
        sys.exit(f"the players' window names {len(shown)} of the party, not {names}")
    if square < 24:
        sys.exit(f"the players' window draws squares {square} pixels wide, under 24")


if __name__ == "__main__":
    main()
