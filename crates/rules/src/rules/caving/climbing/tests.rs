//! The unit tests of `rules::caving::climbing`.

use super::*;

/// Dungeon Delves › Climbing: one throw per 100' climbed, with at least one at the
/// midpoint: a 20' climb throws at 10'; a 250' one at 50', 150' and 225'.
#[test]
fn one_throw_per_100_feet_at_least_one_at_the_midpoint() {
    let marks = |height_feet| {
        let mut c = Climbing {
            to: GridPos::new(0, 0),
            height_feet,
            done_feet: 0.0,
            surface: Surface::Easy,
            pace: ClimbPace::Third,
            stretches_thrown: 0,
            down: false,
            rappel: false,
            slowed: false,
        };
        let mut out = Vec::new();
        while let Some(m) = c.next_throw_at() {
            out.push(m);
            c.stretches_thrown += 1;
        }
        out
    };
    assert_eq!(marks(20), vec![10.0]);
    assert_eq!(marks(250), vec![50.0, 150.0, 225.0]);
}

/// Dungeon Delves › Climbing: the grappling hook's range penalties.
#[test]
fn grappling_hook_range_penalties() {
    let p: Vec<Option<i32>> = [10, 11, 30, 31, 50, 51, 100, 101]
        .map(grappling_range_penalty)
        .into();
    assert_eq!(
        p,
        vec![
            Some(0),
            Some(-2),
            Some(-2),
            Some(-5),
            Some(-5),
            Some(-10),
            Some(-10),
            None
        ]
    );
}

/// The climbing table: Adventuring 8+ on easy surfaces only; the class value of Climbing or
/// Mountaineering on either.
#[test]
fn easy_by_adventuring_sheer_by_class_value() {
    let none = Proficiencies::default();
    assert_eq!(climbing_target(&none, Surface::Easy), Some(8));
    assert_eq!(climbing_target(&none, Surface::Sheer), None);
    let mut climber = Proficiencies::default();
    climber.list.push(Proficiency::Climbing);
    climber.throws.insert(Proficiency::Climbing, 6);
    assert_eq!(climbing_target(&climber, Surface::Sheer), Some(6));
    assert_eq!(climbing_target(&climber, Surface::Easy), Some(6));
}
