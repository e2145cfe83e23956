//! Doors and Dungeonbashing (Dungeon Delves): opening and closing, unlocking with the key,
//! picking a lock hastily, bashing a stuck or spiked door open, spiking a door shut.
//!
//! Bashing is a Dungeonbashing throw of 18+, modified by ±4 per point of Strength adjustment (the
//! stronger of a pair, +4 for the pair), +2 with a crowbar, ±8 per size category from man-sized,
//! and −4 for each spike after the first; an unmodified 1 deals the basher 1 point of
//! bludgeoning damage. Bashing makes a loud noise.

pub mod commands;
pub mod events;
pub use commands::*;
pub use events::{DoorEvent, DoorOpening, LockOpening};

use bevy::prelude::*;

use crate::rules::throws::{ThrowKind, Thrower};

use crate::act::AnyAct;
use crate::act::{Choice, Refusal, Unable, square_of};
use crate::creature::{Abilities, BodySize, ClassLevel, Equipment, Position, Proficiencies};
use crate::dice::Modifier;
use crate::grid::{DungeonGrid, GridPos};
use crate::kept::{in_entity_order, read_query};
use crate::level::DoorSpec;
use crate::level::schema::{DoorState, Gear, Lock, Proficiency};
use crate::log::{EventLog, log_in};
use crate::rules::abilities::delve_modifier;
use crate::rules::sound::NoisyAction;
use crate::rules::task::{self, Work, time_words};
use crate::time::Clock;

/// A door (Dungeon Delves › Doors and Dungeonbashing): as the level file describes it (its
/// fields are read through it: `door.lock`, `door.spikes`), and whether it was battered down.
#[derive(Component, Clone, Debug, PartialEq, Eq, Deref, DerefMut)]
pub struct Door {
    #[deref]
    pub spec: DoorSpec,
    /// Battered or broken down: it stands open for good.
    pub broken: bool,
    /// Structural hit points it has lost to attacks (the doors table's SHP).
    pub structural_damage: u32,
}

impl From<&DoorSpec> for Door {
    /// The door as the level file describes it, not yet battered down.
    fn from(spec: &DoorSpec) -> Self {
        Self {
            spec: spec.clone(),
            broken: false,
            structural_damage: 0,
        }
    }
}

impl Door {
    /// Structural hit points left; `None` for a door the table gives none (a lead glass
    /// window: any damaging hit breaks it).
    pub fn structural_hp_left(&self) -> Option<u32> {
        self.material
            .structural_hp()
            .map(|hp| hp.saturating_sub(self.structural_damage))
    }
}

/// The most spikes a door can take.
pub const MAX_SPIKES: u8 = 4;

/// The Dungeonbashing modifiers for a basher (and a helper), a door, and the gear at hand.
pub(crate) fn bashing_modifiers(
    strength: i32,
    helper_strength: Option<i32>,
    crowbar: bool,
    size_categories: i32,
    spikes: u8,
) -> Vec<Modifier> {
    let mut mods = Vec::new();
    let (str_score, pair) = match helper_strength {
        Some(h) => (strength.max(h), true),
        None => (strength, false),
    };
    let adj = delve_modifier(str_score);
    if adj != 0 {
        mods.push(Modifier::new(
            4 * adj,
            format!("Strength {str_score} ({adj:+} x 4)"),
        ));
    }
    if pair {
        mods.push(Modifier::new(4, "a pair bashing together"));
    }
    if crowbar {
        mods.push(Modifier::new(2, "crowbar"));
    }
    if size_categories != 0 {
        mods.push(Modifier::new(8 * size_categories, "size"));
    }
    if spikes > 1 {
        mods.push(Modifier::new(
            -4 * (spikes as i32 - 1),
            format!("{spikes} spikes"),
        ));
    }
    mods
}

/// The door at `at`, as it is now.
pub fn door_here(world: &mut World, at: GridPos) -> Option<Door> {
    door_at(world, at).map(|(_, d)| d)
}

/// The door a creature stands next to at `at`, with its entity.
fn door_at(world: &mut World, at: GridPos) -> Option<(Entity, Door)> {
    read_query(world, |q: Query<(Entity, &Position, &Door)>| {
        q.iter()
            .find(|(_, p, _)| p.0 == at)
            .map(|(e, _, d)| (e, d.clone()))
    })
    .flatten()
}

/// The door at `door`, if `who` stands next to it.
fn reach_door(world: &mut World, who: Entity, door: GridPos) -> Result<(Entity, Door), Refusal> {
    let at = square_of(world, who)?;
    let (e, d) = door_at(world, door).ok_or(DoorRefusal::NoDoor { at: door })?;
    if !at.is_adjacent(door) {
        return Err(DoorRefusal::NotNextTo { at: door }.into());
    }
    // A secret door is used only once searching has found it (and made it an ordinary one).
    if d.secret {
        return Err(DoorRefusal::NoKnownDoor { at: door }.into());
    }
    Ok((e, d))
}

fn set_state(world: &mut World, e: Entity, at: GridPos, state: DoorState) {
    if let Some(mut d) = world.get_mut::<Door>(e) {
        d.state = state;
    }
    world.resource_mut::<DungeonGrid>().set_door(at, state);
}

/// What a creature brings to a door: its name, Strength, proficiencies, gear and size, and
/// whether a hasty pick of this lock failed at its level.
pub struct DoorWorker<'a> {
    pub name: &'a str,
    pub strength: i32,
    pub profs: &'a Proficiencies,
    pub gear: &'a Equipment,
    pub size_categories: i32,
    pub hasty_pick_barred: bool,
    /// It carries a weapon (enough to break a lead glass window).
    pub armed: bool,
    /// Its weapons and attack bonus, for striking a door as a structure.
    pub weapons: &'a [crate::level::WeaponDef],
    pub attack_bonus: i32,
    /// How it throws (bloodied, the tactical rules), for the chances.
    pub thrower: Thrower<'a>,
    /// What its throws at this door take beyond its own: the situation and the Judge's calls.
    pub situation: DoorThrowMods,
}

/// What a creature's throws at a door take beyond the worker's own numbers (RULINGS › Movement
/// penalties, and the Judge's calls): the situational penalties for every one, sight of the
/// door for picking its lock and striking it, the Judge's unusual door for bashing and lock
/// complexity for picking.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DoorThrowMods {
    pub bash: Vec<Modifier>,
    pub pick: Vec<Modifier>,
    pub strike: Vec<Modifier>,
}

impl DoorThrowMods {
    /// For `who` at the door at `at`. One not next to the door (a question about a door
    /// elsewhere) is taken as it would stand there now: its movement, prone and water, but
    /// not how it sees the door from afar.
    pub fn of(world: &World, who: Entity, at: GridPos) -> Self {
        use crate::level::schema::JudgeModifier;
        use crate::rules::calls::judge_modifier;
        use crate::rules::penalties::check_penalties;
        let door: Vec<Entity> = read_query(world, |q: Query<(Entity, &Position), With<Door>>| {
            q.iter().find(|(_, p)| p.0 == at).map(|(e, _)| e)
        })
        .flatten()
        .into_iter()
        .collect();
        let next_to = world
            .get::<Position>(who)
            .is_some_and(|p| p.0.is_adjacent(at));
        let judge = |m| judge_modifier(world, m, Some(at), &door);
        let mut bash = check_penalties(world, who, None);
        bash.extend(judge(JudgeModifier::UnusualDoor));
        let strike = check_penalties(world, who, next_to.then_some(at));
        let mut pick = strike.clone();
        pick.extend(judge(JudgeModifier::LockComplexity));
        Self { bash, pick, strike }
    }
}

impl<'a> DoorWorker<'a> {
    /// A creature at a door, as the world has it: `None` if it has no proficiencies or gear
    /// to bring (not a creature that works doors).
    pub fn of(world: &'a World, who: Entity, at: GridPos) -> Option<DoorWorker<'a>> {
        let level = world.get::<ClassLevel>(who).map_or(0, |c| c.level);
        Some(DoorWorker {
            name: world.get::<Name>(who)?.as_str(),
            strength: world.get::<Abilities>(who).map_or(10, |a| a.0.str),
            profs: world.get::<Proficiencies>(who)?,
            gear: world.get::<Equipment>(who)?,
            size_categories: world
                .get::<BodySize>(who)
                .map_or(0, |s| s.0.categories_from_man_sized()),
            hasty_pick_barred: world
                .get::<FailedHastyPicks>(who)
                .is_some_and(|f| f.0.contains(&(at, level))),
            armed: world
                .get::<crate::creature::Combatant>(who)
                .is_some_and(|c| !c.weapons.is_empty()),
            weapons: world
                .get::<crate::creature::Combatant>(who)
                .map_or(&[], |c| c.weapons.as_slice()),
            attack_bonus: world
                .get::<crate::creature::Combatant>(who)
                .map_or(0, |c| c.attack_bonus),
            thrower: Thrower::of(world, who)?,
            situation: DoorThrowMods::of(world, who, at),
        })
    }
}

/// The ways through a closed door open to a worker, each with its time and chance (the
/// "Opening Doors" table); or why there is none.
pub(crate) fn ways_through(d: &Door, at: GridPos, w: &DoorWorker) -> Result<Vec<Choice>, String> {
    if d.secret {
        return Err("it is a secret door: it must be found by searching first".into());
    }
    if d.state == DoorState::Open {
        return Err("it is open".into());
    }
    let who = w.name.to_owned();
    let xy = (at.x, at.y);
    let has = |g: &Gear| w.gear.has(g);
    let mut ways = Vec::new();
    let locked = matches!(d.lock, Lock::Locked { .. } | Lock::Jammed);
    if !locked && !d.stuck && d.spikes == 0 {
        let open = AnyAct::from(OpenDoor {
            who: who.clone(),
            at: xy,
        });
        ways.push(Choice::new("open", "1 round", None, "", open));
    }
    if let Lock::Locked { key: Some(k) } = &d.lock
        && has(&Gear::Key(k.clone()))
    {
        let unlock = AnyAct::from(Unlock {
            who: who.clone(),
            at: xy,
        });
        ways.push(Choice::new(
            "unlock",
            "1 round",
            None,
            &format!("with the {k}"),
            unlock,
        ));
    }
    if let Lock::Locked { .. } = d.lock
        && w.profs.has(Proficiency::Lockpicking)
        && has(&Gear::ThievesTools)
        && let Some(&t) = w.profs.throws.get(&Proficiency::Lockpicking)
    {
        let mods = &w.situation.pick;
        if !w.hasty_pick_barred {
            let pick = AnyAct::from(PickLock {
                who: who.clone(),
                at: xy,
            });
            let note = "a 1-3 on a failure jams the lock";
            ways.push(Choice::thrown(
                "pick hastily",
                "1 round",
                &w.thrower,
                ThrowKind::Check,
                mods,
                t,
                note,
                pick,
            ));
        }
        let pick = AnyAct::from(PickLockMethodically {
            who: who.clone(),
            at: xy,
        });
        let note = "+4; a 1 jams the lock";
        let mut methodical = mods.clone();
        methodical.push(Modifier::new(4, "methodical"));
        ways.push(Choice::thrown(
            "pick methodically",
            "1 turn",
            &w.thrower,
            ThrowKind::Check,
            &methodical,
            t,
            note,
            pick,
        ));
    }
    if (d.stuck || d.spikes > 0) && !locked {
        let mut mods = bashing_modifiers(
            w.strength,
            None,
            has(&Gear::Crowbar),
            w.size_categories,
            d.spikes,
        );
        mods.extend(w.situation.bash.iter().cloned());
        let why: Vec<String> = mods
            .iter()
            .map(|m| format!("{:+} {}", m.value, m.source))
            .collect();
        let bash = AnyAct::from(Bash {
            who: who.clone(),
            at: xy,
            helper: None,
        });
        ways.push(Choice::thrown(
            "bash",
            "1 round",
            &w.thrower,
            ThrowKind::Check,
            &mods,
            18,
            &why.join(", "),
            bash,
        ));
    }
    if can_batter(d.material, has(&Gear::Axe), w.armed)
        && let Some(rounds) = battering_rounds(d.material)
    {
        let batter = AnyAct::from(Batter {
            who: who.clone(),
            at: xy,
        });
        ways.push(Choice::new(
            "batter down",
            &time_words(rounds),
            None,
            if has(&Gear::Axe) {
                "with an axe; loud"
            } else {
                "with a weapon; loud"
            },
            batter,
        ));
    }
    if let Some(weapon) = w.weapons.iter().find(|weapon| harms_structure(weapon, d)) {
        let strike = AnyAct::from(AttackDoor {
            who: who.clone(),
            at: xy,
            weapon: Some(weapon.name.clone()),
        });
        let hp = d
            .structural_hp_left()
            .map_or("any hit breaks it".to_owned(), |hp| {
                format!("{hp} structural hit points; loud")
            });
        let mut mods = vec![Modifier::new(w.attack_bonus, "attack bonus")];
        mods.extend(w.situation.strike.iter().cloned());
        ways.push(Choice::thrown(
            &format!("strike with the {}", weapon.name),
            "1 round a blow",
            &w.thrower,
            ThrowKind::Attack { ranged: false },
            &mods,
            d.material.ac(),
            &hp,
            strike,
        ));
    }
    if ways.is_empty() {
        return Err(match d.lock {
            Lock::Jammed => "the lock is jammed, and it has no axe".to_owned(),
            _ => "it has neither the key, the skill and tools to pick the lock, nor an axe"
                .to_owned(),
        });
    }
    Ok(ways)
}

/// Everything a worker can do at a door it can see: the ways through a closed one, closing an
/// open one, and driving a spike.
/// The choices at every door next to `who`, nearest rows first.
fn choices_at_doors_beside(world: &World, who: Entity) -> Vec<(String, Choice)> {
    let Some(here) = world.get::<Position>(who).map(|p| p.0) else {
        return Vec::new();
    };
    let Some(mut q) = world.try_query::<(&Position, &Door)>() else {
        return Vec::new();
    };
    let mut near: Vec<(GridPos, &Door)> = q
        .iter(world)
        .filter(|(p, _)| p.0.is_adjacent(here))
        .map(|(p, d)| (p.0, d))
        .collect();
    near.sort_by_key(|(p, _)| (p.y, p.x));
    let mut out = Vec::new();
    for (at, d) in near {
        if let Some(worker) = DoorWorker::of(world, who, at) {
            out.extend(
                door_choices(d, at, &worker)
                    .into_iter()
                    .map(|c| (format!("door {at}"), c)),
            );
        }
    }
    out
}

fn door_choices(d: &Door, at: GridPos, w: &DoorWorker) -> Vec<Choice> {
    if d.secret {
        return Vec::new();
    }
    let who = w.name.to_owned();
    let xy = (at.x, at.y);
    let mut out = ways_through(d, at, w).unwrap_or_default();
    if d.state == DoorState::Open && !d.broken {
        let close = AnyAct::from(CloseDoor {
            who: who.clone(),
            at: xy,
        });
        out.push(Choice::new("close", "1 round", None, "", close));
    }
    let spikes = w
        .gear
        .0
        .iter()
        .any(|g| matches!(g, Gear::Spikes(n) if *n > 0));
    if spikes && d.spikes < MAX_SPIKES && !d.broken {
        let what = if d.state == DoorState::Open {
            "wedge open"
        } else {
            "spike shut"
        };
        let spike = AnyAct::from(Spike { who, at: xy });
        out.push(Choice::new(what, "1 round", None, "with a spike", spike));
    }
    out
}

/// The doors opened this round and who opened them; traps set to go off when a door opens read
/// them (Dungeon Delves › Traps) after the round's actions.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct DoorsOpened(pub Vec<(Entity, GridPos)>);

/// `who` opens the door `e` at `at` (by hand, by bashing or by battering).
fn swing_open(world: &mut World, who: Entity, e: Entity, at: GridPos, how: DoorOpening) {
    set_state(world, e, at, DoorState::Open);
    world.resource_mut::<DoorsOpened>().0.push((who, at));
    let who = crate::creature::name_of(world, who);
    log_in(world, DoorEvent::DoorOpened { who, at, how });
}

/// Holding a closed door shut from beside it: it does not yield, not even an evil door to a
/// monster, while the holder stays next to it and up.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct HoldingShut(pub GridPos);

/// Who holds the door at `at` shut, if anyone still does.
fn held_by(world: &mut World, at: GridPos) -> Option<Entity> {
    type Holders<'w, 's> = Query<
        'w,
        's,
        (
            Entity,
            &'static HoldingShut,
            &'static Position,
            &'static crate::creature::Conditions,
        ),
    >;
    read_query(world, |q: Holders| {
        q.iter()
            .filter(|(_, h, p, c)| {
                h.0 == at && p.0.is_adjacent(at) && !crate::rules::conditions::is_down(c)
            })
            .map(|(e, ..)| e)
            .min()
    })
    .flatten()
}

/// `HoldShut`: holds a closed door shut from beside it (until it moves away or lets go).
pub(crate) fn hold_shut(world: &mut World, who: Entity, at: GridPos) -> Result<(), Refusal> {
    let (_, d) = reach_door(world, who, at)?;
    if d.state == DoorState::Open {
        return Err(DoorRefusal::CloseItFirst.into());
    }
    world.entity_mut(who).insert(HoldingShut(at));
    Ok(())
}

/// `OpenDoor`: opens a door that is neither locked, stuck nor spiked. Evil doors always open
/// easily for monsters, unless spiked or held shut.
pub fn open(world: &mut World, who: Entity, at: GridPos) -> Result<(), Refusal> {
    let (e, d) = reach_door(world, who, at)?;
    if let Some(holder) = held_by(world, at)
        && holder != who
    {
        let by = crate::creature::name_of(world, holder);
        return Err(DoorRefusal::HeldShut { by }.into());
    }
    // Monsters: creatures of no party and no class (adventurers have classes).
    let monster = world.get::<crate::rules::party::PartyMember>(who).is_none()
        && world
            .get::<ClassLevel>(who)
            .is_none_or(|c| c.class.is_none());
    if d.evil && monster && d.state == DoorState::Closed && d.spikes == 0 {
        swing_open(world, who, e, at, DoorOpening::YieldedToEvil);
        return Ok(());
    }
    match (&d.state, &d.lock, d.stuck, d.spikes) {
        (DoorState::Open, ..) => Err(DoorRefusal::OpenAlready.into()),
        (_, Lock::Locked { .. } | Lock::Jammed, ..) => Err(DoorRefusal::Locked.into()),
        (_, _, true, _) => Err(DoorRefusal::Stuck.into()),
        (_, _, _, spikes) if spikes > 0 => Err(DoorRefusal::SpikedShut { spikes }.into()),
        _ => {
            swing_open(world, who, e, at, DoorOpening::ByHand);
            Ok(())
        }
    }
}

/// `CloseDoor`: closes an open door (not one someone stands in).
pub fn close(world: &mut World, who: Entity, at: GridPos) -> Result<(), Refusal> {
    let (e, d) = reach_door(world, who, at)?;
    if d.broken {
        return Err(DoorRefusal::BatteredDown.into());
    }
    if d.state == DoorState::Closed {
        return Err(DoorRefusal::ClosedAlready.into());
    }
    let mut q = world.query_filtered::<&Position, With<crate::creature::Creature>>();
    if q.iter(world).any(|p| p.0 == at) {
        return Err(DoorRefusal::DoorwayOccupied.into());
    }
    // Dungeon Delves › Doors: a door wedged open with spikes closes only once they are knocked
    // out; closing it removes them.
    if d.spikes > 0
        && let Some(mut door) = world.get_mut::<Door>(e)
    {
        door.spikes = 0;
        let who = crate::creature::name_of(world, who);
        log_in(
            world,
            DoorEvent::WedgeRemoved {
                who,
                at,
                spikes: d.spikes,
            },
        );
    }
    set_state(world, e, at, DoorState::Closed);
    Ok(())
}

/// `Unlock`: unlocks a locked door with its key (one round).
pub fn unlock(world: &mut World, who: Entity, at: GridPos) -> Result<(), Refusal> {
    let (e, d) = reach_door(world, who, at)?;
    let Lock::Locked { key } = &d.lock else {
        return Err(match d.lock {
            Lock::Jammed => DoorRefusal::Jammed,
            _ => DoorRefusal::NotLocked,
        }
        .into());
    };
    let key = key.clone().ok_or(DoorRefusal::NoKeyFits)?;
    let held = world
        .get::<Equipment>(who)
        .is_some_and(|g| g.has(&Gear::Key(key.clone())));
    if !held {
        return Err(DoorRefusal::KeyNotCarried { key }.into());
    }
    if let Some(mut door) = world.get_mut::<Door>(e) {
        door.lock = Lock::Unlocked;
    }
    let who = crate::creature::name_of(world, who);
    log_in(
        world,
        DoorEvent::LockOpened {
            who,
            at,
            by: LockOpening::Key(key),
        },
    );
    Ok(())
}

/// Hasty picks that failed: (door square, the thief's level then). No hasty retry of that lock
/// until the thief's level rises.
#[derive(Component, Clone, Debug, Default, PartialEq, Eq)]
pub struct FailedHastyPicks(pub Vec<(GridPos, u32)>);

/// A lock that can be picked: locked, not jammed.
fn pickable(d: &Door) -> Result<(), DoorRefusal> {
    match d.lock {
        Lock::Unlocked => Err(DoorRefusal::NotLocked),
        Lock::Jammed => Err(DoorRefusal::Jammed),
        Lock::Locked { .. } => Ok(()),
    }
}

/// `PickLock`: picks a lock hastily (one round): a Lockpicking throw with thieves' tools; an
/// unmodified 1–3 on a failure jams the lock.
pub(crate) fn pick_hastily(world: &mut World, who: Entity, at: GridPos) -> Result<(), Refusal> {
    let (e, d) = reach_door(world, who, at)?;
    pickable(&d)?;
    let target = lockpicking_target(world, who)?;
    let level = world.get::<ClassLevel>(who).map_or(0, |c| c.level);
    if world
        .get::<FailedHastyPicks>(who)
        .is_some_and(|f| f.0.contains(&(at, level)))
    {
        return Err(DoorRefusal::HastyPickBarred.into());
    }
    let mods = DoorThrowMods::of(world, who, at).pick;
    let throw = crate::rules::throws::throw_in(
        world,
        who,
        ThrowKind::Check,
        crate::rules::throws::Skill::Proficiency(crate::level::schema::Proficiency::Lockpicking),
        "Lockpicking (hasty)",
        mods,
        target,
    );
    if !throw.success && throw.natural > 3 {
        let mut failed = world
            .get::<FailedHastyPicks>(who)
            .cloned()
            .unwrap_or_default();
        failed.0.push((at, level));
        world.entity_mut(who).insert(failed);
    }
    settle_pick(world, who, e, at, throw.success, throw.natural <= 3, false);
    Ok(())
}

/// The outcome of a Lockpicking throw: the lock opens, jams, or holds (methodically, the thief
/// may try again).
fn settle_pick(
    world: &mut World,
    who: Entity,
    e: Entity,
    at: GridPos,
    success: bool,
    jams: bool,
    may_retry: bool,
) {
    let lock = if success {
        Lock::Unlocked
    } else if jams {
        Lock::Jammed
    } else {
        Lock::Locked { key: None }
    };
    let name = crate::creature::name_of(world, who);
    let event = match lock {
        Lock::Unlocked => DoorEvent::LockOpened {
            who: name,
            at,
            by: LockOpening::Picked,
        },
        Lock::Jammed => DoorEvent::LockJammed { who: name, at },
        Lock::Locked { .. } => DoorEvent::PickFailed {
            who: name,
            at,
            may_retry,
        },
    };
    if !matches!(lock, Lock::Locked { .. })
        && let Some(mut door) = world.get_mut::<Door>(e)
    {
        door.lock = lock;
    }
    log_in(world, event);
}

/// `Bash`: bashes a stuck, spiked or held door (one round), alone or with a helper.
pub fn bash(
    world: &mut World,
    who: Entity,
    helper: Option<Entity>,
    at: GridPos,
) -> Result<(), Refusal> {
    let (e, d) = reach_door(world, who, at)?;
    if let Some(h) = helper {
        reach_door(world, h, at).map_err(|why| DoorRefusal::Helper {
            why: why.to_string(),
        })?;
    }
    if d.state == DoorState::Open {
        return Err(DoorRefusal::Open.into());
    }
    if matches!(d.lock, Lock::Locked { .. } | Lock::Jammed) {
        return Err(DoorRefusal::LockedNotBashable.into());
    }
    let held = held_by(world, at).is_some_and(|h| h != who);
    if !d.stuck && d.spikes == 0 && !held {
        return Err(DoorRefusal::NothingToBash.into());
    }
    let strength = |e: Entity| world.get::<Abilities>(e).map_or(10, |a| a.0.str);
    let mut mods = bashing_modifiers(
        strength(who),
        helper.map(strength),
        world
            .get::<Equipment>(who)
            .is_some_and(|g| g.has(&Gear::Crowbar)),
        world
            .get::<BodySize>(who)
            .map_or(0, |s| s.0.categories_from_man_sized()),
        d.spikes,
    );
    mods.extend(DoorThrowMods::of(world, who, at).bash);
    crate::rules::sound::hearing::creature_noise(world, who, NoisyAction::BashingADoor)?;
    let throw = crate::rules::throws::throw_in(
        world,
        who,
        ThrowKind::Check,
        crate::rules::throws::Skill::Dungeonbashing,
        "Dungeonbashing",
        mods,
        18,
    );
    if throw.success {
        if let Some(mut door) = world.get_mut::<Door>(e) {
            door.stuck = false;
            door.spikes = 0;
        }
        if let Some(holder) = held_by(world, at) {
            world.entity_mut(holder).remove::<HoldingShut>();
        }
        swing_open(world, who, e, at, DoorOpening::Bashed);
        return Ok(());
    }
    let hurt = throw.natural == 1;
    let name = crate::creature::name_of(world, who);
    log_in(
        world,
        DoorEvent::BashFailed {
            who: name,
            at,
            hurt,
        },
    );
    if hurt {
        // RULINGS › Conditions …: the botched bash's point goes through the one damage path.
        for b in std::iter::once(who).chain(helper) {
            crate::rules::damage::take_damage(world, b, 1);
        }
    }
    Ok(())
}

/// `Spike`: drives a spike into a door (one round per spike, at most four): a closed door is
/// spiked shut, an open one wedged open.
pub fn spike(world: &mut World, who: Entity, at: GridPos) -> Result<(), Refusal> {
    let (e, d) = reach_door(world, who, at)?;
    if d.spikes >= MAX_SPIKES {
        return Err(DoorRefusal::FullOfSpikes.into());
    }
    let round = world.resource::<Clock>().rounds;
    if world
        .get::<DroveSpike>(who)
        .is_some_and(|s| s.round == round)
    {
        return Err(DoorRefusal::OneSpikeARound.into());
    }
    let mut gear = world
        .get_mut::<Equipment>(who)
        .ok_or(Unable::CarriesNothing)?;
    let spikes = gear
        .0
        .iter_mut()
        .find_map(|g| match g {
            Gear::Spikes(n) if *n > 0 => Some(n),
            _ => None,
        })
        .ok_or(DoorRefusal::NoSpikes)?;
    *spikes -= 1;
    world.entity_mut(who).insert(DroveSpike { round });
    let mut door = world.get_mut::<Door>(e).ok_or(Unable::Gone {
        what: "the door".into(),
    })?;
    door.spikes += 1;
    let (spikes, wedged_open) = (door.spikes, door.state == DoorState::Open);
    let who = crate::creature::name_of(world, who);
    log_in(
        world,
        DoorEvent::DoorSpiked {
            who,
            at,
            spikes,
            wedged_open,
        },
    );
    Ok(())
}

/// The round a creature last drove a spike: spiking takes one round per spike (Dungeon
/// Delves › Doors).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct DroveSpike {
    pub round: u64,
}

/// Whether a melee weapon can harm this door: one with structural damage against its kind of
/// structure, or any against a window (no structural hit points).
fn harms_structure(w: &crate::level::WeaponDef, door: &Door) -> bool {
    w.range_feet.is_none()
        && (door.material.structural_hp().is_none()
            || w.structural
                .as_ref()
                .is_some_and(|s| s.against(door.material.harmed_as()).is_some()))
}

/// The weapon a creature would strike a door with: the one named, or the first that can harm
/// the door's kind of structure; with its index and structural dice.
fn structural_weapon(
    world: &World,
    who: Entity,
    door: &Door,
    named: Option<&str>,
) -> Result<(usize, crate::level::WeaponDef), DoorRefusal> {
    let structure = door.material.harmed_as();
    let weapons = world
        .get::<crate::creature::Combatant>(who)
        .map(|c| c.weapons.clone())
        .unwrap_or_default();
    let harms = |w: &crate::level::WeaponDef| harms_structure(w, door);
    let found = match named {
        Some(n) => weapons
            .iter()
            .enumerate()
            .find(|(_, w)| w.name == n)
            .ok_or(DoorRefusal::NoSuchWeapon { weapon: n.into() })?,
        None => weapons
            .iter()
            .enumerate()
            .find(|(_, w)| harms(w))
            .ok_or(DoorRefusal::CannotHarmStructure { structure })?,
    };
    if !harms(found.1) {
        return Err(DoorRefusal::CannotHarmStructure { structure });
    }
    Ok((found.0, found.1.clone()))
}

/// `AttackDoor`: strikes a closed door (Dungeon Delves › Doors: doors are "harmed as" wood or
/// stone structures with the table's AC and structural hit points). An attack throw against
/// the door's AC (the table's, +10 ascending); a hit deals the weapon's structural damage
/// against the door's kind of structure, and a door brought to 0 structural hit points breaks
/// and stands open for good. Weapons without structural damage cannot harm a structure; a lead
/// glass window, which has no structural hit points, breaks at any hit. Loud, like battering.
pub(crate) fn attack_door(
    world: &mut World,
    who: Entity,
    at: GridPos,
    weapon: Option<&str>,
) -> Result<(), Refusal> {
    let (e, d) = reach_door(world, who, at)?;
    if d.state == DoorState::Open {
        return Err(DoorRefusal::Open.into());
    }
    let (_, w) = structural_weapon(world, who, &d, weapon)?;
    let attack_bonus = world
        .get::<crate::creature::Combatant>(who)
        .map_or(0, |c| c.attack_bonus);
    let mut mods = vec![Modifier::new(attack_bonus, "attack bonus")];
    mods.extend(DoorThrowMods::of(world, who, at).strike);
    crate::rules::sound::hearing::creature_noise(world, who, NoisyAction::BatteringADoor)?;
    let name = crate::creature::name_of(world, who);
    let throw = crate::rules::throws::throw_in(
        world,
        who,
        ThrowKind::Attack { ranged: false },
        crate::rules::throws::Skill::Attack,
        format!("{name} strikes the door at {at} with {}", w.name),
        mods,
        d.material.ac(),
    );
    let structural = if throw.success {
        let dice = w
            .structural
            .as_ref()
            .and_then(|s| s.against(d.material.harmed_as()))
            .cloned();
        Some(dice.map_or(0, |dice| {
            world
                .resource_mut::<crate::dice::Dice>()
                .roll_expr(&dice)
                .total
                .max(0) as u32
        }))
    } else {
        None
    };
    let left = match structural {
        Some(damage) => {
            let mut door = world.get_mut::<Door>(e).ok_or(Unable::Gone {
                what: "the door".into(),
            })?;
            door.structural_damage += damage;
            door.structural_hp_left()
        }
        None => d.structural_hp_left(),
    };
    log_in(
        world,
        DoorEvent::DoorStruck {
            who: name,
            at,
            structural_damage: structural,
            structural_hp_left: left,
        },
    );
    if structural.is_some() && left.is_none_or(|hp| hp == 0) {
        break_down(world, e);
        swing_open(world, who, e, at, DoorOpening::Broken);
    }
    Ok(())
}

/// A door battered or broken down: unlocked, unstuck, unspiked, open for good.
fn break_down(world: &mut World, e: Entity) {
    if let Some(mut d) = world.get_mut::<Door>(e) {
        d.broken = true;
        d.lock = Lock::Unlocked;
        d.stuck = false;
        d.spikes = 0;
    }
}

/// Evil doors swing shut when released: at the end of each round an open evil door that no one
/// stands in, and that is not spiked or wedged open, closes.
fn evil_doors_swing_shut(
    clock: Res<Clock>,
    mut log: ResMut<EventLog>,
    mut grid: ResMut<DungeonGrid>,
    mut doors: Query<(Entity, &Position, &mut Door)>,
    creatures: Query<&Position, (With<crate::creature::Creature>, Without<Door>)>,
) {
    for e in in_entity_order(doors.iter().map(|d| d.0)) {
        let Ok((_, at, mut d)) = doors.get_mut(e) else {
            continue;
        };
        if d.evil
            && d.state == DoorState::Open
            && d.spikes == 0
            && !creatures.iter().any(|c| c.0 == at.0)
        {
            d.state = DoorState::Closed;
            grid.set_door(at.0, DoorState::Closed);
            log.push(clock.rounds, DoorEvent::DoorSwungShut { at: at.0 });
        }
    }
}

/// Rounds of battering down (the doors table): a wooden door one turn with an axe, an
/// iron-banded one three; a lead glass window breaks open in one round with any weapon; solid
/// metal and stone doors cannot be battered down.
fn battering_rounds(material: crate::level::schema::DoorMaterial) -> Option<u64> {
    use crate::level::schema::DoorMaterial::*;
    match material {
        Wooden => Some(crate::time::ROUNDS_PER_TURN),
        IronBanded => Some(3 * crate::time::ROUNDS_PER_TURN),
        LeadGlassWindow => Some(1),
        SolidIron | IronBandedStone | GreatIronBandedStone | Stone | IronTrapDoor => None,
    }
}

/// Whether a creature has what battering this door down takes: an axe, or for a lead glass
/// window any weapon.
fn can_batter(material: crate::level::schema::DoorMaterial, axe: bool, armed: bool) -> bool {
    axe || (material == crate::level::schema::DoorMaterial::LeadGlassWindow && armed)
}

/// `PickLockMethodically`: sets to picking a lock methodically: one turn, then a Lockpicking
/// throw at +4.
pub(crate) fn pick_methodically(
    world: &mut World,
    who: Entity,
    at: GridPos,
) -> Result<(), Refusal> {
    let (_, d) = reach_door(world, who, at)?;
    pickable(&d)?;
    lockpicking_target(world, who)?;
    task::begin(
        world,
        who,
        PickingLock { door: at },
        crate::time::ROUNDS_PER_TURN,
    );
    Ok(())
}

/// `Batter`: sets to battering a door down with an axe (a lead glass window with any weapon).
pub fn batter(world: &mut World, who: Entity, at: GridPos) -> Result<(), Refusal> {
    let (_, d) = reach_door(world, who, at)?;
    if d.state == DoorState::Open {
        return Err(DoorRefusal::Open.into());
    }
    let axe = world
        .get::<Equipment>(who)
        .is_some_and(|g| g.has(&Gear::Axe));
    let armed = world
        .get::<crate::creature::Combatant>(who)
        .is_some_and(|c| !c.weapons.is_empty());
    if !can_batter(d.material, axe, armed) {
        return Err(
            if d.material == crate::level::schema::DoorMaterial::LeadGlassWindow {
                DoorRefusal::WindowNeedsWeapon
            } else {
                DoorRefusal::NeedsAxe
            }
            .into(),
        );
    }
    let rounds = battering_rounds(d.material).ok_or(DoorRefusal::TooStrongToBatter {
        material: d.material,
    })?;
    task::begin(world, who, Battering { door: at }, rounds);
    Ok(())
}

fn lockpicking_target(world: &World, who: Entity) -> Result<i32, Refusal> {
    let profs = world
        .get::<Proficiencies>(who)
        .ok_or(Unable::NoProficiencies)?;
    let target = *profs
        .throws
        .get(&Proficiency::Lockpicking)
        .filter(|_| profs.has(Proficiency::Lockpicking))
        .ok_or(DoorRefusal::NotALockpicker)?;
    if !world
        .get::<Equipment>(who)
        .is_some_and(|g| g.has(&Gear::ThievesTools))
    {
        return Err(DoorRefusal::NoThievesTools.into());
    }
    Ok(target)
}

/// Picking a lock methodically (Dungeon Delves › Doors): a turn's work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PickingLock {
    pub door: GridPos,
}

impl std::fmt::Display for PickingLock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "picking the lock at {} methodically", self.door)
    }
}

impl Work for PickingLock {
    /// The end of a turn of methodical lockpicking: a Lockpicking throw at +4; an unmodified 1
    /// jams the lock, and any other failure may be tried again.
    fn finish(&self, world: &mut World, who: Entity) {
        let at = self.door;
        let Ok(target) = lockpicking_target(world, who) else {
            return;
        };
        let Some((e, d)) = door_at(world, at) else {
            return;
        };
        if !matches!(d.lock, Lock::Locked { .. }) {
            return;
        }
        let mut mods = DoorThrowMods::of(world, who, at).pick;
        mods.push(Modifier::new(4, "methodical"));
        let throw = crate::rules::throws::throw_in(
            world,
            who,
            ThrowKind::Check,
            crate::rules::throws::Skill::Proficiency(
                crate::level::schema::Proficiency::Lockpicking,
            ),
            "Lockpicking (methodical)",
            mods,
            target,
        );
        settle_pick(world, who, e, at, throw.success, throw.natural == 1, true);
    }
}

/// Battering a door down (Dungeon Delves › Doors): loud every round; at the end the door is
/// broken and stays open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Battering {
    pub door: GridPos,
}

impl std::fmt::Display for Battering {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "battering the door at {} down", self.door)
    }
}

impl Work for Battering {
    fn each_round(&self, world: &mut World, who: Entity) {
        // A creature at work has a square, so the noise is always made.
        let _ =
            crate::rules::sound::hearing::creature_noise(world, who, NoisyAction::BatteringADoor);
    }

    fn finish(&self, world: &mut World, who: Entity) {
        let at = self.door;
        let Some((e, _)) = door_at(world, at) else {
            return;
        };
        break_down(world, e);
        swing_open(world, who, e, at, DoorOpening::BatteredDown);
    }
}

pub struct DoorsPlugin;

impl Plugin for DoorsPlugin {
    fn build(&self, app: &mut App) {
        use crate::state::KeepsState;
        // The area's state, kept in every keyframe (`crate::state`).
        app.keeps_component::<crate::rules::doors::HoldingShut>()
            .keeps_component::<crate::rules::doors::FailedHastyPicks>()
            .keeps_component::<crate::rules::doors::DroveSpike>()
            .keeps_component::<crate::rules::doors::Door>();
        crate::rules::areas::RuleArea::offers(app, choices_at_doors_beside);
        use crate::rules::areas::RuleArea;
        app.resets::<DoorsOpened>().installs(|world, level| {
            for d in &level.doors {
                world.spawn((
                    crate::creature::LevelEntity,
                    Position(d.at),
                    Door::from(&d.door),
                ));
            }
        });
        app.init_resource::<DoorsOpened>().add_systems(
            crate::schedule::SimRound,
            evil_doors_swing_shut.in_set(crate::schedule::RoundSet::Doors),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn total(mods: &[Modifier]) -> i32 {
        mods.iter().map(|m| m.value).sum()
    }

    /// The doors table: AC (its own scale, +10 ascending), structural hit points, battering.
    #[test]
    fn the_doors_table() {
        use crate::level::schema::DoorMaterial::*;
        let rows: Vec<(i32, Option<u32>, Option<u64>)> = [
            GreatIronBandedStone,
            IronBandedStone,
            SolidIron,
            IronTrapDoor,
            IronBanded,
            Wooden,
            LeadGlassWindow,
        ]
        .into_iter()
        .map(|m| (m.table_ac(), m.structural_hp(), battering_rounds(m)))
        .collect();
        assert_eq!(
            rows,
            vec![
                (6, Some(25), None),
                (6, Some(2), None),
                (6, Some(1), None),
                (6, Some(1), None),
                (3, Some(1), Some(30)),
                (1, Some(1), Some(10)),
                (0, None, Some(1)),
            ]
        );
        assert_eq!(Wooden.ac(), 11);
        use crate::level::schema::Structure;
        assert_eq!(
            [GreatIronBandedStone, SolidIron, IronBanded, Wooden].map(|m| m.harmed_as()),
            [
                Structure::Stone,
                Structure::Stone,
                Structure::Wood,
                Structure::Wood
            ],
            "harmed as stone or wood structure, by the table's notes"
        );
        assert!(can_batter(LeadGlassWindow, false, true));
        assert!(
            !can_batter(Wooden, false, true),
            "a wooden door needs an axe"
        );
        assert_eq!(
            (time_words(1), time_words(10), time_words(30)),
            ("1 round".into(), "1 turn".into(), "3 turns".into())
        );
    }

    #[test]
    fn strength_18_bashes_on_6_plus() {
        let m = bashing_modifiers(18, None, false, 0, 0);
        assert_eq!(18 - total(&m), 6);
        assert_eq!(
            18 - total(&bashing_modifiers(10, None, false, 0, 0)),
            18,
            "no adjustment: 18+"
        );
        assert_eq!(
            18 - total(&bashing_modifiers(7, None, false, 0, 0)),
            22,
            "−1 adjustment: 22+"
        );
    }

    #[test]
    fn a_pair_uses_the_stronger_plus_four_and_a_crowbar_adds_two() {
        let m = bashing_modifiers(13, Some(16), false, 0, 0);
        assert_eq!(total(&m), 8 + 4, "Strength 16 (+2 × 4) and +4 for the pair");
        assert_eq!(total(&bashing_modifiers(10, None, true, 0, 0)), 2);
    }

    #[test]
    fn size_and_spikes() {
        assert_eq!(
            total(&bashing_modifiers(10, None, false, 1, 0)),
            8,
            "one size larger"
        );
        assert_eq!(
            total(&bashing_modifiers(10, None, false, -1, 0)),
            -8,
            "one size smaller"
        );
        assert_eq!(
            total(&bashing_modifiers(10, None, false, 0, 1)),
            0,
            "the first spike is free"
        );
        assert_eq!(
            total(&bashing_modifiers(10, None, false, 0, 3)),
            -8,
            "three spikes give −8"
        );
    }
}
