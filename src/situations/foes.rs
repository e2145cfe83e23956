//! Foes: one the party cannot beat, and many behind a door at the end of a narrow way.

use super::party::{Armour, Draw, fighter, mage, thief};
use super::sketch::{Expect, Sketch};
use super::{Drawn, Situation};

pub const TOO_STRONG_ON_PATROL: Situation = Situation {
    name: "too_strong_on_patrol",
    about: "An ogre no party of this strength can fell walks a loop of passages between the way \
            in and the goal, past a door by the way in: the party keeps out of its way — behind \
            the door, or back — and slips by when it has passed, or gives up; it does not fight \
            it.",
    draw: too_strong_on_patrol,
};

fn too_strong_on_patrol(d: &mut Draw) -> Drawn {
    let (w, h) = (d.int(28, 36), d.int(13, 17));
    let mut s = Sketch::new("The Ogre's Round", w as usize, h as usize);
    s.legend('+', "Door");
    // The entry room at the left, a door out of it, then a ring of passages round a block of
    // rock, and the goal room at the right.
    let (x0, x1) = (8, w - 9);
    let (y0, y1) = (2, h - 3);
    s.room((1, h / 2 - 1), (4, h / 2 + 1));
    s.passage((5, h / 2), (x0 - 1, h / 2));
    let door = (6, h / 2);
    s.set(door, '+');
    s.add(
        "doors",
        format!("(at: ({}, {}), material: Wooden)", door.0, door.1),
    );
    s.fill((x0, y0), (x1, y0), '.');
    s.fill((x0, y1), (x1, y1), '.');
    s.fill((x0, y0), (x0, y1), '.');
    s.fill((x1, y0), (x1, y1), '.');
    s.passage((x1 + 1, h / 2), (w - 6, h / 2));
    s.room((w - 5, h / 2 - 2), (w - 2, h / 2 + 2));
    let goal = (w - 3, h / 2);
    s.light(goal, 20, 30);
    let clockwise = d.chance(0.5);
    let mut route = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)];
    if !clockwise {
        route.reverse();
    }
    let start = d.int(0, 3) as usize;
    route.rotate_left(start);
    let at = route[0];
    let points: Vec<String> = route.iter().map(|(x, y)| format!("({x}, {y})")).collect();
    s.faction("(name: \"ogre\", hostile_to: [\"party\"])".into());
    let hp = d.int(35, 50);
    s.creature(format!(
        "(name: \"Ogre\", faction: \"ogre\", at: ({}, {}), hp: {hp}, ac: 15, speed_feet: 90, \
         level: 4, attack_bonus: {}, size: Large, str: 18, lightless_vision_feet: 60, \
         saves: {{ Paralysis: 11, Death: 10, Blast: 12, Implements: 11, Spells: 13 }}, \
         weapons: [(name: \"club\", damage: \"2d6\", damage_type: Bludgeoning)], \
         patrol: [{}])",
        at.0,
        at.1,
        d.int(4, 6),
        points.join(", ")
    ));
    let mut party = vec![
        fighter(d, &[Armour::Medium]),
        if d.chance(0.5) { thief(d) } else { mage(d) },
        mage(d),
    ];
    d.shuffle(&mut party);
    party[0].with_torches(3);
    s.party(&party, &[(2, h / 2), (2, h / 2 - 1), (3, h / 2 + 1)]);
    s.goal(format!("Reach(({}, {}))", goal.0, goal.1));
    s.describe(&format!(
        "An ogre of {hp} hit points walks a ring of passages between the way in and the shrine; \
         three light adventurers."
    ));
    let mut e = Expect::default();
    e.wants(
        "party_dead",
        "(at_most: 0.1)",
        "the party does not stand and fight what it cannot fell",
    )
    .wants(
        "foe(\"Ogre\")",
        "(felled: (at_most: 0.05))",
        "no party of this strength fells the ogre",
    );
    e.none_abandoned(&party);
    Drawn {
        level: s.ron(),
        expect: e.ron(TOO_STRONG_ON_PATROL.about),
    }
}

pub const GOBLINS_BEHIND_A_DOOR: Situation = Situation {
    name: "goblins_behind_a_door",
    about: "A one-wide passage ends in a door; beyond it, goblins in a guardroom between the \
            party and the goal: the party fights them where one comes at a time, pulls back a \
            wounded member, and brings everyone out.",
    draw: goblins_behind_a_door,
};

fn goblins_behind_a_door(d: &mut Draw) -> Drawn {
    let (w, h) = (d.int(26, 34), d.int(9, 13));
    let mut s = Sketch::new("The Goblins' Door", w as usize, h as usize);
    s.legend('+', "Door");
    s.room((1, h / 2 - 1), (4, h / 2 + 1));
    let length = d.int(6, 12.min(w - 16));
    let door = (5 + length, h / 2);
    s.passage((5, h / 2), (door.0 - 1, h / 2));
    s.set(door, '+');
    s.add(
        "doors",
        format!("(at: ({}, {}), material: Wooden)", door.0, door.1),
    );
    let room_x1 = (door.0 + 8).min(w - 8);
    s.room((door.0 + 1, 1), (room_x1, h - 2));
    s.passage((room_x1 + 1, h / 2), (w - 5, h / 2));
    s.room((w - 4, h / 2 - 1), (w - 2, h / 2 + 1));
    s.light(((door.0 + room_x1) / 2, h / 2), 30, 40);
    let goal = (w - 3, h / 2);
    s.faction("(name: \"goblins\", hostile_to: [\"party\"])".into());
    let n = d.int(3, 6);
    for i in 0..n {
        let at = (room_x1 - (i % 3), 2 + (i / 3) * 2);
        s.creature(format!(
            "(name: \"Goblin {}\", template: \"goblin\", faction: \"goblins\", at: ({}, {}))",
            i + 1,
            at.0,
            at.1
        ));
    }
    let mut party = vec![
        fighter(d, &[Armour::Medium]),
        fighter(d, &[Armour::Medium, Armour::Heavy]),
        if d.chance(0.5) { thief(d) } else { mage(d) },
    ];
    d.shuffle(&mut party);
    party[0].with_torches(3);
    s.party(&party, &[(2, h / 2), (2, h / 2 - 1), (3, h / 2 + 1)]);
    s.goal(format!("Reach(({}, {}))", goal.0, goal.1));
    s.describe(&format!(
        "A one-wide passage ends at a door; {n} goblins keep the lit guardroom beyond it, on the \
         way to the shrine."
    ));
    let mut e = Expect::default();
    e.wants(
        "goal_reached",
        "(at_least: 0.7)",
        "goblins of 3 hit points, met one or two at a time, fall to two fighters",
    )
    .wants(
        "party_dead",
        "(at_most: 0.05)",
        "a careful party pulls back before it is lost",
    );
    e.none_abandoned(&party);
    Drawn {
        level: s.ron(),
        expect: e.ron(GOBLINS_BEHIND_A_DOOR.about),
    }
}
