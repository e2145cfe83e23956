//! The Judge's calls (RULINGS, first section: "anything a rule leaves to the Judge's discretion
//! becomes a named modifier with a default of 0 that a level or command can set"). Each
//! [`JudgeModifier`] is set for the whole level, for rectangles of it, or for one door, trap or
//! creature; the most particular setting wins (a creature's, door's or trap's over a region's,
//! a region's over the level's, the level's over the default). The rule areas ask
//! [`judge_modifier`] for the ones their throws take and log them by name in the breakdown; the
//! Judge's hand that sets them is `rules::judge`.

use bevy::prelude::*;

use delve_ground::dice::Modifier;
use delve_ground::grid::GridPos;
use delve_ground::level::JudgeCalls;
use delve_ground::level::schema::{JudgeModifier, JudgeModifiers};

/// The level's calls (and its regions'), as the level gave them and commands changed them.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq, Deref, DerefMut)]
pub struct Judge(pub JudgeCalls);

/// The Judge's modifiers set for one door, trap or creature.
#[derive(Component, Clone, Debug, Default, PartialEq, Eq, Deref, DerefMut)]
pub struct JudgeSettings(pub JudgeModifiers);

/// The Judge's modifier `m` for a throw at `at` concerning `on` (a door, trap or creature, in
/// order of precedence), named for the breakdown; `None` when it is 0.
pub fn judge_modifier(
    world: &World,
    m: JudgeModifier,
    at: Option<GridPos>,
    on: &[Entity],
) -> Option<Modifier> {
    let particular: Vec<&JudgeModifiers> = on
        .iter()
        .filter_map(|&e| world.get::<JudgeSettings>(e).map(|s| &s.0))
        .collect();
    let value = world
        .get_resource::<Judge>()
        .map_or_else(|| m.default_value(), |j| j.value(m, at, &particular));
    (value != 0).then(|| Modifier::new(value, format!("Judge: {}", m.words())))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RULINGS: a modifier the Judge has not set is its default: 0, and +2 for attacks
    /// against the vulnerable; the most particular setting wins.
    #[test]
    fn the_most_particular_setting_wins() {
        let calls = JudgeCalls {
            modifiers: [(JudgeModifier::FogAndCrowds, -2)].into(),
            regions: vec![(
                GridPos::new(0, 0),
                GridPos::new(3, 3),
                [(JudgeModifier::FogAndCrowds, -4)].into(),
            )],
            unexpected_lights: false,
            mapping_errors: false,
            no_actions_while_running: false,
        };
        let fog = JudgeModifier::FogAndCrowds;
        assert_eq!(calls.value(fog, Some(GridPos::new(9, 9)), &[]), -2);
        assert_eq!(calls.value(fog, Some(GridPos::new(2, 2)), &[]), -4);
        let door: JudgeModifiers = [(fog, 0)].into();
        assert_eq!(calls.value(fog, Some(GridPos::new(2, 2)), &[&door]), 0);
        assert_eq!(calls.value(JudgeModifier::Vulnerable, None, &[]), 2);
        assert_eq!(calls.value(JudgeModifier::LockComplexity, None, &[]), 0);
    }
}
