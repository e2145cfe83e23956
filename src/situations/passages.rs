//! The way itself (Dungeon Delves › Squeezing, › Jumping and Leaping, › Light and Darkness): a
//! squeeze the heavy would stick in, a crack to jump, a way longer than the light.

use super::party::{Armour, Carried, Draw, fighter, mage, thief};
use super::sketch::{Expect, Sketch};
use super::{Drawn, Situation};

pub const SQUEEZE_OR_ROUND: Situation = Situation {
    name: "squeeze_or_round",
    about: "A squeeze on the short way that members in plate would likely stick in (its throw is \
            their encumbrance), and an open way round: the party goes round and no one is left \
            stuck.",
    draw: squeeze_or_round,
};

fn squeeze_or_round(d: &mut Draw) -> Drawn {
    let (w, h) = (d.int(24, 34), d.int(9, 13));
    let mut s = Sketch::new("The Narrows", w as usize, h as usize);
    s.legend('s', "Squeeze");
    let row = h / 2;
    s.room((1, row - 1), (4, row + 1));
    s.room((w - 5, row - 1), (w - 2, row + 1));
    s.passage((5, row), (w - 6, row));
    let (q0, len) = (d.int(8, w - 14), d.int(2, 4));
    s.fill((q0, row), (q0 + len - 1, row), 's');
    let far = if d.chance(0.5) { 1 } else { h - 2 };
    s.fill((2, far), (w - 3, far), '.');
    s.fill((2, far.min(row)), (2, far.max(row)), '.');
    s.fill((w - 3, far.min(row)), (w - 3, far.max(row)), '.');
    s.light((3, row), 30, 40);
    s.light((w - 4, row), 30, 40);
    let mut party = vec![fighter(d, &[Armour::Heavy]), fighter(d, &[Armour::Heavy])];
    party.push(if d.chance(0.5) { thief(d) } else { mage(d) });
    d.shuffle(&mut party);
    party[0].with_torches(3);
    s.party(&party, &[(1, row), (1, row - 1), (1, row + 1)]);
    let goal = (w - 3, row);
    s.goal(format!("Reach(({}, {}))", goal.0, goal.1));
    s.describe(&format!(
        "A squeeze {}' long on the short way, an open gallery round it; two in plate.",
        5 * len
    ));
    let mut e = Expect::default();
    e.wants(
        "goal_reached",
        "(at_least: 0.9)",
        "the way round is open and lit",
    );
    for m in party.iter().filter(|m| m.stone >= 5.0) {
        e.wants(
            &format!("member({:?})", m.name),
            "(abandoned: (at_most: 0.02))",
            &format!(
                "{} would throw {}+ each round in the squeeze: it goes round",
                m.name, m.stone
            ),
        );
    }
    Drawn {
        level: s.ron(),
        expect: e.ron(SQUEEZE_OR_ROUND.about),
    }
}

pub const CRACK_TO_JUMP: Situation = Situation {
    name: "crack_to_jump",
    about: "A crack 5' across a passage, deep, with room for a run-up on both sides; every member \
            clears 5' with a run-up: the party jumps it, one by one.",
    draw: crack_to_jump,
};

fn crack_to_jump(d: &mut Draw) -> Drawn {
    let (w, h) = (d.int(20, 30), d.int(5, 7));
    let mut s = Sketch::new("The Crack", w as usize, h as usize);
    let depth = 10 * d.int(2, 5);
    s.legend('C', &format!("Chasm(depth_feet: {depth})"));
    s.room((1, 1), (w - 2, h - 2));
    let at = d.int(8, w - 9);
    s.fill((at, 1), (at, h - 2), 'C');
    s.light((at, h / 2), 40, 60);
    let mut party = vec![fighter(d, &[Armour::Light, Armour::Medium]), thief(d)];
    if d.chance(0.5) {
        party.push(mage(d));
    }
    d.shuffle(&mut party);
    party[0].with_torches(3);
    s.party(&party, &[(2, 1), (2, 2), (1, 1)]);
    s.goal(format!("Reach(({}, {}))", w - 3, h / 2));
    s.describe(&format!(
        "A crack 5' across and {depth}' deep splits the hall from wall to wall."
    ));
    let mut e = Expect::default();
    e.wants(
        "goal_reached",
        "(at_least: 0.9)",
        "5' with a run-up is within every member's leap",
    )
    .wants(
        "party_dead",
        "(at_most: 0.02)",
        "no one jumps without the run-up",
    );
    Drawn {
        level: s.ron(),
        expect: e.ron(CRACK_TO_JUMP.about),
    }
}

pub const LIGHT_TOO_SHORT: Situation = Situation {
    name: "light_too_short",
    about: "A long winding passage to the goal and light for more than the way there but less \
            than there and back: the party turns back in time and is not lost in the dark.",
    draw: light_too_short,
};

fn light_too_short(d: &mut Draw) -> Drawn {
    let w = d.int(36, 56);
    let rows = d.int(2, 3);
    let h = 2 * rows + 1;
    let mut s = Sketch::new("The Long Dark", w as usize, h as usize);
    // A passage winding back and forth along `rows` rows.
    for r in 0..rows {
        let y = 1 + 2 * r;
        s.fill((1, y), (w - 2, y), '.');
        if r + 1 < rows {
            let x = if r % 2 == 0 { w - 2 } else { 1 };
            s.set((x, y + 1), '.');
        }
    }
    let last = 1 + 2 * (rows - 1);
    let goal = (if rows % 2 == 0 { 1 } else { w - 2 }, last);
    // The party walks at 90' a turn (the slowest of it carries 5½ to 6½ stone): the light lasts
    // some 1.4 times the way there.
    let one_way_feet = 5 * (rows * (w - 2) + rows - 1);
    let turns = (1.4 * f64::from(one_way_feet) / 90.0).round() as i32;
    let spares = (turns - 1) / 6;
    let burning = turns - 6 * spares;
    let mut party = vec![fighter(d, &[Armour::Medium]), thief(d)];
    d.shuffle(&mut party);
    party[0].carries.push(Carried {
        kind: "Torch",
        lit: true,
        fuel_turns: Some(burning),
    });
    for _ in 0..spares {
        party[0].carries.push(Carried {
            kind: "Torch",
            lit: false,
            fuel_turns: None,
        });
    }
    s.party(&party, &[(1, 1), (2, 1)]);
    s.goal(format!("Reach(({}, {}))", goal.0, goal.1));
    s.describe(&format!(
        "A passage winding {one_way_feet}' to the shrine, and {turns} turns of light."
    ));
    let mut e = Expect::default();
    e.wants(
        "out_of_light",
        "(at_least: 0.9)",
        "the light left would not last the way back: the party turns back",
    )
    .wants("party_dead", "(at_most: 0.02)", "it turns back in time");
    Drawn {
        level: s.ron(),
        expect: e.ron(LIGHT_TOO_SHORT.about),
    }
}
