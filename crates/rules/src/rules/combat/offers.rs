//! What a battle offers a creature (Tactical Combat; RULINGS › The battle round): an attack on
//! each foe it is aware of and can strike now, with the chance to hit and the damage; stepping
//! back from a threatener cautiously or tumbling, disengaging from it; total defense; forgoing a
//! shield; clearing a jam; activating a weapon's enchantment. Each is offered only where the
//! gate would take it, with the action it costs in the battle round.

use crate::rules::movement::Walking;

use bevy::prelude::*;

use super::attack::{can_attack, chance_to_hit};
use super::battle::{Awareness, Battle};
use super::commands::{
    ActivateEnchantment, Attack, ClearJam, Disengage, ForgoShield, MoveAcrobatically,
    MoveCautiously, TotalDefense,
};
use super::gear::{
    ActiveEnchantments, Jammed, ShieldForgone, TOTAL_DEFENSE_AC, TotalDefense as InTotalDefense,
};
use super::opportunity::Disengaging;
use crate::act::{Choice, Concern};
use crate::creature::{Combatant, Conditions, Faction, Factions, Position, Proficiencies};
use crate::rules::conditions::is_down;
use crate::rules::tactical::TacticalCombat;
use delve_ground::grid::{DungeonGrid, GridPos};
use delve_ground::level::schema::Proficiency;
use delve_ground::time::Clock;

/// The time an attack order takes: it stands, and is carried out in each of the faction's
/// initiatives.
const EACH_ROUND: &str = "each round";

/// The battle's choices for a creature in it, under no hold (the gate's holds are asked by
/// `rules::choices_for`).
pub(crate) fn battle_choices(world: &World, who: Entity) -> Vec<(Concern, Choice)> {
    let (Some(battle), Some(rules)) = (
        world.get_resource::<Battle>(),
        world.get_resource::<TacticalCombat>(),
    ) else {
        return Vec::new();
    };
    let (Some(faction), Some(combatant), Some(name)) = (
        world.get::<Faction>(who),
        world.get::<Combatant>(who),
        world.get::<Name>(who),
    ) else {
        return Vec::new();
    };
    if !battle.active || battle.result_of(faction.0).is_none() {
        return Vec::new();
    }
    let name = name.as_str();
    let mut out = attacks(world, who, name, combatant);
    let threateners = threateners(world, who, *faction);
    if let Some((_, foe_name)) = threateners.first()
        && let Some(to) = step_back(world, who, *faction)
    {
        let here = (to.x, to.y);
        if rules.cautious_movement && !disengaging(world, who) {
            out.push((
                Concern::Creature(foe_name.clone()),
                Choice::new(
                    "step back cautiously",
                    "half combat speed",
                    None,
                    &format!(
                        "to {to}: no attack of opportunity but from one with Combat Reflexes (at -4)"
                    ),
                    MoveCautiously {
                        who: name.to_owned(),
                        to: here,
                    },
                ),
            ));
        }
        if world
            .get::<Proficiencies>(who)
            .is_some_and(|p| p.has(Proficiency::Acrobatics))
        {
            out.push((
                Concern::Creature(foe_name.clone()),
                Choice::new(
                    "tumble back",
                    "full combat speed",
                    None,
                    &format!("to {to}: an Acrobatics check past each threatener"),
                    MoveAcrobatically {
                        who: name.to_owned(),
                        to: here,
                    },
                ),
            ));
        }
    }
    if !cautious(world, who) {
        for (_, foe_name) in &threateners {
            out.push((
                Concern::Creature(foe_name.clone()),
                Choice::new(
                    "disengage",
                    "a swift action, in its faction's initiative",
                    None,
                    "its first 5' away this round provokes no attack from it",
                    Disengage {
                        who: name.to_owned(),
                        from: foe_name.clone(),
                    },
                ),
            ));
        }
    }
    if world.get::<InTotalDefense>(who).is_none() {
        out.push((
            Concern::Here,
            Choice::new(
                "total defense",
                "its action, in its faction's initiative",
                None,
                &format!("+{TOTAL_DEFENSE_AC} AC and no attacks until its next initiative"),
                TotalDefense {
                    who: name.to_owned(),
                },
            ),
        ));
    }
    if combatant.shield.as_ref().is_some_and(|s| s.proficient)
        && world.get::<ShieldForgone>(who).is_none()
        && super::attack::shield_in_hand(world, who)
    {
        out.push((
            Concern::Gear("shield".to_owned()),
            Choice::new(
                "forgo the shield",
                "free, in its faction's initiative",
                None,
                "a free hand; none of the shield's bonuses until its next initiative",
                ForgoShield {
                    who: name.to_owned(),
                },
            ),
        ));
    }
    let active = world.get::<ActiveEnchantments>(who);
    for (i, w) in combatant.weapons.iter().enumerate() {
        let Some((enchantment, dice)) = &w.enchantment else {
            continue;
        };
        if active.is_some_and(|a| a.0.contains(&i)) {
            continue;
        }
        let umd = world
            .get::<Proficiencies>(who)
            .is_some_and(|p| p.has(Proficiency::UseMagicDevice));
        let move_action = super::gear::activation_is_a_move_action(combatant.attack_bonus, umd);
        out.push((
            Concern::Gear(w.name.clone()),
            Choice::new(
                &format!("activate {enchantment}"),
                if move_action {
                    "a move action: no walking this round"
                } else {
                    "its action: no attack this round"
                },
                None,
                &format!("+{dice} on each hit"),
                ActivateEnchantment {
                    who: name.to_owned(),
                    weapon: w.name.clone(),
                },
            ),
        ));
    }
    out
}

/// Tactical Combat › Shields, a shield sacrificed to a critical hit (a normal hit instead, once a
/// round; the shield broken, then destroyed): the bearer's standing choice, offered in a battle
/// after everything it might do in it (`Rank::Standing`).
pub fn sacrifice_choices(world: &World, who: Entity) -> Vec<(Concern, Choice)> {
    let (Some(battle), Some(faction), Some(combatant), Some(name)) = (
        world.get_resource::<Battle>(),
        world.get::<Faction>(who),
        world.get::<Combatant>(who),
        world.get::<Name>(who),
    ) else {
        return Vec::new();
    };
    if !battle.active || battle.result_of(faction.0).is_none() {
        return Vec::new();
    }
    let name = name.as_str();
    let mut out = Vec::new();
    if combatant.shield.as_ref().is_some_and(|s| s.proficient)
        && world
            .get::<super::gear::ShieldState>(who)
            .is_none_or(|s| !s.destroyed)
    {
        use super::gear::ShieldSacrifice;
        let now = world
            .get::<ShieldSacrifice>(who)
            .copied()
            .unwrap_or_default();
        for when in [
            ShieldSacrifice::ToSurvive,
            ShieldSacrifice::Always,
            ShieldSacrifice::Never,
        ] {
            if when == now {
                continue;
            }
            out.push((
                Concern::Gear("shield".to_owned()),
                Choice::new(
                    &format!("give the shield to a critical {}", when.words()),
                    "free; it stands",
                    None,
                    &format!("now: {}", now.words()),
                    super::commands::SacrificeShield {
                        who: name.to_owned(),
                        when,
                    },
                ),
            ));
        }
    }
    out
}

/// Clearing a jammed firearm (Tactical Combat › Firearms): in a battle a full-round action (a
/// standard action with Gunsmithing), in its faction's initiative; outside one, a round's work.
/// Offered whether or not a battle is on, under no hold (the gate's holds are asked by
/// `rules::choices_for`).
pub fn jam_choices(world: &World, who: Entity) -> Vec<(Concern, Choice)> {
    let Some(name) = world
        .get::<Name>(who)
        .filter(|_| world.get::<Jammed>(who).is_some())
    else {
        return Vec::new();
    };
    let gunsmith = world
        .get::<Proficiencies>(who)
        .is_some_and(|p| p.has(Proficiency::Gunsmithing));
    let in_battle = world.get_resource::<Battle>().is_some_and(|b| b.active);
    let time = match (in_battle, gunsmith) {
        (false, _) => "1 round",
        (true, true) => "its action (Gunsmithing), in its faction's initiative",
        (true, false) => "the whole round: no move, no attack",
    };
    let clear = ClearJam {
        who: name.as_str().to_owned(),
    };
    let note = if in_battle {
        "no attack this round"
    } else {
        ""
    };
    vec![(
        Concern::Gear("firearm".to_owned()),
        Choice::new("clear the jam", time, None, note, clear),
    )]
}

/// An attack on each hostile creature it is aware of and can strike now, with each weapon that
/// can: the throw needed and its chance, and the damage.
fn attacks(world: &World, who: Entity, name: &str, c: &Combatant) -> Vec<(Concern, Choice)> {
    let Some(aware) = world.get_resource::<Awareness>() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for &(_, foe) in aware.of(who) {
        let Some(foe_name) = world.get::<Name>(foe) else {
            continue;
        };
        for (i, w) in c.weapons.iter().enumerate() {
            if can_attack(world, who, foe, i).is_err() {
                continue;
            }
            let Some((chance, need)) = chance_to_hit(world, who, foe, i) else {
                continue;
            };
            out.push((
                Concern::Creature(foe_name.to_string()),
                Choice {
                    chance,
                    ..Choice::new(
                        &format!("attack with its {}", w.name),
                        EACH_ROUND,
                        Some(need),
                        &format!("{} {:?} damage", w.damage, w.damage_type),
                        Attack {
                            who: name.to_owned(),
                            target: foe_name.to_string(),
                            weapon: Some(w.name.clone()),
                        },
                    )
                },
            ));
        }
    }
    out
}

/// Hostile creatures beside it that are up, by name.
fn threateners(world: &World, who: Entity, mine: Faction) -> Vec<(Entity, String)> {
    let Some(at) = world.get::<Position>(who).map(|p| p.0) else {
        return Vec::new();
    };
    let factions = world.resource::<Factions>();
    let Some(aware) = world.get_resource::<Awareness>() else {
        return Vec::new();
    };
    let mut out: Vec<(Entity, String)> = aware
        .of(who)
        .iter()
        .filter_map(|&(_, foe)| {
            let p = world.get::<Position>(foe)?.0;
            let f = *world.get::<Faction>(foe)?;
            let up = world.get::<Conditions>(foe).is_some_and(|c| !is_down(c));
            (up && factions.hostile(mine, f) && p.is_adjacent(at)).then(|| {
                (
                    foe,
                    world
                        .get::<Name>(foe)
                        .map(|n| n.to_string())
                        .unwrap_or_default(),
                )
            })
        })
        .collect();
    out.sort_by(|a, b| a.1.cmp(&b.1));
    out
}

/// The open square beside it, not beside any hostile creature if it can be, farthest from the
/// nearest: where a step back goes.
fn step_back(world: &World, who: Entity, mine: Faction) -> Option<GridPos> {
    let at = world.get::<Position>(who)?.0;
    let grid = world.resource::<DungeonGrid>();
    let factions = world.resource::<Factions>();
    let mut q = world.try_query::<(Entity, &Position, &Faction, &Conditions)>()?;
    let others: Vec<(GridPos, bool)> = q
        .iter(world)
        .filter(|(e, ..)| *e != who)
        .map(|(_, p, f, c)| (p.0, factions.hostile(mine, *f) && !is_down(c)))
        .collect();
    let foes: Vec<GridPos> = others.iter().filter(|o| o.1).map(|o| o.0).collect();
    if foes.is_empty() {
        return None;
    }
    let mut best: Option<(u32, GridPos)> = None;
    for p in at.neighbours() {
        if !grid.is_passable(p) || others.iter().any(|o| o.0 == p) {
            continue;
        }
        let nearest = foes.iter().map(|f| f.chebyshev(p)).min().unwrap_or(0);
        if nearest > 1 && best.is_none_or(|b| nearest > b.0) {
            best = Some((nearest, p));
        }
    }
    best.map(|b| b.1)
}

/// Is it disengaging this round (which does not combine with cautious movement)?
fn disengaging(world: &World, who: Entity) -> bool {
    let round = world.resource::<Clock>().rounds;
    world
        .get::<Disengaging>(who)
        .is_some_and(|d| d.round == round)
}

/// Is it moving cautiously (which does not combine with disengaging)?
fn cautious(world: &World, who: Entity) -> bool {
    world.get::<Walking>(who).is_some_and(|w| w.cautious)
}
