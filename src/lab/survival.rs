//! Difficulty as survival: the share of delves still going and of members still standing by
//! turn (the Kaplan–Meier estimate), and the hazard by turn (of those going at its start, the
//! share that ended in it). A delve that hit the policy's turn limit did not end of itself: it
//! is censored there, counted among those at risk up to it and never as an ending; a member
//! still standing at a delve's end is censored at that end.

use super::RunRecord;
use delve_minds::policy::outcome::Outcome;

/// One delve or member: the turn it ended (or went down), and whether it did (else censored).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Observed {
    pub turn: f64,
    pub ended: bool,
}

/// The delves of a lab as survival observations: each ends at its last turn, those that hit
/// the turn limit censored.
pub fn delves(records: &[&RunRecord]) -> Vec<Observed> {
    records
        .iter()
        .filter_map(|r| {
            Some(Observed {
                turn: r.tally.turns as f64,
                ended: r.outcome? != Outcome::OutOfTime,
            })
        })
        .collect()
}

/// The members of the party in each delve: each goes down at the turn it was brought down,
/// else it is censored at the delve's end.
pub fn members(records: &[&RunRecord], party_size: usize) -> Vec<Observed> {
    let mut out = Vec::new();
    for r in records.iter().filter(|r| r.outcome.is_some()) {
        let mut down = 0;
        for c in &r.features.casualties {
            if let Some(t) = c.turn {
                out.push(Observed {
                    turn: t as f64,
                    ended: true,
                });
                down += 1;
            }
        }
        for _ in down..party_size {
            out.push(Observed {
                turn: r.tally.turns as f64,
                ended: false,
            });
        }
    }
    out
}

/// The Kaplan–Meier estimate: at each turn an ending happened, the share still going just after
/// it, `S(t) = Π (1 − dᵢ/nᵢ)` over the ending turns up to `t`, with `nᵢ` those at risk (not
/// ended nor censored before `tᵢ`) and `dᵢ` those ending at `tᵢ`.
pub fn kaplan_meier(observed: &[Observed]) -> Vec<(f64, f64)> {
    let mut obs = observed.to_vec();
    obs.sort_by(|a, b| a.turn.total_cmp(&b.turn));
    let mut at_risk = obs.len();
    let mut s = 1.0;
    let mut curve = Vec::new();
    let mut i = 0;
    while i < obs.len() {
        let t = obs[i].turn;
        let (mut ended, mut gone) = (0, 0);
        while i < obs.len() && obs[i].turn == t {
            ended += usize::from(obs[i].ended);
            gone += 1;
            i += 1;
        }
        if ended > 0 {
            s *= 1.0 - ended as f64 / at_risk as f64;
            curve.push((t, s));
        }
        at_risk -= gone;
    }
    curve
}

/// The estimate at turn `t`: the share still going after every ending at or before it.
pub fn at(curve: &[(f64, f64)], t: f64) -> f64 {
    curve
        .iter()
        .take_while(|(u, _)| *u <= t)
        .last()
        .map_or(1.0, |(_, s)| *s)
}

/// The hazard of each turn `k` from 1 to `turns`: of those going at its start (turn k − 1),
/// the share that ended during it; with those at risk and those that ended.
pub fn hazard_by_turn(observed: &[Observed], turns: u32) -> Vec<(u32, f64, usize, usize)> {
    (1..=turns)
        .map(|k| {
            let (from, to) = ((k - 1) as f64, k as f64);
            let at_risk = observed.iter().filter(|o| o.turn > from).count();
            let ended = observed
                .iter()
                .filter(|o| o.ended && o.turn > from && o.turn <= to)
                .count();
            let h = if at_risk == 0 {
                0.0
            } else {
                ended as f64 / at_risk as f64
            };
            (k, h, at_risk, ended)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn o(turn: f64, ended: bool) -> Observed {
        Observed { turn, ended }
    }

    /// The textbook case: 6 observed, 3 ended at 1, 3 and 5; censored at 2 and 4 and 6.
    /// S(1) = 5/6, S(3) = 5/6 · 3/4 = 0.625, S(5) = 0.625 · 1/2 = 0.3125.
    #[test]
    fn kaplan_meier_counts_the_censored_at_risk_until_they_leave() {
        let curve = kaplan_meier(&[
            o(1.0, true),
            o(2.0, false),
            o(3.0, true),
            o(4.0, false),
            o(5.0, true),
            o(6.0, false),
        ]);
        assert_eq!(curve.len(), 3);
        assert!((at(&curve, 1.0) - 5.0 / 6.0).abs() < 1e-9);
        assert!((at(&curve, 3.5) - 0.625).abs() < 1e-9);
        assert!((at(&curve, 10.0) - 0.3125).abs() < 1e-9);
        assert_eq!(at(&curve, 0.5), 1.0);
    }

    /// Every delve ends at turn 5: the curve is whole until 5 and nothing after; the hazard
    /// of turn 5 is all of them.
    #[test]
    fn every_delve_ending_at_turn_five_drops_the_curve_to_zero_at_five() {
        let obs = vec![o(5.0, true); 20];
        let curve = kaplan_meier(&obs);
        assert_eq!(at(&curve, 4.9), 1.0);
        assert_eq!(at(&curve, 5.0), 0.0);
        let h = hazard_by_turn(&obs, 6);
        assert_eq!(h[4], (5, 1.0, 20, 20));
        assert_eq!(h[5], (6, 0.0, 0, 0));
    }
}
