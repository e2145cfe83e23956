//! How the party readies for a fight (Dungeon Delves › Marching and Mapping): the mapper puts
//! the map away while a foe is at hand, and takes it up again after.

use crate::autonomy::{hand_over, run_until};
use delve_ground::level::schema::ConditionKind;
use delve_ground::party_policy::PartyPolicy;
use delve_play::scenario::{Delve, Scenario};
use delve_rules::creature::Conditions;
use delve_rules::rules::combat::CombatEvent;

/// Hild and Oswin, who maps, in a lit cellar with a brute at its far end.
fn cellar() -> Delve {
    Scenario::new(&[
        "XXXXXXXXXXXX",
        "X..........X",
        "X..........X",
        "X..........X",
        "XXXXXXXXXXXX",
    ])
    .light("(at: (5, 2), kind: Custom(bright_feet: 80, dim_feet: 80), lit: true)")
    .faction(r#"(name: "party", marching_order: ["Hild", "Oswin"], mapper: "Oswin")"#)
    .faction(r#"(name: "brutes", hostile_to: ["party"])"#)
    .field("goal: Room((10, 1))")
    .creature(
        r#"(name: "Hild", faction: "party", at: (1, 1), hp: 30, ac: 17, str: 15,
            encumbrance_stone: 6.0, attack_bonus: 2,
            weapons: [(name: "spear", damage: "1d8", damage_type: Piercing)])"#,
    )
    .creature(
        r#"(name: "Oswin", faction: "party", at: (1, 2), hp: 20, ac: 11, encumbrance_stone: 2.0,
            weapons: [(name: "dagger", damage: "1d4", damage_type: Piercing)])"#,
    )
    .creature(
        r#"(name: "Brute", faction: "brutes", at: (10, 3), hp: 9, ac: 13, speed_feet: 90,
            str: 16, attack_bonus: 2,
            weapons: [(name: "club", damage: "1d6", damage_type: Bludgeoning)])"#,
    )
    .build()
}

fn mapping(delve: &Delve, who: &str) -> bool {
    delve
        .get::<Conditions>(who)
        .and_then(|c| c.get(ConditionKind::Vulnerable))
        .is_some_and(|v| v.source.starts_with("mapping"))
}

/// Dungeon Delves › Marching and Mapping: the mapper "must use both hands for mapping … and
/// suffers from the vulnerable condition". A careful party's mapper puts the map away as soon
/// as it sees the brute — no blow of the fight is struck at him as one vulnerable — and takes
/// it up again once the brute is down. With `stow_map_in_fights` off, he maps through it.
#[test]
fn the_mapper_puts_the_map_away_for_a_fight() {
    let mut delve = cellar();
    hand_over(&mut delve, PartyPolicy::default());
    assert!(mapping(&delve, "Oswin"));
    assert!(run_until(&mut delve, 3, |d| !mapping(d, "Oswin")));
    let brute_down = |d: &Delve| {
        d.get::<Conditions>("Brute")
            .is_some_and(delve_rules::rules::conditions::is_down)
    };
    assert!(
        run_until(&mut delve, 30, brute_down),
        "{}",
        delve.log().to_text()
    );
    let vulnerable_blows = delve
        .events::<CombatEvent>()
        .iter()
        .filter(|e| {
            matches!(e, CombatEvent::Attacked { target, throw, .. }
                if target == "Oswin"
                    && throw.modifiers.iter().any(|m| m.source == "Oswin vulnerable"))
        })
        .count();
    assert_eq!(vulnerable_blows, 0, "{}", delve.log().to_text());
    assert!(
        run_until(&mut delve, 5, |d| mapping(d, "Oswin")),
        "the map taken up again: {}",
        delve.log().to_text()
    );

    let mut delve = cellar();
    hand_over(
        &mut delve,
        PartyPolicy {
            stow_map_in_fights: false,
            ..PartyPolicy::default()
        },
    );
    delve.run(3);
    assert!(mapping(&delve, "Oswin"));
}
