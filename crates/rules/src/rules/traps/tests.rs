//! The unit tests of `rules::traps`.

use delve_ground::dice::DiceExpr;

use super::breaking::{trap_choices, trapbreaking_target};
use super::*;
use crate::act::Choice;
use crate::creature::Proficiencies;
use crate::rules::throws::Thrower;
use delve_ground::dice::Modifier;
use delve_ground::level::schema::Proficiency;

/// The "Disabling Traps" table's throws.
#[test]
fn trapbreaking_targets_by_the_table() {
    let mut thief = Proficiencies::default();
    thief.list.push(Proficiency::Trapbreaking);
    thief.throws.insert(Proficiency::Trapbreaking, 13);
    let tools = Equipment(vec![Gear::ThievesTools]);
    let total = |r: Result<(i32, Vec<Modifier>), TrapRefusal>| {
        r.map(|(t, m)| (t, m.iter().map(|m| m.value).sum::<i32>()))
    };
    // Using Trapbreaking: hasty by class level, methodical by class level +4.
    assert_eq!(
        total(trapbreaking_target(Some(&thief), Some(&tools), false)),
        Ok((13, 0))
    );
    assert_eq!(
        total(trapbreaking_target(Some(&thief), Some(&tools), true)),
        Ok((13, 4))
    );
    // Using Adventuring: hasty not permitted, methodical 18+.
    let anyone = Proficiencies::default();
    assert_eq!(
        trapbreaking_target(Some(&anyone), None, false),
        Err(TrapRefusal::HastyNotProficient)
    );
    assert_eq!(
        total(trapbreaking_target(Some(&anyone), None, true)),
        Ok((18, 0))
    );
    // A thief without tools cannot work hastily, and falls back on Adventuring.
    assert_eq!(
        trapbreaking_target(Some(&thief), None, false),
        Err(TrapRefusal::HastyNeedsTools)
    );
    assert_eq!(
        total(trapbreaking_target(Some(&thief), None, true)),
        Ok((18, 0))
    );
}

#[test]
fn a_thief_is_offered_hasty_and_methodical_ways_and_anyone_else_methodical_only() {
    let t = Trap::from(&TrapSpec {
        kind: TrapKind::Pit { depth_feet: 10 },
        damage: DiceExpr::new(1, 6, 0),
        trigger: TrapTriggerDef::Step,
        hidden: false,
        search_modifier: 0,
        hasty_for_anyone: false,
        judge: Default::default(),
    });
    let at = GridPos::new(4, 1);
    let mut thief = Proficiencies::default();
    thief.list.push(Proficiency::Trapbreaking);
    thief.throws.insert(Proficiency::Trapbreaking, 13);
    let tools = Equipment(vec![Gear::ThievesTools]);
    let (sera, bo) = (
        Thrower {
            name: "Sera",
            bloodied: false,
            tactical: None,
        },
        Thrower {
            name: "Bo",
            bloodied: false,
            tactical: None,
        },
    );
    let offered = |c: Vec<Choice>| -> Vec<(String, Option<i32>)> {
        c.into_iter().map(|c| (c.way, c.target)).collect()
    };
    assert_eq!(
        offered(trap_choices(
            &t,
            at,
            &sera,
            Some(&thief),
            Some(&tools),
            false,
            &[]
        )),
        vec![
            ("disarm hastily".into(), Some(13)),
            ("discharge hastily".into(), Some(13)),
            ("disarm methodically".into(), Some(9)),
            ("discharge methodically".into(), Some(9)),
        ]
    );
    assert_eq!(
        offered(trap_choices(
            &t,
            at,
            &sera,
            Some(&thief),
            Some(&tools),
            true,
            &[]
        ))
        .len(),
        2,
        "no hasty ways once a hasty try failed at this level"
    );
    let c = trap_choices(&t, at, &bo, None, None, false, &[]);
    assert_eq!(
        offered(c.clone()),
        vec![
            ("disarm methodically".into(), Some(18)),
            ("discharge methodically".into(), Some(18)),
        ]
    );
    assert_eq!(c[0].chance, 0.15);
    let mut hidden = t;
    hidden.hidden = true;
    assert!(trap_choices(&hidden, at, &bo, None, None, false, &[]).is_empty());
}

#[test]
fn one_or_two_on_a_d6_sets_a_trap_off() {
    let off: Vec<u32> = (1..=6).filter(|&d| sets_off(d)).collect();
    assert_eq!(off, vec![1, 2]);
}
