//! The marks on a delve's timeline, read from its typed events: where members went down or
//! died, battles began, doors were opened or forced, traps sprang, lights went out, noises
//! brought monsters, and the delve ended. The window draws them on its timeline and jumps
//! between them; they are plain data, so tests read them as the window does.

use delve_minds::policy::monsters::MonsterEvent;

use delve_ground::level::schema::ConditionKind;
use delve_ground::log::LogEntry;
use delve_minds::policy::party::PolicyEvent;
use delve_rules::rules::combat::events::CombatEvent;
use delve_rules::rules::conditions::events::ConditionEvent;
use delve_rules::rules::doors::events::{DoorEvent, DoorOpening};
use delve_rules::rules::light::events::LightEvent;
use delve_rules::rules::traps::events::TrapEvent;

/// What a mark marks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, strum::VariantArray)]
pub enum MarkKind {
    /// A creature died.
    Death,
    /// A creature went down, dying.
    Downed,
    /// A battle began (the factions' acting order was thrown).
    Battle,
    /// A door came open by hand, key or pick.
    DoorOpened,
    /// A door was bashed, battered down or broken.
    DoorForced,
    /// A trap went off on someone (or harmlessly).
    Trap,
    /// A light burnt out.
    LightOut,
    /// A noise (or a companion's shout) brought a monster to look.
    Noise,
    /// The party reached its goal and left.
    Goal,
    /// The delve ended otherwise.
    End,
}

impl MarkKind {
    pub const ALL: &'static [MarkKind] = <MarkKind as strum::VariantArray>::VARIANTS;

    /// The kind a word names (`delve replay --at`): death, downed, battle, door, forced, trap,
    /// light, noise, goal, end.
    pub fn named(word: &str) -> Option<MarkKind> {
        Some(match word {
            "death" => MarkKind::Death,
            "downed" => MarkKind::Downed,
            "battle" => MarkKind::Battle,
            "door" => MarkKind::DoorOpened,
            "forced" => MarkKind::DoorForced,
            "trap" => MarkKind::Trap,
            "light" => MarkKind::LightOut,
            "noise" => MarkKind::Noise,
            "goal" => MarkKind::Goal,
            "end" => MarkKind::End,
            _ => return None,
        })
    }

    pub fn words(self) -> &'static str {
        match self {
            MarkKind::Death => "deaths",
            MarkKind::Downed => "downed",
            MarkKind::Battle => "battles",
            MarkKind::DoorOpened => "doors opened",
            MarkKind::DoorForced => "doors forced",
            MarkKind::Trap => "traps sprung",
            MarkKind::LightOut => "lights out",
            MarkKind::Noise => "noises that brought monsters",
            MarkKind::Goal => "the goal",
            MarkKind::End => "the end",
        }
    }
}

/// One mark: its round, what it marks, and the event in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mark {
    pub round: u64,
    pub kind: MarkKind,
    pub what: String,
}

/// The marks of a delve's log, in order.
pub fn marks(log: &[LogEntry]) -> Vec<Mark> {
    marks_told(log, |e| Some(e.event().to_string()))
}

/// The marks of the entries `told` gives words for (a party's: those it knows of, in its
/// words — [`LogEntry::known_to_party`], [`LogEntry::told_to_party`]), in order.
pub fn marks_told(log: &[LogEntry], told: impl Fn(&LogEntry) -> Option<String>) -> Vec<Mark> {
    log.iter()
        .filter_map(|e| {
            let kind = kind_of(e)?;
            Some(Mark {
                round: e.round,
                kind,
                what: told(e)?,
            })
        })
        .collect()
}

fn kind_of(e: &LogEntry) -> Option<MarkKind> {
    if let Some(ConditionEvent::ConditionGained { condition, .. }) = e.get() {
        return match condition {
            ConditionKind::Dead => Some(MarkKind::Death),
            ConditionKind::Dying => Some(MarkKind::Downed),
            _ => None,
        };
    }
    if let Some(CombatEvent::ActingOrder { .. }) = e.get() {
        return Some(MarkKind::Battle);
    }
    if let Some(DoorEvent::DoorOpened { how, .. }) = e.get() {
        return Some(match how {
            DoorOpening::Bashed | DoorOpening::BatteredDown | DoorOpening::Broken => {
                MarkKind::DoorForced
            }
            _ => MarkKind::DoorOpened,
        });
    }
    if let Some(TrapEvent::TrapSprung { .. } | TrapEvent::TrapSprungHarmlessly { .. }) = e.get() {
        return Some(MarkKind::Trap);
    }
    if let Some(LightEvent::LightBurnedOut { .. }) = e.get() {
        return Some(MarkKind::LightOut);
    }
    if let Some(MonsterEvent::WentToLook { .. } | MonsterEvent::AnsweredCall { .. }) = e.get() {
        return Some(MarkKind::Noise);
    }
    if let Some(PolicyEvent::DelveEnded { outcome, .. }) = e.get() {
        return Some(if outcome.goal_met() {
            MarkKind::Goal
        } else {
            MarkKind::End
        });
    }
    None
}

/// The round of the next mark of `kind` after `round` (any kind when `None`).
pub fn next_mark(marks: &[Mark], round: u64, kind: Option<MarkKind>) -> Option<u64> {
    marks
        .iter()
        .filter(|m| kind.is_none_or(|k| m.kind == k))
        .map(|m| m.round)
        .find(|r| *r > round)
}

/// The round of the last mark of `kind` before `round` (any kind when `None`).
pub fn previous_mark(marks: &[Mark], round: u64, kind: Option<MarkKind>) -> Option<u64> {
    marks
        .iter()
        .rev()
        .filter(|m| kind.is_none_or(|k| m.kind == k))
        .map(|m| m.round)
        .find(|r| *r < round)
}
