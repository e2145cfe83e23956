//! What is hidden (Dungeon Delves › Searching, › Traps): secret doors where the shape of the
//! place leaves room unexplained, a hidden pit on the only way, a trap in plain sight.

use super::party::{Armour, Draw, fighter, mage, thief};
use super::sketch::{Expect, Sketch};
use super::{Drawn, Situation};

pub const SECRET_IN_A_WALL: Situation = Situation {
    name: "secret_in_a_wall",
    about: "The goal room's only door is a secret panel in the middle of a long wall of a lit \
            hall, not at a dead end; the hall's shape leaves the room behind it unexplained: \
            the party searches that wall, square by square, before it gives up.",
    draw: secret_in_a_wall,
};

fn secret_in_a_wall(d: &mut Draw) -> Drawn {
    let (w, h) = (d.int(22, 30), d.int(12, 15));
    let mut s = Sketch::new("The Chapel Wall", w as usize, h as usize);
    s.legend('+', "Door");
    // The chapel fills the top; the shrine lies below the chapel's south wall, reached only
    // through the panel.
    let wall = d.int(5, h - 6);
    s.room((1, 1), (w - 2, wall - 1));
    let (sx0, sx1) = (d.int(3, w / 2 - 2), d.int(w / 2 + 2, w - 4));
    s.room((sx0, wall + 1), (sx1, h - 2));
    let panel = (d.int(sx0, sx1), wall);
    s.set(panel, '+');
    s.add(
        "doors",
        format!(
            "(at: ({}, {}), material: Stone, secret: true)",
            panel.0, panel.1
        ),
    );
    s.light((w / 2, wall / 2), 40, 60);
    let mut party = vec![
        fighter(d, &[Armour::Medium, Armour::Light]),
        if d.chance(0.6) { thief(d) } else { mage(d) },
    ];
    if d.chance(0.5) {
        party.push(fighter(d, &[Armour::Medium]));
    }
    d.shuffle(&mut party);
    party[0].with_torches(3);
    s.party(&party, &[(2, 1), (2, 2), (1, 1)]);
    let goal = ((sx0 + sx1) / 2, h - 2);
    s.goal(format!("Room(({}, {}))", goal.0, goal.1));
    s.describe(
        "A lit chapel with no way on; the shrine lies behind a secret panel in its long south \
         wall.",
    );
    let mut e = Expect::default();
    e.wants(
        &format!("secret_door(({}, {}))", panel.0, panel.1),
        "(searched: (at_least: 0.9))",
        "the wall with unexplained room behind it is searched, its panel's square among them",
    )
    .wants(
        "goal_reached",
        "(at_least: 0.7)",
        "searching that wall turn by turn finds the panel",
    );
    Drawn {
        level: s.ron(),
        expect: e.ron(SECRET_IN_A_WALL.about),
    }
}

pub const HIDDEN_PIT: Situation = Situation {
    name: "hidden_pit",
    about: "A hidden pit in a one-wide passage, the only way on; a thief in the party: the thief \
            leads and searches ahead, and anyone who falls is got out.",
    draw: hidden_pit,
};

fn hidden_pit(d: &mut Draw) -> Drawn {
    let (w, h) = (d.int(24, 34), 7);
    let mut s = Sketch::new("The Narrow Way", w as usize, h);
    s.room((1, 1), (4, 5));
    s.passage((5, 3), (w - 7, 3));
    s.room((w - 6, 1), (w - 2, 5));
    let pit = (d.int(8, w - 10), 3);
    s.add(
        "traps",
        format!(
            "(at: ({}, {}), kind: Pit(depth_feet: {}), trigger: Step, hidden: true)",
            pit.0,
            pit.1,
            10 * d.int(1, 2)
        ),
    );
    let mut party = vec![thief(d), fighter(d, &[Armour::Medium, Armour::Heavy])];
    if d.chance(0.5) {
        party.push(mage(d));
    }
    d.shuffle(&mut party);
    for m in &mut party {
        m.with_gear("Rope(50)");
    }
    party[0].with_torches(3);
    s.party(&party, &[(2, 3), (2, 2), (2, 4)]);
    s.goal(format!("Reach(({}, 3))", w - 3));
    s.describe("A one-wide corridor to the far hall with a hidden pit in it; each carries a rope.");
    let mut e = Expect::default();
    e.wants(
        "goal_reached",
        "(at_least: 0.9)",
        "the pit is found ahead, or whoever falls in climbs out by a rope",
    )
    .none_abandoned(&party);
    Drawn {
        level: s.ron(),
        expect: e.ron(HIDDEN_PIT.about),
    }
}

pub const BLADE_IN_PLAIN_SIGHT: Situation = Situation {
    name: "blade_in_plain_sight",
    about: "A blade trap, in plain sight, across the only passage, and a 10' pole in the party: \
            the party springs it from a distance with the pole (or disarms it) rather than walk \
            over it at its odds.",
    draw: blade_in_plain_sight,
};

fn blade_in_plain_sight(d: &mut Draw) -> Drawn {
    let (w, h) = (d.int(20, 30), 7);
    let mut s = Sketch::new("The Swinging Blade", w as usize, h);
    s.room((1, 1), (4, 5));
    s.passage((5, 3), (w - 7, 3));
    s.room((w - 6, 1), (w - 2, 5));
    let blade = (d.int(7, w - 9), 3);
    s.add(
        "traps",
        format!(
            "(at: ({}, {}), kind: Custom(name: \"swinging blade\", damage: \"{}d6\", \
             attack: (bonus: {})), trigger: Step, hidden: false)",
            blade.0,
            blade.1,
            d.int(1, 2),
            d.int(2, 5)
        ),
    );
    s.light((2, 3), 30, 40);
    let mut party = vec![
        fighter(d, &[Armour::Medium, Armour::Light]),
        fighter(d, &[Armour::Medium]),
    ];
    if d.chance(0.5) {
        party.push(mage(d));
    }
    d.shuffle(&mut party);
    party[0].with_torches(3);
    party[1].with_gear("TenFootPole");
    s.party(&party, &[(2, 3), (2, 2), (2, 4)]);
    s.goal(format!("Reach(({}, 3))", w - 3));
    s.describe("A swinging blade, its slot in plain sight, across the only corridor; a 10' pole.");
    let mut e = Expect::default();
    e.wants(
        "goal_reached",
        "(at_least: 0.9)",
        "the way on is the blade's corridor",
    )
    .wants(
        &format!("trap(({}, {}))", blade.0, blade.1),
        "(harmful: (at_most: 0.1))",
        "prodded with the pole, the blade swings at no one",
    );
    Drawn {
        level: s.ron(),
        expect: e.ron(BLADE_IN_PLAIN_SIGHT.about),
    }
}
