//! The legal steps of a turn (V-T1..V-A6) as one check per action: listing the legal
//! actions keeps the candidates a check accepts, and "why not?" ([`crate::explain`])
//! reports the first refusal of the same check, so the two can never disagree.

use crate::actions::{Action, Items};
use crate::board::{Space, SpaceKind, SpaceSet, MAX_SPACES};
use crate::books::BookKind;
use crate::components::{Color, Face, Gem, Gems, Item, Side};
use crate::fault::{Fault, Key};
use crate::state::{Committed, Phase, Player, Valdora, MAX_COINS, MAX_INCOMPLETE};

/// Legal, or the first rule broken.
pub(crate) type Check = Result<(), Fault>;

/// The rule of the compound action `committed` (V-A1 buy, V-A2 load, V-A3 complete).
pub(crate) fn rule_of_committed(committed: Committed) -> &'static str {
    match committed {
        Committed::Buy => "V-A1",
        Committed::Load => "V-A2",
        Committed::Complete => "V-A3",
    }
}

/// rule V-T4: the action begun this turn excludes any other.
fn committed_elsewhere(committed: Committed) -> Fault {
    let code = match committed {
        Committed::Buy => "committed_to_buy",
        Committed::Load => "committed_to_load",
        Committed::Complete => "committed_to_complete",
    };
    Fault::new("V-T4", code)
}

/// `need` of something countable where the player has `have`.
fn short(rule: &'static str, code: &'static str, need: u8, have: u8) -> Fault {
    Fault::new(rule, code)
        .with(Key::Need, need)
        .with(Key::Have, have)
}

/// The compound action a step belongs to, if it is one.
fn part_of(action: &Action) -> Option<Committed> {
    match action {
        Action::Turn { .. }
        | Action::BuyEquipment { .. }
        | Action::BuyCommission { .. }
        | Action::Return { .. } => Some(Committed::Buy),
        Action::Load { .. } | Action::Unload { .. } => Some(Committed::Load),
        Action::Complete { .. } => Some(Committed::Complete),
        Action::Move { .. }
        | Action::Pass
        | Action::TakeProvisions
        | Action::RefillSilver
        | Action::End => None,
    }
}

/// Lists `action` when the check of its kind accepts it. The listing calls each kind's
/// check itself: asking [`Valdora::check`] dispatched on the kind of every candidate, an
/// indirect jump the processor mispredicted for a third of Valdora's playout time
/// (issue 52).
fn offer(out: &mut Vec<Action>, action: Action, check: Check) {
    if check.is_ok() {
        out.push(action);
    }
}

impl Valdora {
    // ----- listing ----------------------------------------------------------------------

    pub(crate) fn push_legal(&self, out: &mut Vec<Action>) {
        match self.phase {
            Phase::Over => {}
            Phase::Move => {
                // The destinations `check_move` accepts, as one set: reachable (V-T1) and
                // the fee affordable (V-T2). Checking each candidate in turn recomputed the
                // reach and walked the pawns once per destination (issue 52).
                let mut legal = self.destinations();
                while legal != 0 {
                    out.push(Action::Move {
                        to: legal.trailing_zeros() as Space,
                    });
                    legal &= legal - 1;
                }
            }
            Phase::Act { committed } => self.push_act_candidates(committed, out),
        }
    }

    /// Whether `action` is one [`Valdora::push_legal`] lists, without listing: the check
    /// decides every action the listing could offer, and a payment it could offer names
    /// items only (`Items` is a bare bitset; a stray bit is no item).
    pub(crate) fn allows(&self, action: &Action) -> bool {
        let well_formed = match *action {
            Action::Complete { pay_from, .. } => pay_from.names_items_only(),
            _ => true,
        };
        well_formed && self.check(action).is_ok()
    }

    /// rule V-T1 with V-T2: whether the current player has a destination it may choose
    /// (V-T3 otherwise).
    pub(crate) fn has_destination(&self) -> bool {
        self.destinations() != 0
    }

    /// rule V-T1 with V-T2: the spaces `check_move` accepts, as a set.
    fn destinations(&self) -> SpaceSet {
        self.reach() & !self.fees_unaffordable()
    }

    /// rule V-T2: the spaces where the current pawn would meet more pawns than it has
    /// coins, the set form of [`Valdora::check_meeting_fee`] (`pawns_met`: the other
    /// pawns there, none on a silver mine), counted once per other pawn rather than once
    /// per destination, and without a branch on where the pawns stand.
    fn fees_unaffordable(&self) -> SpaceSet {
        let coins = self.me().coins;
        if usize::from(coins) >= usize::from(self.seats) - 1 {
            return 0; // no space holds more pawns than the coins
        }
        let board = &self.config.rules.board;
        let mut met = [0u8; MAX_SPACES];
        for (seat, player) in (0..self.seats).zip(&self.players) {
            met[usize::from(player.space)] += u8::from(seat != self.current);
        }
        let mut unaffordable: SpaceSet = 0;
        for player in &self.players[..usize::from(self.seats)] {
            let at = player.space;
            let fee_free = board.kind(at) == SpaceKind::SilverMine;
            unaffordable |= SpaceSet::from((met[usize::from(at)] > coins) & !fee_free) << at;
        }
        unaffordable
    }

    /// The steps that may be legal on the pawn's space at this step of the turn (V-T4),
    /// each kept when the check of its own kind accepts it ([`offer`]). Only steps the
    /// turn's step allows are candidates ([`Valdora::check_step`] would accept each), so
    /// the list is what [`Valdora::check`] accepts; leaving out what the checks refuse
    /// anyway (a begun action excludes the others; each space offers its own action) only
    /// saves checking it, and the rest keep their order, so random play picks the same
    /// actions.
    fn push_act_candidates(&self, committed: Option<Committed>, out: &mut Vec<Action>) {
        match committed {
            None => {
                out.push(Action::Pass);
                offer(out, Action::TakeProvisions, self.check_provisions());
                offer(out, Action::RefillSilver, self.check_refill());
            }
            Some(_) => offer(out, Action::End, self.check_end()),
        }
        let may = |part: Committed| committed.is_none_or(|begun| begun == part);
        let me = self.me();
        match self.config.rules.board.kind(me.space) {
            SpaceKind::EquipmentCity | SpaceKind::CommissionCity if may(Committed::Buy) => {
                self.push_buy_candidates(out)
            }
            SpaceKind::Road | SpaceKind::Harbour { .. } | SpaceKind::HarbourCity { .. }
                if may(Committed::Load) =>
            {
                // A gem the space (or the discard area) lacks is refused: not offered.
                let supply = self.load_supply();
                for gem in Gem::ALL.into_iter().filter(|g| supply[g.index()] > 0) {
                    for onto in [Item::for_gem(gem), Item::Horse, Item::Cart] {
                        offer(out, Action::Load { gem, onto }, self.check_load(gem, onto));
                    }
                }
                for from in [Item::Horse, Item::Cart] {
                    offer(out, Action::Unload { from }, self.check_unload(from));
                }
            }
            SpaceKind::PatronHouse { color } if may(Committed::Complete) => {
                self.push_complete_candidates(color, out)
            }
            _ => {}
        }
    }

    /// The buying steps that may be legal at this book city (V-A1): page turns, and the
    /// purchases of the book's kind, equipment paid from the items carrying gold (any other
    /// is refused); their checks decide.
    fn push_buy_candidates(&self, out: &mut Vec<Action>) {
        let me = self.me();
        let kind = self
            .config
            .rules
            .board
            .book_at(me.space)
            .map(BookKind::of_book);
        for side in [Side::Left, Side::Right] {
            offer(out, Action::Turn { from: side }, self.check_turn(side));
            match kind {
                Some(BookKind::Commission) => offer(
                    out,
                    Action::BuyCommission { side },
                    self.check_buy_commission(side),
                ),
                Some(BookKind::Equipment) => {
                    for gold_from in Item::ALL {
                        if me.gems[gold_from.index()] == Some(Gem::Gold) {
                            let check = self.check_buy_equipment(side, gold_from);
                            offer(out, Action::BuyEquipment { side, gold_from }, check);
                        }
                    }
                }
                None => {}
            }
        }
        if kind == Some(BookKind::Commission) {
            for commission in 0..MAX_INCOMPLETE as u8 {
                for side in [Side::Left, Side::Right] {
                    let check = self.check_return(commission, side);
                    offer(out, Action::Return { commission, side }, check);
                }
            }
        }
    }

    /// The payments that may complete a held commission here (V-A3), in the order of the
    /// sets of loaded items: none for a commission of another house, the empty set for a
    /// silver-coin one, and the sets of as many items as gems wanted for the others (any
    /// other set is refused); their check decides.
    fn push_complete_candidates(&self, house: Color, out: &mut Vec<Action>) {
        let me = self.me();
        let loaded = Item::ALL
            .into_iter()
            .filter(|i| me.gems[i.index()].is_some())
            .collect::<Items>()
            .0;
        for (commission, held) in (0u8..).zip(me.incomplete.iter()) {
            let face = held.face(&self.config.rules);
            if face.color != house {
                continue;
            }
            let items = if face.wants.coins > 0 {
                0
            } else {
                face.wants.gems.iter().map(|&n| u32::from(n)).sum()
            };
            let mut subset = loaded;
            loop {
                if subset.count_ones() == items {
                    let pay_from = Items(subset);
                    let check = self.check_complete(commission, pay_from);
                    offer(
                        out,
                        Action::Complete {
                            commission,
                            pay_from,
                        },
                        check,
                    );
                }
                if subset == 0 {
                    break;
                }
                subset = (subset - 1) & loaded;
            }
        }
    }

    // ----- checking ---------------------------------------------------------------------

    /// Whether the current player may take `action` now, or the first rule it breaks: the
    /// step of the turn, then the action's own conditions.
    pub(crate) fn check(&self, action: &Action) -> Check {
        self.check_step(action)?;
        match *action {
            Action::Move { to } => self.check_move(to),
            Action::Pass => Ok(()),
            Action::TakeProvisions => self.check_provisions(),
            Action::RefillSilver => self.check_refill(),
            Action::End => self.check_end(),
            Action::Turn { from } => self.check_turn(from),
            Action::BuyEquipment { side, gold_from } => self.check_buy_equipment(side, gold_from),
            Action::BuyCommission { side } => self.check_buy_commission(side),
            Action::Return { commission, side } => self.check_return(commission, side),
            Action::Load { gem, onto } => self.check_load(gem, onto),
            Action::Unload { from } => self.check_unload(from),
            Action::Complete {
                commission,
                pay_from,
            } => self.check_complete(commission, pay_from),
        }
    }

    /// The turn is a movement, then one action (V-T1, V-T4).
    fn check_step(&self, action: &Action) -> Check {
        let is_move = matches!(action, Action::Move { .. });
        match self.phase {
            Phase::Over => Err(Fault::new("V-E1", "game_over")),
            Phase::Move if is_move => Ok(()),
            // rule V-T1: the movement is mandatory and comes first.
            Phase::Move => Err(Fault::new("V-T1", "move_first").with(Key::Step, &"movement")),
            Phase::Act { .. } if is_move => {
                Err(Fault::new("V-T1", "already_moved").with(Key::Step, &"action"))
            }
            Phase::Act { committed } => match (committed, part_of(action), action) {
                // rule V-T4: `End` closes a begun action.
                (None, _, Action::End) => Err(Fault::new("V-T4", "nothing_to_end")),
                (Some(begun), Some(part), _) if begun != part => Err(committed_elsewhere(begun)),
                (
                    Some(begun),
                    None,
                    Action::Pass | Action::TakeProvisions | Action::RefillSilver,
                ) => Err(committed_elsewhere(begun)),
                _ => Ok(()),
            },
        }
    }

    /// The spaces reachable by a simple path within the rules of V-T1, fees aside.
    fn reach(&self) -> SpaceSet {
        let me = self.me();
        let board = &self.config.rules.board;
        let mut reach = board.reach_plain(me.space);
        if me.provisions {
            reach |= board.reach_provisions(me.space);
        }
        reach
    }

    // rule V-T1
    fn check_move(&self, to: Space) -> Check {
        let board = &self.config.rules.board;
        if usize::from(to) >= board.kinds.len() {
            return Err(Fault::new("V-C4", "no_such_space"));
        }
        if self.reach() & 1 << to == 0 {
            let needs_provisions = board.reach_provisions(self.me().space) & 1 << to != 0;
            return Err(if needs_provisions {
                Fault::new("V-T1", "needs_provisions")
            } else {
                Fault::new("V-T1", "not_reachable")
            });
        }
        self.check_meeting_fee(to)
    }

    /// rule V-T2: a coin for each other pawn met, except on a silver mine.
    fn check_meeting_fee(&self, to: Space) -> Check {
        let fee = self.pawns_met(to).count() as u8;
        let coins = self.me().coins;
        if fee > coins {
            return Err(short("V-T2", "meeting_fee_unaffordable", fee, coins));
        }
        Ok(())
    }

    fn space_kind(&self) -> SpaceKind {
        self.config.rules.board.kind(self.me().space)
    }

    // rule V-A5
    fn check_provisions(&self) -> Check {
        if !self.space_kind().is_city() {
            return Err(Fault::new("V-A5", "not_at_city"));
        }
        if self.me().provisions {
            return Err(Fault::new("V-A5", "already_provisioned"));
        }
        Ok(())
    }

    // rule V-A4
    fn check_refill(&self) -> Check {
        if self.space_kind() != SpaceKind::SilverMine {
            return Err(Fault::new("V-A4", "not_at_silver_mine"));
        }
        if self.me().coins >= MAX_COINS {
            return Err(Fault::new("V-A4", "coins_full").with(Key::Max, MAX_COINS));
        }
        Ok(())
    }

    /// `End` closes an action with at least one step done and nothing left owed (V-A1, V-A2).
    fn check_end(&self) -> Check {
        if self.must_buy {
            return Err(Fault::new("V-A1", "must_buy_commission"));
        }
        if self.pending_reload.is_some() {
            return Err(Fault::new("V-A2", "must_reload"));
        }
        match self.phase {
            Phase::Act {
                committed: Some(begun),
            } if self.progress == 0 => {
                Err(Fault::new(rule_of_committed(begun), "nothing_done_yet"))
            }
            _ => Ok(()),
        }
    }

    /// The book on this city and its kind, if the pawn stands on a book city (V-A1).
    fn book_here(&self) -> Result<(u8, BookKind), Fault> {
        match self.config.rules.board.book_at(self.me().space) {
            Some(book) => Ok((book, BookKind::of_book(book))),
            None => Err(Fault::new("V-A1", "not_at_book_city")),
        }
    }

    /// The visible face of `side` of this city's book (V-C6).
    fn face_on(&self, book: u8, kind: BookKind, side: Side) -> Result<Face, Fault> {
        self.book(book)
            .visible(&self.config.rules, kind, side)
            .ok_or(Fault::new("V-A1", "pile_empty"))
    }

    /// A book city of `wanted` kind, if the pawn stands on one (V-A1).
    fn book_of_kind(&self, wanted: BookKind) -> Result<u8, Fault> {
        let (book, kind) = self.book_here()?;
        match (kind, wanted) {
            (BookKind::Equipment, BookKind::Equipment)
            | (BookKind::Commission, BookKind::Commission) => Ok(book),
            (_, BookKind::Equipment) => Err(Fault::new("V-A1", "not_equipment_city")),
            (_, BookKind::Commission) => Err(Fault::new("V-A1", "not_commission_city")),
        }
    }

    // rule V-A1: the first page turn of a turn is free, each further one costs a coin.
    fn check_turn(&self, from: Side) -> Check {
        let (book, kind) = self.book_here()?;
        self.face_on(book, kind, from)?;
        // After a return, a coin must stay for the purchase the return was for.
        let need = self.page_turn_cost() + u8::from(self.must_buy);
        let have = self.me().coins;
        if have < need {
            return Err(short("V-A1", "no_coin_for_page", need, have));
        }
        Ok(())
    }

    // rule V-A1: equipment costs one gold from a card of the player's choice.
    fn check_buy_equipment(&self, side: Side, gold_from: Item) -> Check {
        let book = self.book_of_kind(BookKind::Equipment)?;
        let me = self.me();
        if let Face::Equipment(face) = self.face_on(book, BookKind::Equipment, side)? {
            if me.owns(face.item) {
                return Err(Fault::new("V-A1", "already_own_item"));
            }
        }
        if me.gems[gold_from.index()] == Some(Gem::Gold) {
            return Ok(());
        }
        let gold = me.gems.iter().filter(|&&g| g == Some(Gem::Gold)).count() as u8;
        Err(match gold_from {
            _ if gold == 0 => short("V-A1", "no_gold", 1, 0),
            Item::GoldPan => Fault::new("V-A1", "gold_pan_empty"),
            _ => Fault::new("V-A1", "no_gold_on_item"),
        })
    }

    /// rule V-A1: a commission costs a coin; at most 3 are held incomplete.
    fn check_commission_purchase(&self) -> Check {
        let me = self.me();
        if me.coins < 1 {
            return Err(short("V-A1", "no_coin_for_commission", 1, me.coins));
        }
        Ok(())
    }

    // rule V-A1
    fn check_buy_commission(&self, side: Side) -> Check {
        let book = self.book_of_kind(BookKind::Commission)?;
        self.face_on(book, BookKind::Commission, side)?;
        if self.me().incomplete.len() >= MAX_INCOMPLETE {
            return Err(Fault::new("V-A1", "commissions_full").with(Key::Max, MAX_INCOMPLETE));
        }
        self.check_commission_purchase()
    }

    // rule V-A1: a return only on the way to buying another commission.
    fn check_return(&self, commission: u8, _side: Side) -> Check {
        self.book_of_kind(BookKind::Commission)?;
        let held = self.me().incomplete.len();
        if held < MAX_INCOMPLETE {
            return Err(Fault::new("V-A1", "return_needs_full_hand").with(Key::Max, MAX_INCOMPLETE));
        }
        if usize::from(commission) >= held {
            return Err(Fault::new("V-A1", "no_such_commission"));
        }
        self.check_commission_purchase()
    }

    /// Gems available to load here: the road space's, or the discard area's at harbours.
    fn load_supply(&self) -> Gems {
        match self.gems_at(self.me().space) {
            Some(gems) => gems,
            None => self.discard,
        }
    }

    /// rule V-A2: loading happens on road spaces, harbour spaces and the harbour city; a
    /// harbour loads at most one gem per ship each action.
    fn check_loading_space(&self) -> Check {
        let kind = self.space_kind();
        match kind {
            SpaceKind::Road => Ok(()),
            SpaceKind::Harbour { ships } | SpaceKind::HarbourCity { ships }
                if self.loads >= ships =>
            {
                Err(Fault::new("V-A2", "ships_used").with(Key::Ships, ships))
            }
            SpaceKind::Harbour { .. } | SpaceKind::HarbourCity { .. } => Ok(()),
            _ => Err(Fault::new("V-A2", "not_at_loading_space")),
        }
    }

    /// rule V-A2: a horse or cart costs its printed coins each time it is loaded.
    fn check_load_cost(&self, item: Item) -> Check {
        let me = self.me();
        let cost = me.cost_to_load(item);
        if me.coins < cost {
            return Err(short("V-A2", "load_cost_unaffordable", cost, me.coins));
        }
        Ok(())
    }

    // rule V-A2
    fn check_load(&self, gem: Gem, onto: Item) -> Check {
        self.check_loading_space()?;
        if self.pending_reload.is_some_and(|pending| pending != onto) {
            return Err(Fault::new("V-A2", "must_reload"));
        }
        if self.load_supply()[gem.index()] == 0 {
            return Err(Fault::new("V-A2", "gem_not_here"));
        }
        let me = self.me();
        if !me.owns(onto) {
            return Err(Fault::new("V-A2", "item_not_owned"));
        }
        // rule V-C5: the gold pan takes gold, a tool its colour, horse and cart any gem.
        if !onto.accepts(gem) {
            return Err(Fault::new("V-C5", "item_cannot_load_gem"));
        }
        if me.gems[onto.index()].is_some() {
            return Err(Fault::new("V-C5", "item_full"));
        }
        self.check_load_cost(onto)
    }

    // rule V-A2: unloading is for loading that horse or cart again, so it must be possible.
    fn check_unload(&self, from: Item) -> Check {
        self.check_loading_space()?;
        if self.pending_reload.is_some() {
            return Err(Fault::new("V-A2", "must_reload"));
        }
        if !from.loads_any() {
            return Err(Fault::new("V-A2", "unload_horse_cart_only"));
        }
        if self.me().gems[from.index()].is_none() {
            return Err(Fault::new("V-A2", "item_empty"));
        }
        self.check_load_cost(from)?;
        let at_harbour = self.gems_at(self.me().space).is_none();
        if !at_harbour && self.load_supply().iter().all(|&n| n == 0) {
            return Err(Fault::new("V-A2", "nothing_to_reload"));
        }
        Ok(())
    }

    // rule V-A3: a commission of this house's colour, paid exactly.
    fn check_complete(&self, commission: u8, pay_from: Items) -> Check {
        let SpaceKind::PatronHouse { color } = self.space_kind() else {
            return Err(Fault::new("V-A3", "not_at_patron_house"));
        };
        let me = self.me();
        let Some(held) = me.incomplete.get(usize::from(commission)) else {
            return Err(Fault::new("V-A3", "no_such_commission"));
        };
        let wants = held.face(&self.config.rules).wants;
        if held.face(&self.config.rules).color != color {
            return Err(Fault::new("V-A3", "wrong_patron"));
        }
        if wants.coins > 0 {
            if me.coins < wants.coins {
                return Err(short("V-A3", "not_enough_coins", wants.coins, me.coins));
            }
            if pay_from != Items(0) {
                return Err(Fault::new("V-A3", "pays_with_coin"));
            }
            return Ok(());
        }
        if pays(me, pay_from, wants.gems) {
            return Ok(());
        }
        let mut carried = [0u8; 5];
        for gem in me.gems.iter().flatten() {
            carried[gem.index()] += 1;
        }
        let covered = (0..5).all(|g| carried[g] >= wants.gems[g]);
        Err(if covered {
            Fault::new("V-A3", "wrong_payment")
        } else {
            Fault::new("V-A3", "requirement_not_met")
        })
    }
}

/// Whether the gems on `items` are exactly `wants` (V-A3).
fn pays(me: &Player, items: Items, wants: Gems) -> bool {
    let mut got = [0u8; 5];
    for item in items.iter() {
        match me.gems[item.index()] {
            Some(gem) => got[gem.index()] += 1,
            None => return false,
        }
    }
    got == wants
}
