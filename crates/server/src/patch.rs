//! The patch of a seat's view after a move: `json_patch::diff` of the view sent last and
//! the new one, fed only the parts that changed.
//!
//! Diffing two whole views made up most of the server's CPU per move (a Valdora view is
//! about 8 KB of JSON, rebuilt as a tree of values and walked key by key for every seat;
//! see docs/benchmarks.md). Each view comes with its record (`engine::ViewPrint`), split by
//! member and, for a member that is a sequence, by element: the records tell which parts
//! changed without writing either view as JSON. Only those parts are written as JSON
//! values, and every unchanged part is `null` on both sides of the diff:
//! `json_patch::diff` pairs objects by key and arrays by index, so equal placeholders give
//! no operation and the patch is exactly the one of the whole views.

use engine::{same_key, MemberPrint, ObservedView};
use json_patch::{Patch, PatchOperation};
use serde_json::Value;

/// Patches the views of the seats watching one game after one move. Most of a view is
/// public, alike in every seat's view, and a seat's private part is a small part of it (its
/// own entry in a list of seats): the operations for each change of a member, told by the
/// records, are worked out once and shared by every view with the same change.
#[derive(Default)]
pub struct ViewPatcher<'a> {
    shared: Vec<(Change<'a>, Vec<PatchOperation>)>,
    /// What the last view patched had at each member: the places of its records before and
    /// after, and its change in `shared` (`None`: unchanged). A public member's records
    /// are the spectator's, at the same place in every view of a move, so the next view
    /// takes the answer from here rather than comparing them again.
    last: Vec<Worked>,
}

#[derive(Clone, Copy)]
struct Worked {
    was: Place,
    now: Place,
    change: Option<usize>,
}

/// Where a record lies (address and length): two records at one place are one record.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Place(usize, usize);

impl Place {
    fn of(bytes: &[u8]) -> Self {
        Place(bytes.as_ptr() as usize, bytes.len())
    }
}

/// What changed in one member of a view, as the records tell it.
#[derive(Debug, PartialEq)]
struct Change<'a> {
    key: &'static str,
    parts: Parts<'a>,
}

#[derive(Debug, PartialEq)]
enum Parts<'a> {
    /// The member's records, before and after.
    Whole(&'a [u8], &'a [u8]),
    /// A sequence: its lengths before and after, and the records of each element that
    /// changed, by index (an added element has none before).
    Elements {
        old_len: usize,
        new_len: usize,
        changed: Vec<ChangedElement<'a>>,
    },
}

/// An element's index and its records before (none when it was added) and after.
type ChangedElement<'a> = (usize, Option<&'a [u8]>, &'a [u8]);

impl<'a> ViewPatcher<'a> {
    /// The RFC 6902 patch that turns the view `old` into `new`: the one
    /// `json_patch::diff` gives for the whole views, operation for operation.
    pub fn patch(&mut self, old: &'a dyn ObservedView, new: &'a dyn ObservedView) -> Patch {
        let (old_print, new_print) = (old.print(), new.print());
        if !old_print.is_split() || !new_print.is_split() {
            self.last.clear();
            if old_print == new_print {
                return Patch::default();
            }
            return json_patch::diff(&old.json(), &new.json());
        }
        let before: Vec<MemberPrint<'a>> = old_print.members().collect();
        let mut changed: Vec<(&'static str, Vec<PatchOperation>)> = Vec::new();
        let mut worked = Vec::with_capacity(new_print.members().len());
        // Whether every member is where it was: then none was removed.
        let mut aligned = before.len() == new_print.members().len();
        for (i, member) in new_print.members().enumerate() {
            // Views of one type list their members in one order: look where it was first.
            let Some(was) = before
                .get(i)
                .filter(|m| same_key(m.key, member.key))
                .or_else(|| {
                    aligned = false;
                    before.iter().find(|m| same_key(m.key, member.key))
                })
            else {
                let added = object(member.key, Some(first(new.member_json(member.key, None))));
                let operations = json_patch::diff(&object(member.key, None), &added).0;
                changed.push((member.key, operations));
                worked.push(None);
                continue;
            };
            let (was_at, now_at) = (Place::of(was.bytes), Place::of(member.bytes));
            let change = match self.last.get(i) {
                Some(w) if w.was == was_at && w.now == now_at => w.change,
                // One record (a public member the move left alike), or equal ones.
                _ if was_at == now_at || was.bytes == member.bytes => None,
                _ => Some(self.member_change(old, new, was, &member)),
            };
            if let Some(change) = change {
                changed.push((member.key, self.shared[change].1.clone()));
            }
            worked.push(Some(Worked {
                was: was_at,
                now: now_at,
                change,
            }));
        }
        // Members that were added break the correspondence of places: keep none then.
        self.last = worked
            .into_iter()
            .collect::<Option<_>>()
            .unwrap_or_default();
        // The diff of whole objects visits the members present after in key order, then
        // the removed ones in key order.
        changed.sort_unstable_by_key(|(key, _)| *key);
        let mut removed: Vec<&'static str> = Vec::new();
        if !aligned {
            removed = before
                .iter()
                .filter(|m| new_print.member(m.key).is_none())
                .map(|m| m.key)
                .collect();
            removed.sort_unstable();
        }
        let mut operations: Vec<PatchOperation> =
            changed.into_iter().flat_map(|(_, o)| o).collect();
        for key in removed {
            operations
                .extend(json_patch::diff(&object(key, Some(Value::Null)), &object(key, None)).0);
        }
        Patch(operations)
    }

    /// The change of member `was` → `now` of `old` → `new`, whose records differ, as its
    /// index in `shared` (worked out now unless another view had the same change).
    fn member_change(
        &mut self,
        old: &'a dyn ObservedView,
        new: &'a dyn ObservedView,
        was: &MemberPrint<'a>,
        now: &MemberPrint<'a>,
    ) -> usize {
        let key = now.key;
        let parts = match (was.elements(), now.elements()) {
            (Some(before), Some(after)) => {
                let before: Vec<&'a [u8]> = before.collect();
                let (old_len, new_len) = (before.len(), after.len());
                let changed = after
                    .enumerate()
                    .filter_map(|(i, element)| match before.get(i) {
                        Some(&was) if was == element => None,
                        was => Some((i, was.copied(), element)),
                    })
                    .collect();
                Parts::Elements {
                    old_len,
                    new_len,
                    changed,
                }
            }
            _ => Parts::Whole(was.bytes, now.bytes),
        };
        let change = Change { key, parts };
        if let Some(found) = self.shared.iter().position(|(c, _)| *c == change) {
            return found;
        }
        let (old_part, new_part) = match &change.parts {
            Parts::Whole(..) => (
                first(old.member_json(key, None)),
                first(new.member_json(key, None)),
            ),
            Parts::Elements {
                old_len,
                new_len,
                changed,
            } => {
                let in_both: Vec<usize> = changed
                    .iter()
                    .filter(|(_, was, _)| was.is_some())
                    .map(|(i, _, _)| *i)
                    .collect();
                let all: Vec<usize> = changed.iter().map(|(i, _, _)| *i).collect();
                // Unchanged elements, and removed ones (the diff needs only their
                // positions), are null.
                let mut old_out = vec![Value::Null; *old_len];
                let mut new_out = vec![Value::Null; *new_len];
                for (i, value) in in_both.iter().zip(old.member_json(key, Some(&in_both))) {
                    old_out[*i] = value;
                }
                for (i, value) in all.iter().zip(new.member_json(key, Some(&all))) {
                    new_out[*i] = value;
                }
                (Value::Array(old_out), Value::Array(new_out))
            }
        };
        let (mut old_part, mut new_part) = (old_part, new_part);
        null_alike(&mut old_part, &mut new_part);
        let operations =
            json_patch::diff(&object(key, Some(old_part)), &object(key, Some(new_part))).0;
        self.shared.push((change, operations));
        self.shared.len() - 1
    }
}

/// Makes null, on both sides, each part that is alike in `old` and `new` (a member of
/// both objects, an element at the same index of both arrays), and goes into the parts
/// that differ. `json_patch::diff` gives no operation for a part alike on both sides,
/// null or not, so the patch is the same; but it walks every value it is given, making
/// each one's path, and most of a changed element (a seat's side, a book) is as it was.
fn null_alike(old: &mut Value, new: &mut Value) {
    let pair = |old: &mut Value, new: &mut Value| {
        if old == new {
            *old = Value::Null;
            *new = Value::Null;
        } else {
            null_alike(old, new);
        }
    };
    match (old, new) {
        (Value::Object(old), Value::Object(new)) => {
            for (key, old) in old.iter_mut() {
                if let Some(new) = new.get_mut(key) {
                    pair(old, new);
                }
            }
        }
        (Value::Array(old), Value::Array(new)) => {
            for (old, new) in old.iter_mut().zip(new.iter_mut()) {
                pair(old, new);
            }
        }
        _ => {}
    }
}

/// `{key: value}`, or `{}`: diffing one-member objects gives the member's operations with
/// their paths.
fn object(key: &str, value: Option<Value>) -> Value {
    Value::Object(value.map(|v| (key.to_owned(), v)).into_iter().collect())
}

/// The one value of a member the view was asked for (null if it had none, which a member
/// listed in its record always has).
fn first(values: Vec<Value>) -> Value {
    values.into_iter().next().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use engine::Observed;
    use proptest::prelude::*;
    use serde::ser::{Serialize, SerializeStruct, Serializer};
    use serde_json::json;

    use super::*;

    /// A JSON document as a view: an object is a struct whose fields are its members
    /// (listed in reverse key order, as struct fields need not be sorted), anything else
    /// is a view that is not split.
    struct AsView(Value);

    impl Serialize for AsView {
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            let Value::Object(map) = &self.0 else {
                return self.0.serialize(serializer);
            };
            let mut view = serializer.serialize_struct("View", map.len())?;
            for (key, member) in map.iter().rev() {
                let key: &'static str = Box::leak(key.clone().into_boxed_str());
                view.serialize_field(key, member)?;
            }
            view.end()
        }
    }

    /// `value` as the server keeps a view; `split: false` wraps it so that it is not a
    /// struct (the record of a view written whole).
    fn observed(value: &Value, split: bool) -> Observed<AsView> {
        let value = if split { value.clone() } else { json!([value]) };
        Observed::new(AsView(value))
    }

    /// The patch of one view on its own (no other seat's views to share the work with).
    fn view_patch(old: &Observed<AsView>, new: &Observed<AsView>) -> json_patch::Patch {
        ViewPatcher::default().patch(old, new)
    }

    /// The patch is the library's patch of the whole documents, and applying it to `old`
    /// gives `new`; with views split by member or not.
    fn check(old: &Value, new: &Value) {
        let expected = json_patch::diff(old, new);
        let whole = view_patch(&observed(old, false), &observed(new, false));
        assert_eq!(
            whole,
            json_patch::diff(&json!([old]), &json!([new])),
            "whole: {old} -> {new}"
        );
        let patch = view_patch(&observed(old, true), &observed(new, true));
        assert_eq!(patch, expected, "split: {old} -> {new}");
        let mut patched = old.clone();
        json_patch::patch(&mut patched, &patch).expect("the patch applies");
        assert_eq!(&patched, new);
    }

    #[test]
    fn equal_views_give_an_empty_patch() {
        let view = json!({"board": [1, 2, 3], "seats": [{"coins": 4}]});
        for split in [true, false] {
            assert!(view_patch(&observed(&view, split), &observed(&view, split))
                .0
                .is_empty());
        }
    }

    #[test]
    fn a_changed_leaf_deep_in_a_large_view_is_one_replace() {
        let long = "x".repeat(200);
        let old = json!({"board": {"spaces": [long, long], "pawns": [[1, 2], [3, 4]]}, "turn": 1});
        let mut new = old.clone();
        new["board"]["pawns"][1][0] = json!(5);
        let patch = view_patch(&observed(&old, true), &observed(&new, true));
        assert_eq!(
            serde_json::to_value(&patch).expect("serializable"),
            json!([{"op": "replace", "path": "/board/pawns/1/0", "value": 5}])
        );
        check(&old, &new);
    }

    #[test]
    fn added_removed_and_retyped_parts() {
        let filler = json!({"text": "y".repeat(120)});
        let old = json!({"a": [filler, 1, 2, 3], "b": {"gone": filler, "kept": 1}, "c": [filler]});
        let new = json!({"a": [filler, 1], "b": {"kept": 2, "new": filler}, "c": {"now": "an object", "pad": filler}, "d": null});
        check(&old, &new);
        check(&new, &old);
    }

    #[test]
    fn seats_share_the_work_on_public_parts_and_keep_their_own_patches() {
        let board = |pawn: u8| json!({"spaces": vec!["s".repeat(40); 10], "pawn": pawn});
        let seat_view = |seat: u8, pawn: u8, hand: &str| json!({"board": board(pawn), "seat": seat, "hand": hand});
        let old: Vec<Value> = (0..4).map(|s| seat_view(s, 1, "old")).collect();
        let new: Vec<Value> = (0..4)
            .map(|s| seat_view(s, 2, if s == 2 { "new" } else { "old" }))
            .collect();
        let (old_views, new_views): (Vec<_>, Vec<_>) = old
            .iter()
            .zip(&new)
            .map(|(o, n)| (observed(o, true), observed(n, true)))
            .unzip();
        let mut patcher = ViewPatcher::default();
        for seat in 0..4 {
            let patch = patcher.patch(&old_views[seat], &new_views[seat]);
            assert_eq!(
                patch,
                json_patch::diff(&old[seat], &new[seat]),
                "seat {seat}"
            );
        }
        let keys: Vec<&str> = patcher.shared.iter().map(|(c, _)| c.key).collect();
        assert_eq!(keys, ["board", "hand"], "the board was worked out once");
    }

    #[test]
    fn public_members_recorded_from_the_spectator_are_compared_and_worked_out_once() {
        let view = |me: Option<u8>, pawn: u8, hand: &str| json!({"board": {"pawn": pawn, "spaces": vec!["s".repeat(40); 10]}, "hand": me.map(|_| hand), "me": me});
        let spectator = |pawn| std::sync::Arc::new(observed(&view(None, pawn, ""), true));
        let (spectator_before, spectator_after) = (spectator(1), spectator(2));
        let seat = |me: u8, pawn, hand, source: &std::sync::Arc<Observed<AsView>>| {
            Observed::sharing(AsView(view(Some(me), pawn, hand)), &["board"], source)
        };
        let before: Vec<_> = (0..3)
            .map(|me| seat(me, 1, "old", &spectator_before))
            .collect();
        let after: Vec<_> = (0..3)
            .map(|me| seat(me, 2, if me == 1 { "new" } else { "old" }, &spectator_after))
            .collect();
        let mut patcher = ViewPatcher::default();
        for me in 0..3u8 {
            let i = usize::from(me);
            assert_eq!(
                patcher.patch(&before[i], &after[i]),
                json_patch::diff(
                    &view(Some(me), 1, "old"),
                    &view(Some(me), 2, if me == 1 { "new" } else { "old" })
                ),
                "seat {me}"
            );
        }
        let keys: Vec<&str> = patcher.shared.iter().map(|(c, _)| c.key).collect();
        assert_eq!(keys, ["board", "hand"]);
    }

    #[test]
    fn a_seat_list_is_worked_out_once_for_the_seats_that_see_a_change_alike() {
        // Each seat sees its own hand in the list of seats, and only the others' counts.
        let seat_view = |me: usize, hands: &[&str]| {
            let seats: Vec<Value> = (0..hands.len())
                .map(|s| {
                    if s == me {
                        json!({"count": hands[s].len(), "hand": hands[s]})
                    } else {
                        json!({"count": hands[s].len(), "hand": null})
                    }
                })
                .collect();
            json!({"seats": seats, "me": me})
        };
        let (before, after) = (["ab", "c", "de", "f"], ["ab", "c", "d", "f"]);
        let mut patcher = ViewPatcher::default();
        let views: Vec<_> = (0..4)
            .map(|me| {
                (
                    observed(&seat_view(me, &before), true),
                    observed(&seat_view(me, &after), true),
                )
            })
            .collect();
        for (me, (old, new)) in views.iter().enumerate() {
            assert_eq!(
                patcher.patch(old, new),
                json_patch::diff(&seat_view(me, &before), &seat_view(me, &after)),
                "seat {me}"
            );
        }
        assert_eq!(
            patcher.shared.len(),
            2,
            "seat 2's entry changed one way for seat 2 and another way for the other three"
        );
    }

    #[test]
    fn keys_with_escapes_are_diffed_whole() {
        let filler = "z".repeat(120);
        let old = json!({"a\"b": [1, filler], "c": 1});
        let new = json!({"a\"b": [2, filler], "c": 1});
        check(&old, &new);
    }

    /// JSON documents of the shapes views have: objects, arrays, strings long enough to be
    /// split, numbers, booleans and nulls.
    fn json_value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            (0u8..4).prop_map(|n| json!(n)),
            "[a-c]{0,3}".prop_map(Value::String),
            Just(json!("w".repeat(100))),
        ];
        leaf.prop_recursive(5, 64, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                prop::collection::btree_map("[a-e]", inner, 0..6)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    /// A document and an edit of it (some parts kept, some changed), so that the two share
    /// subtrees as consecutive views do.
    fn view_pair() -> impl Strategy<Value = (Value, Value)> {
        (
            json_value(),
            json_value(),
            prop::collection::vec(any::<bool>(), 8),
        )
            .prop_map(|(old, other, keep)| {
                let new = blend(&old, &other, &keep, &mut 0);
                (old, new)
            })
    }

    /// `old` with some of its parts taken from `other`, where `keep` says so.
    fn blend(old: &Value, other: &Value, keep: &[bool], at: &mut usize) -> Value {
        *at += 1;
        if keep[*at % keep.len()] {
            return old.clone();
        }
        match (old, other) {
            (Value::Object(o), Value::Object(x)) => {
                let mut out = o.clone();
                for (k, v) in x {
                    let merged = match o.get(k) {
                        Some(ov) => blend(ov, v, keep, at),
                        None => v.clone(),
                    };
                    out.insert(k.clone(), merged);
                }
                Value::Object(out)
            }
            (Value::Array(o), Value::Array(x)) => {
                let mut out: Vec<Value> = o
                    .iter()
                    .zip(x.iter().chain(std::iter::repeat(&Value::Null)))
                    .map(|(ov, xv)| blend(ov, xv, keep, at))
                    .collect();
                out.extend(x.iter().skip(o.len()).cloned());
                Value::Array(out)
            }
            _ => other.clone(),
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        #[test]
        fn the_patch_is_the_whole_documents_patch((old, new) in view_pair()) {
            check(&old, &new);
        }

        #[test]
        fn one_patcher_for_several_views(pairs in prop::collection::vec(view_pair(), 1..5)) {
            let views: Vec<_> = pairs
                .iter()
                .map(|(o, n)| (observed(o, true), observed(n, true)))
                .collect();
            let mut patcher = ViewPatcher::default();
            for ((old, new), (old_view, new_view)) in pairs.iter().zip(&views) {
                prop_assert_eq!(patcher.patch(old_view, new_view), json_patch::diff(old, new));
            }
        }

        #[test]
        fn unrelated_documents_too(old in json_value(), new in json_value()) {
            check(&old, &new);
        }
    }
}
