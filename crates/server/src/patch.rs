//! The patch of a seat's view after a move: `json_patch::diff` of the view sent last and
//! the new one, fed only the parts that changed.
//!
//! Diffing two whole views made up most of the server's CPU per move (a Valdora view is
//! about 8 KB of JSON, rebuilt as a tree of values and walked key by key for every seat;
//! see docs/benchmarks.md). Views are kept as the JSON text they were serialized to, and a
//! subtree whose text has not changed is replaced by `null` on both sides before the diff:
//! `json_patch::diff` pairs objects by key and arrays by index, so equal placeholders
//! produce no operation and the patch is exactly the one of the whole views. Only the
//! changed parts are ever parsed into values.

use std::collections::BTreeMap;

use engine::ViewText;
use json_patch::{Patch, PatchOperation};
use serde_json::value::RawValue;
use serde_json::Value;

/// Below this many bytes a changed subtree is parsed whole rather than split further:
/// splitting it would cost more than the diff it saves.
const SPLIT_ABOVE: usize = 96;
/// Parts of a view at least this large are worked out once per move for all the seats
/// whose views have them alike (the board, the books: the public parts).
const SHARE_ABOVE: usize = 256;

/// Patches the views of the seats watching one game after one move. Most of a view is
/// public, the same text in every seat's view: the patch of each large top-level member is
/// worked out once and shared by the seats with the same old and new text.
#[derive(Default)]
pub struct ViewPatcher<'a> {
    shared: Vec<SharedMember<'a>>,
}

struct SharedMember<'a> {
    key: &'a str,
    old: &'a str,
    new: &'a str,
    operations: Vec<PatchOperation>,
}

impl<'a> ViewPatcher<'a> {
    /// The RFC 6902 patch that turns the view `old` into `new`: the one
    /// `json_patch::diff` gives for the whole views, operation for operation.
    pub fn patch(&mut self, old: &'a ViewText, new: &'a ViewText) -> Patch {
        if old.text == new.text {
            return Patch::default();
        }
        if old.members.is_empty() || new.members.is_empty() {
            let (old, new) = changed_parts(&old.text, &new.text);
            return json_patch::diff(&old, &new);
        }
        // The members as serialized (no need to scan the texts for them), in key order:
        // the order in which the diff of whole objects visits them.
        let by_key = |view: &'a ViewText| {
            let mut members: Members<'a> = view.member_texts().collect();
            members.sort_unstable_by_key(|(key, _)| *key);
            members
        };
        let (old, new) = (by_key(old), by_key(new));
        let mut operations = Vec::new();
        for &(key, new_text) in &new {
            let old_text = find(&old, key);
            if old_text != Some(new_text) {
                operations.extend(self.member_operations(key, old_text, Some(new_text)));
            }
        }
        for &(key, old_text) in &old {
            if find(&new, key).is_none() {
                operations.extend(self.member_operations(key, Some(old_text), None));
            }
        }
        Patch(operations)
    }

    /// The operations on top-level member `key` (`None`: absent on that side).
    fn member_operations(
        &mut self,
        key: &'a str,
        old: Option<&'a str>,
        new: Option<&'a str>,
    ) -> Vec<PatchOperation> {
        let shareable = match (old, new) {
            (Some(old), Some(new)) => {
                (old.len().min(new.len()) >= SHARE_ABOVE).then_some((old, new))
            }
            _ => None,
        };
        if let Some((old, new)) = shareable {
            let found = self
                .shared
                .iter()
                .find(|m| m.key == key && m.old == old && m.new == new);
            if let Some(member) = found {
                return member.operations.clone();
            }
        }
        let (old_part, new_part) = match (old, new) {
            (Some(old), Some(new)) => changed_parts(old, new),
            (old, new) => (
                old.map_or(Value::Null, parse),
                new.map_or(Value::Null, parse),
            ),
        };
        // Diffing one-member objects gives the member's operations with their paths.
        let object = |side: Option<&str>, part: Value| {
            Value::Object(side.map(|_| (key.to_owned(), part)).into_iter().collect())
        };
        let operations = json_patch::diff(&object(old, old_part), &object(new, new_part)).0;
        if let Some((old, new)) = shareable {
            self.shared.push(SharedMember {
                key,
                old,
                new,
                operations: operations.clone(),
            });
        }
        operations
    }
}

/// The text of member `key` in a list sorted by key.
fn find<'a>(members: &[(&'a str, &'a str)], key: &str) -> Option<&'a str> {
    members
        .binary_search_by(|(k, _)| (*k).cmp(key))
        .ok()
        .map(|i| members[i].1)
}

/// `old` and `new` parsed, with every subtree that is the same text on both sides (at the
/// same key or index) replaced by `null`.
fn changed_parts(old: &str, new: &str) -> (Value, Value) {
    if old == new {
        return (Value::Null, Value::Null);
    }
    if old.len().max(new.len()) > SPLIT_ABOVE {
        match (old.as_bytes().first(), new.as_bytes().first()) {
            (Some(b'{'), Some(b'{')) => {
                // Keys with escapes do not borrow: such objects are parsed whole.
                if let (Ok(old), Ok(new)) = (members(old), members(new)) {
                    return changed_members(&old, &new, changed_parts);
                }
            }
            (Some(b'['), Some(b'[')) => {
                if let (Ok(old), Ok(new)) = (elements(old), elements(new)) {
                    return changed_elements(&old, &new);
                }
            }
            _ => {}
        }
    }
    (parse(old), parse(new))
}

/// An object's members as (key, value text), sorted by key.
type Members<'a> = Vec<(&'a str, &'a str)>;

fn members(text: &str) -> serde_json::Result<Members<'_>> {
    let map: BTreeMap<&str, &RawValue> = serde_json::from_str(text)?;
    Ok(map
        .into_iter()
        .map(|(key, value)| (key, value.get()))
        .collect())
}

fn elements(text: &str) -> serde_json::Result<Vec<&RawValue>> {
    serde_json::from_str(text)
}

/// The changed parts of two objects, member by member (`each` works out a member present
/// on both sides). Both lists are sorted by key.
fn changed_members<'a>(
    old: &[(&'a str, &'a str)],
    new: &[(&'a str, &'a str)],
    mut each: impl FnMut(&'a str, &'a str) -> (Value, Value),
) -> (Value, Value) {
    let mut old_out = serde_json::Map::new();
    let mut new_out = serde_json::Map::new();
    for &(key, new_value) in new {
        match find(old, key) {
            Some(old_value) => {
                let (o, n) = each(old_value, new_value);
                old_out.insert(key.to_owned(), o);
                new_out.insert(key.to_owned(), n);
            }
            None => {
                new_out.insert(key.to_owned(), parse(new_value));
            }
        }
    }
    for &(key, _) in old {
        if find(new, key).is_none() {
            // Removed: the diff needs only the key.
            old_out.insert(key.to_owned(), Value::Null);
        }
    }
    (Value::Object(old_out), Value::Object(new_out))
}

fn changed_elements(old: &[&RawValue], new: &[&RawValue]) -> (Value, Value) {
    let mut old_out = Vec::with_capacity(old.len());
    let mut new_out = Vec::with_capacity(new.len());
    for (o, n) in old.iter().zip(new) {
        let (o, n) = changed_parts(o.get(), n.get());
        old_out.push(o);
        new_out.push(n);
    }
    // Removed elements: the diff needs only their positions.
    old_out.extend(old.iter().skip(new.len()).map(|_| Value::Null));
    new_out.extend(new.iter().skip(old.len()).map(|n| parse(n.get())));
    (Value::Array(old_out), Value::Array(new_out))
}

fn parse(text: &str) -> Value {
    // The text is a view the server serialized itself: always JSON.
    serde_json::from_str(text).unwrap_or(Value::Null)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde_json::json;

    use super::*;

    /// The patch of one view on its own (no other seat's views to share the work with).
    fn view_patch(old: &ViewText, new: &ViewText) -> json_patch::Patch {
        ViewPatcher::default().patch(old, new)
    }

    /// A view as the engine writes it: a `Value` is a map, so it is not split by member.
    fn raw(value: &Value) -> ViewText {
        ViewText::of(value).expect("serializable")
    }

    /// A view as the engine writes a struct: an object's members split (written in reverse
    /// key order, as struct fields need not be sorted).
    fn split(value: &Value) -> ViewText {
        let Value::Object(map) = value else {
            return raw(value);
        };
        let mut text = String::from("{");
        let mut members = Vec::new();
        for (key, member) in map.iter().rev() {
            if !members.is_empty() {
                text.push(',');
            }
            text += &serde_json::to_string(key).expect("serializable");
            text.push(':');
            let start = text.len();
            text += &serde_json::to_string(member).expect("serializable");
            let key: &'static str = Box::leak(key.clone().into_boxed_str());
            members.push((key, start..text.len()));
        }
        text.push('}');
        ViewText { text, members }
    }

    /// The patch is the library's patch of the whole documents, and applying it to `old`
    /// gives `new`; with views split by member or not.
    fn check(old: &Value, new: &Value) {
        let expected = json_patch::diff(old, new);
        assert_eq!(view_patch(&raw(old), &raw(new)), expected, "{old} -> {new}");
        let patch = view_patch(&split(old), &split(new));
        assert_eq!(patch, expected, "split: {old} -> {new}");
        let mut patched = old.clone();
        json_patch::patch(&mut patched, &patch).expect("the patch applies");
        assert_eq!(&patched, new);
    }

    #[test]
    fn equal_views_give_an_empty_patch() {
        let view = json!({"board": [1, 2, 3], "seats": [{"coins": 4}]});
        assert!(view_patch(&raw(&view), &raw(&view)).0.is_empty());
    }

    #[test]
    fn a_changed_leaf_deep_in_a_large_view_is_one_replace() {
        let long = "x".repeat(200);
        let old = json!({"board": {"spaces": [long, long], "pawns": [[1, 2], [3, 4]]}, "turn": 1});
        let mut new = old.clone();
        new["board"]["pawns"][1][0] = json!(5);
        let patch = view_patch(&raw(&old), &raw(&new));
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
        let (old_raw, new_raw): (Vec<_>, Vec<_>) = old
            .iter()
            .zip(&new)
            .map(|(o, n)| (split(o), split(n)))
            .unzip();
        let mut patcher = ViewPatcher::default();
        for seat in 0..4 {
            let patch = patcher.patch(&old_raw[seat], &new_raw[seat]);
            assert_eq!(
                patch,
                json_patch::diff(&old[seat], &new[seat]),
                "seat {seat}"
            );
        }
        assert_eq!(patcher.shared.len(), 1, "the board was worked out once");
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
            let raws: Vec<_> = pairs.iter().map(|(o, n)| (split(o), split(n))).collect();
            let mut patcher = ViewPatcher::default();
            for ((old, new), (old_raw, new_raw)) in pairs.iter().zip(&raws) {
                prop_assert_eq!(patcher.patch(old_raw, new_raw), json_patch::diff(old, new));
            }
        }

        #[test]
        fn unrelated_documents_too(old in json_value(), new in json_value()) {
            check(&old, &new);
        }
    }
}
