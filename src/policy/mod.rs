//! Minds that give commands: the monsters' reactions to light and noise. A policy only gives
//! [`Command`](crate::command::Command)s, the same ones a player gives, so everything it does is
//! logged and replayable.

pub mod monsters;
