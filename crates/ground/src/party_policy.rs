//! A party policy's settings: how an autonomous party delves (`delve sim --auto --policy FILE`).
//! Every field may be left out for its default:
//!
//! ```ron
//! (
//!     listen_at_doors: true,
//!     dead_end_searches: 4,
//!     flee_when_down: 0.5,
//!     marching_order: Some(["Sera", "Brannoc", "Mirela", "Aldric"]),
//!     light_bearer: Some("Brannoc"),
//! )
//! ```

use serde::{Deserialize, Serialize};

/// How an autonomous party delves.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PartyPolicy {
    /// The persona's name (`assets/policies/NAME.ron`), named in the lab's report.
    pub name: Option<String>,
    /// Listen at a closed door before opening it (Dungeon Delves › Searching and Listening).
    pub listen_at_doors: bool,
    /// A door someone was heard behind is left for last.
    pub avoid_noises: bool,
    /// Methodical searches at each dead end once the rest is explored (0: never search). A
    /// thief finds a secret door on 14+ less 4 a turn (55%): four searches find it 96% of the
    /// time (Dungeon Delves › Searching).
    pub dead_end_searches: u32,
    /// The thief also searches hastily at a dead end before the methodical search.
    pub hasty_search: bool,
    /// The bearer of a 10' pole probes the squares ahead while the party explores.
    pub probe_with_pole: bool,
    /// The pole's bearer leads where the way is suspect (a passage one square wide no member
    /// has walked), so the pole meets a trap there before a foot does; the front fighter
    /// leads again after. Safer and slower: in 200 crypt delves of the careful party it left a
    /// member in the pit in 35 rather than 86, and reached the goal in 56.5% rather than 68%.
    pub pole_ahead: bool,
    /// A thief disarms a trap the party knows on its way; otherwise it steps around.
    pub disarm_traps: bool,
    /// A thief picks a lock hastily (a round, 14+, but a 1–3 jams it for good) before picking it
    /// methodically (Dungeon Delves › Doors). A careful party does not risk the jam.
    pub hasty_picks: bool,
    /// Turns a thief spends picking one lock methodically (10+ on the d20 opens it, a 1 jams
    /// it) before the door is left shut: five open it 91% of the time.
    pub methodical_picks: u32,
    /// The least chance each member must have of clearing a hole one square across (a 5' gap,
    /// with a 20' run-up) for the party to jump it (Dungeon Delves › Jumping and Leaping); 1
    /// never risks a fall.
    #[serde(deserialize_with = "bounded::jump_odds")]
    pub jump_odds: f32,
    /// The odds it accepts for that jump when a hole cuts it off from the way home (a pit that
    /// opened behind it): a fall in, with a rope to climb out, beats waiting for the end.
    #[serde(deserialize_with = "bounded::stranded_jump_odds")]
    pub stranded_jump_odds: f32,
    /// The most chance each member may run of being stuck for good in one squeeze (stuck on a
    /// 1, no wiggle back, every push forward failed) for the party to go through squeezes.
    #[serde(deserialize_with = "bounded::squeeze_risk")]
    pub squeeze_risk: f32,
    /// Bashes at a stuck or spiked door before it is left shut.
    pub bash_attempts: u32,
    /// The party flees for the way in once this share of its members is down.
    #[serde(deserialize_with = "bounded::flee_when_down")]
    pub flee_when_down: f32,
    /// Douse the party's lights for a turn of rest, and light one again after: a turn of fuel
    /// saved in every six (Dungeon Delves › Light and Darkness; › Rest).
    pub douse_while_resting: bool,
    /// The mapper puts the map away when a fight begins, and takes it up again after it
    /// (Dungeon Delves › Marching and Mapping: mapping takes both hands and leaves the mapper
    /// vulnerable).
    pub stow_map_in_fights: bool,
    /// Turns of light kept in hand beyond the walk back: less, and the party turns back.
    pub light_margin_turns: u32,
    /// The delve ends after this many turns (60 make 10 hours: a day's delve; the party turns
    /// back sooner when its light runs short).
    #[serde(deserialize_with = "bounded::turn_limit")]
    pub turn_limit: u64,
    /// The marching order, front first (every member once); the level's when left out.
    pub marching_order: Option<Vec<String>>,
    /// Who lights the party's way; whoever carries a light when left out.
    pub light_bearer: Option<String>,
}

impl Default for PartyPolicy {
    fn default() -> Self {
        Self {
            name: None,
            listen_at_doors: true,
            avoid_noises: true,
            dead_end_searches: 4,
            hasty_search: true,
            probe_with_pole: true,
            pole_ahead: false,
            disarm_traps: true,
            hasty_picks: false,
            methodical_picks: 5,
            jump_odds: 0.6,
            stranded_jump_odds: 0.25,
            squeeze_risk: 0.05,
            bash_attempts: 3,
            flee_when_down: 0.5,
            douse_while_resting: true,
            stow_map_in_fights: true,
            light_margin_turns: 2,
            turn_limit: 60,
            marching_order: None,
            light_bearer: None,
        }
    }
}

/// The personas shipped with Delve (`assets/policies/`): each a documented setting of the same
/// tactics, found by name (`delve lab LEVEL --policy careful`).
pub const PERSONAS: [(&str, &str); 4] = [
    (
        "careful",
        include_str!("../../../assets/policies/careful.ron"),
    ),
    ("bold", include_str!("../../../assets/policies/bold.ron")),
    (
        "thorough",
        include_str!("../../../assets/policies/thorough.ron"),
    ),
    ("hasty", include_str!("../../../assets/policies/hasty.ron")),
];

impl PartyPolicy {
    /// A policy file, or else a persona by name (`careful`, `bold`, `thorough`, `hasty`); the
    /// error names the file, line and column, or the personas there are.
    pub fn find(path: &std::path::Path) -> Result<Self, String> {
        if path.exists() {
            return Self::load(path);
        }
        let name = path.to_string_lossy();
        match PERSONAS.iter().find(|(n, _)| *n == name) {
            Some((n, text)) => Self::parse(text).map_err(|e| format!("the persona {n}: {e}")),
            None => Err(format!(
                "{name}: no such policy file, nor a persona of that name (the personas: {})",
                PERSONAS.map(|(n, _)| n).join(", ")
            )),
        }
    }

    /// Reads a policy file; the error names the file, line and column.
    pub fn load(path: &std::path::Path) -> Result<Self, String> {
        let text = crate::files::read_text(path)
            .map_err(|e| format!("{}: cannot read the policy: {e}", path.display()))?;
        Self::parse(&text).map_err(|e| format!("{}:{e}", path.display()))
    }

    /// Reads a policy from RON text.
    pub fn parse(text: &str) -> Result<Self, PolicyError> {
        let policy: Self = crate::level::ron_options()
            .from_str(text)
            .map_err(|e| PolicyError {
                line: e.span.start.line,
                col: e.span.start.col,
                problem: match e.code {
                    ron::Error::Message(why) => PolicyProblem::OutOfRange(why),
                    other => PolicyProblem::Unreadable(other.to_string()),
                },
            })?;
        Ok(policy)
    }
}

/// The most turns a delve may last under a policy: 1,000 hours. The lab keeps each delve's
/// records round by round, so a delve must end in bounded time (and its rounds never overflow
/// the turn's arithmetic: a limit near the largest number ended delves after 4 rounds).
pub const MAX_TURN_LIMIT: u64 = crate::time::MAX_TURNS;

/// What is wrong with a policy file, and where.
#[derive(Clone, Debug, PartialEq)]
pub struct PolicyError {
    pub line: usize,
    pub col: usize,
    pub problem: PolicyProblem,
}

#[derive(Clone, Debug, PartialEq)]
pub enum PolicyProblem {
    /// Not RON of the policy's fields (an unknown field, a wrong value).
    Unreadable(String),
    /// A number out of its field's range: the field, its range and the number.
    OutOfRange(String),
}

impl std::fmt::Display for PolicyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: ", self.line, self.col)?;
        match &self.problem {
            PolicyProblem::Unreadable(why) => write!(f, "{why}"),
            PolicyProblem::OutOfRange(why) => f.write_str(why),
        }
    }
}

/// The fields with a range, checked as they are read so that the error is at the number.
mod bounded {
    use serde::{Deserialize, Deserializer, de::Error};

    fn share<'de, D: Deserializer<'de>>(d: D, field: &str, what: &str) -> Result<f32, D::Error> {
        let v = f32::deserialize(d)?;
        if (0.0..=1.0).contains(&v) {
            Ok(v)
        } else {
            Err(D::Error::custom(format!(
                "{field} is {what} from 0 to 1, not {v}"
            )))
        }
    }

    pub fn flee_when_down<'de, D: Deserializer<'de>>(d: D) -> Result<f32, D::Error> {
        share(d, "flee_when_down", "a share of the party")
    }

    pub fn jump_odds<'de, D: Deserializer<'de>>(d: D) -> Result<f32, D::Error> {
        share(d, "jump_odds", "a chance")
    }

    pub fn stranded_jump_odds<'de, D: Deserializer<'de>>(d: D) -> Result<f32, D::Error> {
        share(d, "stranded_jump_odds", "a chance")
    }

    pub fn squeeze_risk<'de, D: Deserializer<'de>>(d: D) -> Result<f32, D::Error> {
        share(d, "squeeze_risk", "a chance")
    }

    pub fn turn_limit<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
        let v = u64::deserialize(d)?;
        if (1..=super::MAX_TURN_LIMIT).contains(&v) {
            Ok(v)
        } else {
            Err(D::Error::custom(format!(
                "turn_limit is 1 to {} turns (1,000 hours), not {v}",
                super::MAX_TURN_LIMIT
            )))
        }
    }
}

// `Eq` for the command that carries a policy: its one float is a plain setting, never NaN once
// parsed.
impl Eq for PartyPolicy {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_policy_file_names_only_what_it_changes() {
        for bad in ["(turn_limit: 0)", "(turn_limit: 18446744073709551615)"] {
            let e = PartyPolicy::parse(bad).unwrap_err();
            assert!(matches!(e.problem, PolicyProblem::OutOfRange(_)), "{e}");
            assert!(
                e.to_string().contains("turn_limit is 1 to 6000 turns"),
                "{e}"
            );
        }
        let p = PartyPolicy::parse("(listen_at_doors: false, turn_limit: 12)").unwrap();
        assert!(!p.listen_at_doors);
        assert_eq!(p.turn_limit, 12);
        assert_eq!(p.bash_attempts, PartyPolicy::default().bash_attempts);
    }

    /// The personas read, each under its own name, and the careful one is the default policy.
    #[test]
    fn the_personas_are_found_by_name() {
        for (name, _) in PERSONAS {
            let p = PartyPolicy::find(std::path::Path::new(name)).unwrap();
            assert_eq!(p.name.as_deref(), Some(name));
        }
        let careful = PartyPolicy::find(std::path::Path::new("careful")).unwrap();
        assert_eq!(
            PartyPolicy {
                name: None,
                ..careful
            },
            PartyPolicy::default()
        );
        let e = PartyPolicy::find(std::path::Path::new("reckless")).unwrap_err();
        assert!(e.contains("careful, bold, thorough, hasty"), "{e}");
    }

    #[test]
    fn a_bad_policy_says_where() {
        let e = PartyPolicy::parse("(\n  listen_at_doors: maybe,\n)").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(matches!(e.problem, PolicyProblem::Unreadable(_)));
        let e = PartyPolicy::parse("(flee_when_down: 2.0)").unwrap_err();
        assert_eq!(
            e.problem,
            PolicyProblem::OutOfRange(
                "flee_when_down is a share of the party from 0 to 1, not 2".into()
            )
        );
        // At the number, each odds by its own name (they once all said 1:1, jump_odds).
        let e = PartyPolicy::parse("(\n  jump_odds: 0.5,\n  squeeze_risk: 7.0,\n)").unwrap_err();
        assert_eq!((e.line, e.col), (3, 17), "{e}");
        assert!(
            e.to_string()
                .contains("squeeze_risk is a chance from 0 to 1, not 7"),
            "{e}"
        );
        let e = PartyPolicy::parse("(bravery: 3)").unwrap_err();
        assert_eq!(e.line, 1);
        assert!(matches!(e.problem, PolicyProblem::Unreadable(_)));
    }
}
