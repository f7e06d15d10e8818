//! Which open seeks make tables: a pure function of the seeks and the time, so that every
//! server process plans the same tables from the same seeks (the store then lets one of
//! them store each).

use std::collections::HashSet;

use crate::store::SeekRow;

/// A table to make: the seeks it seats (in the order they were posted) and how many bots
/// fill the rest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    pub seeks: Vec<usize>,
    pub bots: u8,
}

/// Whether `a` and `b` may sit at one table: one game, one clock, both rated or both
/// casual, two people, each within the other's rating range, and a language in common
/// where both name languages.
pub fn compatible(a: &SeekRow, b: &SeekRow) -> bool {
    let within = |range: Option<(i32, i32)>, rating: Option<i32>| match (range, rating) {
        (None, _) => true,
        (Some((min, max)), Some(r)) => (min..=max).contains(&r),
        (Some(_), None) => false,
    };
    let (sa, sb) = (&a.spec, &b.spec);
    a.owner != b.owner
        && a.game == b.game
        && sa.clock == sb.clock
        && sa.rated == sb.rated
        && within(sa.ratings, b.rating)
        && within(sb.ratings, a.rating)
        && (sa.languages.is_empty()
            || sb.languages.is_empty()
            || sa.languages.iter().any(|l| sb.languages.contains(l)))
}

/// The seekers' accounts kept apart by a block ([`crate::store::BlockStore`]): never
/// seated together.
#[derive(Debug, Default)]
pub struct Apart {
    pairs: HashSet<(String, String)>,
}

impl Apart {
    /// Of the pairs of accounts (blocker, blocked) the store lists.
    pub fn new(pairs: Vec<(String, String)>) -> Apart {
        Apart {
            pairs: pairs.into_iter().collect(),
        }
    }

    /// Whether the seekers of `a` and `b` are kept apart (guests never are).
    fn between(&self, a: &SeekRow, b: &SeekRow) -> bool {
        let (Some(a), Some(b)) = (&a.account_id, &b.account_id) else {
            return false;
        };
        self.pairs.contains(&(a.clone(), b.clone())) || self.pairs.contains(&(b.clone(), a.clone()))
    }
}

/// Whether `seek` has waited long enough at `now` (Unix milliseconds) for bots.
fn wants_bots(seek: &SeekRow, now: i64) -> bool {
    seek.spec
        .bots_after_secs
        .is_some_and(|secs| now - seek.created >= i64::from(secs) * 1000)
}

/// The tables `seeks` (oldest first) make at `now`. The oldest seek goes first: it is
/// seated with the oldest seeks compatible with it and with each other, as many as every
/// one of them accepts; a group too small for a table waits, unless its seekers who have
/// waited their bot time may be seated with bots. Nobody is in two tables, one person's
/// seeks never sit together, nor do seekers kept `apart`.
pub fn plan(seeks: &[SeekRow], now: i64, apart: &Apart) -> Vec<Plan> {
    let mut seated: HashSet<&str> = HashSet::new();
    let mut plans = Vec::new();
    for (first, seek) in seeks.iter().enumerate() {
        if seated.contains(seek.owner.as_str()) {
            continue;
        }
        let (mut min, mut max) = seek.spec.players;
        let mut group = vec![first];
        for (i, other) in seeks.iter().enumerate().skip(first + 1) {
            if group.len() >= usize::from(max) {
                break;
            }
            let (lo, hi) = (min.max(other.spec.players.0), max.min(other.spec.players.1));
            if lo > hi
                || usize::from(hi) <= group.len()
                || seated.contains(other.owner.as_str())
                || !group
                    .iter()
                    .all(|&g| compatible(&seeks[g], other) && !apart.between(&seeks[g], other))
            {
                continue;
            }
            group.push(i);
            (min, max) = (lo, hi);
        }
        let plan = if group.len() >= usize::from(min) {
            Plan {
                seeks: group,
                bots: 0,
            }
        } else {
            match with_bots(seeks, &group, now) {
                Some(plan) => plan,
                None => continue,
            }
        };
        seated.extend(plan.seeks.iter().map(|&i| seeks[i].owner.as_str()));
        plans.push(plan);
    }
    plans
}

/// The table of the seekers of `group` who have waited their bot time, the group's first
/// among them, filled with bots to the fewest players they all accept.
fn with_bots(seeks: &[SeekRow], group: &[usize], now: i64) -> Option<Plan> {
    let waited: Vec<usize> = group
        .iter()
        .copied()
        .filter(|&i| wants_bots(&seeks[i], now))
        .collect();
    if waited.first() != group.first() {
        return None;
    }
    let min = waited.iter().map(|&i| seeks[i].spec.players.0).max()?;
    let people = u8::try_from(waited.len()).ok()?;
    Some(Plan {
        seeks: waited,
        bots: min.saturating_sub(people),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Clock;
    use crate::store::SeekSpec;

    fn seek(owner: &str, players: (u8, u8), created: i64) -> SeekRow {
        SeekRow {
            id: format!("seek-{owner}-{created}"),
            secret_hash: String::new(),
            seat_hash: String::new(),
            owner: owner.into(),
            account_id: None,
            name: owner.into(),
            rating: None,
            game: "valdora".into(),
            spec: SeekSpec {
                players,
                clock: Clock::Realtime {
                    initial_secs: 300,
                    increment_secs: 5,
                },
                rated: false,
                ratings: None,
                languages: Vec::new(),
                bots_after_secs: None,
            },
            created,
            alive_until: i64::MAX,
            matched: None,
        }
    }

    #[test]
    fn eight_seekers_of_four_make_two_tables_in_the_order_they_came() {
        let seeks: Vec<SeekRow> = (0..8).map(|i| seek(&format!("p{i}"), (4, 4), i)).collect();
        let plans = plan(&seeks, 100, &Apart::default());
        assert_eq!(
            plans,
            [
                Plan {
                    seeks: vec![0, 1, 2, 3],
                    bots: 0
                },
                Plan {
                    seeks: vec![4, 5, 6, 7],
                    bots: 0
                }
            ]
        );
    }

    #[test]
    fn too_few_wait_and_ranges_meet_where_all_agree() {
        let seeks = [
            seek("a", (4, 4), 0),
            seek("b", (4, 4), 1),
            seek("c", (3, 4), 2),
        ];
        assert_eq!(plan(&seeks, 100, &Apart::default()), []);
        // Two who accept two or three, and one who wants three: a table of three.
        let seeks = [
            seek("a", (2, 3), 0),
            seek("b", (2, 3), 1),
            seek("c", (3, 3), 2),
        ];
        assert_eq!(plan(&seeks, 100, &Apart::default())[0].seeks, [0, 1, 2]);
        // Someone who wants four does not join two who accept at most three.
        let seeks = [
            seek("a", (2, 3), 0),
            seek("b", (4, 4), 1),
            seek("c", (2, 3), 2),
        ];
        assert_eq!(plan(&seeks, 100, &Apart::default())[0].seeks, [0, 2]);
    }

    #[test]
    fn one_persons_seeks_never_sit_together_nor_at_two_tables() {
        let mut second = seek("a", (2, 2), 1);
        second.game = "valdora".into();
        second.spec.players = (2, 3);
        let seeks = [
            seek("a", (2, 2), 0),
            second,
            seek("b", (2, 2), 2),
            seek("c", (2, 2), 3),
        ];
        let plans = plan(&seeks, 100, &Apart::default());
        assert_eq!(plans.len(), 1, "{plans:?}");
        assert_eq!(plans[0].seeks, [0, 2]);
    }

    #[test]
    fn seekers_kept_apart_are_never_seated_together() {
        let signed_in = |name: &str, created| SeekRow {
            account_id: Some(format!("id-{name}")),
            ..seek(name, (2, 2), created)
        };
        let seeks = [signed_in("ben", 0), signed_in("ada", 1), signed_in("cy", 2)];
        // Ada blocked Ben: Ben waits for Cy, and Ada for someone else.
        let apart = Apart::new(vec![("id-ada".into(), "id-ben".into())]);
        let plans = plan(&seeks, 100, &apart);
        assert_eq!(plans.len(), 1, "{plans:?}");
        assert_eq!(plans[0].seeks, [0, 2]);
        // Either way round, and without the block they sit together.
        let apart = Apart::new(vec![("id-ben".into(), "id-ada".into())]);
        assert_eq!(plan(&seeks, 100, &apart)[0].seeks, [0, 2]);
        assert_eq!(plan(&seeks, 100, &Apart::default())[0].seeks, [0, 1]);
    }

    #[test]
    fn clock_rating_and_language_must_agree() {
        let mut fast = seek("b", (2, 2), 1);
        fast.spec.clock = Clock::Realtime {
            initial_secs: 60,
            increment_secs: 0,
        };
        assert!(!compatible(&seek("a", (2, 2), 0), &fast));
        let mut rated = seek("b", (2, 2), 1);
        rated.spec.rated = true;
        assert!(!compatible(&seek("a", (2, 2), 0), &rated));

        let mut picky = seek("a", (2, 2), 0);
        picky.spec.ratings = Some((900, 1100));
        let mut strong = seek("b", (2, 2), 1);
        strong.rating = Some(1500);
        assert!(!compatible(&picky, &strong));
        assert!(!compatible(&strong, &picky), "either side's range counts");
        strong.rating = Some(1000);
        assert!(compatible(&picky, &strong));
        assert!(
            !compatible(&picky, &seek("c", (2, 2), 2)),
            "a guest has no rating"
        );

        let mut spanish = seek("a", (2, 2), 0);
        spanish.spec.languages = vec!["es".into()];
        let mut italian = seek("b", (2, 2), 1);
        italian.spec.languages = vec!["it".into()];
        assert!(!compatible(&spanish, &italian));
        italian.spec.languages.push("es".into());
        assert!(compatible(&spanish, &italian));
        assert!(compatible(&spanish, &seek("c", (2, 2), 2)));
    }

    #[test]
    fn bots_fill_only_after_each_seekers_own_wait() {
        let mut alone = seek("a", (3, 4), 0);
        alone.spec.bots_after_secs = Some(30);
        assert_eq!(
            plan(std::slice::from_ref(&alone), 29_999, &Apart::default()),
            []
        );
        assert_eq!(
            plan(std::slice::from_ref(&alone), 30_000, &Apart::default()),
            [Plan {
                seeks: vec![0],
                bots: 2
            }]
        );
        // A companion who has not waited their own time, or wants no bots, is not seated.
        let mut first = seek("a", (4, 4), 0);
        first.spec.bots_after_secs = Some(30);
        let mut patient = seek("b", (4, 4), 10_000);
        patient.spec.bots_after_secs = Some(60);
        let never = seek("c", (4, 4), 20_000);
        let plans = plan(
            &[first.clone(), patient.clone(), never.clone()],
            30_000,
            &Apart::default(),
        );
        assert_eq!(
            plans,
            [Plan {
                seeks: vec![0],
                bots: 3
            }]
        );
        patient.spec.bots_after_secs = Some(20);
        let plans = plan(&[first, patient, never], 30_000, &Apart::default());
        assert_eq!(
            plans,
            [Plan {
                seeks: vec![0, 1],
                bots: 2
            }]
        );
    }
}
