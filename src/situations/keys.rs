//! Locked doors (Dungeon Delves › Doors): a key carried by a guard, or a thief's picks.

use super::party::{Armour, Draw, fighter, mage, thief};
use super::sketch::{Expect, Sketch, Square};
use super::{Drawn, Situation};

const MATERIALS: &[&str] = &["Wooden", "IronBanded", "SolidIron"];

/// A hall at the left of rows `top` to `bottom` with a locked door in its right wall to the
/// vault beyond; returns the door's square and a square of the vault.
fn hall_and_vault(
    s: &mut Sketch,
    d: &mut Draw,
    key: Option<&str>,
    (top, bottom): (i32, i32),
) -> (Square, Square) {
    let w = s.width();
    let wall = d.int(w / 2, w - 8);
    let door_row = d.int(top, bottom);
    s.room((1, top), (wall - 1, bottom));
    s.room((wall + 1, top), (w - 2, bottom));
    s.set((wall, door_row), '+');
    s.legend('+', "Door");
    let lock = match key {
        Some(k) => format!("Locked(key: Some({k:?}))"),
        None => "Locked(key: None)".into(),
    };
    s.add(
        "doors",
        format!(
            "(at: ({wall}, {door_row}), material: {}, lock: {lock})",
            d.pick(MATERIALS)
        ),
    );
    ((wall, door_row), (w - 3, (top + bottom) / 2))
}

pub const GUARD_KEY: Situation = Situation {
    name: "guard_key",
    about: "A locked vault door, no thief, and the key on a skeleton guard in a side chamber \
            off the hall, out of sight of the door: the party fells the guard, takes the key, \
            and comes back to the door it left shut.",
    draw: guard_key,
};

fn guard_key(d: &mut Draw) -> Drawn {
    let (w, h) = (d.int(26, 34), d.int(12, 16));
    let mut s = Sketch::new("The Gaoler's Ring", w as usize, h as usize);
    // The hall fills the upper rows, the side chamber lies below it, reached by a passage.
    let hall_bottom = h / 2 - 1;
    let (door, vault) = hall_and_vault(&mut s, d, Some("gaoler's ring"), (1, hall_bottom));
    let chamber_x = d.int(2, door.0 - 6);
    let chamber_top = hall_bottom + 3;
    s.passage((chamber_x + 1, hall_bottom), (chamber_x + 1, chamber_top));
    s.room((chamber_x, chamber_top), (chamber_x + 3, h - 2));
    if d.chance(0.5) {
        s.set((chamber_x + 1, chamber_top - 1), '+');
        s.add(
            "doors",
            format!(
                "(at: ({}, {}), material: Wooden)",
                chamber_x + 1,
                chamber_top - 1
            ),
        );
    }
    s.light((door.0 / 2, 2), 40, 60);
    let guard = (chamber_x + 2, h - 2);
    s.faction("(name: \"the dead\", hostile_to: [\"party\"])".into());
    s.creature(format!(
        "(name: \"Gaoler\", template: \"skeleton\", faction: \"the dead\", at: ({}, {}), \
         gear: [Key(\"gaoler's ring\")])",
        guard.0, guard.1
    ));
    let mut party = vec![
        fighter(d, &[Armour::Medium]),
        fighter(d, &[Armour::Light, Armour::Medium]),
        mage(d),
    ];
    d.shuffle(&mut party);
    party[0].with_torches(3);
    s.party(&party, &[(2, 2), (2, 3), (3, 2)]);
    s.goal(format!("Room(({}, {}))", vault.0, vault.1));
    s.describe(
        "A skeleton gaoler keeps the key to the locked vault door in a chamber below the hall; \
         three adventurers, no thief.",
    );
    let mut e = Expect::default();
    e.wants(
        "goal_reached",
        "(at_least: 0.85)",
        "a skeleton of 4 hit points is felled, its ring taken back to the door",
    )
    .wants(
        &format!("door(({}, {}))", door.0, door.1),
        "(opened: (at_least: 0.85))",
        "the door left shut is opened with the ring",
    )
    .wants(
        "party_dead",
        "(at_most: 0.05)",
        "one skeleton against three",
    );
    Drawn {
        level: s.ron(),
        expect: e.ron(GUARD_KEY.about),
    }
}

pub const LOCKED_THIEF: Situation = Situation {
    name: "locked_thief",
    about: "A locked door with no key anywhere before the goal; a thief with picks is in the \
            party: the thief picks the lock, as often as it takes.",
    draw: locked_thief,
};

fn locked_thief(d: &mut Draw) -> Drawn {
    let (w, h) = (d.int(20, 30), d.int(7, 12));
    let mut s = Sketch::new("The Locked Vault", w as usize, h as usize);
    let (door, vault) = hall_and_vault(&mut s, d, None, (1, h - 2));
    s.light((door.0 / 2, h / 2), 40, 60);
    let mut party = vec![thief(d), fighter(d, &[Armour::Medium])];
    if d.chance(0.5) {
        party.push(mage(d));
    }
    d.shuffle(&mut party);
    party[0].with_torches(3);
    s.party(&party, &[(2, 2), (2, 3), (3, 2)]);
    s.goal(format!("Room(({}, {}))", vault.0, vault.1));
    s.describe("A vault behind a locked door whose key is lost; a thief with her picks.");
    let mut e = Expect::default();
    e.wants(
        "goal_reached",
        "(at_least: 0.9)",
        "the thief picks the lock, trying again as the turns allow",
    )
    .wants(
        &format!("door(({}, {}))", door.0, door.1),
        "(opened: (at_least: 0.9))",
        "the lock is picked",
    );
    Drawn {
        level: s.ron(),
        expect: e.ron(LOCKED_THIEF.about),
    }
}
