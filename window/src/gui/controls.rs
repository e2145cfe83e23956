//! Everything the window's user can do, as leafwing actions, with the keys and buttons bound to
//! them unless a keys file says otherwise (`gui::keys`), and the help line's words for each.

use bevy::prelude::*;
use leafwing_input_manager::prelude::*;

/// Everything the window's user can do.
#[derive(
    Actionlike,
    PartialEq,
    Eq,
    Clone,
    Copy,
    Hash,
    Debug,
    Reflect,
    serde::Serialize,
    serde::Deserialize,
)]
pub enum DelveAction {
    /// Move the camera.
    #[actionlike(DualAxis)]
    Pan,
    /// Zoom the camera in (positive) or out.
    #[actionlike(Axis)]
    Zoom,
    /// Select the next creature.
    NextCreature,
    /// Select the creature under the pointer.
    Select,
    /// Send the selected creature to the square under the pointer.
    MoveHere,
    /// The menu of the square under the pointer: what the selected creature is offered there.
    SquareMenu,
    /// Play one round.
    AdvanceRound,
    /// Play one turn (10 rounds).
    AdvanceTurn,
    /// Centre the camera on the selection, or fit the whole map.
    Recentre,
    /// Show or hide the key help.
    ToggleHelp,
    /// Show the level's briefing again (`gui::briefing`), or put it away.
    Briefing,
    /// Cycle the pace for the next move: exploration, combat, running.
    CyclePace,
    /// Give orders to the selected creature's whole party, or to the creature alone.
    TogglePartyOrders,
    /// The selection (or its party) rests a turn.
    Rest,
    /// The selected creature stands up.
    StandUp,
    /// Switch between the Judge's view and the party's.
    ToggleView,
    /// Make a loud noise at the pointer (the Judge's doing).
    MakeNoise,
    /// Take the selected creature's choice of this number (0 is key 1); see `gui::actions`.
    Choose(u8),
    /// The next nine of the selected creature's choices, when it has more than nine.
    MoreChoices,
    /// The selected creature lights a light, or douses its lights (the first such offer).
    LightOrDouse,
    /// The selected creature listens (where the rules offer it).
    Listen,
    /// The selected creature searches methodically where it stands.
    Search,
    /// The selected creature hides (proficient in Hiding).
    Hide,
    /// The selected creature takes the gear of a fallen companion beside it.
    TakeGear,
    /// The selected creature carries (or puts down) a companion beside it.
    Carry,
    /// The selected creature attacks the creature under the pointer.
    Attack,
    /// The party fights by itself, or waits for orders.
    PartyFightsAlone,
    /// Hand the selected creature's party (or the first party) to its policy, or take it back.
    Autonomy,
    /// Save the delve (`gui::saving`).
    Save,
    /// Go on from the save.
    Load,
    /// Take back a round.
    Undo,
    /// Take back a turn.
    UndoTurn,
    /// Give back a round taken back.
    Redo,
    /// The tiles over a level's battlemap: faint, hidden, or drawn in full (`gui::battlemap`).
    ToggleBattlemap,
    /// The timeline (`gui::timeline`): a round back.
    RoundBack,
    /// A round on along the timeline.
    RoundOn,
    /// A turn back.
    TurnBack,
    /// A turn on.
    TurnOn,
    /// The previous mark on the timeline (of the kind chosen).
    PreviousMark,
    /// The next mark.
    NextMark,
    /// Play on along the timeline, or pause.
    PlayPause,
    /// The timeline's speed: 1, 4 or 16 rounds a second.
    PlaySpeed,
    /// The kind of mark the previous and next mark go to.
    MarkKind,
    /// Fit the whole level in the map's space.
    FitLevel,
    /// The camera follows the selected creature (or the party's leader) as it moves, or stays.
    ToggleFollow,
    /// Show or hide the minimap (`gui::minimap`).
    ToggleMinimap,
    /// Show or hide the noise overlay (`gui::overlays`).
    ToggleNoise,
    /// Show or hide who heard what, or show it again once faded.
    ToggleHearing,
    /// Show or hide the party's knowledge (seen, mapped, mapped wrong) over the map.
    TogglePartyMap,
    /// Show or hide the light overlay: each square bright, dim or in magical darkness.
    ToggleLight,
    /// Show or hide the overlays' legend.
    ToggleLegend,
    /// The interface larger (the panels' text and widgets).
    UiLarger,
    /// The interface smaller.
    UiSmaller,
}

/// The Judge's actions, not bound in solo play: the view switch, a noise anywhere, and the
/// overlays only the Judge's view shows (the noise heard, who heard it).
pub const JUDGE_ONLY: [DelveAction; 4] = [
    DelveAction::ToggleView,
    DelveAction::MakeNoise,
    DelveAction::ToggleNoise,
    DelveAction::ToggleHearing,
];

/// The actions the help line lists, in its order, with what each does (the keys are those bound
/// now: `gui::keys`).
pub const HELP: &[(DelveAction, &str)] = &[
    (DelveAction::Pan, "pan"),
    (DelveAction::Zoom, "zoom"),
    (DelveAction::NextCreature, "next creature"),
    (DelveAction::Select, "select"),
    (DelveAction::MoveHere, "move there"),
    (DelveAction::SquareMenu, "what can be done there"),
    (DelveAction::AdvanceRound, "+1 round"),
    (DelveAction::AdvanceTurn, "+1 turn"),
    (DelveAction::CyclePace, "pace"),
    (DelveAction::TogglePartyOrders, "party/single"),
    (DelveAction::Rest, "rest"),
    (DelveAction::StandUp, "stand up"),
    (DelveAction::ToggleView, "Judge/party/creature view"),
    (DelveAction::ToggleBattlemap, "tiles over the battlemap"),
    (DelveAction::MakeNoise, "noise at pointer"),
    (
        DelveAction::Choose(0),
        "the listed actions (doors, traps, lights, caving, battle, …)",
    ),
    (DelveAction::MoreChoices, "more actions"),
    (DelveAction::LightOrDouse, "light/douse"),
    (DelveAction::Listen, "listen"),
    (DelveAction::Search, "search"),
    (DelveAction::Hide, "hide"),
    (DelveAction::TakeGear, "take a fallen one's gear"),
    (DelveAction::Carry, "carry/put down"),
    (DelveAction::Attack, "attack at pointer"),
    (DelveAction::PartyFightsAlone, "party fights alone"),
    (DelveAction::Autonomy, "party delves by itself / back"),
    (DelveAction::Save, "save"),
    (DelveAction::Load, "load"),
    (DelveAction::Undo, "undo a round"),
    (DelveAction::UndoTurn, "undo a turn"),
    (DelveAction::Redo, "redo"),
    (DelveAction::RoundBack, "timeline: a round back"),
    (DelveAction::RoundOn, "a round on"),
    (DelveAction::TurnBack, "a turn back"),
    (DelveAction::TurnOn, "a turn on"),
    (DelveAction::PreviousMark, "previous mark"),
    (DelveAction::NextMark, "next mark"),
    (DelveAction::MarkKind, "which marks"),
    (DelveAction::PlayPause, "play/pause"),
    (DelveAction::PlaySpeed, "speed"),
    (DelveAction::UiLarger, "interface larger"),
    (DelveAction::UiSmaller, "interface smaller"),
    (DelveAction::Recentre, "centre"),
    (DelveAction::FitLevel, "whole level"),
    (DelveAction::ToggleFollow, "follow/stay"),
    (DelveAction::ToggleMinimap, "minimap"),
    (DelveAction::ToggleNoise, "noise overlay"),
    (DelveAction::ToggleHearing, "who heard"),
    (DelveAction::TogglePartyMap, "the party's knowledge"),
    (DelveAction::ToggleLight, "light overlay"),
    (DelveAction::ToggleLegend, "legend"),
    (DelveAction::Briefing, "briefing"),
    (DelveAction::ToggleHelp, "hide help"),
];

pub fn default_input_map() -> InputMap<DelveAction> {
    InputMap::default()
        .with_dual_axis(DelveAction::Pan, VirtualDPad::arrow_keys())
        .with_axis(
            DelveAction::Zoom,
            VirtualAxis::new(KeyCode::KeyQ, KeyCode::KeyE),
        )
        .with_axis(DelveAction::Zoom, MouseScrollAxis::Y)
        .with(DelveAction::NextCreature, KeyCode::Tab)
        .with(DelveAction::Select, MouseButton::Left)
        .with(DelveAction::MoveHere, MouseButton::Right)
        .with(
            DelveAction::SquareMenu,
            ButtonlikeChord::modified(ModifierKey::Shift, MouseButton::Right),
        )
        .with(DelveAction::AdvanceRound, KeyCode::Space)
        .with(DelveAction::AdvanceTurn, KeyCode::KeyT)
        .with(DelveAction::Recentre, KeyCode::KeyC)
        .with(DelveAction::FitLevel, KeyCode::Home)
        .with(DelveAction::ToggleFollow, KeyCode::KeyO)
        .with(DelveAction::ToggleMinimap, KeyCode::KeyI)
        .with(DelveAction::ToggleNoise, KeyCode::F3)
        .with(DelveAction::ToggleHearing, KeyCode::F4)
        .with(DelveAction::TogglePartyMap, KeyCode::F5)
        .with(DelveAction::ToggleLegend, KeyCode::F6)
        .with(DelveAction::ToggleLight, KeyCode::F7)
        .with(DelveAction::ToggleHelp, KeyCode::F1)
        .with(DelveAction::Briefing, KeyCode::F2)
        .with(DelveAction::CyclePace, KeyCode::KeyP)
        .with(DelveAction::TogglePartyOrders, KeyCode::KeyG)
        .with(DelveAction::Rest, KeyCode::KeyR)
        .with(DelveAction::StandUp, KeyCode::KeyU)
        .with(DelveAction::MoreChoices, KeyCode::Digit0)
        .with(DelveAction::LightOrDouse, KeyCode::KeyD)
        .with(DelveAction::Listen, KeyCode::KeyW)
        .with(DelveAction::Search, KeyCode::KeyS)
        .with(DelveAction::Hide, KeyCode::KeyH)
        .with(DelveAction::TakeGear, KeyCode::KeyX)
        .with(DelveAction::Carry, KeyCode::KeyY)
        .with(DelveAction::ToggleView, KeyCode::KeyV)
        .with(DelveAction::ToggleBattlemap, KeyCode::KeyM)
        .with(DelveAction::MakeNoise, KeyCode::KeyN)
        .with(DelveAction::Attack, KeyCode::KeyF)
        .with(DelveAction::PartyFightsAlone, KeyCode::KeyB)
        .with(DelveAction::Autonomy, KeyCode::KeyA)
        .with(
            DelveAction::Save,
            ButtonlikeChord::modified(ModifierKey::Control, KeyCode::KeyS),
        )
        .with(
            DelveAction::Load,
            ButtonlikeChord::modified(ModifierKey::Control, KeyCode::KeyO),
        )
        .with(
            DelveAction::Undo,
            ButtonlikeChord::modified(ModifierKey::Control, KeyCode::KeyZ),
        )
        .with(
            DelveAction::UndoTurn,
            ButtonlikeChord::modified(ModifierKey::Control, KeyCode::KeyZ).with(ModifierKey::Shift),
        )
        .with(
            DelveAction::Redo,
            ButtonlikeChord::modified(ModifierKey::Control, KeyCode::KeyY),
        )
        .with(DelveAction::RoundBack, KeyCode::Comma)
        .with(DelveAction::RoundOn, KeyCode::Period)
        .with(
            DelveAction::TurnBack,
            ButtonlikeChord::modified(ModifierKey::Shift, KeyCode::Comma),
        )
        .with(
            DelveAction::TurnOn,
            ButtonlikeChord::modified(ModifierKey::Shift, KeyCode::Period),
        )
        .with(DelveAction::PreviousMark, KeyCode::BracketLeft)
        .with(DelveAction::NextMark, KeyCode::BracketRight)
        .with(DelveAction::PlayPause, KeyCode::KeyK)
        .with(DelveAction::PlaySpeed, KeyCode::KeyL)
        .with(DelveAction::MarkKind, KeyCode::KeyJ)
        .with(
            DelveAction::UiLarger,
            ButtonlikeChord::modified(ModifierKey::Control, KeyCode::Equal),
        )
        .with(
            DelveAction::UiSmaller,
            ButtonlikeChord::modified(ModifierKey::Control, KeyCode::Minus),
        )
        .with_multiple(
            [
                KeyCode::Digit1,
                KeyCode::Digit2,
                KeyCode::Digit3,
                KeyCode::Digit4,
                KeyCode::Digit5,
                KeyCode::Digit6,
                KeyCode::Digit7,
                KeyCode::Digit8,
                KeyCode::Digit9,
            ]
            .into_iter()
            .enumerate()
            .map(|(i, k)| (DelveAction::Choose(i as u8), k)),
        )
}
