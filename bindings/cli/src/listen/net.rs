//! The listener's sockets: one task per app connection that does the WebSocket handshake
//! (path `/ingest` only), forwards every received frame to the host loop as bytes, and writes
//! what the host loop sends back. No protocol logic lives here: the frames go to the
//! session untouched. The resource limits of one connection live here too (docs/robustness.md,
//! "Resource limits"): the frame cap, the handshake and idle timeouts, the stalled-write
//! timeout of a slow reader, and the byte budget of received frames not yet handled.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use tokio::net::TcpStream;
use tokio::sync::mpsc::{unbounded_channel, UnboundedSender};
use tokio::sync::{Notify, OwnedSemaphorePermit, Semaphore};
use tokio::time::{sleep_until, Instant};
use tokio_tungstenite::tungstenite::handshake::server::{ErrorResponse, Request, Response};
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::protocol::{CloseFrame, WebSocketConfig};
use tokio_tungstenite::tungstenite::{Error as WsError, Message};
use wirecontract::graphmind::session::ConnectionId;
use wirecontract::graphmind::DEFAULT_MAX_FRAME_BYTES;

/// The only path apps may connect to (the reference client's default URL).
pub const INGEST_PATH: &str = "/ingest";

/// How long the listener waits for an app's reply to its close frame, and for a close frame
/// to a slow reader to go out.
const CLOSE_REPLY_WAIT: Duration = Duration::from_millis(500);

/// Received frames waiting for the host loop, in bytes, over all connections: a reader past
/// it waits, so TCP pushes back on the app instead of the listener buffering.
pub const INBOUND_BUDGET_BYTES: usize = 64 << 20;

/// Received frames of one connection waiting for the host loop: a connection past it waits,
/// so one app flooding frames cannot queue thousands ahead of another app's hello.
pub const PENDING_FRAMES_PER_CONNECTION: usize = 64;

/// The close code for a slow reader (RFC 6455: try again later; the app reconnects and
/// replays its ring).
pub const SLOW_READER_CODE: u16 = 1013;

/// The close code after the idle timeout (RFC 6455: policy violation).
pub const IDLE_CODE: u16 = 1008;

/// One connection's limits, from the command line.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// How long a client may take to finish the WebSocket handshake.
    pub handshake: Duration,
    /// How long an open connection may stay silent (no frame, ping or pong); `None`: forever.
    pub idle: Option<Duration>,
    /// How long one write to the app may take before the app counts as a slow reader.
    pub stall: Duration,
}

/// The host loop's handle on one connection's writer.
#[derive(Debug, Clone)]
pub struct Outbox {
    tx: UnboundedSender<Out>,
    /// Bytes of text frames handed to the writer and not yet written.
    queued: Arc<AtomicUsize>,
    /// Drops the connection at once (a slow reader): no waiting behind the queue.
    kill: Arc<Notify>,
}

impl Outbox {
    /// Queues a text frame; returns the bytes queued before it.
    pub fn send_text(&self, text: String) -> usize {
        let before = self.queued.fetch_add(text.len(), Ordering::Relaxed);
        let _ = self.tx.send(Out::Text(text));
        before
    }

    /// Queues a binary frame (GraphMind frames are text: only `conform`'s fault injection
    /// sends binary ones); returns the bytes queued before it.
    pub fn send_binary(&self, bytes: Vec<u8>) -> usize {
        let before = self.queued.fetch_add(bytes.len(), Ordering::Relaxed);
        let _ = self.tx.send(Out::Binary(bytes));
        before
    }

    /// Queues a close frame behind what is queued.
    pub fn close(&self, code: u16, reason: String) {
        let _ = self.tx.send(Out::Close(code, reason));
    }

    /// Closes with [`SLOW_READER_CODE`] now, dropping whatever is queued.
    pub fn kill(&self) {
        self.kill.notify_one();
    }
}

/// What a connection task tells the host loop.
#[derive(Debug)]
pub enum Event {
    /// The WebSocket handshake succeeded; frames for the app go to `out`.
    Opened {
        /// The connection.
        conn: ConnectionId,
        /// The app's address.
        peer: SocketAddr,
        /// Where the host loop sends frames and the close for this connection.
        out: Outbox,
    },
    /// One text (or binary) frame, as received.
    Frame {
        /// The connection.
        conn: ConnectionId,
        /// The frame's bytes.
        bytes: Vec<u8>,
        /// Its share of [`INBOUND_BUDGET_BYTES`] and of its connection's
        /// [`PENDING_FRAMES_PER_CONNECTION`], given back when the event is dropped.
        budget: (OwnedSemaphorePermit, OwnedSemaphorePermit),
    },
    /// The connection is gone (after `Opened`).
    Closed {
        /// The connection.
        conn: ConnectionId,
        /// Close code and reason, or the error.
        detail: String,
    },
    /// The handshake failed (wrong path, not a WebSocket, timeout): no `Opened` was sent.
    Refused {
        /// The peer.
        peer: SocketAddr,
        /// Why.
        detail: String,
    },
    /// A line typed at the terminal; `None` at the end of input.
    Line(Option<String>),
}

/// What the host loop asks a connection task to write.
#[derive(Debug)]
enum Out {
    /// A text frame.
    Text(String),
    /// A binary frame.
    Binary(Vec<u8>),
    /// A close frame with this code and reason; the task then ends once the app answers.
    Close(u16, String),
}

/// Serves one accepted TCP connection until it closes.
pub async fn serve(stream: TcpStream, peer: SocketAddr, conn: ConnectionId, events: UnboundedSender<Event>, inbound: Arc<Semaphore>, limits: Limits) {
    // The HUB's cap (graphmind-v1 §3): a larger frame ends the connection with 1009.
    let config = WebSocketConfig::default().max_message_size(Some(DEFAULT_MAX_FRAME_BYTES)).max_frame_size(Some(DEFAULT_MAX_FRAME_BYTES));
    #[allow(clippy::result_large_err)] // the signature tungstenite's handshake callback takes
    let check_path = |req: &Request, resp: Response| -> Result<Response, ErrorResponse> {
        if req.uri().path() == INGEST_PATH {
            Ok(resp)
        } else {
            let mut refusal = ErrorResponse::new(Some(format!("GraphMind apps connect to {INGEST_PATH}\n")));
            *refusal.status_mut() = tokio_tungstenite::tungstenite::http::StatusCode::NOT_FOUND;
            Err(refusal)
        }
    };
    let ws = match tokio::time::timeout(limits.handshake, tokio_tungstenite::accept_hdr_async_with_config(stream, check_path, Some(config))).await {
        Ok(Ok(ws)) => ws,
        Ok(Err(e)) => {
            let _ = events.send(Event::Refused { peer, detail: format!("WebSocket handshake failed: {e}") });
            return;
        }
        Err(_) => {
            let _ =
                events.send(Event::Refused { peer, detail: format!("WebSocket handshake timed out after {} s (--handshake-timeout)", secs(limits.handshake)) });
            return;
        }
    };
    let (sink, mut stream) = ws.split();
    let (tx, outbox) = unbounded_channel();
    let out = Outbox { tx, queued: Arc::new(AtomicUsize::new(0)), kill: Arc::new(Notify::new()) };
    let own_out = out.clone();
    if events.send(Event::Opened { conn, peer, out: out.clone() }).is_err() {
        return;
    }
    // The writer runs beside the reader so a slow app never stalls reading, and ends on
    // `Out::Close`, a kill, a stalled write, or when the host loop drops its sender.
    let mut writer = tokio::spawn(write_loop(sink, outbox, out, limits.stall));
    let mut writer_done = false;
    let mut reply_deadline = None;
    let idle = limits.idle;
    let mut idle_deadline = idle.map(|d| Instant::now() + d);
    let pending = Arc::new(Semaphore::new(PENDING_FRAMES_PER_CONNECTION));
    let detail = loop {
        let next = tokio::select! {
            next = stream.next() => next,
            ended = &mut writer, if !writer_done => {
                writer_done = true;
                if let Ok(Some(slow)) = ended {
                    break slow; // a slow reader: no reply is waited for
                }
                // The close went out (or the socket failed): the app's close reply is worth a
                // short wait, not more, so a silent app cannot keep the listener from exiting.
                reply_deadline = Some(Instant::now() + CLOSE_REPLY_WAIT);
                continue;
            }
            () = sleep_until(reply_deadline.unwrap_or_else(Instant::now)), if reply_deadline.is_some() => break "closed by the listener".to_owned(),
            () = sleep_until(idle_deadline.unwrap_or_else(Instant::now)), if idle_deadline.is_some() && reply_deadline.is_none() => {
                let secs = idle.map_or(0.0, secs);
                own_out.close(IDLE_CODE, "idle timeout".to_owned());
                break format!("idle for {secs} s (--idle-timeout): closing with {IDLE_CODE}");
            }
        };
        if let Some(d) = idle {
            idle_deadline = Some(Instant::now() + d);
        }
        let bytes = match next {
            Some(Ok(Message::Text(text))) => text.as_bytes().to_vec(),
            // GraphMind frames are text; a binary one is judged by the same parser.
            Some(Ok(Message::Binary(bytes))) => bytes.to_vec(),
            Some(Ok(Message::Close(frame))) => {
                break frame.map_or_else(|| "closed by the app".to_owned(), |f| format!("closed by the app ({} {})", u16::from(f.code), f.reason));
            }
            Some(Ok(_)) => continue, // ping/pong: answered by tungstenite
            Some(Err(WsError::Capacity(e))) => {
                own_out.close(1009, "frame too big".to_owned());
                break format!("frame refused: {e} (closing with 1009)");
            }
            Some(Err(e)) => break format!("connection lost: {e}"),
            None => break "connection ended".to_owned(),
        };
        // A frame is at most DEFAULT_MAX_FRAME_BYTES, far below u32::MAX and the budget.
        let want = u32::try_from(bytes.len().min(INBOUND_BUDGET_BYTES)).unwrap_or(u32::MAX);
        let Ok(mine) = Arc::clone(&pending).acquire_owned().await else { break "listener stopped".to_owned() };
        let Ok(shared) = Arc::clone(&inbound).acquire_many_owned(want).await else { break "listener stopped".to_owned() };
        if events.send(Event::Frame { conn, bytes, budget: (mine, shared) }).is_err() {
            break "listener stopped".to_owned();
        }
    };
    let _ = events.send(Event::Closed { conn, detail });
    drop(own_out);
    if !writer_done {
        // A queued close (1009, idle) still goes out, briefly; a writer stuck on a dead
        // socket is dropped with the task.
        let _ = tokio::time::timeout(CLOSE_REPLY_WAIT, &mut writer).await;
        writer.abort();
    }
}

/// Writes what the host loop queues. Returns why it dropped the app as a slow reader, or
/// `None` after a close frame or when the host loop let go.
async fn write_loop<S>(mut sink: S, mut outbox: tokio::sync::mpsc::UnboundedReceiver<Out>, out: Outbox, stall: Duration) -> Option<String>
where
    S: futures_util::Sink<Message> + Unpin,
{
    let slow = loop {
        let item = tokio::select! {
            biased;
            () = out.kill.notified() => break format!("slow reader: over the outbound queue limit (--max-queued-mib), closing with {SLOW_READER_CODE}"),
            item = outbox.recv() => item,
        };
        let (len, message) = match item? {
            Out::Text(text) => (text.len(), Message::text(text)),
            Out::Binary(bytes) => (bytes.len(), Message::binary(bytes)),
            Out::Close(code, reason) => {
                let _ = sink.send(Message::Close(Some(CloseFrame { code: CloseCode::from(code), reason: reason.into() }))).await;
                return None;
            }
        };
        let sent = tokio::select! {
            biased;
            () = out.kill.notified() => break format!("slow reader: over the outbound queue limit (--max-queued-mib), closing with {SLOW_READER_CODE}"),
            sent = tokio::time::timeout(stall, sink.send(message)) => sent,
        };
        out.queued.fetch_sub(len, Ordering::Relaxed);
        match sent {
            Ok(Ok(())) => {}
            Ok(Err(_)) => return None,
            Err(_) => break format!("slow reader: a write stalled for {} s (--slow-reader-timeout), closing with {SLOW_READER_CODE}", secs(stall)),
        }
    };
    // Best effort: the close frame goes out only if the socket takes it soon.
    let close = Message::Close(Some(CloseFrame { code: CloseCode::from(SLOW_READER_CODE), reason: "slow reader".into() }));
    let _ = tokio::time::timeout(CLOSE_REPLY_WAIT, sink.send(close)).await;
    Some(slow)
}

/// A duration in seconds, for log lines.
pub fn secs(d: Duration) -> f64 {
    d.as_secs_f64()
}

#[cfg(test)]
mod tests {
    //! The budgets of received frames not yet handled: a host loop that falls behind holds the
    //! events it was sent (their permits with them), and a flooding app's reader must wait
    //! instead of queueing without bound.

    use std::sync::Arc;
    use std::time::Duration;

    use futures_util::SinkExt;
    use tokio::net::TcpListener;
    use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver};
    use tokio::sync::Semaphore;
    use tokio_tungstenite::tungstenite::Message;
    use wirecontract::graphmind::session::ConnectionId;

    use super::{serve, Event, Limits, PENDING_FRAMES_PER_CONNECTION};

    const WAIT: Duration = Duration::from_secs(20);

    type Client = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

    /// A listener task serving `conns` connections with `net::serve` into `events`.
    async fn start(conns: u64, inbound: Arc<Semaphore>) -> (String, UnboundedReceiver<Event>) {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let url = format!("ws://{}/ingest", listener.local_addr().expect("addr"));
        let (tx, rx) = unbounded_channel();
        let limits = Limits { handshake: WAIT, idle: None, stall: WAIT };
        tokio::spawn(async move {
            for n in 1..=conns {
                let (stream, peer) = listener.accept().await.expect("accept");
                tokio::spawn(serve(stream, peer, ConnectionId(n), tx.clone(), Arc::clone(&inbound), limits));
            }
        });
        (url, rx)
    }

    async fn client(url: &str) -> Client {
        tokio::time::timeout(WAIT, tokio_tungstenite::connect_async(url)).await.expect("connect in time").expect("connect").0
    }

    /// Takes events (keeping them: a host loop that has not handled them yet) until `frames`
    /// frames are held, then whatever else arrives within `settle`; returns the connection of
    /// each frame held, in arrival order.
    async fn hold(rx: &mut UnboundedReceiver<Event>, held: &mut Vec<Event>, frames: usize, settle: Duration) -> Vec<u64> {
        let conns = |held: &[Event]| -> Vec<u64> { held.iter().filter_map(|e| if let Event::Frame { conn, .. } = e { Some(conn.0) } else { None }).collect() };
        while conns(held).len() < frames {
            held.push(tokio::time::timeout(WAIT, rx.recv()).await.expect("a frame in time").expect("the listener task runs"));
        }
        while let Ok(Some(event)) = tokio::time::timeout(settle, rx.recv()).await {
            held.push(event);
        }
        conns(held)
    }

    /// Handles (drops) events as they come until `frames` frames of `conn` arrived.
    async fn catch_up(rx: &mut UnboundedReceiver<Event>, conn: u64, frames: usize) {
        let mut seen = 0;
        while seen < frames {
            let event = tokio::time::timeout(WAIT, rx.recv()).await.expect("a frame in time").expect("the listener task runs");
            seen += usize::from(matches!(event, Event::Frame { conn: c, .. } if c.0 == conn));
        }
    }

    /// Sends `count` frames of `size` bytes without waiting for the listener to take them.
    fn flood(mut ws: Client, count: usize, size: usize) -> tokio::task::JoinHandle<Client> {
        tokio::spawn(async move {
            let text = "x".repeat(size);
            for _ in 0..count {
                if ws.send(Message::text(text.clone())).await.is_err() {
                    break;
                }
            }
            ws
        })
    }

    #[tokio::test]
    async fn a_flooding_app_waits_after_its_pending_frames_and_another_app_still_gets_in() {
        let settle = Duration::from_millis(300);
        let (url, mut rx) = start(2, Arc::new(Semaphore::new(super::INBOUND_BUDGET_BYTES))).await;
        let flooder = flood(client(&url).await, 1000, 16);
        let mut held = Vec::new();
        let frames = hold(&mut rx, &mut held, PENDING_FRAMES_PER_CONNECTION, settle).await;
        assert_eq!(frames.len(), PENDING_FRAMES_PER_CONNECTION, "frames queued for the host loop from one connection");
        // A second app: its frame is queued behind no more than the flooder's budget.
        let mut other = client(&url).await;
        other.send(Message::text("hello")).await.expect("send");
        let frames = hold(&mut rx, &mut held, PENDING_FRAMES_PER_CONNECTION + 1, settle).await;
        assert_eq!(frames, [vec![1; PENDING_FRAMES_PER_CONNECTION], vec![2]].concat());
        // The host loop catches up: the flood goes on, nothing dropped.
        held.clear();
        catch_up(&mut rx, 1, 1000 - PENDING_FRAMES_PER_CONNECTION).await;
        drop(tokio::time::timeout(WAIT, flooder).await.expect("the flood ends"));
    }

    #[tokio::test]
    async fn received_bytes_past_the_inbound_budget_wait_for_the_host_loop() {
        // A 1 MiB budget (the listener's is INBOUND_BUDGET_BYTES, 64 MiB) and 256 KiB frames:
        // four frames fill it, far below the per-connection count.
        let (url, mut rx) = start(1, Arc::new(Semaphore::new(1 << 20))).await;
        let flooder = flood(client(&url).await, 20, 256 << 10);
        let mut held = Vec::new();
        let frames = hold(&mut rx, &mut held, 4, Duration::from_millis(300)).await;
        assert_eq!(frames.len(), 4, "256 KiB frames queued within a 1 MiB budget");
        held.clear();
        catch_up(&mut rx, 1, 16).await;
        drop(tokio::time::timeout(WAIT, flooder).await.expect("the flood ends"));
    }
}
