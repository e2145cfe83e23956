//! Caving and Spelunking (Dungeon Delves): squeezes.

use delve::command::acts::{Move, PushForward, WiggleBack};
use delve::grid::GridPos;
use delve::level::schema::ConditionKind;
use delve::rules::caving::{CavingEvent, CavingRefusal, Escape, StuckIn};
use delve::rules::conditions::Conditions;
use delve::rules::movement::Pace;
use delve::scenario::{Delve, Scenario};

/// A passage with a squeeze 10' long at (4, 1)–(5, 1), lit; Tam (5 stone, or 7.5) starts at
/// (2, 1) and is told to walk to (8, 1) at combat speed.
fn squeeze(tam: &str) -> Delve {
    let mut delve = Scenario::new(&["XXXXXXXXXX", "X...SS...X", "XXXXXXXXXX"])
        .legend("'S': Squeeze")
        .light("(at: (1, 1), kind: Custom(bright_feet: 60, dim_feet: 60), lit: true)")
        .faction(r#"(name: "party")"#)
        .creature(&format!(
            r#"(name: "Tam", faction: "party", at: (3, 1), hp: 8, ac: 12, str: 13,
                saves: {{ Paralysis: 12 }}{tam})"#
        ))
        .build();
    delve.give(Move {
        who: "Tam".into(),
        to: (8, 1),
        pace: Pace::Combat,
    });
    delve
}

fn squeezing(delve: &Delve) -> Vec<delve::dice::Throw> {
    delve
        .throws()
        .into_iter()
        .filter(|t| t.what == "Squeezing")
        .collect()
}

/// Dungeon Delves › Squeezing: the throw's target is the encumbrance in stone; failing, no
/// progress that round; succeeding, it moves on.
#[test]
fn squeezing_is_a_throw_against_the_encumbrance_in_stone() {
    let mut delve = squeeze(", encumbrance_stone: 5.0");
    delve.script_dice(&[4]);
    delve.run(1);
    let t = squeezing(&delve);
    assert_eq!((t[0].natural, t[0].target, t[0].success), (4, 5, false));
    assert_eq!(delve.at("Tam"), GridPos::new(3, 1), "no progress");
    assert!(
        delve
            .events::<CavingEvent>()
            .contains(&CavingEvent::SqueezeHeldBack {
                who: "Tam".into(),
                at: GridPos::new(3, 1)
            })
    );
    delve.script_dice(&[5]);
    delve.run(1);
    assert!(squeezing(&delve)[1].success);
    assert_ne!(delve.at("Tam"), GridPos::new(3, 1), "through it goes");
}

/// Dungeon Delves › Squeezing: Contortionism adds +4; 7.5 stone is a target of 8.
#[test]
fn contortionism_adds_four_to_squeezing() {
    let mut delve = squeeze(", encumbrance_stone: 7.5, proficiencies: [Contortionism]");
    delve.script_dice(&[4]);
    delve.run(1);
    let t = &squeezing(&delve)[0];
    assert_eq!(t.target, 8);
    assert!(
        t.modifiers
            .iter()
            .any(|m| m.source == "Contortionism" && m.value == 4)
    );
    assert!(t.success, "4 + 4 reaches 8");
}

/// Dungeon Delves › Squeezing: failing on an unmodified 1, it is stuck and vulnerable, and can
/// do nothing but try to escape; pushing forward is Dungeonbashing with the encumbrance as a
/// penalty, and each failed escape makes the next −4; wiggling back is a Paralysis save and
/// takes it 10' back, free.
#[test]
fn a_natural_1_leaves_it_stuck_until_it_escapes() {
    let mut delve = squeeze(", encumbrance_stone: 5.0");
    delve.script_dice(&[1]);
    delve.run(1);
    let conditions = delve.get::<Conditions>("Tam").unwrap();
    assert!(conditions.has(ConditionKind::Stuck) && conditions.has(ConditionKind::Vulnerable));
    delve.act(Move {
        who: "Tam".into(),
        to: (1, 1),
        pace: Pace::Combat,
    });
    assert!(delve.was_refused("Tam", &CavingRefusal::Stuck));
    // The window offers the two ways out with their chances: Paralysis 12 + 5 stone = 17+
    // (20%); Dungeonbashing 18 − 4 (Strength 13) + 5 = 19+ (10%).
    let tam = delve.entity("Tam");
    let offered: Vec<(String, Option<i32>, f32)> =
        delve::rules::caving::escape_choices(delve.world(), tam)
            .into_iter()
            .map(|c| (c.way, c.target, c.chance))
            .collect();
    assert_eq!(
        offered,
        vec![
            ("wiggle back 10'".into(), Some(17), 0.2),
            ("push forward 10'".into(), Some(19), 0.1)
        ]
    );

    // Strength 13 (+1 × 4), 5 stone: 18 − 4 + 5 = 19 to push forward; a 10 fails.
    delve.script_dice(&[10]);
    delve.act(PushForward { who: "Tam".into() });
    let push = delve.throws().pop().unwrap();
    assert_eq!(push.target, 18);
    let mods: Vec<(String, i32)> = push
        .modifiers
        .into_iter()
        .map(|m| (m.source, m.value))
        .collect();
    assert!(
        mods.contains(&("encumbrance 5 stone".into(), -5)),
        "{mods:?}"
    );
    assert!(
        mods.contains(&("Strength 13 (+1 x 4)".into(), 4)),
        "{mods:?}"
    );
    assert_eq!(delve.get::<StuckIn>("Tam").unwrap().failed_escapes, 1);

    // Paralysis 12: a 20 − 5 − 4 = 11 would fail; 20 with the natural 20's +10 does it.
    delve.script_dice(&[20]);
    delve.act(WiggleBack { who: "Tam".into() });
    let wiggle = delve.throws().pop().unwrap();
    assert!(
        wiggle
            .modifiers
            .iter()
            .any(|m| m.value == -4 && m.source.contains("failed escape"))
    );
    assert!(wiggle.success);
    let escaped = delve
        .events::<CavingEvent>()
        .into_iter()
        .find_map(|e| match e {
            CavingEvent::Escaped { way, from, to, .. } => Some((way, from, to)),
            _ => None,
        });
    let (way, from, to) = escaped.expect("escaped");
    assert_eq!(way, Escape::Back);
    assert_eq!(from.x - to.x, 2, "10' back");
    let conditions = delve.get::<Conditions>("Tam").unwrap();
    assert!(!conditions.has(ConditionKind::Stuck) && !conditions.has(ConditionKind::Vulnerable));
}
