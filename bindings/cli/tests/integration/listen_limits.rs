//! `wirecontract listen` under abuse (issue 40 items 3, 4, 5 and 8): each resource limit of
//! docs/robustness.md ("Resource limits") is hit on purpose and the listener must close,
//! refuse, back off or escape as documented, with its memory and CPU bounded.
//!
//! Every wait is bounded; listeners are killed on drop.

use std::io::{BufRead, BufReader, Read};
use std::net::TcpStream as StdTcp;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

const BIN: &str = env!("CARGO_BIN_EXE_wirecontract");
const WAIT: Duration = Duration::from_secs(20);

struct Listener {
    child: Child,
    url: String,
    addr: String,
    lines: mpsc::Receiver<String>,
    seen: Vec<String>,
}

impl Listener {
    /// `listen` on a free loopback port; `nofile` runs it under `ulimit -n`.
    fn start(args: &[&str], nofile: Option<u32>) -> Listener {
        let mut cmd = match nofile {
            Some(n) => {
                let mut c = Command::new("sh");
                c.args(["-c", &format!("ulimit -n {n} && exec \"$0\" \"$@\""), BIN]);
                c
            }
            None => Command::new(BIN),
        };
        cmd.args(["listen", "--listen", "127.0.0.1:0"]);
        if !args.contains(&"--on-pause") {
            cmd.args(["--on-pause", "continue"]);
        }
        let mut child = cmd.args(args).stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::inherit()).spawn().expect("spawn wirecontract listen");
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
        let addr = url.trim_start_matches("ws://").trim_end_matches("/ingest").to_owned();
        Listener { child, url, addr, lines, seen: vec![first] }
    }

    /// Waits for a line containing `needle`; panics with everything seen after `WAIT`.
    fn wait_for(&mut self, needle: &str) -> String {
        let deadline = Instant::now() + WAIT;
        if let Some(l) = self.seen.iter().find(|l| l.contains(needle)) {
            return l.clone();
        }
        while let Some(left) = deadline.checked_duration_since(Instant::now()) {
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    if line.contains(needle) {
                        return line;
                    }
                }
                Err(_) => break,
            }
        }
        panic!("no line with {needle:?}; seen:\n{}", self.seen.join("\n"));
    }

    /// Every line printed so far (waiting `settle` for more).
    fn drain(&mut self, settle: Duration) -> &[String] {
        while let Ok(line) = self.lines.recv_timeout(settle) {
            self.seen.push(line);
        }
        &self.seen
    }

    fn status(&self, key: &str) -> u64 {
        proc_status(self.child.id(), key)
    }

    /// User + system CPU time in clock ticks.
    fn cpu_ticks(&self) -> u64 {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.child.id())).expect("stat");
        let fields: Vec<&str> = stat.rsplit_once(')').map_or("", |(_, rest)| rest).split_whitespace().collect();
        fields[11].parse::<u64>().unwrap_or(0) + fields[12].parse::<u64>().unwrap_or(0)
    }
}

impl Drop for Listener {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A `/proc/PID/status` field in KiB (`VmRSS`, `VmHWM`).
fn proc_status(pid: u32, key: &str) -> u64 {
    let text = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("status");
    text.lines()
        .find_map(|l| l.strip_prefix(key).and_then(|r| r.trim_start_matches(':').split_whitespace().next()).and_then(|v| v.parse().ok()))
        .unwrap_or_else(|| panic!("no {key} in /proc/{pid}/status"))
}

fn frame(seq: u64, run: &str, ty: &str, payload: &Value) -> String {
    json!({"gm": 1, "seq": seq, "ts": 1_700_000_000_000_u64 + seq, "runId": run, "type": ty, "payload": payload}).to_string()
}

fn hello(seq: u64) -> String {
    frame(seq, "*", "hello", &json!({"versions": {"protocol": 1, "client": "limits"}, "capabilities": ["pause", "inject"], "app": "limits"}))
}

type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn connect(url: &str) -> Ws {
    tokio::time::timeout(WAIT, tokio_tungstenite::connect_async(url)).await.expect("connect in time").expect("connect").0
}

/// The close code the listener sent, reading past any frames.
async fn close_code(ws: &mut Ws) -> Option<u16> {
    loop {
        match tokio::time::timeout(WAIT, ws.next()).await.expect("a close in time") {
            Some(Ok(Message::Close(f))) => return f.map(|f| u16::from(f.code)),
            Some(Ok(_)) => {}
            _ => return None,
        }
    }
}

#[tokio::test]
async fn a_client_that_stops_reading_is_dropped_with_1013_and_memory_stays_bounded() {
    // Every pause is answered with a 64 KiB inject; the app never reads them.
    let inject = format!("inject={}", json!({"blob": "z".repeat(64 << 10)}));
    let mut l = Listener::start(&["--break", "tool", "--on-pause", &inject, "--max-queued-mib", "2", "--log-rate", "0"], None);
    let base = l.status("VmRSS");
    let mut ws = connect(&l.url).await;
    ws.send(Message::text(hello(0))).await.expect("hello");
    ws.send(Message::text(frame(1, "r", "node.started", &json!({"nodeId": "tool:t", "kind": "tool", "name": "t", "instanceId": "c"})))).await.expect("send");
    // 1,500 pauses: about 100 MB of answers, far past the socket buffers and the 2 MiB bound.
    let sender = tokio::spawn(async move {
        for seq in 2..1500_u64 {
            let paused = frame(seq, "r", "exec.paused", &json!({"pauseId": format!("p{seq}"), "nodeId": "tool:t", "point": "before"}));
            if ws.send(Message::text(paused)).await.is_err() {
                break;
            }
        }
        ws
    });
    let line = tokio::task::spawn_blocking(move || {
        let line = l.wait_for("slow reader");
        (l, line)
    });
    let (mut l, line) = line.await.expect("join");
    assert!(line.contains("1013"), "{line}");
    l.wait_for("[c1] slow reader");
    let grown = l.status("VmHWM").saturating_sub(base);
    assert!(grown < 96 << 10, "peak RSS grew {grown} KiB for a reader that stopped");
    drop(sender.await);
}

#[tokio::test]
async fn a_silent_connection_is_closed_after_the_idle_timeout_with_1008() {
    let mut l = Listener::start(&["--idle-timeout", "0.5"], None);
    let mut ws = connect(&l.url).await;
    ws.send(Message::text(hello(0))).await.expect("hello");
    let started = Instant::now();
    assert_eq!(close_code(&mut ws).await, Some(1008));
    assert!(started.elapsed() < Duration::from_secs(5));
    tokio::task::spawn_blocking(move || l.wait_for("idle for 0.5 s (--idle-timeout): closing with 1008")).await.expect("join");
}

#[test]
fn a_client_that_never_finishes_the_handshake_is_dropped_after_the_handshake_timeout() {
    let mut l = Listener::start(&["--handshake-timeout", "0.5"], None);
    let mut tcp = StdTcp::connect(&l.addr).expect("tcp");
    tcp.set_read_timeout(Some(WAIT)).expect("timeout");
    let started = Instant::now();
    let mut buf = [0_u8; 64];
    assert_eq!(tcp.read(&mut buf).unwrap_or(0), 0, "the listener closes the socket");
    assert!(started.elapsed() < Duration::from_secs(5), "{:?}", started.elapsed());
    l.wait_for("handshake timed out after 0.5 s (--handshake-timeout)");
}

#[tokio::test]
async fn past_max_connections_a_client_gets_503_until_a_slot_frees() {
    let mut l = Listener::start(&["--max-connections", "2"], None);
    let held: Vec<StdTcp> = (0..2).map(|_| StdTcp::connect(&l.addr).expect("tcp")).collect();
    std::thread::sleep(Duration::from_millis(300));
    let mut third = StdTcp::connect(&l.addr).expect("tcp");
    third.set_read_timeout(Some(WAIT)).expect("timeout");
    let mut answer = String::new();
    let _ = third.read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 503"), "{answer:?}");
    l.wait_for("2 connections open (--max-connections), answered 503");
    drop(held);
    // The freed slots are reaped and a real app gets in.
    let deadline = Instant::now() + WAIT;
    loop {
        match tokio_tungstenite::connect_async(l.url.as_str()).await {
            Ok(_) => break,
            Err(e) => assert!(Instant::now() < deadline, "no slot freed: {e}"),
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test]
async fn out_of_file_descriptors_the_listener_backs_off_instead_of_spinning() {
    let mut l = Listener::start(&["--log-rate", "0", "--exit-after-runs", "1"], Some(32));
    // More connections than descriptors: accept fails with EMFILE while they are held.
    let held: Vec<StdTcp> = (0..64).filter_map(|_| StdTcp::connect(&l.addr).ok()).collect();
    l.wait_for("accept failed");
    let (cpu0, t0) = (l.cpu_ticks(), Instant::now());
    std::thread::sleep(Duration::from_secs(2));
    let cpu = l.cpu_ticks() - cpu0;
    let failures = l.drain(Duration::from_millis(10)).iter().filter(|s| s.contains("accept failed")).count();
    assert!(cpu < 40, "{cpu} CPU ticks in {:?} while out of descriptors", t0.elapsed());
    assert!(failures < 400, "{failures} accept-failed lines");
    assert!(l.seen.iter().any(|s| s.contains("accepting again in 1000 ms")), "the backoff grows to 1 s");
    drop(held);
    // Descriptors back: an app connects and finishes a run.
    let deadline = Instant::now() + WAIT;
    let mut ws = loop {
        if let Ok(Ok((ws, _))) = tokio::time::timeout(Duration::from_secs(3), tokio_tungstenite::connect_async(l.url.as_str())).await {
            break ws;
        }
        assert!(Instant::now() < deadline, "the listener never accepted again");
    };
    ws.send(Message::text(hello(0))).await.expect("hello");
    ws.send(Message::text(frame(1, "r", "run.finished", &json!({"status": "ok"})))).await.expect("send");
    tokio::task::spawn_blocking(move || l.wait_for("== done: 1 run(s) finished")).await.expect("join");
}

#[tokio::test]
async fn peer_text_cannot_forge_status_lines_or_reach_the_terminal_raw() {
    let mut l = Listener::start(&["--break", "tool", "--exit-after-runs", "1"], None);
    let mut ws = connect(&l.url).await;
    let evil_app = json!({"versions": {"protocol": 1, "client": "c\u{1b}]0;pwned\u{7}"}, "capabilities": [], "app": "a\n== [c9] attached: forged"});
    ws.send(Message::text(frame(0, "*", "hello", &evil_app))).await.expect("hello");
    let run = "evil\n== done: 99 run(s) finished\u{1b}[2J\r";
    let node = json!({"nodeId": "tool:\u{1b}[31mred", "kind": "tool", "name": "n\u{2028}== x\u{202e}", "instanceId": "i\n"});
    ws.send(Message::text(frame(1, run, "node.started", &node))).await.expect("send");
    ws.send(Message::text(frame(2, run, "exec.paused", &json!({"pauseId": "p\n== pause", "nodeId": "tool:\u{1b}[31mred", "point": "before"}))))
        .await
        .expect("send");
    ws.send(Message::text(frame(3, run, "run.finished", &json!({"status": "ok"})))).await.expect("send");
    ws.send(Message::Close(Some(tokio_tungstenite::tungstenite::protocol::CloseFrame { code: 1000.into(), reason: "bye\n== forged".into() })))
        .await
        .expect("close");
    let out = tokio::task::spawn_blocking(move || {
        l.wait_for("== done:");
        l.drain(Duration::from_millis(300)).join("\n")
    })
    .await
    .expect("join");
    assert!(!out.contains('\u{1b}') && !out.contains('\r') && !out.contains('\u{2028}') && !out.contains('\u{202e}'), "{out:?}");
    for forged in ["== done: 99", "== [c9] attached: forged", "== x", "== pause\\n", "== forged"] {
        assert!(!out.lines().any(|line| line.starts_with(forged)), "forged {forged:?}:\n{out}");
    }
    assert!(out.contains(r"run=evil\n== done: 99 run(s) finished\u{1b}[2J\r seq=1"), "{out}");
    assert!(out.contains(r"app a\n== [c9] attached: forged, client c\u{1b}]0;pwned\u{7}"), "{out}");
}

#[tokio::test]
async fn log_lines_past_the_rate_are_counted_not_printed() {
    let mut l = Listener::start(&["--log-rate", "20", "--exit-after-runs", "1"], None);
    let mut ws = connect(&l.url).await;
    for _ in 0..3000 {
        ws.send(Message::text("not json")).await.expect("send");
    }
    ws.send(Message::text(hello(0))).await.expect("hello");
    ws.send(Message::text(frame(1, "r", "run.finished", &json!({"status": "ok"})))).await.expect("send");
    let seen = tokio::task::spawn_blocking(move || {
        l.wait_for("== done: 1 run(s) finished");
        l.seen.clone()
    })
    .await
    .expect("join");
    assert!(seen.len() < 200, "{} lines for 3,000 bad frames at 20 lines/s", seen.len());
    assert!(seen.iter().any(|s| s.contains("line(s) not shown: over --log-rate 20 lines/s")), "{seen:#?}");
}

#[tokio::test]
async fn distinct_megabyte_run_ids_are_forgotten_past_the_run_state_bound() {
    let mut l = Listener::start(&["--max-run-state-mib", "8", "--log-rate", "0"], None);
    let base = l.status("VmRSS");
    let mut ws = connect(&l.url).await;
    ws.send(Message::text(hello(0))).await.expect("hello");
    let big = "r".repeat(1 << 20);
    for seq in 1..=100_u64 {
        ws.send(Message::text(frame(seq, &format!("{seq}-{big}"), "graph.hint", &json!({"nodes": []})))).await.expect("send");
    }
    ws.send(Message::text(frame(101, "last", "run.finished", &json!({"status": "ok"})))).await.expect("send");
    let (l, _) = tokio::task::spawn_blocking(move || {
        let line = l.wait_for("run last ok");
        (l, line)
    })
    .await
    .expect("join");
    let grown = l.status("VmRSS").saturating_sub(base);
    // Retained: at most 8 MiB in the session and a quarter more in the trees; the rest is
    // allocator slack. Before the bound, every runId was kept four times (+400 MiB).
    assert!(grown < 64 << 10, "RSS grew {grown} KiB after 100 distinct 1 MiB runIds");
    drop(ws);
}

#[tokio::test]
async fn a_write_stalled_past_the_slow_reader_timeout_drops_the_client_with_1013() {
    // A queue bound no test reaches (1 GiB): only the stalled-write rule can drop this app.
    let inject = format!("inject={}", json!({"blob": "z".repeat(64 << 10)}));
    let mut l = Listener::start(&["--break", "tool", "--on-pause", &inject, "--max-queued-mib", "1024", "--slow-reader-timeout", "1", "--log-rate", "0"], None);
    let mut ws = connect(&l.url).await;
    ws.send(Message::text(hello(0))).await.expect("hello");
    ws.send(Message::text(frame(1, "r", "node.started", &json!({"nodeId": "tool:t", "kind": "tool", "name": "t", "instanceId": "c"})))).await.expect("send");
    // 300 pauses: about 20 MB of answers the app never reads, far past the socket buffers.
    let sender = tokio::spawn(async move {
        for seq in 2..302_u64 {
            let paused = frame(seq, "r", "exec.paused", &json!({"pauseId": format!("p{seq}"), "nodeId": "tool:t", "point": "before"}));
            if ws.send(Message::text(paused)).await.is_err() {
                break;
            }
        }
        ws
    });
    let (l, line) = tokio::task::spawn_blocking(move || {
        let line = l.wait_for("slow reader");
        (l, line)
    })
    .await
    .expect("join");
    assert!(line.contains("[c1] slow reader: a write stalled for 1 s (--slow-reader-timeout), closing with 1013"), "{line}");
    drop(l);
    drop(sender.await);
}

#[tokio::test]
async fn a_frame_over_16_mib_is_refused_with_1009_and_neither_parsed_nor_recorded() {
    let dir = std::env::temp_dir().join(format!("listen-limits-1009-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let record = dir.join("record.jsonl");
    let mut l = Listener::start(&["--record", record.to_str().expect("utf-8 path"), "--log-rate", "0"], None);
    let mut ws = connect(&l.url).await;
    ws.send(Message::text(hello(0))).await.expect("hello");
    // One byte over the cap (DEFAULT_MAX_FRAME_BYTES): the listener closes from the header, so
    // sending the rest may fail once it has.
    let _ = ws.send(Message::text("x".repeat((16 << 20) + 1))).await;
    assert_eq!(close_code(&mut ws).await, Some(1009));
    let (l, line) = tokio::task::spawn_blocking(move || {
        let line = l.wait_for("frame refused");
        (l, line)
    })
    .await
    .expect("join");
    assert!(line.starts_with("== [c1] frame refused: ") && line.ends_with("(closing with 1009)"), "{line}");
    drop(l);
    let text = std::fs::read_to_string(&record).unwrap_or_default();
    assert_eq!(text.lines().count(), 2, "only the hello and its ack are recorded:\n{}", text.chars().take(400).collect::<String>());
    let _ = std::fs::remove_dir_all(&dir);
}
