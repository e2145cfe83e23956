//! What the party had when it left a door shut, and what counts as gaining since (`doors::Means`).

use super::*;

fn means(gear: &[(&str, u32)], up: usize) -> Means {
    Means {
        gear: gear.iter().map(|&(k, n)| (k.to_string(), n)).collect(),
        up,
    }
}

/// A flask burned or a spike driven is spent, not gained: the party does not walk back to a
/// door it gave up because it now carries less than it did.
#[test]
fn using_up_gear_is_no_gain() {
    let then = means(&[("Oil", 2), ("Spikes", 6), ("TenFootPole", 1)], 3);
    let now = means(&[("Oil", 1), ("Spikes", 4), ("TenFootPole", 1)], 3);
    assert!(!now.gained_since(&then));
}

/// A key taken from the fallen, more spikes, or a member back up is a gain.
#[test]
fn a_new_thing_more_of_a_thing_or_a_member_up_is_a_gain() {
    let then = means(&[("Oil", 1), ("Spikes", 2)], 2);
    let key = means(&[("Key(\"crypt\")", 1), ("Oil", 1), ("Spikes", 2)], 2);
    let spikes = means(&[("Oil", 1), ("Spikes", 5)], 2);
    let up = means(&[("Oil", 1), ("Spikes", 2)], 3);
    assert!(key.gained_since(&then));
    assert!(spikes.gained_since(&then));
    assert!(up.gained_since(&then));
}

/// The amounts are read from the gear the rules know: a rope by its feet, spikes and oil by
/// count, a key by its name.
#[test]
fn gear_is_read_as_kind_and_amount() {
    use delve_ground::level::schema::Gear;
    assert_eq!(kind_and_amount(&Gear::Rope(50)), ("Rope".to_string(), 50));
    assert_eq!(kind_and_amount(&Gear::Oil(3)), ("Oil".to_string(), 3));
    assert_eq!(
        kind_and_amount(&Gear::Key("crypt".into())),
        ("Key(\"crypt\")".to_string(), 1)
    );
}
