//! Attacks of opportunity from movement (Tactical Combat › Cautious Movement, Combat Reflexes,
//! Disengage).
//!
//! In a battle, a creature that steps out of a square next to a hostile creature able to fight
//! in melee provokes an attack of opportunity from it (once per mover and threatener a round),
//! unless it moves cautiously (half combat speed, rounded down to 5'). Each creature makes one
//! attack of opportunity a round, or with Combat Reflexes one per +2 of its Dexterity modifier;
//! only those with Combat Reflexes attack cautious movers, at −4. Disengaging from one creature
//! (not with cautious movement) makes the first 5' of movement away from it safe from it.
//!
//! Movement records the steps taken ([`StepsTaken`]); at the start of the round's combat they are
//! walked again here to find the provocations, and the attacks are made, each against where the
//! mover was.

use crate::creature::{Below, ClassLevel, SavingThrows};
use crate::rules::movement::{Pace, Walking};
use crate::rules::throws::Skill;
use delve_ground::level::schema::SaveCategory;

use bevy::prelude::*;

use super::refusals::CombatRefusal;
use crate::act::Refusal;
use crate::rules::throws::ThrowKind;
use delve_ground::query_cache::read_query;

use super::attack::strike;
use super::battle::Battle;
use super::events::NoOpportunity;
use crate::creature::{
    Abilities, Combatant, Conditions, Creature, Faction, Factions, Position, Proficiencies,
};
use crate::rules::conditions::is_down;
use crate::rules::movement::{Occupant, StepsTaken};
use crate::rules::tactical::{CAUTIOUS_AOO_PENALTY, TacticalCombat, attacks_of_opportunity};
use delve_ground::dice::Modifier;
use delve_ground::grid::GridPos;
use delve_ground::level::schema::{ConditionKind, Proficiency};
use delve_ground::time::Clock;

/// One step that provoked: who moved, who may strike, and whether the mover was cautious.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Provocation {
    pub mover: Entity,
    pub threatener: Entity,
    pub cautious: bool,
    /// Moving at full speed with Acrobatics: a successful check avoids the attack.
    pub acrobatic: bool,
    /// The mover's first step away from a creature it disengaged from: safe from it.
    pub disengaged: bool,
}

/// This round's provocations, and what movement needs to find them.
#[derive(Resource, Clone, Debug, Default)]
pub struct Provoked {
    /// A battle is on: only then does movement provoke.
    pub active: bool,
    /// Creatures that threaten the squares around them (up, with a melee weapon).
    pub threatening: Vec<Entity>,
    /// Creatures disengaging this round, and from whom.
    pub disengaging: Vec<(Entity, Entity)>,
    /// Movers that have already taken a step this round.
    pub stepped: Vec<Entity>,
    pub provocations: Vec<Provocation>,
}

impl Provoked {
    /// `mover` steps away from `from`: every hostile threatening `from` may strike.
    pub fn leaving(
        &mut self,
        mover: Entity,
        from: GridPos,
        (cautious, acrobatic): (bool, bool),
        mine: Option<Faction>,
        occupants: &[Occupant],
        factions: &Factions,
    ) {
        if !self.active {
            return;
        }
        let first_step = !self.stepped.contains(&mover);
        if first_step {
            self.stepped.push(mover);
        }
        for &(threatener, at, theirs) in occupants {
            let next_to = at.is_adjacent(from);
            let hostile = matches!((mine, theirs), (Some(a), Some(b)) if factions.hostile(a, b));
            if threatener == mover
                || !next_to
                || !hostile
                || !self.threatening.contains(&threatener)
            {
                continue;
            }
            let disengaged = first_step && self.disengaging.contains(&(mover, threatener));
            if self
                .provocations
                .iter()
                .any(|p| p.mover == mover && p.threatener == threatener)
            {
                continue;
            }
            self.provocations.push(Provocation {
                mover,
                threatener,
                cautious,
                acrobatic,
                disengaged,
            });
        }
    }
}

/// Disengaging from one creature this round (a swift action).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Disengaging {
    pub from: Entity,
    pub round: u64,
}

/// Attacks of opportunity made this round.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OpportunitiesTaken {
    pub round: u64,
    pub count: u32,
}

/// Creatures not at the bottom of a hole.
type OnTheFloor = (With<Creature>, Without<Below>);

/// Before movement: who threatens, and a fresh list.
pub(crate) fn ready_opportunities(world: &mut World) {
    // Attacks of opportunity are the standard rules' (Tactical Combat › Cautious Movement
    // only lets a half-speed mover through threatened squares without provoking them): with
    // that rule off they are made all the same, and Combat Reflexes, Disengage and Acrobatics
    // keep their use.
    let active = world.resource::<Battle>().active;
    // RULINGS › Conditions …: a vulnerable creature makes no attacks of opportunity; nor does
    // one at the bottom of a hole reach anyone walking above it.
    let threatening: Vec<Entity> = delve_ground::query_cache::in_entity_order(
        read_query(
            world,
            |q: Query<(Entity, &Conditions, &Combatant), OnTheFloor>| {
                q.iter()
                    .filter(|(_, c, k)| {
                        !is_down(c)
                            && !c.has(ConditionKind::Vulnerable)
                            && k.weapons.iter().any(|w| w.range_feet.is_none())
                    })
                    .map(|(e, ..)| e)
                    .collect::<Vec<_>>()
            },
        )
        .unwrap_or_default()
        .into_iter(),
    );
    *world.resource_mut::<Provoked>() = Provoked {
        active,
        threatening,
        ..Provoked::default()
    };
}

/// Who disengages this round, and from whom: a swift action taken in the faction's initiative.
fn disengaging(world: &mut World) -> Vec<(Entity, Entity)> {
    let round = world.resource::<Clock>().rounds;
    read_query(world, |d: Query<(Entity, &Disengaging)>| {
        d.iter()
            .filter(|(_, g)| g.round == round)
            .map(|(e, g)| (e, g.from))
            .collect()
    })
    .unwrap_or_default()
}

/// The round's steps, walked again from where everyone stood: who provoked whom.
fn find_provocations(world: &mut World) {
    if !world.resource::<Provoked>().active {
        return;
    }
    let disengaging = disengaging(world);
    world.resource_mut::<Provoked>().disengaging = disengaging;
    let Some(taken) = world.get_resource::<StepsTaken>() else {
        return;
    };
    let mut occupants = taken.start.clone();
    let steps = taken.steps.clone();
    let factions = world.resource::<Factions>().clone();
    let mut provoked = world.resource_mut::<Provoked>();
    for s in steps {
        provoked.leaving(
            s.who,
            s.from,
            (s.cautious, s.acrobatic),
            s.faction,
            &occupants,
            &factions,
        );
        if let Some(o) = occupants.iter_mut().find(|o| o.0 == s.who) {
            o.1 = s.to;
        }
    }
}

/// After movement: each provocation is an attack of opportunity, while the threatener has some
/// left this round (and, against a cautious mover, only with Combat Reflexes, at −4). The
/// threatener is asked at the moment the attack would be made whether it may attack at all
/// ([`may_strike`]); a provocation that makes no attack says why in the log.
pub(crate) fn opportunity_attacks(world: &mut World) {
    find_provocations(world);
    let provocations = std::mem::take(&mut world.resource_mut::<Provoked>().provocations);
    let rules = *world.resource::<TacticalCombat>();
    let round = world.resource::<Clock>().rounds;
    for p in provocations {
        let reflexes = rules.combat_reflexes
            && world
                .get::<Proficiencies>(p.threatener)
                .is_some_and(|pr| pr.has(Proficiency::CombatReflexes));
        let dex = crate::rules::abilities::tactical_modifier(
            world.get::<Abilities>(p.threatener).map_or(10, |a| a.0.dex),
        );
        let allowed = attacks_of_opportunity(dex, reflexes);
        let taken = world
            .get::<OpportunitiesTaken>(p.threatener)
            .copied()
            .filter(|t| t.round == round)
            .unwrap_or(OpportunitiesTaken { round, count: 0 });
        let Some(weapon) = world
            .get::<Combatant>(p.threatener)
            .and_then(|c| c.weapons.iter().position(|w| w.range_feet.is_none()))
        else {
            continue;
        };
        let why = if p.disengaged {
            Some(NoOpportunity::Disengaged)
        } else if p.cautious && !reflexes {
            Some(NoOpportunity::CautiousMover)
        } else {
            may_strike(world, p.threatener)
                .err()
                .or((taken.count >= allowed).then_some(NoOpportunity::AllowanceUsed { allowed }))
        };
        if let Some(why) = why {
            let who = crate::creature::name_of(world, p.threatener);
            let mover = crate::creature::name_of(world, p.mover);
            delve_ground::log::log_in(
                world,
                super::events::CombatEvent::OpportunityNotTaken { who, mover, why },
            );
            continue;
        }
        if p.acrobatic && tumbles_past(world, p.mover, p.threatener) {
            continue;
        }
        let mut mods = vec![Modifier::new(0, "attack of opportunity")];
        if p.cautious {
            mods.push(Modifier::new(
                CAUTIOUS_AOO_PENALTY,
                "against cautious movement (Combat Reflexes)",
            ));
        }
        if strike(world, p.threatener, p.mover, weapon, Some(mods)).is_ok() {
            world.entity_mut(p.threatener).insert(OpportunitiesTaken {
                round,
                count: taken.count + 1,
            });
        }
    }
}

/// The gate for an attack of opportunity, asked when it would be made: a creature under a hold
/// (down, stuck, drowning, crawling, surprised in its faction's lost round, …) makes none, nor
/// one in total defense, nor a vulnerable one.
pub fn may_strike(world: &World, who: Entity) -> Result<(), NoOpportunity> {
    if let Some(hold) = crate::rules::acting::held(world, who) {
        return Err(NoOpportunity::Held { hold });
    }
    if world.get::<super::gear::TotalDefense>(who).is_some() {
        return Err(NoOpportunity::TotalDefense);
    }
    if world
        .get::<Conditions>(who)
        .is_some_and(|c| c.has(ConditionKind::Vulnerable))
    {
        return Err(NoOpportunity::Vulnerable);
    }
    Ok(())
}

/// The Acrobatics check to move past a threatener without provoking: the rules defer to "the
/// standard rules"; here (a ruling, as for running over difficult terrain in the delve rules)
/// it is a Paralysis saving throw with the class level added for Acrobatics.
fn tumbles_past(world: &mut World, mover: Entity, threatener: Entity) -> bool {
    let Some(&target) = world
        .get::<SavingThrows>(mover)
        .and_then(|s| s.0.get(&SaveCategory::Paralysis))
    else {
        return false;
    };
    let level = world.get::<ClassLevel>(mover).map_or(0, |c| c.level as i32);
    let past = crate::creature::name_of(world, threatener);
    crate::rules::throws::throw_in(
        world,
        mover,
        ThrowKind::Save,
        Skill::Save(SaveCategory::Paralysis),
        format!("Acrobatics (Paralysis save) to tumble past {past}"),
        vec![Modifier::new(level, "Acrobatics: class level")],
        target,
    )
    .success
}

/// `MoveAcrobatically`: full speed through threatened squares (Acrobatics); each threatener's
/// attack of opportunity is avoided by a successful check.
pub(crate) fn move_acrobatically(
    world: &mut World,
    who: Entity,
    to: GridPos,
) -> Result<(), Refusal> {
    if !world
        .get::<Proficiencies>(who)
        .is_some_and(|p| p.has(Proficiency::Acrobatics))
    {
        return Err(CombatRefusal::NeedsAcrobatics.into());
    }
    crate::rules::movement::begin_walk(world, who, to, Pace::Combat)?;
    if let Some(mut w) = world.get_mut::<Walking>(who) {
        w.acrobatic = true;
    }
    Ok(())
}

/// `Disengage`: the first 5' of this round's movement away from one creature provokes no
/// attack of opportunity from it; not with cautious movement.
pub(crate) fn disengage(world: &mut World, who: Entity, from: Entity) -> Result<(), Refusal> {
    if world.get::<Walking>(who).is_some_and(|w| w.cautious) {
        return Err(CombatRefusal::CautiousCannotDisengage.into());
    }
    // Tactical Combat › Disengage: "to escape a single threatening opponent": a foe beside it,
    // up, on the floor with it, with a melee weapon.
    let threatens = {
        let hostile = match (world.get::<Faction>(who), world.get::<Faction>(from)) {
            (Some(&a), Some(&b)) => world.resource::<Factions>().hostile(a, b),
            _ => false,
        };
        let beside = match (world.get::<Position>(who), world.get::<Position>(from)) {
            (Some(a), Some(b)) => a.0.is_adjacent(b.0),
            _ => false,
        };
        let below = |e: Entity| world.get::<Below>(e).is_some();
        let up = world.get::<Conditions>(from).is_some_and(|c| !is_down(c));
        let armed = world
            .get::<Combatant>(from)
            .is_some_and(|k| k.weapons.iter().any(|w| w.range_feet.is_none()));
        hostile && beside && up && armed && below(who) == below(from)
    };
    if !threatens {
        return Err(CombatRefusal::DoesNotThreaten {
            name: crate::creature::name_of(world, from),
        }
        .into());
    }
    let round = world.resource::<Clock>().rounds;
    world.entity_mut(who).insert(Disengaging { from, round });
    Ok(())
}

/// `MoveCautiously`: walks at half combat speed through threatened squares without provoking.
pub(crate) fn move_cautiously(world: &mut World, who: Entity, to: GridPos) -> Result<(), Refusal> {
    if !world.resource::<TacticalCombat>().cautious_movement {
        return Err(CombatRefusal::CautiousMovementOff.into());
    }
    if world
        .get::<Disengaging>(who)
        .is_some_and(|d| d.round == world.resource::<Clock>().rounds)
    {
        return Err(CombatRefusal::DisengagingCannotBeCautious.into());
    }
    crate::rules::movement::begin_walk(world, who, to, Pace::Combat)?;
    if let Some(mut w) = world.get_mut::<Walking>(who) {
        w.cautious = true;
    }
    Ok(())
}
