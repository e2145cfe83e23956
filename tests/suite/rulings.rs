//! The rulings that reach across rule areas: the situational penalties on every check they
//! name (RULINGS › Movement penalties), the Judge's modifiers (RULINGS, first section), and the
//! chances offered counted as the throw is (issue: chances shown).

use delve_ground::dice::Throw;
use delve_ground::level::schema::JudgeModifier;
use delve_play::scenario::{Delve, Scenario};
use delve_rules::command::acts::{
    Attack, Bash, DisarmTrap, Hide, Listen, Move, PickLock, SearchHastily, SetJudgeModifier, Sneak,
};
use delve_rules::rules::combat::CombatEvent;
use delve_rules::rules::judge::{JudgeRefusal, JudgeScope};
use delve_rules::rules::movement::Pace;

/// The modifiers of the last throw whose description starts with `what`, as (source, value).
fn mods_of(delve: &Delve, what: &str) -> Vec<(String, i32)> {
    let t: Throw = delve
        .throws()
        .into_iter()
        .rev()
        .find(|t| t.what.starts_with(what))
        .unwrap_or_else(|| panic!("no {what} throw in\n{}", delve.log().to_text()));
    t.modifiers
        .into_iter()
        .map(|m| (m.source, m.value))
        .collect()
}

/// A thief, prone in knee-deep water at (3, 1), with a locked door east of it at (4, 1), a stuck
/// door south-east at (4, 2), a trap in plain sight south-west at (2, 2) and a hidden one west
/// at (2, 1), by torchlight.
fn prone_thief_in_water(extra: &str) -> Scenario {
    Scenario::new(&["XXXXXXX", "X..~+.X", "X...+.X", "XXXXXXX"])
        .legend("'~': Water(Knee)")
        .legend("'+': Door")
        .door(&format!("(at: (4, 1), lock: Locked(key: None){extra})"))
        .door("(at: (4, 2), stuck: true)")
        .trap(
            r#"(at: (2, 2), kind: Custom(name: "needle", damage: "1d4",
                save: Some((throw: Paralysis, on_success: Half))), trigger: Touch, hidden: false)"#,
        )
        .trap("(at: (2, 1), kind: Pit(depth_feet: 10), trigger: Step, hidden: true)")
        .faction(r#"(name: "party")"#)
        .creature(
            r#"(name: "Sera", faction: "party", at: (3, 1), class: "thief", level: 3, hp: 9,
                ac: 12, encumbrance_stone: 2.0, conditions: [Prone],
                proficiencies: [Lockpicking, Searching, Trapbreaking, Hiding, Listening],
                throws: { Lockpicking: 14, Searching: 14, Trapbreaking: 14, Hiding: 14, Listening: 14 },
                saves: { Paralysis: 13 },
                gear: [ThievesTools], carries: [(kind: Torch, lit: true)])"#,
        )
}

/// RULINGS › Movement penalties: prone (−4) and water (knee-deep −2) reach Dungeonbashing,
/// Lockpicking, Searching, Listening, Trapbreaking and Hiding, each named in the breakdown;
/// saving throws are resistance checks and take none of them.
#[test]
fn situational_penalties_reach_every_check_they_name() {
    let mut delve = prone_thief_in_water("").build();
    let situation = [
        ("prone".to_owned(), -4),
        ("in water up to the knees".to_owned(), -2),
    ];
    let has_situation = |mods: &[(String, i32)]| situation.iter().all(|s| mods.contains(s));
    delve.act(Bash {
        who: "Sera".into(),
        at: (4, 2),
        helper: None,
    });
    assert!(has_situation(&mods_of(&delve, "Dungeonbashing")));
    delve.act(PickLock {
        who: "Sera".into(),
        at: (4, 1),
    });
    assert!(has_situation(&mods_of(&delve, "Lockpicking")));
    delve.act(SearchHastily { who: "Sera".into() });
    assert!(has_situation(&mods_of(&delve, "Searching")));
    delve.act(Listen { who: "Sera".into() });
    assert!(has_situation(&mods_of(&delve, "Listening")));
    delve.act(Hide { who: "Sera".into() });
    assert!(has_situation(&mods_of(&delve, "Hiding")));
    // A natural 2 fails the hasty disarm and sets the needle off: 1d4, then the save.
    delve.script_dice(&[2, 3, 10]);
    delve.act(DisarmTrap {
        who: "Sera".into(),
        at: (2, 2),
        discharge: false,
    });
    assert!(has_situation(&mods_of(&delve, "Trapbreaking")));
    let save = mods_of(&delve, "Paralysis save");
    assert!(
        save.iter()
            .all(|(source, _)| !situation.iter().any(|s| &s.0 == source)),
        "a save takes no situational penalty: {save:?}"
    );
}

/// RULINGS › Movement penalties: Sneaking takes them too (knee-deep water, −2).
#[test]
fn sneaking_takes_the_water_penalty() {
    let mut delve = Scenario::new(&["XXXXXXXX", "X~~~~~~X", "XXXXXXXX"])
        .legend("'~': Water(Knee)")
        .field("judge_regions: [(from: (1, 1), to: (6, 1), modifiers: { RoughWater: -4 })]")
        .light("(at: (3, 1), kind: Custom(bright_feet: 60, dim_feet: 60), lit: true)")
        .faction(r#"(name: "party")"#)
        .creature(
            r#"(name: "Wren", faction: "party", at: (1, 1), hp: 6, ac: 12,
                encumbrance_stone: 2.0, proficiencies: [Sneaking], throws: { Sneaking: 14 })"#,
        )
        .build();
    delve.act(Sneak {
        who: "Wren".into(),
        on: true,
    });
    delve.act(Move {
        who: "Wren".into(),
        to: (6, 1),
        pace: Pace::Exploration,
    });
    let sneaking = mods_of(&delve, "Sneaking");
    assert!(sneaking.contains(&("in water up to the knees".into(), -2)));
    assert!(
        sneaking.contains(&("Judge: cold, rough or fast water".into(), -4)),
        "{sneaking:?}"
    );
}

/// Situational Penalties › Water: "Footing is muddy … −2" on every check but resistance and
/// Intelligence checks, where the Judge makes the footing muddy (`MuddyFooting`): Wren sneaking
/// through the mud takes it; on dry ground beyond the region, none.
#[test]
fn muddy_footing_is_a_penalty_where_the_judge_says_so() {
    let sneak = |from: (i32, i32)| {
        let mut delve = Scenario::new(&["XXXXXXXXXX", "X........X", "XXXXXXXXXX"])
            .field("judge_regions: [(from: (1, 1), to: (4, 1), modifiers: { MuddyFooting: -2 })]")
            .light("(at: (4, 1), kind: Custom(bright_feet: 60, dim_feet: 60), lit: true)")
            .faction(r#"(name: "party")"#)
            .creature(&format!(
                r#"(name: "Wren", faction: "party", at: ({}, {}), hp: 6, ac: 12,
                    encumbrance_stone: 2.0, proficiencies: [Sneaking], throws: {{ Sneaking: 14 }})"#,
                from.0, from.1
            ))
            .build();
        delve.act(Sneak {
            who: "Wren".into(),
            on: true,
        });
        delve.act(Move {
            who: "Wren".into(),
            to: (from.0 + 1, from.1),
            pace: Pace::Exploration,
        });
        mods_of(&delve, "Sneaking")
    };
    let muddy = sneak((1, 1));
    assert!(
        muddy.contains(&("Judge: muddy footing".into(), -2)),
        "{muddy:?}"
    );
    let dry = sneak((6, 1));
    assert!(
        !dry.iter().any(|(s, _)| s == "Judge: muddy footing"),
        "{dry:?}"
    );
}

/// RULINGS › Light and vision, › Vision in the situational penalties: a check that needs sight
/// of its square takes the poor vision of that square, or blindness, whichever is worse: a lock
/// picked in the dark by one who sees nothing (blinded), −6, not also the dark's −4.
#[test]
fn lockpicking_in_the_dark_takes_the_poor_vision_penalty() {
    let mut delve = Scenario::new(&["XXXXX", "X..+X", "XXXXX"])
        .legend("'+': Door")
        .door("(at: (3, 1), lock: Locked(key: None))")
        .faction(r#"(name: "party")"#)
        .creature(
            r#"(name: "Sera", faction: "party", at: (2, 1), hp: 9, ac: 12,
                encumbrance_stone: 2.0, proficiencies: [Lockpicking],
                throws: { Lockpicking: 14 }, gear: [ThievesTools])"#,
        )
        .build();
    delve.act(PickLock {
        who: "Sera".into(),
        at: (3, 1),
    });
    let sight: Vec<(String, i32)> = mods_of(&delve, "Lockpicking");
    assert_eq!(sight, vec![("blinded".to_owned(), -6)]);
}

/// RULINGS, first section: what the rules leave to the Judge is a named modifier, set for the
/// level and overridden for a door; a command sets it for a trap or a creature. Each is named
/// in the throw's breakdown.
#[test]
fn judge_modifiers_are_named_and_the_most_particular_wins() {
    let mut delve = prone_thief_in_water(", judge: { LockComplexity: -4 }")
        .field("judge: (modifiers: { LockComplexity: -2, UnusualDoor: -3 })")
        .build();
    delve.act(PickLock {
        who: "Sera".into(),
        at: (4, 1),
    });
    let pick = mods_of(&delve, "Lockpicking");
    assert!(
        pick.contains(&("Judge: lock complexity".into(), -4)),
        "{pick:?}"
    );
    assert!(!pick.contains(&("Judge: lock complexity".into(), -2)));
    delve.act(Bash {
        who: "Sera".into(),
        at: (4, 2),
        helper: None,
    });
    assert!(mods_of(&delve, "Dungeonbashing").contains(&("Judge: unusual door".into(), -3)));

    for (modifier, value, on) in [
        (
            JudgeModifier::TrapComplexity,
            -2,
            JudgeScope::Trap { at: (2, 2) },
        ),
        (
            JudgeModifier::SearchTools,
            2,
            JudgeScope::Creature {
                name: "Sera".into(),
            },
        ),
        (
            JudgeModifier::Concealment,
            -4,
            JudgeScope::Trap { at: (2, 1) },
        ),
    ] {
        delve.act(SetJudgeModifier {
            modifier,
            value,
            on,
        });
    }
    delve.act(SearchHastily { who: "Sera".into() });
    let search = mods_of(&delve, "Searching");
    assert!(
        search.contains(&("Judge: search tools".into(), 2)),
        "{search:?}"
    );
    assert!(
        search.contains(&("Judge: concealment".into(), -4)),
        "{search:?}"
    );
    delve.act(DisarmTrap {
        who: "Sera".into(),
        at: (2, 2),
        discharge: false,
    });
    assert!(mods_of(&delve, "Trapbreaking").contains(&("Judge: trap complexity".into(), -2)));

    delve.act(SetJudgeModifier {
        modifier: JudgeModifier::LockComplexity,
        value: 1,
        on: JudgeScope::Door { at: (5, 1) },
    });
    assert!(delve.was_refused(
        "the Judge",
        &JudgeRefusal::Nothing {
            what: "door",
            at: delve_ground::grid::GridPos::new(5, 1)
        }
    ));
}

/// RULINGS › Light and vision: fog and crowds are the Judge's modifiers for the squares they
/// fill; Conditions …: the vulnerable's +2 is the Judge's too, and may be changed.
#[test]
fn fog_and_the_vulnerable_bonus_are_the_judges() {
    let mut delve = Scenario::lit_corridor(6)
        .field("judge_regions: [(from: (3, 1), to: (6, 1), modifiers: { FogAndCrowds: -2 })]")
        .field("judge: (modifiers: { Vulnerable: 3 })")
        .creature(
            r#"(name: "Brannoc", faction: "party", at: (2, 1), hp: 20, ac: 16,
                encumbrance_stone: 2.0, attack_bonus: 3,
                weapons: [(name: "sword", damage: "1d8", damage_type: Slashing)])"#,
        )
        .creature(
            r#"(name: "Gnawbone", faction: "ghouls", at: (3, 1), hp: 20, ac: 13, speed_feet: 90,
                conditions: [Vulnerable])"#,
        )
        .build();
    delve.act(Attack {
        who: "Brannoc".into(),
        target: "Gnawbone".into(),
        weapon: None,
    });
    // The battle begins; the attack comes in the party's initiative.
    delve.run(1);
    let attack: Vec<(String, i32)> = delve
        .events::<CombatEvent>()
        .into_iter()
        .find_map(|e| match e {
            CombatEvent::Attacked { throw, .. } => Some(throw),
            _ => None,
        })
        .expect("an attack")
        .modifiers
        .into_iter()
        .map(|m| (m.source, m.value))
        .collect();
    assert!(
        attack.contains(&("Judge: fog and crowds".into(), -2)),
        "{attack:?}"
    );
    assert!(
        attack.contains(&("Gnawbone vulnerable".into(), 3)),
        "{attack:?}"
    );
}

/// The chances offered count what the throw counts: bloodied (−2) and the natural 20's +10
/// with the tactical rules, neither without them.
#[test]
fn chances_shown_count_the_natural_20_and_bloodied() {
    let door = |bloodied: bool, tactical: bool| {
        let mut s = Scenario::new(&["XXXXX", "X..+X", "XXXXX"])
            .legend("'+': Door")
            .door("(at: (3, 1), stuck: true)")
            .light("(at: (1, 1), kind: Torch, lit: true)")
            .faction(r#"(name: "party")"#)
            .creature(&format!(
                r#"(name: "Ada", faction: "party", at: (2, 1), hp: 6, ac: 10,
                    encumbrance_stone: 2.0, conditions: [{}])"#,
                if bloodied { "Bloodied" } else { "" }
            ));
        if !tactical {
            s = s.field("modules: (combat: false)");
        }
        let mut delve = s.build();
        let at = delve_ground::grid::GridPos::new(3, 1);
        let ways = delve::query::door(delve.world_mut(), at, "Ada")
            .unwrap()
            .ways;
        (ways[0].target, ways[0].chance)
    };
    // Strength 10 bashes on 18+: 18, 19, 20 succeed, 15%.
    assert_eq!(door(false, true), (Some(18), 0.15));
    // Bloodied, 20+ is needed; only the natural 20 (+10) makes it: 5%.
    assert_eq!(door(true, true), (Some(20), 0.05));
    // Without the tactical rules bloodied costs nothing.
    assert_eq!(door(true, false), (Some(18), 0.15));
}
