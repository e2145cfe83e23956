//! The structured event log: every rule resolution and every change of state is an event,
//! stamped with its round. Each rule area defines its own event types (an enum tagged `event`
//! in snake case, implementing [`LogEvent`]); the log stores them as data and knows no rule.
//! People read it as text, tools as JSON lines; the window's log panel, `delve sim`, batch runs
//! and tests all read the same entries, and tests ask for them by type ([`EventLog::of`]).

use crate::grid::GridPos;

use std::any::Any;
use std::fmt;

use bevy::prelude::*;
use serde::Serialize;

use crate::time::Clock;

/// An event a rule area records. Implement it on the area's event enum (which also derives
/// `Serialize` with `#[serde(tag = "event", rename_all = "snake_case")]`, `Clone`, `PartialEq`
/// and `Debug`, and says itself in words with `Display`). Each event says whom it concerns and
/// what kind it is (no default: what it reveals to a party's log follows from them).
pub trait LogEvent: fmt::Display + fmt::Debug + Send + Sync + 'static {
    /// The creature (or party) the event is about; `None` for one about no one in particular
    /// (the passing of time), which every party learns of.
    fn who(&self) -> Option<&str>;

    /// Another creature the event happens to (an attack's target): it learns of it too.
    fn also_concerns(&self) -> Option<&str> {
        None
    }

    /// The Judge's secret: throws made behind the screen, which the players never see.
    fn secret(&self) -> bool {
        false
    }

    /// What sort of event it is, for the log panel's filter.
    fn kind(&self) -> LogKind;

    /// The words the party `party` (its members' names) is told this in, where the Judge's
    /// words name what it may not know (another faction's name, an unseen noise's maker);
    /// `None` when they are the same.
    fn told_to_party(&self, _members: &[&str], _party: &str) -> Option<String> {
        None
    }

    /// The square where it happened, if it happened at one.
    fn at(&self) -> Option<GridPos> {
        None
    }

    /// Does the party learn of this? Of what is not secret the party knows what happens to its
    /// own members and to no one in particular (the passing of time).
    fn known_to_party(&self, members: &[&str], party: &str) -> bool {
        if self.secret() {
            return false;
        }
        let ours = |w: &str| w == party || members.contains(&w);
        match (self.who(), self.also_concerns()) {
            (None, None) => true,
            (who, other) => who.is_some_and(ours) || other.is_some_and(ours),
        }
    }
}

/// The sorts of event the log panel filters by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, strum::VariantArray)]
pub enum LogKind {
    /// Throws, with their targets and modifiers.
    Throws,
    /// Walking, climbing, swimming, the party's march.
    Moves,
    /// Noises heard.
    Noise,
    Doors,
    Traps,
    /// Battles, attacks, wounds, conditions.
    Combat,
    /// Commands given, accepted or refused.
    Orders,
    /// The Judge's own doing.
    Judge,
    Other,
}

impl LogKind {
    pub const ALL: &'static [LogKind] = <LogKind as strum::VariantArray>::VARIANTS;

    pub fn words(self) -> &'static str {
        match self {
            LogKind::Throws => "throws",
            LogKind::Moves => "moves",
            LogKind::Noise => "noise",
            LogKind::Doors => "doors",
            LogKind::Traps => "traps",
            LogKind::Combat => "combat",
            LogKind::Orders => "orders",
            LogKind::Judge => "the Judge",
            LogKind::Other => "other",
        }
    }
}

/// What the log needs of an event beyond [`LogEvent`]: JSON, cloning, comparing, and its type.
/// Every `LogEvent` that is `Serialize + Clone + PartialEq` has it.
pub trait RecordedEvent: LogEvent {
    /// The event as one JSON object (without its round).
    fn to_json(&self) -> String;
    fn as_any(&self) -> &dyn Any;
    fn clone_boxed(&self) -> Box<dyn RecordedEvent>;
    fn same_as(&self, other: &dyn RecordedEvent) -> bool;
}

impl<T: LogEvent + Serialize + Clone + PartialEq> RecordedEvent for T {
    fn to_json(&self) -> String {
        serde_json::to_string(self).expect("log events serialize")
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn clone_boxed(&self) -> Box<dyn RecordedEvent> {
        Box::new(self.clone())
    }

    fn same_as(&self, other: &dyn RecordedEvent) -> bool {
        other.as_any().downcast_ref::<T>() == Some(self)
    }
}

/// One entry: the round it happened in and the event.
pub struct LogEntry {
    pub round: u64,
    event: Box<dyn RecordedEvent>,
    /// [`LogEntry::digest`], worked out once.
    digest: std::sync::OnceLock<u32>,
    /// For an event about no one at a square (a door swinging shut by itself): the factions
    /// that saw that square as it happened ([`EventLog::witness`]). Not part of the event.
    witnesses: Vec<usize>,
}

impl LogEntry {
    pub fn new(round: u64, event: impl RecordedEvent) -> Self {
        Self {
            round,
            event: Box::new(event),
            digest: Default::default(),
            witnesses: Vec::new(),
        }
    }

    /// Does the party (its members' names, its own name, its faction) learn of this entry?
    /// Of an event about no one at a square, only if it saw that square as it happened
    /// (RULINGS › Knowledge); otherwise as [`LogEvent::known_to_party`] says.
    pub fn known_to_party(&self, members: &[&str], party: &str, faction: usize) -> bool {
        if self.about_no_one_at().is_some() {
            return !self.event.secret() && self.witnesses.contains(&faction);
        }
        self.event.known_to_party(members, party)
    }

    /// The entry as the party `party` reads it, stamped with its time (see
    /// [`LogEvent::told_to_party`]).
    pub fn told_to_party(&self, members: &[&str], party: &str) -> String {
        let c = Clock { rounds: self.round };
        format!(
            "[h{} t{} r{}] {}",
            c.hours(),
            c.turn_of_hour(),
            c.round_of_turn(),
            self.words_for_party(members, party)
        )
    }

    /// The event in the words the party `party` is told it in.
    pub fn words_for_party(&self, members: &[&str], party: &str) -> String {
        self.event
            .told_to_party(members, party)
            .unwrap_or_else(|| self.event.to_string())
    }

    /// The square of an event about no one in particular that happened at one.
    fn about_no_one_at(&self) -> Option<GridPos> {
        let e = self.event();
        (e.who().is_none() && e.also_concerns().is_none())
            .then(|| e.at())
            .flatten()
    }

    /// A hash of the entry (its JSON line), to tell whether a replay logged the same: the
    /// journal keeps these for each turn (the turn checks).
    pub fn digest(&self) -> u32 {
        *self.digest.get_or_init(|| {
            let hash = blake3::hash(self.to_json().as_bytes());
            u32::from_le_bytes(hash.as_bytes()[..4].try_into().expect("four bytes"))
        })
    }

    /// The event, whatever its type.
    pub fn event(&self) -> &dyn RecordedEvent {
        self.event.as_ref()
    }

    /// The event, if it is of type `T`.
    pub fn get<T: 'static>(&self) -> Option<&T> {
        self.event.as_any().downcast_ref()
    }

    /// One line of JSON (a JSON-lines record): `round` first, then the event's own fields.
    pub fn to_json(&self) -> String {
        let event = self.event.to_json();
        let fields = event
            .strip_prefix('{')
            .expect("a log event serializes as a JSON object");
        if fields == "}" {
            format!("{{\"round\":{}}}", self.round)
        } else {
            format!("{{\"round\":{},{fields}", self.round)
        }
    }
}

impl Clone for LogEntry {
    fn clone(&self) -> Self {
        Self {
            round: self.round,
            event: self.event.clone_boxed(),
            digest: self.digest.clone(),
            witnesses: self.witnesses.clone(),
        }
    }
}

impl PartialEq for LogEntry {
    fn eq(&self, other: &Self) -> bool {
        self.round == other.round && self.event.same_as(other.event.as_ref())
    }
}

impl fmt::Debug for LogEntry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[round {}] {:?}", self.round, self.event)
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
    /// The entries before this one have had their witnesses noted.
    witnessed: usize,
}

/// Two logs are the same when their entries are.
impl PartialEq for EventLog {
    fn eq(&self, other: &Self) -> bool {
        self.entries == other.entries
    }
}

impl EventLog {
    /// Notes, for each entry since the last call about no one at a square, which factions
    /// `saw` that square: they learn of it (the vision area calls this after everyone looks).
    pub fn witness(&mut self, saw: impl Fn(GridPos) -> Vec<usize>) {
        for e in &mut self.entries[self.witnessed..] {
            if let Some(at) = e.about_no_one_at() {
                e.witnesses = saw(at);
            }
        }
        self.witnessed = self.entries.len();
    }

    pub fn push(&mut self, round: u64, event: impl RecordedEvent) {
        self.entries.push(LogEntry::new(round, event));
    }

    /// Puts an event before the entry at `index`: a command's acceptance goes before the
    /// outcome its rule logged while carrying it out.
    pub fn insert(&mut self, index: usize, round: u64, event: impl RecordedEvent) {
        self.entries.insert(index, LogEntry::new(round, event));
        if index < self.witnessed {
            self.witnessed += 1;
        }
    }

    pub fn entries(&self) -> &[LogEntry] {
        &self.entries
    }

    /// A log of these entries (a keyframe's log, restored).
    pub fn from_entries(entries: Vec<LogEntry>) -> Self {
        Self {
            witnessed: entries.len(),
            entries,
        }
    }

    /// Every event of type `T`, in order.
    pub fn of<T: 'static>(&self) -> impl Iterator<Item = &T> {
        self.entries.iter().filter_map(LogEntry::get)
    }

    /// Every event of type `T` with its round, in order.
    pub fn of_with_round<T: 'static>(&self) -> impl Iterator<Item = (u64, &T)> {
        self.entries
            .iter()
            .filter_map(|e| e.get().map(|ev| (e.round, ev)))
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
    ///
    /// One line an entry: a control character in it (a newline or an escape sequence in a name
    /// a script gave) is written escaped, `\n`, `\u{1b}`, so that no entry can forge another
    /// line or colour the reader's terminal.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        for e in &self.entries {
            let line = e.to_string();
            if line.chars().any(char::is_control) {
                for c in line.chars() {
                    if c.is_control() {
                        s.extend(c.escape_default());
                    } else {
                        s.push(c);
                    }
                }
            } else {
                s.push_str(&line);
            }
            s.push('\n');
        }
        s
    }
}

/// Writes to the log stamped with the current round.
#[derive(bevy::ecs::system::SystemParam)]
pub struct Logger<'w> {
    log: ResMut<'w, EventLog>,
    clock: Res<'w, Clock>,
}

impl Logger<'_> {
    pub fn log(&mut self, event: impl RecordedEvent) {
        let round = self.clock.rounds;
        self.log.push(round, event);
    }
}

/// Pushes an event to a world's log at the current round.
pub fn log_in(world: &mut World, event: impl RecordedEvent) {
    let round = world.resource::<Clock>().rounds;
    world.resource_mut::<EventLog>().push(round, event);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Debug, PartialEq, Serialize)]
    #[serde(tag = "event", rename_all = "snake_case")]
    enum Sample {
        Walked { who: String, feet: u32 },
        Secret { who: String },
        Tolled,
    }

    impl LogEvent for Sample {
        fn who(&self) -> Option<&str> {
            match self {
                Sample::Walked { who, .. } | Sample::Secret { who } => Some(who),
                Sample::Tolled => None,
            }
        }

        fn secret(&self) -> bool {
            matches!(self, Sample::Secret { .. })
        }

        fn kind(&self) -> LogKind {
            LogKind::Moves
        }
    }

    impl fmt::Display for Sample {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            match self {
                Sample::Walked { who, feet } => write!(f, "{who} walks {feet}'"),
                Sample::Secret { who } => write!(f, "a secret about {who}"),
                Sample::Tolled => write!(f, "a bell tolls"),
            }
        }
    }

    #[test]
    fn entries_are_data_with_text_and_json_views() {
        let mut log = EventLog::default();
        log.push(
            12,
            Sample::Walked {
                who: "Brannoc".into(),
                feet: 10,
            },
        );
        log.push(13, Sample::Tolled);
        assert_eq!(
            log.to_json_lines(),
            "{\"round\":12,\"event\":\"walked\",\"who\":\"Brannoc\",\"feet\":10}\n\
             {\"round\":13,\"event\":\"tolled\"}\n"
        );
        assert_eq!(log.entries()[0].to_string(), "[h0 t1 r2] Brannoc walks 10'");
        assert_eq!(
            log.of::<Sample>().count(),
            2,
            "events are found by their type"
        );
        assert_eq!(log.of::<String>().count(), 0);
        assert_eq!(log.clone(), log);
    }

    #[test]
    fn the_party_learns_of_its_own_but_not_the_judges_secrets() {
        let members = ["Sera", "Brannoc"];
        let walked = |who: &str| Sample::Walked {
            who: who.into(),
            feet: 5,
        };
        assert!(walked("Sera").known_to_party(&members, "party"));
        assert!(!walked("Gnawbone").known_to_party(&members, "party"));
        assert!(!Sample::Secret { who: "Sera".into() }.known_to_party(&members, "party"));
        assert!(Sample::Tolled.known_to_party(&members, "party"));
    }
}
