//! Rewards in [0, 1] per seat, summing to 1: the share of the victory.

use engine::{Game, Outcome};

use crate::Evaluation;

/// At the end: 1/k for each of the k winners (shared victory split), 0 for the others.
pub fn outcome_rewards(outcome: &Outcome, out: &mut [f64]) {
    out.fill(0.0);
    let winners = outcome.winners().count().max(1) as f64;
    for seat in outcome.winners() {
        if let Some(r) = out.get_mut(usize::from(seat)) {
            *r = 1.0 / winners;
        }
    }
}

/// Before the end: each seat's chance of winning estimated from the evaluations, a
/// softmax with `temperature` points (a lead of `temperature` points counts e:1); at the
/// end, [`outcome_rewards`].
///
/// A stalled game ([`Game::stalled`]) is judged by the same softmax of the points as they
/// stand, ended or not: otherwise a seat that could end it only by losing (0 at the end)
/// would keep it running for the sliver of a chance the evaluations leave it.
pub fn position_rewards<G: Game>(
    state: &G,
    (evaluation, temperature): (Evaluation, f64),
    out: &mut [f64],
) {
    let stalled = state.stalled();
    if !stalled {
        if let Some(outcome) = state.outcome() {
            outcome_rewards(&outcome, out);
            return;
        }
    }
    let mut best = f64::NEG_INFINITY;
    for (seat, r) in out.iter_mut().enumerate() {
        let seat = seat as engine::Seat;
        let points = if stalled {
            state.points_now(seat)
        } else {
            evaluation.of(state, seat)
        };
        *r = points / temperature;
        best = best.max(*r);
    }
    let mut total = 0.0;
    for r in out.iter_mut() {
        *r = (*r - best).exp();
        total += *r;
    }
    for r in out.iter_mut() {
        *r /= total;
    }
}
