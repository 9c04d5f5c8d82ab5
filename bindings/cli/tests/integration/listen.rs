//! End-to-end tests of `wirecontract listen`: the binary is started on a free port and a
//! scripted app (a tokio-tungstenite client) speaks GraphMind to it frame by frame. Checked:
//! the handshake and the armed state from the flags, each `--on-pause` policy, step mode,
//! a reconnect whose replay is de-duplicated, bad frames, usage errors, and that the
//! `--record` file is in the shared real-client format.
//!
//! Every wait is bounded (`WAIT`); a listener that outlives its test is killed on drop.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};
use wirecontract::graphmind;

const BIN: &str = env!("CARGO_BIN_EXE_wirecontract");

/// The bound on every wait: a frame, the listener's start, its exit.
const WAIT: Duration = Duration::from_secs(10);

/// A running `wirecontract listen` with its stdout lines and record file.
struct Listener {
    child: Child,
    url: String,
    lines: mpsc::Receiver<String>,
    record: PathBuf,
}

/// What a listener left behind.
struct Finished {
    status: ExitStatus,
    stdout: Vec<String>,
    records: Vec<Value>,
}

impl Listener {
    /// Starts `listen` on a free loopback port with a fresh record file, plus `args`.
    fn start(args: &[&str]) -> Listener {
        static N: AtomicU64 = AtomicU64::new(0);
        let record = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("listen-{}-{}.ndjson", std::process::id(), N.fetch_add(1, Ordering::Relaxed)));
        let mut child = Command::new(BIN)
            .args(["listen", "--listen", "127.0.0.1:0", "--record"])
            .arg(&record)
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("spawn wirecontract listen");
        let (tx, lines) = mpsc::channel();
        let stdout = child.stdout.take().expect("stdout");
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let first = lines.recv_timeout(WAIT).expect("the listener prints its URL first");
        let url = first.strip_prefix("listening on ").unwrap_or_else(|| panic!("first line: {first}")).to_owned();
        Listener { child, url, lines, record }
    }

    /// Waits for the listener to exit by itself and collects its output.
    fn finish(mut self) -> Finished {
        let deadline = Instant::now() + WAIT;
        let status = loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                break status;
            }
            assert!(Instant::now() < deadline, "the listener did not exit");
            std::thread::sleep(Duration::from_millis(10));
        };
        let stdout: Vec<String> = std::iter::from_fn(|| self.lines.recv_timeout(WAIT).ok()).collect();
        let text = std::fs::read_to_string(&self.record).expect("record file");
        let records = text.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("record line is not JSON ({e}): {l}"))).collect();
        let _ = std::fs::remove_file(&self.record);
        Finished { status, stdout, records }
    }
}

impl Drop for Listener {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Finished {
    /// Every record line is in the shared real-client format, and its verdict and type are
    /// what the contract's parser says about its frame.
    fn check_record_format(&self) {
        for r in &self.records {
            let dir = r["dir"].as_str().expect("dir");
            assert!(dir == "app->viewer" || dir == "viewer->app", "{r}");
            let frame = r["frame"].as_str().expect("frame");
            let outcome = graphmind::parse(frame, &graphmind::ParseOptions::default());
            assert_eq!(r["expect"], outcome.kind(), "{r}");
            match outcome.envelope() {
                Some(env) => assert_eq!(r["type"], env.message_type(), "{r}"),
                None => assert!(r.get("type").is_none(), "{r}"),
            }
            assert!(r["conn"].as_u64().is_some_and(|c| c >= 1), "{r}");
        }
    }

    /// `(dir, type, conn, replayed, duplicate)` of every record line.
    fn summary(&self) -> Vec<(String, String, u64, bool, bool)> {
        self.records
            .iter()
            .map(|r| {
                let flag = |k: &str| r.get(k).and_then(Value::as_bool).unwrap_or(false);
                (
                    r["dir"].as_str().unwrap_or_default().to_owned(),
                    r["type"].as_str().unwrap_or_default().to_owned(),
                    r["conn"].as_u64().unwrap_or(0),
                    flag("replayed"),
                    flag("duplicate"),
                )
            })
            .collect()
    }

    /// The frames the listener sent, parsed.
    fn sent(&self) -> Vec<Value> {
        self.records.iter().filter(|r| r["dir"] == "viewer->app").map(|r| parse(r["frame"].as_str().unwrap_or_default())).collect()
    }
}

fn parse(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

/// A scripted app: sends frames with explicit seqs, reads the listener's answers.
struct App {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
}

impl App {
    async fn connect(url: &str) -> App {
        let (ws, _) = tokio::time::timeout(WAIT, tokio_tungstenite::connect_async(url)).await.expect("connect in time").expect("connect");
        App { ws }
    }

    async fn send_text(&mut self, text: String) {
        self.ws.send(Message::text(text)).await.expect("send");
    }

    async fn send(&mut self, seq: u64, run: &str, ty: &str, payload: Value) {
        self.send_text(json!({"gm": 1, "seq": seq, "ts": 1_700_000_000_000_u64 + seq, "runId": run, "type": ty, "payload": payload}).to_string()).await;
    }

    async fn hello(&mut self, seq: u64, token: Option<&str>) -> Value {
        let mut payload = json!({"versions": {"protocol": 1, "client": "test"}, "capabilities": ["pause", "step", "inject"], "app": "scripted"});
        if let Some(t) = token {
            payload["resumeToken"] = json!(t);
        }
        self.send(seq, "*", "hello", payload).await;
        let ack = self.recv().await;
        assert_eq!((&ack["type"], &ack["runId"]), (&json!("hello.ack"), &json!("*")), "{ack}");
        ack
    }

    /// The next text frame from the listener, parsed.
    async fn recv(&mut self) -> Value {
        loop {
            match tokio::time::timeout(WAIT, self.ws.next()).await.expect("a frame in time") {
                Some(Ok(Message::Text(t))) => return parse(t.as_str()),
                Some(Ok(Message::Close(c))) => panic!("closed by the listener: {c:?}"),
                Some(Ok(_)) => {}
                other => panic!("connection ended: {other:?}"),
            }
        }
    }

    async fn pause(&mut self, seq: u64, run: &str, pause: &str, node: &str) {
        self.send(seq, run, "exec.paused", json!({"pauseId": pause, "nodeId": node, "point": "before"})).await;
    }
}

fn started(node: &str, kind: &str, name: &str, instance: &str) -> Value {
    json!({"nodeId": node, "kind": kind, "name": name, "instanceId": instance})
}

fn finished(node: &str, instance: &str) -> Value {
    json!({"nodeId": node, "instanceId": instance, "durationMs": 1.5, "status": "ok"})
}

fn run_started() -> Value {
    json!({"app": "scripted", "sdk": {"name": "test", "version": "1"}})
}

#[tokio::test]
async fn hello_is_acked_with_the_armed_breakpoints_and_mode() {
    let listener = Listener::start(&["--break", "tool", "--break", "llm:step@after", "--break", "*:compose", "--step", "--exit-after-runs", "1"]);
    let mut app = App::connect(&listener.url).await;
    let ack = app.hello(0, None).await;
    assert_eq!(ack["seq"], 0);
    assert_eq!(ack["payload"]["breakpoints"], json!([{"kind": "tool"}, {"kind": "llm", "name": "step", "point": "after"}, {"name": "compose"}]));
    assert_eq!(ack["payload"]["mode"], "step");
    assert_eq!(ack["payload"]["versions"]["protocol"], 1);
    assert_eq!(ack["payload"]["capabilities"], json!(["pause", "step", "inject"]), "the app's capabilities are echoed");
    assert!(ack["payload"]["sessionToken"].as_str().is_some_and(|t| !t.is_empty()));
    app.send(1, "r1", "run.started", run_started()).await;
    app.send(2, "r1", "run.finished", json!({"status": "ok"})).await;
    let done = listener.finish();
    assert!(done.status.success(), "{:?}", done.stdout);
    done.check_record_format();
    let types: Vec<_> = done.summary().into_iter().map(|s| (s.0, s.1)).collect();
    let pair = |d: &str, t: &str| (d.to_owned(), t.to_owned());
    assert_eq!(
        types,
        [pair("app->viewer", "hello"), pair("viewer->app", "hello.ack"), pair("app->viewer", "run.started"), pair("app->viewer", "run.finished")]
    );
    assert!(done.stdout.iter().any(|l| l.starts_with("== armed: breakpoints [tool, llm:step@after, *:compose], mode step")), "{:?}", done.stdout);
}

#[tokio::test]
async fn default_and_empty_breakpoints() {
    for (args, want) in [(&[][..], json!([{"point": "error"}])), (&["--break", "none"][..], json!([]))] {
        let listener = Listener::start(&[args, &["--exit-after-runs", "1"]].concat());
        let mut app = App::connect(&listener.url).await;
        let ack = app.hello(0, None).await;
        assert_eq!(ack["payload"]["breakpoints"], want);
        assert_eq!(ack["payload"]["mode"], "run");
        app.send(1, "r", "run.finished", json!({"status": "ok"})).await;
        assert!(listener.finish().status.success());
    }
}

/// One run with one paused tool, answered by `policy`; returns the `exec.resume` payload.
async fn pause_with_policy(policy: &str, action: &str) -> (Value, Finished) {
    let listener = Listener::start(&["--break", "tool", "--on-pause", policy, "--exit-after-runs", "1"]);
    let mut app = App::connect(&listener.url).await;
    app.hello(0, None).await;
    app.send(1, "run-1", "run.started", run_started()).await;
    app.send(2, "run-1", "node.started", started("agent:a", "agent", "a", "run-1")).await;
    app.send(3, "run-1", "node.started", started("tool:t", "tool", "t", "call_1")).await;
    app.pause(4, "run-1", "pause_1", "tool:t").await;
    let resume = app.recv().await;
    assert_eq!((&resume["type"], &resume["runId"], &resume["seq"]), (&json!("exec.resume"), &json!("run-1"), &json!(1)), "{resume}");
    app.send(5, "run-1", "exec.resumed", json!({"pauseId": "pause_1", "action": action})).await;
    app.send(6, "run-1", "node.finished", finished("tool:t", "call_1")).await;
    app.send(7, "run-1", "node.finished", finished("agent:a", "run-1")).await;
    app.send(8, "run-1", "run.finished", json!({"status": if action == "abort" { "aborted" } else { "ok" }})).await;
    let done = listener.finish();
    assert!(done.status.success());
    done.check_record_format();
    assert!(done.stdout.iter().any(|l| l.ends_with(&format!("t (tool) ok 1.50 ms, paused before → {action}"))), "{:#?}", done.stdout);
    (resume["payload"].clone(), done)
}

#[tokio::test]
async fn pauses_are_answered_by_the_policy() {
    let (p, _) = pause_with_policy("continue", "continue").await;
    assert_eq!(p, json!({"pauseId": "pause_1", "action": "continue"}));
    let (p, _) = pause_with_policy(r#"inject={"tempC": 21.5, "tags": ["x"]}"#, "inject").await;
    assert_eq!(p, json!({"pauseId": "pause_1", "action": "inject", "output": {"tempC": 21.5, "tags": ["x"]}}));
    let (p, done) = pause_with_policy("abort", "abort").await;
    assert_eq!(p, json!({"pauseId": "pause_1", "action": "abort"}));
    assert!(done.stdout.iter().any(|l| l == "run run-1 aborted (8 frames)"), "{:#?}", done.stdout);
}

#[tokio::test]
async fn step_mode_pauses_are_resumed_one_by_one() {
    let listener = Listener::start(&["--step", "--on-pause", "continue", "--exit-after-runs", "1"]);
    let mut app = App::connect(&listener.url).await;
    assert_eq!(app.hello(0, None).await["payload"]["mode"], "step");
    app.send(1, "r", "run.started", run_started()).await;
    let mut seq = 2;
    for (i, node) in ["agent:plan", "tool:a", "tool:b"].iter().enumerate() {
        let (kind, name) = node.split_once(':').unwrap_or_default();
        app.send(seq, "r", "node.started", started(node, kind, name, &format!("i{i}"))).await;
        app.pause(seq + 1, "r", &format!("p{i}"), node).await;
        let resume = app.recv().await;
        assert_eq!(resume["payload"], json!({"pauseId": format!("p{i}"), "action": "continue"}));
        app.send(seq + 2, "r", "exec.resumed", json!({"pauseId": format!("p{i}"), "action": "continue"})).await;
        seq += 3;
    }
    app.send(seq, "r", "run.finished", json!({"status": "ok"})).await;
    let done = listener.finish();
    assert!(done.status.success());
    let resumes: Vec<u64> = done.sent().iter().filter(|f| f["type"] == "exec.resume").map(|f| f["seq"].as_u64().unwrap_or(0)).collect();
    assert_eq!(resumes, [1, 2, 3], "the listener's own seq counter for this connection");
}

#[tokio::test]
async fn reconnect_replay_is_deduplicated_and_released_pauses_stay_released() {
    let listener = Listener::start(&["--break", "tool", "--on-pause", "continue", "--exit-after-runs", "1"]);
    // Connection 1: a pause whose resume the app never processes, then the connection drops.
    let mut app = App::connect(&listener.url).await;
    let token = app.hello(0, None).await["payload"]["sessionToken"].as_str().expect("token").to_owned();
    app.send(1, "r", "run.started", run_started()).await;
    app.send(2, "r", "node.started", started("tool:t1", "tool", "t1", "c1")).await;
    app.pause(3, "r", "p1", "tool:t1").await;
    assert_eq!(app.recv().await["payload"]["pauseId"], "p1");
    drop(app); // no close handshake: a dropped network

    // Connection 2: hello with the token, the full ring replayed (the fail-open exec.resumed
    // for p1 and a dark node.finished are new), then live frames.
    let mut app = App::connect(&listener.url).await;
    let ack = app.hello(6, Some(&token)).await;
    assert_eq!(ack["payload"]["sessionToken"], token.as_str(), "the resume token is reused");
    assert_eq!(ack["seq"], 0, "each connection has its own viewer seq");
    app.send(1, "r", "run.started", run_started()).await;
    app.send(2, "r", "node.started", started("tool:t1", "tool", "t1", "c1")).await;
    app.pause(3, "r", "p1", "tool:t1").await;
    app.send(4, "r", "exec.resumed", json!({"pauseId": "p1", "action": "continue"})).await;
    app.send(5, "r", "node.finished", finished("tool:t1", "c1")).await;
    app.send(7, "r", "node.started", started("tool:t2", "tool", "t2", "c2")).await;
    app.pause(8, "r", "p2", "tool:t2").await;
    let resume = app.recv().await;
    assert_eq!((&resume["payload"]["pauseId"], &resume["seq"]), (&json!("p2"), &json!(1)), "a live pause on the new connection is resumed there");
    app.send(9, "r", "exec.resumed", json!({"pauseId": "p2", "action": "continue"})).await;
    app.send(10, "r", "node.finished", finished("tool:t2", "c2")).await;
    app.send(11, "r", "run.finished", json!({"status": "ok"})).await;

    let done = listener.finish();
    assert!(done.status.success());
    done.check_record_format();
    let app_frames: Vec<(String, u64, bool, bool)> =
        done.summary().into_iter().filter(|s| s.0 == "app->viewer" && s.1 != "hello").map(|(_, t, c, r, d)| (t, c, r, d)).collect();
    let f = |t: &str, c, r, d| (t.to_owned(), c, r, d);
    assert_eq!(
        app_frames,
        [
            f("run.started", 1, false, false),
            f("node.started", 1, false, false),
            f("exec.paused", 1, false, false),
            f("run.started", 2, true, true),
            f("node.started", 2, true, true),
            f("exec.paused", 2, true, true),
            f("exec.resumed", 2, true, false),
            f("node.finished", 2, true, false),
            f("node.started", 2, false, false),
            f("exec.paused", 2, false, false),
            f("exec.resumed", 2, false, false),
            f("node.finished", 2, false, false),
            f("run.finished", 2, false, false),
        ]
    );
    let resumes: Vec<(u64, Value)> = done
        .records
        .iter()
        .filter(|r| r["type"] == "exec.resume")
        .map(|r| (r["conn"].as_u64().unwrap_or(0), parse(r["frame"].as_str().unwrap_or_default())["payload"]["pauseId"].clone()))
        .collect();
    assert_eq!(resumes, [(1, json!("p1")), (2, json!("p2"))], "the replayed exec.paused is never resumed");
    let out = done.stdout.join("\n");
    assert!(out.contains("== pause p1 released: [c1] closed"), "{out}");
    assert!(out.contains("== done: 1 run(s) finished, 10 frame(s) stored, 3 duplicate(s) ignored, 0 pause(s) still open"), "{out}");
    assert!(
        out.contains("run r ok (10 frames)\n├─ t1 (tool) ok 1.50 ms, paused before → continue\n└─ t2 (tool) ok 1.50 ms, paused before → continue"),
        "{out}"
    );
}

#[tokio::test]
async fn bad_frames_are_recorded_and_gm_2_closes_with_1002() {
    let listener = Listener::start(&["--exit-after-runs", "1"]);
    let mut app = App::connect(&listener.url).await;
    app.send_text("not json".to_owned()).await;
    app.send(0, "r", "node.started", json!({"nodeId": 5})).await; // before hello, and invalid
    app.hello(1, None).await;
    app.send_text(json!({"gm": 2, "seq": 2, "ts": 1, "runId": "r", "type": "run.finished", "payload": {}}).to_string()).await;
    let closed = loop {
        match tokio::time::timeout(WAIT, app.ws.next()).await.expect("close in time") {
            Some(Ok(Message::Close(frame))) => break frame.map(|f| u16::from(f.code)),
            Some(Ok(_)) => {}
            other => panic!("expected a close frame: {other:?}"),
        }
    };
    assert_eq!(closed, Some(1002));
    // A second app finishes the run so the listener exits by itself.
    let mut app = App::connect(&listener.url).await;
    app.hello(0, None).await;
    app.send(1, "r2", "run.finished", json!({"status": "ok"})).await;
    let done = listener.finish();
    assert!(done.status.success());
    done.check_record_format();
    let verdicts: Vec<&str> = done.records.iter().filter(|r| r["dir"] == "app->viewer").map(|r| r["expect"].as_str().unwrap_or_default()).collect();
    assert_eq!(verdicts, ["invalid", "invalid", "ok", "version-mismatch", "ok", "ok"]);
    let out = done.stdout.join("\n");
    assert!(out.contains("[c1] <- invalid frame is not valid JSON"), "{out}");
    assert!(out.contains("[c1] <- version-mismatch gm 2"), "{out}");
    assert!(out.contains("== [c1] closing: 1002"), "{out}");
}

#[tokio::test]
async fn only_the_ingest_path_is_served() {
    let listener = Listener::start(&[]);
    let url = listener.url.replace("/ingest", "/other");
    match tokio::time::timeout(WAIT, tokio_tungstenite::connect_async(url.as_str())).await.expect("answer in time") {
        Err(tokio_tungstenite::tungstenite::Error::Http(resp)) => assert_eq!(resp.status(), 404),
        other => panic!("expected 404: {other:?}"),
    }
}

#[test]
fn usage_errors_exit_2() {
    for args in
        [&["--break", "robot"][..], &["--break", "tool@later"], &["--break", "none", "--break", "tool"], &["--on-pause", "retry"], &["--on-pause", "inject={"]]
    {
        let out = Command::new(BIN).arg("listen").args(args).output().expect("run");
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    }
    // A malformed address is a usage error; a well-formed one that cannot be bound is I/O.
    for bad in ["not-an-address", "nohost", "127.0.0.1:99999"] {
        let out = Command::new(BIN).args(["listen", "--listen", bad]).output().expect("run");
        assert_eq!(out.status.code(), Some(2), "{bad}: {}", String::from_utf8_lossy(&out.stderr));
    }
    let out = Command::new(BIN).args(["listen", "--listen", "192.0.2.1:4747"]).output().expect("run");
    assert_eq!(out.status.code(), Some(1), "a TEST-NET address cannot be bound here: {}", String::from_utf8_lossy(&out.stderr));
}

/// The next message of any kind, or `None` when nothing comes within `within`.
async fn next_message(app: &mut App, within: Duration) -> Option<Message> {
    match tokio::time::timeout(within, app.ws.next()).await {
        Ok(Some(Ok(m))) => Some(m),
        Ok(other) => panic!("connection ended: {other:?}"),
        Err(_) => None,
    }
}

async fn send_hello(app: &mut App) {
    app.send(0, "*", "hello", json!({"versions": {"protocol": 1, "client": "test"}, "capabilities": ["pause"]})).await;
}

#[tokio::test]
async fn fault_ack_withholds_replaces_and_delays_acks_in_hello_order() {
    let listener = Listener::start(&["--break", "none", "--fault-ack", "withhold", "--fault-ack", "replace=REPLACED", "--fault-ack", "delay=400"]);
    let mut first = App::connect(&listener.url).await;
    send_hello(&mut first).await;
    assert_eq!(next_message(&mut first, Duration::from_millis(600)).await, None, "withheld");
    let mut second = App::connect(&listener.url).await;
    send_hello(&mut second).await;
    assert_eq!(next_message(&mut second, WAIT).await, Some(Message::text("REPLACED")));
    let mut third = App::connect(&listener.url).await;
    let asked = Instant::now();
    send_hello(&mut third).await;
    assert_eq!(next_message(&mut third, Duration::from_millis(200)).await, None, "not before its delay");
    let ack = third.recv().await;
    assert_eq!(ack["type"], "hello.ack");
    assert!(asked.elapsed() >= Duration::from_millis(400), "{:?}", asked.elapsed());
    let mut fourth = App::connect(&listener.url).await;
    assert_eq!(fourth.hello(0, None).await["payload"]["mode"], "run", "the plan is used up: acks as usual");
}

#[tokio::test]
async fn fault_at_pause_sends_out_of_state_frames_before_the_policy_answers() {
    let faults = ["text=not JSON", "binary=\u{1}bin", "break=llm", "break=llm", "resume=bogus", "resume-unknown"];
    let mut args = vec!["--break", "tool", "--on-pause", "continue", "--exit-after-runs", "1"];
    for f in &faults {
        args.extend(["--fault-at-pause", f]);
    }
    let listener = Listener::start(&args);
    let mut app = App::connect(&listener.url).await;
    app.hello(0, None).await;
    app.send(1, "run-1", "run.started", run_started()).await;
    app.send(2, "run-1", "node.started", started("tool:t", "tool", "t", "call_1")).await;
    app.pause(3, "run-1", "pause_1", "tool:t").await;
    assert_eq!(next_message(&mut app, WAIT).await, Some(Message::text("not JSON")));
    assert_eq!(next_message(&mut app, WAIT).await, Some(Message::binary(b"\x01bin".to_vec())));
    for seq in [1_000_001, 1_000_002] {
        let set = app.recv().await;
        assert_eq!((&set["type"], &set["seq"], &set["payload"]), (&json!("breakpoint.set"), &json!(seq), &json!({"matcher": {"kind": "llm"}})), "{set}");
    }
    let bogus = app.recv().await;
    assert_eq!(
        (&bogus["type"], &bogus["runId"], &bogus["payload"]),
        (&json!("exec.resume"), &json!("run-1"), &json!({"pauseId": "pause_1", "action": "bogus"}))
    );
    let unknown = app.recv().await;
    assert_eq!(unknown["payload"], json!({"pauseId": "pause_listen_unknown", "action": "continue"}));
    let answer = app.recv().await;
    assert_eq!(
        (&answer["seq"], &answer["payload"]),
        (&json!(1), &json!({"pauseId": "pause_1", "action": "continue"})),
        "the policy's, on the session's own counter"
    );
    app.send(4, "run-1", "exec.resumed", json!({"pauseId": "pause_1", "action": "continue"})).await;
    app.send(5, "run-1", "node.finished", finished("tool:t", "call_1")).await;
    app.send(6, "run-1", "run.finished", json!({"status": "ok"})).await;
    let done = listener.finish();
    assert!(done.status.success());
    done.check_record_format();
    let sent: Vec<String> = done.records.iter().filter(|r| r["dir"] == "viewer->app").map(|r| r["type"].as_str().unwrap_or("-").to_owned()).collect();
    // Recorded with the contract's verdict: the text, the binary frame and the bogus-action
    // resume are invalid, so they carry no type.
    assert_eq!(sent, ["hello.ack", "-", "-", "breakpoint.set", "breakpoint.set", "-", "exec.resume", "exec.resume"], "every fault is recorded");
}

#[tokio::test]
async fn fault_at_pause_closes_with_the_chosen_code() {
    let listener = Listener::start(&["--break", "tool", "--on-pause", "continue", "--fault-at-pause", "close=4321"]);
    let mut app = App::connect(&listener.url).await;
    app.hello(0, None).await;
    app.send(1, "run-1", "node.started", started("tool:t", "tool", "t", "call_1")).await;
    app.pause(2, "run-1", "pause_1", "tool:t").await;
    match next_message(&mut app, WAIT).await {
        Some(Message::Close(Some(frame))) => assert_eq!(u16::from(frame.code), 4321),
        other => panic!("expected a close 4321, got {other:?}"),
    }
}

#[test]
fn bad_fault_flags_are_usage_errors() {
    for (flag, value) in [("--fault-ack", "hold"), ("--fault-ack", "delay=x"), ("--fault-at-pause", "close=99"), ("--fault-at-pause", "nope")] {
        let out = Command::new(BIN).args(["listen", "--listen", "127.0.0.1:0", flag, value]).output().expect("run");
        assert_eq!(out.status.code(), Some(2), "{flag} {value}: {}", String::from_utf8_lossy(&out.stderr));
    }
}
