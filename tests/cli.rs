//! The `tabletop` binary end to end: the engine line protocol, replay and simulate.

mod common;

use predicates::prelude::*;
use serde_json::{json, Value};

use common::{event_sentences, replay_json, simulate_json, tabletop, Engine};

fn error_kind(reply: &Value) -> &str {
    reply["error"]["kind"]
        .as_str()
        .unwrap_or_else(|| panic!("expected an error, got {reply}"))
}

#[test]
fn engine_session() {
    let mut e = Engine::start();
    let new = e.ask(json!({"cmd":"new","game":"valdora","players":4,"seed":7}));
    assert_eq!(new["id"], 1);
    assert_eq!(new["to_move"], 0);

    let legal = e.ask(json!({"cmd":"legal","id":1}));
    assert_eq!(legal["to_move"], 0);
    let actions = legal["actions"].as_array().expect("actions").clone();
    let descriptions = legal["descriptions"].as_array().expect("descriptions");
    assert!(!actions.is_empty());
    assert_eq!(actions.len(), descriptions.len());
    assert!(descriptions.iter().all(|d| d.is_string()));

    // Mid-game: no outcome yet.
    assert_eq!(
        e.ask(json!({"cmd":"outcome","id":1})),
        json!({"outcome": null})
    );

    // A malformed line gets an error and the next line still works.
    assert_eq!(error_kind(&e.raw("{not json")), "malformed_json");
    assert_eq!(error_kind(&e.raw(r#"{"cmd":"fly"}"#)), "unknown_command");
    assert_eq!(
        e.ask(json!({"cmd":"legal","id":1}))["actions"],
        json!(actions)
    );

    // An illegal action is refused and changes nothing.
    let refused = e.ask(json!({"cmd":"apply","id":1,"action":{"type":"end"}}));
    assert_eq!(error_kind(&refused), "illegal");
    let refused = e.ask(json!({"cmd":"apply","id":1,"action":{"type":"teleport"}}));
    assert_eq!(error_kind(&refused), "malformed");
    assert_eq!(
        e.ask(json!({"cmd":"legal","id":1}))["actions"],
        json!(actions)
    );

    let applied = e.ask(json!({"cmd":"apply","id":1,"action":actions[0]}));
    assert!(
        applied["events"]
            .as_array()
            .is_some_and(|ev| !ev.is_empty()),
        "{applied}"
    );
    assert!(applied.get("to_move").is_some());

    let seat0 = e.ask(json!({"cmd":"view","id":1,"seat":0}));
    assert!(seat0["view"].is_object(), "{seat0}");
    let spectator = e.ask(json!({"cmd":"view","id":1,"seat":null}));
    assert!(spectator["view"].is_object(), "{spectator}");
    assert_eq!(
        error_kind(&e.ask(json!({"cmd":"view","id":1,"seat":4}))),
        "bad_seat"
    );

    assert_eq!(
        error_kind(&e.ask(json!({"cmd":"legal","id":99}))),
        "unknown_id"
    );
    assert_eq!(
        error_kind(&e.ask(json!({"cmd":"new","game":"chess","players":4}))),
        "unknown_game"
    );
    let bad_count = e.ask(json!({"cmd":"new","game":"valdora","players":9,"seed":1}));
    assert_eq!(error_kind(&bad_count), "setup");
    assert!(bad_count["error"]["message"]
        .as_str()
        .is_some_and(|m| m.contains('9')));

    let record = e.ask(json!({"cmd":"record","id":1}));
    assert_eq!(record["record"]["actions"], json!([actions[0]]));
    assert_eq!(record["record"]["seed"], 7);
    assert_eq!(record["record"]["game"], "valdora");

    assert_eq!(e.ask(json!({"cmd":"drop","id":1})), json!({"dropped": 1}));
    assert_eq!(
        error_kind(&e.ask(json!({"cmd":"legal","id":1}))),
        "unknown_id"
    );
    // Ids are never reused.
    assert_eq!(
        e.ask(json!({"cmd":"new","game":"valdora","players":3}))["id"],
        2
    );
    e.quit();
}

#[test]
fn engine_serves_until_end_of_input() {
    let out = tabletop()
        .arg("engine")
        .write_stdin("nope\n\n{\"cmd\":\"new\",\"game\":\"valdora\",\"players\":5}\n")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let replies: Vec<Value> = String::from_utf8_lossy(&out)
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect();
    assert_eq!(replies.len(), 2, "a blank line gets no reply: {replies:?}");
    assert_eq!(error_kind(&replies[0]), "malformed_json");
    assert_eq!(
        replies[1],
        json!({"game": "valdora", "id": 1, "seats": 5, "to_move": 0})
    );
}

#[test]
fn whole_game_through_the_protocol_replays_to_the_same_outcome() {
    let mut e = Engine::start();
    // Always taking the first legal action never ends a Valdora game by its rules (the
    // pawns walk between cities and pass forever), so a turn cap ends it.
    let new = e.ask(json!({
        "cmd": "new", "game": "valdora", "players": 3, "seed": 11,
        "config": {"turn_cap": 150},
    }));
    let id = new["id"].clone();
    let mut to_move = new["to_move"].clone();
    let mut steps = 0;
    while !to_move.is_null() {
        let legal = e.ask(json!({"cmd":"legal","id":id}));
        let first = legal["actions"][0].clone();
        assert!(
            !first.is_null(),
            "no legal action while {to_move} is to move"
        );
        let applied = e.ask(json!({"cmd":"apply","id":id,"action":first}));
        assert!(applied.get("error").is_none(), "{applied}");
        to_move = applied["to_move"].clone();
        steps += 1;
        assert!(steps < 100_000, "the game does not end");
    }
    assert_eq!(
        e.ask(json!({"cmd":"legal","id":id})),
        json!({"to_move": null, "actions": [], "descriptions": []})
    );
    let outcome = e.ask(json!({"cmd":"outcome","id":id}))["outcome"].clone();
    assert!(
        outcome["seats"].as_array().is_some_and(|s| s.len() == 3),
        "{outcome}"
    );
    let over = e.ask(json!({"cmd":"apply","id":id,"action":{"type":"pass"}}));
    assert_eq!(error_kind(&over), "game_over");

    let record = e.ask(json!({"cmd":"record","id":id}))["record"].clone();
    assert_eq!(record["actions"].as_array().map(Vec::len), Some(steps));
    assert_eq!(record["config"]["turn_cap"], 150);
    e.quit();

    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("game.json");
    std::fs::write(&file, record.to_string()).expect("write the record");
    let replay = replay_json(&file);
    assert_eq!(replay["outcome"], outcome);
    let log = replay["log"].as_array().expect("log");
    assert_eq!(log.len(), steps);
    assert!(log[0]["description"].is_string() && log[0]["events"].is_array());
    assert_eq!(log[0]["seat"], 0);

    // The text form draws the last position, then ends with the outcome table.
    tabletop()
        .arg("replay")
        .arg(&file)
        .assert()
        .success()
        .stdout(
            predicate::str::contains("outcome")
                .and(predicate::str::contains("#1 "))
                .and(predicate::str::contains("position after the last action"))
                .and(predicate::str::contains("craftsmen left")),
        );
}

#[test]
fn replay_names_the_failing_action() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("bad.json");
    let record = json!({
        "game": "valdora",
        "config": {"players": 4},
        "seed": 7,
        "actions": [{"type":"move","to":0}, {"type":"end"}, {"type":"end"}],
    });
    std::fs::write(&file, record.to_string()).expect("write");
    tabletop()
        .arg("replay")
        .arg(&file)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("action 2 of 3").and(predicate::str::contains("illegal")));

    std::fs::write(&file, "{\"game\":\"chess\",\"seed\":1,\"actions\":[]}").expect("write");
    tabletop()
        .arg("replay")
        .arg(&file)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("known games: valdora"));
}

#[test]
fn simulate_json_summary() {
    let s = simulate_json(&["valdora", "--players", "4", "--games", "20", "--seed", "1"]);
    assert_eq!(s["games"], 20);
    assert_eq!(s["players"], 4);
    assert!(s["actions"].as_u64().is_some_and(|a| a > 0), "{s}");
    for field in ["seconds", "games_per_s", "actions_per_s"] {
        assert!(s[field].is_number(), "{field} in {s}");
    }
    assert!(s["truncated"].is_u64());
    assert!(
        s["provisional_data"].as_u64().is_some_and(|n| n > 0),
        "the shipped Valdora data has placeholders and simulate says so: {s}"
    );
    for dist in ["turns", "actions_per_game", "score"] {
        for k in ["mean", "min", "max"] {
            assert!(s[dist][k].is_number(), "{dist}.{k} in {s}");
        }
    }
    assert!(s["categories"].as_object().is_some_and(|c| !c.is_empty()));
    let wins = s["wins_by_seat"].as_array().expect("wins_by_seat");
    assert_eq!(wins.len(), 4);
    let total: f64 = wins.iter().filter_map(Value::as_f64).sum();
    assert!((total - 1.0).abs() < 1e-9, "win shares sum to {total}");
}

#[test]
fn simulate_is_independent_of_thread_count() {
    let base = ["valdora", "--players", "3", "--games", "9", "--seed", "5"];
    let one = simulate_json(&[&base[..], &["--threads", "1"]].concat());
    let two = simulate_json(&[&base[..], &["--threads", "2"]].concat());
    assert_eq!(one["actions"], two["actions"]);
    for field in ["turns", "score", "categories", "wins_by_seat", "truncated"] {
        assert_eq!(one[field], two[field], "{field}");
    }
}

#[test]
fn simulate_turn_cap_truncates() {
    let s = simulate_json(&["valdora", "--games", "4", "--turn-cap", "10"]);
    assert_eq!(s["truncated"], 4);
    assert_eq!(s["score"], Value::Null);
    assert!(s["turns"]["max"].as_u64().is_some_and(|t| t <= 10), "{s}");
}

#[test]
fn simulate_rejects_bad_input_clearly() {
    tabletop()
        .args(["simulate", "valdora", "--players", "9", "--games", "2"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("unsupported player count 9"));
    tabletop()
        .args(["simulate", "chess", "--games", "2"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("known games: valdora"));
    tabletop()
        .args(["simulate", "valdora", "--games", "lots"])
        .assert()
        .code(2);

    let dir = tempfile::tempdir().expect("temp dir");
    let broken = dir.path().join("broken.toml");
    std::fs::write(&broken, "this is = [ not toml").expect("write");
    tabletop()
        .args(["simulate", "valdora", "--games", "2", "--data"])
        .arg(&broken)
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("broken.toml")
                .and(predicate::str::contains("invalid component data")),
        );
    tabletop()
        .args(["simulate", "valdora", "--games", "2", "--data"])
        .arg(dir.path().join("missing.toml"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot read data file"));
}

/// `data/valdora.toml` with every workshop's printed points tripled.
fn data_with_tripled_workshop_points() -> String {
    let shipped =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/data/valdora.toml"))
            .expect("the shipped data file");
    let mut in_workshop = false;
    let mut edited = 0;
    let lines: Vec<String> = shipped
        .lines()
        .map(|line| {
            if line.starts_with("[[") || line.starts_with('[') {
                in_workshop = line == "[[workshops]]";
            }
            match line.strip_prefix("points = ") {
                Some(points) if in_workshop => {
                    edited += 1;
                    let points: u32 = points.trim().parse().expect("workshop points");
                    format!("points = {}", 3 * points)
                }
                _ => line.to_string(),
            }
        })
        .collect();
    assert_eq!(edited, 7, "one points line per workshop");
    lines.join("\n")
}

#[test]
fn simulate_plays_with_a_corrected_data_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    let corrected = dir.path().join("valdora.toml");
    std::fs::write(&corrected, data_with_tripled_workshop_points()).expect("write");
    let args = ["valdora", "--players", "4", "--games", "12", "--seed", "3"];
    let shipped = simulate_json(&args);
    let path = corrected.to_str().expect("utf-8 temp path");
    let custom = simulate_json(&[&args[..], &["--data", path]].concat());
    // Random play does not look at points, so the games are the same moves...
    assert_eq!(shipped["actions"], custom["actions"]);
    assert_eq!(
        shipped["categories"]["commissions"],
        custom["categories"]["commissions"]
    );
    // ...and only the workshops are scored from the corrected file.
    let before = shipped["categories"]["workshops"]
        .as_f64()
        .expect("workshops");
    let after = custom["categories"]["workshops"]
        .as_f64()
        .expect("workshops");
    assert!(before > 0.0, "{shipped}");
    assert!((after - 3.0 * before).abs() < 1e-9, "{before} -> {after}");
}

/// `tabletop arena … --json`, parsed.
fn arena_json(args: &[&str]) -> Value {
    let out = tabletop()
        .arg("arena")
        .args(args)
        .arg("--json")
        .output()
        .expect("run arena");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("arena --json prints JSON")
}

/// The report without its timings, which vary from run to run.
fn without_timings(mut report: Value) -> Value {
    report["seconds"] = Value::Null;
    for row in report["bots"].as_array_mut().expect("rows") {
        row["ms_per_decision"] = Value::Null;
    }
    report
}

#[test]
fn arena_reports_one_row_per_bot_with_intervals_and_is_reproducible() {
    let args = [
        "--game",
        "valdora",
        "--players",
        "3",
        "--bots",
        "greedy:lookahead=ply,random,random",
        "--games",
        "6",
        "--seed",
        "11",
    ];
    let report = arena_json(&args);
    let rows = report["bots"].as_array().expect("bots array");
    assert_eq!(rows.len(), 3, "{report}");
    assert_eq!(rows[0]["bot"], "greedy:lookahead=ply");
    assert_eq!(rows[1]["bot"], "random");
    assert_eq!(rows[2]["bot"], "random", "a bot named twice has two rows");
    let scored = report["scored_games"].as_f64().expect("scored games");
    assert!(scored > 0.0, "{report}");
    let mut total = 0.0;
    for row in rows {
        let rate = row["win_rate"].as_f64().expect("win rate");
        let ci = &row["win_rate_ci95"];
        let (lo, hi) = (ci[0].as_f64().expect("lo"), ci[1].as_f64().expect("hi"));
        assert!(lo <= rate && rate <= hi && lo >= 0.0 && hi <= 1.0, "{row}");
        let score = row["mean_score"].as_f64().expect("mean score");
        let sci = &row["mean_score_ci95"];
        assert!(sci[0].as_f64() <= Some(score) && Some(score) <= sci[1].as_f64());
        let rank = row["mean_rank"].as_f64().expect("mean rank");
        assert!((1.0..=3.0).contains(&rank), "{row}");
        total += rate;
    }
    // Shared wins are split, so the rates of one table add up to 1.
    assert!((total - 1.0).abs() < 1e-9, "{report}");
    // Same arguments, same report; the thread count does not change it either.
    assert_eq!(
        without_timings(arena_json(&args)),
        without_timings(report.clone())
    );
    let mut threaded = args.to_vec();
    threaded.extend(["--threads", "2"]);
    let mut two = without_timings(arena_json(&threaded));
    two["threads"] = report["threads"].clone();
    two["threads_requested"] = report["threads_requested"].clone();
    assert_eq!(two, without_timings(report));
}

/// A game that does not end by the rules is named by its seed, and with `--records` its
/// record is kept, and replays to the same truncated end.
#[test]
fn arena_names_and_records_the_games_that_did_not_end() {
    let dir = tempfile::tempdir().expect("temp dir");
    let folder = dir.path().to_str().expect("utf-8 path");
    let args = [
        "--game",
        "valdora",
        "--bots",
        "random,random,random",
        "--games",
        "2",
        "--seed",
        "40",
        "--turn-cap",
        "3",
        "--records",
        folder,
    ];
    let report = arena_json(&args);
    assert_eq!(report["truncated"], 2, "{report}");
    assert_eq!(report["not_ended_seeds"], serde_json::json!([40, 41]));
    let table = tabletop()
        .arg("arena")
        .args(args)
        .output()
        .expect("run arena");
    let table = String::from_utf8_lossy(&table.stdout);
    assert!(table.contains("(not ended: seeds 40, 41)"), "{table}");
    let record = dir.path().join("valdora-41.json");
    let replayed = tabletop()
        .arg("replay")
        .arg(&record)
        .arg("--json")
        .output()
        .expect("run replay");
    assert!(
        replayed.status.success(),
        "{}",
        String::from_utf8_lossy(&replayed.stderr)
    );
    let replayed: Value = serde_json::from_slice(&replayed.stdout).expect("replay JSON");
    assert_eq!(replayed["seed"], 41);
    assert_eq!(replayed["outcome"]["truncated"], true, "{replayed}");
    // Games that end by the rules leave no record; a folder that is not there is refused.
    let ended = tempfile::tempdir().expect("temp dir");
    arena_json(&[
        "--game",
        "valley",
        "--bots",
        "greedy,greedy",
        "--games",
        "1",
        "--records",
        ended.path().to_str().expect("utf-8 path"),
    ]);
    assert_eq!(std::fs::read_dir(ended.path()).expect("folder").count(), 0);
    let missing = dir.path().join("no-such-folder");
    tabletop()
        .args([
            "arena",
            "--game",
            "valley",
            "--bots",
            "random,random",
            "--records",
        ])
        .arg(&missing)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no such folder"));
}

#[test]
fn arena_table_and_svg_chart() {
    let dir = tempfile::tempdir().expect("temp dir");
    let svg = dir.path().join("chart.svg");
    tabletop()
        .args([
            "arena",
            "--game",
            "valdora",
            "--bots",
            "random,random,random",
            "--games",
            "3",
            "--svg",
        ])
        .arg(&svg)
        .assert()
        .success()
        .stdout(
            predicate::str::contains("win rate")
                .and(predicate::str::contains("95% CI"))
                .and(predicate::str::contains("seats rotated")),
        );
    let text = std::fs::read_to_string(&svg).expect("the chart is written");
    assert!(
        text.starts_with("<svg") && text.contains("win rate"),
        "{text}"
    );
}

#[test]
fn round_robin_rates_levels_with_intervals_and_is_reproducible() {
    // Pandoria, 3 players, three entrants: every game seats all three, rotated.
    let dir = tempfile::tempdir().expect("temp dir");
    let svg = dir.path().join("ratings.svg");
    let args = [
        "--game",
        "pandoria",
        "--players",
        "3",
        "--round-robin",
        "--bots",
        "random,easy,greedy:nodes=20",
        "--games",
        "6",
        "--seed",
        "5",
        "--svg",
        svg.to_str().expect("utf-8 path"),
    ];
    let report = arena_json(&args);
    assert_eq!(report["scored_games"], 6, "{report}");
    let rows = report["entrants"].as_array().expect("entrants");
    assert_eq!(rows.len(), 3);
    assert_eq!(report["anchor"], 0, "random is the anchor");
    assert_eq!(rows[0]["rating"], 0.0);
    for row in rows {
        let rating = row["rating"].as_f64().expect("rated");
        let ci = &row["rating_ci95"];
        let (lo, hi) = (ci[0].as_f64().expect("lo"), ci[1].as_f64().expect("hi"));
        assert!(lo <= rating + 1e-9 && rating <= hi + 1e-9, "{row}");
        assert_eq!(row["seats"], 6, "{row}");
    }
    // Both searching bots beat random play in 6 games of Pandoria.
    assert!(rows[1]["rating"].as_f64() > Some(100.0), "{report}");
    assert!(rows[2]["rating"].as_f64() > Some(100.0), "{report}");
    // Three pairs, each compared once a game.
    let pairs = report["pairs"].as_array().expect("pairs");
    assert_eq!(pairs.len(), 3);
    for pair in pairs {
        assert_eq!(pair["comparisons"], 6.0, "{pair}");
        let score = pair["score_of_a"].as_f64().expect("met");
        assert_eq!(pair["sweep"], score == 0.0 || score == 1.0, "{pair}");
    }
    let text = std::fs::read_to_string(&svg).expect("the chart is written");
    assert!(text.starts_with("<svg") && text.contains("Bradley-Terry"));
    // Same arguments, same ratings.
    let again = arena_json(&args);
    assert_eq!(
        again["entrants"][1]["rating"],
        report["entrants"][1]["rating"]
    );
    assert_eq!(again["pairs"], report["pairs"]);
}

#[test]
fn round_robin_needs_two_bots_and_a_level_takes_no_parameters() {
    let arena = |bots: &str| {
        tabletop()
            .args([
                "arena",
                "--game",
                "valley",
                "--players",
                "3",
                "--round-robin",
            ])
            .args(["--bots", bots, "--games", "2"])
            .assert()
            .code(2)
    };
    arena("medium").stderr(predicate::str::contains("at least two bots"));
    arena("hard:iters=5,random").stderr(predicate::str::contains("no parameters"));
}

/// `tabletop positions`: every seat's evaluation features at every turn start of bot
/// games, with the seat's final score; reproducible and independent of the threads.
#[test]
fn positions_record_features_and_final_scores() {
    let positions = |threads: &str| {
        let out = tabletop()
            .args([
                "positions",
                "--game",
                "valley",
                "--players",
                "3",
                "--bots",
                "easy",
            ])
            .args(["--games", "4", "--seed", "21", "--threads", threads])
            .output()
            .expect("runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).expect("UTF-8")
    };
    let csv = positions("1");
    assert_eq!(csv, positions("2"), "independent of the thread count");
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().expect("a header").split(',').collect();
    assert_eq!(header[..4], ["seed", "turn", "seat", "points"]);
    assert_eq!(header.last(), Some(&"final_score"));
    let rows: Vec<Vec<f64>> = lines
        .map(|l| l.split(',').map(|x| x.parse().expect("a number")).collect())
        .collect();
    assert!(rows.len() > 4 * 3 * 10, "{} rows", rows.len());
    let mut final_scores = std::collections::HashMap::new();
    for row in &rows {
        assert_eq!(row.len(), header.len());
        assert!(
            (21.0..25.0).contains(&row[0]) && row[2] < 3.0,
            "seed and seat: {row:?}"
        );
        // A seat's final score is the same on every row of its game, and at least the
        // points its tomb held on the way (Valley's tombs only grow, K-G3).
        let last = *row.last().expect("final score");
        assert_eq!(
            *final_scores
                .entry((row[0] as u64, row[2] as u64))
                .or_insert(last),
            last
        );
        assert!(row[3] <= last, "points now above the final score: {row:?}");
    }
    assert_eq!(final_scores.len(), 4 * 3, "every seat of every game");
    tabletop()
        .args(["positions", "--game", "valdora", "--games", "1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no evaluation features"));
}

#[test]
fn arena_rejects_bad_input_clearly() {
    let arena = |extra: &[&str]| {
        let mut cmd = tabletop();
        cmd.args(["arena", "--game", "valdora", "--games", "2"])
            .args(extra);
        cmd.assert().code(2)
    };
    arena(&["--bots", "random,alphago,random"]).stderr(predicate::str::contains(
        "known bots: random, greedy, ismcts",
    ));
    arena(&["--bots", "ismcts:iters=0,random,random"])
        .stderr(predicate::str::contains("at least 1"));
    arena(&["--bots", "ismcts:iters=-3,random,random"])
        .stderr(predicate::str::contains("at least 1"));
    arena(&["--bots", "ismcts:depth=2,random,random"])
        .stderr(predicate::str::contains("accepted: iters=N"));
    arena(&["--players", "4", "--bots", "random,random,random"])
        .stderr(predicate::str::contains("one bot per seat"));
    arena(&["--bots", "random,random,random,random,random,random,random"])
        .stderr(predicate::str::contains("unsupported player count 7"));
    tabletop()
        .args(["arena", "--game", "chess", "--bots", "random"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("known games: valdora"));
}

#[test]
fn play_answers_bad_input_and_leaves_on_end_of_input() {
    tabletop()
        .args(["play", "valdora", "--bots", "random", "--seed", "2"])
        .write_stdin("hello\n0\n1\nv\n")
        .assert()
        .success()
        .stdout(
            predicate::str::contains("You are seat 0")
                .and(predicate::str::contains("component data are provisional"))
                .and(predicate::str::contains("\"hello\" is not an action"))
                .and(predicate::str::contains("\"0\" is not an action"))
                .and(predicate::str::contains("seat 0 (you): move to"))
                .and(predicate::str::contains("End of input: leaving the game.")),
        );
    tabletop()
        .args(["play", "valdora", "--seed", "2"])
        .write_stdin("q\n")
        .assert()
        .success()
        .stdout(predicate::str::contains("You left the game."));
}

#[test]
fn play_a_whole_game_through_a_pipe() {
    let answers = "1\n".repeat(100_000);
    let output = tabletop()
        .args([
            "play",
            "valdora",
            "--players",
            "3",
            "--seat",
            "1",
            "--bots",
            "random",
            "--seed",
            "4",
        ])
        .write_stdin(answers)
        .assert()
        .success()
        .stdout(
            predicate::str::contains("seat 0 (random):")
                .and(predicate::str::contains("seat 1 (you):"))
                .and(predicate::str::contains("Game over."))
                .and(predicate::str::contains("seat 1 (you): ")),
        )
        .get_output()
        .stdout
        .clone();
    let log = event_sentences(&output);
    assert!(log.iter().any(|line| line.contains(" moves from ")));
    assert!(log.iter().any(|line| line.starts_with("Seat 1 ")));
    assert!(log.contains(&"The game is over"));
}

#[test]
fn play_logs_events_as_sentences_in_every_game() {
    // A phrase each game's log must hold: a move, a purchase, a tile placed.
    for (game, phrase) in [
        ("valdora", " moves from "),
        ("valley", " draws 5 cards"),
        ("pandoria", " places tile "),
    ] {
        let output = tabletop()
            .args(["play", game, "--bots", "random", "--seed", "1"])
            .write_stdin("1\n".repeat(300))
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let log = event_sentences(&output);
        assert!(
            log.iter().any(|line| line.contains(phrase)),
            "{game}: no event line contains {phrase:?}"
        );
    }
}

#[test]
fn play_rejects_bad_input_clearly() {
    tabletop()
        .args(["play", "valdora", "--seat", "4"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("seats 0 to 3"));
    tabletop()
        .args(["play", "valdora", "--bots", "greedy,random"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("one per other seat"));
    tabletop()
        .args(["play", "valdora", "--bots", "minimax"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("known bots"));
}
