//! Doors on the only way (Dungeon Delves › Doors): stuck, evil, secret at a dead end.

use super::party::{Adventurer, Armour, Draw, fighter, mage, thief};
use super::sketch::{Expect, Sketch, Square};
use super::{Drawn, Situation};

/// Two rooms joined by a passage with a door in it; returns the door's square and the far
/// room's middle. `dead_end`: the passage runs on past the door's wall to end in stone, the
/// door in its end wall.
fn rooms_and_a_door(s: &mut Sketch, d: &mut Draw) -> (Square, Square) {
    let (w, h) = (s.width(), s.height());
    let row = d.int(2, h - 3);
    s.room((1, 1), (4, h - 2));
    let door = (d.int(8, w - 9), row);
    s.passage((5, row), (door.0 - 1, row));
    s.room((door.0 + 1, 1), (w - 2, h - 2));
    s.legend('+', "Door");
    s.set(door, '+');
    (door, ((door.0 + w) / 2, h / 2))
}

fn two_or_three(d: &mut Draw) -> Vec<Adventurer> {
    let mut party = vec![fighter(d, &[Armour::Medium, Armour::Heavy])];
    party.push(if d.chance(0.5) {
        fighter(d, &[Armour::Medium])
    } else {
        mage(d)
    });
    if d.chance(0.5) {
        party.push(thief(d));
    }
    d.shuffle(&mut party);
    party[0].with_torches(3);
    party
}

pub const STUCK_DOOR: Situation = Situation {
    name: "stuck_door",
    about: "A stuck door on the only way to the goal: the party's strongest bashes it, as often \
            as it takes.",
    draw: stuck_door,
};

fn stuck_door(d: &mut Draw) -> Drawn {
    let (w, h) = (d.int(18, 28), d.int(5, 9));
    let mut s = Sketch::new("The Swollen Door", w as usize, h as usize);
    let (door, far) = rooms_and_a_door(&mut s, d);
    s.add(
        "doors",
        format!(
            "(at: ({}, {}), material: {}, stuck: true)",
            door.0,
            door.1,
            d.pick(&["Wooden", "IronBanded"])
        ),
    );
    let party = two_or_three(d);
    s.party(&party, &[(2, 1), (2, 2), (1, 1)]);
    s.goal(format!("Room(({}, {}))", far.0, far.1));
    s.describe("A stuck door between the way in and the vault.");
    let mut e = Expect::default();
    e.wants(
        "goal_reached",
        "(at_least: 0.9)",
        "a stuck door gives to bashing sooner or later",
    )
    .wants(
        &format!("door(({}, {}))", door.0, door.1),
        "(opened: (at_least: 0.9))",
        "it is bashed open",
    );
    Drawn {
        level: s.ron(),
        expect: e.ron(STUCK_DOOR.about),
    }
}

pub const EVIL_DOOR: Situation = Situation {
    name: "evil_door",
    about: "An evil door on the only way swings shut whenever it is let go; spikes in the party: \
            once it has shut on them, the party wedges it open with a spike and goes through.",
    draw: evil_door,
};

fn evil_door(d: &mut Draw) -> Drawn {
    let (w, h) = (d.int(18, 28), d.int(5, 9));
    let mut s = Sketch::new("The Door That Shuts", w as usize, h as usize);
    let (door, far) = rooms_and_a_door(&mut s, d);
    s.add(
        "doors",
        format!(
            "(at: ({}, {}), material: IronBanded, evil: true)",
            door.0, door.1
        ),
    );
    let mut party = two_or_three(d);
    let n = d.int(2, 6);
    party[1].with_gear(&format!("Spikes({n})"));
    s.party(&party, &[(2, 1), (2, 2), (1, 1)]);
    s.goal(format!("Reach(({}, {}))", far.0, far.1));
    s.describe("An evil door on the only way to the reliquary; the party carries iron spikes.");
    let mut e = Expect::default();
    e.wants(
        "goal_reached",
        "(at_least: 0.9)",
        "a door wedged open with a spike stays open",
    );
    Drawn {
        level: s.ron(),
        expect: e.ron(EVIL_DOOR.about),
    }
}

pub const SECRET_AT_A_DEAD_END: Situation = Situation {
    name: "secret_at_a_dead_end",
    about: "A passage that ends in blank stone, a secret door at its end, the goal beyond: the \
            party searches the dead end until the door is found.",
    draw: secret_at_a_dead_end,
};

fn secret_at_a_dead_end(d: &mut Draw) -> Drawn {
    let (w, h) = (d.int(20, 30), d.int(6, 10));
    let mut s = Sketch::new("The Blind Passage", w as usize, h as usize);
    let (door, far) = rooms_and_a_door(&mut s, d);
    s.add(
        "doors",
        format!(
            "(at: ({}, {}), material: Stone, secret: true)",
            door.0, door.1
        ),
    );
    let party = two_or_three(d);
    s.party(&party, &[(2, 1), (2, 2), (1, 1)]);
    s.goal(format!("Room(({}, {}))", far.0, far.1));
    s.describe("A passage ends in blank stone; the shrine lies behind a secret door at its end.");
    let mut e = Expect::default();
    e.wants(
        &format!("secret_door(({}, {}))", door.0, door.1),
        "(found: (at_least: 0.8))",
        "the dead end is searched, turn after turn while the light allows",
    )
    .wants(
        "goal_reached",
        "(at_least: 0.8)",
        "the door found, the shrine is through it",
    );
    Drawn {
        level: s.ron(),
        expect: e.ron(SECRET_AT_A_DEAD_END.about),
    }
}
