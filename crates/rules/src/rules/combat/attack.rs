//! How an attack resolves (RULINGS › Armor class and attacks): d20 + attack bonus ≥ AC, with
//! every modifier named in the log: the situational penalties, blinded (−4 melee, no
//! missiles), bloodied (−2), range increments beyond the first (−2 each, at most ten
//! increments), the target's disorder (−2 AC) and flat-footedness (no Dexterity bonus), a
//! natural 20 (+10) and a natural 1 (a miss). Damage is the weapon's dice, less the target's
//! armor DR against its damage type (crossbows and firearms bypass it in their first
//! increment); a natural-20 threat is confirmed by a second throw and deals the tactical
//! critical. The damage lands through the one damage path (`rules::damage`: bloodied, dying,
//! massive trauma and damage).

use crate::creature::Below;
use crate::rules::acting::HandsUsed;
use crate::rules::movement::MovedThisRound;
use crate::rules::sound::NoisyAction;
use delve_ground::dice::{Dice, DiceExpr};
use delve_ground::level::schema::JudgeModifier;

use super::events::{AttackNote, CombatEvent, Damage};
use super::refusals::AttackRefusal;
use bevy::prelude::*;

use crate::rules::throws::{self, ThrowKind, Thrower};

use super::initiative::flat_footed_against;
use crate::creature::{Abilities, ArmorClass, Combatant, Conditions, Faction, HitPoints, Position};
use crate::rules::combat::battle::{AttackOrder, Battle};
use crate::rules::combat::gear::{
    ActiveEnchantments, Jammed, ShieldForgone, ShieldSacrifice, ShieldState, TOTAL_DEFENSE_AC,
    TotalDefense,
};
use crate::rules::conditions::is_down;
use crate::rules::penalties::{CheckKind, penalties_for};
use crate::rules::tactical::{self, TacticalCombat};
use delve_ground::dice::Modifier;
use delve_ground::grid::{DungeonGrid, GridPos};
use delve_ground::level::WeaponDef;
use delve_ground::level::schema::{ConditionKind, DamageType, ShieldWeight, WeaponKind};
use delve_ground::log::EventLog;
use delve_ground::time::Clock;

/// The squares strictly between two squares on a straight line (Bresenham).
fn between(a: GridPos, b: GridPos) -> Vec<GridPos> {
    let (dx, dy) = ((b.x - a.x).abs(), -(b.y - a.y).abs());
    let (sx, sy) = ((b.x - a.x).signum(), (b.y - a.y).signum());
    let (mut x, mut y, mut err) = (a.x, a.y, dx + dy);
    let mut out = Vec::new();
    while (x, y) != (b.x, b.y) {
        let e2 = 2 * err;
        if e2 >= dy {
            err += dy;
            x += sx;
        }
        if e2 <= dx {
            err += dx;
            y += sy;
        }
        if (x, y) != (b.x, b.y) {
            out.push(GridPos::new(x, y));
        }
    }
    out
}

/// Range increments at `feet` for a missile weapon of `increment` feet: 1 within the first.
fn range_increment(feet: u32, increment: u32) -> u32 {
    feet.div_ceil(increment.max(1)).max(1)
}

/// The most range increments a missile reaches (a ruling after the d20 convention).
pub const MAX_RANGE_INCREMENTS: u32 = 10;

/// Everything an attack needs to know about one side.
struct Side {
    name: String,
    at: GridPos,
    faction: usize,
    conditions: Conditions,
    combatant: Combatant,
    dex_modifier: i32,
}

fn side(world: &World, e: Entity) -> Option<Side> {
    Some(Side {
        name: crate::creature::name_of(world, e),
        at: world.get::<Position>(e)?.0,
        faction: world.get::<Faction>(e)?.0,
        conditions: world.get::<Conditions>(e).cloned().unwrap_or_default(),
        combatant: world.get::<Combatant>(e)?.clone(),
        dex_modifier: crate::rules::abilities::tactical_modifier(
            world.get::<Abilities>(e).map_or(10, |a| a.0.dex),
        ),
    })
}

/// Whether the attacker could attack the target with the weapon now, and at what range
/// increment (1 for melee).
pub fn can_attack(
    world: &World,
    who: Entity,
    target: Entity,
    weapon: usize,
) -> Result<u32, AttackRefusal> {
    let (Some(a_at), Some(a_cond), Some(c)) = (
        world.get::<Position>(who),
        world.get::<Conditions>(who),
        world.get::<Combatant>(who),
    ) else {
        return Err(AttackRefusal::CannotFight);
    };
    let (Some(t_at), Some(t_cond)) = (
        world.get::<Position>(target),
        world.get::<Conditions>(target),
    ) else {
        return Err(AttackRefusal::NotAFoe);
    };
    let (a_at, t_at) = (a_at.0, t_at.0);
    let target_e = target;
    let target = || crate::creature::name_of(world, target_e);
    if is_down(a_cond) {
        return Err(AttackRefusal::Down);
    }
    // RULINGS › Conditions …: a staggered creature may move or attack in a round, not both.
    if a_cond.has(ConditionKind::Staggered)
        && world.get::<MovedThisRound>(who).is_some_and(|m| m.feet > 0)
    {
        return Err(AttackRefusal::StaggeredMoved);
    }
    if is_down(t_cond) {
        return Err(AttackRefusal::TargetDown { target: target() });
    }
    let w = c.weapons.get(weapon).ok_or(AttackRefusal::NoSuchWeapon)?;
    let weapon = || w.name.clone();
    if world.get::<Jammed>(who).is_some() && matches!(w.kind, Some(WeaponKind::Firearm { .. })) {
        return Err(AttackRefusal::Jammed { weapon: weapon() });
    }
    let adjacent = a_at.is_adjacent(t_at);
    let depth = |e: Entity| world.get::<Below>(e).map(|b| b.depth_feet);
    match w.range_feet {
        // One down in a hole and one above are beyond each other's reach.
        None if adjacent && depth(who) != depth(target_e) => {
            Err(AttackRefusal::AtAnotherDepth { target: target() })
        }
        None if adjacent => Ok(1),
        None => Err(AttackRefusal::OutOfReach {
            target: target(),
            weapon: weapon(),
        }),
        Some(increment) => {
            if !crate::rules::vision::missile_attack_allowed(a_cond) {
                return Err(AttackRefusal::BlindedMissile);
            }
            let grid = world.resource::<DungeonGrid>();
            if !delve_ground::grid::los::line_of_sight(grid, a_at, t_at) {
                return Err(AttackRefusal::NoLineOfSight { target: target() });
            }
            let line = between(a_at, t_at);
            let in_the_way = world
                .try_query::<(&Position, &Conditions)>()
                .is_some_and(|mut q| {
                    q.iter(world)
                        .any(|(p, c)| !is_down(c) && line.contains(&p.0))
                });
            if in_the_way {
                return Err(AttackRefusal::InTheWay { target: target() });
            }
            let feet = grid.distance_feet(a_at, t_at);
            let n = range_increment(feet, increment);
            if n > MAX_RANGE_INCREMENTS {
                return Err(AttackRefusal::BeyondRange {
                    target: target(),
                    weapon: weapon(),
                });
            }
            Ok(n)
        }
    }
}

/// Tactical Combat › Shields: the creature wields its shield — not forgone for a free hand
/// (none of its benefits until its next initiative), not destroyed. Only such a shield stands in a
/// shield wall.
pub fn shield_in_hand(world: &World, who: Entity) -> bool {
    shield_forgone(world, who).is_none()
        && world.get::<ShieldState>(who).is_none_or(|s| !s.destroyed)
}

/// Why the creature's shield is forgone, if it is (Tactical Combat › Shields: "a character
/// wielding a shield may perform actions that require a free hand if they forgo all bonuses and
/// benefits of the shield"): forgone by its choice, or while its hands are busy with what needs
/// them — climbing, crawling a rope, holding up or carrying a companion, mapping (both hands).
pub fn shield_forgone(world: &World, who: Entity) -> Option<&'static str> {
    if world.get::<ShieldForgone>(who).is_some() {
        return Some("forgone");
    }
    crate::rules::acting::hands_busy(world, who)
}

/// The armor class an attack must beat, and the attacker-side modifiers that stand for the
/// target's condition (so the log shows each).
fn defence(
    world: &World,
    a: &Side,
    t: &Side,
    target: Entity,
    w: &WeaponDef,
    increment: u32,
) -> (i32, Vec<Modifier>) {
    let mut rules = *world.resource::<TacticalCombat>();
    // Tactical Combat › Shields: only one proficient with its shield has the module's shield
    // benefits (the firearm rule, the shield wall).
    rules.shields &= t.combatant.shield.as_ref().is_none_or(|s| s.proficient);
    let base = world.get::<ArmorClass>(target).map_or(10, |ac| ac.0);
    let shield = t.combatant.shield.as_ref().filter(|_| {
        world
            .get::<ShieldState>(target)
            .is_none_or(|s| !s.destroyed)
    });
    let mut mods = Vec::new();
    // Its stat block's AC counts the shield: one forgone, or destroyed, no longer does.
    let forgone = shield_forgone(world, target).filter(|_| rules.shields);
    let destroyed = t.combatant.shield.is_some() && shield.is_none();
    if let Some(s) = t.combatant.shield.as_ref()
        && (forgone.is_some() || destroyed)
    {
        let why = match forgone {
            _ if destroyed => "destroyed".to_owned(),
            Some("forgone") | None => "forgone".to_owned(),
            Some(busy) => format!("forgone, its hands busy {busy}"),
        };
        mods.push(Modifier::new(
            s.ac_bonus,
            format!("{} without its shield ({why})", t.name),
        ));
    }
    let forgone = forgone.is_some();
    let shield = shield.filter(|_| !forgone);
    let mut ac = base;
    // Shields › firearms within their first increment go against touch AC + shield: the
    // shield as the stat block gives it — one destroyed or forgone is taken off by the
    // modifier above, once (a stat block's touch AC never counts the shield; counting a
    // destroyed one out here as well took it off twice).
    if let Some(WeaponKind::Firearm { .. }) = w.kind
        && increment == 1
    {
        let armor = t
            .combatant
            .armor
            .as_ref()
            .map_or(0, |a| a.ac_bonus + a.enhancement);
        let written = t.combatant.shield.as_ref().map_or(0, |s| s.ac_bonus);
        let touch = t.combatant.touch_ac.unwrap_or(base - armor - written);
        ac = touch + if rules.shields { written } else { 0 };
    }
    if t.conditions.has(ConditionKind::Disordered) {
        mods.push(Modifier::new(2, format!("{} disordered (-2 AC)", t.name)));
    }
    // RULINGS › Surprise: a surprised faction is flat-footed to every attack in the battle's
    // first round.
    let surprised = world
        .resource::<Battle>()
        .surprised_in(t.faction, world.resource::<Clock>().rounds);
    if surprised && t.dex_modifier > 0 {
        mods.push(Modifier::new(
            t.dex_modifier,
            format!("{} surprised, flat-footed (no Dex bonus)", t.name),
        ));
    } else if rules.faction_initiative {
        let battle = world.resource::<Battle>();
        if let (Some(mine), Some(theirs)) =
            (battle.result_of(a.faction), battle.result_of(t.faction))
            && flat_footed_against(theirs, mine, battle.acted.contains(&t.faction))
            && t.dex_modifier > 0
        {
            mods.push(Modifier::new(
                t.dex_modifier,
                format!("{} flat-footed (no Dex bonus)", t.name),
            ));
        }
    }
    // Total defense lasts until the start of the defender's faction's next initiative.
    let defending = |e: Entity| world.get::<TotalDefense>(e).is_some();
    if defending(target) {
        mods.push(Modifier::new(
            -TOTAL_DEFENSE_AC,
            format!("{} in total defense", t.name),
        ));
    }
    // Shield walls: +1 per adjacent ally with a heavy shield, for a heavy-shield bearer;
    // doubled when the whole wall takes total defense.
    if rules.shields
        && shield.is_some_and(|s| s.weight == ShieldWeight::Heavy)
        && let Some(mut q) =
            world.try_query::<(Entity, &Position, &Faction, &Combatant, &Conditions)>()
    {
        let wall: Vec<Entity> = q
            .iter(world)
            .filter(|(e, p, f, c, cond)| {
                *e != target
                    && f.0 == t.faction
                    && !is_down(cond)
                    && p.0.is_adjacent(t.at)
                    && c.shield
                        .as_ref()
                        .is_some_and(|s| s.weight == ShieldWeight::Heavy && s.proficient)
                    && shield_in_hand(world, *e)
            })
            .map(|(e, ..)| e)
            .collect();
        let all_defend = defending(target) && wall.iter().all(|&e| defending(e));
        let bonus = tactical::shield_wall_bonus(wall.len() as u32, all_defend);
        if bonus > 0 {
            mods.push(Modifier::new(
                -bonus,
                format!(
                    "{} in a shield wall{}",
                    t.name,
                    if all_defend { " (total defense)" } else { "" }
                ),
            ));
        }
    }
    (ac, mods)
}

/// The AC an attack must reach and the attacker's modifiers, each with its source: attack
/// bonus, the situational penalties, how it sees the target's square (lightless vision sees
/// darkness as dim; an unseen square is dark; blindness and poor vision do not stack),
/// bloodied, range, and the target's condition. The natural 20 comes with the roll.
fn attack_modifiers(
    world: &World,
    (who, a): (Entity, &Side),
    (target, t): (Entity, &Side),
    w: &WeaponDef,
    increment: u32,
) -> Result<(i32, Vec<Modifier>), AttackRefusal> {
    let melee = w.range_feet.is_none();
    let mut mods = vec![Modifier::new(a.combatant.attack_bonus, "attack bonus")];
    let kind = if melee {
        CheckKind::Action
    } else {
        CheckKind::RangedAttack
    };
    mods.extend(penalties_for(world, who, kind).map_err(AttackRefusal::Moved)?);
    let blinded = melee && a.conditions.has(ConditionKind::Blinded);
    mods.extend(crate::rules::penalties::sight_penalties(
        world, who, t.at, blinded,
    ));
    if increment > 1 {
        mods.push(Modifier::new(
            -2 * (increment as i32 - 1),
            format!("range increment {increment}"),
        ));
    }
    // RULINGS › Conditions …: attack throws against a vulnerable creature gain +2 (a Judge
    // modifier).
    if t.conditions.has(ConditionKind::Vulnerable)
        && let Some(m) = crate::rules::calls::judge_modifier(
            world,
            JudgeModifier::Vulnerable,
            Some(t.at),
            &[target],
        )
    {
        mods.push(Modifier::new(m.value, format!("{} vulnerable", t.name)));
    }
    let (ac, ac_mods) = defence(world, a, t, target, w, increment);
    mods.extend(ac_mods);
    Ok((ac, mods))
}

/// One attack, logged with every modifier: hit or miss, damage, and what follows.
pub fn attack(
    world: &mut World,
    who: Entity,
    target: Entity,
    weapon: usize,
) -> Result<(), AttackRefusal> {
    strike(world, who, target, weapon, None)
}

/// An attack; `opportunity` makes it an attack of opportunity with these extra modifiers,
/// against a creature that was next to the attacker when it provoked.
pub fn strike(
    world: &mut World,
    who: Entity,
    target: Entity,
    weapon: usize,
    opportunity: Option<Vec<Modifier>>,
) -> Result<(), AttackRefusal> {
    let increment = match &opportunity {
        None => can_attack(world, who, target, weapon)?,
        Some(_) => {
            let down = |e: Entity| world.get::<Conditions>(e).is_none_or(is_down);
            if down(who) || down(target) {
                return Err(AttackRefusal::Down);
            }
            1
        }
    };
    let rules = *world.resource::<TacticalCombat>();
    let a = side(world, who).ok_or(AttackRefusal::CannotFight)?;
    let t = side(world, target).ok_or(AttackRefusal::NotAFoe)?;
    let w = a
        .combatant
        .weapons
        .get(weapon)
        .ok_or(AttackRefusal::NoSuchWeapon)?
        .clone();
    let opportunist = opportunity.is_some();
    let (ac, mut mods) = attack_modifiers(world, (who, &a), (target, &t), &w, increment)?;
    mods.splice(
        1..1,
        opportunity.into_iter().flatten().filter(|m| m.value != 0),
    );
    let what = if opportunist {
        format!(
            "{} attacks {} with {} (attack of opportunity)",
            a.name, t.name, w.name
        )
    } else {
        format!("{} attacks {} with {}", a.name, t.name, w.name)
    };
    let thrower = Thrower::new(&a.name, &a.conditions, Some(&rules));
    let kind = ThrowKind::Attack {
        ranged: w.range_feet.is_some(),
    };
    let mut throw = world.resource_scope(|_, mut dice: Mut<Dice>| {
        throws::throw(&mut dice, &thrower, kind, what, mods.clone(), ac)
    });
    let natural = throw.natural;
    let mut note = (natural == 1).then_some(AttackNote::NaturalOne);
    if rules.firearm_misfires
        && let Some(WeaponKind::Firearm { misfire, advanced }) = w.kind
        && natural <= misfire
    {
        throw.success = false;
        if advanced {
            world.entity_mut(who).insert(Jammed);
        }
        note = Some(AttackNote::Misfire {
            weapon: w.name.clone(),
            jammed: advanced,
        });
    }
    let round = world.resource::<Clock>().rounds;
    world.entity_mut(who).insert(HandsUsed { round });
    // Fighting is loud (RULINGS › Noise and hearing).
    let _ = crate::rules::sound::hearing::creature_noise(world, who, NoisyAction::Fighting);
    if !throw.success {
        world.resource_mut::<EventLog>().push(
            round,
            CombatEvent::Attacked {
                who: a.name,
                target: t.name,
                throw,
                confirmation: None,
                note,
                damage: None,
            },
        );
        return Ok(());
    }
    // A threat is confirmed by a second throw that would hit.
    let mut critical = false;
    let mut confirmation = None;
    if rules.critical_hits && natural >= w.critical.threat {
        let confirmed = world.resource_scope(|_, mut dice: Mut<Dice>| {
            throws::throw(
                &mut dice,
                &thrower,
                kind,
                "confirming the critical",
                mods,
                ac,
            )
        });
        let confirm = confirmed.natural;
        critical = confirmed.success && confirm != 1;
        confirmation = Some(confirmed);
        // Shields › a shield may be sacrificed to turn a critical into a normal hit, as an
        // immediate action (once a round), by the bearer's standing choice (`ShieldSacrifice`:
        // by default, when the critical could put it down).
        // A forgone shield gives none of its benefits until its next initiative: it cannot be
        // sacrificed.
        if critical
            && rules.shields
            && t.combatant.shield.as_ref().is_some_and(|s| s.proficient)
            && shield_forgone(world, target).is_none()
        {
            let hp = world.get::<HitPoints>(target).map_or(0, |h| h.current);
            let most =
                (w.damage.count * w.damage.sides * w.critical.multiplier) as i32 + w.damage.bonus;
            let state = world
                .get::<ShieldState>(target)
                .copied()
                .unwrap_or_default();
            let choice = world
                .get::<ShieldSacrifice>(target)
                .copied()
                .unwrap_or_default();
            if choice.gives_it_up(most, hp)
                && !state.destroyed
                && state.sacrificed_in != Some(round)
            {
                let now = ShieldState {
                    broken: true,
                    destroyed: state.broken,
                    sacrificed_in: Some(round),
                };
                world.entity_mut(target).insert(now);
                critical = false;
                note = Some(AttackNote::ShieldSacrificed {
                    who: t.name.clone(),
                    destroyed: now.destroyed,
                });
            }
        }
    }
    let active = world
        .get::<ActiveEnchantments>(who)
        .is_some_and(|a| a.0.contains(&weapon));
    let damage = roll_damage(world, &w, critical, &t, increment, rules, active);
    world.resource_mut::<EventLog>().push(
        round,
        CombatEvent::Attacked {
            who: a.name.clone(),
            target: t.name.clone(),
            throw,
            confirmation,
            note,
            damage: Some(Box::new(damage.clone())),
        },
    );
    crate::rules::damage::take_damage(world, target, damage.total);
    if world.get::<Conditions>(target).is_some_and(is_down) {
        world.entity_mut(target).remove::<AttackOrder>();
    }
    Ok(())
}

/// Tactical Combat › Armor as Damage Reduction: "at their first range increment, crossbows and
/// firearms bypass all DR granted by armor".
fn bypasses_armor(w: &WeaponDef, increment: u32) -> bool {
    increment == 1
        && matches!(
            w.kind,
            Some(WeaponKind::Crossbow | WeaponKind::Firearm { .. })
        )
}

fn roll_damage(
    world: &mut World,
    w: &WeaponDef,
    critical: bool,
    t: &Side,
    increment: u32,
    rules: TacticalCombat,
    active: bool,
) -> Damage {
    let (dice, raw) = if critical {
        let n = tactical::critical_extra_dice(&w.damage, w.critical.multiplier);
        let extra: Vec<u32> = {
            let mut d = world.resource_mut::<Dice>();
            (0..n).map(|_| d.roll(w.damage.sides)).collect()
        };
        let total = tactical::weapon_critical(&w.damage, &extra);
        (extra, total)
    } else {
        let r = world.resource_mut::<Dice>().roll_expr(&w.damage);
        (r.dice, r.total)
    };
    let bypass = bypasses_armor(w, increment);
    let reduced_by = if rules.armor_as_damage_reduction && !bypass {
        let worn = t.combatant.worn();
        tactical::worn_dr(&worn, w.damage_type).min(raw.max(0))
    } else {
        0
    };
    // Tactical Combat › Armor as Damage Reduction: armor worn without proficiency reduces
    // nothing; the breakdown says so.
    let unproficient_armor = t
        .combatant
        .worn()
        .into_iter()
        .find(|a| rules.armor_as_damage_reduction && !bypass && !a.proficient)
        .map(|a| a.name.clone());
    let mut total = (raw - reduced_by).max(0);
    let enchantment = match &w.enchantment {
        Some((name, extra)) if active => {
            let r = world.resource_mut::<Dice>().roll_expr(extra);
            total += r.total.max(0);
            Some((name.clone(), r.dice))
        }
        _ => None,
    };
    Damage {
        dice,
        bonus: w.damage.bonus,
        critical,
        reduced_by,
        unproficient_armor,
        enchantment,
        total,
    }
}

/// The chance that an attack hits now, for the window's targeting: (chance, net target on the
/// d20), from the same modifiers the attack would use, counted as the throw resolves.
pub fn chance_to_hit(
    world: &World,
    who: Entity,
    target: Entity,
    weapon: usize,
) -> Option<(f32, i32)> {
    let increment = can_attack(world, who, target, weapon).ok()?;
    let a = side(world, who)?;
    let t = side(world, target)?;
    let w = a.combatant.weapons.get(weapon)?.clone();
    let (ac, mods) = attack_modifiers(world, (who, &a), (target, &t), &w, increment).ok()?;
    // Counted face by face as the attack throw resolves (bloodied, natural 20 and 1).
    let rules = world.resource::<TacticalCombat>();
    let thrower = Thrower::new(&a.name, &a.conditions, Some(rules));
    let kind = ThrowKind::Attack {
        ranged: w.range_feet.is_some(),
    };
    let (need, chance) = throws::chance(&thrower, kind, &mods, ac);
    Some((chance, need))
}

/// What an attack would be now, before it is thrown (`delve query attack`): the throw's every
/// modifier against the armor class and the chance, and the damage — its dice, the target's
/// armor DR against its type (and against each type), and an active enchantment's dice.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Forecast {
    pub weapon: String,
    /// The armor class the throw must reach (ascending).
    pub ac: i32,
    pub modifiers: Vec<Modifier>,
    /// The d20 face needed after the modifiers, and the chance to hit (bloodied, the natural
    /// 20's +10 and the natural 1 counted).
    pub need: i32,
    pub chance: f32,
    pub damage: DiceExpr,
    pub damage_type: DamageType,
    /// The critical threat (a natural this high or higher) and multiplier.
    pub threat: u32,
    pub multiplier: u32,
    /// The target's armor DR against this weapon's damage (none within a crossbow's or
    /// firearm's first increment, or with the rule off).
    pub dr: i32,
    /// Why the armor's DR does not count, if it does not.
    pub dr_note: Option<String>,
    /// The target's armor DR against each damage type.
    pub dr_by_type: Vec<(DamageType, i32)>,
    /// An active enchantment: its name and extra dice on a hit, past armor.
    pub enchantment: Option<(String, DiceExpr)>,
}

/// The attack `who` would make on `target` with its weapon of this index now, or why it cannot.
pub fn forecast(
    world: &World,
    who: Entity,
    target: Entity,
    weapon: usize,
) -> Result<Forecast, AttackRefusal> {
    let increment = can_attack(world, who, target, weapon)?;
    let (a, t) = match (side(world, who), side(world, target)) {
        (Some(a), Some(t)) => (a, t),
        _ => return Err(AttackRefusal::CannotFight),
    };
    let w = a
        .combatant
        .weapons
        .get(weapon)
        .cloned()
        .ok_or(AttackRefusal::NoSuchWeapon)?;
    let (ac, modifiers) = attack_modifiers(world, (who, &a), (target, &t), &w, increment)?;
    let rules = *world.resource::<TacticalCombat>();
    let thrower = Thrower::new(&a.name, &a.conditions, Some(&rules));
    let kind = ThrowKind::Attack {
        ranged: w.range_feet.is_some(),
    };
    let (need, chance) = throws::chance(&thrower, kind, &modifiers, ac);
    let worn = t.combatant.worn();
    let bypass = bypasses_armor(&w, increment);
    let dr_note = if !rules.armor_as_damage_reduction {
        Some("the armor-as-DR rule is off".to_owned())
    } else if bypass {
        Some("a crossbow or firearm in its first increment bypasses armor's DR".to_owned())
    } else {
        t.combatant
            .worn()
            .into_iter()
            .find(|a| !a.proficient)
            .map(|a| format!("{} is not proficient with its {}", t.name, a.name))
    };
    let dr_of = |ty: DamageType| {
        if rules.armor_as_damage_reduction {
            tactical::worn_dr(&worn, ty)
        } else {
            0
        }
    };
    let dr_by_type = [
        DamageType::Slashing,
        DamageType::Piercing,
        DamageType::Bludgeoning,
    ]
    .into_iter()
    .map(|ty| (ty, dr_of(ty)))
    .collect();
    let active = world
        .get::<ActiveEnchantments>(who)
        .is_some_and(|e| e.0.contains(&weapon));
    Ok(Forecast {
        weapon: w.name.clone(),
        ac,
        modifiers,
        need,
        chance,
        damage: w.damage,
        damage_type: w.damage_type,
        threat: w.critical.threat,
        multiplier: w.critical.multiplier,
        dr: if bypass { 0 } else { dr_of(w.damage_type) },
        dr_note,
        dr_by_type,
        enchantment: w.enchantment.clone().filter(|_| active),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn range_increments() {
        assert_eq!(range_increment(30, 50), 1);
        assert_eq!(range_increment(50, 50), 1);
        assert_eq!(range_increment(55, 50), 2);
        assert_eq!(range_increment(0, 50), 1);
    }

    #[test]
    fn the_line_between_two_squares() {
        assert_eq!(
            between(GridPos::new(0, 0), GridPos::new(3, 0)),
            vec![GridPos::new(1, 0), GridPos::new(2, 0)]
        );
        assert!(between(GridPos::new(0, 0), GridPos::new(1, 1)).is_empty());
    }
}
