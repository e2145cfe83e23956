//! The structured event log: every rule resolution and every change of state is an [`Event`],
//! stamped with its round. People read it as text, tools as JSON lines; the window's log panel,
//! `delve sim`, batch runs and tests all read the same entries.

use std::fmt;

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use crate::actors::party::Formation;
use crate::dice::Throw;
use crate::grid::GridPos;
use crate::level::schema::{ConditionKind, LightKind};
use crate::time::{Clock, DelveMode};

/// What happened.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// The delve began on a level with a seed.
    DelveBegan { level: String, seed: u64 },
    /// A command was accepted.
    CommandAccepted { who: String, command: String },
    /// A command was refused; nothing changed.
    CommandRefused {
        who: String,
        command: String,
        reason: String,
    },
    /// A creature walked this round.
    Moved {
        who: String,
        from: GridPos,
        to: GridPos,
        feet: u32,
    },
    /// A creature reached the end of its walk.
    Arrived { who: String, at: GridPos },
    /// A creature stopped short of its destination.
    Halted {
        who: String,
        at: GridPos,
        reason: String,
    },
    /// A throw with its die, modifiers and outcome.
    Threw { who: String, throw: Throw },
    /// A creature came under a condition.
    ConditionGained {
        who: String,
        condition: ConditionKind,
        source: String,
        ends: String,
    },
    /// A condition ended.
    ConditionLost {
        who: String,
        condition: ConditionKind,
        why: String,
    },
    /// A party's formation changed with the width of the passage.
    FormationChanged { party: String, formation: Formation },
    /// A creature began to rest.
    RestBegan { who: String },
    /// A creature rested a full turn.
    Rested { who: String },
    /// A light source ran out of fuel and went out.
    LightBurnedOut {
        kind: LightKind,
        bearer: Option<String>,
    },
    /// A creature heard a noise, and roughly from where.
    Heard {
        who: String,
        sound: crate::rules::sound::SoundRow,
        what: String,
        roughly_at: GridPos,
        how: String,
    },
    /// A search found a hidden feature.
    Found {
        who: String,
        feature: String,
        at: GridPos,
    },
    /// The Judge's secret 1d6 for a trap a creature might set off (1–2 sets it off).
    TrapChance {
        who: String,
        at: GridPos,
        d6: u32,
        sprung: bool,
    },
    /// A trap went off.
    TrapSprung {
        who: String,
        trap: String,
        at: GridPos,
        dice: Vec<u32>,
        damage: i32,
        saved: Option<bool>,
    },
    /// A trap went off with no one in its way (set off by a pole, or a door opened from afar).
    TrapSprungHarmlessly {
        who: String,
        trap: String,
        at: GridPos,
    },
    /// A faction rolled initiative (at the start of a battle, or on joining one).
    Initiative {
        roll: crate::rules::combat::initiative::FactionRoll,
    },
    /// The factions' acting order, highest first.
    ActingOrder { order: Vec<String> },
    /// An attack: the throw with every modifier, and the damage of a hit.
    Attacked {
        who: String,
        target: String,
        throw: Throw,
        /// The second throw that confirms a critical threat.
        confirmation: Option<Throw>,
        /// A natural 1, a misfire, a sacrificed shield.
        note: Option<String>,
        damage: Option<crate::rules::combat::battle::Damage>,
    },
    /// No hostile creature was aware of another for a full round.
    BattleEnded,
    /// An evil door, released, swung shut.
    DoorSwungShut { at: GridPos },
    /// A turn (10 rounds) ended.
    TurnEnded { turn: u64 },
    /// An hour (6 turns) ended.
    HourEnded { hour: u64 },
    /// Exploration gave way to an encounter, or back.
    ModeChanged { mode: DelveMode },
}

impl Event {
    /// The creature (or party) the event is about, if any.
    pub fn who(&self) -> Option<&str> {
        match self {
            Event::CommandAccepted { who, .. }
            | Event::CommandRefused { who, .. }
            | Event::Moved { who, .. }
            | Event::Arrived { who, .. }
            | Event::Halted { who, .. }
            | Event::Threw { who, .. }
            | Event::ConditionGained { who, .. }
            | Event::ConditionLost { who, .. }
            | Event::RestBegan { who }
            | Event::Rested { who }
            | Event::Heard { who, .. }
            | Event::Found { who, .. }
            | Event::TrapSprung { who, .. }
            | Event::Attacked { who, .. }
            | Event::TrapSprungHarmlessly { who, .. } => Some(who),
            Event::FormationChanged { party, .. } => Some(party),
            Event::LightBurnedOut { bearer, .. } => bearer.as_deref(),
            Event::Initiative { .. } | Event::ActingOrder { .. } | Event::BattleEnded => None,
            Event::DelveBegan { .. }
            | Event::TrapChance { .. }
            | Event::DoorSwungShut { .. }
            | Event::TurnEnded { .. }
            | Event::HourEnded { .. }
            | Event::ModeChanged { .. } => None,
        }
    }

    /// Does the party learn of this? The Judge's throws are secret; of the rest the party knows
    /// what happens to its own members and the passing of time.
    pub fn known_to_party(&self, members: &[&str], party: &str) -> bool {
        match self {
            Event::Threw { .. } | Event::TrapChance { .. } => false,
            // An attack on a member is felt, whoever makes it.
            Event::Attacked { who, target, .. } => {
                members.contains(&who.as_str()) || members.contains(&target.as_str())
            }
            _ => self
                .who()
                .is_none_or(|w| w == party || members.contains(&w)),
        }
    }
}

/// One entry: the round it happened in and the event.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LogEntry {
    pub round: u64,
    #[serde(flatten)]
    pub event: Event,
}

impl LogEntry {
    /// One line of JSON (a JSON-lines record).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("log entries serialize")
    }
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::DelveBegan { level, seed } => {
                write!(f, "the delve begins in {level} (seed {seed})")
            }
            Event::CommandAccepted { who, command } => write!(f, "{who}: {command}"),
            Event::CommandRefused {
                who,
                command,
                reason,
            } => write!(f, "{who} cannot {command}: {reason}"),
            Event::Moved {
                who,
                from,
                to,
                feet,
            } => write!(f, "{who} moves {from} -> {to}, {feet}'"),
            Event::Arrived { who, at } => write!(f, "{who} arrives at {at}"),
            Event::Halted { who, at, reason } => write!(f, "{who} halts at {at}: {reason}"),
            Event::Threw { who, throw } => write!(f, "{who} throws {throw}"),
            Event::ConditionGained {
                who,
                condition,
                source,
                ends,
            } => write!(f, "{who} is {condition:?} ({source}; {ends})"),
            Event::ConditionLost {
                who,
                condition,
                why,
            } => write!(f, "{who} is no longer {condition:?}: {why}"),
            Event::FormationChanged { party, formation } => {
                write!(f, "the {party} goes on in {formation}")
            }
            Event::RestBegan { who } => write!(f, "{who} rests"),
            Event::Rested { who } => write!(f, "{who} has rested a turn"),
            Event::LightBurnedOut { kind, bearer } => match bearer {
                Some(b) => write!(f, "{b}'s {kind:?} burns out"),
                None => write!(f, "a {kind:?} burns out"),
            },
            Event::Heard {
                who,
                sound,
                what,
                roughly_at,
                how,
            } => write!(
                f,
                "{who} hears a {sound} noise near {roughly_at} ({how}): {what}"
            ),
            Event::Found { who, feature, at } => write!(f, "{who} finds {feature} at {at}"),
            Event::TrapChance {
                who,
                at,
                d6,
                sprung,
            } => write!(
                f,
                "{who} might set off the trap at {at}: 1d6 {d6}, {}",
                if *sprung {
                    "it goes off"
                } else {
                    "it does not"
                }
            ),
            Event::TrapSprung {
                who,
                trap,
                at,
                dice,
                damage,
                saved,
            } => {
                write!(f, "{trap} at {at} goes off on {who}: dice {dice:?}")?;
                if let Some(s) = saved {
                    write!(f, ", save {}", if *s { "made" } else { "failed" })?;
                }
                write!(f, ", {damage} damage")
            }
            Event::TrapSprungHarmlessly { who, trap, at } => write!(
                f,
                "{trap} at {at} goes off, set off by {who}, with no one in its way"
            ),
            Event::Initiative { roll } => {
                write!(
                    f,
                    "initiative for the {}: d20 {} {:+} (average of {}, rounded up) = {}",
                    roll.name,
                    roll.roll,
                    roll.modifier,
                    roll.members
                        .iter()
                        .map(|(n, m)| format!("{n} {m:+}"))
                        .collect::<Vec<_>>()
                        .join(", "),
                    roll.result
                )?;
                if !roll.roll_offs.is_empty() {
                    write!(f, ", tie broken by roll-offs {:?}", roll.roll_offs)?;
                }
                Ok(())
            }
            Event::ActingOrder { order } => write!(f, "acting order: {}", order.join(", ")),
            Event::Attacked {
                throw,
                confirmation,
                note,
                damage,
                ..
            } => {
                write!(f, "{throw}")?;
                if let Some(c) = confirmation {
                    write!(f, " [threat; {c}]")?;
                }
                if let Some(n) = note {
                    write!(f, " ({n})")?;
                }
                if let Some(d) = damage {
                    write!(
                        f,
                        "; {}{} damage (dice {:?} {:+}",
                        if d.critical { "critical hit: " } else { "" },
                        d.total,
                        d.dice,
                        d.bonus
                    )?;
                    if d.critical {
                        write!(f, ", base dice at maximum")?;
                    }
                    if d.reduced_by > 0 {
                        write!(f, ", armor DR {}", d.reduced_by)?;
                    }
                    if let Some((name, dice)) = &d.enchantment {
                        write!(f, ", {name} {dice:?}")?;
                    }
                    write!(f, ")")?;
                }
                Ok(())
            }
            Event::BattleEnded => write!(f, "the battle ends: no one is aware of an enemy"),
            Event::DoorSwungShut { at } => write!(f, "the door at {at} swings shut by itself"),
            Event::TurnEnded { turn } => write!(f, "turn {turn} ends"),
            Event::HourEnded { hour } => write!(f, "hour {hour} ends"),
            Event::ModeChanged { mode } => write!(f, "now in {mode:?} mode"),
        }
    }
}

impl fmt::Display for LogEntry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = Clock { rounds: self.round };
        write!(
            f,
            "[h{} t{} r{}] {}",
            c.hours(),
            c.turn_of_hour(),
            c.round_of_turn(),
            self.event
        )
    }
}

/// The log of one delve, in order.
#[derive(Resource, Clone, Debug, Default)]
pub struct EventLog {
    entries: Vec<LogEntry>,
}

impl EventLog {
    pub fn push(&mut self, round: u64, event: Event) {
        self.entries.push(LogEntry { round, event });
    }

    pub fn entries(&self) -> &[LogEntry] {
        &self.entries
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The whole log as JSON lines.
    pub fn to_json_lines(&self) -> String {
        let mut s = String::new();
        for e in &self.entries {
            s.push_str(&e.to_json());
            s.push('\n');
        }
        s
    }

    /// The whole log as text for people.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        for e in &self.entries {
            s.push_str(&e.to_string());
            s.push('\n');
        }
        s
    }
}

/// Who makes a throw, as the tactical rules see it.
#[derive(Clone, Copy, Debug)]
pub struct Thrower<'a> {
    pub name: &'a str,
    pub bloodied: bool,
    pub rules: crate::rules::combat::tactical::TacticalCombat,
}

impl<'a> Thrower<'a> {
    /// A creature of these conditions, under these rules (all on when there are none).
    pub fn new(
        name: &'a str,
        conditions: &crate::actors::Conditions,
        rules: Option<&crate::rules::combat::tactical::TacticalCombat>,
    ) -> Self {
        Self {
            name,
            bloodied: conditions.has(crate::level::schema::ConditionKind::Bloodied),
            rules: rules.copied().unwrap_or_default(),
        }
    }
}

/// A throw: d20 + modifiers ≥ target, with the tactical rules' bloodied (−2) and natural 20
/// (+10) where they are on (Tactical Combat › Bloodied, › Natural 20 and Natural 1).
pub fn tactical_throw(
    dice: &mut crate::dice::Dice,
    bloodied: bool,
    rules: crate::rules::combat::tactical::TacticalCombat,
    what: impl Into<String>,
    mut modifiers: Vec<crate::dice::Modifier>,
    target: i32,
) -> Throw {
    use crate::rules::combat::tactical;
    if rules.bloodied && bloodied {
        modifiers.push(tactical::bloodied_modifier());
    }
    let natural = dice.roll(20);
    if rules.natural_20_and_1
        && let Some(m) = tactical::natural_20_modifier(natural)
    {
        modifiers.push(m);
    }
    Throw::resolve(what.into(), natural, modifiers, target)
}

/// A creature's throw from inside a system (dice and log at hand), logged; its success.
pub fn throw_logged(
    dice: &mut crate::dice::Dice,
    log: &mut EventLog,
    round: u64,
    who: Thrower,
    what: impl Into<String>,
    modifiers: Vec<crate::dice::Modifier>,
    target: i32,
) -> bool {
    let throw = tactical_throw(dice, who.bloodied, who.rules, what, modifiers, target);
    let success = throw.success;
    log.push(
        round,
        Event::Threw {
            who: who.name.to_owned(),
            throw,
        },
    );
    success
}

/// A creature's throw with the world's dice, logged at the current round: d20 + modifiers ≥
/// target, with the tactical rules' natural 20 (+10) and bloodied (−2) where they are on
/// (Tactical Combat › Natural 20 and Natural 1, › Bloodied; RULINGS › Dice and throws).
pub fn throw_in(
    world: &mut World,
    who: Entity,
    what: impl Into<String>,
    modifiers: Vec<crate::dice::Modifier>,
    target: i32,
) -> Throw {
    let rules = world
        .get_resource::<crate::rules::combat::tactical::TacticalCombat>()
        .copied()
        .unwrap_or_default();
    let bloodied = world
        .get::<crate::actors::Conditions>(who)
        .is_some_and(|c| c.has(crate::level::schema::ConditionKind::Bloodied));
    let throw = tactical_throw(
        &mut world.resource_mut::<crate::dice::Dice>(),
        bloodied,
        rules,
        what,
        modifiers,
        target,
    );
    let round = world.resource::<Clock>().rounds;
    let name = crate::actors::name_of(world, who);
    world.resource_mut::<EventLog>().push(
        round,
        Event::Threw {
            who: name,
            throw: throw.clone(),
        },
    );
    throw
}

/// Writes to the log stamped with the current round.
#[derive(bevy::ecs::system::SystemParam)]
pub struct Logger<'w> {
    log: ResMut<'w, EventLog>,
    clock: Res<'w, Clock>,
}

impl Logger<'_> {
    pub fn log(&mut self, event: Event) {
        let round = self.clock.rounds;
        self.log.push(round, event);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_party_learns_what_it_heard_but_not_the_judges_throws() {
        let members = ["Sera", "Brannoc"];
        let heard = Event::Heard {
            who: "Sera".into(),
            sound: crate::rules::sound::SoundRow::Loud,
            what: "a crash".into(),
            roughly_at: GridPos::new(18, 4),
            how: "with a throw".into(),
        };
        assert!(heard.known_to_party(&members, "party"));
        let ghoul_heard = Event::Heard {
            who: "Gnawbone".into(),
            sound: crate::rules::sound::SoundRow::Loud,
            what: "a crash".into(),
            roughly_at: GridPos::new(18, 4),
            how: "automatically".into(),
        };
        assert!(
            !ghoul_heard.known_to_party(&members, "party"),
            "what monsters hear is the Judge's"
        );
        let throw = Event::Threw {
            who: "Sera".into(),
            throw: crate::dice::Throw::resolve("Listening".into(), 19, vec![], 18),
        };
        assert!(
            !throw.known_to_party(&members, "party"),
            "the Judge rolls in secret"
        );
        assert!(Event::TurnEnded { turn: 1 }.known_to_party(&members, "party"));
    }

    #[test]
    fn entries_round_trip_through_json() {
        let e = LogEntry {
            round: 12,
            event: Event::Moved {
                who: "Brannoc".into(),
                from: GridPos::new(1, 1),
                to: GridPos::new(3, 1),
                feet: 10,
            },
        };
        let json = e.to_json();
        assert_eq!(
            json,
            r#"{"round":12,"event":"moved","who":"Brannoc","from":{"x":1,"y":1},"to":{"x":3,"y":1},"feet":10}"#
        );
        let back: LogEntry = serde_json::from_str(&json).unwrap();
        assert_eq!(back, e);
        assert_eq!(
            e.to_string(),
            "[h0 t1 r2] Brannoc moves (1, 1) -> (3, 1), 10'"
        );
    }
}
