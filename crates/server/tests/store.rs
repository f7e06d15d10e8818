//! The `Store` contract, on SQLite and on PostgreSQL alike: what the server relies on.

use std::sync::Arc;

use serde_json::json;
use server::store::{
    self, Change, Commit, GameRow, LobbyQuery, MoveRow, SeatRecord, Status, Store, StoreError,
};
use server::SyncMode;

fn game(id: &str, status: Status) -> GameRow {
    let human = |name: Option<&str>, hash: &str| {
        SeatRecord::human(name.map(String::from), hash.repeat(32), false)
    };
    GameRow {
        id: id.to_string(),
        game: "valdora".into(),
        config: json!({"players": 3}),
        seed: u64::MAX - 5,
        seed_chosen: true,
        created: 1_700_000_000_000,
        status,
        seats: vec![
            human(Some("Ana"), "ab"),
            human(None, "cd"),
            SeatRecord::bot("Bot (easy)".into(), "easy".into()),
        ],
        version: 0,
        data_digest: None,
        owner: None,
        settings: Default::default(),
        started: None,
    }
}

fn commit(id: &str, seq: u64, ends_game: bool) -> Commit {
    Commit {
        mv: MoveRow {
            game_id: id.to_string(),
            seq,
            seat: (seq % 3) as u8,
            action: json!({"Move": {"to": seq}}),
            at: 1_700_000_000_000 + seq as i64,
            undoes: None,
        },
        ends_game,
    }
}

/// Every property the server relies on, on `url`; two connections stand for two server
/// processes sharing the database.
async fn contract(url: &str) {
    let store: Arc<dyn Store> = store::open(url, SyncMode::Full).await.expect("open");
    let other: Arc<dyn Store> = store::open(url, SyncMode::Full).await.expect("open again");
    let row = game("aaaaaaaaaaaa", Status::Open);
    store
        .create_game(&row, Some("creator-a"))
        .await
        .expect("create");
    assert!(
        store.create_game(&row, None).await.is_err(),
        "ids are unique"
    );
    assert_eq!(other.open_tables_of("creator-a").await.expect("count"), 1);
    assert_eq!(other.open_tables_of("creator-b").await.expect("count"), 0);
    let (loaded, moves) = store
        .load_game(&row.id)
        .await
        .expect("load")
        .expect("found");
    assert_eq!((loaded, moves), (row.clone(), vec![]));
    assert_eq!(store.load_game("bbbbbbbbbbbb").await.expect("load"), None);

    // Seats: compare-and-set on the version.
    let mut seats = row.seats.clone();
    seats[1].name = Some("Bea".into());
    store
        .update_seats(&row.id, &seats, Status::Running, 0, Some(1_700_000_100_000))
        .await
        .expect("first change");
    let started = store
        .load_row(&row.id)
        .await
        .expect("load")
        .map(|r| r.started);
    assert_eq!(started, Some(Some(1_700_000_100_000)), "the start is kept");
    assert_eq!(
        store.open_tables_of("creator-a").await.expect("count"),
        0,
        "a game that starts no longer counts as its creator's open table"
    );
    assert_eq!(
        other
            .update_seats(&row.id, &seats, Status::Running, 0, Some(1))
            .await,
        Err(StoreError::Conflict),
        "a change from an old version is refused"
    );

    // A batch stores in order; a taken seq is a conflict and the rest of the batch stores.
    let results = store
        .append_moves(&[commit(&row.id, 0, false), commit(&row.id, 1, false)])
        .await
        .expect("batch");
    assert_eq!(results, vec![Ok(()), Ok(())]);
    let results = store
        .append_moves(&[commit(&row.id, 1, false), commit(&row.id, 2, false)])
        .await
        .expect("batch");
    assert_eq!(results, vec![Err(StoreError::Conflict), Ok(())]);

    // Two processes race for seq 3: exactly one stores it.
    let race = [commit(&row.id, 3, false)];
    let (a, b) = tokio::join!(store.append_moves(&race), other.append_moves(&race));
    let mut outcomes = [a.expect("a")[0].clone(), b.expect("b")[0].clone()];
    outcomes.sort_by_key(|r| r.is_err());
    assert_eq!(outcomes, [Ok(()), Err(StoreError::Conflict)]);

    // The last move ends the game in the same transaction.
    store
        .append_moves(&[commit(&row.id, 4, true)])
        .await
        .expect("last move");
    let (loaded, moves) = other
        .load_game(&row.id)
        .await
        .expect("load")
        .expect("found");
    assert_eq!(loaded.status, Status::Over);
    assert_eq!(loaded.seats[1].name.as_deref(), Some("Bea"));
    assert_eq!(
        loaded.seed,
        u64::MAX - 5,
        "u64 seeds survive the i64 column"
    );
    assert_eq!(moves.len(), 5);
    assert_eq!(moves[4], commit(&row.id, 4, true).mv);
    // A copy that has the first moves reads the rest only.
    assert_eq!(
        other.load_moves(&row.id, 3).await.expect("the last moves"),
        moves[3..]
    );
    assert_eq!(other.load_moves(&row.id, 5).await.expect("none"), []);
    assert_eq!(other.load_row(&row.id).await.expect("row"), Some(loaded));

    // A large batch of several games is stored in more than one statement; a second move
    // for a position already in the batch is a conflict and the first one is what stays.
    let second = game("dddddddddddd", Status::Running);
    store
        .create_game(&second, None)
        .await
        .expect("another game");
    let mut batch: Vec<Commit> = (0..300)
        .flat_map(|seq| {
            [
                commit(&second.id, seq, false),
                commit(&row.id, 5 + seq, false),
            ]
        })
        .collect();
    let mut twin = commit(&second.id, 7, false);
    twin.mv.action = json!({"Move": {"to": "elsewhere"}});
    batch.insert(20, twin);
    batch.push(commit(&row.id, 0, false));
    let results = store.append_moves(&batch).await.expect("large batch");
    let refused: Vec<usize> = (0..results.len())
        .filter(|&i| results[i].is_err())
        .collect();
    assert_eq!(refused, [20, batch.len() - 1], "{results:?}");
    assert!(results
        .iter()
        .all(|r| matches!(r, Ok(()) | Err(StoreError::Conflict))));
    let (_, moves) = other
        .load_game(&second.id)
        .await
        .expect("load")
        .expect("found");
    assert_eq!(moves.len(), 300);
    assert_eq!(moves[7], commit(&second.id, 7, false).mv);

    // Lobby lists and counts.
    store
        .create_game(&game("cccccccccccc", Status::Open), None)
        .await
        .expect("second game");
    let lobby = |status, limit| LobbyQuery {
        game: None,
        status,
        clock: None,
        rated: None,
        players: None,
        language: None,
        before: None,
        limit,
    };
    let open = store
        .list_games(&lobby(Some(Status::Open), 10))
        .await
        .expect("list");
    let ids: Vec<&str> = open.iter().map(|g| g.id.as_str()).collect();
    assert_eq!(ids, ["cccccccccccc"]);
    assert_eq!(
        store.list_games(&lobby(None, 1)).await.expect("list").len(),
        1
    );
    let counts = store.status_counts().await.expect("counts");
    assert_eq!((counts.open, counts.running, counts.over), (1, 1, 1));
    assert_eq!(
        store.game_ids(Status::Over).await.expect("ids"),
        ["aaaaaaaaaaaa"]
    );
    leases(store.as_ref(), other.as_ref()).await;
    accounts(store.as_ref(), "aaaaaaaaaaaa").await;
    seeks(store.as_ref(), other.as_ref()).await;
    store.ping().await.expect("ping");
    store.close().await;
    other.close().await;
    // Reopening migrates nothing twice.
    store::open(url, SyncMode::Normal)
        .await
        .expect("reopen")
        .close()
        .await;
}

/// Accounts: one per name key, sessions honoured until they expire and ended one by one
/// or all at once, a seat of a game (`game_id`, which exists) belonging to one account.
async fn accounts(store: &dyn Store, game_id: &str) {
    let account = |id: &str, name: &str| store::AccountRow {
        id: id.to_string(),
        name: name.to_string(),
        password_hash: Some("$argon2id$…".into()),
        created: 1_000,
    };
    let keys = |key: &str, skeleton: &str| store::NameKeys {
        key: key.to_string(),
        skeleton: skeleton.to_string(),
    };
    let (ana, bo) = (account("acc-ana", "Ana"), account("acc-bo", "Bo"));
    assert!(store
        .create_account(&ana, &keys("ana", "ana"))
        .await
        .expect("create"));
    for (key, skeleton) in [("ana", "other"), ("other", "ana")] {
        assert!(
            !store
                .create_account(&account("acc-x", "ANA"), &keys(key, skeleton))
                .await
                .expect("taken"),
            "{key} {skeleton}"
        );
    }
    assert!(store
        .create_account(&bo, &keys("bo", "bo"))
        .await
        .expect("create"));
    assert_eq!(
        store.account_named("ana").await.expect("named"),
        Some(ana.clone())
    );
    assert_eq!(
        store.account_like("ana").await.expect("like"),
        Some(ana.clone())
    );
    assert_eq!(store.account_named("nobody").await.expect("named"), None);

    let session = |hash: &str, account: &str, expires: i64| store::SessionRow {
        token_hash: hash.to_string(),
        account_id: account.to_string(),
        created: 2_000,
        expires,
    };
    store
        .create_session(&session("s1", "acc-ana", 10_000))
        .await
        .expect("session");
    store
        .create_session(&session("s2", "acc-ana", 20_000))
        .await
        .expect("session");
    let found = |hash: &'static str, now: i64| async move {
        store
            .session_account(hash, now)
            .await
            .expect("session account")
            .map(|a| a.id)
    };
    assert_eq!(found("s1", 9_999).await.as_deref(), Some("acc-ana"));
    assert_eq!(found("s1", 10_000).await, None, "expired at its expiry");
    assert_eq!(found("nope", 0).await, None);
    store.end_session("s2").await.expect("end");
    assert_eq!(found("s2", 0).await, None);
    store
        .create_session(&session("s3", "acc-ana", 30_000))
        .await
        .expect("session");
    store
        .create_session(&session("s4", "acc-bo", 30_000))
        .await
        .expect("session");
    assert_eq!(
        store.end_sessions_of("acc-ana").await.expect("end all"),
        2,
        "s1 and s3"
    );
    assert_eq!(
        found("s4", 0).await.as_deref(),
        Some("acc-bo"),
        "another account's stays"
    );

    assert!(store
        .claim_seat("acc-ana", game_id, 0)
        .await
        .expect("claim"));
    assert!(
        store
            .claim_seat("acc-ana", game_id, 0)
            .await
            .expect("again"),
        "idempotent"
    );
    assert!(!store.claim_seat("acc-bo", game_id, 0).await.expect("taken"));
    assert!(store
        .claim_seat("acc-ana", game_id, 2)
        .await
        .expect("claim"));
    assert_eq!(
        store.seats_at("acc-ana", game_id).await.expect("seats"),
        [0, 2]
    );
    assert!(store
        .seats_at("acc-bo", game_id)
        .await
        .expect("seats")
        .is_empty());
    assert_eq!(
        store.seats_of("acc-ana", 1).await.expect("seats of"),
        [(game_id.to_string(), 0)]
    );
}

/// A running game's lease: held by one process at a time, renewed by it, taken over by
/// another once it lapsed or was given up. `store` and `other` are two processes' stores.
async fn leases(store: &dyn Store, other: &dyn Store) {
    let running = store.game_ids(Status::Running).await.expect("ids");
    assert_eq!(running.len(), 1);
    let id = &running[0];
    let none: Vec<String> = Vec::new();
    assert_eq!(
        store.renew_leases("p1", 2_000, 1_000).await.expect("renew"),
        running,
        "a running game with no lease is taken"
    );
    assert!(
        !other
            .claim_lease(id, "p2", 3_000, 1_500)
            .await
            .expect("claim"),
        "a held lease is not taken"
    );
    assert_eq!(
        other.renew_leases("p2", 3_000, 1_500).await.expect("renew"),
        none
    );
    assert!(
        store
            .claim_lease(id, "p1", 4_000, 1_900)
            .await
            .expect("claim"),
        "its holder renews it"
    );
    assert_eq!(
        other.renew_leases("p2", 6_000, 4_001).await.expect("renew"),
        running,
        "a lapsed lease is taken over"
    );
    assert_eq!(
        store.renew_leases("p1", 7_000, 4_500).await.expect("renew"),
        none
    );
    other.release_leases("p2").await.expect("release");
    assert!(
        store
            .claim_lease(id, "p1", 8_000, 5_000)
            .await
            .expect("claim"),
        "a lease given up is free at once"
    );
}

/// Seeks: listed while alive and unmatched, oldest first; matched exactly once when two
/// processes claim overlapping seeks at once (the loser stores nothing, not even its
/// game); never matched once dead; a seated person's other seeks withdrawn.
async fn seeks(store: &dyn Store, other: &dyn Store) {
    let seek = |id: &str, owner: &str, created: i64| store::SeekRow {
        id: id.to_string(),
        secret_hash: format!("secret-{id}"),
        seat_hash: format!("seat-{id}"),
        owner: owner.to_string(),
        account_id: None,
        name: owner.to_uppercase(),
        rating: None,
        game: "valdora".into(),
        spec: store::SeekSpec {
            players: (2, 2),
            clock: Default::default(),
            rated: false,
            ratings: None,
            languages: vec!["es".into()],
            bots_after_secs: Some(30),
        },
        created,
        alive_until: 10_000,
        matched: None,
    };
    let rows = [
        seek("s1", "a", 1),
        seek("s2", "b", 2),
        seek("s3", "c", 3),
        seek("s4", "a", 4),
        seek("s5", "d", 5),
    ];
    for row in &rows {
        store.post_seek(row).await.expect("post");
    }
    assert_eq!(store.open_seeks(5_000).await.expect("open"), rows);
    assert_eq!(
        store.open_seeks_of("a", 5_000).await.expect("of a").len(),
        2
    );
    let claim = |seek: &str, seat: u8, owner: &str| store::SeekClaim {
        seek: seek.into(),
        seat,
        account_id: None,
        owner: owner.into(),
    };
    let first = game("seektable01", Status::Running);
    let second = game("seektable02", Status::Running);
    let first_claims = [claim("s1", 0, "a"), claim("s2", 1, "b")];
    let second_claims = [claim("s3", 0, "c"), claim("s2", 1, "b")];
    let (one, two) = tokio::join!(
        store.match_seeks(&first, &first_claims, 5_000),
        other.match_seeks(&second, &second_claims, 5_000),
    );
    let first_won = match (one, two) {
        (Ok(()), Err(StoreError::Conflict)) => true,
        (Err(StoreError::Conflict), Ok(())) => false,
        other => panic!("exactly one match stores its table: {other:?}"),
    };
    let (won, lost) = if first_won {
        (&first, &second)
    } else {
        (&second, &first)
    };
    assert!(store.load_row(&won.id).await.expect("load").is_some());
    assert_eq!(
        store.load_row(&lost.id).await.expect("load"),
        None,
        "nothing of the loser"
    );
    let s2 = store.seek("s2").await.expect("seek").expect("s2");
    assert_eq!(s2.matched, Some((won.id.clone(), 1)));
    let open: Vec<String> = store
        .open_seeks(5_000)
        .await
        .expect("open")
        .into_iter()
        .map(|s| s.id)
        .collect();
    // Seated by s1, a's other seek s4 is withdrawn.
    let expected = if first_won {
        vec!["s3", "s5"]
    } else {
        vec!["s1", "s4", "s5"]
    };
    assert_eq!(open, expected);
    assert!(
        !store.withdraw_seek("s2").await.expect("withdraw"),
        "matched: kept"
    );

    // s5 is dead at 20_000: kept alive nowhere, matched by nobody.
    store
        .keep_seeks_alive(&["s5".to_string()], 20_000, 50_000)
        .await
        .expect("keep");
    assert_eq!(
        store
            .seek("s5")
            .await
            .expect("seek")
            .expect("s5")
            .alive_until,
        10_000
    );
    let late = game("seektable03", Status::Running);
    let dead = store
        .match_seeks(&late, &[claim("s5", 0, "d")], 20_000)
        .await;
    assert_eq!(dead, Err(StoreError::Conflict));
    assert_eq!(store.load_row(&late.id).await.expect("load"), None);
    // Alive seeks are kept alive; a withdrawn one is gone.
    store
        .keep_seeks_alive(&["s3".to_string(), "s1".to_string()], 5_000, 40_000)
        .await
        .expect("keep");
    let alive = store.open_seeks(30_000).await.expect("open");
    assert!(alive.iter().all(|s| s.alive_until == 40_000), "{alive:?}");
    assert!(!alive.is_empty());
    assert!(store.withdraw_seek(&alive[0].id).await.expect("withdraw"));
    assert_eq!(store.seek(&alive[0].id).await.expect("seek"), None);
    // Dead seeks, and matched ones from before the second bound, are forgotten.
    let forgotten = store.forget_seeks(30_000, 100).await.expect("forget");
    assert!(forgotten >= 2, "s5 and s2 at least: {forgotten}");
    assert_eq!(store.seek("s2").await.expect("seek"), None);
    assert_eq!(store.seek("s5").await.expect("seek"), None);
}

#[tokio::test]
async fn sqlite_keeps_the_store_contract() {
    let dir = tempfile::tempdir().expect("temp dir");
    contract(&format!("sqlite://{}", dir.path().join("t.db").display())).await;
}

#[tokio::test]
async fn postgres_keeps_the_store_contract() {
    if let Some(url) = server::testing::fresh_postgres_schema().await {
        contract(&url).await;
    }
}

/// The next change heard.
async fn next(heard: &mut tokio::sync::mpsc::Receiver<Change>) -> Change {
    tokio::time::timeout(std::time::Duration::from_secs(10), heard.recv())
        .await
        .expect("heard within 10 s")
        .expect("still following")
}

/// A server process hears the moves and seat changes every process stores on the
/// database, once committed, and nothing from another schema.
#[tokio::test]
async fn postgres_tells_every_process_what_was_stored() {
    let (Some(url), Some(elsewhere)) = (
        server::testing::fresh_postgres_schema().await,
        server::testing::fresh_postgres_schema().await,
    ) else {
        return;
    };
    let store = store::open(&url, SyncMode::Full).await.expect("open");
    let other = store::open(&url, SyncMode::Full).await.expect("open again");
    let unrelated = store::open(&elsewhere, SyncMode::Full).await.expect("open");
    let mut heard = other
        .follow()
        .await
        .expect("follow")
        .expect("PostgreSQL tells");
    let (one, two) = (
        game("aaaaaaaaaaaa", Status::Open),
        game("bbbbbbbbbbbb", Status::Running),
    );
    for store in [&store, &unrelated] {
        store.create_game(&one, None).await.expect("create");
        store.create_game(&two, None).await.expect("create");
    }
    unrelated
        .append_moves(&[commit(&two.id, 0, false)])
        .await
        .expect("elsewhere");
    // One batch of two games: each game is told once, with its number of moves.
    let batch = [
        commit(&one.id, 0, false),
        commit(&one.id, 1, false),
        commit(&two.id, 0, false),
    ];
    store.append_moves(&batch).await.expect("batch");
    let mut changes = vec![next(&mut heard).await, next(&mut heard).await];
    changes.sort_by_key(|c| format!("{c:?}"));
    assert_eq!(
        changes,
        [
            Change::Moves {
                game: one.id.clone(),
                stored: 2
            },
            Change::Moves {
                game: two.id.clone(),
                stored: 1
            },
        ]
    );
    let mut seats = one.seats.clone();
    seats[1].name = Some("Bea".into());
    store
        .update_seats(&one.id, &seats, Status::Running, 0, None)
        .await
        .expect("seats");
    assert_eq!(
        next(&mut heard).await,
        Change::Game {
            game: one.id.clone()
        }
    );
    // A move refused as a conflict tells nothing; the game's last move tells both.
    assert_eq!(
        store
            .append_moves(&[commit(&two.id, 0, false)])
            .await
            .expect("refused"),
        [Err(StoreError::Conflict)]
    );
    store
        .append_moves(&[commit(&two.id, 1, true)])
        .await
        .expect("last move");
    let mut changes = vec![next(&mut heard).await, next(&mut heard).await];
    changes.sort_by_key(|c| format!("{c:?}"));
    assert_eq!(
        changes,
        [
            Change::Game {
                game: two.id.clone()
            },
            Change::Moves {
                game: two.id.clone(),
                stored: 2
            },
        ]
    );
    assert!(heard.try_recv().is_err(), "nothing else was told");
    for store in [store, other, unrelated] {
        store.close().await;
    }
}

#[tokio::test]
async fn sqlite_tells_nothing() {
    let dir = tempfile::tempdir().expect("temp dir");
    let url = format!("sqlite://{}", dir.path().join("t.db").display());
    let store = store::open(&url, SyncMode::Full).await.expect("open");
    assert!(store.follow().await.expect("follow").is_none());
}

#[tokio::test]
async fn database_urls_are_checked() {
    let err = store::open("mysql://localhost/x", SyncMode::Full)
        .await
        .err();
    assert!(
        matches!(&err, Some(StoreError::Open(m)) if m.contains("sqlite:// or postgres://")),
        "{err:?}"
    );
}

/// A SQLite database made by the server before tables could be cancelled or expire
/// (migrations 1 to 5) keeps its games and moves through the rebuild of its games table
/// (migration 6), and takes the new statuses and seat events after it.
#[tokio::test]
async fn sqlite_upgrades_a_database_of_an_earlier_version() {
    use sqlx::Connection;
    let dir = tempfile::tempdir().expect("temp dir");
    let earlier = dir.path().join("migrations");
    std::fs::create_dir(&earlier).expect("folder");
    let shipped = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations/sqlite");
    for entry in std::fs::read_dir(&shipped).expect("migrations") {
        let path = entry.expect("entry").path();
        let name = path
            .file_name()
            .expect("name")
            .to_string_lossy()
            .to_string();
        if name.as_str() < "0006" {
            std::fs::copy(&path, earlier.join(&name)).expect("copy");
        }
    }
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("t.db").display());
    sqlx::any::install_default_drivers();
    {
        let mut connection = sqlx::AnyConnection::connect(&url).await.expect("connect");
        sqlx::migrate::Migrator::new(earlier.as_path())
            .await
            .expect("earlier migrations")
            .run(&mut connection)
            .await
            .expect("migrated to version 5");
        sqlx::query(
            "INSERT INTO games (id, game, config, seed, seed_chosen, created, status, seats, \
             version) VALUES ('old', 'valdora', '{}', 7, 0, 1, 'running', \
             '[{\"kind\":\"human\",\"name\":\"Ana\",\"token_hash\":\"ab\"}]', 3)",
        )
        .execute(&mut connection)
        .await
        .expect("a game");
        sqlx::query(
            "INSERT INTO moves (game_id, seq, seat, action, at) VALUES ('old', 0, 0, '{}', 5)",
        )
        .execute(&mut connection)
        .await
        .expect("a move");
        connection.close().await.expect("close");
    }
    let store = store::open(&url, SyncMode::Normal).await.expect("upgraded");
    let (row, moves) = store.load_game("old").await.expect("load").expect("kept");
    assert_eq!(
        (
            row.status,
            row.version,
            row.seats[0].name.as_deref(),
            moves.len()
        ),
        (Status::Running, 3, Some("Ana"), 1)
    );
    assert_eq!(row.settings, Default::default());
    let event = store::SeatEvent {
        what: store::SeatChange::Left,
        seat: 0,
        by: None,
        seq: 1,
        at: 9,
        hint: None,
    };
    store
        .update_seats_logged("old", &row.seats, Status::Running, 3, &event)
        .await
        .expect("a seat event on the upgraded database");
    // A hint is a seat event too, its actions kept with it (the seats unchanged).
    let hinted = store::SeatEvent {
        what: store::SeatChange::Hinted,
        hint: Some(vec![server::protocol::HintedAction {
            action: serde_json::json!({"type": "pass"}),
            description: "pass".into(),
            value: 0.25,
            visits: 12,
        }]),
        ..event.clone()
    };
    store
        .update_seats_logged("old", &row.seats, Status::Running, 4, &hinted)
        .await
        .expect("a hint on the upgraded database");
    assert_eq!(
        store.seat_events("old").await.expect("events"),
        vec![event, hinted]
    );
    // The moves still reference the games table: a move of an unknown game is refused.
    let stored = store.append_moves(&[commit("missing", 0, false)]).await;
    assert!(!matches!(stored.as_deref(), Ok([Ok(())])), "{stored:?}");
    store.close().await;
}
