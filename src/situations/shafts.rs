//! Shafts: a way down that only climbers (or a rope) take.

use super::party::{Adventurer, Armour, Draw, explorer, fighter, mage, thief};
use super::sketch::{Expect, Sketch, Square};
use super::{Drawn, Situation};

/// The four ways along the grid.
const SIDES: [Square; 4] = [(-1, 0), (0, -1), (1, 0), (0, 1)];

fn plus(a: Square, b: Square) -> Square {
    (a.0 + b.0, a.1 + b.1)
}

fn times(a: Square, k: i32) -> Square {
    (a.0 * k, a.1 * k)
}

/// A square's side turned a quarter: the sides across a way.
fn across(a: Square) -> Square {
    (a.1, a.0)
}

pub const SHAFT: Situation = Situation {
    name: "shaft",
    about: "A relic at the foot of a sheer shaft, the only way down, drawn from any side and of \
            any depth from 20' to 40'; some of the party climb sheer rock, some do not, and a \
            rope may be in the party: the climbers (or all, down a secured rope) fetch the relic \
            and no one is left behind.",
    draw: shaft,
};

/// The places a shaft's drawing leaves: where the party starts, the side the way in comes
/// from, and the grotto below.
struct Drop {
    start: Square,
    from: Square,
    grotto: Square,
    depth: i32,
    anchor: bool,
}

/// Draws the way in, the shaft and the gallery and grotto below it.
fn drop(s: &mut Sketch, d: &mut Draw) -> Drop {
    let depth = 5 * d.int(4, 8);
    s.legend('H', &format!("Chasm(depth_feet: {depth})"));
    s.legend('~', "Water(Waist)");
    let shaft: Square = (18 + d.int(-2, 2), 11 + d.int(-2, 2));
    // The way in comes to the shaft from one side; the gallery below leaves it by a corner on
    // the far side, so no floor lies straight across it (README › Levels).
    let from = d.pick(&SIDES[..3]);
    let corner = plus(times(from, -1), times(across(from), d.pick(&[-1, 1])));
    let length = d.int(3, 6);
    let way_in_end = plus(shaft, times(from, length));
    s.fill(plus(shaft, from), way_in_end, '.');
    let start = plus(way_in_end, from);
    s.room(
        plus(start, plus(from, across(from))),
        plus(start, times(across(from), -1)),
    );
    s.set(shaft, 'H');
    let below = plus(shaft, corner);
    let gallery = d.int(1, 4);
    let gallery_end = plus(below, times(from, -gallery));
    s.fill(below, gallery_end, '.');
    let grotto = plus(gallery_end, times(from, -2));
    s.room(
        plus(gallery_end, plus(times(from, -1), across(from))),
        plus(grotto, times(across(from), -1)),
    );
    let wet = d.chance(0.5);
    if wet {
        s.set(grotto, '~');
    }
    s.light(grotto, 20, 30);
    let anchor = d.chance(0.5);
    s.add(
        "climbs",
        format!(
            "(at: ({}, {}), surface: Sheer{})",
            shaft.0,
            shaft.1,
            if anchor { ", anchor_ac: 2" } else { "" }
        ),
    );
    Drop {
        start,
        from,
        grotto,
        depth,
        anchor,
    }
}

fn shaft(d: &mut Draw) -> Drawn {
    let mut s = Sketch::new("A Shaft", 37, 23);
    let Drop {
        start,
        from,
        grotto,
        depth,
        anchor,
    } = drop(&mut s, d);
    // Three or four adventurers, one or two of whom climb; a rope and hook with the first
    // climber when drawn.
    let climbers = d.int(1, 2);
    let mut party: Vec<Adventurer> = (0..climbers).map(|_| explorer(d, false)).collect();
    let rope = d.chance(0.5);
    if rope {
        party[0].with_gear("Rope(50)").with_gear("GrapplingHook");
    } else {
        // Without a rope the climbers are sure enough to go down a sheer shaft and out again
        // at a careful party's odds (Climbing 4+ or 5+: 64% or better with no fall).
        for climber in &mut party {
            climber.climbing_throw(d.int(4, 5));
        }
    }
    party.push(fighter(d, &[Armour::Light, Armour::Medium]));
    party.push(if d.chance(0.5) { thief(d) } else { mage(d) });
    if d.chance(0.3) {
        party.push(fighter(d, &[Armour::Medium]));
    }
    d.shuffle(&mut party);
    party[0].with_torches(3);
    s.faction("(name: \"eel\", hostile_to: [\"party\"])".into());
    let room_squares = [
        start,
        plus(start, from),
        plus(start, across(from)),
        plus(start, times(across(from), -1)),
        plus(plus(start, from), across(from)),
    ];
    s.party(&party, &room_squares);
    s.creature(format!(
        "(name: \"Eel\", faction: \"eel\", at: ({}, {}), hp: {}, ac: 12, speed_feet: 10, \
         swim_feet: 90, level: 1, attack_bonus: 1, \
         saves: {{ Paralysis: 14, Death: 13, Blast: 15, Implements: 16, Spells: 17 }}, \
         weapons: [(name: \"bite\", damage: \"1d4\", damage_type: Piercing)], \
         gear: [Key(\"relic\")])",
        grotto.0,
        grotto.1,
        d.int(2, 4)
    ));
    s.goal("Recover(Key(\"relic\"))".into());
    let climbing: Vec<&str> = party
        .iter()
        .filter(|m| m.climbs())
        .map(|m| m.name)
        .collect();
    s.describe(&format!(
        "A passage ends at a {depth}' sheer shaft, the only way down to a grotto where an eel \
         keeps the relic; {} climb sheer rock{}{}.",
        climbing.join(" and "),
        if rope {
            ", a rope and hook are carried"
        } else {
            ""
        },
        if anchor {
            ", a rock horn above takes a hook"
        } else {
            ""
        },
    ));
    let mut e = Expect::default();
    e.wants(
        "goal_reached",
        "(at_least: 0.75)",
        "the climbers go down the shaft (or all, by a secured rope), fell the eel and come back \
         with the relic",
    )
    .wants(
        "party_dead",
        "(at_most: 0.05)",
        "an eel of a few hit points is no danger to a party together",
    );
    for m in party.iter().filter(|m| !m.climbs()) {
        e.wants(
            &format!("member({:?})", m.name),
            "(abandoned: (at_most: 0.05))",
            "one who cannot climb waits at the top and goes home with the rest",
        );
    }
    Drawn {
        level: s.ron(),
        expect: e.ron(SHAFT.about),
    }
}
