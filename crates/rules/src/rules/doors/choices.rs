//! The ways through a door a creature beside it is offered, each with its time and chance (Dungeon Delves › Doors).

use crate::creature::Combatant;
use delve_ground::level::WeaponDef;

use crate::act::{AnyAct, Choice, Concern};
use crate::creature::{Abilities, BodySize, ClassLevel, Equipment, Position, Proficiencies};
use crate::rules::task::time_words;
use crate::rules::throws::{ThrowKind, Thrower};
use bevy::prelude::*;
use delve_ground::dice::Modifier;
use delve_ground::grid::{DoorState, GridPos};
use delve_ground::level::schema::{Gear, Lock, Proficiency};
use delve_ground::query_cache::read_query;

use super::{
    AttackDoor, Bash, Batter, CloseDoor, Door, FailedHastyPicks, MAX_SPIKES, OpenDoor, PickLock,
    PickLockMethodically, Spike, Unlock, bashing_modifiers, battering_rounds, can_batter,
    harms_structure,
};
use crate::rules::throws::ThrowOdds;

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
    pub weapons: &'a [WeaponDef],
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
        use crate::rules::calls::judge_modifier;
        use crate::rules::penalties::check_penalties;
        use delve_ground::level::schema::JudgeModifier;
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
                .get::<Combatant>(who)
                .is_some_and(|c| !c.weapons.is_empty()),
            weapons: world
                .get::<Combatant>(who)
                .map_or(&[], |c| c.weapons.as_slice()),
            attack_bonus: world.get::<Combatant>(who).map_or(0, |c| c.attack_bonus),
            thrower: Thrower::of(world, who)?,
            situation: DoorThrowMods::of(world, who, at),
        })
    }
}

/// The ways through a closed door open to a worker, each with its time and chance (the
/// "Opening Doors" table); or why there is none.
pub fn ways_through(d: &Door, at: GridPos, w: &DoorWorker) -> Result<Vec<Choice>, String> {
    if d.secret {
        return Err("it is a secret door: it must be found by searching first".into());
    }
    if d.state == DoorState::Open {
        return Err("it is open".into());
    }
    let who = w.name.to_owned();
    let xy = (at.x, at.y);
    let mut ways = Vec::new();
    let locked = matches!(d.lock, Lock::Locked { .. } | Lock::Jammed);
    if !locked && !d.stuck && d.spikes == 0 {
        let open = AnyAct::from(OpenDoor {
            who: who.clone(),
            at: xy,
        });
        ways.push(Choice::new("open", "1 round", None, "", open));
    }
    ways.extend(through_the_lock(d, xy, w));
    ways.extend(by_force(d, xy, w, locked));
    if ways.is_empty() {
        return Err(match d.lock {
            Lock::Jammed => "the lock is jammed, and it has no axe".to_owned(),
            _ => "it has neither the key, the skill and tools to pick the lock, nor an axe"
                .to_owned(),
        });
    }
    Ok(ways)
}

/// The ways through a locked door's lock: its key, a hasty pick, a methodical one.
fn through_the_lock(d: &Door, xy: (i32, i32), w: &DoorWorker) -> Vec<Choice> {
    let who = w.name.to_owned();
    let has = |g: &Gear| w.gear.has(g);
    let mut ways = Vec::new();
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
                ThrowOdds {
                    who: &w.thrower,
                    kind: ThrowKind::Check,
                    modifiers: mods,
                    target: t,
                },
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
            ThrowOdds {
                who: &w.thrower,
                kind: ThrowKind::Check,
                modifiers: &methodical,
                target: t,
            },
            note,
            pick,
        ));
    }
    ways
}

/// The ways through a door by force: bashing a stuck or spiked one, battering it down,
/// striking it with a weapon that harms its structure.
fn by_force(d: &Door, xy: (i32, i32), w: &DoorWorker, locked: bool) -> Vec<Choice> {
    let who = w.name.to_owned();
    let has = |g: &Gear| w.gear.has(g);
    let mut ways = Vec::new();
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
            ThrowOdds {
                who: &w.thrower,
                kind: ThrowKind::Check,
                modifiers: &mods,
                target: 18,
            },
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
            ThrowOdds {
                who: &w.thrower,
                kind: ThrowKind::Attack { ranged: false },
                modifiers: &mods,
                target: d.material.ac(),
            },
            &hp,
            strike,
        ));
    }
    ways
}

/// The choices at every door next to `who`, nearest rows first: everything it can do at a
/// door it can see (the ways through a closed one, closing an open one, driving a spike,
/// holding it shut), as its faction knows the door.
pub(super) fn choices_at_doors_beside(world: &World, who: Entity) -> Vec<(Concern, Choice)> {
    let Some(here) = world.get::<Position>(who).map(|p| p.0) else {
        return Vec::new();
    };
    let mut near: Vec<GridPos> = read_query(world, |q: Query<&Position, With<Door>>| {
        q.iter()
            .map(|p| p.0)
            .filter(|p| p.is_adjacent(here))
            .collect()
    })
    .unwrap_or_default();
    near.sort_by_key(|p| (p.y, p.x));
    near.into_iter()
        .flat_map(|at| {
            choices_at_door(world, who, at)
                .into_iter()
                .map(move |c| (Concern::Door(at), c))
        })
        .collect()
}

/// What `who` is offered at the door at `at`, as its faction knows the door, taken as it
/// would stand beside it (the party's mind asks this before a member walks up to a door).
pub fn choices_at_door(world: &World, who: Entity, at: GridPos) -> Vec<Choice> {
    let Some(d) = super::known_door(world, who, at) else {
        return Vec::new();
    };
    let Some(worker) = DoorWorker::of(world, who, at) else {
        return Vec::new();
    };
    let mut out = door_choices(&d, at, &worker);
    // Holding a closed door shut from beside it: it must be bashed open, and an evil door no
    // longer yields to monsters.
    let holding = world.get::<super::HoldingShut>(who).map(|h| h.0);
    if d.state != DoorState::Open && !d.broken && !d.secret && holding != Some(at) {
        let hold = AnyAct::from(super::HoldShut {
            who: worker.name.to_owned(),
            at: (at.x, at.y),
        });
        let note = "while it stays beside it: only bashing opens it";
        out.push(Choice::new(
            "hold shut",
            "as long as it stands there",
            None,
            note,
            hold,
        ));
    }
    out
}

pub(super) fn door_choices(d: &Door, at: GridPos, w: &DoorWorker) -> Vec<Choice> {
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
