//! The command line's subcommands that are more than a call: `delve sim`, `delve lab` and
//! `delve query`, each with its arguments.

pub mod lab;
pub mod query;
pub mod sim;

use std::path::Path;
use std::process::ExitCode;

/// `delve generate --situation NAME --seed N --out DIR`: writes the instance's level and its
/// expectations, and says where.
pub fn generate_situation(name: &str, seed: u64, out: &Path) -> ExitCode {
    let drawn = match delve::situations::generate(name, seed) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let level = out.join(format!("{name}-{seed}.ron"));
    let expect = out.join(format!("{name}-{seed}.expect.ron"));
    let written = std::fs::create_dir_all(out)
        .and_then(|()| std::fs::write(&level, &drawn.level))
        .and_then(|()| std::fs::write(&expect, &drawn.expect));
    match written {
        Ok(()) => {
            println!("wrote {}", level.display());
            println!("wrote {}", expect.display());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{}: {e}", out.display());
            ExitCode::from(1)
        }
    }
}
