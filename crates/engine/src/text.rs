//! English for logs and terminal tables, shared so that every game counts alike.

/// A count with its noun in the right number: `count(1, "coin", "coins")` is "1 coin",
/// `count(2, "coin", "coins")` is "2 coins", and 0 takes the plural ("0 coins").
pub fn count(n: impl Into<i64>, singular: &str, plural: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { singular } else { plural })
}

#[cfg(test)]
mod tests {
    use super::count;

    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        assert_eq!(count(1u8, "coin", "coins"), "1 coin");
        assert_eq!(count(2u8, "coin", "coins"), "2 coins");
        assert_eq!(count(0u8, "coin", "coins"), "0 coins");
        assert_eq!(count(-1i32, "point", "points"), "-1 points");
        assert_eq!(count(1u16, "sheep", "sheep"), "1 sheep");
    }
}
