//! "Why not?" ([`engine::Game::explain`]): the rule each action follows, and why
//! a well-formed action is not legal now. The reasons come from the checks and the option
//! lists the turn machine builds its legal actions from ([`crate::checks`],
//! [`Valley::raw_decisions`]); codes and their arguments: `docs/contract.md`.

use engine::{Game, Refusal, Seat};

use crate::actions::Action;
use crate::data::Prim;
use crate::pyramid::{M0, M1};
use crate::state::{Frame, Phase, Stage, Valley};

/// The decision pending now: what the seat to move is asked for (K-T3, K-T4b, K-T12,
/// K-T17, K-R4, K-E0).
#[derive(Clone, Copy)]
enum Pending {
    Crumble,
    Effect(Frame),
    Menu,
    Paying,
    Reaction,
    Rebuild,
}

fn pending(game: &Valley) -> Option<Pending> {
    if game.crumble.is_some() {
        return Some(Pending::Crumble);
    }
    if let Some(f) = game.frames.last() {
        return Some(Pending::Effect(*f));
    }
    match game.phase {
        Phase::Play => Some(Pending::Menu),
        Phase::Paying { .. } => Some(Pending::Paying),
        Phase::Window { asking: true, .. } => Some(Pending::Reaction),
        Phase::Rebuild => Some(Pending::Rebuild),
        Phase::Window { .. } | Phase::Finishing | Phase::Over => None,
    }
}

/// The rule of a part's primitive (K-E1..K-E16).
fn rule_of_prim(prim: Prim) -> &'static str {
    match prim {
        Prim::Draw { .. } => "K-E1",
        Prim::Reveal => "K-E2",
        Prim::Execute => "K-E3",
        Prim::Discard { .. } => "K-E4",
        Prim::Entomb { .. } => "K-E5",
        Prim::Take { .. } => "K-E6",
        Prim::Sacrifice { .. } => "K-E7",
        Prim::Give => "K-E9",
        Prim::GoldModifier { .. } => "K-E10",
        Prim::RepeatAction => "K-E11",
        Prim::Condition(_) => "K-E12",
        Prim::GrantEntomb { .. } => "K-E13",
        Prim::PurchaseScope => "K-E14",
        Prim::Reserve => "K-E15",
        Prim::LookTop { .. } => "K-E16",
    }
}

/// The rule of the part the top frame is resolving.
fn rule_of_part(game: &Valley, f: &Frame) -> &'static str {
    game.parts(f.program)
        .get(usize::from(f.part))
        .map_or("K-E0", |part| rule_of_prim(part.prim))
}

/// The rule `action` follows.
pub(crate) fn rule_of(game: &Valley, action: &Action) -> &'static str {
    match action {
        Action::BeginPurchase { .. } | Action::Pay { .. } => "K-T4",
        Action::PlayAction { .. } => "K-T6",
        Action::Entomb { .. } => "K-T8",
        Action::UsePharaoh => "K-T9",
        Action::EndPlay => "K-T10",
        Action::Sacrifice { .. } => "K-T12",
        Action::CrumbleFrom { .. } => "K-T17",
        Action::React { .. } | Action::Decline => "K-R4",
        // A pick follows the part it is made in; Accept, Skip and Done its "may" or count.
        Action::Choose { .. } | Action::ChooseSlot { .. } => match game.frames.last() {
            Some(f) => rule_of_part(game, f),
            None => "K-E0",
        },
        Action::Accept | Action::Skip | Action::Done => "K-T7",
    }
}

/// Why `seat` may not take `action` now; `None` when it may.
pub(crate) fn explain(game: &Valley, seat: Seat, action: &Action) -> Option<Refusal> {
    let Some(to_move) = game.to_move() else {
        return Some(Refusal::new("K-G1", "game_over"));
    };
    if to_move != seat {
        return Some(not_your_decision(game, to_move));
    }
    if game.is_legal(action) {
        return None;
    }
    // The checks list the legal actions, so a refused action has a reason; the fallback
    // only keeps "why not?" total should the two ever drift apart.
    let fallback = || Refusal::new(rule_of(game, action), "not_offered_now");
    let refusal = match pending(game) {
        Some(step) => wrong_step(step, action)
            .or_else(|| refuse_in_step(game, step, to_move, action).err())
            .unwrap_or_else(fallback),
        None => fallback(),
    };
    Some(refusal)
}

/// Somebody else decides now: the active seat (K-T3), an asked seat (K-R4), the seat
/// choosing where a card falls (K-T19) or an opponent resolving a part (K-R7).
fn not_your_decision(game: &Valley, to_move: Seat) -> Refusal {
    let rule = match pending(game) {
        Some(Pending::Crumble) => "K-T19",
        Some(Pending::Effect(f)) if f.opponent > 0 => "K-R7",
        Some(Pending::Reaction) => "K-R4",
        _ => "K-T3",
    };
    Refusal::new(rule, "not_your_turn").with("to_move", to_move)
}

/// The action is no decision of the pending step: names the step.
fn wrong_step(step: Pending, action: &Action) -> Option<Refusal> {
    use Action::*;
    let (fits, rule, code, name) = match step {
        Pending::Crumble => (
            matches!(action, CrumbleFrom { .. }),
            "K-T17",
            "must_choose_crumble",
            "crumble",
        ),
        Pending::Effect(_) => (
            matches!(
                action,
                Choose { .. } | ChooseSlot { .. } | Accept | Skip | Done
            ),
            "K-T6",
            "must_finish_action",
            "action",
        ),
        Pending::Menu => (
            matches!(
                action,
                BeginPurchase { .. } | PlayAction { .. } | Entomb { .. } | UsePharaoh | EndPlay
            ),
            "K-T3",
            "only_in_play_menu",
            "play",
        ),
        Pending::Paying => (matches!(action, Pay { .. }), "K-T4", "must_pay", "paying"),
        Pending::Reaction => (
            matches!(action, React { .. } | Decline),
            "K-R4",
            "must_react_or_decline",
            "reaction",
        ),
        Pending::Rebuild => (
            matches!(action, Sacrifice { .. }),
            "K-T12",
            "must_sacrifice",
            "rebuild",
        ),
    };
    (!fits).then(|| Refusal::new(rule, code).with("step", name))
}

/// The action's own conditions in the pending step (the step fits).
fn refuse_in_step(
    game: &Valley,
    step: Pending,
    seat: Seat,
    action: &Action,
) -> Result<(), Refusal> {
    let checked = match (step, *action) {
        (Pending::Menu, Action::BeginPurchase { slot }) => game.check_purchase(seat, slot),
        (Pending::Menu, Action::PlayAction { card }) => game.check_play(seat, card),
        (Pending::Menu, Action::Entomb { card }) => game.check_entomb(seat, card),
        (Pending::Menu, Action::UsePharaoh) => game.check_pharaoh(seat),
        (Pending::Paying, Action::Pay { card }) => game.check_pay(seat, card),
        (Pending::Reaction, Action::React { card }) => game.check_react(seat, card),
        (Pending::Rebuild, Action::Sacrifice { slot }) => game.check_sacrifice(seat, slot),
        _ => return refuse_outside_checks(game, step, action),
    };
    checked.map_err(Refusal::from)
}

/// The refusals of the steps whose decisions have no check of their own: the crumble's
/// choice and the parts of an action.
fn refuse_outside_checks(game: &Valley, step: Pending, action: &Action) -> Result<(), Refusal> {
    match (step, *action) {
        // rule K-T17: only a base-centre gap under both middle cards asks.
        (Pending::Crumble, Action::CrumbleFrom { slot }) if slot != M0 && slot != M1 => {
            Err(Refusal::new("K-T17", "not_a_middle_slot"))
        }
        (Pending::Effect(f), _) => refuse_in_effect(game, &f, action),
        _ => Ok(()),
    }
}

/// A decision inside a card's action (K-T7): not among the part's options, one that
/// would leave the action unable to finish (K-T7b), or a `Skip`/`Done` the part refuses.
fn refuse_in_effect(game: &Valley, f: &Frame, action: &Action) -> Result<(), Refusal> {
    let mut offered = Vec::new();
    game.raw_decisions(&mut offered);
    if offered.contains(action) {
        // Offered, but not legal: K-T7b filtered it out.
        return Err(Refusal::new("K-T7", "choice_leads_nowhere"));
    }
    let part = game.parts(f.program).get(usize::from(f.part)).copied();
    match (action, part) {
        (Action::Done, Some(part)) if f.stage == Stage::Choosing && f.picks < part.min => {
            Err(Refusal::new("K-T7", "more_picks_needed")
                .with("need", part.min)
                .with("have", f.picks))
        }
        (Action::Skip, _) => Err(Refusal::new("K-T7", "part_not_optional")),
        (Action::Accept, _) | (Action::Done, _) => Err(Refusal::new("K-T7", "not_offered_now")),
        _ => Err(Refusal::new(rule_of_part(game, f), "not_a_choice")),
    }
}
