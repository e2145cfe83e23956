//! Vision (Dungeon Delves › Light and Darkness; RULINGS › Light and vision).
//!
//! A creature sees a square it has line of sight to when the square is lit, bright or dim, or
//! when the square is within its lightless vision, or (at exploration or combat speed, not
//! deafened, not in magical darkness or silence) within the 30' of its shadowy senses; those show the square
//! as dim. A creature that sees nothing is blinded. A lit creature is seen from as far as there
//! is line of sight to it, so carrying a light gives a party away before it sees anyone.
//!
//! Each faction remembers the squares its members have seen (fog of war); a party's map grows
//! only where its mapper stands in bright light.

pub mod events;
mod field;
mod mapping;
mod silence;
use crate::act::{AnyAct, Choice, Common, Concern};
use crate::rules::areas::Rank;
use crate::rules::penalties::SeeingBy;
use crate::rules::throws::{Skill, Thrower};

pub use events::VisionEvent;
pub use field::LosField;
use field::seen_in;
pub use mapping::{PartyMap, PartyMaps};
use mapping::{judge_the_maps, map_where_bright};
pub use silence::MagicalSilence;

use bevy::prelude::*;

use delve_ground::query_cache::in_entity_order;

use crate::act::{Act, Activity, Reason, Refusal, Unable, creature};
use crate::rules::throws::ThrowKind;
use serde::Serialize;

use crate::creature::{ConditionEnd, Conditions, Faction, Factions, Position, Vision};
use crate::rules::conditions::{gain_condition, lose_condition};
use crate::rules::light::{LightLevel, LightMap};
use crate::rules::movement::{MovedThisRound, Pace};
use crate::rules::throws::ThrowOdds;
use crate::schedule::{RoundSet, SimRound};
use delve_ground::grid::{DungeonGrid, GridPos};
use delve_ground::level::schema::ConditionKind;
use delve_ground::log::EventLog;
use delve_ground::time::Clock;

/// Shadowy senses "see" as a light shedding dim light in a 30' radius.
pub const SHADOWY_SENSES_FEET: u32 = 30;

/// Why a creature is blinded when it sees nothing at all.
pub const SEES_NOTHING: &str = "sees nothing";

/// What a creature sees now: each square, and as how lit (dim for lightless vision and shadowy
/// senses).
#[derive(Component, Clone, Default, PartialEq, Eq)]
pub struct Sight {
    /// The squares seen, row by row (by `y`, then `x`).
    pub seen: Vec<(GridPos, LightLevel)>,
    key: Option<SightKey>,
    /// Every square in line of sight, lit or not; kept while the creature stays put and the
    /// walls do not change.
    los: LosField,
    los_key: Option<(GridPos, u64)>,
}

/// What is seen and in line of sight; the keys are a cache's (a world restored from a keyframe
/// works its sights out afresh: `crate::state::differences` compares worlds by this).
impl std::fmt::Debug for Sight {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sight")
            .field("seen", &self.seen)
            .field("los", &self.los)
            .finish_non_exhaustive()
    }
}

/// What a sight was worked out from: the square, the light map's generation, and whether
/// shadowy senses worked and the creature was blinded. The same key, the same sight.
pub type SightKey = (GridPos, u64, bool, bool);

impl Sight {
    /// What this sight was worked out from, if it has been.
    pub fn key(&self) -> Option<SightKey> {
        self.key
    }

    pub fn sees(&self, p: GridPos) -> bool {
        self.seen_as(p).is_some()
    }

    /// The light a square is seen in, if it is seen (`seen` is row by row: looked up by halves).
    pub fn seen_as(&self, p: GridPos) -> Option<LightLevel> {
        self.seen
            .binary_search_by_key(&(p.y, p.x), |(q, _)| (q.y, q.x))
            .ok()
            .map(|i| self.seen[i].1)
    }

    /// Does it see a creature standing at `target`, a square it is known to see (one of
    /// [`Sight::seen`]): [`Sight::sees_creature`] without looking the square up again.
    pub fn sees_creature_on_seen_square(
        &self,
        grid: &DungeonGrid,
        light: &LightMap,
        viewer_at: GridPos,
        target: GridPos,
        hiding: bool,
    ) -> bool {
        let shadowy = self.key.is_some_and(|k| k.2);
        shows_creature(grid, light, viewer_at, shadowy, target, hiding)
    }

    /// Does it see a creature standing at `target` (see [`sees_creature`]), with the senses it
    /// looked with?
    pub fn sees_creature(
        &self,
        grid: &DungeonGrid,
        light: &LightMap,
        viewer_at: GridPos,
        target: GridPos,
        hiding: bool,
    ) -> bool {
        let senses = Senses {
            shadowy_senses: self.key.is_some_and(|k| k.2),
            ..Senses::default()
        };
        sees_creature(grid, light, viewer_at, self, senses, target, hiding)
    }
}

/// How a creature can see.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Senses {
    pub lightless_vision_feet: u32,
    /// Shadowy senses are working (it has them, is not running, not deafened, and not in
    /// magical darkness).
    pub shadowy_senses: bool,
    /// Blind for some reason other than darkness.
    pub blinded: bool,
}

impl Senses {
    /// Does it see a dark square `feet` away: within its lightless vision or its shadowy
    /// senses?
    pub fn see_in_the_dark(self, feet: u32) -> bool {
        (self.lightless_vision_feet > 0 && feet <= self.lightless_vision_feet)
            || (self.shadowy_senses && feet <= SHADOWY_SENSES_FEET)
    }

    /// The farthest it sees in the dark, in feet.
    pub fn dark_reach_feet(self) -> u32 {
        let shadowy = if self.shadowy_senses {
            SHADOWY_SENSES_FEET
        } else {
            0
        };
        self.lightless_vision_feet.max(shadowy)
    }
}

/// Every square in line of sight of `at`. `stamp` is scratch space (reused between calls; its
/// contents do not matter).
pub fn line_of_sight_field(grid: &DungeonGrid, at: GridPos, stamp: &mut Vec<GridPos>) -> LosField {
    LosField::of(grid, at, stamp)
}

/// The squares seen from `at`.
pub fn sight_of(
    grid: &DungeonGrid,
    light: &LightMap,
    at: GridPos,
    senses: Senses,
) -> Vec<(GridPos, LightLevel)> {
    seen_in(
        grid,
        light,
        &line_of_sight_field(grid, at, &mut Vec::new()),
        at,
        senses,
    )
}

/// Are a creature's shadowy senses working? Not when running, deafened, or in an area of
/// magical darkness or magical silence (Dungeon Delves › Light and Darkness).
fn shadowy_senses_work(
    vision: &Vision,
    conditions: &Conditions,
    moved: &MovedThisRound,
    in_magical_darkness_or_silence: bool,
) -> bool {
    vision.shadowy_senses
        && moved.pace != Some(Pace::Running)
        && !conditions.has(ConditionKind::Deafened)
        && !in_magical_darkness_or_silence
}

/// Blind for a reason other than seeing nothing (a dazzling light, the level file).
fn blinded_otherwise(conditions: &Conditions) -> bool {
    conditions
        .get(ConditionKind::Blinded)
        .is_some_and(|c| c.source != SEES_NOTHING)
}

/// Dungeon Delves › Light and Darkness: blinded creatures "cannot claim line of sight on any
/// targets and cannot make missile attacks".
pub(crate) fn missile_attack_allowed(conditions: &Conditions) -> bool {
    !conditions.has(ConditionKind::Blinded)
}

/// A creature hiding (Dungeon Delves › Light and Darkness: those proficient in Hiding can hide
/// from lightless vision). It stops hiding when it moves.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hiding;

/// A hiding creature on a square no light reaches is hidden from lightless vision.
fn hidden_from_lightless_vision(square: LightLevel, hiding: bool) -> bool {
    hiding && square == LightLevel::Dark
}

/// Does a viewer see a creature standing at `target`? It must see the square; a hiding creature
/// on a square no light reaches is not seen by lightless vision, only by shadowy senses (which
/// rely on hearing, scent and touch).
pub fn sees_creature(
    grid: &DungeonGrid,
    light: &LightMap,
    viewer_at: GridPos,
    viewer: &Sight,
    viewer_senses: Senses,
    target: GridPos,
    target_hiding: bool,
) -> bool {
    viewer.sees(target)
        && shows_creature(
            grid,
            light,
            viewer_at,
            viewer_senses.shadowy_senses,
            target,
            target_hiding,
        )
}

/// Does a square a viewer sees show the creature standing on it? Unless it hides where no light
/// reaches, from all but shadowy senses (which rely on hearing, scent and touch).
fn shows_creature(
    grid: &DungeonGrid,
    light: &LightMap,
    viewer_at: GridPos,
    shadowy_senses: bool,
    target: GridPos,
    hiding: bool,
) -> bool {
    !hidden_from_lightless_vision(light.level(grid, target), hiding)
        || (shadowy_senses && grid.distance_feet(viewer_at, target) <= SHADOWY_SENSES_FEET)
}

/// What a faction sees now: each square any member sees, in the best light it is seen in
/// (indexed like the grid; `None` unseen). The party's view in the window is this.
pub fn faction_sees<'a>(
    grid: &DungeonGrid,
    members: impl IntoIterator<Item = &'a Sight>,
) -> Vec<Option<LightLevel>> {
    let mut seen = vec![None; (grid.width() * grid.height()) as usize];
    for sight in members {
        for &(p, how) in &sight.seen {
            if let Some(i) = grid.index(p) {
                seen[i] = seen[i].max(Some(how));
            }
        }
    }
    seen
}

/// Whose eyes a view of the delve looks through (RULINGS › Knowledge): one creature's, or the
/// members of a faction — each where it stands, with its sight. What they see now, what their
/// faction remembers and which creatures they see is what such a view may show.
#[derive(Clone, Debug, Default)]
pub struct Eyes<'a> {
    /// The one creature whose eyes they are, if one.
    pub one: Option<Entity>,
    /// Its faction, or the faction's.
    pub faction: Option<Faction>,
    pub members: Vec<(GridPos, &'a Sight)>,
}

impl Eyes<'_> {
    /// Is a creature (of `faction`) one of the eyes' own: the one creature, or a member of the
    /// faction? Its own always know where they are.
    pub fn own(&self, creature: Entity, faction: Faction) -> bool {
        match self.one {
            Some(one) => creature == one,
            None => Some(faction) == self.faction,
        }
    }

    /// Do the eyes see a creature standing at `at` ([`faction_sees_creature`]), or is it their
    /// own?
    pub fn see_creature(
        &self,
        grid: &DungeonGrid,
        light: &LightMap,
        creature: Entity,
        faction: Faction,
        at: GridPos,
        hiding: bool,
    ) -> bool {
        self.own(creature, faction)
            || faction_sees_creature(grid, light, self.members.iter().copied(), at, hiding)
    }

    /// The light each square is seen in now ([`faction_sees`]).
    pub fn seen_now(&self, grid: &DungeonGrid) -> Vec<Option<LightLevel>> {
        faction_sees(grid, self.members.iter().map(|m| m.1))
    }

    /// The squares their faction has seen ([`FactionMemory`]).
    pub fn remembered<'m>(&self, memory: &'m FactionMemory) -> Option<&'m Vec<bool>> {
        self.faction.and_then(|f| memory.seen.get(f.0))
    }
}

/// Does any of a faction's members (each where it stands, with its sight) see a creature
/// standing at `target`? See [`sees_creature`].
pub fn faction_sees_creature<'a>(
    grid: &DungeonGrid,
    light: &LightMap,
    members: impl IntoIterator<Item = (GridPos, &'a Sight)>,
    target: GridPos,
    target_hiding: bool,
) -> bool {
    members
        .into_iter()
        .any(|(at, sight)| sight.sees_creature(grid, light, at, target, target_hiding))
}

/// `Hide`: a creature proficient in Hiding tries to hide, with its class throw for Hiding.
pub fn hide(world: &mut World, who: Entity) -> Result<(), Refusal> {
    use crate::creature::Proficiencies;
    use delve_ground::level::schema::Proficiency;
    let profs = world
        .get::<Proficiencies>(who)
        .ok_or(Unable::NoProficiencies)?;
    if !profs.has(Proficiency::Hiding) {
        return Err(HideRefusal::NotAHider.into());
    }
    let target = *profs
        .throws
        .get(&Proficiency::Hiding)
        .ok_or(HideRefusal::NoHidingThrow)?;
    let hidden = crate::rules::throws::throw_in(
        world,
        who,
        ThrowKind::Check,
        Skill::Proficiency(delve_ground::level::schema::Proficiency::Hiding),
        "Hiding",
        crate::rules::penalties::check_penalties(world, who, None),
        target,
    )
    .success;
    if hidden {
        world.entity_mut(who).insert(Hiding);
    }
    let who = crate::creature::name_of(world, who);
    delve_ground::log::log_in(world, VisionEvent::HideAttempted { who, hidden });
    Ok(())
}

/// Hiding is offered to one proficient in it and not hidden (Dungeon Delves › Hiding), with its
/// Hiding throw as `hide` makes it: its target and the situation's penalties.
fn hide_choices(world: &World, who: Entity) -> Vec<(Concern, Choice)> {
    use delve_ground::level::schema::Proficiency;
    let target = world
        .get::<crate::creature::Proficiencies>(who)
        .filter(|p| p.has(Proficiency::Hiding))
        .and_then(|p| p.throws.get(&Proficiency::Hiding).copied());
    let (Some(target), None, Some(thrower)) =
        (target, world.get::<Hiding>(who), Thrower::of(world, who))
    else {
        return Vec::new();
    };
    let mods = crate::rules::penalties::check_penalties(world, who, None);
    let hide = AnyAct::from(Hide {
        who: thrower.name.to_owned(),
    });
    let note = "unseen by lightless vision until it moves";
    let choice = Choice::thrown(
        "hide",
        "1 round",
        ThrowOdds {
            who: &thrower,
            kind: ThrowKind::Check,
            modifiers: &mods,
            target,
        },
        note,
        hide,
    );
    vec![(Concern::Here, choice)]
}

/// Hides (proficient in Hiding): unseen by lightless vision until it moves.
#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Hide {
    pub who: String,
}

impl std::fmt::Display for Hide {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "hide")
    }
}

impl Act for Hide {
    fn activity(&self) -> Option<Activity> {
        None
    }

    fn common(&self) -> Option<Common> {
        Some(Common::Hide)
    }

    fn who(&self) -> &str {
        &self.who
    }

    fn carry_out(&self, world: &mut World) -> Result<(), Refusal> {
        hide(world, creature(world, &self.who)?)
    }
}

/// Why a creature cannot hide.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HideRefusal {
    NotAHider,
    NoHidingThrow,
}

impl Reason for HideRefusal {}

impl std::fmt::Display for HideRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HideRefusal::NotAHider => write!(
                f,
                "only those proficient in Hiding can hide from lightless vision"
            ),
            HideRefusal::NoHidingThrow => write!(f, "its stat block gives no Hiding throw"),
        }
    }
}

/// A hider that moves is no longer hidden.
fn moving_ends_hiding(mut commands: Commands, q: Query<(Entity, &MovedThisRound), With<Hiding>>) {
    for (e, moved) in &q {
        if moved.feet > 0 {
            commands.entity(e).remove::<Hiding>();
        }
    }
}

/// The squares each faction has seen, for fog of war.
#[derive(Resource, Clone, Debug, Default)]
pub struct FactionMemory {
    /// One bitmap per faction, indexed like the grid.
    pub seen: Vec<Vec<bool>>,
}

pub struct VisionPlugin;

impl Plugin for VisionPlugin {
    fn build(&self, app: &mut App) {
        use crate::state::KeepsState;
        // The area's state, kept in every keyframe (`crate::state`).
        app.keeps::<crate::rules::vision::FactionMemory>()
            .keeps_component::<crate::rules::vision::Hiding>()
            .keeps::<crate::rules::vision::PartyMaps>()
            .keeps_component::<crate::rules::vision::Sight>();
        crate::rules::areas::RuleArea::offers(app, Rank::Senses, hide_choices);
        use crate::rules::areas::RuleArea;
        // What the situational penalties read of sight: the light a square is seen by, and
        // as bright within lightless vision (RULINGS › Vision in the situational penalties:
        // darkvision takes no poor-vision penalty; shadowy senses see it dim).
        app.not_state::<SeeingBy>();
        app.insert_resource(SeeingBy(|world, who, at| {
            let sight = world.get::<Sight>(who)?;
            let seen = sight.seen_as(at)?;
            let darkvision = world
                .get::<Vision>(who)
                .map_or(0, |v| v.lightless_vision_feet);
            let from = world.get::<Position>(who)?.0;
            let within = darkvision > 0
                && sight.los.contains(at)
                && world.resource::<DungeonGrid>().distance_feet(from, at) <= darkvision;
            Some(if within { LightLevel::Bright } else { seen })
        }));
        app.keeps::<MagicalSilence>();
        app.installs(|world, level| {
            world.insert_resource(MagicalSilence::of_areas(
                &level.grid,
                &level.magical_silence,
            ));
            world.insert_resource(FactionMemory::default());
            world.insert_resource(PartyMaps::default());
        })
        .installs_creature(|world, e, c| {
            world.entity_mut(e).insert((
                Sight::default(),
                Vision {
                    lightless_vision_feet: c.lightless_vision_feet,
                    shadowy_senses: c.shadowy_senses,
                },
            ));
        })
        .installs_after_creatures(|world, _| first_look(world));
        app.init_resource::<FactionMemory>()
            .init_resource::<PartyMaps>()
            .add_systems(
                SimRound,
                (
                    moving_ends_hiding,
                    look,
                    remember,
                    witness,
                    map_where_bright,
                    judge_the_maps,
                )
                    .chain()
                    .in_set(RoundSet::Vision),
            );
    }
}

/// Everyone looks around once, as a delve begins (before the first round is played).
fn first_look(world: &mut World) {
    use bevy::ecs::system::RunSystemOnce;
    world.init_resource::<FactionMemory>();
    world.init_resource::<PartyMaps>();
    for result in [world.run_system_once(look), world.run_system_once(remember)] {
        debug_assert!(result.is_ok(), "{result:?}");
    }
    map_where_bright(world);
}

type Looker<'a> = (
    Entity,
    &'a Name,
    &'a Position,
    &'a Vision,
    &'a mut Conditions,
    &'a MovedThisRound,
    &'a mut Sight,
);

/// Every creature looks again when it moved, the light changed, or its senses did.
pub fn look(
    grid: Res<DungeonGrid>,
    light: Res<LightMap>,
    clock: Res<Clock>,
    silence: Option<Res<MagicalSilence>>,
    mut log: ResMut<EventLog>,
    mut q: Query<Looker>,
    mut stamp: Local<Vec<GridPos>>,
) {
    for e in in_entity_order(q.iter().map(|l| l.0)) {
        let Ok((_, name, pos, vision, mut conditions, moved, mut sight)) = q.get_mut(e) else {
            continue;
        };
        let dark_magic = light.level(&grid, pos.0) == LightLevel::MagicalDarkness
            || silence.as_ref().is_some_and(|s| s.at(&grid, pos.0));
        let senses = Senses {
            lightless_vision_feet: vision.lightless_vision_feet,
            shadowy_senses: shadowy_senses_work(vision, &conditions, moved, dark_magic),
            blinded: blinded_otherwise(&conditions),
        };
        let key = Some((
            pos.0,
            light.generation,
            senses.shadowy_senses,
            senses.blinded,
        ));
        if sight.key == key {
            continue;
        }
        let los_key = Some((pos.0, grid.generation()));
        if sight.los_key != los_key {
            sight.los = line_of_sight_field(&grid, pos.0, &mut stamp);
            sight.los_key = los_key;
        }
        sight.seen = seen_in(&grid, &light, &sight.los, pos.0, senses);
        sight.key = key;
        let sees_nothing = sight.seen.is_empty();
        let round = clock.rounds;
        if sees_nothing && !conditions.has(ConditionKind::Blinded) {
            gain_condition(
                &mut log,
                round,
                name,
                &mut conditions,
                ConditionKind::Blinded,
                SEES_NOTHING,
                ConditionEnd::UntilRemoved,
            );
        } else if !sees_nothing
            && conditions
                .get(ConditionKind::Blinded)
                .is_some_and(|c| c.source == SEES_NOTHING)
        {
            lose_condition(
                &mut log,
                round,
                name,
                &mut conditions,
                ConditionKind::Blinded,
                "it sees again",
            );
        }
    }
}

/// What happened this round at a square, about no one in particular (a door swinging shut by
/// itself), is learnt by the factions whose members, up, see that square now (RULINGS ›
/// Knowledge): the log notes them for each such entry.
fn witness(mut log: ResMut<EventLog>, q: Query<(&Faction, &Sight, &Conditions)>) {
    log.witness(|at| {
        let mut saw: Vec<usize> = q
            .iter()
            .filter(|(_, sight, c)| !crate::rules::conditions::is_down(c) && sight.sees(at))
            .map(|(f, ..)| f.0)
            .collect();
        saw.sort_unstable();
        saw.dedup();
        saw
    });
}

/// Each faction remembers what its members see. A sight that has not changed since the last
/// round is remembered already.
fn remember(
    grid: Res<DungeonGrid>,
    factions: Res<Factions>,
    mut memory: ResMut<FactionMemory>,
    q: Query<(&Faction, Ref<Sight>)>,
) {
    let n = (grid.width() * grid.height()) as usize;
    let fresh =
        memory.seen.len() != factions.0.len() || memory.seen.first().is_some_and(|m| m.len() != n);
    if fresh {
        memory.seen = vec![vec![false; n]; factions.0.len()];
    }
    for (f, sight) in &q {
        if !fresh && !sight.is_changed() {
            continue;
        }
        if let Some(m) = memory.seen.get_mut(f.0) {
            for (p, _) in &sight.seen {
                if let Some(i) = grid.index(*p) {
                    m[i] = true;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests;
