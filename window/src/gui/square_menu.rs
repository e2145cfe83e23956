//! The menu of a square (Shift + right click): what the selected creature is offered there —
//! at a door, at a trap, against the creature standing on it, or, on its own square, what it
//! can do where it stands — each with its time and chance, as the actions list gives them
//! (`gui::actions`). Choosing one gives its command for the next round; Escape or a click
//! elsewhere closes the menu.

use delve_rules::creature::Position;

use bevy::prelude::*;
use leafwing_input_manager::prelude::*;

use super::actions::Offered;
use super::controls::DelveAction;
use super::state::{Selected, Tell};
use delve_ground::grid::GridPos;
use delve_rules::act::{Choice, Concern, PendingCommands};

/// The open menu: its square, and where on the screen it opened (logical pixels); and whether it
/// has been drawn yet (the click that opened it closes nothing).
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct SquareMenu(pub Option<(GridPos, Vec2)>, pub bool);

/// The offers (by index in the list) that concern the square `at`: those at a door or trap
/// there, those against a creature standing there (`there`), and, on the chooser's own square,
/// those it makes where it stands (concerning no door, trap or creature).
pub fn concerning(
    offered: &[(Concern, Choice)],
    at: GridPos,
    own_square: Option<GridPos>,
    there: &[String],
) -> Vec<usize> {
    offered
        .iter()
        .enumerate()
        .filter(|(_, (what, _))| match what {
            Concern::Door(p) | Concern::Trap(p) => *p == at,
            Concern::Creature(name) => there.contains(name),
            _ => own_square == Some(at),
        })
        .map(|(i, _)| i)
        .collect()
}

/// Shift + right click opens the menu of the square under the pointer for the creature
/// selected.
fn open(
    actions: Single<&ActionState<DelveAction>>,
    pointer: super::pointer::Pointer,
    selected: Res<Selected>,
    windows: Query<&Window, With<bevy::window::PrimaryWindow>>,
    mut menu: ResMut<SquareMenu>,
    mut tell: MessageWriter<Tell>,
) {
    if !actions.just_pressed(&DelveAction::SquareMenu) {
        return;
    }
    let (Some(at), Some(cursor)) = (
        pointer.square(),
        windows.single().ok().and_then(|w| w.cursor_position()),
    ) else {
        return;
    };
    if selected.0.is_none() {
        tell.write(Tell("select a creature first (Tab or left click)".into()));
        return;
    }
    *menu = SquareMenu(Some((at, cursor)), false);
}

/// The menu drawn over the map, until a choice or a click elsewhere closes it.
#[allow(clippy::too_many_arguments)]
fn show(
    mut contexts: bevy_egui::EguiContexts,
    mut menu: ResMut<SquareMenu>,
    offered: Res<Offered>,
    selected: Res<Selected>,
    creatures: Query<(&Name, &Position)>,
    mut pending: ResMut<PendingCommands>,
    mut tell: MessageWriter<Tell>,
) -> Result {
    use bevy_egui::egui;
    let Some((at, cursor)) = menu.0 else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    let own = selected
        .0
        .and_then(|e| creatures.get(e).ok())
        .map(|(_, p)| p.0);
    let there: Vec<String> = creatures
        .iter()
        .filter(|(_, p)| p.0 == at)
        .map(|(n, _)| n.to_string())
        .collect();
    let entries = concerning(&offered.all, at, own, &there);
    let zoom = ctx.zoom_factor();
    let mut chosen = None;
    let area = egui::Area::new(egui::Id::new("the square's menu"))
        .order(egui::Order::Foreground)
        .fixed_pos(egui::pos2(cursor.x / zoom, cursor.y / zoom))
        .constrain(true)
        .show(ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                ui.set_max_width(420.0);
                ui.strong(format!("{at}"));
                if entries.is_empty() {
                    ui.label("nothing the rules offer here");
                }
                for &i in &entries {
                    let (what, c) = &offered.all[i];
                    if ui.button(format!("{what}: {c}")).clicked() {
                        chosen = Some(i);
                    }
                }
            });
        });
    let drawn = std::mem::replace(&mut menu.1, true);
    let clicked_elsewhere = drawn
        && ctx.input(|i| i.pointer.any_pressed())
        && !area.response.contains_pointer()
        && chosen.is_none();
    if let Some(i) = chosen {
        let (what, c) = &offered.all[i];
        tell.write(Tell(super::actions::chosen(what, c)));
        pending.push(c.command.clone());
        menu.0 = None;
    } else if clicked_elsewhere || ctx.input(|i| i.key_pressed(egui::Key::Escape)) {
        menu.0 = None;
    }
    Ok(())
}

pub struct SquareMenuPlugin;

impl Plugin for SquareMenuPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<SquareMenu>().add_systems(
            Update,
            open.after(super::state::RedrawSet)
                .before(super::state::PlayRounds),
        );
        if app.is_plugin_added::<bevy_egui::EguiPlugin>() {
            app.add_systems(bevy_egui::EguiPrimaryContextPass, show);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A door's menu lists the offers at the door; a creature's, those against it; the
    /// chooser's own square, what it does where it stands.
    #[test]
    fn a_squares_menu_lists_the_offers_that_concern_it() {
        let choice = |way: &str| {
            Choice::new(
                way,
                "1 round",
                None,
                "",
                delve_rules::command::acts::Listen { who: "Bo".into() },
            )
        };
        let offered = vec![
            (Concern::Door(GridPos::new(4, 1)), choice("bash")),
            (Concern::Trap(GridPos::new(2, 1)), choice("disarm")),
            (Concern::Creature("Gnawbone".into()), choice("attack")),
            (Concern::Here, choice("listen")),
            (Concern::Squeeze, choice("wiggle back")),
        ];
        let gnawbone = vec!["Gnawbone".to_owned()];
        let ways = |at: (i32, i32), there: &[String]| -> Vec<String> {
            let own = Some(GridPos::new(3, 1));
            concerning(&offered, GridPos::new(at.0, at.1), own, there)
                .into_iter()
                .map(|i| offered[i].1.way.clone())
                .collect()
        };
        assert_eq!(ways((4, 1), &[]), ["bash"]);
        assert_eq!(ways((2, 1), &[]), ["disarm"]);
        assert_eq!(ways((5, 1), &gnawbone), ["attack"]);
        assert_eq!(ways((3, 1), &["Bo".to_owned()]), ["listen", "wiggle back"]);
        assert!(ways((7, 1), &[]).is_empty());
    }
}
