#!/usr/bin/env bash
# A scripted solo game of the crypt in a real window, driven by real key presses (run it under
# Xvfb: `xvfb-run -a -s "-screen 0 1280x800x24" .ci/solo_game.sh DELVE OUT_DIR`).
#
# The briefing is read away with Enter; a right click on the door at (3, 6) sends the party
# there; Tab five times then Space (the keyboard stays the game's: egui's buttons never take the
# focus) plays a round and closes no panel (the settings file would say so); Ctrl+S saves, and
# the save holds one round. Brannoc opens the door by its number key; four turns on, with his
# torch low, Aldric is selected with Tab and D lights his lantern; at round 82 the save's
# journal holds the door opened and the lantern lit, and the screen is kept as a picture.
set -euo pipefail
delve="$1"
out="$2"
mkdir -p "$out"
save="$out/solo.ron"
settings="$out/settings.ron"
rm -f "$save" "$settings"
"$delve" play levels/crypt.ron --window 1280x800 --settings "$settings" --save "$save" \
    --autosave "$out/autosave" >"$out/play.txt" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
win=""
for _ in $(seq 1 120); do
    win="$(xdotool search --name '^Delve' 2>/dev/null | head -1 || true)"
    [ -n "$win" ] && break
    sleep 1
done
if [ -z "$win" ]; then
    echo "no Delve window appeared"
    cat "$out/play.txt"
    exit 1
fi
# The window draws its first frames.
sleep 8
# Keys go to the focused window, pressed as a player presses them (XTEST).
xdotool windowfocus --sync "$win" 2>/dev/null || true
xdotool mousemove --window "$win" 640 400
sleep 1
press() {
    xdotool key "$1"
    sleep 0.6
}
ctrl() {
    xdotool keydown ctrl
    sleep 0.3
    xdotool key "$1"
    sleep 0.3
    xdotool keyup ctrl
    sleep 1
}
saved_rounds() {
    sed -n 's/^    rounds: \([0-9]*\),$/\1/p' "$save"
}
wait_for_save() {
    for _ in $(seq 1 30); do
        [ -s "$save" ] && return 0
        sleep 0.5
    done
    echo "Ctrl+S wrote no save"
    cat "$out/play.txt"
    exit 1
}

press Return
# The door at (3, 6), where the window (1280x800, the default panels) first draws it: a right
# click walks the party up to it (no round is played yet).
xdotool mousemove --window "$win" 815 497
sleep 0.6
xdotool click 3
sleep 0.6
# Tab five times (round the party: Mirela, Sera, Aldric, Brannoc, Mirela), then Space.
for _ in 1 2 3 4 5; do press Tab; done
press space
ctrl s
wait_for_save
rounds="$(saved_rounds)"
if [ "$rounds" != 1 ]; then
    echo "after Tab x5 and Space the save holds ${rounds:-no} rounds, not 1"
    exit 1
fi
if [ -s "$settings" ] && sed -n '/panels: (/,/)/p' "$settings" | grep -q ': false'; then
    echo "a panel closed:"
    cat "$settings"
    exit 1
fi
# The party walks up to the door and closes up; Brannoc (Tab x3), beside it, opens it (1).
for _ in 1 2 3 4 5 6; do press space; done
for _ in 1 2 3; do press Tab; done
press 1
press space
# Four turns on, Brannoc's torch (60 rounds) is low: Aldric (Tab x3) lights his lantern (D).
for _ in 1 2 3 4; do
    press t
    sleep 1
done
for _ in 1 2 3; do press Tab; done
press d
press space
for _ in 1 2 3; do
    press t
    sleep 1
done
for _ in 1 2 3; do press space; done
rm -f "$save"
ctrl s
wait_for_save
rounds="$(saved_rounds)"
if [ "$rounds" != 82 ]; then
    echo "the save holds ${rounds:-no} rounds, not 82"
    exit 1
fi
journal="$(tr -d ' \n' <"$save")"
for want in 'command:OpenDoor(who:"Brannoc",at:(3,6)' '(round:48,command:LightUp(who:"Aldric"'; do
    if ! grep -qF "$want" <<<"$journal"; then
        echo "the journal does not hold $want:"
        sed -n '/journal:/,/checks:/p' "$save" | head -60
        exit 1
    fi
done
import -window root "$out/solo.png"
echo "a solo game of the crypt to round $rounds: Tab x5 and Space played a round and closed no panel; Brannoc opened the door at (3, 6); Aldric lit his lantern by its key at round 48"
