//! The party's formation (Dungeon Delves › Marching Order): the passage's width sets how many walk abreast, the leader's trail is where the others walk, and the followers take their places behind it each round, squeezing and running as walkers do.

use crate::creature::{Below, SwimmingSpeed};
use crate::rules::movement::hazards::KnownHazards;
use crate::rules::movement::{Footsteps, WaterCost};
use delve_ground::grid::{Terrain, WaterDepth};

use crate::creature::{
    ClassLevel, Conditions, Encumbrance, Faction, Position, Proficiencies, SavingThrows,
};
use crate::rules::movement::squeezes::{SqueezedOn, Squeezes, SqueezingMover};
use crate::rules::movement::{
    MovedThisRound, Pace, Speeds, StepRules, Walking, after_running,
    falls_running_into_difficult_terrain, take_steps,
};
use crate::rules::throws::Thrower;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use delve_ground::grid::path::find_path_with;
use delve_ground::grid::{DungeonGrid, GridPos};
use delve_ground::level::schema::ConditionKind;
use delve_ground::log::EventLog;
use delve_ground::table::Table;

use super::events::PartyEvent;
use super::parties::{Following, Formation, Parties, Party, party_tenths_per_round};
use super::staying::StayingBehind;

/// Width in feet of the passage at `at`, across the direction of travel `dir`: the square itself
/// and the passable squares on either side of it, up to two each way.
pub(super) fn passage_width_feet(grid: &DungeonGrid, at: GridPos, dir: (i32, i32)) -> u32 {
    let across = (-dir.1, dir.0);
    let mut squares = 1;
    for sign in [1, -1] {
        for k in 1..=2 {
            let p = GridPos::new(at.x + sign * k * across.0, at.y + sign * k * across.1);
            if !grid.is_passable(p) {
                break;
            }
            squares += 1;
        }
    }
    squares * grid.scale_feet()
}

/// Single file where the passage is 5' or less, two columns where it is 6' or more.
pub(super) fn formation_for(width_feet: u32) -> Formation {
    if width_feet >= 6 {
        Formation::TwoColumns
    } else {
        Formation::SingleFile
    }
}

/// Where each follower (marching order from the second member on) should stand.
pub(super) fn formation_slots(
    grid: &DungeonGrid,
    trail: &[GridPos],
    followers: usize,
    formation: Formation,
) -> Vec<Option<GridPos>> {
    let back = |k: usize| trail.len().checked_sub(1 + k).map(|i| trail[i]);
    (1..=followers)
        .map(|k| match formation {
            Formation::SingleFile => back(k),
            Formation::TwoColumns => {
                let rank = k / 2;
                let base = back(rank)?;
                if k % 2 == 0 {
                    return Some(base);
                }
                // Beside the rank's square, across the direction of travel.
                let ahead = if rank == 0 { base } else { back(rank - 1)? };
                let from = back(rank + 1).unwrap_or(base);
                let dir = ((ahead.x - from.x).signum(), (ahead.y - from.y).signum());
                let dir = if dir == (0, 0) { (1, 0) } else { dir };
                let across = (-dir.1, dir.0);
                // (Not into water over the head beside a trail that keeps out of it: the second
                // column walks where the leader walked, not where it would have to swim.)
                let deep = |p: GridPos| grid.terrain(p) == Some(Terrain::Water(WaterDepth::Deep));
                [1, -1]
                    .into_iter()
                    .map(|s| GridPos::new(base.x + s * across.0, base.y + s * across.1))
                    .find(|&p| {
                        grid.is_passable(p) && !trail.contains(&p) && (!deep(p) || deep(base))
                    })
                    .or_else(|| back(k))
            }
        })
        .collect()
}

pub(super) type Member<'a> = (
    &'a mut Footsteps,
    &'a Name,
    &'a mut Position,
    &'a Encumbrance,
    &'a mut Conditions,
    &'a mut MovedThisRound,
    &'a mut Following,
    (
        &'a SavingThrows,
        &'a Proficiencies,
        &'a ClassLevel,
        Has<Below>,
        Option<&'a SwimmingSpeed>,
    ),
);

/// A party's leader, as its followers see it.
pub(super) type Leader<'a> = (&'a Position, Option<&'a Walking>, Option<&'a Faction>);

/// What the followers keep to and keep from: the members out of the formation (those staying
/// behind, and followers walking a way of their own), and the holes they know of.
#[derive(SystemParam)]
pub(super) struct Keeping<'w, 's> {
    staying: Query<'w, 's, (), With<StayingBehind>>,
    own_way: Query<'w, 's, (), (With<Walking>, With<Following>)>,
    hazards: Option<Res<'w, KnownHazards>>,
}

/// After the leader has walked, the followers take their places behind it.
pub(super) fn keep_formation(
    mut table: Table,
    mut parties: ResMut<Parties>,
    leaders: Query<Leader, Without<Following>>,
    mut members: Query<Member>,
    rules: StepRules,
    keeping: Keeping,
    mut commands: Commands,
) {
    let round = table.clock.rounds;
    let grid: &DungeonGrid = &table.grid;
    let squeeze_on = Squeezes::on(rules.squeezing.as_deref());
    let no_hazards = KnownHazards::default();
    let hazards = keeping.hazards.as_deref().unwrap_or(&no_hazards);
    for party in &mut parties.0 {
        let (Some(pace), Some(leader)) = (party.pace, party.leader()) else {
            continue;
        };
        let Ok((at, walking, faction)) = leaders.get(leader) else {
            continue;
        };
        // In a battle the followers close up in their faction's initiative, after the leader.
        if !rules.acting.acts_now(faction.copied()) {
            continue;
        }
        // The leader's steps this round extend the trail; the formation fits the passage.
        let formation = extend_the_trail(party, at.0, walking, grid, (&mut table.log, round));
        let speeds = |e: Entity| members.get(e).ok().and_then(|m| Speeds::of(m.3.0, m.4));
        // (One who stays behind holds its square: it takes no place in the formation.)
        let followers: Vec<Entity> = party.marching_order[1..]
            .iter()
            .copied()
            .filter(|&e| !keeping.staying.contains(e))
            .collect();
        let Some(budget) = party_tenths_per_round(&followers, pace, speeds) else {
            // No one follows (a party of one): the march ends when its leader stops.
            if walking.is_none() && followers.is_empty() {
                party.pace = None;
                party.trail = vec![at.0];
            }
            continue;
        };
        let slots = formation_slots(grid, &party.trail, followers.len(), formation);
        let mut taken: Vec<GridPos> = vec![at.0];
        // In a battle each fights where it stands: the march ends with the leader's walk, and
        // followers may close up onto a fellow's square (two share one only in a squeeze or a
        // fight).
        let fighting = faction.is_some_and(|f| rules.acting.fighting(*f));
        // Where each member stands, kept as they move: outside a fight a follower's move never
        // ends on a fellow's square.
        let mut standing: Vec<(Entity, GridPos)> = party
            .marching_order
            .iter()
            .filter_map(|&e| {
                if e == leader {
                    Some((e, at.0))
                } else {
                    members.get(e).ok().map(|m| (e, m.2.0))
                }
            })
            .collect();
        let deep = |p: GridPos| grid.terrain(p) == Some(Terrain::Water(WaterDepth::Deep));
        // Whether every follower stands at its place (or cannot get nearer), and whether any
        // moved: the march ends once the party has closed up behind a leader who stopped.
        let (mut closed_up, mut moved_any) = (true, false);
        for (&e, slot) in followers.iter().zip(slots) {
            let Ok((
                mut footsteps,
                name,
                mut pos,
                enc,
                mut conditions,
                mut moved,
                mut follow,
                rolls,
            )) = members.get_mut(e)
            else {
                continue;
            };
            // (One walking a way of its own, told to, is not pulled back into line.)
            let Some(slot) = slot
                .filter(|s| !taken.contains(s))
                .filter(|_| free_to_follow(&conditions, rolls.3) && !keeping.own_way.contains(e))
            else {
                taken.push(pos.0);
                continue;
            };
            follow.banked_tenths += budget;
            if slot == pos.0 {
                follow.banked_tenths = 0;
                taken.push(pos.0);
                continue;
            }
            // RULINGS › Pits and holes: never into a hole the party knows of; nor into water
            // over the head where the leader kept out of it (a follower walks where the leader
            // walked, not where it would have to swim).
            let swims = deep(pos.0) || party.trail.iter().any(|&p| deep(p));
            let Some(path) = find_path_with(grid, pos.0, slot, |p| {
                grid.is_passable(p) && !hazards.hole(faction.copied(), p) && (swims || !deep(p))
            }) else {
                taken.push(pos.0);
                continue;
            };
            let mut odd = false;
            let mut steps = take_steps(
                grid,
                &path.squares,
                1,
                &mut follow.banked_tenths,
                &mut odd,
                WaterCost::of(enc.0, rolls.4),
            )
            .steps;
            // Dungeon Delves › Squeezing: followers squeeze through as walkers do.
            let squares: Vec<GridPos> = steps.iter().map(|s| s.0).collect();
            let squeezed = squeeze_on(
                grid,
                (&mut table.dice, &mut table.log, round),
                (rules.tactical.as_deref(), rules.penalties_on.is_some()),
                SqueezingMover {
                    mouth_taken: false,
                    name,
                    at: pos.0,
                    conditions: &mut conditions,
                    profs: rolls.1,
                    encumbrance: enc,
                    path: &path.squares,
                    next: 1,
                    steps: &squares,
                },
            );
            if let SqueezedOn::UpToTheSqueeze(n) = squeezed {
                steps.truncate(n);
            } else if squeezed != SqueezedOn::Moves {
                if let SqueezedOn::Stuck(stuck_in) = squeezed {
                    commands.entity(e).insert(stuck_in);
                }
                follow.banked_tenths = 0;
                taken.push(pos.0);
                continue;
            }
            while !fighting
                && steps
                    .last()
                    .is_some_and(|s| standing.iter().any(|&(o, p)| o != e && p == s.0))
            {
                steps.pop();
            }
            // Followers run by the running rules as their leader does (Dungeon Delves ›
            // Running): difficult terrain calls for the save, and a runner is disordered.
            let fell = pace == Pace::Running
                && falls_running_into_difficult_terrain(
                    grid,
                    (&mut table.dice, &mut table.log, round),
                    Thrower::new(name, &conditions, rules.tactical.as_deref()),
                    (rolls.0, rolls.1, rolls.2),
                    &mut steps,
                );
            let from = pos.0;
            let feet: u32 = steps.iter().map(|s| s.1).sum();
            for &(next, ..) in &steps {
                footsteps.step(pos.0, next);
                pos.0 = next;
            }
            if pos.0 == slot || fell {
                follow.banked_tenths = 0;
            } else {
                closed_up = false;
            }
            moved_any |= feet > 0;
            if let Some(s) = standing.iter_mut().find(|s| s.0 == e) {
                s.1 = pos.0;
            }
            moved.record(&mut table.log, round, name, pace, (from, pos.0), feet);
            after_running(
                &mut table.log,
                round,
                name,
                &mut conditions,
                (pace, feet, fell),
            );
            taken.push(pos.0);
        }
        if walking.is_none() && (closed_up || !moved_any || fighting) {
            // The leader has arrived or stopped: the march ends once everyone has closed up
            // (or no one can get nearer its place).
            party.pace = None;
            party.trail = vec![at.0];
        }
    }
}

/// One that fell stays down until it stands up; nor does one at the bottom of a pit (`below`),
/// stuck in a squeeze or drowning follow its leader.
pub(super) fn free_to_follow(conditions: &Conditions, below: bool) -> bool {
    let held =
        below || conditions.has(ConditionKind::Stuck) || conditions.has(ConditionKind::Drowning);
    !conditions.has(ConditionKind::Prone) && !held
}

/// The leader's steps this round extend the party's trail, and the formation changes to fit
/// the passage the leader is in (Dungeon Delves › Marching Order), logged when it changes.
pub(super) fn extend_the_trail(
    party: &mut Party,
    leader_at: GridPos,
    walking: Option<&Walking>,
    grid: &DungeonGrid,
    (log, round): (&mut EventLog, u64),
) -> Formation {
    // The leader's steps this round extend the trail.
    if party.trail.last() != Some(&leader_at) {
        if let Some(walk) = walking {
            let done = &walk.path[..walk.next.min(walk.path.len())];
            let start = done
                .iter()
                .rposition(|p| Some(p) == party.trail.last())
                .map_or(0, |i| i + 1);
            party.trail.extend_from_slice(&done[start..]);
        }
        if party.trail.last() != Some(&leader_at) {
            party.trail.push(leader_at);
        }
    }
    let n = party.trail.len();
    let dir = if n >= 2 {
        let (a, b) = (party.trail[n - 2], party.trail[n - 1]);
        ((b.x - a.x).signum(), (b.y - a.y).signum())
    } else {
        (1, 0)
    };
    let formation = formation_for(passage_width_feet(grid, leader_at, dir));
    if formation != party.formation {
        party.formation = formation;
        log.push(
            round,
            PartyEvent::FormationChanged {
                party: party.name.clone(),
                formation,
            },
        );
    }
    formation
}
