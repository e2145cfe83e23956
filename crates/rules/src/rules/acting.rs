//! One gate for acting (RULINGS › The battle round, › Rest): whether a creature may act now,
//! and what an action costs.
//!
//! - A **hold** stops a creature acting: it is down, stuck in a squeeze, drowning, crawling a
//!   traverse, at work on a task. Each hold is declared by the rule area that owns it ([`ActingRules::declare_hold`]), with the
//!   test that finds it on a creature; the gate asks every declared hold.
//! - Every action says which holds it is allowed under (a stuck creature may still wiggle back;
//!   a crawling one may go on crawling) and what it costs ([`Cost`]): exertion, and whether it
//!   takes the creature's action for the round. An action that says nothing is allowed under no
//!   hold, and is refused naming the hold; it is exertion and takes the action.
//! - What a creature is doing over rounds (climbing, crawling, treading water, stuck, at a task)
//!   is exertion whether or not its square changes (RULINGS › Rest): each area declares its own
//!   ([`ActingRules::declare_exertion`]), and rest asks them all.
//! - Commands ask the gate before they are carried out (`command::carry_out`); standing attack
//!   orders ask it in the faction's initiative (a held creature's order lapses, saying why); the
//!   fighting behaviour gives a held creature no orders.

use std::collections::BTreeMap;
use std::fmt;

use crate::state::KeepsState;
use bevy::prelude::*;
use serde::Serialize;

/// What stops a creature acting, each declared by the rule area that owns it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Hold {
    /// Dying or dead (`conditions`): it can do nothing.
    Down,
    /// Stuck in a squeeze (`caving`; Dungeon Delves › Squeezing): it "cannot attack, cast spells,
    /// move, or take any other action except to attempt to escape".
    Stuck,
    /// Crawling a traverse (`caving`; Dungeon Delves › Crawling Traverse): both hands and feet
    /// are on the rope.
    CrawlingATraverse,
    /// Drowning (`water`; Dungeon Delves › Drowning): it "cannot take any actions".
    Drowning,
    /// At work on a task that takes rounds (`task`; RULINGS › Time): it does nothing else while
    /// the work goes on, so a standing attack order lapses and it does not rest. A new command
    /// is not refused: it sets the work aside (moving or a new task abandons it; an order to
    /// attack ends it).
    AtWork,
    /// Swimming at running speed this round (`water`; RULINGS › Water): it cannot attack. A
    /// command is not refused.
    SwimmingAtRunningSpeed,
    /// Its faction is surprised (`combat`; RULINGS › Surprise): it "does nothing in the battle's
    /// first round" — no command, no attack, no attack of opportunity.
    Surprised,
}

impl Hold {
    /// Does the hold refuse a new command? Being at work does not: the command sets the work
    /// aside.
    pub fn refuses_commands(self) -> bool {
        !matches!(self, Hold::AtWork | Hold::SwimmingAtRunningSpeed)
    }

    /// The hold in words.
    pub fn words(self) -> &'static str {
        match self {
            Hold::Down => "down (dying or dead)",
            Hold::Stuck => "stuck in a squeeze",
            Hold::CrawlingATraverse => "crawling a traverse",
            Hold::Drowning => "drowning",
            Hold::AtWork => "at work on a task",
            Hold::SwimmingAtRunningSpeed => "swimming at running speed",
            Hold::Surprised => "surprised",
        }
    }
}

impl fmt::Display for Hold {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Hold::Down => write!(f, "it is down (dying or dead) and can do nothing"),
            Hold::Stuck => write!(
                f,
                "it is stuck in a squeeze: it can only wiggle back or push forward"
            ),
            Hold::CrawlingATraverse => write!(
                f,
                "it needs both hands, and they are busy crawling a traverse"
            ),
            Hold::Drowning => write!(f, "it is drowning and can take no action"),
            Hold::AtWork => write!(f, "it is at work on a task that takes rounds"),
            Hold::SwimmingAtRunningSpeed => {
                write!(f, "it swims at running speed this round and cannot attack")
            }
            Hold::Surprised => write!(
                f,
                "it is surprised: it does nothing in the battle's first round"
            ),
        }
    }
}

/// What an action costs the creature that takes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cost {
    /// It counts against rest (RULINGS › Rest): moving, climbing, opening, searching,
    /// fighting, every task.
    pub exertion: bool,
    /// It takes the creature's action for the round (RULINGS › The battle round): the creature
    /// makes no attack that round. Every action that takes it is also [`Cost::in_initiative`].
    pub action: bool,
    /// In a battle it is carried out in the creature's faction's initiative (RULINGS › The battle
    /// round: "every action a creature takes in a battle happens in its faction's initiative"): a
    /// faction acting earlier does not meet it yet. Outside a battle it happens when given.
    /// Orders that stand (a walk, an attack order) are not: they are carried out in the turn.
    pub in_initiative: bool,
}

impl Cost {
    /// Exertion that takes the action: bashing, picking, searching, jumping, grabbing, … The
    /// cost of an action that does not say.
    pub const ACTION: Cost = Cost {
        exertion: true,
        action: true,
        in_initiative: true,
    };
    /// Exertion that leaves the action free, given as an order that stands: moving and
    /// climbing (the movement of the round, walked in the turn), an order to attack (the
    /// attack is the action, made in the turn).
    pub const MOVEMENT: Cost = Cost {
        exertion: true,
        action: false,
        in_initiative: false,
    };
    /// A swift, free or move action of a battle, in the faction's initiative, that leaves the
    /// action free: disengaging, forgoing a shield, activating an enchantment (which takes the
    /// action itself when it is a standard action).
    pub const IN_TURN: Cost = Cost {
        exertion: true,
        action: false,
        in_initiative: true,
    };
    /// Neither: talking, listening, halting, resting, the party's arrangements, the Judge's
    /// hand.
    pub const REST: Cost = Cost {
        exertion: false,
        action: false,
        in_initiative: false,
    };
    /// Handling a light: it takes the action in a battle, and is rest (RULINGS › Rest).
    pub const HANDLING: Cost = Cost {
        exertion: false,
        action: true,
        in_initiative: true,
    };
}

/// The test that finds a hold or an exertion on a creature.
pub type Test = fn(&World, Entity) -> bool;

/// Every hold declared, with the test that finds it on a creature.
#[derive(Resource, Default)]
pub struct Holds(BTreeMap<Hold, Test>);

impl Holds {
    /// The holds on a creature, in the order of [`Hold`].
    pub fn on(&self, world: &World, who: Entity) -> impl Iterator<Item = Hold> {
        self.0
            .iter()
            .filter(move |(_, on)| on(world, who))
            .map(|(&h, _)| h)
    }
}

/// Every kind of exertion declared: what a creature is doing over rounds, by name, and how to
/// find it on a creature — a component it has while doing it (looked up in its archetype,
/// cheaply, every round), or a test.
#[derive(Resource, Default)]
pub struct Exertions(Vec<(&'static str, Found)>);

/// How an exertion is found on a creature.
enum Found {
    /// It has this component.
    Has(bevy::ecs::component::ComponentId),
    /// This test says so.
    Test(Test),
}

impl Exertions {
    /// What the creature is doing that exerts it, if anything: the first declared.
    pub fn of(&self, world: &World, who: Entity) -> Option<&'static str> {
        let entity = world.get_entity(who).ok()?;
        self.0
            .iter()
            .find(|(_, found)| match found {
                Found::Has(id) => entity.contains_id(*id),
                Found::Test(on) => on(world, who),
            })
            .map(|(n, _)| *n)
    }
}

/// What keeps a creature's hands busy, by name, each declared by the area that owns it: a
/// crawling traverse takes both hands and feet (Dungeon Delves › Crawling Traverse).
#[derive(Resource, Default)]
pub struct BusyHands(Vec<(&'static str, Test)>);

/// What keeps the creature's hands busy, if anything: the first declared.
pub(crate) fn hands_busy(world: &World, who: Entity) -> Option<&'static str> {
    let busy = world.get_resource::<BusyHands>()?;
    busy.0
        .iter()
        .find(|(_, on)| on(world, who))
        .map(|(n, _)| *n)
}

/// What keeps a creature from taking an action of the round (one whose cost takes the action),
/// each declared by the area that owns it: running, when the Judge rules so.
#[derive(Resource, Default)]
pub struct NoActions(Vec<(&'static str, Test)>);

/// Why the creature may take no action of the round now, if anything: the first declared.
pub(crate) fn no_action_while(world: &World, who: Entity) -> Option<&'static str> {
    world
        .get_resource::<NoActions>()?
        .0
        .iter()
        .find(|(_, on)| on(world, who))
        .map(|(n, _)| *n)
}

/// The gate's test beyond the holds: an action that takes the round's action is refused while
/// something keeps the creature from one (the refusal is `act::NotWhile`).
pub(crate) fn refused_action(world: &World, who: Entity, cost: Cost) -> Option<&'static str> {
    cost.action.then(|| no_action_while(world, who)).flatten()
}

/// What a rule area declares of acting, from its plugin.
pub trait ActingRules {
    /// A hold the area owns: what stops a creature acting.
    fn declare_hold(&mut self, hold: Hold, on: Test) -> &mut Self;

    /// Something the area owns that keeps a creature's hands busy: mapping, holding an ally up.
    fn declare_busy_hands(&mut self, what: &'static str, on: Test) -> &mut Self;

    /// Something the area owns that keeps a creature from taking an action of the round.
    fn declare_no_action(&mut self, what: &'static str, on: Test) -> &mut Self;

    /// A kind of exertion the area owns (RULINGS › Rest), found by a test: treading water, …
    fn declare_exertion(&mut self, what: &'static str, on: Test) -> &mut Self;

    /// A kind of exertion the area owns, found by a component the creature has while doing it:
    /// climbing, traversing, a task, …
    fn declare_exertion_of<C: Component>(&mut self, what: &'static str) -> &mut Self;
}

impl ActingRules for App {
    fn declare_hold(&mut self, hold: Hold, on: Test) -> &mut Self {
        self.init_resource::<Holds>().not_state::<Holds>();
        self.world_mut().resource_mut::<Holds>().0.insert(hold, on);
        self
    }

    fn declare_busy_hands(&mut self, what: &'static str, on: Test) -> &mut Self {
        self.init_resource::<BusyHands>().not_state::<BusyHands>();
        self.world_mut()
            .resource_mut::<BusyHands>()
            .0
            .push((what, on));
        self
    }

    fn declare_no_action(&mut self, what: &'static str, on: Test) -> &mut Self {
        self.init_resource::<NoActions>().not_state::<NoActions>();
        self.world_mut()
            .resource_mut::<NoActions>()
            .0
            .push((what, on));
        self
    }

    fn declare_exertion(&mut self, what: &'static str, on: Test) -> &mut Self {
        self.init_resource::<Exertions>().not_state::<Exertions>();
        self.world_mut()
            .resource_mut::<Exertions>()
            .0
            .push((what, Found::Test(on)));
        self
    }

    fn declare_exertion_of<C: Component>(&mut self, what: &'static str) -> &mut Self {
        self.init_resource::<Exertions>().not_state::<Exertions>();
        let id = self.world_mut().register_component::<C>();
        self.world_mut()
            .resource_mut::<Exertions>()
            .0
            .push((what, Found::Has(id)));
        self
    }
}

/// What the creature is doing over rounds that exerts it, if anything (RULINGS › Rest).
pub fn exertion(world: &World, who: Entity) -> Option<&'static str> {
    world.get_resource::<Exertions>()?.of(world, who)
}

/// The first hold on the creature that does not allow this action, if any: the gate.
pub fn held_from(world: &World, who: Entity, allowed: &[Hold]) -> Option<Hold> {
    world
        .get_resource::<Holds>()?
        .on(world, who)
        .find(|h| h.refuses_commands() && !allowed.contains(h))
}

/// The first hold on the creature, if any: it makes no attack and gets no orders from a mind,
/// and it is not resting.
pub fn held(world: &World, who: Entity) -> Option<Hold> {
    world.get_resource::<Holds>()?.on(world, who).next()
}

/// The round a creature last used its hands in a blow (an attack, one of opportunity too).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct HandsUsed {
    pub round: u64,
}

/// Did the creature use its hands this round for something: an action of the round (a lock
/// picked, a trap disarmed, a light lit, a hook thrown …), work on a task, a blow struck, or
/// what keeps its hands busy (climbing, crawling, holding up a companion)? Dungeon Delves ›
/// Marching and Mapping: the mapper "must use both hands for mapping" — a mapper that does
/// any of these maps nothing that round.
pub fn hands_used(world: &World, who: Entity, round: u64) -> bool {
    ActionTaken::this_round(world.get::<ActionTaken>(who), round)
        || world
            .get::<HandsUsed>(who)
            .is_some_and(|h| h.round == round)
        || held(world, who) == Some(Hold::AtWork)
        || world.get_resource::<BusyHands>().is_some_and(|b| {
            b.0.iter()
                .any(|(what, on)| *what != MAPPING && on(world, who))
        })
}

/// What keeps a mapper's hands busy (Dungeon Delves › Marching and Mapping).
pub const MAPPING: &str = "mapping";

/// The round a creature took its action (RULINGS › The battle round): it makes no attack that
/// round.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ActionTaken {
    pub round: u64,
}

impl ActionTaken {
    /// Has the creature taken its action this round?
    pub fn this_round(taken: Option<&ActionTaken>, round: u64) -> bool {
        taken.is_some_and(|t| t.round == round)
    }
}
