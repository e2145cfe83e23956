//! Searching (Dungeon Delves › Searching and Listening).
//!
//! A methodical search takes a turn and covers the squares within 5' (10' with a pole): a
//! Searching throw of 18+ (14+ with Alertness), or the class value +4 for those proficient in
//! Searching. A hasty search takes a round, is for those proficient in Searching only, at the
//! class value, and cannot be repeated on the same area until the searcher's level rises; nor is
//! a hidden feature searched for hastily again once it was missed, from whatever square. A thief
//! moving at exploration speed searches hastily, by itself, every hidden feature that comes
//! within its reach of any square it passes; that counts as a failed hasty search of a feature it
//! misses. Each hidden feature's own search modifier applies. The Judge throws in secret: the log
//! (the Judge's) shows every throw; the party learns only what is found.
//!
//! Some features are only partly hidden and "permit a hasty throw even for non-thieves"
//! (`hasty_for_anyone` in the level): anyone within reach of one may search hastily, for those
//! features only, at the Adventuring target the table gives (18+, 14+ with Alertness — the
//! table's Adventuring row has no number of its own for a hasty search).

pub mod events;
use crate::act::Concern;
use crate::creature::{Conditions, Faction};
use crate::rules::areas::{Rank, RuleArea};
use crate::rules::task::Work;
use crate::rules::throws::{Skill, Thrower};
use crate::schedule::{RoundSet, SimRound};
use delve_ground::dice::Dice;
use delve_ground::level::schema::{ConditionKind, JudgeModifier};

pub use events::SearchEvent;

use bevy::prelude::*;

use crate::act::{Reason, Refusal, Unable, square_of};
use crate::rules::throws::ThrowKind;
use delve_ground::query_cache::read_query;

use crate::creature::{ClassLevel, Equipment, Position, Proficiencies};
use crate::rules::doors::Door;
use crate::rules::movement::{Footsteps, MovedThisRound, Pace};
use crate::rules::throws::ThrowOdds;
use crate::rules::traps::Trap;
use delve_ground::dice::Modifier;
use delve_ground::grid::{DungeonGrid, GridPos};
use delve_ground::level::schema::{Gear, Proficiency};
use delve_ground::log::EventLog;
use delve_ground::time::{Clock, ROUNDS_PER_TURN};

/// How far a search reaches: 5', or 10' with a pole.
pub fn reach_feet(gear: Option<&Equipment>) -> u32 {
    if gear.is_some_and(|g| g.has(&Gear::TenFootPole)) {
        10
    } else {
        5
    }
}

/// The Searching target and its bonus: methodical searches by those proficient add +4 to the
/// class value; others throw 18+ (14+ with Alertness); hasty searches need the proficiency.
fn searching_target(profs: &Proficiencies, methodical: bool) -> Option<(i32, Vec<Modifier>)> {
    let class = profs
        .throws
        .get(&Proficiency::Searching)
        .filter(|_| profs.has(Proficiency::Searching))
        .copied();
    match (class, methodical) {
        (Some(t), true) => Some((t, vec![Modifier::new(4, "methodical search")])),
        (Some(t), false) => Some((t, Vec::new())),
        (None, true) if profs.has(Proficiency::Alertness) => Some((14, Vec::new())),
        (None, true) => Some((18, Vec::new())),
        (None, false) => None,
    }
}

/// The searches open to a creature where it stands, each with its time and chance: methodical
/// (a turn; 5', 10' with a pole), and hasty (a round; proficient, and not already searched here
/// hastily at its level; or, for anyone, where a partly hidden feature is within reach: see
/// [`hasty_search_of`]).
/// The chances count the searcher's situation (`situation`: [`searching_situation`]), not how
/// well the features it might find are hidden or lit.
pub fn searches_here(world: &World, who: Entity) -> Vec<(Concern, crate::act::Choice)> {
    let (Some(here), Some(thrower)) = (
        world.get::<Position>(who).map(|p| p.0),
        Thrower::of(world, who),
    ) else {
        return Vec::new();
    };
    let level = world
        .get::<crate::creature::ClassLevel>(who)
        .map_or(0, |c| c.level);
    let no_profs = Proficiencies::default();
    let no_gear = Equipment::default();
    let profs = world.get::<Proficiencies>(who).unwrap_or(&no_profs);
    let gear = world.get::<Equipment>(who).unwrap_or(&no_gear);
    let searched_here = world
        .get::<HastilySearched>(who)
        .is_some_and(|s| s.area(here, level));
    let hasty = hasty_search_of(world, who, &[here])
        .filter(|_| !searched_here)
        .map(|(target, ..)| target);
    let situation = searching_situation(world, who);
    // In a battle only the hasty search, a round's action (RULINGS › The battle round); the
    // methodical one takes a turn, which an encounter interrupts (RULINGS › Time).
    let battle = crate::creature::in_battle(world, who);
    search_choices(&thrower, profs, gear, hasty, &situation)
        .into_iter()
        .filter(|c| !battle || c.command.get::<Search>().is_none())
        .map(|c| (Concern::Here, c))
        .collect()
}

fn search_choices(
    who: &Thrower,
    profs: &Proficiencies,
    gear: &Equipment,
    hasty: Option<i32>,
    situation: &[Modifier],
) -> Vec<crate::act::Choice> {
    use crate::act::AnyAct;
    use crate::act::Choice;
    use crate::rules::throws::ThrowKind;
    let mut out = Vec::new();
    let name = who.name;
    if let Some((target, mut mods)) = searching_target(profs, true) {
        mods.extend(situation.iter().cloned());
        let note = format!("within {}'", reach_feet(Some(gear)));
        let search = AnyAct::from(Search { who: name.into() });
        out.push(Choice::thrown(
            "search methodically",
            "1 turn",
            ThrowOdds {
                who,
                kind: ThrowKind::Check,
                modifiers: &mods,
                target,
            },
            &note,
            search,
        ));
    }
    if let Some(target) = hasty {
        let search = AnyAct::from(SearchHastily { who: name.into() });
        out.push(Choice::thrown(
            "search hastily",
            "1 round",
            ThrowOdds {
                who,
                kind: ThrowKind::Check,
                modifiers: situation,
                target,
            },
            "",
            search,
        ));
    }
    out
}

/// What every Searching throw of `who` takes beyond its own numbers: the situational penalties
/// (RULINGS › Movement penalties) and the Judge's search tools.
fn searching_situation(world: &World, who: Entity) -> Vec<Modifier> {
    let mut mods = crate::rules::penalties::check_penalties(world, who, None);
    mods.extend(crate::rules::calls::judge_modifier(
        world,
        JudgeModifier::SearchTools,
        world.get::<Position>(who).map(|p| p.0),
        &[who],
    ));
    mods
}

/// A hidden feature: a secret door or a hidden trap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Hidden {
    entity: Entity,
    at: GridPos,
    modifier: i32,
    door: bool,
    /// Partly hidden: anyone may search for it hastily.
    hasty_for_anyone: bool,
}

fn hidden_features(world: &World) -> Vec<Hidden> {
    let mut out = Vec::new();
    if let Some(mut doors) = world.try_query::<(Entity, &Position, &Door)>() {
        for (e, p, d) in doors.iter(world) {
            if d.secret {
                out.push(Hidden {
                    entity: e,
                    at: p.0,
                    modifier: 0,
                    door: true,
                    hasty_for_anyone: d.hasty_for_anyone,
                });
            }
        }
    }
    if let Some(mut traps) = world.try_query::<(Entity, &Position, &Trap)>() {
        for (e, p, t) in traps.iter(world) {
            if t.hidden {
                out.push(Hidden {
                    entity: e,
                    at: p.0,
                    modifier: t.search_modifier,
                    door: false,
                    hasty_for_anyone: t.hasty_for_anyone,
                });
            }
        }
    }
    out.sort_by_key(|h| (h.at.y, h.at.x, h.entity));
    out
}

/// The hasty search open to `who` over the hidden features within reach of `squares`: one
/// proficient in Searching throws its class value for all of them; anyone else, 18+ (14+ with
/// Alertness), for the partly hidden ones only, and only when there is one it has not searched
/// for hastily at its level — else `None`.
fn hasty_search_of(
    world: &World,
    who: Entity,
    squares: &[GridPos],
) -> Option<(i32, Vec<Modifier>, Vec<Hidden>)> {
    let profs = world.get::<Proficiencies>(who)?;
    let level = world.get::<ClassLevel>(who).map_or(0, |c| c.level);
    let searched = world.get::<HastilySearched>(who);
    let fresh = within_reach(world, who, squares)
        .into_iter()
        .filter(|h| searched.is_none_or(|s| !s.features.contains(&(h.entity, level))));
    if let Some((target, mods)) = searching_target(profs, false) {
        return Some((target, mods, fresh.collect()));
    }
    let partly: Vec<Hidden> = fresh.filter(|h| h.hasty_for_anyone).collect();
    let (target, _) = searching_target(profs, true)?;
    (!partly.is_empty()).then_some((target, Vec::new(), partly))
}

/// The hidden features within reach of any of `squares` (a searcher's reach).
fn within_reach(world: &World, who: Entity, squares: &[GridPos]) -> Vec<Hidden> {
    let reach = reach_feet(world.get::<Equipment>(who));
    let scale = world.resource::<DungeonGrid>().scale_feet();
    hidden_features(world)
        .into_iter()
        .filter(|h| {
            squares
                .iter()
                .any(|&at| delve_ground::grid::distance_feet(at, h.at, scale) <= reach)
        })
        .collect()
}

/// One Searching throw (Dungeon Delves › Searching: "if the throw succeeds, the adventurer
/// notices any hidden features within the area he searched"): one die, read against each of
/// `features` with its own modifiers (how well it is hidden, how well its square is seen);
/// reveals those found.
fn search_for(
    world: &mut World,
    who: Entity,
    features: Vec<Hidden>,
    target: i32,
    mods: &[Modifier],
    what: &str,
) {
    let round = world.resource::<Clock>().rounds;
    let name = crate::creature::name_of(world, who);
    if features.is_empty() {
        return;
    }
    let situation = searching_situation(world, who);
    let natural = world.resource_mut::<Dice>().roll(20);
    for h in features {
        let mut m = mods.to_vec();
        m.extend(situation.iter().cloned());
        if h.modifier != 0 {
            m.push(Modifier::new(h.modifier, "how well it is hidden"));
        }
        // Seeing the feature's square (poor vision, blindness, fog) and the Judge's concealment.
        let blinded = world
            .get::<Conditions>(who)
            .is_some_and(|c| c.has(ConditionKind::Blinded));
        m.extend(crate::rules::penalties::sight_penalties(
            world, who, h.at, blinded,
        ));
        m.extend(crate::rules::calls::judge_modifier(
            world,
            JudgeModifier::Concealment,
            Some(h.at),
            &[h.entity],
        ));
        let throw = crate::rules::throws::throw_in_with_die(
            world,
            who,
            (
                ThrowKind::Check,
                Skill::Proficiency(delve_ground::level::schema::Proficiency::Searching),
            ),
            what,
            m,
            target,
            natural,
        );
        if throw.success {
            if h.door {
                if let Some(mut d) = world.get_mut::<Door>(h.entity) {
                    d.secret = false;
                }
            } else {
                // RULINGS › Knowledge: known to the finder's faction and to those who saw it
                // found.
                let faction = world.get::<Faction>(who).copied();
                let witnesses = crate::rules::traps::witnesses(world, h.at);
                if let Some(mut t) = world.get_mut::<Trap>(h.entity) {
                    t.hidden = false;
                    t.found_in_round = Some(round);
                    t.learned_by(faction);
                    for w in witnesses {
                        t.learned_by(Some(w));
                    }
                }
            }
            let feature = if h.door {
                "a secret door"
            } else {
                "a hidden trap"
            };
            world.resource_mut::<EventLog>().push(
                round,
                SearchEvent::Found {
                    who: name.clone(),
                    feature: feature.into(),
                    at: h.at,
                },
            );
        }
    }
}

/// What a searcher has searched hastily, at which of its levels: the areas (the squares it
/// searched from) and the hidden features (Dungeon Delves › Searching: "cannot repeat the
/// attempt to hastily search the same area again until he reaches a higher experience level").
#[derive(Component, Clone, Debug, Default, PartialEq, Eq)]
pub struct HastilySearched {
    pub areas: Vec<(GridPos, u32)>,
    pub features: Vec<(Entity, u32)>,
}

impl HastilySearched {
    /// Has it searched hastily from this square at this level?
    pub fn area(&self, at: GridPos, level: u32) -> bool {
        self.areas.contains(&(at, level))
    }
}

/// A hasty search of `squares`' surroundings: a throw for each hidden feature within reach not
/// already searched for hastily at the searcher's level, each then counted as searched.
fn search_hastily_around(world: &mut World, who: Entity, squares: &[GridPos], what: &str) {
    let Some((target, mods, fresh)) = hasty_search_of(world, who, squares) else {
        return;
    };
    let level = world.get::<ClassLevel>(who).map_or(0, |c| c.level);
    let mut searched = world
        .get::<HastilySearched>(who)
        .cloned()
        .unwrap_or_default();
    searched
        .features
        .extend(fresh.iter().map(|h| (h.entity, level)));
    world.entity_mut(who).insert(searched);
    search_for(world, who, fresh, target, &mods, what);
}

/// `Search`: a methodical search of the squares around (a turn).
fn search_methodically(world: &mut World, who: Entity) -> Result<(), Refusal> {
    square_of(world, who)?;
    let reach_feet = reach_feet(world.get::<Equipment>(who));
    crate::rules::task::begin(world, who, Searching { reach_feet }, ROUNDS_PER_TURN);
    Ok(())
}

/// `SearchHastily`: a hasty search of the squares around (a round; proficient in Searching).
fn search_hastily(world: &mut World, who: Entity) -> Result<(), Refusal> {
    let at = square_of(world, who)?;
    world
        .get::<Proficiencies>(who)
        .ok_or(Unable::NoProficiencies)?;
    hasty_search_of(world, who, &[at]).ok_or(SearchRefusal::NotASearcher)?;
    let level = world.get::<ClassLevel>(who).map_or(0, |c| c.level);
    let mut searched = world
        .get::<HastilySearched>(who)
        .cloned()
        .unwrap_or_default();
    if searched.area(at, level) {
        return Err(SearchRefusal::SearchedHereHastily.into());
    }
    searched.areas.push((at, level));
    world.entity_mut(who).insert(searched);
    // The searcher learns only what it finds: what there was to find stays with the Judge.
    search_hastily_around(world, who, &[at], "Searching (hasty)");
    Ok(())
}

/// A methodical search of the squares within reach (Dungeon Delves › Searching): a turn's work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Searching {
    pub reach_feet: u32,
}

impl std::fmt::Display for Searching {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "searching methodically within {}'", self.reach_feet)
    }
}

impl Work for Searching {
    /// The end of a turn of methodical searching: the Judge's secret throw for every hidden
    /// feature within reach.
    fn finish(&self, world: &mut World, who: Entity) {
        let (Some(at), Some(profs)) = (
            world.get::<Position>(who).map(|p| p.0),
            world.get::<Proficiencies>(who).cloned(),
        ) else {
            return;
        };
        if let Some((target, mods)) = searching_target(&profs, true) {
            let features = within_reach(world, who, &[at]);
            search_for(
                world,
                who,
                features,
                target,
                &mods,
                "Searching (methodical)",
            );
        }
    }
}

crate::creature_commands! {
    /// Search the squares around methodically (one turn).
    Search: "search methodically" => search_methodically, activity Searching, common Search;
    /// Search the squares around hastily (one round; proficient in Searching).
    SearchHastily: "search hastily" => search_hastily, activity Searching;
}

/// Why a search is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SearchRefusal {
    /// Hasty searches are for those proficient in Searching (or near a partly hidden feature).
    NotASearcher,
    /// Searched here hastily at this level already.
    SearchedHereHastily,
}

impl Reason for SearchRefusal {}

impl std::fmt::Display for SearchRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SearchRefusal::NotASearcher => write!(
                f,
                "only those proficient in Searching, with a Searching throw, search hastily \
                 (anyone else only where something partly hidden is within reach)"
            ),
            SearchRefusal::SearchedHereHastily => write!(
                f,
                "it has searched here hastily at this level: it cannot again until its level \
                 rises"
            ),
        }
    }
}

/// Each round: thieves exploring search hastily whatever hidden feature comes within their
/// reach of any square they pass (once per feature and level).
pub fn searching(world: &mut World) {
    let mut thieves: Vec<(Entity, Vec<GridPos>)> = read_query(
        world,
        |explorers: Query<(Entity, &Footsteps, &MovedThisRound, &Proficiencies)>| {
            explorers
                .iter()
                .filter(|(_, _, m, p)| {
                    m.pace == Some(Pace::Exploration)
                        && m.feet > 0
                        && searching_target(p, false).is_some()
                })
                .map(|(e, f, ..)| (e, f.from.into_iter().chain(f.entered.clone()).collect()))
                .collect()
        },
    )
    .unwrap_or_default();
    thieves.sort();
    for (who, passed) in thieves {
        search_hastily_around(world, who, &passed, "Searching (hasty, while exploring)");
    }
}

pub struct SearchPlugin;

impl Plugin for SearchPlugin {
    fn build(&self, app: &mut App) {
        use crate::state::KeepsState;
        // The area's state, kept in every keyframe (`crate::state`).
        app.keeps_component::<crate::rules::search::HastilySearched>();
        RuleArea::offers(app, Rank::Senses, searches_here);
        app.add_systems(SimRound, searching.in_set(RoundSet::Searching));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn searching_targets_by_the_table() {
        let mut p = Proficiencies::default();
        assert_eq!(
            searching_target(&p, true).map(|t| t.0),
            Some(18),
            "Adventuring: methodical 18+"
        );
        assert_eq!(
            searching_target(&p, false),
            None,
            "Adventuring: no hasty search"
        );
        p.list.push(Proficiency::Alertness);
        assert_eq!(
            searching_target(&p, true).map(|t| t.0),
            Some(14),
            "with Alertness 14+"
        );
        p.list.push(Proficiency::Searching);
        p.throws.insert(Proficiency::Searching, 15);
        let (t, m) = searching_target(&p, true).unwrap();
        assert_eq!((t, m[0].value), (15, 4), "class value, +4 methodical");
        assert_eq!(
            searching_target(&p, false).map(|t| t.0),
            Some(15),
            "hasty: the class value"
        );
    }

    #[test]
    fn a_pole_reaches_ten_feet() {
        assert_eq!(reach_feet(None), 5);
        assert_eq!(reach_feet(Some(&Equipment(vec![Gear::TenFootPole]))), 10);
    }
}
