//! The engine protocol's own tests.

use super::*;

fn ask(s: &mut Session, line: &str) -> Value {
    s.handle_line(line.as_bytes()).0
}

#[test]
fn errors_have_kinds() {
    let mut s = Session::new();
    let kind = |v: Value| v["error"]["kind"].as_str().unwrap_or("").to_string();
    assert_eq!(kind(ask(&mut s, "{")), "malformed_json");
    assert_eq!(kind(ask(&mut s, "[1]")), "bad_request");
    assert_eq!(kind(ask(&mut s, r#"{"cmd":"dance"}"#)), "unknown_command");
    assert_eq!(
        kind(ask(&mut s, r#"{"cmd":"new","game":"chess"}"#)),
        "unknown_game"
    );
    assert_eq!(kind(ask(&mut s, r#"{"cmd":"legal","id":3}"#)), "unknown_id");
    assert_eq!(
        kind(ask(&mut s, r#"{"cmd":"new","game":"valdora","players":9}"#)),
        "setup"
    );
    let new = ask(
        &mut s,
        r#"{"cmd":"new","game":"valdora","players":3,"seed":1}"#,
    );
    assert_eq!(new["id"], 1);
    assert_eq!(
        kind(ask(&mut s, r#"{"cmd":"view","id":1,"seat":3}"#)),
        "bad_seat"
    );
    assert_eq!(
        kind(ask(
            &mut s,
            r#"{"cmd":"apply","id":1,"action":{"type":"fly"}}"#
        )),
        "malformed"
    );
}
fn serve_text(session: Session, input: &[u8]) -> Vec<Value> {
    let mut out = Vec::new();
    serve_session(session, input, &mut out).expect("in-memory I/O");
    String::from_utf8(out)
        .expect("replies are UTF-8")
        .lines()
        .map(|l| serde_json::from_str(l).expect("each reply is JSON"))
        .collect()
}

fn kind(v: &Value) -> &str {
    v["error"]["kind"].as_str().unwrap_or("")
}

#[test]
fn a_line_beyond_the_cap_is_too_long_and_the_next_is_served() {
    let mut input = vec![b' '; 10];
    input.extend(std::iter::repeat_n(b'x', MAX_LINE_BYTES + 1));
    input.extend_from_slice(b"\n{\"cmd\":\"games\"}\n");
    let replies = serve_text(Session::new(), &input);
    assert_eq!(replies.len(), 2, "{replies:?}");
    assert_eq!(kind(&replies[0]), "too_long");
    assert!(replies[0].to_string().len() < 300, "nothing echoed");
    assert!(replies[1]["games"].is_array());
    // A line of exactly the cap is read.
    let mut exact = br#"{"cmd":"games"}"#.to_vec();
    exact.resize(MAX_LINE_BYTES, b' ');
    let replies = serve_text(Session::new(), &exact);
    assert!(replies[0]["games"].is_array(), "{replies:?}");
}

#[test]
fn a_byte_order_mark_is_accepted() {
    let replies = serve_text(
        Session::new(),
        b"\xEF\xBB\xBF{\"cmd\":\"games\"}\n\xEF\xBB\xBF\n",
    );
    assert_eq!(replies.len(), 1, "a line holding only a BOM is blank");
    assert!(replies[0]["games"].is_array(), "{replies:?}");
}

#[test]
fn duplicate_keys_are_refused_at_any_depth() {
    let mut s = Session::new();
    let r = ask(&mut s, r#"{"cmd":"games","cmd":"quit"}"#);
    assert_eq!(kind(&r), "malformed_json");
    assert!(r.to_string().contains("duplicate key"), "{r}");
    let r = ask(
        &mut s,
        r#"{"cmd":"new","game":"valdora","config":{"players":3,"players":4}}"#,
    );
    assert_eq!(kind(&r), "malformed_json");
    assert!(s.games.is_empty());
}

#[test]
fn echoed_names_and_keys_are_cut_short() {
    let mut s = Session::new();
    let long = "n".repeat(5000);
    for line in [
        format!(r#"{{"cmd":"{long}"}}"#),
        format!(r#"{{"cmd":"new","game":"{long}"}}"#),
        format!(r#"{{"cmd":"new","game":"valdora","config":{{"{long}":1}}}}"#),
        format!(r#"{{"cmd":"games","{long}":1,"{long}":2}}"#),
    ] {
        let r = ask(&mut s, &line);
        assert!(!kind(&r).is_empty(), "{r}");
        let message = r["error"]["message"].as_str().unwrap();
        assert!(message.len() < 600, "{} chars", message.len());
        assert!(
            !message.contains(&"n".repeat(MAX_ECHO_CHARS + 1)),
            "{message}"
        );
    }
}

#[test]
fn seats_and_numbers_are_typed_as_documented() {
    let mut s = Session::new();
    ask(&mut s, r#"{"cmd":"new","game":"valdora","players":3}"#);
    for (seat, expected) in [
        ("3", "bad_seat"),
        ("300", "bad_seat"),
        ("-1", "bad_seat"),
        ("18446744073709551616", "bad_request"),
        ("1.5", "bad_request"),
        ("\"0\"", "bad_request"),
        ("true", "bad_request"),
    ] {
        let r = ask(&mut s, &format!(r#"{{"cmd":"view","id":1,"seat":{seat}}}"#));
        assert_eq!(kind(&r), expected, "seat {seat}: {r}");
    }
    assert!(ask(&mut s, r#"{"cmd":"view","id":1,"seat":2}"#)["view"].is_object());
    for line in [
        r#"{"cmd":"legal","id":18446744073709551616}"#,
        r#"{"cmd":"new","game":"valdora","seed":-1}"#,
        r#"{"cmd":"new","game":"valdora","seed":1e400}"#,
    ] {
        let r = ask(&mut s, line);
        assert!(
            ["bad_request", "malformed_json"].contains(&kind(&r)),
            "{line}: {r}"
        );
    }
    let r = ask(&mut s, r#"{"cmd":"new","game":"valdora","players":300}"#);
    assert_eq!(kind(&r), "setup");
    assert_eq!(
        r["error"]["message"],
        "unsupported player count 300: valdora plays with 3 to 5"
    );
}

#[test]
fn data_paths_can_be_refused_entirely() {
    let mut s = Session::without_data_files();
    let r = ask(
        &mut s,
        r#"{"cmd":"new","game":"valdora","data":"data/valdora.toml"}"#,
    );
    assert_eq!(kind(&r), "data_refused");
    assert!(s.games.is_empty());
    assert_eq!(
        ask(&mut s, r#"{"cmd":"new","game":"valdora","data":null}"#)["id"],
        1
    );
    // A device is no data file, and a file's contents are never echoed.
    let mut s = Session::new();
    let r = ask(
        &mut s,
        r#"{"cmd":"new","game":"valdora","data":"/dev/zero"}"#,
    );
    assert_eq!(kind(&r), "setup");
    assert!(r.to_string().contains("not a regular file"), "{r}");
    let r = ask(
        &mut s,
        r#"{"cmd":"new","game":"valdora","data":"Cargo.toml"}"#,
    );
    assert_eq!(kind(&r), "setup");
    assert!(!r.to_string().contains("tabletop"), "{r}");
}

/// "Why?" answers legal with the rule an offered action follows, and refused with the rule
/// and reason when another seat asks; the game is untouched; errors are typed.
#[test]
fn why_explains_with_a_rule_of_the_game() {
    for game in ["valdora", "valley", "pandoria"] {
        let mut s = Session::new();
        let new = ask(
            &mut s,
            &format!(r#"{{"cmd":"new","game":"{game}","seed":3}}"#),
        );
        assert!(new["id"].is_u64(), "{game}: {new}");
        let rules = s.lookup(1).map(|e| e.game.rules()).unwrap_or_default();
        let cites = |reply: &Value| rules.contains(&reply["rule"].as_str().unwrap_or(""));
        let legal = ask(&mut s, r#"{"cmd":"legal","id":1}"#);
        let mover = legal["to_move"].as_u64().unwrap_or(0);
        let action = legal["actions"][0].clone();
        let why = |seat: u64, action: &Value| {
            json!({"cmd":"why","id":1,"seat":seat,"action":action}).to_string()
        };
        let yes = ask(&mut s, &why(mover, &action));
        assert_eq!(
            (&yes["ok"], &yes["legal"]),
            (&json!(true), &json!(true)),
            "{game}: {yes}"
        );
        assert!(cites(&yes) && yes.get("reason").is_none(), "{game}: {yes}");
        let other = (mover + 1) % new["seats"].as_u64().unwrap_or(2);
        let no = ask(&mut s, &why(other, &action));
        assert_eq!(no["legal"], json!(false), "{game}: {no}");
        assert!(cites(&no), "{game}: {no}");
        assert!(no["reason"]["code"].is_string() && no["reason"]["args"].is_object());
        assert_eq!(ask(&mut s, r#"{"cmd":"legal","id":1}"#), legal, "untouched");

        let kind = |v: Value| v["error"]["kind"].as_str().unwrap_or("").to_string();
        let fly = json!({"type": "fly"});
        assert_eq!(kind(ask(&mut s, &why(mover, &fly))), "malformed", "{game}");
        assert_eq!(kind(ask(&mut s, &why(9, &action))), "bad_seat", "{game}");
        let no_seat = json!({"cmd":"why","id":1,"action":action}).to_string();
        assert_eq!(kind(ask(&mut s, &no_seat)), "bad_request", "{game}");
        let no_action = json!({"cmd":"why","id":1,"seat":0}).to_string();
        assert_eq!(kind(ask(&mut s, &no_action)), "bad_request", "{game}");
        let unknown = json!({"cmd":"why","id":7,"seat":0,"action":action}).to_string();
        assert_eq!(kind(ask(&mut s, &unknown)), "unknown_id", "{game}");
    }
}

#[test]
fn hint_names_legal_actions_best_first_for_the_seat_to_move_only() {
    for game in ["valdora", "valley", "pandoria"] {
        let mut s = Session::new();
        let new = ask(
            &mut s,
            &format!(r#"{{"cmd":"new","game":"{game}","seed":5}}"#),
        );
        assert!(new["id"].is_u64(), "{game}: {new}");
        let legal = ask(&mut s, r#"{"cmd":"legal","id":1}"#);
        let mover = legal["to_move"].as_u64().unwrap_or(0);
        let hint = |seat: u64, extra: &str| {
            format!(r#"{{"cmd":"hint","id":1,"seat":{seat},"iters":40{extra}}}"#)
        };
        let reply = ask(&mut s, &hint(mover, ""));
        let actions = reply["hint"].as_array().cloned().unwrap_or_default();
        assert!(!actions.is_empty() && actions.len() <= 3, "{game}: {reply}");
        let offered = legal["actions"].as_array().cloned().unwrap_or_default();
        let mut last = f64::INFINITY;
        for a in &actions {
            let at = offered.iter().position(|o| *o == a["action"]);
            assert!(at.is_some(), "{game}: {a} is a legal action");
            let described = at.map(|i| &legal["descriptions"][i]);
            assert_eq!(Some(&a["description"]), described, "{game}");
            let value = a["value"].as_f64().unwrap_or(-1.0);
            assert!((0.0..=1.0).contains(&value), "{game}: {a}");
            let visits = a["visits"].as_f64().unwrap_or(0.0);
            assert!(visits <= last, "{game}: most visited first: {reply}");
            last = visits;
        }
        // Reproducible with `iters` and a seed; `top` bounds the list.
        assert_eq!(ask(&mut s, &hint(mover, "")), reply, "{game}");
        let one = ask(&mut s, &hint(mover, r#","top":1"#));
        assert_eq!(one["hint"].as_array().map(Vec::len), Some(1), "{game}");
        assert_eq!(one["hint"][0]["action"], actions[0]["action"], "{game}");

        let kind = |v: Value| v["error"]["kind"].as_str().unwrap_or("").to_string();
        let other = (mover + 1) % new["seats"].as_u64().unwrap_or(2);
        assert_eq!(
            kind(ask(&mut s, &hint(other, ""))),
            "not_your_turn",
            "{game}"
        );
        assert_eq!(kind(ask(&mut s, &hint(9, ""))), "bad_seat", "{game}");
        let no_seat = r#"{"cmd":"hint","id":1}"#;
        assert_eq!(kind(ask(&mut s, no_seat)), "bad_request", "{game}");
        // `ms` with `iters` (which `hint` sends) is refused too.
        for bad in [r#","top":0"#, r#","top":11"#, r#","ms":5"#] {
            assert_eq!(
                kind(ask(&mut s, &hint(mover, bad))),
                "bad_request",
                "{game} {bad}"
            );
        }
        for bad in [
            r#""iters":0"#,
            r#""ms":0"#,
            r#""ms":10001"#,
            r#""iters":1.5"#,
        ] {
            let line = format!(r#"{{"cmd":"hint","id":1,"seat":{mover},{bad}}}"#);
            assert_eq!(kind(ask(&mut s, &line)), "bad_request", "{game} {bad}");
        }
        assert_eq!(ask(&mut s, r#"{"cmd":"legal","id":1}"#), legal, "untouched");
    }
}

#[test]
fn no_hint_once_the_game_is_over() {
    let mut s = Session::new();
    let new = ask(
        &mut s,
        r#"{"cmd":"new","game":"valdora","players":3,"seed":1,"config":{"turn_cap":2}}"#,
    );
    assert!(new["id"].is_u64(), "{new}");
    for _ in 0..10_000 {
        let legal = ask(&mut s, r#"{"cmd":"legal","id":1}"#);
        if legal["to_move"].is_null() {
            break;
        }
        let apply = json!({"cmd":"apply","id":1,"action":legal["actions"][0]}).to_string();
        assert!(ask(&mut s, &apply)["events"].is_array());
    }
    let reply = ask(&mut s, r#"{"cmd":"hint","id":1,"seat":0,"iters":5}"#);
    assert_eq!(reply["error"]["kind"], "game_over", "{reply}");
}
