//! Two situations in one level: a pack in the open beyond a narrow way, a frail member before
//! skeletons, a key beyond water, a guard before a shaft.

use super::party::{Armour, Draw, explorer, fighter, mage, thief};
use super::sketch::{Expect, Sketch};
use super::{Drawn, Situation};

pub const PACK_BEYOND_A_NARROW_WAY: Situation = Situation {
    name: "pack_beyond_a_narrow_way",
    about: "Eight to twelve giant rats in a lit cellar beyond the mouth of a one-wide passage: \
            in the open the pack surrounds the party, so it holds the passage, its sturdiest in \
            front, and meets them one at a time.",
    draw: pack_beyond_a_narrow_way,
};

fn pack_beyond_a_narrow_way(d: &mut Draw) -> Drawn {
    let (w, h) = (d.int(24, 32), d.int(9, 13));
    let mut s = Sketch::new("The Rat Cellar", w as usize, h as usize);
    let row = h / 2;
    s.room((1, row - 1), (3, row + 1));
    let mouth = d.int(8, 12);
    s.passage((4, row), (mouth, row));
    s.room((mouth + 1, 1), (w - 2, h - 2));
    s.light(((mouth + w) / 2, row), 40, 60);
    let rats = d.int(8, 12);
    s.faction("(name: \"rats\", hostile_to: [\"party\"])".into());
    for i in 0..rats {
        let at = (w - 3 - i % 4, 1 + 2 * (i / 4));
        s.creature(format!(
            "(name: \"Rat {}\", template: \"giant rat\", faction: \"rats\", at: ({}, {}))",
            i + 1,
            at.0,
            at.1
        ));
    }
    let mut party = vec![
        fighter(d, &[Armour::Medium, Armour::Heavy]),
        fighter(d, &[Armour::Medium]),
        thief(d),
    ];
    d.shuffle(&mut party);
    party[0].with_torches(3);
    s.party(&party, &[(2, row), (1, row), (2, row + 1)]);
    s.goal(format!("Reach(({}, {row}))", w - 2));
    s.describe(&format!(
        "{rats} giant rats in a lit cellar at the end of a one-wide passage."
    ));
    let mut e = Expect::default();
    e.wants(
        "goal_reached",
        "(at_least: 0.85)",
        "rats of 2 hit points met one at a time fall to the fighters",
    )
    .wants(
        "party_dead",
        "(at_most: 0.02)",
        "the passage lets only one rat at the front",
    );
    Drawn {
        level: s.ron(),
        expect: e.ron(PACK_BEYOND_A_NARROW_WAY.about),
    }
}

pub const FRAIL_BEFORE_SKELETONS: Situation = Situation {
    name: "frail_before_skeletons",
    about: "A mage of 3 to 4 hit points in a party that must cut through two to four \
            skeletons: the fighters take the front and the mage keeps out of reach.",
    draw: frail_before_skeletons,
};

fn frail_before_skeletons(d: &mut Draw) -> Drawn {
    let (w, h) = (d.int(20, 28), d.int(6, 9));
    let mut s = Sketch::new("The Bone Hall", w as usize, h as usize);
    s.room((1, 1), (w - 2, h - 2));
    s.light((w / 2, h / 2), 40, 60);
    let n = d.int(2, 4);
    s.faction("(name: \"the dead\", hostile_to: [\"party\"])".into());
    for i in 0..n {
        s.creature(format!(
            "(name: \"Skeleton {}\", template: \"skeleton\", faction: \"the dead\", \
             at: ({}, {}))",
            i + 1,
            w / 2 + 2,
            1 + i % (h - 2)
        ));
    }
    let mut wizard = mage(d);
    wizard.hp = d.int(3, 4);
    let mut party = vec![
        fighter(d, &[Armour::Medium, Armour::Heavy]),
        fighter(d, &[Armour::Medium]),
        wizard.clone(),
    ];
    d.shuffle(&mut party);
    party[0].with_torches(3);
    s.party(&party, &[(2, 1), (2, 2), (1, 1)]);
    s.goal(format!("Room(({}, {}))", w - 3, h / 2));
    s.describe(&format!(
        "{n} skeletons guard the hall; {} the mage has {} hit points.",
        wizard.name, wizard.hp
    ));
    let mut e = Expect::default();
    e.wants(
        "goal_reached",
        "(at_least: 0.9)",
        "two fighters fell skeletons of 4 hit points",
    )
    .wants(
        &format!("member({:?})", wizard.name),
        "(downed: (at_most: 0.15))",
        "the mage keeps behind the fighters, out of reach",
    );
    Drawn {
        level: s.ron(),
        expect: e.ron(FRAIL_BEFORE_SKELETONS.about),
    }
}

pub const KEY_BEYOND_WATER: Situation = Situation {
    name: "key_beyond_water",
    about: "The key to a locked vault lies with the bones of a drowned thief on the far side of \
            water over the head; one member swims without a throw, the others are heavy: the \
            swimmer fetches the key, and the party opens the door it left shut.",
    draw: key_beyond_water,
};

fn key_beyond_water(d: &mut Draw) -> Drawn {
    let (w, h) = (d.int(26, 34), d.int(11, 15));
    let mut s = Sketch::new("The Drowned Key", w as usize, h as usize);
    s.legend('~', "Water(Deep)");
    s.legend('+', "Door");
    // The hall on the left with the vault door in its top wall; the pool and the far shore
    // on the right.
    let split = d.int(12, w - 12);
    s.room((1, 3), (split - 1, h - 2));
    let door = (d.int(2, split - 2), 2);
    s.set(door, '+');
    s.room((1, 1), (split - 1, 1));
    s.add(
        "doors",
        format!(
            "(at: ({}, {}), material: IronBanded, lock: Locked(key: Some(\"vault key\")))",
            door.0, door.1
        ),
    );
    let wide = d.int(2, 4);
    s.fill((split, 3), (split + wide - 1, h - 2), '~');
    s.room((split + wide, 3), (w - 2, h - 2));
    s.light((split / 2, h / 2), 60, 90);
    s.light((split + wide + 1, h / 2), 30, 40);
    let bones = (w - 3, d.int(3, h - 2));
    s.faction("(name: \"the lost\")".into());
    s.creature(format!(
        "(name: \"Drowned Thief\", faction: \"the lost\", at: ({}, {}), hp: 5, ac: 12, \
         encumbrance_stone: 2.0, conditions: [Dead], gear: [Key(\"vault key\")])",
        bones.0, bones.1
    ));
    let mut party = vec![explorer(d, true), fighter(d, &[Armour::Heavy])];
    party.push(if d.chance(0.5) {
        fighter(d, &[Armour::Heavy])
    } else {
        mage(d)
    });
    d.shuffle(&mut party);
    party[0].with_torches(3);
    s.party(&party, &[(2, h - 2), (3, h - 2), (2, h - 3)]);
    s.goal(format!("Room(({}, 1))", door.0));
    let swimmer = party.iter().find(|m| m.swims_without_a_throw()).unwrap();
    s.describe(&format!(
        "The vault key lies with a drowned thief beyond {}' of deep water; {} swims.",
        5 * wide,
        swimmer.name
    ));
    let mut e = Expect::default();
    e.wants(
        "goal_reached",
        "(at_least: 0.8)",
        &format!(
            "{} swims for the key and the door is opened with it",
            swimmer.name
        ),
    )
    .wants(
        &format!("door(({}, {}))", door.0, door.1),
        "(opened: (at_least: 0.8))",
        "the door left shut is remembered when the key is in hand",
    );
    for m in party.iter().filter(|m| !m.swims_without_a_throw()) {
        e.wants(
            &format!("member({:?})", m.name),
            "(died: (at_most: 0.02))",
            "the heavy stay ashore",
        );
    }
    Drawn {
        level: s.ron(),
        expect: e.ron(KEY_BEYOND_WATER.about),
    }
}

pub const GUARD_BEFORE_A_SHAFT: Situation = Situation {
    name: "guard_before_a_shaft",
    about: "Two skeletons stand guard in the hall before a shaft, the only way down to the \
            relic; one or two of the party climb, and the climber carries a rope: the party fells \
            the guards, then goes down the rope it lowers and comes back.",
    draw: guard_before_a_shaft,
};

fn guard_before_a_shaft(d: &mut Draw) -> Drawn {
    let (w, h) = (d.int(24, 30), 9);
    let mut s = Sketch::new("The Guarded Well", w as usize, h);
    let depth = 10 * d.int(2, 4);
    s.legend('H', &format!("Chasm(depth_feet: {depth})"));
    // The hall reaches the shaft's north side; the room below leaves it by its south-east
    // corner (README › Levels: no floor straight across a shaft).
    s.room((1, 1), (w - 7, 4));
    let shaft = (w - 7, 5);
    s.set(shaft, 'H');
    s.add(
        "climbs",
        format!("(at: ({}, {}), surface: Sheer)", shaft.0, shaft.1),
    );
    s.room((w - 6, 6), (w - 2, 7));
    s.light((w / 2, 2), 40, 60);
    s.light((w - 4, 7), 20, 30);
    s.faction("(name: \"the dead\", hostile_to: [\"party\"])".into());
    for i in 0..2 {
        s.creature(format!(
            "(name: \"Guard {}\", template: \"skeleton\", faction: \"the dead\", at: ({}, {}))",
            i + 1,
            w - 9,
            3 + i
        ));
    }
    s.faction("(name: \"below\")".into());
    s.creature(format!(
        "(name: \"Fallen Knight\", faction: \"below\", at: ({}, 7), hp: 9, ac: 15, \
         encumbrance_stone: 6.0, conditions: [Dead], gear: [Key(\"relic\")])",
        w - 3
    ));
    // The climber carries a rope and hook: lowered, it makes the shaft an easy climb for all.
    let mut party = vec![explorer(d, false), fighter(d, &[Armour::Medium])];
    party[0].with_gear("Rope(50)").with_gear("GrapplingHook");
    party.push(if d.chance(0.5) {
        explorer(d, false)
    } else {
        fighter(d, &[Armour::Medium])
    });
    d.shuffle(&mut party);
    party[0].with_torches(3);
    s.party(&party, &[(2, 2), (2, 3), (1, 2)]);
    s.goal("Recover(Key(\"relic\"))".into());
    s.describe(&format!(
        "Two skeletons guard the hall before a {depth}' shaft; the relic lies with a fallen \
         knight below; a rope and hook are carried."
    ));
    let mut e = Expect::default();
    e.wants(
        "goal_reached",
        "(at_least: 0.75)",
        "the guards felled, the party goes down the rope and fetches the relic",
    )
    .wants(
        "party_dead",
        "(at_most: 0.05)",
        "two skeletons against three",
    );
    Drawn {
        level: s.ron(),
        expect: e.ron(GUARD_BEFORE_A_SHAFT.about),
    }
}
