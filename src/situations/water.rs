//! Water over the head (Dungeon Delves › Swimming and Drowning): who swims it, who goes round,
//! and when no one should.

use super::party::{Adventurer, Armour, Draw, explorer, fighter, thief};
use super::sketch::{Expect, Sketch};
use super::{Drawn, Situation};

fn not_drowned(e: &mut Expect, party: &[Adventurer]) {
    for m in party.iter().filter(|m| !m.swims_without_a_throw()) {
        e.wants(
            &format!("member({:?})", m.name),
            "(died: (at_most: 0.02))",
            &format!(
                "{} would throw {}+ each round in deep water: a careful party does not send it in",
                m.name, m.stone
            ),
        );
    }
}

pub const DEEP_GOAL: Situation = Situation {
    name: "deep_goal",
    about: "The place the party came for lies out in a pool over the head; one member swims \
            without a throw, the others are in heavy armour: the swimmer goes, the rest wait \
            ashore, and no one drowns.",
    draw: deep_goal,
};

fn deep_goal(d: &mut Draw) -> Drawn {
    let (w, h) = (d.int(24, 32), d.int(10, 14));
    let mut s = Sketch::new("A Drowned Altar", w as usize, h as usize);
    s.legend('~', "Water(Deep)");
    // The hall the party enters by, then the pool filling the far end.
    let shore = d.int(8, w - 12);
    s.room((1, 1), (w - 2, h - 2));
    let (py0, py1) = (d.int(1, 3), h - 1 - d.int(1, 3));
    s.fill((shore, py0), (w - 2, py1), '~');
    let goal = (d.int(shore + 2, w - 2), d.int(py0, py1));
    s.light(((shore - 2).max(2), h / 2), 60, 90);
    if d.chance(0.5) {
        s.field(format!("deep_water_feet: {}", 5 * d.int(3, 8)));
    }
    let mut party = vec![explorer(d, true)];
    let heavies = d.int(1, 2);
    for _ in 0..heavies {
        party.push(fighter(d, &[Armour::Heavy]));
    }
    if d.chance(0.4) {
        party.push(thief(d));
    }
    d.shuffle(&mut party);
    party[0].with_torches(2);
    s.party(&party, &[(2, 2), (2, 3), (3, 2), (3, 3)]);
    s.goal(format!("Reach(({}, {}))", goal.0, goal.1));
    let swimmer = party.iter().find(|m| m.swims_without_a_throw()).unwrap();
    s.describe(&format!(
        "The altar the party seeks stands out in a flooded hall, the water over the head; {} \
         swims without a throw, the others are heavy.",
        swimmer.name
    ));
    let mut e = Expect::default();
    e.wants(
        "goal_reached",
        "(at_least: 0.85)",
        &format!("{} swims to the altar with no throw to fail", swimmer.name),
    );
    not_drowned(&mut e, &party);
    Drawn {
        level: s.ron(),
        expect: e.ron(DEEP_GOAL.about),
    }
}

/// A cavern split from top to bottom by a river over the head, `width` squares wide, at
/// column `at`; with a dry crossing (a bridge of floor) at row `bridge`, if any.
fn river(s: &mut Sketch, at: i32, width: i32, bridge: Option<i32>) {
    let h = s.height();
    s.fill((at, 1), (at + width - 1, h - 2), '~');
    if let Some(y) = bridge {
        s.fill((at, y), (at + width - 1, y), '.');
    }
}

pub const RIVER_ROUND: Situation = Situation {
    name: "river_round",
    about: "A river over the head splits the cavern between the way in and the way out, with a \
            dry crossing far up- or downstream; two or three in heavy armour cannot swim it: the \
            party walks round, and no one drowns.",
    draw: river_round,
};

fn river_round(d: &mut Draw) -> Drawn {
    let (w, h) = (d.int(26, 34), d.int(11, 16));
    let mut s = Sketch::new("A River and its Bridge", w as usize, h as usize);
    s.legend('~', "Water(Deep)");
    s.room((1, 1), (w - 2, h - 2));
    let at = d.int(10, w - 14);
    let bridge = if d.chance(0.5) { 1 } else { h - 2 };
    let start_row = if bridge == 1 { h - 3 } else { 2 };
    river(&mut s, at, d.int(2, 4), Some(bridge));
    s.light((at / 2, h / 2), 90, 120);
    s.light(((at + w) / 2, h / 2), 90, 120);
    let exit = (w - 2, start_row + if bridge == 1 { 1 } else { -1 });
    let mut party = Vec::new();
    for _ in 0..d.int(2, 3) {
        party.push(fighter(d, &[Armour::Heavy]));
    }
    party.push(thief(d));
    d.shuffle(&mut party);
    party[0].with_torches(3);
    let squares = [
        (2, start_row),
        (3, start_row),
        (2, start_row + 1),
        (3, start_row + 1),
    ];
    s.party(&party, &squares);
    s.goal(format!("Exit(({}, {}))", exit.0, exit.1));
    s.describe(
        "A lit cavern split by a deep, slow river; a stone bridge crosses it far from the way \
         in, and the way out lies on the far bank.",
    );
    let mut e = Expect::default();
    e.wants(
        "goal_reached",
        "(at_least: 0.9)",
        "the bridge is in sight: the party walks round",
    );
    not_drowned(&mut e, &party);
    Drawn {
        level: s.ron(),
        expect: e.ron(RIVER_ROUND.about),
    }
}

pub const NO_WAY_ROUND: Situation = Situation {
    name: "no_way_round",
    about: "Water over the head between the way in and the way out and no way round; one or two \
            in armour would throw 5+ or worse each round to stay afloat: a careful party does \
            not swim it, and no one is left behind.",
    draw: no_way_round,
};

fn no_way_round(d: &mut Draw) -> Drawn {
    let (w, h) = (d.int(18, 26), d.int(5, 9));
    let mut s = Sketch::new("A Sunken Ford", w as usize, h as usize);
    s.legend('~', "Water(Deep)");
    s.room((1, 1), (w - 2, h - 2));
    let at = d.int(7, w - 10);
    river(&mut s, at, d.int(3, 5), None);
    s.light((at / 2, h / 2), 90, 120);
    s.light((w - 4, h / 2), 90, 120);
    let mut party = Vec::new();
    for _ in 0..d.int(1, 2) {
        party.push(fighter(d, &[Armour::Medium, Armour::Heavy]));
    }
    party.push(thief(d));
    d.shuffle(&mut party);
    party[0].with_torches(3);
    s.party(&party, &[(2, 1), (2, 2), (3, 1)]);
    s.goal(format!("Exit(({}, {}))", w - 2, h / 2));
    s.describe(
        "A flooded passage, over the head, between the way in and the way out; no way round.",
    );
    let mut e = Expect::default();
    e.wants(
        "party_dead",
        "(at_most: 0.02)",
        "no one swims what it may well drown in",
    )
    .wants(
        "gave_up",
        "(at_least: 0.9)",
        "with no way round, the party turns back",
    );
    // One measure a subject: the armoured must not drown, the light must not be left on the
    // near bank while the others swim on.
    let (armoured, light): (Vec<Adventurer>, Vec<Adventurer>) =
        party.into_iter().partition(|m| m.stone >= 5.0);
    not_drowned(&mut e, &armoured);
    for m in &light {
        e.wants(
            &format!("member({:?})", m.name),
            "(abandoned: (at_most: 0.02))",
            "no one is left on the near bank while the others swim on",
        );
    }
    Drawn {
        level: s.ron(),
        expect: e.ron(NO_WAY_ROUND.about),
    }
}
