//! How the party's policy tells the log what it decided and why ([`PolicyEvent`], [`Intent`]).

use std::fmt;

use super::{Intent, PolicyEvent};

impl fmt::Display for PolicyEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (party, tactic, intent) = match self {
            PolicyEvent::Decided {
                party,
                tactic,
                intent,
            } => (party, tactic, intent),
            PolicyEvent::DelveEnded {
                party,
                outcome,
                tally,
            } => return write!(f, "the delve of {party} is over: {outcome} ({tally})"),
            PolicyEvent::Judged {
                party,
                foe,
                rounds_to_fell,
                wounds_expected,
                party_hit_points,
                too_strong,
            } => {
                return write!(
                    f,
                    "{party}'s policy judges {foe}: {rounds_to_fell:.1} rounds to fell it, \
                     {wounds_expected:.0} hit points of wounds meanwhile of the party's \
                     {party_hit_points:.0}: {}",
                    if *too_strong {
                        "too strong, it keeps clear"
                    } else {
                        "it will fight"
                    }
                );
            }
            PolicyEvent::Weighed {
                party,
                chosen,
                others,
            } => {
                write!(f, "{party}'s planner weighs: {chosen}")?;
                for o in others {
                    write!(f, "; against {o}")?;
                }
                return Ok(());
            }
            PolicyEvent::SetAside {
                party,
                tactic,
                intent,
            } => {
                return write!(
                    f,
                    "{party}'s policy sets aside {tactic} ({intent}) for three turns: five \
                     times in a row it changed nothing"
                );
            }
        };
        write!(f, "{party}'s policy ({tactic}): {intent}")
    }
}

impl fmt::Display for Intent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Intent::SetOut => write!(f, "set out"),
            Intent::Relight { who } => write!(f, "{who} lights the next light"),
            Intent::Refuel { who } => write!(f, "{who} fills the lantern"),
            Intent::ClearJam { who } => write!(f, "{who} clears the jam of its firearm"),
            Intent::Rest => write!(f, "rest a turn"),
            Intent::TurnBack { why } => write!(f, "turn back ({why:?})"),
            Intent::Explore { to } => write!(f, "explore toward {to}"),
            Intent::MakeForGoal { to } => write!(f, "make for the goal at {to}"),
            Intent::HoldThePassage { front } => {
                write!(f, "hold the passage, the sturdiest at {front}")
            }
            Intent::SeekOut { foe, to } => write!(f, "seek out {foe}, last seen beside {to}"),
            Intent::GoHome { to } => write!(f, "go back to the way in at {to}"),
            Intent::Rejoin { who, at } => {
                write!(f, "go back to {} waiting at {at}", who.join(" and "))
            }
            Intent::Approach { to } => write!(f, "walk up to {to}"),
            Intent::ListenAt { door } => write!(f, "listen at the door at {door}"),
            Intent::Door { at, how } => write!(f, "the door at {at}: {how:?}"),
            Intent::Search { at } => write!(f, "search at {at}"),
            Intent::Disarm { at } => write!(f, "disarm the trap at {at}"),
            Intent::Prod { at } => write!(f, "prod the trap at {at} with the pole"),
            Intent::FallBack {
                from,
                wounds,
                hit_points,
            } => write!(
                f,
                "fall back: {from} is coming on, {wounds} hit points of wounds expected before \
                 it falls, of the party's {hit_points}"
            ),
            Intent::WaitOut { foe } => {
                write!(
                    f,
                    "wait at the way in, resting, for {foe} to keep away a turn"
                )
            }
            Intent::TryAgain { after } => {
                write!(f, "go on again: {after} has been out of sight a turn")
            }
            Intent::SpikeBehind { at } => write!(f, "spike the door at {at} shut behind"),
            Intent::ClimbOut { who } => write!(f, "get {who} out of the pit"),
            Intent::HaulUp { whom } => write!(f, "haul {whom} up out of the pit"),
            Intent::Rescue { who } => write!(f, "save {who} from drowning"),
            Intent::CloseUp => write!(f, "close up"),
            Intent::TakeFromTheFallen { from } => write!(f, "take what {from} carried"),
            Intent::Carry { whom } => write!(f, "carry {whom} home"),
            Intent::LeaveAtTheSqueeze { whom } => write!(
                f,
                "leave {whom}: no one laden with it would get through the squeeze"
            ),
            Intent::GetUnstuck { who } => write!(f, "get {who} out of the squeeze"),
            Intent::JumpTheGap { who, over } => write!(f, "{who} jumps the hole at {over}"),
            Intent::Traverse { who, to } => write!(f, "{who} traverses the ledge to {to}"),
            Intent::TakeALight { at } => write!(f, "take the light at {at}"),
            Intent::SendAhead {
                who,
                wait,
                past,
                aim,
            } => {
                let verb = |v: &[String], one: &'static str, many: &'static str| {
                    if v.len() == 1 { one } else { many }
                };
                write!(
                    f,
                    "{} {} on past {past} to {aim}; {} {}",
                    who.join(" and "),
                    verb(who, "goes", "go"),
                    wait.join(" and "),
                    verb(wait, "waits", "wait"),
                )
            }
            Intent::ClimbThrough { who, shaft } => {
                write!(f, "{who} climbs down the shaft at {shaft} and out")
            }
        }
    }
}

impl fmt::Display for super::plan::Weighing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let who = if self.goers.is_empty() {
            "all".to_string()
        } else {
            self.goers.join(" and ")
        };
        write!(
            f,
            "{} ({who}; {:.0}% through there and back, {:.0}% to lose one; {} squares; score {:.0})",
            self.aim.intent(),
            self.chance * 100.0,
            self.lost * 100.0,
            self.squares,
            self.score,
        )
    }
}
