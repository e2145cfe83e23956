//! Why a party command is refused.

use crate::rules::movement::MoveRefusal;

use std::fmt;

use crate::act::Reason;

/// Why a party command is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PartyRefusal {
    NoMembers,
    MemberTooEncumbered,
    NotInParty {
        name: String,
    },
    NamedTwice {
        name: String,
    },
    /// A marching order names every member once.
    NameEveryMember {
        members: usize,
    },
    /// A member cannot move at the party's pace: a winded member cannot run, so neither can
    /// the party (Dungeon Delves › Running).
    MemberCannot {
        name: String,
        why: MoveRefusal,
    },
    /// Gear is taken from the fallen, or from a companion.
    NeitherDownNorCompanion {
        name: String,
    },
    /// Gear is taken from one beside it.
    NotBeside {
        name: String,
    },
    /// One is at the bottom of a pit or shaft and the other on its rim (RULINGS › Pits and
    /// holes): neither reaches the other.
    NotAtTheSameDepth {
        name: String,
    },
    NothingToTake {
        name: String,
    },
    /// No mind runs in this delve to take the party ([`Autonomy`]).
    NoMind,
    /// Only a member of a party stays behind it.
    NotInAParty,
    /// It already stays behind (`stay: true`), or already marches with the party.
    AlreadyStaying {
        stay: bool,
    },
    /// A party leaves the level by its way in (or the level's way out), every member who is up
    /// there with it.
    NotAtTheWayOut {
        name: String,
    },
    /// It has left the level already.
    AlreadyLeft,
    /// One who stays behind falls in again before it goes to the front.
    StaysBehindFirst,
    /// It leads the march already.
    LeadsAlready,
    /// A member who would make way (or the one going forward) cannot move now.
    CannotStepAside {
        name: String,
    },
    /// A member's way to its new place is longer than its combat speed.
    TooFarToStepAside {
        name: String,
        feet: u32,
        speed: u32,
    },
}

impl Reason for PartyRefusal {}

impl fmt::Display for PartyRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PartyRefusal::NoMembers => write!(f, "the party has no members"),
            PartyRefusal::NoMind => write!(f, "no mind runs in this delve to take the party"),
            PartyRefusal::MemberTooEncumbered => write!(f, "a member is too encumbered to move"),
            PartyRefusal::NotInParty { name } => write!(f, "`{name}` is not in the party"),
            PartyRefusal::NamedTwice { name } => write!(f, "`{name}` is named twice"),
            PartyRefusal::NameEveryMember { members } => {
                write!(f, "name all {members} members of the party")
            }
            PartyRefusal::MemberCannot { name, why } => write!(f, "{name}: {why}"),
            PartyRefusal::NeitherDownNorCompanion { name } => {
                write!(f, "{name} is neither fallen nor a companion")
            }
            PartyRefusal::NotBeside { name } => write!(f, "{name} is not beside it"),
            PartyRefusal::NotAtTheSameDepth { name } => {
                write!(
                    f,
                    "{name} is not at its depth: one is down in a hole, the other above"
                )
            }
            PartyRefusal::NothingToTake { name } => write!(f, "{name} carries nothing to take"),
            PartyRefusal::NotInAParty => write!(f, "it is in no party"),
            PartyRefusal::AlreadyStaying { stay: true } => write!(f, "it already stays behind"),
            PartyRefusal::NotAtTheWayOut { name } => write!(
                f,
                "{name} is not at the way out: the party leaves together, every member who is up \
                 within 10' of it"
            ),
            PartyRefusal::AlreadyLeft => write!(f, "the party has left the level"),
            PartyRefusal::StaysBehindFirst => {
                write!(
                    f,
                    "it stays behind: it falls in again before it goes to the front"
                )
            }
            PartyRefusal::LeadsAlready => write!(f, "it leads the march already"),
            PartyRefusal::CannotStepAside { name } => {
                write!(
                    f,
                    "{name} cannot move now (down, stuck, in a hole or in the water)"
                )
            }
            PartyRefusal::TooFarToStepAside { name, feet, speed } => write!(
                f,
                "{name} would have {feet}' to go, more than its combat speed of {speed}'"
            ),
            PartyRefusal::AlreadyStaying { stay: false } => {
                write!(f, "it already marches with the party")
            }
        }
    }
}
