//! Which way, and with whom: a dying companion far from the way out, a short way through a
//! lair beside a long safe one.

use super::party::{Armour, Draw, fighter, mage, thief};
use super::sketch::{Expect, Sketch};
use super::{Drawn, Situation};

pub const DYING_FAR_FROM_THE_WAY_OUT: Situation = Situation {
    name: "dying_far_from_the_way_out",
    about: "The party starts deep in the level, far from the way out, with a companion dying \
            beside it and ghouls astir further in: the party carries the dying one (two bearers \
            if one cannot) to the level's way out — not to where it started — and leaves \
            together.",
    draw: dying_far_from_the_way_out,
};

fn dying_far_from_the_way_out(d: &mut Draw) -> Drawn {
    let (w, h) = (d.int(34, 44), d.int(9, 13));
    let mut s = Sketch::new("The Long Way Back", w as usize, h as usize);
    // The way out at the left end of a long gallery; the party's chamber at its right end;
    // the ghouls' den beyond a bend further right.
    let row = h / 2;
    s.room((1, row - 1), (3, row + 1));
    s.passage((4, row), (w - 14, row));
    let camp = w - 13;
    s.room((camp, 1), (camp + 4, h - 2));
    s.passage((camp + 5, 2), (w - 5, 2));
    s.room((w - 4, 1), (w - 2, h - 2));
    s.light((camp + 2, row), 30, 40);
    let ghouls = d.int(1, 2);
    s.faction("(name: \"ghouls\", hostile_to: [\"party\"])".into());
    for i in 0..ghouls {
        s.creature(format!(
            "(name: \"Ghoul {}\", template: \"ghoul\", faction: \"ghouls\", at: ({}, {}), \
             mind: (stance: Wander(30)))",
            i + 1,
            w - 3,
            h - 3 - i
        ));
    }
    let mut party = vec![
        fighter(d, &[Armour::Medium]),
        fighter(d, &[Armour::Medium, Armour::Light]),
        if d.chance(0.5) { thief(d) } else { mage(d) },
    ];
    d.shuffle(&mut party);
    let dying = d.int(0, 2) as usize;
    party[dying].conditions.push("Dying");
    let bearer = (dying + 1) % party.len();
    party[bearer].with_torches(3);
    s.party(
        &party,
        &[(camp + 1, row), (camp + 2, row), (camp + 1, row + 1)],
    );
    s.goal(format!("Exit((1, {row}))"));
    s.describe(&format!(
        "{} lies dying in the party's camp, {}' from the way out; ghouls wander the den beyond.",
        party[dying].name,
        5 * (camp - 1)
    ));
    let mut e = Expect::default();
    e.wants(
        "goal_reached",
        "(at_least: 0.7)",
        "the way out is a straight walk back, the dying one carried",
    )
    .wants(
        &format!("member({:?})", party[dying].name),
        "(abandoned: (at_most: 0.1))",
        "the dying one is carried out, by two if one cannot bear it",
    )
    .wants(
        "party_dead",
        "(at_most: 0.1)",
        "the party leaves before the ghouls come",
    );
    Drawn {
        level: s.ron(),
        expect: e.ron(DYING_FAR_FROM_THE_WAY_OUT.about),
    }
}

pub const LAIR_ON_THE_SHORT_WAY: Situation = Situation {
    name: "lair_on_the_short_way",
    about: "Two ways to the shrine: a short one through a lit chamber where a cave bear the \
            party cannot beat keeps its lair, and a longer, safe one: the party takes the long \
            way and never fights the bear.",
    draw: lair_on_the_short_way,
};

fn lair_on_the_short_way(d: &mut Draw) -> Drawn {
    let (w, h) = (d.int(28, 38), d.int(11, 15));
    let mut s = Sketch::new("The Bear's Short Cut", w as usize, h as usize);
    s.legend('+', "Door");
    let row = h / 2 + d.int(0, 1);
    // The short way along `row`, through the lair; the long way round along row 1 (or the
    // bottom row), down the outer columns.
    let far = if d.chance(0.5) { 1 } else { h - 2 };
    s.fill((1, far), (w - 2, far), '.');
    s.fill((1, far.min(row)), (1, far.max(row)), '.');
    s.fill((w - 2, far.min(row)), (w - 2, far.max(row)), '.');
    let (l0, l1) = (d.int(9, w / 2 - 2), d.int(w / 2 + 2, w - 9));
    s.passage((2, row), (w - 3, row));
    s.room((l0, row - 1), (l1, row + 1));
    // Keep the lair's room off the long way.
    for x in [l0 - 1, l1 + 1] {
        s.set((x, row), '+');
        s.add(
            "doors",
            format!("(at: ({x}, {row}), material: Wooden, state: Open)"),
        );
    }
    s.light(((l0 + l1) / 2, row), 30, 40);
    s.faction("(name: \"bear\", hostile_to: [\"party\"])".into());
    s.creature(format!(
        "(name: \"Old Mauler\", template: \"cave bear\", faction: \"bear\", at: ({}, {row}))",
        (l0 + l1) / 2
    ));
    let mut party = vec![fighter(d, &[Armour::Medium]), thief(d), mage(d)];
    d.shuffle(&mut party);
    party[0].with_torches(3);
    s.party(&party, &[(2, row), (1, row), (3, row)]);
    let goal = (w - 3, row);
    s.goal(format!("Reach(({}, {}))", goal.0, goal.1));
    s.describe(
        "A short passage through a bear's lit lair, its doors standing open, and a long, safe \
         gallery round it.",
    );
    let mut e = Expect::default();
    e.wants(
        "goal_reached",
        "(at_least: 0.8)",
        "the long way is safe and the light lasts",
    )
    .wants(
        "foe(\"Old Mauler\")",
        "(fought: (at_most: 0.1))",
        "a bear of 31 hit points is not to be fought by three of the first levels",
    )
    .wants("party_dead", "(at_most: 0.05)", "the bear is never met");
    Drawn {
        level: s.ron(),
        expect: e.ron(LAIR_ON_THE_SHORT_WAY.about),
    }
}
