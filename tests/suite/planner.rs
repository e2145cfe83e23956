//! The planner (`policy::party::plan`): every plan open to the party weighed by the rules' own
//! odds for the members who would carry it out, and the best taken — the whole party, or a part
//! sent ahead where only it can go. The numbers in the log are the rules' (Dungeon Delves ›
//! Swimming and Drowning: a Swimming throw each round afloat, a failure drowning; an ally not
//! drowning may grab the drowning and bring it up).

use delve_ground::grid::GridPos;
use delve_ground::log::EventLog;
use delve_minds::policy::outcome::Outcome;
use delve_minds::policy::party::plan::{Aim, Weighing};
use delve_minds::policy::party::{Intent, PolicyEvent};
use delve_rules::rules::water::WaterEvent;

/// A passage flooded over the head for three squares, the goal beyond, lit.
fn flooded(creatures: &[&str], order: &[&str]) -> String {
    let order: Vec<String> = order.iter().map(|n| format!("{n:?}")).collect();
    format!(
        r#"(
    name: "A Flooded Passage",
    description: "Three squares of water over the head between the way in and the goal.",
    scale_feet: 5,
    environment: Quiet,
    goal: Reach((7, 1)),
    legend: {{ 'X': Wall(Stone), '.': Floor, '~': Water(Deep) }},
    map: [
        "XXXXXXXXX",
        "X..~~~..X",
        "XXXXXXXXX",
    ],
    lights: [(at: (4, 1), kind: Custom(bright_feet: 60, dim_feet: 90), lit: true)],
    factions: [(name: "party", marching_order: [{}])],
    creatures: [{}],
)"#,
        order.join(", "),
        creatures.join(",\n")
    )
}

/// A mage of 1 stone who cannot swim: her Swimming throw's target is her encumbrance, 1+, and
/// only a natural 1 fails it — a careful party lets her swim.
const WREN: &str = r#"(name: "Wren", faction: "party", at: (1, 1), class: "mage", hp: 5, ac: 11, encumbrance_stone: 1.0, level: 1, saves: { Paralysis: 13, Death: 13, Blast: 15, Implements: 11, Spells: 12 }, weapons: [(name: "dagger", damage: "1d4", damage_type: Piercing)], carries: [(kind: Torch, lit: true)])"#;

/// A swimmer of 3 stone, proficient: +4 makes the throw 0+ or better, and she makes none.
const OTTER: &str = r#"(name: "Otter", faction: "party", at: (2, 1), class: "explorer", hp: 9, ac: 13, encumbrance_stone: 3.0, level: 2, saves: { Paralysis: 13, Death: 12, Blast: 14, Implements: 14, Spells: 15 }, weapons: [(name: "spear", damage: "1d8", damage_type: Piercing)], proficiencies: [Swimming], carries: [(kind: Torch, lit: false)])"#;

/// A fighter in plate, 7 stone: a throw of 7+ each round afloat.
const BRAM: &str = r#"(name: "Bram", faction: "party", at: (1, 1), class: "fighter", hp: 12, ac: 16, encumbrance_stone: 7.0, level: 2, str: 15, saves: { Paralysis: 14, Death: 13, Blast: 15, Implements: 16, Spells: 17 }, armor: Some((name: "plate armor", weight: Heavy, ac_bonus: 6)), weapons: [(name: "sword", damage: "1d8", damage_type: Slashing)], carries: [(kind: Torch, lit: true)])"#;

fn play(text: &str, seed: u64) -> bevy::prelude::App {
    crate::common::play_text(text, "flooded.ron", seed, 2000)
}

fn first_weighing(log: &EventLog) -> Weighing {
    log.of::<PolicyEvent>()
        .find_map(|e| match e {
            PolicyEvent::Weighed { chosen, .. } => Some(chosen.clone()),
            _ => None,
        })
        .expect("the planner weighed its plans")
}

fn outcome(log: &EventLog) -> Option<Outcome> {
    log.of::<PolicyEvent>().find_map(|e| match e {
        PolicyEvent::DelveEnded { outcome, .. } => Some(*outcome),
        _ => None,
    })
}

/// Alone, Wren swims the three squares there and back: six Swimming throws of 1+, each failed
/// only on a natural 1 (19 in 20 kept afloat), and with no one to grab her a failure is her
/// loss. The planner says so in the rules' numbers, and takes the plan (the goal outweighs
/// it).
#[test]
fn a_lone_swimmer_is_weighed_by_her_swimming_throws() {
    let app = play(&flooded(&[WREN], &["Wren"]), 1);
    let w = first_weighing(app.world().resource::<EventLog>());
    assert_eq!(
        w.aim,
        Aim::Goal {
            to: GridPos::new(7, 1)
        }
    );
    let through = 0.95f32.powi(6);
    assert!((w.chance - through).abs() < 1e-4, "{w:?}");
    assert!((w.lost - (1.0 - through)).abs() < 1e-4, "{w:?}");
}

/// With Otter, who swims without a throw, beside her, Wren's failures are no loss: Otter grabs
/// her and brings her up. The same chance of coming through untroubled; no chance of losing
/// one.
#[test]
fn a_companion_who_swims_makes_a_drowning_no_loss() {
    let app = play(&flooded(&[WREN, OTTER], &["Wren", "Otter"]), 1);
    let w = first_weighing(app.world().resource::<EventLog>());
    assert!(w.goers.is_empty(), "the whole party goes: {w:?}");
    assert!((w.chance - 0.95f32.powi(6)).abs() < 1e-4, "{w:?}");
    assert_eq!(w.lost, 0.0, "{w:?}");
}

/// Bram in plate would throw 7+ each round afloat: no way for the whole party. The planner sends
/// Otter alone for the goal — at no risk — and Bram stays ashore, in every delve.
#[test]
fn the_swimmer_goes_and_the_heavy_stay_ashore() {
    for seed in 1..=5 {
        let app = play(&flooded(&[BRAM, OTTER], &["Bram", "Otter"]), seed);
        let log = app.world().resource::<EventLog>();
        let w = first_weighing(log);
        assert_eq!(w.goers, ["Otter"], "seed {seed}: {w:?}");
        assert_eq!((w.chance, w.lost), (1.0, 0.0), "seed {seed}");
        assert!(
            log.of::<PolicyEvent>().any(|e| matches!(
                e,
                PolicyEvent::Decided { intent: Intent::SendAhead { who, wait, .. }, .. }
                    if who == &["Otter"] && wait == &["Bram"]
            )),
            "seed {seed}: Otter sent ahead, Bram waits"
        );
        assert!(
            !log.of::<WaterEvent>()
                .any(|e| format!("{e:?}").contains("Bram")),
            "seed {seed}: Bram never in the water"
        );
        assert_eq!(outcome(log), Some(Outcome::GoalReached), "seed {seed}");
    }
}
