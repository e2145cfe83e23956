//! The battle in the window: the initiative panel (factions in acting order, whose initiative it
//! is, each creature's hit points and conditions), attack targeting (the chance to hit the creature
//! under the pointer, shown before committing; F gives the order), and who fights by itself.
//!
//! In the window the player commands the party: its members are `Controlled` and wait for
//! orders, unless B lets them fight by themselves with the behaviour the monsters use.

use delve_ground::grid::GridPos;
use delve_minds::policy::party::PartyMinds;
use delve_rules::rules::combat::attack::Forecast;
use delve_rules::rules::vision::Sight;

use bevy::prelude::*;
use delve_rules::command::acts::{Attack, WaitForOrders};
use leafwing_input_manager::prelude::*;

use super::controls::DelveAction;
use super::pointer::Pointer;
use super::state::{Selected, Tell};
use delve_rules::act::PendingCommands;
use delve_rules::command::Command;
use delve_rules::creature::{
    Combatant, Conditions, Creature, Faction, Factions, HitPoints, Position,
};
use delve_rules::rules::combat::attack::chance_to_hit;
use delve_rules::rules::combat::battle::{AttackOrder, Battle, Controlled};
use delve_rules::rules::conditions::is_down;
use delve_rules::rules::party::Parties;

/// The party fights by itself (B); otherwise its members wait for the player's orders.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PartyFightsAlone(pub bool);

/// The selected creature's attack on the creature under the pointer, as offered.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct AttackOffer {
    /// The command F gives, if an attack is possible.
    pub command: Option<Command>,
    /// What the panel says: the chance with each weapon, or why not.
    pub text: String,
    /// The square of the creature attacked, and the throw with the weapon F attacks with,
    /// modifier by modifier (the tooltip beside the pointer shows it: `gui::under_pointer`).
    pub breakdown: Option<(GridPos, Vec<String>)>,
}

/// The attack throw `forecast` works out, in lines: the chance and the face needed against the
/// armor class, each modifier with its source, and the damage.
pub fn breakdown(f: &Forecast) -> Vec<String> {
    let mut lines = vec![format!(
        "{}: {:.0}% to hit - d20 {}+ against AC {}",
        f.weapon,
        f.chance * 100.0,
        f.need,
        f.ac
    )];
    for m in &f.modifiers {
        lines.push(format!("  {:+} {}", m.value, m.source));
    }
    let mut damage = format!(
        "damage {} {:?}, critical on {}+ x{}",
        f.damage, f.damage_type, f.threat, f.multiplier
    );
    if f.dr > 0 {
        damage.push_str(&format!(", less armor DR {}", f.dr));
    }
    if let Some(note) = &f.dr_note {
        damage.push_str(&format!(" ({note})"));
    }
    if let Some((name, dice)) = &f.enchantment {
        damage.push_str(&format!(", {name} +{dice}"));
    }
    lines.push(damage);
    lines
}

/// What the initiative panel says (shown by `gui::panels`): empty outside a battle with no attack
/// offered.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct BattleText(pub String);

/// The window's wish for each party (its members wait for orders unless the party fights by
/// itself, or delves by itself under its policy: A) becomes a `WaitForOrders` command whenever
/// the simulation differs from it: the window changes the simulation only through commands, so
/// a replay of its journal does the same. Run every frame, and before each round played
/// (`input::play_rounds`), so that the wish holds from round to round within a turn (handing a
/// party to its policy lets go of its wait in the core; taken back, it waits from the round
/// after).
pub fn give_the_control_wished(world: &mut World) {
    let Some(alone) = world.get_resource::<PartyFightsAlone>().map(|a| a.0) else {
        return;
    };
    let parties = world.resource::<Parties>().0.clone();
    for party in &parties {
        let Some(&leader) = party.marching_order.first() else {
            continue;
        };
        let waits = world.get::<Controlled>(leader).is_some();
        let by_itself = alone || under_its_policy(world, &party.name);
        let pending = world.resource::<PendingCommands>();
        if waits == by_itself && !pending.waiting_for(&party.name) {
            world
                .resource_mut::<PendingCommands>()
                .push(Command::WaitForOrders(WaitForOrders {
                    party: party.name.clone(),
                    on: !by_itself,
                }));
        }
    }
}

/// Is the party handed to its policy? It fights by itself then: the policy leaves the blows to
/// its members' battle minds.
pub fn under_its_policy(world: &World, party: &str) -> bool {
    world
        .get_resource::<PartyMinds>()
        .is_some_and(|m| m.0.iter().any(|m| m.party == party))
}

/// Works out the attack on the creature under the pointer: each weapon's chance to hit.
type PointerState =
    bevy::ecs::system::SystemState<(Pointer<'static, 'static>, Res<'static, Selected>)>;

fn offer_attack(world: &mut World, mut state: Local<Option<PointerState>>) {
    let state = state.get_or_insert_with(|| PointerState::new(world));
    let Ok((pointer, selected)) = state.get(world) else {
        return;
    };
    let (square, who) = (pointer.square(), selected.0);
    let mut offer = AttackOffer::default();
    if let (Some(p), Some(who)) = (square, who) {
        let mut q = world.query_filtered::<(Entity, &Position, &Faction), With<Creature>>();
        let target = q.iter(world).find(|(e, pos, _)| pos.0 == p && *e != who);
        let mine = world.get::<Faction>(who).copied();
        if let (Some((target, _, tf)), Some(mine)) = (target, mine)
            && world.resource::<Factions>().hostile(mine, *tf)
        {
            let name = delve_rules::creature::name_of(world, target);
            let weapons = world
                .get::<Combatant>(who)
                .map(|c| c.weapons.clone())
                .unwrap_or_default();
            let mut best: Option<(f32, String)> = None;
            let mut lines = Vec::new();
            for (i, w) in weapons.iter().enumerate() {
                match chance_to_hit(world, who, target, i) {
                    Some((chance, need)) => {
                        lines.push(format!("{}: {need}+, {:.0}%", w.name, chance * 100.0));
                        if best.as_ref().is_none_or(|b| chance > b.0) {
                            best = Some((chance, w.name.clone()));
                        }
                    }
                    None => {
                        let why =
                            delve_rules::rules::combat::attack::can_attack(world, who, target, i)
                                .err()
                                .map(|why| why.to_string())
                                .unwrap_or_default();
                        lines.push(format!("{}: {why}", w.name));
                    }
                }
            }
            offer.text = format!("attack {name}? {}", lines.join("; "));
            if let Some((_, weapon)) = best {
                offer
                    .text
                    .push_str(&format!(" - F attacks with the {weapon}"));
                let index = weapons.iter().position(|w| w.name == weapon);
                offer.breakdown = index
                    .and_then(|i| {
                        delve_rules::rules::combat::attack::forecast(world, who, target, i).ok()
                    })
                    .map(|f| (p, breakdown(&f)));
                offer.command = Some(Command::Attack(Attack {
                    who: delve_rules::creature::name_of(world, who),
                    target: name,
                    weapon: Some(weapon),
                }));
            }
        }
    }
    if *world.resource::<AttackOffer>() != offer {
        world.insert_resource(offer);
    }
}

/// F: the offered attack.
fn attack_key(
    actions: Single<&ActionState<DelveAction>>,
    offer: Res<AttackOffer>,
    mut pending: ResMut<PendingCommands>,
    mut alone: ResMut<PartyFightsAlone>,
    mut tell: MessageWriter<Tell>,
) {
    if actions.just_pressed(&DelveAction::Attack) {
        match &offer.command {
            Some(c) => {
                tell.write(Tell(format!(
                    "{}: {c} - press Space to play rounds",
                    c.who()
                )));
                pending.push(c.clone());
            }
            None => {
                tell.write(Tell(
                    "point at an enemy the selected creature can attack".into(),
                ));
            }
        }
    }
    if actions.just_pressed(&DelveAction::PartyFightsAlone) {
        alone.0 = !alone.0;
        tell.write(Tell(if alone.0 {
            "the party fights by itself".into()
        } else {
            "the party waits for your orders".into()
        }));
    }
}

/// A creature as the battle panel lists it.
type Fighting<'a> = (
    Entity,
    &'a Name,
    &'a Faction,
    &'a HitPoints,
    &'a Conditions,
    Option<&'a AttackOrder>,
);

/// The initiative panel: the factions in acting order with each member's hit points and
/// conditions, the one acting marked; and the attack offered under the pointer. In a player's
/// view another faction's members are listed only while its faction sees them.
#[allow(clippy::too_many_arguments)]
fn battle_panel(
    battle: Option<Res<Battle>>,
    offer: Res<AttackOffer>,
    alone: Res<PartyFightsAlone>,
    minds: Option<Res<PartyMinds>>,
    view: Option<Res<super::state::ViewMode>>,
    creatures: Query<Fighting>,
    names: Query<&Name>,
    (mut text, selected): (ResMut<BattleText>, Option<Res<super::state::Selected>>),
    eyes: Query<(&Faction, &Sight, &delve_rules::creature::Position)>,
) {
    // The attack offered first: a long initiative list does not push it out of sight.
    let mut s = offer.text.clone();
    // Whose hit points the view knows: the party's (faction 0), or in one creature's view its
    // faction's.
    let known = match view.as_deref() {
        Some(super::state::ViewMode::Creature) => selected
            .and_then(|s| s.0)
            .and_then(|e| creatures.get(e).ok())
            .map_or(0, |(_, _, f, ..)| f.0),
        _ => 0,
    };
    if let Some(battle) = battle.filter(|b| b.active) {
        if !s.is_empty() {
            s.push('\n');
        }
        s.push_str(&format!(
            "Battle since round {} - initiative order{}:",
            battle.began,
            if minds.as_ref().is_some_and(|m| !m.0.is_empty()) {
                " (the party is under its policy, and fights by itself: A takes it back)"
            } else if alone.0 {
                " (the party fights by itself: B)"
            } else {
                " (the party waits for orders: B)"
            }
        ));
        let party_view = view.as_deref().is_some_and(|v| !v.judges());
        for (i, f) in battle.order.iter().enumerate() {
            let first =
                if battle.surprised.contains(&f.faction) && !battle.acted.contains(&f.faction) {
                    " (surprised: no initiative in the first round)"
                } else if battle.acted.contains(&f.faction) {
                    ""
                } else {
                    " (not yet acted)"
                };
            // Another faction is "the foe" to a player's view, its throw unknown (RULINGS ›
            // Knowledge: the acting order is all it learns of it).
            if party_view && f.faction != known {
                s.push_str(&format!("\n{}. the foe{first}", i + 1));
            } else {
                s.push_str(&format!("\n{}. {} {}{first}", i + 1, f.name, f.result));
            }
            // In a player's view another faction's members are named only where the view's
            // faction sees them now (RULINGS › Knowledge).
            let seen = |e: Entity| {
                eyes.get(e).is_ok_and(|(_, _, at)| {
                    eyes.iter()
                        .any(|(fa, sight, _)| fa.0 == known && sight.sees(at.0))
                })
            };
            let mut members: Vec<String> = creatures
                .iter()
                .filter(|(e, _, fa, ..)| {
                    fa.0 == f.faction && (!party_view || f.faction == known || seen(*e))
                })
                .map(|(_, n, _, hp, c, order)| {
                    let conds: Vec<String> = c.0.iter().map(|c| format!("{:?}", c.kind)).collect();
                    let hp = if party_view && f.faction != known {
                        if is_down(c) {
                            "down".to_owned()
                        } else {
                            "?".to_owned()
                        }
                    } else {
                        format!("{}/{}", hp.current, hp.max)
                    };
                    let target = order
                        .and_then(|o| names.get(o.target).ok())
                        .map(|t| format!(" -> {t}"))
                        .unwrap_or_default();
                    format!(
                        "   {n} HP {hp}{}{target}",
                        if conds.is_empty() {
                            String::new()
                        } else {
                            format!(" [{}]", conds.join(", "))
                        }
                    )
                })
                .collect();
            members.sort();
            for m in members {
                s.push('\n');
                s.push_str(&m);
            }
        }
    }
    if text.0 != s {
        text.0 = s;
    }
}

pub struct BattleViewPlugin;

impl Plugin for BattleViewPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<PartyFightsAlone>()
            .init_resource::<AttackOffer>()
            .init_resource::<BattleText>()
            .add_systems(
                Update,
                (
                    (give_the_control_wished, offer_attack, attack_key)
                        .chain()
                        .run_if(resource_exists::<Battle>),
                    battle_panel,
                )
                    .chain()
                    .after(super::state::RedrawSet)
                    .before(super::state::PlayRounds),
            );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use delve_ground::level::load_default_level;

    /// The crypt with the party come down the corridor from the evil door to the ghouls'
    /// flooded burial room, moved `east` squares east (-7: seven west, not yet in their sight).
    fn the_party_down_the_corridor(east: i32) -> delve_ground::level::Level {
        let mut level = load_default_level().unwrap().level;
        for (name, (x, y)) in [
            ("Brannoc", (33, 10)),
            ("Mirela", (33, 9)),
            ("Sera", (33, 8)),
            ("Aldric", (34, 11)),
        ] {
            let c = level.creatures.iter_mut().find(|c| c.name == name).unwrap();
            c.at = delve_ground::grid::GridPos::new(x + east, y);
        }
        level
    }

    /// The party comes down to the ghouls; once the battle begins, the panel lists the factions
    /// in order with their members' hit points, and the party waits for orders.
    #[test]
    fn the_initiative_panel_lists_the_factions_in_order() {
        let level = the_party_down_the_corridor(0);
        let mut app = delve_play::sim::sim_app(&level, 7);
        app.add_plugins(BattleViewPlugin);
        app.update();
        delve_play::sim::run_round(app.world_mut());
        app.update();
        let w = app.world_mut();
        let text = w.resource::<BattleText>().0.clone();
        assert!(
            text.contains("initiative order (the party waits for orders: B)"),
            "{text}"
        );
        let party = text.find("party").unwrap();
        let ghouls = text.find("ghouls").unwrap();
        let first = w.resource::<Battle>().order[0].name.clone();
        assert_eq!(party < ghouls, first == "party", "{text}");
        assert!(text.contains("Brannoc HP 18/18"), "{text}");
        // The party's members wait for orders in the window.
        let brannoc = w.resource::<delve_rules::creature::CreatureIndex>().0["Brannoc"];
        assert!(w.get::<Controlled>(brannoc).is_some());
    }

    /// The to-hit breakdown the tooltip shows: the chance, the face needed against the armor
    /// class, every modifier of the throw the attack would make, then its damage.
    #[test]
    fn the_to_hit_breakdown_lists_every_modifier() {
        let mut level = the_party_down_the_corridor(0);
        // Gnawbone beside Brannoc.
        let g = level
            .creatures
            .iter_mut()
            .find(|c| c.name == "Gnawbone")
            .unwrap();
        g.at = delve_ground::grid::GridPos::new(34, 10);
        let mut app = delve_play::sim::sim_app(&level, 7);
        app.update();
        delve_play::sim::run_round(app.world_mut());
        let w = app.world();
        let index = &w.resource::<delve_rules::creature::CreatureIndex>().0;
        let (brannoc, gnawbone) = (index["Brannoc"], index["Gnawbone"]);
        let f = delve_rules::rules::combat::attack::forecast(w, brannoc, gnawbone, 0)
            .expect("Brannoc can attack Gnawbone");
        let lines = breakdown(&f);
        assert_eq!(
            lines[0],
            format!(
                "{}: {:.0}% to hit - d20 {}+ against AC {}",
                f.weapon,
                f.chance * 100.0,
                f.need,
                f.ac
            )
        );
        assert_eq!(lines.len(), f.modifiers.len() + 2);
        for (line, m) in lines[1..].iter().zip(&f.modifiers) {
            assert!(line.contains(&m.source) && line.contains(&format!("{:+}", m.value)));
        }
        assert!(lines.last().unwrap().starts_with("damage "), "{lines:?}");
    }

    /// In the party's view the panel names another faction's members only while the party
    /// sees them, and the faction itself not at all (RULINGS › Knowledge); the Judge's view
    /// names them all. Hollowjaw, put far off
    /// in the dark by the Judge's hand, is in the Judge's panel and not in the party's;
    /// Gnawbone, in sight, is in both.
    #[test]
    fn the_party_view_names_only_the_foes_it_sees() {
        let level = the_party_down_the_corridor(0);
        let mut app = delve_play::sim::sim_app(&level, 7);
        app.add_plugins(BattleViewPlugin);
        app.update();
        delve_play::sim::run_round(app.world_mut());
        let hollowjaw = app
            .world()
            .resource::<delve_rules::creature::CreatureIndex>()
            .0["Hollowjaw"];
        app.world_mut()
            .entity_mut(hollowjaw)
            .insert(delve_rules::creature::Position(
                delve_ground::grid::GridPos::new(38, 2),
            ));
        app.insert_resource(super::super::state::ViewMode::Judge);
        app.update();
        let judge = app.world().resource::<BattleText>().0.clone();
        app.insert_resource(super::super::state::ViewMode::Party);
        app.update();
        let party = app.world().resource::<BattleText>().0.clone();
        assert!(
            judge.contains("Hollowjaw HP") && judge.contains("Gnawbone HP"),
            "{judge}"
        );
        assert!(!party.contains("Hollowjaw"), "{party}");
        assert!(party.contains("Gnawbone HP"), "{party}");
        // Another faction is "the foe": its name and its initiative are the Judge's.
        assert!(judge.contains("ghouls"), "{judge}");
        assert!(!party.contains("ghouls"), "{party}");
        assert!(party.contains(". the foe"), "{party}");
    }

    /// T plays a turn, but stops at the round a battle begins while the party waits for orders,
    /// and says so; with the party fighting by itself (B), the turn is played whole.
    #[test]
    fn a_turn_stops_when_a_battle_begins_and_the_party_waits_for_orders() {
        let level = the_party_down_the_corridor(-7);
        let turn = |alone: bool| {
            let mut app = super::super::input::tests::app_with(level.clone(), 7);
            app.add_plugins(BattleViewPlugin);
            app.insert_resource(PartyFightsAlone(alone));
            app.update();
            super::super::input::tests::press(&mut app, KeyCode::KeyT);
            let w = app.world();
            let began = w
                .resource::<Battle>()
                .active
                .then(|| w.resource::<Battle>().began);
            (
                w.resource::<delve_ground::time::Clock>().rounds,
                began,
                w.resource::<crate::gui::state::Notice>().0.clone(),
            )
        };
        let (rounds, began, notice) = turn(false);
        let began = began.expect("the ghouls come");
        assert!(rounds < 10, "stopped after {rounds} rounds");
        assert_eq!(rounds, began + 1, "at the round the battle began");
        assert!(notice.contains("battle began"), "{notice}");
        let (rounds, ..) = turn(true);
        assert_eq!(rounds, 10, "the party fights by itself: the whole turn");
        // In the battle already, the next turn is played whole, and the notice of the battle's
        // beginning is gone.
        let mut app = super::super::input::tests::app_with(level.clone(), 7);
        app.add_plugins(BattleViewPlugin);
        app.update();
        super::super::input::tests::press(&mut app, KeyCode::KeyT);
        let stopped = app.world().resource::<delve_ground::time::Clock>().rounds;
        super::super::input::tests::press(&mut app, KeyCode::KeyT);
        let w = app.world();
        assert_eq!(
            w.resource::<delve_ground::time::Clock>().rounds,
            stopped + 10
        );
        assert!(
            !w.resource::<crate::gui::state::Notice>()
                .0
                .contains("battle began")
        );
    }

    /// A then T at the cave's start, rats at hand: the turn is played whole, the party let go
    /// from the round after A's, and it fights them in that turn.
    #[test]
    fn a_then_t_the_party_fights_from_the_next_round() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../levels/cave.ron");
        let level = delve_ground::level::load_level_file(std::path::Path::new(path))
            .unwrap()
            .level;
        let mut app = super::super::input::tests::app_with(level, 1);
        app.add_plugins(BattleViewPlugin);
        app.update();
        super::super::input::tests::press(&mut app, KeyCode::KeyA);
        super::super::input::tests::press(&mut app, KeyCode::KeyT);
        let w = app.world_mut();
        assert_eq!(
            w.resource::<delve_ground::time::Clock>().rounds,
            10,
            "a whole turn"
        );
        let party: Vec<String> = w.resource::<Parties>().0[0]
            .marching_order
            .iter()
            .map(|&e| delve_rules::creature::name_of(w, e))
            .collect();
        let struck = w
            .resource::<delve_ground::log::EventLog>()
            .of::<delve_rules::rules::combat::CombatEvent>()
            .filter(|e| {
                matches!(e, delve_rules::rules::combat::CombatEvent::Attacked { who, .. }
                    if party.contains(who))
            })
            .count();
        assert!(struck > 0, "the party fought the rats");
        let mut q = w.query_filtered::<Has<Controlled>, With<Creature>>();
        assert!(q.iter(w).all(|c| !c), "no one waits for orders");
    }

    /// A party handed to its policy (A) fights by itself: its members do not wait for orders,
    /// and strike at the ghouls; taken back, they wait again.
    #[test]
    fn a_party_under_its_policy_fights_by_itself() {
        let level = the_party_down_the_corridor(0);
        let mut app = delve_play::sim::sim_app(&level, 7);
        app.add_plugins(BattleViewPlugin);
        let hand = |app: &mut App, policy: Option<delve_ground::party_policy::PartyPolicy>| {
            delve_rules::command::dispatch_now(
                app.world_mut(),
                delve_rules::rules::party::Autonomy {
                    party: "party".into(),
                    policy,
                },
            );
        };
        hand(
            &mut app,
            Some(delve_ground::party_policy::PartyPolicy::default()),
        );
        let brannoc = app
            .world()
            .resource::<delve_rules::creature::CreatureIndex>()
            .0["Brannoc"];
        for _ in 0..4 {
            app.update();
            delve_play::sim::run_round(app.world_mut());
        }
        app.update();
        let w = app.world();
        assert!(w.get::<Controlled>(brannoc).is_none(), "under its policy");
        let struck = w
            .resource::<delve_ground::log::EventLog>()
            .of::<delve_rules::rules::combat::CombatEvent>()
            .any(|e| {
                matches!(e, delve_rules::rules::combat::CombatEvent::Attacked { who, .. }
                    if ["Brannoc", "Mirela", "Sera", "Aldric"].contains(&who.as_str()))
            });
        assert!(struck, "the party fought");
        hand(&mut app, None);
        app.update();
        delve_play::sim::run_round(app.world_mut());
        app.update();
        assert!(
            app.world().get::<Controlled>(brannoc).is_some(),
            "taken back"
        );
    }
}
