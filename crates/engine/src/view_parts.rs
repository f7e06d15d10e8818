//! A view split into its parts, so that whoever compares two views (the server's per-move
//! patches) can tell which parts changed without writing either view as JSON, and then
//! write as JSON only the parts that did.
//!
//! [`ViewPrint`] is an exact, compact record of a view's value: every value the view hands
//! to serde, in order, each with a tag and its bytes (lengths before strings, an end mark
//! after every sequence, map and struct). A struct's field names are not written out: each
//! field is a tag, and the struct ends with a 64-bit digest (foldhash) of where its names
//! lie and how long they are. Field names are `&'static str`s fixed when the program is
//! built, never input, so no move can make two structs' digests meet. Unlike JSON the
//! record formats no number and escapes no string, and it is split the way the patches are
//! made: by top-level member, and a member that is a sequence by element. Two views whose
//! records of a part are equal serialize that part to the same JSON, since serde_json
//! writes a part from exactly the values its record holds.
//!
//! [`Observed`] is a view built for one observer, kept with its record: it writes the JSON
//! of whichever member, or elements of a member, it is asked for. The members of a game's
//! views that are alike for every observer are recorded and written once per position,
//! from the spectator's view.
//!
//! Views are structs (the conformance suite checks it). Anything else is recorded whole,
//! with no members.

use std::fmt;
use std::hash::{BuildHasher, Hasher};
use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use foldhash::fast::{FixedState, FoldHasher};
use serde::ser::{self, Impossible, Serialize};
use serde_json::Value;

/// `value` as a JSON value (the registry's answers and the views' parts).
pub(crate) fn to_json<T: Serialize + ?Sized>(value: &T) -> Value {
    // Our own serde types serialize to JSON infallibly (no maps with non-string keys).
    serde_json::to_value(value).unwrap_or(Value::Null)
}

/// The record of one view, split by member.
#[derive(Debug, Clone, Default)]
pub struct ViewPrint {
    bytes: Vec<u8>,
    /// In the order serialized; empty when the view is not a struct.
    members: Vec<MemberSpan>,
    /// Where the elements of the members that are sequences begin in `bytes`; after a
    /// member's last element, where it ends. One list for all, so that a record is three
    /// allocations however many members it has.
    bounds: Vec<u32>,
    /// The records this one takes members from (`At::Elsewhere`), each once: a handful
    /// (the spectator's view, and those of the positions where the members a move left
    /// alike were last recorded), however many members are taken.
    owners: Vec<Arc<ViewPrint>>,
}

#[derive(Debug, Clone)]
struct MemberSpan {
    key: &'static str,
    at: At,
}

#[derive(Debug, Clone)]
enum At {
    /// In this record: its bytes, and its element boundaries in `bounds` when it is a
    /// sequence.
    Here {
        bytes: Range<u32>,
        elements: Option<Range<u32>>,
    },
    /// Member `member` of record `owner` (in `owners`), where it is `Here`: a public
    /// member, recorded once per position in the spectator's view, or one that a move left
    /// alike, recorded in the spectator's view of an earlier position.
    Elsewhere { owner: u32, member: u32 },
}

/// Two records are equal when they have the same members, in order, with the same bytes:
/// the same values (and so the same JSON), wherever their bytes lie.
impl PartialEq for ViewPrint {
    fn eq(&self, other: &Self) -> bool {
        if !self.is_split() || !other.is_split() {
            return self.members.is_empty()
                && other.members.is_empty()
                && self.bytes == other.bytes;
        }
        self.members.len() == other.members.len()
            && self
                .members()
                .zip(other.members())
                .all(|(a, b)| same_key(a.key, b.key) && a.bytes == b.bytes)
    }
}

impl Eq for ViewPrint {}

/// Whether two member names are one: most often the very same `&'static str` (the views
/// of one type name their members with the same strings), told without reading them.
pub fn same_key(a: &str, b: &str) -> bool {
    std::ptr::eq(a, b) || a == b
}

/// One member of a [`ViewPrint`].
#[derive(Debug, Clone, Copy)]
pub struct MemberPrint<'a> {
    pub key: &'static str,
    /// The member's whole record. A public member's record is the spectator's: the same
    /// bytes, at the same place, in every view recorded from it.
    pub bytes: &'a [u8],
    record: &'a [u8],
    bounds: Option<&'a [u32]>,
}

impl<'a> MemberPrint<'a> {
    /// The record of each element, when the member is a sequence.
    pub fn elements(&self) -> Option<impl ExactSizeIterator<Item = &'a [u8]> + 'a> {
        let record = self.record;
        self.bounds.map(move |bounds| {
            bounds
                .windows(2)
                .map(move |w| &record[w[0] as usize..w[1] as usize])
        })
    }
}

/// The longest record so far: the room a new one starts with, so that it never grows.
static LONGEST: AtomicUsize = AtomicUsize::new(1024);

impl ViewPrint {
    /// The record of `view`.
    pub fn of<T: Serialize + ?Sized>(view: &T) -> Self {
        Self::sharing(view, &[], None)
    }

    /// The record of `view`, except that each member named in `public` that `source` has
    /// is not recorded again but referred to where `source` has it: the members of a game's
    /// view that are alike for every observer, recorded once per position, and those that
    /// a move left alike, recorded once for as many positions as it stays so.
    pub fn sharing<T: Serialize + ?Sized>(
        view: &T,
        public: &[&str],
        source: Option<&Arc<ViewPrint>>,
    ) -> Self {
        let mut split = Split {
            print: ViewPrint {
                bytes: Vec::with_capacity(LONGEST.load(Ordering::Relaxed)),
                members: Vec::with_capacity(source.map_or(32, |s| s.members.len())),
                bounds: Vec::with_capacity(source.map_or(256, |s| s.bounds.len())),
                owners: Vec::new(),
            },
            public,
            source,
        };
        let print = match view.serialize(&mut split) {
            Ok(()) => split.print,
            Err(_) => {
                let mut bytes = Vec::new();
                // Recording never fails: every value has a record.
                let _ = view.serialize(Trace::new(&mut bytes));
                ViewPrint {
                    bytes,
                    ..ViewPrint::default()
                }
            }
        };
        LONGEST.fetch_max(print.bytes.len(), Ordering::Relaxed);
        print
    }

    /// Whether the view was a struct, recorded member by member.
    pub fn is_split(&self) -> bool {
        !self.members.is_empty()
    }

    /// The members, in the order serialized.
    pub fn members(&self) -> impl ExactSizeIterator<Item = MemberPrint<'_>> {
        self.members.iter().map(move |m| self.member_print(m))
    }

    /// Member `key`, if the view has it.
    pub fn member(&self, key: &str) -> Option<MemberPrint<'_>> {
        self.members
            .iter()
            .find(|m| same_key(m.key, key))
            .map(|m| self.member_print(m))
    }

    fn member_print<'a>(&'a self, span: &'a MemberSpan) -> MemberPrint<'a> {
        match &span.at {
            At::Here { bytes, elements } => MemberPrint {
                key: span.key,
                bytes: &self.bytes[bytes.start as usize..bytes.end as usize],
                record: &self.bytes,
                bounds: elements
                    .as_ref()
                    .map(|r| &self.bounds[r.start as usize..r.end as usize]),
            },
            At::Elsewhere { owner, member } => {
                let owner = &self.owners[*owner as usize];
                owner.member_print(&owner.members[*member as usize])
            }
        }
    }

    /// Which of `owners` member `key` is taken from, if it is taken.
    fn owner_of(&self, key: &str) -> Option<usize> {
        self.members.iter().find_map(|m| match m.at {
            At::Elsewhere { owner, .. } if same_key(m.key, key) => Some(owner as usize),
            _ => None,
        })
    }

    /// The index of `owner` in `owners`, added if it is not there yet.
    fn owner_index(&mut self, owner: &Arc<ViewPrint>) -> u32 {
        let found = self.owners.iter().position(|o| Arc::ptr_eq(o, owner));
        offset_of(found.unwrap_or_else(|| {
            self.owners.push(owner.clone());
            self.owners.len() - 1
        }))
    }
}

/// A view built for one observer with its record: what the server keeps of the view it
/// sent last, to patch the next one against.
pub trait ObservedView: Send + Sync {
    fn print(&self) -> &ViewPrint;
    /// The JSON value of member `key`: the whole member (`elements` is `None`), or the elements
    /// at the given indices (ascending) of a member that is a sequence, in order. Empty
    /// when the view has no such member or elements.
    fn member_json(&self, key: &str, elements: Option<&[usize]>) -> Vec<Value>;
    /// The whole view as JSON.
    fn json(&self) -> Value;
}

/// A view and its record.
#[derive(Debug, Clone)]
pub struct Observed<V> {
    view: V,
    print: Arc<ViewPrint>,
    /// The views whose records are the record's `owners`, in the same order: the members
    /// this view takes its record of from another, it takes its JSON from too.
    owners: Vec<Arc<Observed<V>>>,
}

impl<V: Serialize> Observed<V> {
    pub fn new(view: V) -> Self {
        let print = Arc::new(ViewPrint::of(&view));
        Observed {
            view,
            print,
            owners: Vec::new(),
        }
    }

    /// `view`, whose members named in `public` are recorded and written as in `source`:
    /// the spectator's view of the same position, whose public members are alike, or the
    /// spectator's view of the position before, for the members the move left alike.
    /// Taking their JSON from the spectator too means that a member wrongly called public
    /// could only show this view's observer less than it may know, never more.
    pub fn sharing(view: V, public: &[&'static str], source: &Arc<Observed<V>>) -> Self {
        let print = Arc::new(ViewPrint::sharing(&view, public, Some(&source.print)));
        // Each owner of the record is `source`'s own, or one of its owners.
        let owners = print
            .owners
            .iter()
            .map(|owner| {
                source
                    .print
                    .owners
                    .iter()
                    .position(|o| Arc::ptr_eq(o, owner))
                    .map_or(source, |i| &source.owners[i])
                    .clone()
            })
            .collect();
        Observed {
            view,
            print,
            owners,
        }
    }

    pub fn view(&self) -> &V {
        &self.view
    }
}

impl<V: Serialize + Send + Sync> ObservedView for Observed<V> {
    fn print(&self) -> &ViewPrint {
        &self.print
    }

    fn member_json(&self, key: &str, elements: Option<&[usize]>) -> Vec<Value> {
        if let Some(owner) = self.print.owner_of(key) {
            return self.owners[owner].member_json(key, elements);
        }
        let mut picker = Picker {
            key,
            elements,
            out: Vec::new(),
        };
        // Writing our own view types cannot fail (no maps with non-string keys); a view
        // that is not a struct has no members to pick.
        let _ = self.view.serialize(&mut picker);
        picker.out
    }

    fn json(&self) -> Value {
        to_json(&self.view)
    }
}

impl<T: ObservedView + ?Sized> ObservedView for Arc<T> {
    fn print(&self) -> &ViewPrint {
        self.as_ref().print()
    }

    fn member_json(&self, key: &str, elements: Option<&[usize]>) -> Vec<Value> {
        self.as_ref().member_json(key, elements)
    }

    fn json(&self) -> Value {
        self.as_ref().json()
    }
}

/// Why a view could not be split or picked from (it is not a struct, or the member is not
/// a sequence). Never shown: the caller records or writes the view whole instead.
#[derive(Debug)]
struct NotSplit;

impl fmt::Display for NotSplit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not a struct")
    }
}

impl std::error::Error for NotSplit {}

impl ser::Error for NotSplit {
    fn custom<T: fmt::Display>(_: T) -> Self {
        NotSplit
    }
}

/// Every kind of value but the one expected is refused.
macro_rules! refuse {
    ($($method:ident($($arg:ty),*) -> $ok:ty;)*) => {
        $(fn $method(self, $(_: $arg),*) -> Result<$ok, NotSplit> {
            Err(NotSplit)
        })*
    };
}

/// `impl Serializer for &mut $ty` that takes a struct (with the given `serialize_struct`,
/// each field going to the given `serialize_field`) and refuses every other value.
macro_rules! struct_only_serializer {
    ($ty:ty, $serialize_struct:item, $serialize_field:item) => {
        impl ser::SerializeStruct for &mut $ty {
            type Ok = ();
            type Error = NotSplit;

            $serialize_field

            fn end(self) -> Result<(), NotSplit> {
                Ok(())
            }
        }

        impl ser::Serializer for &mut $ty {
            type Ok = ();
            type Error = NotSplit;
            type SerializeSeq = Impossible<(), NotSplit>;
            type SerializeTuple = Impossible<(), NotSplit>;
            type SerializeTupleStruct = Impossible<(), NotSplit>;
            type SerializeTupleVariant = Impossible<(), NotSplit>;
            type SerializeMap = Impossible<(), NotSplit>;
            type SerializeStruct = Self;
            type SerializeStructVariant = Impossible<(), NotSplit>;

            $serialize_struct

            refuse_single_values!();

            refuse! {
                serialize_seq(Option<usize>) -> Self::SerializeSeq;
                serialize_tuple(usize) -> Self::SerializeTuple;
                serialize_tuple_struct(&'static str, usize) -> Self::SerializeTupleStruct;
                serialize_tuple_variant(&'static str, u32, &'static str, usize) -> Self::SerializeTupleVariant;
                serialize_map(Option<usize>) -> Self::SerializeMap;
                serialize_struct_variant(&'static str, u32, &'static str, usize) -> Self::SerializeStructVariant;
            }
        }
    };
}

/// The refusals of every value that is not a compound (a serializer that splits a view
/// takes only its struct or its sequences).
macro_rules! refuse_single_values {
    () => {
        fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<(), NotSplit> {
            Err(NotSplit)
        }

        fn serialize_newtype_struct<T: Serialize + ?Sized>(
            self,
            _: &'static str,
            _: &T,
        ) -> Result<(), NotSplit> {
            Err(NotSplit)
        }

        fn serialize_newtype_variant<T: Serialize + ?Sized>(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: &T,
        ) -> Result<(), NotSplit> {
            Err(NotSplit)
        }

        refuse! {
            serialize_bool(bool) -> ();
            serialize_i8(i8) -> ();
            serialize_i16(i16) -> ();
            serialize_i32(i32) -> ();
            serialize_i64(i64) -> ();
            serialize_u8(u8) -> ();
            serialize_u16(u16) -> ();
            serialize_u32(u32) -> ();
            serialize_u64(u64) -> ();
            serialize_f32(f32) -> ();
            serialize_f64(f64) -> ();
            serialize_char(char) -> ();
            serialize_str(&str) -> ();
            serialize_bytes(&[u8]) -> ();
            serialize_none() -> ();
            serialize_unit() -> ();
            serialize_unit_struct(&'static str) -> ();
            serialize_unit_variant(&'static str, u32, &'static str) -> ();
        }
    };
}

/// The serializer of a whole view, member by member.
struct Split<'a> {
    print: ViewPrint,
    /// Members taken from `source` rather than recorded.
    public: &'a [&'a str],
    source: Option<&'a Arc<ViewPrint>>,
}

struct_only_serializer!(
    Split<'_>,
    fn serialize_struct(self, _: &'static str, len: usize) -> Result<Self, NotSplit> {
        self.print.members.reserve(len);
        Ok(self)
    },
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), NotSplit> {
        let print = &mut self.print;
        let public = self
            .source
            .filter(|_| self.public.iter().any(|p| same_key(p, key)))
            .and_then(|source| {
                // Views of one type have their members in one order.
                let at = print.members.len();
                let i = match source.members.get(at) {
                    Some(m) if same_key(m.key, key) => at,
                    _ => source.members.iter().position(|m| same_key(m.key, key))?,
                };
                Some((source, i))
            });
        let at = match public {
            // Where the source has it: no chain of records, however many positions a
            // member stays alike.
            Some((source, i)) => match source.members[i].at {
                At::Here { .. } => At::Elsewhere {
                    owner: print.owner_index(source),
                    member: offset_of(i),
                },
                At::Elsewhere { owner, member } => At::Elsewhere {
                    owner: print.owner_index(&source.owners[owner as usize]),
                    member,
                },
            },
            None => {
                let (start, first) = (offset(&print.bytes), offset(&print.bounds));
                let mut sequence = false;
                // Recording never fails.
                let _ = value.serialize(Trace {
                    out: &mut print.bytes,
                    bounds: Some(Bounds {
                        list: &mut print.bounds,
                        sequence: &mut sequence,
                    }),
                });
                At::Here {
                    bytes: start..offset(&print.bytes),
                    elements: sequence.then(|| first..offset(&print.bounds)),
                }
            }
        };
        print.members.push(MemberSpan { key, at });
        Ok(())
    }
);

/// The tags of a record: one before every value serde hands over, so that no two
/// different sequences of values have the same record.
mod tag {
    pub const FALSE: u8 = 0;
    pub const TRUE: u8 = 1;
    pub const I8: u8 = 2;
    pub const I16: u8 = 3;
    pub const I32: u8 = 4;
    pub const I64: u8 = 5;
    pub const I128: u8 = 6;
    pub const U8: u8 = 7;
    pub const U16: u8 = 8;
    pub const U32: u8 = 9;
    pub const U64: u8 = 10;
    pub const U128: u8 = 11;
    pub const F32: u8 = 12;
    pub const F64: u8 = 13;
    pub const CHAR: u8 = 14;
    pub const STR: u8 = 15;
    pub const BYTES: u8 = 16;
    pub const NONE: u8 = 17;
    pub const SOME: u8 = 18;
    pub const UNIT: u8 = 19;
    pub const VARIANT: u8 = 20;
    pub const NEWTYPE: u8 = 21;
    pub const SEQ: u8 = 22;
    pub const MAP: u8 = 23;
    pub const STRUCT: u8 = 24;
    pub const FIELD: u8 = 25;
    pub const SKIPPED: u8 = 26;
    pub const END: u8 = 27;
}

/// The length of `list`, as a record's offsets are kept (views are far smaller than 4 GiB).
fn offset<T>(list: &[T]) -> u32 {
    offset_of(list.len())
}

/// An index or length as a record keeps it.
fn offset_of(index: usize) -> u32 {
    index as u32
}

/// The serializer that writes a record. `bounds` is given for a member of the view: a
/// sequence there records where each of its elements lies.
struct Trace<'a> {
    out: &'a mut Vec<u8>,
    bounds: Option<Bounds<'a>>,
}

/// Where a member's element boundaries go, and whether the member was a sequence.
struct Bounds<'a> {
    list: &'a mut Vec<u32>,
    sequence: &'a mut bool,
}

impl<'a> Trace<'a> {
    fn new(out: &'a mut Vec<u8>) -> Self {
        Trace { out, bounds: None }
    }

    fn text(&mut self, tag: u8, text: &[u8]) {
        push_text(self.out, tag, text);
    }

    fn variant(&mut self, index: u32) {
        self.out.push(tag::VARIANT);
        self.out.extend_from_slice(&index.to_le_bytes());
    }
}

/// A tag, the length of `text`, then `text`.
fn push_text(out: &mut Vec<u8>, tag: u8, text: &[u8]) {
    out.push(tag);
    // Views are far smaller than 4 GiB.
    out.extend_from_slice(&(text.len() as u32).to_le_bytes());
    out.extend_from_slice(text);
}

/// A sequence, tuple, map or struct being recorded; its end mark is written at `end`.
struct Compound<'a> {
    out: &'a mut Vec<u8>,
    /// A member of the view that is a sequence: where each element begins goes here.
    bounds: Option<&'a mut Vec<u32>>,
    /// A struct: the digest of its fields' names so far.
    names: Option<FoldHasher<'static>>,
}

impl<'a> Compound<'a> {
    fn new(out: &'a mut Vec<u8>) -> Self {
        Compound {
            out,
            bounds: None,
            names: None,
        }
    }

    /// A struct's fields, whose names go into a digest written at its end.
    fn fields(out: &'a mut Vec<u8>) -> Self {
        out.push(tag::STRUCT);
        Compound {
            out,
            bounds: None,
            names: Some(FixedState::default().build_hasher()),
        }
    }

    fn value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), NotSplit> {
        if let Some(bounds) = self.bounds.as_deref_mut() {
            bounds.push(offset(self.out));
        }
        value.serialize(Trace::new(self.out))
    }

    /// A field, written or skipped: its tag here, its name into the struct's digest.
    fn field(&mut self, tag: u8, key: &'static str) {
        self.out.push(tag);
        if let Some(names) = &mut self.names {
            names.write_usize(key.as_ptr() as usize);
            names.write_usize(key.len());
        }
    }

    fn close(self) -> Result<(), NotSplit> {
        if let Some(bounds) = self.bounds {
            // Where the last element ends.
            bounds.push(offset(self.out));
        }
        if let Some(names) = self.names {
            self.out.extend_from_slice(&names.finish().to_le_bytes());
        }
        self.out.push(tag::END);
        Ok(())
    }
}

macro_rules! numbers {
    ($($method:ident($ty:ty) => $tag:expr;)*) => {
        $(fn $method(self, v: $ty) -> Result<(), NotSplit> {
            self.out.push($tag);
            self.out.extend_from_slice(&v.to_le_bytes());
            Ok(())
        })*
    };
}

impl<'a> ser::Serializer for Trace<'a> {
    type Ok = ();
    type Error = NotSplit;
    type SerializeSeq = Compound<'a>;
    type SerializeTuple = Compound<'a>;
    type SerializeTupleStruct = Compound<'a>;
    type SerializeTupleVariant = Compound<'a>;
    type SerializeMap = Compound<'a>;
    type SerializeStruct = Compound<'a>;
    type SerializeStructVariant = Compound<'a>;

    fn serialize_bool(self, v: bool) -> Result<(), NotSplit> {
        self.out.push(if v { tag::TRUE } else { tag::FALSE });
        Ok(())
    }

    numbers! {
        serialize_i8(i8) => tag::I8;
        serialize_i16(i16) => tag::I16;
        serialize_i32(i32) => tag::I32;
        serialize_i64(i64) => tag::I64;
        serialize_i128(i128) => tag::I128;
        serialize_u8(u8) => tag::U8;
        serialize_u16(u16) => tag::U16;
        serialize_u32(u32) => tag::U32;
        serialize_u64(u64) => tag::U64;
        serialize_u128(u128) => tag::U128;
    }

    fn serialize_f32(self, v: f32) -> Result<(), NotSplit> {
        self.out.push(tag::F32);
        self.out.extend_from_slice(&v.to_bits().to_le_bytes());
        Ok(())
    }

    fn serialize_f64(self, v: f64) -> Result<(), NotSplit> {
        self.out.push(tag::F64);
        self.out.extend_from_slice(&v.to_bits().to_le_bytes());
        Ok(())
    }

    fn serialize_char(self, v: char) -> Result<(), NotSplit> {
        self.out.push(tag::CHAR);
        self.out.extend_from_slice(&u32::from(v).to_le_bytes());
        Ok(())
    }

    fn serialize_str(mut self, v: &str) -> Result<(), NotSplit> {
        self.text(tag::STR, v.as_bytes());
        Ok(())
    }

    fn serialize_bytes(mut self, v: &[u8]) -> Result<(), NotSplit> {
        self.text(tag::BYTES, v);
        Ok(())
    }

    fn serialize_none(self) -> Result<(), NotSplit> {
        self.out.push(tag::NONE);
        Ok(())
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), NotSplit> {
        self.out.push(tag::SOME);
        value.serialize(Trace::new(self.out))
    }

    fn serialize_unit(self) -> Result<(), NotSplit> {
        self.out.push(tag::UNIT);
        Ok(())
    }

    fn serialize_unit_struct(self, _: &'static str) -> Result<(), NotSplit> {
        self.serialize_unit()
    }

    fn serialize_unit_variant(
        mut self,
        _: &'static str,
        index: u32,
        _: &'static str,
    ) -> Result<(), NotSplit> {
        self.variant(index);
        Ok(())
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<(), NotSplit> {
        self.out.push(tag::NEWTYPE);
        value.serialize(Trace::new(self.out))
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        mut self,
        _: &'static str,
        index: u32,
        _: &'static str,
        value: &T,
    ) -> Result<(), NotSplit> {
        self.variant(index);
        value.serialize(Trace::new(self.out))
    }

    fn serialize_seq(self, _: Option<usize>) -> Result<Compound<'a>, NotSplit> {
        self.out.push(tag::SEQ);
        let bounds = self.bounds.map(|bounds| {
            *bounds.sequence = true;
            bounds.list
        });
        Ok(Compound {
            out: self.out,
            bounds,
            names: None,
        })
    }

    fn serialize_tuple(self, _: usize) -> Result<Compound<'a>, NotSplit> {
        self.out.push(tag::SEQ);
        Ok(Compound::new(self.out))
    }

    fn serialize_tuple_struct(self, _: &'static str, len: usize) -> Result<Compound<'a>, NotSplit> {
        self.serialize_tuple(len)
    }

    fn serialize_tuple_variant(
        mut self,
        _: &'static str,
        index: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Compound<'a>, NotSplit> {
        self.variant(index);
        self.out.push(tag::SEQ);
        Ok(Compound::new(self.out))
    }

    fn serialize_map(self, _: Option<usize>) -> Result<Compound<'a>, NotSplit> {
        self.out.push(tag::MAP);
        Ok(Compound::new(self.out))
    }

    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Compound<'a>, NotSplit> {
        Ok(Compound::fields(self.out))
    }

    fn serialize_struct_variant(
        mut self,
        _: &'static str,
        index: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Compound<'a>, NotSplit> {
        self.variant(index);
        Ok(Compound::fields(self.out))
    }
}

/// Sequences, tuples, tuple structs and tuple variants: each value in turn, then the end.
macro_rules! compound_of_values {
    ($($trait:ident::$method:ident),*) => {$(
        impl ser::$trait for Compound<'_> {
            type Ok = ();
            type Error = NotSplit;

            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), NotSplit> {
                self.value(value)
            }

            fn end(self) -> Result<(), NotSplit> {
                self.close()
            }
        }
    )*};
}

compound_of_values!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

impl ser::SerializeMap for Compound<'_> {
    type Ok = ();
    type Error = NotSplit;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), NotSplit> {
        self.value(key)
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), NotSplit> {
        self.value(value)
    }

    fn end(self) -> Result<(), NotSplit> {
        self.close()
    }
}

/// Structs and struct variants: each field's name and value in turn, then the end.
macro_rules! compound_of_fields {
    ($($trait:ident),*) => {$(
        impl ser::$trait for Compound<'_> {
            type Ok = ();
            type Error = NotSplit;

            fn serialize_field<T: Serialize + ?Sized>(
                &mut self,
                key: &'static str,
                value: &T,
            ) -> Result<(), NotSplit> {
                self.field(tag::FIELD, key);
                self.value(value)
            }

            fn skip_field(&mut self, key: &'static str) -> Result<(), NotSplit> {
                self.field(tag::SKIPPED, key);
                Ok(())
            }

            fn end(self) -> Result<(), NotSplit> {
                self.close()
            }
        }
    )*};
}

compound_of_fields!(SerializeStruct, SerializeStructVariant);

/// The serializer that writes the JSON of one member of a view (or some of its elements).
struct Picker<'a> {
    key: &'a str,
    elements: Option<&'a [usize]>,
    out: Vec<Value>,
}

struct_only_serializer!(
    Picker<'_>,
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self, NotSplit> {
        Ok(self)
    },
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), NotSplit> {
        if key != self.key {
            return Ok(());
        }
        match self.elements {
            None => self.out.push(to_json(value)),
            Some(indices) => {
                // A member that is not a sequence has no elements to pick.
                let _ = value.serialize(Elements {
                    indices,
                    out: &mut self.out,
                });
            }
        }
        Ok(())
    }
);

/// The serializer that writes the JSON of some elements of a sequence.
struct Elements<'a> {
    /// Ascending.
    indices: &'a [usize],
    out: &'a mut Vec<Value>,
}

/// A sequence whose picked elements are being written.
struct PickedElements<'a> {
    indices: &'a [usize],
    next: usize,
    out: &'a mut Vec<Value>,
}

impl ser::SerializeSeq for PickedElements<'_> {
    type Ok = ();
    type Error = NotSplit;

    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), NotSplit> {
        if let Some((&first, rest)) = self.indices.split_first() {
            if first == self.next {
                self.out.push(to_json(value));
                self.indices = rest;
            }
        }
        self.next += 1;
        Ok(())
    }

    fn end(self) -> Result<(), NotSplit> {
        Ok(())
    }
}

impl<'a> ser::Serializer for Elements<'a> {
    type Ok = ();
    type Error = NotSplit;
    type SerializeSeq = PickedElements<'a>;
    type SerializeTuple = Impossible<(), NotSplit>;
    type SerializeTupleStruct = Impossible<(), NotSplit>;
    type SerializeTupleVariant = Impossible<(), NotSplit>;
    type SerializeMap = Impossible<(), NotSplit>;
    type SerializeStruct = Impossible<(), NotSplit>;
    type SerializeStructVariant = Impossible<(), NotSplit>;

    fn serialize_seq(self, _: Option<usize>) -> Result<PickedElements<'a>, NotSplit> {
        Ok(PickedElements {
            indices: self.indices,
            next: 0,
            out: self.out,
        })
    }

    refuse_single_values!();

    refuse! {
        serialize_tuple(usize) -> Self::SerializeTuple;
        serialize_tuple_struct(&'static str, usize) -> Self::SerializeTupleStruct;
        serialize_tuple_variant(&'static str, u32, &'static str, usize) -> Self::SerializeTupleVariant;
        serialize_map(Option<usize>) -> Self::SerializeMap;
        serialize_struct(&'static str, usize) -> Self::SerializeStruct;
        serialize_struct_variant(&'static str, u32, &'static str, usize) -> Self::SerializeStructVariant;
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use proptest::prelude::*;
    use serde::Serialize;
    use serde_json::json;

    use super::*;

    #[derive(Debug, Clone, Serialize)]
    struct Board {
        name: &'static str,
        spaces: Vec<(f32, Option<u8>)>,
        #[serde(skip_serializing_if = "Option::is_none")]
        hidden: Option<u8>,
        nested: BTreeMap<String, Vec<u8>>,
        pieces: Vec<Piece>,
    }

    #[derive(Debug, Clone, Serialize)]
    #[serde(tag = "kind", rename_all = "snake_case")]
    enum Piece {
        Pawn { at: u8 },
        Castle,
    }

    fn board() -> Board {
        Board {
            name: "a \"quoted\" name",
            spaces: vec![(1.5, None), (2.0, Some(3))],
            hidden: None,
            nested: [("k".to_string(), vec![1, 2])].into(),
            pieces: vec![Piece::Pawn { at: 1 }, Piece::Castle],
        }
    }

    #[test]
    fn a_struct_is_recorded_member_by_member_and_each_member_written_as_json_has_it() {
        let view = Observed::new(board());
        let json = serde_json::to_value(board()).expect("serializable");
        assert_eq!(view.json(), json);
        let keys: Vec<&str> = view.print().members().map(|m| m.key).collect();
        assert_eq!(keys, ["name", "spaces", "nested", "pieces"]);
        for member in view.print().members() {
            let text = view.member_json(member.key, None);
            assert_eq!(text.len(), 1);
            assert_eq!(text[0], json[member.key], "{}", member.key);
        }
        let spaces = view.print().member("spaces").expect("spaces");
        assert_eq!(spaces.elements().map(|e| e.len()), Some(2));
        assert!(view
            .print()
            .member("name")
            .and_then(|m| m.elements())
            .is_none());
        assert_eq!(
            view.member_json("pieces", Some(&[1])),
            [json!({"kind": "castle"})]
        );
        assert_eq!(
            view.member_json("spaces", Some(&[0, 1])),
            [json!([1.5, null]), json!([2.0, 3])]
        );
        assert!(view.member_json("absent", None).is_empty());
        assert!(
            view.member_json("name", Some(&[0])).is_empty(),
            "a member that is not a sequence has no elements"
        );
    }

    #[test]
    fn a_change_shows_in_the_member_and_element_it_is_in_and_nowhere_else() {
        let before = ViewPrint::of(&board());
        let mut changed = board();
        changed.spaces[1].1 = Some(4);
        let after = ViewPrint::of(&changed);
        for (old, new) in before.members().zip(after.members()) {
            assert_eq!(old.bytes == new.bytes, old.key != "spaces", "{}", old.key);
        }
        let (old, new) = (
            before
                .member("spaces")
                .and_then(|m| m.elements())
                .expect("a sequence"),
            after
                .member("spaces")
                .and_then(|m| m.elements())
                .expect("a sequence"),
        );
        let same: Vec<bool> = old.zip(new).map(|(o, n)| o == n).collect();
        assert_eq!(same, [true, false]);
    }

    #[test]
    fn anything_but_a_struct_is_recorded_whole() {
        let map: BTreeMap<&str, u8> = [("a", 1)].into();
        assert!(!ViewPrint::of(&map).is_split());
        assert!(!ViewPrint::of(&[1, 2]).is_split());
        assert!(!ViewPrint::of(&Some(board().spaces)).is_split());
        assert_ne!(ViewPrint::of(&[1, 2]), ViewPrint::of(&[1, 3]));
        assert!(Observed::new(map).member_json("a", None).is_empty());
    }

    #[test]
    fn public_members_are_copied_from_the_source_and_the_rest_is_recorded() {
        let source = Arc::new(ViewPrint::of(&board()));
        let mut other = board();
        other.name = "another name";
        other.spaces.push((9.0, None));
        let shared = ViewPrint::sharing(&other, &["spaces", "absent"], Some(&source));
        let mut expected = board();
        expected.name = "another name";
        assert_eq!(
            shared,
            ViewPrint::of(&expected),
            "spaces come from the source, the name from the value"
        );
        let (from_source, in_source) = (
            shared.member("spaces").expect("spaces").bytes,
            source.member("spaces").expect("spaces").bytes,
        );
        assert_eq!(
            (from_source.as_ptr(), from_source.len()),
            (in_source.as_ptr(), in_source.len()),
            "a public member's record is the source's own bytes, not a copy"
        );
        assert_eq!(
            ViewPrint::sharing(&other, &["spaces"], None),
            ViewPrint::of(&other),
            "without a source everything is recorded"
        );
    }

    #[test]
    fn a_member_left_alike_for_many_positions_is_taken_from_the_view_that_built_it() {
        let first = Arc::new(Observed::new(board()));
        let left_out = |name| Board {
            name,
            spaces: Vec::new(),
            ..board()
        };
        let second = Arc::new(Observed::sharing(left_out("second"), &["spaces"], &first));
        let third = Observed::sharing(left_out("third"), &["spaces"], &second);
        assert_eq!(
            third.print().member("spaces").map(|m| m.bytes.as_ptr()),
            first.print().member("spaces").map(|m| m.bytes.as_ptr()),
            "the record is the first view's, not a copy"
        );
        assert_eq!(
            third.member_json("spaces", Some(&[1])),
            first.member_json("spaces", Some(&[1]))
        );
        assert_eq!(third.member_json("name", None), [json!("third")]);
        assert_eq!(
            Arc::strong_count(&second),
            1,
            "no chain of views: the third holds the first, not the second"
        );
        let mut expected = board();
        expected.name = "third";
        assert_eq!(*third.print(), ViewPrint::of(&expected));
    }

    #[test]
    fn a_member_wrongly_called_public_shows_the_spectators_version_never_more() {
        let spectator = Arc::new(Observed::new(board()));
        let mut seat = board();
        seat.hidden = Some(7);
        seat.spaces[0].1 = Some(9);
        let view = Observed::sharing(seat.clone(), &["spaces", "hidden"], &spectator);
        assert_eq!(
            view.member_json("spaces", None),
            spectator.member_json("spaces", None),
            "record and JSON come from the spectator"
        );
        assert_eq!(
            view.print().member("spaces").map(|m| m.bytes),
            spectator.print().member("spaces").map(|m| m.bytes)
        );
        assert_eq!(
            view.member_json("hidden", None),
            [json!(7)],
            "a member the spectator does not have is the seat's own"
        );
        assert_eq!(
            view.member_json("name", None),
            Observed::new(seat).member_json("name", None)
        );
    }

    #[test]
    fn records_tell_apart_what_json_tells_apart() {
        // Pairs whose values could run together without tags, lengths and end marks.
        let pairs = [
            (json!(["ab", "c"]), json!(["a", "bc"])),
            (json!([[1], 2]), json!([[1, 2]])),
            (json!({"a": null}), json!({})),
            (json!([null]), json!([])),
            (json!(1), json!(1.0)),
            (json!(-1), json!(1)),
            (json!(""), json!(null)),
        ];
        for (a, b) in pairs {
            assert_ne!(ViewPrint::of(&a), ViewPrint::of(&b), "{a} and {b}");
        }
        #[derive(Serialize)]
        struct Optional {
            #[serde(skip_serializing_if = "Option::is_none")]
            a: Option<u8>,
            #[serde(skip_serializing_if = "Option::is_none")]
            b: Option<u8>,
        }
        let record = |a, b| {
            let mut bytes = Vec::new();
            let _ = Optional { a, b }.serialize(Trace::new(&mut bytes));
            bytes
        };
        assert_ne!(record(Some(1), None), record(None, Some(1)));
    }

    fn json_value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            (0u64..4).prop_map(Value::from),
            (-2i64..0).prop_map(Value::from),
            prop_oneof![Just(0.5), Just(1.0), Just(-0.0)].prop_map(Value::from),
            "[a-c\"]{0,3}".prop_map(Value::from),
        ];
        leaf.prop_recursive(4, 24, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                prop::collection::btree_map("[a-c]{1,2}", inner, 0..4)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

        /// Two values have equal records exactly when they have equal JSON.
        #[test]
        fn equal_records_are_equal_json(a in json_value(), b in json_value()) {
            let same_json = serde_json::to_string(&a).ok() == serde_json::to_string(&b).ok();
            prop_assert_eq!(ViewPrint::of(&a) == ViewPrint::of(&b), same_json);
        }
    }
}
