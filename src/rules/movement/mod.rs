//! Movement (Dungeon Delves › Speed and Distance; RULINGS › Encumbrance and speed, Time).
//!
//! Speeds come from encumbrance in stone or an explicit speed. A `Move` command walks the
//! cheapest path at a pace; in each round a walker gains that pace's feet per round (one tenth of
//! exploration speed when exploring) and spends them on 5-10-5 steps, carrying what is left over
//! to the next round, so 120' per turn is exactly 120' per turn.

use std::fmt;

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use crate::actors::{Command, CreatureIndex, Encumbrance, PendingCommands, Position};
use crate::grid::distance::step_feet;
use crate::grid::path::find_path;
use crate::grid::{DungeonGrid, GridPos};
use crate::level::SpeedBasis;
use crate::log::{Event, Logger};
use crate::sim::{RoundSet, SimRound};
use crate::time::ROUNDS_PER_TURN;

/// The three basic speeds (Dungeon Delves › Speed and Distance).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Pace {
    /// Feet per turn: cautious, quiet, mapping.
    #[default]
    Exploration,
    /// Feet per round: a brief hustle.
    Combat,
    /// Feet per round: the fastest pace.
    Running,
}

impl fmt::Display for Pace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Pace::Exploration => "exploration",
            Pace::Combat => "combat",
            Pace::Running => "running",
        })
    }
}

/// A creature's three speeds in feet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Speeds {
    /// Feet per turn.
    pub exploration: u32,
    /// Feet per round.
    pub combat: u32,
    /// Feet per round.
    pub running: u32,
}

impl Speeds {
    /// RULINGS › Encumbrance and speed: the speed table by encumbrance in stone, or an explicit
    /// speed used as exploration and running speed with a third of it as combat speed.
    /// `None` when the creature cannot move (over 20 stone).
    pub fn from_basis(basis: SpeedBasis) -> Option<Speeds> {
        match basis {
            SpeedBasis::Explicit { feet } => Some(Speeds {
                exploration: feet,
                combat: feet / 3,
                running: feet,
            }),
            SpeedBasis::Encumbrance { stone } => {
                let (exploration, combat, running) = if stone <= 5.0 {
                    (120, 40, 120)
                } else if stone <= 7.0 {
                    (90, 30, 90)
                } else if stone <= 10.0 {
                    (60, 20, 60)
                } else if stone <= 20.0 {
                    (30, 10, 30)
                } else {
                    return None;
                };
                Some(Speeds {
                    exploration,
                    combat,
                    running,
                })
            }
        }
    }

    /// Tenths of a foot gained per round at a pace: exploration moves one tenth of its per-turn
    /// speed each round.
    pub fn tenths_per_round(&self, pace: Pace) -> u32 {
        match pace {
            Pace::Exploration => self.exploration * 10 / ROUNDS_PER_TURN as u32,
            Pace::Combat => self.combat * 10,
            Pace::Running => self.running * 10,
        }
    }
}

/// A walk in progress.
#[derive(Component, Clone, Debug, PartialEq, Eq)]
pub struct Walking {
    pub path: Vec<GridPos>,
    /// Index in `path` of the next square to enter.
    pub next: usize,
    pub pace: Pace,
    /// Feet (in tenths) carried over from earlier rounds.
    pub banked_tenths: u32,
    /// Whether an odd number of diagonal steps has been taken (5-10-5).
    pub odd_diagonals: bool,
}

impl Walking {
    pub fn destination(&self) -> Option<GridPos> {
        self.path.last().copied()
    }
}

/// Movement: `Move` and `Halt` commands, and walking each round.
pub struct MovementPlugin;

impl Plugin for MovementPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(
            SimRound,
            accept_movement_commands.in_set(RoundSet::Commands),
        )
        .add_systems(SimRound, walk.in_set(RoundSet::Movement));
    }
}

/// Takes `Move` and `Halt` commands off the queue and starts or stops walks.
pub fn accept_movement_commands(
    mut pending: ResMut<PendingCommands>,
    index: Res<CreatureIndex>,
    grid: Res<DungeonGrid>,
    creatures: Query<(&Position, &Encumbrance)>,
    mut commands: Commands,
    mut log: Logger,
) {
    for command in std::mem::take(&mut pending.0) {
        let who = command.who().to_owned();
        let refuse = |log: &mut Logger, reason: String| {
            log.log(Event::CommandRefused {
                who: who.clone(),
                command: command.to_string(),
                reason,
            })
        };
        let Some((&entity, (pos, enc))) = index
            .0
            .get(&who)
            .and_then(|e| Some((e, creatures.get(*e).ok()?)))
        else {
            refuse(&mut log, format!("there is no creature named `{who}`"));
            continue;
        };
        match &command {
            Command::Move { to, pace, .. } => {
                let to = GridPos::new(to.0, to.1);
                let Some(speeds) = Speeds::from_basis(enc.0) else {
                    refuse(
                        &mut log,
                        "over 20 stone of encumbrance, it cannot move".into(),
                    );
                    continue;
                };
                if speeds.tenths_per_round(*pace) == 0 {
                    refuse(&mut log, format!("its {pace} speed is 0'"));
                    continue;
                }
                if !grid.in_bounds(to) {
                    refuse(&mut log, format!("{to} is outside the map"));
                    continue;
                }
                match find_path(&grid, pos.0, to) {
                    None => refuse(
                        &mut log,
                        format!("there is no open path from {} to {to}", pos.0),
                    ),
                    Some(path) => {
                        log.log(Event::CommandAccepted {
                            who: who.clone(),
                            command: format!("{command}, {}' by the shortest path", path.feet),
                        });
                        commands.entity(entity).insert(Walking {
                            path: path.squares,
                            next: 1,
                            pace: *pace,
                            banked_tenths: 0,
                            odd_diagonals: false,
                        });
                    }
                }
            }
            Command::Halt { .. } => {
                commands.entity(entity).remove::<Walking>();
                log.log(Event::CommandAccepted {
                    who: who.clone(),
                    command: command.to_string(),
                });
            }
        }
    }
}

/// Each round, every walker spends its pace's feet on steps along its path.
pub fn walk(
    grid: Res<DungeonGrid>,
    mut walkers: Query<(Entity, &Name, &mut Position, &mut Walking, &Encumbrance)>,
    mut commands: Commands,
    mut log: Logger,
) {
    let scale = grid.scale_feet();
    for (entity, name, mut pos, mut w, enc) in &mut walkers {
        let Some(speeds) = Speeds::from_basis(enc.0) else {
            continue;
        };
        w.banked_tenths += speeds.tenths_per_round(w.pace);
        let from = pos.0;
        let mut feet = 0;
        let mut halted = None;
        while let Some(&next) = w.path.get(w.next) {
            let diagonal = next.x != pos.0.x && next.y != pos.0.y;
            let cost = step_feet(diagonal, w.odd_diagonals, scale) * 10;
            if w.banked_tenths < cost {
                break;
            }
            if !grid.is_passable(next) {
                halted = Some(format!("{next} is blocked"));
                break;
            }
            w.banked_tenths -= cost;
            w.odd_diagonals ^= diagonal;
            pos.0 = next;
            w.next += 1;
            feet += cost / 10;
        }
        if feet > 0 {
            log.log(Event::Moved {
                who: name.to_string(),
                from,
                to: pos.0,
                feet,
            });
        }
        if let Some(reason) = halted {
            log.log(Event::Halted {
                who: name.to_string(),
                at: pos.0,
                reason,
            });
            commands.entity(entity).remove::<Walking>();
        } else if w.next >= w.path.len() {
            log.log(Event::Arrived {
                who: name.to_string(),
                at: pos.0,
            });
            commands.entity(entity).remove::<Walking>();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn speeds(stone: f32) -> Option<Speeds> {
        Speeds::from_basis(SpeedBasis::Encumbrance { stone })
    }

    #[test]
    fn speed_table_by_encumbrance() {
        let s = |e, c, r| {
            Some(Speeds {
                exploration: e,
                combat: c,
                running: r,
            })
        };
        assert_eq!(speeds(0.0), s(120, 40, 120));
        assert_eq!(speeds(5.0), s(120, 40, 120));
        assert_eq!(speeds(5.5), s(90, 30, 90));
        assert_eq!(speeds(7.0), s(90, 30, 90));
        assert_eq!(speeds(10.0), s(60, 20, 60));
        assert_eq!(speeds(20.0), s(30, 10, 30));
        assert_eq!(speeds(20.5), None);
    }

    #[test]
    fn explicit_speed_has_a_third_as_combat_speed() {
        let s = Speeds::from_basis(SpeedBasis::Explicit { feet: 90 }).unwrap();
        assert_eq!((s.exploration, s.combat, s.running), (90, 30, 90));
    }

    #[test]
    fn exploration_moves_a_tenth_per_round() {
        let s = speeds(3.0).unwrap();
        assert_eq!(s.tenths_per_round(Pace::Exploration), 120);
        assert_eq!(s.tenths_per_round(Pace::Combat), 400);
        assert_eq!(s.tenths_per_round(Pace::Running), 1200);
    }
}
