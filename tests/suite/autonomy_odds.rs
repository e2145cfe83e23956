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
