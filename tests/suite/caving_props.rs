//! Caving never breaks the world: whatever caving commands a creature is given on whatever
//! ledges, chasms and rubble, nothing panics and no creature ends up inside a wall or rock.

use delve_ground::grid::Terrain;
use delve_ground::grid::{DungeonGrid, GridPos};
use delve_play::scenario::Scenario;
use delve_rules::command::Command;
use delve_rules::command::acts::{
    Belay, Climb, ClimbDown, CrawlAcross, Jump, LowerRope, Move, PushForward, RigTraverse,
    TakeUpRope, ThrowGrapplingHook, Traverse, WiggleBack,
};
use delve_rules::rules::caving::ClimbPace;
use delve_rules::rules::movement::Pace;
use proptest::prelude::*;

const WIDTH: usize = 8;

fn command(kind: u8, who: &str, to: (i32, i32), flag: bool) -> Command {
    let who = who.to_owned();
    let pace = if flag {
        ClimbPace::Half
    } else {
        ClimbPace::Third
    };
    match kind % 13 {
        0 => Climb { who, to, pace }.into(),
        1 => ClimbDown {
            who,
            into: to,
            rappel: flag,
            pace,
        }
        .into(),
        2 => Jump {
            who,
            to,
            from: None,
            running: flag,
        }
        .into(),
        3 => Traverse { who, to, pace }.into(),
        4 => RigTraverse { who, to }.into(),
        5 => CrawlAcross { who, to, pace }.into(),
        6 => LowerRope { who, at: to }.into(),
        7 => ThrowGrapplingHook { who }.into(),
        8 => Belay {
            who,
            climber: "Ann".into(),
        }
        .into(),
        9 => WiggleBack { who }.into(),
        10 => PushForward { who }.into(),
        11 => TakeUpRope { who, at: to }.into(),
        _ => Move {
            who,
            to,
            pace: if flag { Pace::Running } else { Pace::Combat },
        }
        .into(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn caving_commands_never_panic_or_put_a_creature_in_rock(
        rows in proptest::collection::vec("[.CLS:X]{8}", 3),
        orders in proptest::collection::vec(
            (0u8..13, 0usize..2, 0i32..(WIDTH as i32 + 2), 0i32..5, any::<bool>()),
            1..16
        ),
        seed in 0u64..1000,
    ) {
        let mut map = vec!["X".repeat(WIDTH + 2)];
        for (i, r) in rows.iter().enumerate() {
            // The creatures' squares are floor.
            let r = if i == 0 { format!("..{}", &r[2..]) } else { r.clone() };
            map.push(format!("X{r}X"));
        }
        map.push("X".repeat(WIDTH + 2));
        let map: Vec<&str> = map.iter().map(String::as_str).collect();
        let mut delve = Scenario::new(&map)
            .legend("'C': Chasm(depth_feet: 20)")
            .legend("'L': Ledge(width_inches: 3)")
            .legend("'S': Squeeze")
            .legend("':': Rubble")
            .light("(at: (1, 1), kind: Custom(bright_feet: 80, dim_feet: 80), lit: true)")
            .faction(r#"(name: "party")"#)
            .creature(
                r#"(name: "Ann", faction: "party", at: (1, 1), hp: 40, ac: 12, encumbrance_stone: 3.0,
                    level: 3, saves: { Paralysis: 12 }, attack_bonus: 1,
                    proficiencies: [Climbing, Mountaineering, Acrobatics],
                    throws: { Climbing: 8, Mountaineering: 8 },
                    gear: [Rope(50), GrapplingHook, MountaineeringGear])"#,
            )
            .creature(
                r#"(name: "Bo", faction: "party", at: (2, 1), hp: 40, ac: 12, encumbrance_stone: 9.0,
                    saves: { Paralysis: 14 }, gear: [Rope(50)])"#,
            )
            .seed(seed)
            .build();
        for (kind, who, x, y, flag) in orders {
            let who = ["Ann", "Bo"][who];
            delve.give(command(kind, who, (x, y), flag));
            delve.run(2);
            let grid = delve.world().resource::<DungeonGrid>().clone();
            for name in ["Ann", "Bo"] {
                let at: GridPos = delve.at(name);
                let t = grid.terrain(at);
                prop_assert!(
                    !matches!(t, Some(Terrain::Wall(_) | Terrain::Rock) | None),
                    "{name} is at {at}, in {t:?}"
                );
            }
        }
    }
}
