//! The table as text for a terminal player (`tabletop play`, `tabletop replay`).
//!
//! Everything drawn comes from [`Valley::view`] of the seat, so the text never shows more
//! than the seat may know (K-Z12): another seat's hand is a count, the deck a count.

use std::fmt::Write as _;

use engine::text::count;
use engine::Seat;

use crate::data::{
    Card, CardId, Category, Cmp, Dest, Expr, Extreme, Part, Pred, Prim, Rules, Zone,
};
use crate::scoring::score_tomb;
use crate::state::{Phase, Valley, NONE};
use crate::turn::distinct;
use crate::view::View;
use crate::{card_name, slot_name};

/// Pyramid slots from the top down, the way the pyramid stands on the table (K-Z9).
const SLOTS_TOP_DOWN: [u8; 6] = [5, 3, 4, 0, 1, 2];

impl Valley {
    pub(crate) fn render(&self, seat: Option<Seat>) -> String {
        let view = self.build_view(seat);
        let mut o = String::new();
        // Writing to a String cannot fail.
        let _ = self.write_table(&view, &mut o);
        o
    }

    fn write_table(&self, view: &View, o: &mut String) -> std::fmt::Result {
        let rules = &self.config.rules;
        let who = |s: Seat| {
            if view.seat == Some(s) {
                format!("seat {s} (you)")
            } else {
                format!("seat {s}")
            }
        };
        let mine = |s: Seat| view.seat == Some(s);
        match view.to_move {
            Some(to_move) => writeln!(
                o,
                "Valley of the Kings · {} · {}",
                if mine(view.active) {
                    "your turn".to_string()
                } else {
                    format!("seat {}'s turn", view.active)
                },
                if mine(to_move) {
                    "you decide".to_string()
                } else {
                    format!("seat {to_move} decides")
                }
            )?,
            None => writeln!(o, "Valley of the Kings · the game is over")?,
        }
        if view.provisional_data {
            writeln!(
                o,
                "(* marks a card with provisional data: a placeholder, not read from the card, K-A20)"
            )?;
        }

        writeln!(o, "\nPyramid (top row first; you buy from the base):")?;
        for slot in SLOTS_TOP_DOWN {
            match view.pyramid[usize::from(slot)] {
                Some(s) => {
                    let reserved = if s.reserved_by == NONE {
                        String::new()
                    } else {
                        format!(" [reserved by {}]", who(s.reserved_by))
                    };
                    writeln!(
                        o,
                        "  {:<3} {}{reserved}",
                        slot_name(slot),
                        card_line(rules, s.card)
                    )?;
                }
                None => writeln!(o, "  {:<3} (empty)", slot_name(slot))?,
            }
        }
        writeln!(
            o,
            "  stock: {} ({} of level II); boneyard: {}",
            count(view.stock_size as i64, "card", "cards"),
            view.stock_level_ii,
            count(view.boneyard.len() as i64, "card", "cards"),
        )?;

        if let Phase::Paying { slot, paid, cost } = view.phase {
            let card = view.pyramid[usize::from(slot)].map_or("?", |s| card_name(rules, s.card));
            writeln!(
                o,
                "\nBuying {card} from {}: {paid} of {cost} gold paid",
                slot_name(slot)
            )?;
        }

        for (i, z) in view.seats.iter().enumerate() {
            let s = i as Seat;
            writeln!(o, "\n{}:", capitalized(&who(s)))?;
            match &z.hand {
                Some(hand) => {
                    // The owner's gold: the turn's modifiers apply to the active seat only.
                    let gold: u32 = if s == view.active {
                        hand.iter()
                            .map(|&c| u32::from(self.effective_gold(c)))
                            .sum()
                    } else {
                        hand.iter().map(|&c| u32::from(rules.card(c).gold)).sum()
                    };
                    writeln!(
                        o,
                        "  hand ({}, {gold} gold available): {}",
                        count(hand.len() as i64, "card", "cards"),
                        names(rules, hand)
                    )?;
                    for card in distinct(hand) {
                        writeln!(o, "    {}", card_line(rules, card))?;
                    }
                }
                None => writeln!(
                    o,
                    "  hand: {}{}",
                    count(z.hand_size as i64, "card", "cards"),
                    if z.known_in_hand.is_empty() {
                        String::new()
                    } else {
                        format!(" (known: {})", names(rules, &z.known_in_hand))
                    }
                )?,
            }
            writeln!(
                o,
                "  deck: {}; discard pile: {}{}",
                count(z.deck_size as i64, "card", "cards"),
                count(z.discard.len() as i64, "card", "cards"),
                z.discard.last().map_or(String::new(), |&c| format!(
                    " (top: {})",
                    card_name(rules, c)
                ))
            )?;
            if !z.in_play.is_empty() {
                let paid: u32 = z
                    .in_play
                    .iter()
                    .filter(|(_, gold)| *gold)
                    .map(|&(c, _)| u32::from(self.effective_gold(c)))
                    .sum();
                let cards: Vec<String> = z
                    .in_play
                    .iter()
                    .map(|&(c, gold)| {
                        format!(
                            "{} ({})",
                            card_name(rules, c),
                            if gold { "gold" } else { "action" }
                        )
                    })
                    .collect();
                writeln!(o, "  in play ({paid} gold spent): {}", cards.join(", "))?;
            }
            if let Some(p) = z.pharaoh {
                let name = rules
                    .pharaohs
                    .get(usize::from(p))
                    .map_or("?", |p| p.name.as_str());
                writeln!(o, "  pharaoh: {name}")?;
            }
            write_tomb(rules, &z.tomb, o)?;
        }
        Ok(())
    }
}

/// A tomb grouped by scoring category with the points each group makes now (K-G3).
fn write_tomb(rules: &Rules, tomb: &[CardId], o: &mut String) -> std::fmt::Result {
    if tomb.is_empty() {
        return writeln!(o, "  tomb: empty");
    }
    let score = score_tomb(rules, tomb);
    writeln!(
        o,
        "  tomb ({}, {} now):",
        count(tomb.len() as i64, "card", "cards"),
        count(score.total, "point", "points")
    )?;
    let of = |category: Category| -> Vec<CardId> {
        tomb.iter()
            .copied()
            .filter(|&c| rules.card(c).category == category)
            .collect()
    };
    let starters = of(Category::Starter);
    if !starters.is_empty() {
        writeln!(
            o,
            "    starters, {}: {}",
            count(score.starters, "point", "points"),
            names(rules, &starters)
        )?;
    }
    let uniques = of(Category::Unique);
    if !uniques.is_empty() {
        writeln!(
            o,
            "    uniques, {}: {}",
            count(score.uniques, "point", "points"),
            names(rules, &uniques)
        )?;
    }
    for (i, set) in rules.sets.iter().enumerate() {
        let cards = of(Category::Set(i as u8));
        if cards.is_empty() {
            continue;
        }
        let (kinds, points) = score.sets[i];
        writeln!(
            o,
            "    set {} ({} of {} kinds), {}: {}",
            set.name,
            kinds,
            set.size,
            count(points, "point", "points"),
            names(rules, &cards)
        )?;
    }
    Ok(())
}

/// One card: name, cost, gold value, scoring category and action, `*` when provisional.
fn card_line(rules: &Rules, card: CardId) -> String {
    let c = rules.card(card);
    let mut line = format!(
        "{}{} · cost {} · {} gold · {}",
        c.name,
        if c.is_provisional() { "*" } else { "" },
        c.cost,
        c.gold,
        category_name(rules, c)
    );
    match &c.action {
        Some(parts) => {
            let _ = write!(line, " · action: {}", describe_parts(rules, parts));
        }
        None if c.provisional.iter().any(|f| f == "action") => line.push_str(" · action unknown"),
        None => {}
    }
    if let Some(parts) = &c.reaction {
        let _ = write!(line, " · reaction: {}", describe_parts(rules, parts));
    }
    line
}

fn category_name(rules: &Rules, card: &Card) -> String {
    match card.category {
        Category::Starter => format!("starter, {}", count(card.vp, "point", "points")),
        Category::Unique => format!("unique, {}", count(card.vp, "point", "points")),
        Category::Set(s) => format!(
            "set {}",
            rules
                .sets
                .get(usize::from(s))
                .map_or("?", |s| s.name.as_str())
        ),
    }
}

/// A card action in words, one clause per part (spec §6).
pub(crate) fn describe_parts(rules: &Rules, parts: &[Part]) -> String {
    parts
        .iter()
        .map(|p| describe_part(rules, p))
        .collect::<Vec<_>>()
        .join("; ")
}

fn describe_part(rules: &Rules, part: &Part) -> String {
    let some = |what: &str| {
        let n = if part.min < part.count {
            format!("up to {}", part.count)
        } else if part.count > 1 {
            part.count.to_string()
        } else {
            "a".into()
        };
        let noun = if part.count > 1 { "cards" } else { "card" };
        format!("{n} {what}{noun}{}", filter_words(rules, part))
    };
    let from_zone = |zone: Zone| match zone {
        Zone::Pyramid => format!("from {}", slots_words(part.slots)),
        other => format!("from {}", zone_name(other)),
    };
    let clause = match part.prim {
        Prim::Draw { n } => format!("draw {}", count(n, "card", "cards")),
        Prim::LookTop { n, discard } => format!(
            "look at the top {} of your deck{}, put the rest back in any order",
            count(n, "card", "cards"),
            if discard { ", discard any of them" } else { "" }
        ),
        Prim::Reveal => "reveal the top card of your deck".into(),
        Prim::Execute => "carry out the revealed card's action".into(),
        Prim::Discard { from } => format!("discard {} {}", some(""), from_zone(from)),
        Prim::Entomb { from, extra } => format!(
            "entomb {} {}{}",
            some(""),
            from_zone(from),
            if extra { " (an extra entomb)" } else { "" }
        ),
        Prim::Take { from, to } => {
            format!("take {} {} to {}", some(""), from_zone(from), dest_name(to))
        }
        Prim::Sacrifice { from } => format!("sacrifice {} {}", some(""), from_zone(from)),
        Prim::Give => format!("give {} from your hand", some("")),
        Prim::GoldModifier { set: true, value } => {
            format!("this turn each card is worth {value} gold")
        }
        Prim::GoldModifier { set: false, value } => {
            format!("this turn each card is worth {value:+} gold")
        }
        Prim::RepeatAction => "repeat the action of a card played this turn".into(),
        Prim::Condition(pred) => format!("only if {}", pred_words(pred)),
        Prim::GrantEntomb { n } => format!("entomb {} more this turn", count(n, "card", "cards")),
        Prim::PurchaseScope => "your next purchase may be from any row".into(),
        Prim::Reserve => format!("reserve a card {}", from_zone(Zone::Pyramid)),
    };
    let clause = if part.may {
        format!("you may {clause}")
    } else {
        clause
    };
    if part.each_opponent {
        match part.exempt_total_le {
            Some(k) => format!(
                "each opponent with more than {} must {clause}",
                count(k, "card", "cards")
            ),
            None => format!("each opponent must {clause}"),
        }
    } else {
        clause
    }
}

fn filter_words(rules: &Rules, part: &Part) -> String {
    let f = &part.filter;
    let mut words = String::new();
    if let Some(level) = f.level {
        let _ = write!(
            words,
            " of level {}",
            ["I", "II", "III"]
                .get(usize::from(level).wrapping_sub(1))
                .unwrap_or(&"?")
        );
    }
    if let Some(Category::Set(s)) = f.category {
        let name = rules
            .sets
            .get(usize::from(s))
            .map_or("?", |s| s.name.as_str());
        let _ = write!(words, " of set {name}");
    }
    if let Some((cmp, expr)) = f.cost {
        let cmp = match cmp {
            Cmp::Le => "at most",
            Cmp::Lt => "less than",
            Cmp::Ge => "at least",
        };
        let value = match expr {
            Expr::Const(v) => v.to_string(),
            Expr::BoundCost { times: 1, .. } => "the chosen card's cost".into(),
            Expr::BoundCost { times, .. } => format!("{times} × the chosen card's cost"),
            Expr::MaxPurchases => "the dearest card bought this turn".into(),
        };
        let _ = write!(words, " costing {cmp} {value}");
    }
    match f.extreme {
        Some(Extreme::Lowest) => words.push_str(" (the cheapest)"),
        Some(Extreme::Highest) => words.push_str(" (the dearest)"),
        None => {}
    }
    words
}

fn slots_words(slots: u8) -> String {
    match slots {
        0b000111 => "the pyramid's base".into(),
        0b111111 => "the pyramid".into(),
        mask => {
            let named: Vec<&str> = (0..6)
                .filter(|s| mask >> s & 1 == 1)
                .map(slot_name)
                .collect();
            format!("pyramid slot {}", named.join(" or "))
        }
    }
}

fn zone_name(zone: Zone) -> &'static str {
    match zone {
        Zone::Hand => "your hand",
        Zone::Discard => "your discard pile",
        Zone::Pyramid => "the pyramid",
        Zone::Revealed => "the revealed cards",
        Zone::StockTop => "the top of the stock",
        Zone::BoneyardTop => "the top of the boneyard",
        Zone::BoneyardAny => "the boneyard",
    }
}

fn dest_name(dest: Dest) -> &'static str {
    match dest {
        Dest::Discard => "your discard pile",
        Dest::Hand => "your hand",
        Dest::Tomb => "your tomb",
        Dest::Boneyard => "the boneyard",
        Dest::DeckTop => "the top of your deck",
    }
}

fn pred_words(pred: Pred) -> String {
    match pred {
        Pred::DiscardSizeGe(n) => format!(
            "your discard pile has at least {}",
            count(n, "card", "cards")
        ),
        Pred::BoughtThisTurn => "you bought a card this turn".into(),
        Pred::HandSizeGe(n) => format!("your hand has at least {}", count(n, "card", "cards")),
        Pred::PyramidNonempty => "the pyramid is not empty".into(),
    }
}

/// Card names in order, repeats kept ("Shabti, Shabti, Ankh").
fn names(rules: &Rules, cards: &[CardId]) -> String {
    if cards.is_empty() {
        return "none".into();
    }
    cards
        .iter()
        .map(|&c| card_name(rules, c))
        .collect::<Vec<_>>()
        .join(", ")
}

fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or(String::new(), |first| {
        first.to_uppercase().chain(chars).collect()
    })
}
