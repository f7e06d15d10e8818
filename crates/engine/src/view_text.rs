//! A view serialized to JSON text together with where each of its top-level members lies,
//! so that a consumer comparing two views (the server's per-move patches) can tell which
//! members changed without scanning the text again.
//!
//! Views are structs: their fields are written one by one through serde, and the byte
//! range of each field's value is recorded as it is written. Anything that is not a plain
//! struct at the top (a map, a flattened struct, an enum) is written whole with no split.

use std::fmt;
use std::ops::Range;

use serde::ser::{self, Impossible, Serialize};

/// JSON text of a view, and the byte range of each top-level member's value in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ViewText {
    pub text: String,
    /// In the order written; empty when the view is not a struct.
    pub members: Vec<(&'static str, Range<usize>)>,
}

impl ViewText {
    /// `value` as JSON text, split by member when it is a struct.
    pub fn of<T: Serialize + ?Sized>(value: &T) -> serde_json::Result<Self> {
        Self::sharing(value, &[], None)
    }

    /// `value` as [`ViewText::of`] writes it, except that each member named in `public`
    /// that `source` has is not written again but copied from `source`: the members of a
    /// game's view that are alike for every observer, written once per position.
    pub fn sharing<T: Serialize + ?Sized>(
        value: &T,
        public: &[&str],
        source: Option<&ViewText>,
    ) -> serde_json::Result<Self> {
        let mut split = Split {
            out: Vec::with_capacity(source.map_or(0, |s| s.text.len())),
            members: Vec::new(),
            public,
            source,
        };
        match value.serialize(&mut split) {
            Ok(()) => Ok(ViewText {
                text: String::from_utf8(split.out).map_err(ser::Error::custom)?,
                members: split.members,
            }),
            Err(NotAStruct) => Ok(ViewText {
                text: serde_json::to_string(value)?,
                members: Vec::new(),
            }),
        }
    }

    /// The text of member `key`, if the view has it.
    pub fn member(&self, key: &str) -> Option<&str> {
        self.members
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, range)| &self.text[range.clone()])
    }

    /// The text of each member, in order.
    pub fn member_texts(&self) -> impl Iterator<Item = (&'static str, &str)> {
        self.members
            .iter()
            .map(|(key, range)| (*key, &self.text[range.clone()]))
    }
}

/// The top level was not a struct (or a member failed to serialize): write it whole.
#[derive(Debug)]
struct NotAStruct;

impl fmt::Display for NotAStruct {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not a struct")
    }
}

impl std::error::Error for NotAStruct {}

impl ser::Error for NotAStruct {
    fn custom<T: fmt::Display>(_: T) -> Self {
        NotAStruct
    }
}

struct Split<'a> {
    out: Vec<u8>,
    members: Vec<(&'static str, Range<usize>)>,
    /// Members copied from `source` rather than written.
    public: &'a [&'a str],
    source: Option<&'a ViewText>,
}

impl ser::SerializeStruct for &mut Split<'_> {
    type Ok = ();
    type Error = NotAStruct;

    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), NotAStruct> {
        if !self.members.is_empty() {
            self.out.push(b',');
        }
        serde_json::to_writer(&mut self.out, key).map_err(|_| NotAStruct)?;
        self.out.push(b':');
        let start = self.out.len();
        let copied = self
            .source
            .filter(|_| self.public.contains(&key))
            .and_then(|source| source.member(key));
        match copied {
            Some(text) => self.out.extend_from_slice(text.as_bytes()),
            None => serde_json::to_writer(&mut self.out, value).map_err(|_| NotAStruct)?,
        }
        self.members.push((key, start..self.out.len()));
        Ok(())
    }

    fn end(self) -> Result<(), NotAStruct> {
        self.out.push(b'}');
        Ok(())
    }
}

/// Every kind of value but a struct is refused (and then written whole by the caller).
macro_rules! refuse {
    ($($method:ident($($arg:ty),*) -> $ok:ty;)*) => {
        $(fn $method(self, $(_: $arg),*) -> Result<$ok, NotAStruct> {
            Err(NotAStruct)
        })*
    };
}

impl ser::Serializer for &mut Split<'_> {
    type Ok = ();
    type Error = NotAStruct;
    type SerializeSeq = Impossible<(), NotAStruct>;
    type SerializeTuple = Impossible<(), NotAStruct>;
    type SerializeTupleStruct = Impossible<(), NotAStruct>;
    type SerializeTupleVariant = Impossible<(), NotAStruct>;
    type SerializeMap = Impossible<(), NotAStruct>;
    type SerializeStruct = Self;
    type SerializeStructVariant = Impossible<(), NotAStruct>;

    fn serialize_struct(self, _: &'static str, len: usize) -> Result<Self, NotAStruct> {
        self.out.reserve(len * 64);
        self.out.push(b'{');
        Ok(self)
    }

    fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<(), NotAStruct> {
        Err(NotAStruct)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: &T,
    ) -> Result<(), NotAStruct> {
        Err(NotAStruct)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<(), NotAStruct> {
        Err(NotAStruct)
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
        serialize_seq(Option<usize>) -> Self::SerializeSeq;
        serialize_tuple(usize) -> Self::SerializeTuple;
        serialize_tuple_struct(&'static str, usize) -> Self::SerializeTupleStruct;
        serialize_tuple_variant(&'static str, u32, &'static str, usize) -> Self::SerializeTupleVariant;
        serialize_map(Option<usize>) -> Self::SerializeMap;
        serialize_struct_variant(&'static str, u32, &'static str, usize) -> Self::SerializeStructVariant;
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde::Serialize;

    use super::*;

    #[derive(Serialize)]
    struct Board {
        name: &'static str,
        spaces: Vec<(f32, Option<u8>)>,
        #[serde(skip_serializing_if = "Option::is_none")]
        hidden: Option<u8>,
        nested: BTreeMap<String, Vec<u8>>,
    }

    fn board() -> Board {
        Board {
            name: "a \"quoted\" name",
            spaces: vec![(1.5, None), (2.0, Some(3))],
            hidden: None,
            nested: [("k".to_string(), vec![1, 2])].into(),
        }
    }

    #[test]
    fn a_struct_is_the_text_serde_json_writes_and_each_member_is_its_value() {
        let view = ViewText::of(&board()).expect("serializable");
        assert_eq!(
            view.text,
            serde_json::to_string(&board()).expect("serializable")
        );
        let whole: serde_json::Value = serde_json::from_str(&view.text).expect("JSON");
        let members: Vec<(&str, &str)> = view.member_texts().collect();
        assert_eq!(
            members.iter().map(|m| m.0).collect::<Vec<_>>(),
            ["name", "spaces", "nested"]
        );
        for (key, text) in members {
            let value: serde_json::Value = serde_json::from_str(text).expect("a member is JSON");
            assert_eq!(value, whole[key], "{key}");
        }
    }

    #[test]
    fn anything_else_is_written_whole() {
        let map: BTreeMap<&str, u8> = [("a", 1)].into();
        for (text, expected) in [
            (ViewText::of(&map), r#"{"a":1}"#),
            (ViewText::of(&[1, 2]), "[1,2]"),
            (ViewText::of(&Some(board().spaces)), "[[1.5,null],[2.0,3]]"),
        ] {
            let text = text.expect("serializable");
            assert_eq!(text.text, expected);
            assert!(text.members.is_empty());
        }
    }

    #[test]
    fn public_members_are_copied_from_the_source_and_the_rest_is_written() {
        let source = ViewText::of(&board()).expect("serializable");
        let mut other = board();
        other.name = "another name";
        other.spaces.push((9.0, None));
        let shared =
            ViewText::sharing(&other, &["spaces", "absent"], Some(&source)).expect("serializable");
        let mut expected = board();
        expected.name = "another name";
        assert_eq!(
            shared.text,
            serde_json::to_string(&expected).expect("serializable"),
            "spaces come from the source, the name from the value"
        );
        assert_eq!(shared.member("name"), Some(r#""another name""#));
        assert_eq!(shared.member("hidden"), None);
        assert_eq!(
            ViewText::sharing(&other, &["spaces"], None).expect("serializable"),
            ViewText::of(&other).expect("serializable"),
            "without a source everything is written"
        );
    }
}
