//! Judging a fight before it starts (RULINGS › Knowledge: a foe seen is judged by its kind's
//! entry): the gym's bear on the short way (`levels/gym/lair.ron`).

use delve_ground::log::EventLog;
use delve_minds::policy::party::PolicyEvent;
use delve_rules::rules::combat::CombatEvent;

/// Three first-level adventurers see Old Mauler, a cave bear (31 hp, AC 13, +5, bite 2d6), in
/// its lit chamber on the short way. Their blows: the fighter +1 with a 1d8 spear hits AC 13 on
/// 12+ (45% × 4.5), the thief and the mage on 13+ (40% × 3.5 and 40% × 2.5): 4.425 a round, so
/// 7.0 rounds to fell it; its bite hits AC 16, 13 and 11 on 11+, 8+ and 6+ (50%, 65%, 75% × 7 —
/// 4.433 a round on the average member): 31 hit points of wounds meanwhile, of their 18. Too
/// strong: the party keeps clear, strikes no blow and takes none, and reaches the shrine by the
/// long gallery.
#[test]
fn a_bear_too_strong_for_the_party_is_judged_and_kept_clear_of() {
    let level = delve_ground::level::load_level_file(std::path::Path::new("levels/gym/lair.ron"))
        .unwrap()
        .level;
    for seed in 1..=3 {
        let app = delve_play::sim::play_autonomous(
            &level,
            seed,
            &delve_ground::party_policy::PartyPolicy::default(),
            &[],
            600,
        );
        let log = app.world().resource::<EventLog>();
        let judged: Vec<&PolicyEvent> = log
            .of::<PolicyEvent>()
            .filter(|e| matches!(e, PolicyEvent::Judged { .. }))
            .collect();
        let Some(PolicyEvent::Judged {
            foe,
            rounds_to_fell,
            wounds_expected,
            party_hit_points,
            too_strong,
            ..
        }) = judged.first()
        else {
            panic!("seed {seed}: no judgement\n{}", log.to_text());
        };
        assert_eq!(foe, "Old Mauler");
        let (party_blows, its_blows) = (
            0.45 * 4.5 + 0.4 * 3.5 + 0.4 * 2.5,
            (3.5 + 4.55 + 5.25) / 3.0,
        );
        assert!(
            (rounds_to_fell - 31.0 / party_blows).abs() < 0.001,
            "{rounds_to_fell}"
        );
        assert!(
            (wounds_expected - 31.0 / party_blows * its_blows).abs() < 0.01,
            "{wounds_expected}"
        );
        assert_eq!((*party_hit_points, *too_strong), (18.0, true));
        assert!(
            !log.of::<CombatEvent>()
                .any(|e| matches!(e, CombatEvent::Attacked { .. })),
            "seed {seed}: a blow was struck\n{}",
            log.to_text()
        );
        let ended = log.of::<PolicyEvent>().find_map(|e| match e {
            PolicyEvent::DelveEnded { outcome, .. } => Some(*outcome),
            _ => None,
        });
        assert_eq!(
            ended,
            Some(delve_minds::policy::outcome::Outcome::GoalReached),
            "seed {seed}"
        );
    }
}

/// An ogre on its round comes on toward three light adventurers, down the long hall beyond their
/// door, through the light in its middle. Their blows — the fighter +2 with a 1d8 axe on AC 15 (40% × 4.5), the mages +0 with
/// daggers (30% × 2.5 each) — are 3.3 a round: 13.6 rounds to fell its 45 hit points, while its
/// club (2d6, +4: 55% × 7 on the fighter, 70% × 7 on each mage) deals 4.55 a round on the
/// average member: some 62 hit points of wounds, of their 25. Too strong;
/// and as it comes nearer than where they last saw it, they fall back for the way in before any
/// blow is struck, and leave by it alive: fled, no one lost.
#[test]
fn a_party_falls_back_before_a_foe_too_strong_that_comes_on() {
    use crate::autonomy::{hand_over, intents, outcome, run_until};
    use delve_minds::policy::outcome::Outcome;
    use delve_minds::policy::party::Intent;
    for seed in 1..=6 {
        let mut delve = delve_play::scenario::Scenario::new(&[
            "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
            "X...X.........................X",
            "X...+.........................X",
            "X...X.........................X",
            "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
        ])
        .seed(seed)
        .legend("'+': Door")
        .door("(at: (4, 2))")
        .light("(at: (16, 2), kind: Custom(bright_feet: 20, dim_feet: 30), lit: true)")
        .field("goal: Reach((29, 2))")
        .faction(r#"(name: "party", marching_order: ["Sef", "Pell", "Oswin"])"#)
        .faction(r#"(name: "ogre", hostile_to: ["party"])"#)
        .creature(
            r#"(name: "Sef", faction: "party", at: (2, 2), class: "fighter", hp: 16, ac: 14,
                str: 15, attack_bonus: 2, encumbrance_stone: 5.5, gear: [Spikes(4)],
                weapons: [(name: "axe", damage: "1d8", damage_type: Slashing)])"#,
        )
        .creature(
            r#"(name: "Pell", faction: "party", at: (1, 1), class: "mage", hp: 5, ac: 11,
                encumbrance_stone: 1.5,
                weapons: [(name: "dagger", damage: "1d4", damage_type: Piercing)],
                carries: [(kind: Torch, lit: true), (kind: Torch, lit: false)])"#,
        )
        .creature(
            r#"(name: "Oswin", faction: "party", at: (1, 3), class: "mage", hp: 4, ac: 11,
                encumbrance_stone: 2.0,
                weapons: [(name: "dagger", damage: "1d4", damage_type: Piercing)])"#,
        )
        .creature(
            r#"(name: "Ogre", faction: "ogre", at: (29, 2), hp: 45, ac: 15, speed_feet: 90,
                attack_bonus: 4, size: Large, str: 18, lightless_vision_feet: 60,
                weapons: [(name: "club", damage: "2d6", damage_type: Bludgeoning)],
                patrol: [(29, 2), (6, 2)])"#,
        )
        .build();
        hand_over(
            &mut delve,
            delve_ground::party_policy::PartyPolicy::default(),
        );
        assert!(
            run_until(&mut delve, 600, |d| outcome(d).is_some()),
            "seed {seed}: no end\n{}",
            delve.log().to_text()
        );
        // (The judgement's numbers, as the fall back gives them: 62 of 25.)
        assert!(
            intents(&delve).contains(&Intent::FallBack {
                from: "Ogre".into(),
                wounds: 62,
                hit_points: 25,
            }),
            "seed {seed}\n{}",
            delve.log().to_text()
        );
        assert!(
            !delve
                .events::<CombatEvent>()
                .iter()
                .any(|e| matches!(e, CombatEvent::Attacked { .. })),
            "seed {seed}: a blow was struck\n{}",
            delve.log().to_text()
        );
        assert_eq!(outcome(&delve), Some(Outcome::PartyFled), "seed {seed}");
    }
}
