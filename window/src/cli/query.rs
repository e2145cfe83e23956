//! `delve query`: a Judge's question about a level answered without running a delve (as text,
//! or as one JSON object).

use delve_ground::level::schema::Environment;
use delve_rules::rules::sound::SoundRow;

use std::path::Path;
use std::process::ExitCode;

use clap::Subcommand;

use delve::query;
use delve_ground::grid::GridPos;

use crate::load;

#[derive(Subcommand)]
pub enum Question {
    /// Is there line of sight between two squares, and how far apart are they (5-10-5 feet)?
    Los {
        #[arg(long, value_name = "X,Y")]
        from: GridPos,
        #[arg(long, value_name = "X,Y")]
        to: GridPos,
    },
    /// A creature's exploration, combat and running speeds, and why.
    Speeds {
        #[arg(long, value_name = "NAME")]
        who: String,
    },
    /// The light level of a square, or of the whole map as text.
    Light {
        #[arg(long, value_name = "X,Y")]
        at: Option<GridPos>,
    },
    /// How far a noise carries: earshot distance and verdict at a square, or a map of verdicts.
    Hear {
        #[arg(long, value_name = "X,Y")]
        from: GridPos,
        /// The earshot table's row.
        #[arg(long, value_enum)]
        sound: SoundRow,
        #[arg(long, value_name = "X,Y")]
        at: Option<GridPos>,
        /// The table's column; the level's environment when left out.
        #[arg(long, value_enum)]
        environment: Option<Environment>,
    },
    /// The ways a creature can get through a door, each with its time and chance.
    Door {
        #[arg(long, value_name = "X,Y")]
        at: GridPos,
        #[arg(long, value_name = "NAME")]
        who: String,
    },
    /// The Squeezing throw a creature would make in a squeeze, with every modifier and its chance.
    Squeeze {
        #[arg(long, value_name = "X,Y")]
        at: GridPos,
        #[arg(long, value_name = "NAME")]
        who: String,
    },
    /// The Swimming throw a creature would make in water over the head, its speeds and breath.
    Swim {
        #[arg(long, value_name = "X,Y")]
        at: GridPos,
        #[arg(long, value_name = "NAME")]
        who: String,
    },
    /// Climbing down into (or out of) a pit or chasm square: the throw, its chance, speed.
    Climb {
        #[arg(long, value_name = "X,Y")]
        at: GridPos,
        #[arg(long, value_name = "NAME")]
        who: String,
    },
    /// A jump across a chasm to a square (from where the creature stands, or `--from`): the gap
    /// and the chances with and without a run-up.
    Jump {
        #[arg(long, value_name = "X,Y")]
        at: GridPos,
        #[arg(long, value_name = "NAME")]
        who: String,
        #[arg(long, value_name = "X,Y")]
        from: Option<GridPos>,
    },
    /// Faction initiative as if every faction met: members, modifiers, rolls, results, order.
    Initiative {
        /// Seed for the dice.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// What a creature may do where it stands, as the rules offer it (the window's action
    /// list): each way with its time and chance.
    Choices {
        #[arg(long, value_name = "NAME")]
        who: String,
    },
    /// The attack a creature would make on another with each of its weapons (or the one
    /// named): every modifier of the throw and its chance, and the damage with the target's
    /// armor DR by type; or why it cannot attack.
    Attack {
        #[arg(long, value_name = "NAME")]
        who: String,
        #[arg(long, value_name = "NAME")]
        target: String,
        #[arg(long, value_name = "NAME")]
        weapon: Option<String>,
    },
    /// The squares a creature sees, as the level stands.
    Sees {
        #[arg(long, value_name = "NAME")]
        who: String,
    },
    /// The shortest walk between two squares and its length in feet.
    Path {
        #[arg(long, value_name = "X,Y")]
        from: GridPos,
        #[arg(long, value_name = "X,Y")]
        to: GridPos,
    },
}

pub fn run_query(path: &Path, question: Question, json: bool, after: u64) -> ExitCode {
    let Some(loaded) = load(path) else {
        return ExitCode::from(1);
    };
    // The delve as it stands before the first round (or `after` rounds of it, no one given a
    // command): the questions are asked of its world.
    let mut app = delve_play::sim::sim_app(&loaded.level, 1);
    let world = app.world_mut();
    delve_play::sim::run_rounds(world, after);
    let answer: Result<(String, String), String> = match question {
        Question::Los { from, to } => {
            query::los(world, from, to).map(|a| (a.to_string(), to_json(&a)))
        }
        Question::Path { from, to } => {
            query::path(world, from, to).map(|a| (a.to_string(), to_json(&a)))
        }
        Question::Speeds { who } => {
            query::speeds(world, &who).map(|a| (a.to_string().trim_end().to_owned(), to_json(&a)))
        }
        Question::Light { at } => query::light(world, at).map(|a| (a.to_string(), to_json(&a))),
        Question::Choices { who } => {
            query::choices(world, &who).map(|a| (a.to_string(), to_json(&a)))
        }
        Question::Sees { who } => query::sees(world, &who).map(|a| (a.to_string(), to_json(&a))),
        Question::Attack {
            who,
            target,
            weapon,
        } => query::attack(world, &who, &target, weapon.as_deref())
            .map(|a| (a.to_string(), to_json(&a))),
        Question::Initiative { seed } => {
            query::initiative(world, seed).map(|a| (a.to_string(), to_json(&a)))
        }
        Question::Door { at, who } => {
            query::door(world, at, &who).map(|a| (a.to_string(), to_json(&a)))
        }
        Question::Squeeze { at, who } => {
            query::squeeze(world, at, &who).map(|a| (a.to_string(), to_json(&a)))
        }
        Question::Swim { at, who } => {
            query::swim(world, at, &who).map(|a| (a.to_string(), to_json(&a)))
        }
        Question::Climb { at, who } => {
            query::climb(world, at, &who).map(|a| (a.to_string(), to_json(&a)))
        }
        Question::Jump { at, who, from } => {
            query::jump(world, at, &who, from).map(|a| (a.to_string(), to_json(&a)))
        }
        Question::Hear {
            from,
            sound,
            at,
            environment,
        } => query::hear(world, from, sound, at, environment).map(|a| (a.to_string(), to_json(&a))),
    };
    match answer {
        Ok((text, json_text)) => {
            println!("{}", if json { json_text } else { text });
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{}: {e}", path.display());
            ExitCode::from(1)
        }
    }
}

fn to_json(v: &impl serde::Serialize) -> String {
    serde_json::to_string(v).expect("answers serialize")
}
