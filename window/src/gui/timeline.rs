//! The timeline: a bar under the map from the delve's first round to the last played along its
//! line (`delve_play::keyframe`), with a mark for every death, member downed, battle, door opened or
//! forced, trap sprung, light out, noise that brought a monster and the delve's end
//! (`delve_play::timeline`). Dragging on it goes to that round (the map and the log follow: the
//! world is the delve at that round, restored from the nearest keyframe); a click on a mark
//! goes to the round after its event. Keys: `,` and `.` a round back and on, Shift with them a
//! turn, `[` and `]` the previous and next mark (of the kind `J` chooses), `K` plays and
//! pauses, `L` the speed (1, 4 or 16 rounds a second).
//!
//! Going on from a round before the line's end replays the line; a command given there forks
//! it: the delve goes on from that round with the new command, the old line kept
//! (`delve_play::keyframe::Keyframes::left`; with `--journal FILE`, written beside it).

use delve_rules::creature::CreatureIndex;
use delve_rules::rules::party::Parties;

use bevy::prelude::*;
use bevy_egui::egui;
use leafwing_input_manager::prelude::*;

use delve_ground::time::{Clock, ROUNDS_PER_TURN};
use delve_play::keyframe::Keyframes;
use delve_play::timeline::{Mark, MarkKind, next_mark, previous_mark};

use super::controls::DelveAction;
use super::state::{Selected, ShownLevel, Tell};

/// The playing speeds, in rounds a second.
pub const SPEEDS: [u32; 3] = [1, 4, 16];

/// The timeline's state: its marks, whether it plays, and the round asked for.
#[derive(Resource, Debug, Default)]
pub struct Timeline {
    pub marks: Vec<Mark>,
    /// The line's log length and end the marks were read at, and whether for a player's view.
    read_at: (usize, u64, bool),
    /// Playing on along the line.
    pub playing: bool,
    /// Index into [`SPEEDS`].
    pub speed: usize,
    /// The kind of mark `[` and `]` go to (any, when none).
    pub kind: Option<MarkKind>,
    /// Time played not yet worth a round.
    owed: f32,
    /// The round to go to, this frame.
    pub seek: Option<u64>,
}

pub struct TimelinePlugin;

impl Plugin for TimelinePlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Timeline>().add_systems(
            Update,
            (read_marks, timeline_keys, play_on, go_to_round)
                .chain()
                .after(super::state::PlayRounds),
        );
    }
}

/// The marks of the line, read again when it grew or forked, or the view changed: in a
/// player's view only what the party knows of, in its words (RULINGS › Knowledge).
fn read_marks(
    frames: Option<Res<Keyframes>>,
    mut timeline: ResMut<Timeline>,
    view: Option<Res<super::state::ViewMode>>,
    parties: Res<Parties>,
    names: Query<&Name>,
) {
    let Some(frames) = frames else {
        return;
    };
    let party_view = view.as_deref().is_some_and(|v| !v.judges());
    let at = (frames.log().len(), frames.end(), party_view);
    if timeline.read_at == at {
        return;
    }
    timeline.marks = match parties.0.first().filter(|_| party_view) {
        Some(party) => {
            let members: Vec<String> = party
                .marching_order
                .iter()
                .filter_map(|&e| names.get(e).ok().map(|n| n.to_string()))
                .collect();
            let members: Vec<&str> = members.iter().map(String::as_str).collect();
            delve_play::timeline::marks_told(frames.log(), |e| {
                e.known_to_party(&members, &party.name, 0)
                    .then(|| e.words_for_party(&members, &party.name))
            })
        }
        None => delve_play::timeline::marks(frames.log()),
    };
    timeline.read_at = at;
}

/// The timeline's keys: where to go.
fn timeline_keys(
    actions: Single<&ActionState<DelveAction>>,
    clock: Res<Clock>,
    frames: Option<Res<Keyframes>>,
    mut timeline: ResMut<Timeline>,
    mut tell: MessageWriter<Tell>,
) {
    let Some(frames) = frames else {
        return;
    };
    let now = clock.rounds;
    let end = frames.end();
    let pressed = |a: DelveAction| actions.just_pressed(&a);
    let to = if pressed(DelveAction::RoundBack) {
        Some(now.saturating_sub(1))
    } else if pressed(DelveAction::RoundOn) {
        Some((now + 1).min(end))
    } else if pressed(DelveAction::TurnBack) {
        Some(now.saturating_sub(ROUNDS_PER_TURN))
    } else if pressed(DelveAction::TurnOn) {
        Some((now + ROUNDS_PER_TURN).min(end))
    } else if pressed(DelveAction::PreviousMark) {
        // A mark's round is the round its event happened in; the timeline shows it after.
        previous_mark(&timeline.marks, now.saturating_sub(1), timeline.kind).map(|r| r + 1)
    } else if pressed(DelveAction::NextMark) {
        next_mark(&timeline.marks, now.saturating_sub(1), timeline.kind).map(|r| r + 1)
    } else {
        None
    };
    if to.is_some() {
        timeline.seek = to;
        timeline.playing = false;
    }
    if pressed(DelveAction::PlayPause) {
        timeline.playing = !timeline.playing && now < end;
        timeline.owed = 0.0;
    }
    if pressed(DelveAction::PlaySpeed) {
        timeline.speed = (timeline.speed + 1) % SPEEDS.len();
        tell.write(Tell(format!(
            "the timeline plays {} rounds a second",
            SPEEDS[timeline.speed]
        )));
    }
    if pressed(DelveAction::MarkKind) {
        let all = MarkKind::ALL;
        timeline.kind = match timeline.kind {
            None => Some(all[0]),
            Some(k) => all.iter().skip_while(|x| **x != k).nth(1).copied(),
        };
        tell.write(Tell(format!(
            "[ and ] go to the {}",
            timeline.kind.map_or("marks of every kind", MarkKind::words)
        )));
    }
}

/// Playing: on along the line at the chosen speed, until its end.
fn play_on(
    time: Res<Time>,
    clock: Res<Clock>,
    frames: Option<Res<Keyframes>>,
    mut timeline: ResMut<Timeline>,
) {
    let Some(frames) = frames else {
        return;
    };
    if !timeline.playing || timeline.seek.is_some() {
        return;
    }
    timeline.owed += time.delta_secs() * SPEEDS[timeline.speed] as f32;
    let rounds = timeline.owed.floor() as u64;
    if rounds == 0 {
        return;
    }
    timeline.owed -= rounds as f32;
    let to = (clock.rounds + rounds).min(frames.end());
    timeline.seek = Some(to);
    if to >= frames.end() {
        timeline.playing = false;
    }
}

/// Goes to the round asked for: the delve as it was then, the view and the selection kept.
pub fn go_to_round(world: &mut World) {
    let Some(round) = world.resource_mut::<Timeline>().seek.take() else {
        return;
    };
    if world.resource::<Clock>().rounds == round {
        return;
    }
    let level = world.resource::<ShownLevel>().level.clone();
    let selected = world
        .resource::<Selected>()
        .0
        .and_then(|e| world.get::<Name>(e).map(|n| n.to_string()));
    let Some(at) = delve_play::save::seek(world, &level, round) else {
        return;
    };
    {
        let mut shown = world.resource_mut::<ShownLevel>();
        shown.redraw = true;
        shown.keep_view = true;
    }
    let e = selected.and_then(|n| world.resource::<CreatureIndex>().0.get(&n).copied());
    world.resource_mut::<Selected>().0 = e;
    let end = world.resource::<Keyframes>().end();
    world.write_message(Tell(format!(
        "round {at} of {end} ({}){}",
        Clock { rounds: at },
        if at < end {
            ": Space replays the line; an order given here forks it"
        } else {
            ""
        }
    )));
}

/// The colour of a kind of mark.
fn colour(kind: MarkKind) -> egui::Color32 {
    match kind {
        MarkKind::Death => egui::Color32::from_rgb(230, 40, 40),
        MarkKind::Downed => egui::Color32::from_rgb(240, 140, 60),
        MarkKind::Battle => egui::Color32::from_rgb(200, 60, 200),
        MarkKind::DoorOpened => egui::Color32::from_rgb(150, 110, 70),
        MarkKind::DoorForced => egui::Color32::from_rgb(210, 160, 60),
        MarkKind::Trap => egui::Color32::from_rgb(250, 220, 40),
        MarkKind::LightOut => egui::Color32::from_rgb(120, 120, 140),
        MarkKind::Noise => egui::Color32::from_rgb(80, 170, 240),
        MarkKind::Goal => egui::Color32::from_rgb(60, 220, 90),
        MarkKind::End => egui::Color32::from_rgb(230, 230, 230),
    }
}

/// The timeline under the map: its buttons, and the bar with its marks.
pub fn timeline_panel(ui: &mut egui::Ui, now: u64, end: u64, timeline: &mut Timeline) {
    ui.horizontal_wrapped(|ui| {
        let go = |to: u64| Some(to.min(end));
        let mut asked = None;
        if ui
            .button("⏮ turn")
            .on_hover_text("a turn back (Shift+,)")
            .clicked()
        {
            asked = go(now.saturating_sub(ROUNDS_PER_TURN));
        }
        if ui
            .button("◀ round")
            .on_hover_text("a round back (,)")
            .clicked()
        {
            asked = go(now.saturating_sub(1));
        }
        let play = if timeline.playing {
            "⏸ pause"
        } else {
            "▶ play"
        };
        if ui
            .button(play)
            .on_hover_text("play on along the line (K)")
            .clicked()
        {
            timeline.playing = !timeline.playing && now < end;
        }
        if ui
            .button("round ▶")
            .on_hover_text("a round on (.)")
            .clicked()
        {
            asked = go(now + 1);
        }
        if ui
            .button("turn ⏭")
            .on_hover_text("a turn on (Shift+.)")
            .clicked()
        {
            asked = go(now + ROUNDS_PER_TURN);
        }
        ui.separator();
        for (i, speed) in SPEEDS.iter().enumerate() {
            ui.selectable_value(&mut timeline.speed, i, format!("{speed}×"))
                .on_hover_text(format!("{speed} rounds a second (L)"));
        }
        ui.separator();
        egui::ComboBox::from_id_salt("mark kind")
            .selected_text(timeline.kind.map_or("every mark", MarkKind::words))
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut timeline.kind, None, "every mark");
                for &k in MarkKind::ALL {
                    ui.selectable_value(&mut timeline.kind, Some(k), k.words());
                }
            })
            .response
            .on_hover_text("what [ and ] go to (J)");
        if ui.button("◀ mark").clicked() {
            asked =
                previous_mark(&timeline.marks, now.saturating_sub(1), timeline.kind).map(|r| r + 1);
        }
        if ui.button("mark ▶").clicked() {
            asked = next_mark(&timeline.marks, now.saturating_sub(1), timeline.kind).map(|r| r + 1);
        }
        ui.separator();
        ui.label(format!("round {now} of {end} · {}", Clock { rounds: now }));
        if asked.is_some() {
            timeline.seek = asked;
            timeline.playing = false;
        }
    });
    timeline_bar(ui, now, end, timeline);
}

/// The bar: a round to a slice of its width, the marks as ticks, the round shown as a line.
fn timeline_bar(ui: &mut egui::Ui, now: u64, end: u64, timeline: &mut Timeline) {
    let width = ui.available_width().max(100.0);
    let (rect, response) =
        ui.allocate_exact_size(egui::vec2(width, 26.0), egui::Sense::click_and_drag());
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 3.0, egui::Color32::from_gray(40));
    let span = end.max(1) as f32;
    let x_of = |round: u64| rect.left() + rect.width() * round as f32 / span;
    let round_at = |x: f32| {
        (((x - rect.left()) / rect.width()) * span)
            .round()
            .clamp(0.0, span) as u64
    };
    // Every hour a faint line.
    for hour in (0..=end).step_by(delve_ground::time::ROUNDS_PER_HOUR as usize) {
        let x = x_of(hour);
        painter.line_segment(
            [
                egui::pos2(x, rect.bottom() - 5.0),
                egui::pos2(x, rect.bottom()),
            ],
            egui::Stroke::new(1.0, egui::Color32::from_gray(110)),
        );
    }
    let shown = |m: &&Mark| timeline.kind.is_none_or(|k| m.kind == k);
    for m in timeline.marks.iter().filter(shown) {
        let x = x_of(m.round + 1);
        painter.line_segment(
            [
                egui::pos2(x, rect.top() + 3.0),
                egui::pos2(x, rect.bottom() - 3.0),
            ],
            egui::Stroke::new(2.0, colour(m.kind)),
        );
    }
    let x = x_of(now);
    painter.line_segment(
        [egui::pos2(x, rect.top()), egui::pos2(x, rect.bottom())],
        egui::Stroke::new(3.0, egui::Color32::WHITE),
    );
    // The mark nearest the pointer, within a few pixels: told on hover, gone to on a click.
    let near = response.hover_pos().and_then(|p| {
        timeline
            .marks
            .iter()
            .filter(shown)
            .map(|m| ((x_of(m.round + 1) - p.x).abs(), m))
            .filter(|(d, _)| *d <= 4.0)
            .min_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(_, m)| m.clone())
    });
    if let Some(m) = &near {
        response.clone().on_hover_text(format!(
            "{} · {}: {}",
            Clock { rounds: m.round },
            m.kind.words(),
            m.what
        ));
    } else if let Some(p) = response.hover_pos() {
        let r = round_at(p.x);
        response
            .clone()
            .on_hover_text(format!("round {r} · {}", Clock { rounds: r }));
    }
    if response.clicked()
        && let Some(m) = near
    {
        timeline.seek = Some((m.round + 1).min(end));
        timeline.playing = false;
    } else if (response.dragged() || response.clicked())
        && let Some(p) = response.interact_pointer_pos()
    {
        timeline.seek = Some(round_at(p.x));
        timeline.playing = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gui::input::tests::{app, press};
    use delve_play::keyframe::Keyframes;

    /// The window's input with the timeline, on the crypt's delve handed to its policy and
    /// played `rounds` rounds (keyframes kept from its start).
    fn watched(rounds: u64) -> App {
        let mut app = app();
        app.add_plugins(TimelinePlugin);
        let world = app.world_mut();
        delve_play::keyframe::keep(world, ROUNDS_PER_TURN);
        delve_play::sim::hand_parties_to(
            world,
            &delve_ground::party_policy::PartyPolicy::default(),
        );
        delve_play::sim::run_rounds(world, rounds);
        app.update();
        app
    }

    fn round(app: &App) -> u64 {
        app.world().resource::<Clock>().rounds
    }

    fn chord(app: &mut App, held: KeyCode, key: KeyCode) {
        held.press(app.world_mut());
        key.press(app.world_mut());
        app.update();
        key.release(app.world_mut());
        held.release(app.world_mut());
        app.update();
    }

    /// In a player's view the timeline marks only what the party knows of, in its words: the
    /// crypt's delve, 300 rounds under the policy, has marks the Judge sees that name a monster
    /// (a ghoul going to look at a noise, one downed), and none of them is the party's.
    #[test]
    fn the_partys_timeline_marks_only_what_it_knows() {
        let mut app = watched(300);
        app.insert_resource(crate::gui::state::ViewMode::Judge);
        app.update();
        let judge = app.world().resource::<Timeline>().marks.clone();
        app.insert_resource(crate::gui::state::ViewMode::Party);
        app.update();
        let party = app.world().resource::<Timeline>().marks.clone();
        let monsters = [
            "Gnawbone",
            "Ashmaw",
            "Hollowjaw",
            "Warden of Ash",
            "ghouls",
            "the dead",
        ];
        let names_one = |m: &Mark| monsters.iter().any(|n| m.what.contains(n));
        assert!(judge.iter().any(names_one), "{judge:#?}");
        assert!(party.len() < judge.len());
        let leaked: Vec<&Mark> = party.iter().filter(|m| names_one(m)).collect();
        assert!(leaked.is_empty(), "{leaked:#?}");
    }

    /// , and . step a round, Shift with them a turn, never past the line's ends; [ and ] go to
    /// the round after the previous and the next mark.
    #[test]
    fn the_timeline_keys_move_the_round_as_documented() {
        let mut app = watched(120);
        assert_eq!(round(&app), 120);
        press(&mut app, KeyCode::Comma);
        assert_eq!(round(&app), 119);
        chord(&mut app, KeyCode::ShiftLeft, KeyCode::Comma);
        assert_eq!(round(&app), 109);
        press(&mut app, KeyCode::Period);
        assert_eq!(round(&app), 110);
        chord(&mut app, KeyCode::ShiftLeft, KeyCode::Period);
        assert_eq!(round(&app), 120);
        // Not past the end of the line.
        press(&mut app, KeyCode::Period);
        assert_eq!(round(&app), 120);
        // The log follows the round.
        let log_at = |app: &App| {
            app.world()
                .resource::<delve_ground::log::EventLog>()
                .entries()
                .last()
                .map(|e| e.round)
        };
        chord(&mut app, KeyCode::ShiftLeft, KeyCode::Comma);
        assert!(log_at(&app) < Some(110));

        // The marks: back to the start, then ] to each in turn.
        for _ in 0..12 {
            chord(&mut app, KeyCode::ShiftLeft, KeyCode::Comma);
        }
        assert_eq!(round(&app), 0);
        let marks = app.world().resource::<Timeline>().marks.clone();
        assert!(marks.len() >= 2, "{marks:?}");
        press(&mut app, KeyCode::BracketRight);
        assert_eq!(round(&app), marks[0].round + 1);
        let second = marks.iter().find(|m| m.round > marks[0].round).unwrap();
        press(&mut app, KeyCode::BracketRight);
        assert_eq!(round(&app), second.round + 1);
        press(&mut app, KeyCode::BracketLeft);
        assert_eq!(round(&app), marks[0].round + 1);
    }

    /// Space at a round before the line's end replays the line's round (nothing forks); an
    /// order given there forks it, the line left kept.
    #[test]
    fn space_replays_the_line_and_an_order_forks_it() {
        let mut app = watched(60);
        let line_log = app.world().resource::<Keyframes>().log().len();
        for _ in 0..3 {
            chord(&mut app, KeyCode::ShiftLeft, KeyCode::Comma);
        }
        assert_eq!(round(&app), 30);
        // The journal written is the whole line's, whichever round is shown.
        let written = delve_play::sim::JournalFile::of_line(app.world());
        assert_eq!(written.rounds, Some(60));
        assert_eq!(written.checks.len(), 6);
        press(&mut app, KeyCode::Space);
        assert_eq!(round(&app), 31);
        let frames = app.world().resource::<Keyframes>();
        assert!(frames.left().is_empty(), "{:?}", frames.left());
        assert_eq!((frames.end(), frames.log().len()), (60, line_log));
        // Taking the party back from its policy is an order: the delve forks at round 31.
        delve_play::sim::give(
            app.world_mut(),
            delve_rules::rules::party::Autonomy {
                party: "party".into(),
                policy: None,
            },
        );
        press(&mut app, KeyCode::Space);
        assert_eq!(round(&app), 32);
        let frames = app.world().resource::<Keyframes>();
        assert_eq!(frames.left().len(), 1);
        assert_eq!(frames.left()[0].0, 31);
        assert_eq!(frames.end(), 32);
        assert!(frames.log().len() < line_log);
    }
}
