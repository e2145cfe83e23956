//! What the party's policy is about, as the log gives it before its orders ([`Intent`]), why it
//! makes for home ([`Homeward`]) and how it deals with a door ([`DoorPlan`]).

use delve_ground::grid::GridPos;
use serde::Serialize;

/// Why a party is making for the way in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Homeward {
    /// The goal is met.
    GoalMet,
    /// Fleeing a fight: too many of it are down, or a foe too strong for it is coming on
    /// (`Intent::FallBack`).
    Fleeing,
    /// The light left would not last much beyond the walk back.
    LightShort,
    /// Nothing it can reach is left to explore or search.
    NothingLeft,
}

/// What a policy is about, logged before its orders.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Intent {
    /// Setting out: the marching order, the pole.
    SetOut,
    /// Lighting the next light.
    Relight { who: String },
    /// Filling an empty lantern.
    Refuel { who: String },
    /// Clearing a jammed firearm (Tactical Combat › Firearms).
    ClearJam { who: String },
    /// Resting a turn (Dungeon Delves › Rest).
    Rest,
    /// Turning for the way in.
    TurnBack { why: Homeward },
    /// Walking to an edge of what it has seen.
    Explore { to: GridPos },
    /// Walking to the goal it has seen.
    MakeForGoal { to: GridPos },
    /// Holding the passage one square wide it stands in or beside against foes that outnumber
    /// it, its sturdiest member at `front` (`ground`).
    HoldThePassage { front: GridPos },
    /// Seeking out a foe it would fight, beside where it last saw it (`to`): the gear it came
    /// for may be on it (`plan::update_quarry`).
    SeekOut { foe: String, to: GridPos },
    /// Walking back to the way in.
    GoHome { to: GridPos },
    /// Bound home while part of the party was sent ahead: the part goes back to those waiting
    /// for it, at `at`, before the party goes home together.
    Rejoin { who: Vec<String>, at: GridPos },
    /// Walking up to a door or trap on the way.
    Approach { to: GridPos },
    /// Listening before opening a door.
    ListenAt { door: GridPos },
    /// Opening a door, by hand or by force, or leaving it shut.
    Door { at: GridPos, how: DoorPlan },
    /// Searching a dead end, or a wall with unexplained space behind it.
    Search { at: GridPos },
    /// Disarming a known trap.
    Disarm { at: GridPos },
    /// Setting off a known trap on the way with the pole, from out of its reach.
    Prod { at: GridPos },
    /// Falling back toward the way in before a foe too strong for it that is coming on, before
    /// any blow is struck (`fighting::coming_on`): it flees.
    /// `wounds`: the hit points of wounds it expects the foe to deal before it falls, of the
    /// party's `hit_points`.
    FallBack {
        from: String,
        wounds: u32,
        hit_points: u32,
    },
    /// Going about its delve again, the foe it fell back from out of its sight a turn.
    TryAgain { after: String },
    /// Waiting at the way in, resting, for the foe it fell back from to stay out of sight a
    /// turn (`fighting::waits_out`).
    WaitOut { foe: String },
    /// Closing and spiking a door behind it while fleeing.
    SpikeBehind { at: GridPos },
    /// Getting a member out of a pit.
    ClimbOut { who: String },
    /// Hauling a member who cannot climb up a rope out of a pit (RULINGS › Carrying and
    /// hauling).
    HaulUp { whom: String },
    /// Saving a member from drowning: grabbing it, swimming to it, bringing it out (Dungeon
    /// Delves › Swimming and Drowning).
    Rescue { who: String },
    /// Closing up on the leader.
    CloseUp,
    /// Taking the lights and gear of a fallen creature.
    TakeFromTheFallen { from: String },
    /// Taking up a member who cannot walk, to carry it home.
    Carry { whom: String },
    /// Putting down one it carries before a squeeze its bearer would stick in for good.
    LeaveAtTheSqueeze { whom: String },
    /// Getting a member stuck in a squeeze out (Dungeon Delves › Squeezing).
    GetUnstuck { who: String },
    /// A member jumps the hole at `over` (Dungeon Delves › Jumping and Leaping), or makes ready
    /// to: a run-up, or room on the landing.
    JumpTheGap { who: String, over: GridPos },
    /// A member crosses a ledge by a balancing traverse to `to` (Dungeon Delves › Climbing).
    Traverse { who: String, to: GridPos },
    /// A member goes down the shaft at `shaft` and out of it on the far side (a rope lowered
    /// first): Dungeon Delves › Climbing.
    ClimbThrough { who: String, shaft: GridPos },
    /// Short of light, taking the lantern or torch standing at `at`.
    TakeALight { at: GridPos },
    /// Part of the party goes on past `past`, where only they can go, for `aim` (the
    /// planner's best plan, `plan`); the others wait (`task`).
    SendAhead {
        who: Vec<String>,
        wait: Vec<String>,
        past: GridPos,
        aim: Box<Intent>,
    },
}

/// How a door is dealt with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum DoorPlan {
    Open,
    Key,
    Pick,
    PickMethodically,
    Bash,
    /// Wedged open with a spike: it swung shut by itself before (an evil door).
    Wedge,
    /// Left shut: nothing it can do opens it.
    LeaveShut,
}
