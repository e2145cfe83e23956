//! Caving and water: the throws of a squeeze, a climb, a jump and a swim, with their chances (Dungeon Delves › Caving, Swimming).

use delve_ground::dice::Modifier;
use delve_ground::level::WaterDepths;
use delve_ground::level::schema::{JudgeModifier, Proficiency};
use delve_rules::creature::{Abilities, Encumbrance, Proficiencies, SwimmingSpeed};
use delve_rules::rules::caving::ClimbPace;
use delve_rules::rules::modules::SituationalPenaltiesOn;
use delve_rules::rules::movement::{Pace, Speeds, WaterCost};
use delve_rules::rules::throws::{ThrowKind, Thrower};

use bevy::prelude::*;
use delve_ground::grid::{DungeonGrid, GridPos};
use delve_rules::creature::{Conditions, Position};
use serde::Serialize;
use std::fmt;

use super::{check_square, creature};

/// One throw as a creature would make it: its target, each modifier with its source, the net
/// d20 target and the chance, counted as the throw resolves (bloodied, the natural 20's +10).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ThrowOdds {
    pub what: String,
    pub target: i32,
    pub modifiers: Vec<Modifier>,
    pub net_target: i32,
    pub chance: f32,
}

impl ThrowOdds {
    fn of(
        world: &World,
        who: Entity,
        what: &str,
        target: i32,
        modifiers: Vec<Modifier>,
    ) -> Option<Self> {
        let thrower = Thrower::of(world, who)?;
        let (net_target, chance) =
            delve_rules::rules::throws::chance(&thrower, ThrowKind::Check, &modifiers, target);
        Some(Self {
            what: what.to_owned(),
            target,
            modifiers,
            net_target,
            chance,
        })
    }
}

impl fmt::Display for ThrowOdds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}+", self.what, self.target)?;
        for m in &self.modifiers {
            write!(f, " {:+} ({})", m.value, m.source)?;
        }
        write!(
            f,
            ": {}+ on the d20, {:.0}% a round",
            self.net_target,
            self.chance * 100.0
        )
    }
}

/// `squeeze --who NAME --at X,Y` and `swim --who NAME --at X,Y`: the throw that creature would
/// make each round there (none when it needs none), and what follows from it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CavingAnswer {
    pub question: &'static str,
    pub who: String,
    pub at: GridPos,
    /// The throw each round; `None` when no throw is needed (or it may not try).
    pub throw: Option<ThrowOdds>,
    /// Whether the rules let it try at all.
    pub permitted: bool,
    /// A jump's gap in feet, and its chances of clearing it with and without a run-up.
    pub gap_feet: Option<u32>,
    pub jump_chances: Option<(f32, f32)>,
    /// What success and failure mean, and the numbers that go with them.
    pub notes: Vec<String>,
}

impl fmt::Display for CavingAnswer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at {}: ", self.who, self.at)?;
        match (&self.throw, self.permitted) {
            (Some(t), _) => write!(f, "{t}")?,
            (None, true) => write!(f, "no throw needed")?,
            (None, false) => write!(f, "not permitted")?,
        }
        for n in &self.notes {
            write!(f, "\n  {n}")?;
        }
        Ok(())
    }
}

pub(super) fn terrain_must_be(
    world: &World,
    at: GridPos,
    wanted: delve_ground::grid::Terrain,
    what: &str,
) -> Result<(), String> {
    let grid = world.resource::<DungeonGrid>();
    check_square(grid, at, "at")?;
    match grid.terrain(at) {
        Some(t) if t == wanted => Ok(()),
        Some(t) => Err(format!("{at} is {t:?}, not {what}")),
        None => Err(format!("{at} is off the map")),
    }
}

/// `squeeze`: the Squeezing throw a creature would make in the squeeze at `at`.
pub fn squeeze(world: &World, at: GridPos, who: &str) -> Result<CavingAnswer, String> {
    use delve_rules::rules::caving::squeezing_modifiers;
    use delve_rules::rules::throws::{stone_of, stone_target};
    terrain_must_be(world, at, delve_ground::grid::Terrain::Squeeze, "a squeeze")?;
    let e = creature(world, who)?;
    let stone = stone_of(world.get::<Encumbrance>(e));
    let no_profs = Proficiencies::default();
    let no_conditions = Conditions::default();
    let mods = squeezing_modifiers(
        world.get::<Proficiencies>(e).unwrap_or(&no_profs),
        world.get::<Conditions>(e).unwrap_or(&no_conditions),
        world.get_resource::<SituationalPenaltiesOn>().is_some(),
    );
    let throw = ThrowOdds::of(world, e, "Squeezing", stone_target(stone), mods)
        .ok_or_else(|| format!("`{who}` has no name to throw under"))?;
    Ok(CavingAnswer {
        question: "squeeze",
        who: who.to_owned(),
        at,
        throw: Some(throw),
        permitted: true,
        gap_feet: None,
        jump_chances: None,
        notes: vec![
            format!("the target is its encumbrance, {stone} stone"),
            "failing, no progress that round; failing on a 1, stuck and vulnerable: wiggle back \
             (Paralysis save) or push forward (Dungeonbashing), encumbrance a penalty, +4 \
             Contortionism, -4 per failed push forward"
                .into(),
        ],
    })
}

/// `swim`: the Swimming throw a creature would make in the deep water at `at`, its swimming
/// speeds, and its breath.
pub fn swim(world: &World, at: GridPos, who: &str) -> Result<CavingAnswer, String> {
    use delve_ground::grid::Terrain;
    use delve_ground::grid::WaterDepth;
    use delve_rules::rules::water::{breath_rounds, sinks_feet, swimming_throw_at};
    terrain_must_be(
        world,
        at,
        Terrain::Water(WaterDepth::Deep),
        "water over the head",
    )?;
    let e = creature(world, who)?;
    let throw = match swimming_throw_at(world, e, Some(at)) {
        Some((target, mods)) => Some(
            ThrowOdds::of(world, e, "Swimming", target, mods)
                .ok_or_else(|| format!("`{who}` has no name to throw under"))?,
        ),
        None => None,
    };
    let stone = delve_rules::rules::throws::stone_of(world.get::<Encumbrance>(e));
    let con = world.get::<Abilities>(e).map_or(10, |a| a.0.con);
    let conditions = world.get::<Conditions>(e).cloned().unwrap_or_default();
    let mut notes = Vec::new();
    if let Some(enc) = world.get::<Encumbrance>(e)
        && let Some(s) = Speeds::of(enc.0, &conditions)
    {
        // A quarter of its speed, or its swimming speed (what deep water costs it).
        let swimmer = world.get::<SwimmingSpeed>(e);
        let share = WaterCost::of(enc.0, swimmer).share();
        notes.push(format!(
            "afloat it swims {}' a round at combat pace (and may attack) or {}' running (no \
             attack; the running rules apply){}",
            s.rated(Pace::Combat) * share,
            s.rated(Pace::Running) * share,
            if swimmer.is_some() {
                ": its swimming speed"
            } else {
                ": a quarter of its speed"
            }
        ));
    }
    // RULINGS › Water.
    if world.get::<SwimmingSpeed>(e).is_some() {
        notes.push(
            "at home in water (a swimming speed): no Swimming throw, no water penalty at any depth"
                .into(),
        );
    } else {
        if !world
            .get::<Proficiencies>(e)
            .is_some_and(|p| p.has(Proficiency::Swimming))
        {
            notes.push(
                "without the Swimming proficiency it always throws, and succeeds at a net \
                 target of 1 or less"
                    .into(),
            );
        }
        if world.get_resource::<SituationalPenaltiesOn>().is_some() {
            notes.push(
                "afloat, its other checks take -6 (swimming at the surface; its Swimming throw \
                 takes none); sinking or drowning, -8 (fully submerged)"
                    .into(),
            );
        }
    }
    let depth = world.get_resource::<WaterDepths>().map_or(0, |w| w.at(at));
    notes.push(format!(
        "drowning, it sinks {}' a round (to {depth}') and holds its breath {} rounds",
        sinks_feet(stone),
        breath_rounds(con)
    ));
    Ok(CavingAnswer {
        question: "swim",
        who: who.to_owned(),
        at,
        throw,
        permitted: true,
        gap_feet: None,
        jump_chances: None,
        notes,
    })
}

/// `climb --who NAME --at X,Y`: climbing down into (or, from its bottom, out of) the pit or
/// chasm square at `at`: the Climbing throw, its chance, speed and how many throws.
pub fn climb(world: &mut World, at: GridPos, who: &str) -> Result<CavingAnswer, String> {
    use delve_ground::level::schema::Surface;
    use delve_rules::rules::caving::climbing::{
        ADVENTURING_CLIMB, FEET_PER_THROW, climbing_target, hole_at, next_throw_at, rope_in,
    };
    check_square(world.resource::<DungeonGrid>(), at, "at")?;
    let depth = hole_at(world, at)
        .ok_or_else(|| format!("{at} is neither a chasm square nor an open pit"))?;
    let e = creature(world, who)?;
    let rope = rope_in(world, at);
    let surface = delve_rules::rules::caving::climbing::side_of(world, at);
    // A supervising mountaineer's throw counted (Dungeon Delves › Climbing).
    let profs = delve_rules::rules::caving::climbing::supervised_proficiencies(world, e);
    let mut notes = vec![format!(
        "{depth}' of {surface:?} wall{}",
        if rope { " (a rope hangs there)" } else { "" }
    )];
    if let Some((m, value)) = delve_rules::rules::caving::climbing::supervisor(world, e) {
        notes.push(format!(
            "supervised by {} beside it (Mountaineering {value}+), while it stays beside",
            delve_rules::creature::name_of(world, m)
        ));
    }
    let throws = (0..)
        .take_while(|&k| next_throw_at(depth, k).is_some())
        .count();
    notes.push(format!(
        "{throws} throw(s), at the middle of each {FEET_PER_THROW}'"
    ));
    let climbs =
        delve_rules::rules::caving::climbing::climbing_feet_per_round(world, e, ClimbPace::Third);
    if climbs > 0.0 {
        notes.push(format!(
            "it climbs {climbs:.1}' a round (its exploration speed; a third of its combat speed \
             in a battle)"
        ));
    }
    let permitted = climbing_target(&profs, surface).is_some();
    let throw = match climbing_target(&profs, surface) {
        Some(target) => {
            // Dungeon Delves › Climbing: proficient in both Climbing and Mountaineering, with
            // mountaineering gear, at a third of its combat speed (the pace asked of here), it
            // never falls from an easy obstacle, and from a sheer surface only on a 1.
            let sure = delve_rules::rules::caving::climbing::sure_climber(world, e);
            notes.push(match (surface, sure) {
                (Surface::Easy, false) => format!(
                    "failing: no progress that round; a 1: a fall (Adventuring throws {ADVENTURING_CLIMB}+)"
                ),
                (Surface::Easy, true) => "failing: no progress that round; it never falls \
                    (Climbing and Mountaineering, with mountaineering gear, at a third of its \
                    combat speed)"
                    .into(),
                (Surface::Sheer, false) => "failing: a fall from the point of the throw".into(),
                (Surface::Sheer, true) => "failing: no progress that round; a 1: a fall from \
                    the point of the throw (Climbing and Mountaineering, with mountaineering \
                    gear, at a third of its combat speed)"
                    .into(),
            });
            let mut mods = delve_rules::rules::penalties::check_penalties(world, e, None);
            mods.extend(delve_rules::rules::calls::judge_modifier(
                world,
                JudgeModifier::ClimbingConditions,
                Some(at),
                &[e],
            ));
            ThrowOdds::of(world, e, "Climbing", target, mods)
        }
        None => {
            notes.push(
                "it may not climb a sheer wall: only those proficient in Climbing or \
                 Mountaineering may (a rope lowered from above makes it easy)"
                    .into(),
            );
            None
        }
    };
    Ok(CavingAnswer {
        question: "climb",
        who: who.to_owned(),
        at,
        throw,
        permitted,
        gap_feet: None,
        jump_chances: None,
        notes,
    })
}

/// `jump --who NAME --at X,Y [--from X,Y]`: a jump across the chasm to `at` from `from` (where
/// the creature stands, unless given): the gap, and its chance of clearing it with and without
/// a run-up (each face of the d6).
pub fn jump(
    world: &World,
    at: GridPos,
    who: &str,
    from: Option<GridPos>,
) -> Result<CavingAnswer, String> {
    use delve_rules::rules::caving::jumping::{Jumper, over_the_gap};
    let grid = world.resource::<DungeonGrid>();
    check_square(grid, at, "at")?;
    let e = creature(world, who)?;
    let from = match from {
        Some(p) => {
            check_square(grid, p, "from")?;
            p
        }
        None => world
            .get::<Position>(e)
            .map(|p| p.0)
            .ok_or_else(|| format!("`{who}` has no square"))?,
    };
    let (_, gap) = over_the_gap(world, from, at).ok_or_else(|| {
        format!("{at} is not straight across holes (a chasm, an open pit) from {who} at {from}")
    })?;
    let j = Jumper::of(world, e).ok_or_else(|| format!("`{who}` cannot move"))?;
    let notes = vec![
        format!(
            "a {gap}' gap: DEX {} + 1d6 - {} stone{}",
            j.dex,
            j.stone,
            if j.factor != 1.0 {
                format!(", x {} (running speed / 120)", j.factor)
            } else {
                String::new()
            }
        ),
        format!(
            "with a 20' run-up: {:.0}%; without (halved): {:.0}%",
            j.chance(gap, true) * 100.0,
            j.chance(gap, false) * 100.0
        ),
        "short: into the chasm where it comes down".into(),
    ];
    Ok(CavingAnswer {
        question: "jump",
        who: who.to_owned(),
        at,
        throw: None,
        permitted: true,
        gap_feet: Some(gap),
        jump_chances: Some((j.chance(gap, true), j.chance(gap, false))),
        notes,
    })
}
