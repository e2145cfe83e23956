//! Encounters and combat: faction initiative, attacks and their breakdowns, a whole battle.

use bevy::prelude::*;
use delve::actors::{Conditions, Faction, HitPoints};
use delve::level::load_default_level;
use delve::log::{Event, EventLog};
use delve::rules::combat::battle::{Battle, is_down};
use delve::sim::{run_round, sim_app};
use delve::time::DelveMode;

/// The party goes down to the flooded burial room and fights the ghouls to the end.
/// The party comes down the corridor from the evil door into the ghouls' flooded burial room.
fn crypt_battle(seed: u64) -> (App, String) {
    let mut level = load_default_level().unwrap().level;
    for (name, at) in [
        ("Brannoc", (33, 10)),
        ("Mirela", (33, 9)),
        ("Sera", (33, 8)),
        ("Aldric", (34, 11)),
    ] {
        let c = level.creatures.iter_mut().find(|c| c.name == name).unwrap();
        c.at = delve::grid::GridPos::new(at.0, at.1);
    }
    let mut app = sim_app(&level, seed);
    for _ in 0..400 {
        run_round(app.world_mut());
        let w = app.world_mut();
        let battle_over = w
            .resource::<EventLog>()
            .entries()
            .iter()
            .any(|e| matches!(e.event, Event::BattleEnded));
        if battle_over {
            break;
        }
    }
    let text = app.world().resource::<EventLog>().to_text();
    (app, text)
}

#[test]
fn the_party_and_the_ghouls_fight_to_the_end() {
    let (mut app, log) = crypt_battle(7);
    let (_, again) = crypt_battle(7);
    assert_eq!(log, again, "same seed, same battle");
    // The story in order: the encounter, initiative, blows, the end.
    let at = |what: &str| {
        log.find(what)
            .unwrap_or_else(|| panic!("no {what:?} in\n{log}"))
    };
    let begins = at("now in Encounter mode");
    let party = at("initiative for the party");
    let ghouls = at("initiative for the ghouls");
    let order = at("acting order:");
    let first_blow = at(" attacks ");
    let ends = at("the battle ends");
    assert!(
        begins < party
            && party < order
            && ghouls < order
            && order < first_blow
            && first_blow < ends
    );
    assert!(log.contains("now in Exploration mode"));
    // One side is down: every creature of one of the two factions is dying or dead.
    let w = app.world_mut();
    let mut q = w.query::<(&Name, &Faction, &Conditions, &HitPoints)>();
    let mut down = [0, 0];
    let mut total = [0, 0];
    for (_, f, c, hp) in q.iter(w) {
        if f.0 > 1 {
            continue;
        }
        total[f.0] += 1;
        if is_down(c) {
            down[f.0] += 1;
            assert!(hp.current <= 0);
        }
    }
    assert!(
        down[0] == total[0] || down[1] == total[1],
        "{down:?} of {total:?}\n{log}"
    );
    assert_eq!(*w.resource::<DelveMode>(), DelveMode::Exploration);
    assert!(!w.resource::<Battle>().active);
}
