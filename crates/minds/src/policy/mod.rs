//! Minds that give commands: the adventuring party's policy and the monsters' reactions to
//! light and noise. A policy only gives [`Command`](delve_rules::command::Command)s, the same ones a
//! player gives, so everything it does is logged and replayable; it reads only what its faction
//! knows ([`knowledge`]).

pub mod behaviour;
pub mod knowledge;
pub mod monsters;
pub mod outcome;
pub mod party;
