//! The listener's sockets: one task per app connection that does the WebSocket handshake
//! (path `/ingest` only), forwards every received frame to the host loop as bytes, and writes
//! what the host loop sends back. No protocol logic lives here: the frames go to the
//! session untouched.

use std::net::SocketAddr;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use tokio::net::TcpStream;
use tokio::sync::mpsc::{unbounded_channel, UnboundedSender};
use tokio::time::{sleep_until, Instant};
use tokio_tungstenite::tungstenite::handshake::server::{ErrorResponse, Request, Response};
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::protocol::{CloseFrame, WebSocketConfig};
use tokio_tungstenite::tungstenite::{Error as WsError, Message};
use wirecontract::graphmind::session::ConnectionId;
use wirecontract::graphmind::DEFAULT_MAX_FRAME_BYTES;

/// The only path apps may connect to (the reference client's default URL).
pub const INGEST_PATH: &str = "/ingest";

/// How long a client may take to finish the WebSocket handshake.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// How long the listener waits for an app's reply to its close frame.
const CLOSE_REPLY_WAIT: Duration = Duration::from_millis(500);

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
        out: UnboundedSender<Out>,
    },
    /// One text (or binary) frame, as received.
    Frame {
        /// The connection.
        conn: ConnectionId,
        /// The frame's bytes.
        bytes: Vec<u8>,
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
pub enum Out {
    /// A text frame.
    Text(String),
    /// A close frame with this code and reason; the task then ends once the app answers.
    Close(u16, String),
}

/// Serves one accepted TCP connection until it closes.
pub async fn serve(stream: TcpStream, peer: SocketAddr, conn: ConnectionId, events: UnboundedSender<Event>) {
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
    let ws = match tokio::time::timeout(HANDSHAKE_TIMEOUT, tokio_tungstenite::accept_hdr_async_with_config(stream, check_path, Some(config))).await {
        Ok(Ok(ws)) => ws,
        Ok(Err(e)) => {
            let _ = events.send(Event::Refused { peer, detail: format!("WebSocket handshake failed: {e}") });
            return;
        }
        Err(_) => {
            let _ = events.send(Event::Refused { peer, detail: "WebSocket handshake timed out".to_owned() });
            return;
        }
    };
    let (mut sink, mut stream) = ws.split();
    let (out, mut outbox) = unbounded_channel();
    let own_out = out.clone();
    if events.send(Event::Opened { conn, peer, out }).is_err() {
        return;
    }
    // The writer runs beside the reader so a slow app never stalls reading, and ends on
    // `Out::Close` or when the host loop drops its sender.
    let mut writer = tokio::spawn(async move {
        while let Some(item) = outbox.recv().await {
            let result = match item {
                Out::Text(text) => sink.send(Message::text(text)).await,
                Out::Close(code, reason) => {
                    let _ = sink.send(Message::Close(Some(CloseFrame { code: CloseCode::from(code), reason: reason.into() }))).await;
                    break;
                }
            };
            if result.is_err() {
                break;
            }
        }
    });
    let mut writer_done = false;
    let mut reply_deadline = None;
    let detail = loop {
        let next = tokio::select! {
            next = stream.next() => next,
            _ = &mut writer, if !writer_done => {
                // The close went out (or the socket failed): the app's close reply is worth a
                // short wait, not more, so a silent app cannot keep the listener from exiting.
                writer_done = true;
                reply_deadline = Some(Instant::now() + CLOSE_REPLY_WAIT);
                continue;
            }
            () = sleep_until(reply_deadline.unwrap_or_else(Instant::now)), if reply_deadline.is_some() => break "closed by the listener".to_owned(),
        };
        match next {
            Some(Ok(Message::Text(text))) => {
                if events.send(Event::Frame { conn, bytes: text.as_bytes().to_vec() }).is_err() {
                    break "listener stopped".to_owned();
                }
            }
            // GraphMind frames are text; a binary one is judged by the same parser.
            Some(Ok(Message::Binary(bytes))) => {
                if events.send(Event::Frame { conn, bytes: bytes.to_vec() }).is_err() {
                    break "listener stopped".to_owned();
                }
            }
            Some(Ok(Message::Close(frame))) => {
                break frame.map_or_else(|| "closed by the app".to_owned(), |f| format!("closed by the app ({} {})", u16::from(f.code), f.reason));
            }
            Some(Ok(_)) => {} // ping/pong: answered by tungstenite
            Some(Err(WsError::Capacity(e))) => {
                let _ = own_out.send(Out::Close(1009, "frame too big".to_owned()));
                break format!("frame refused: {e} (closing with 1009)");
            }
            Some(Err(e)) => break format!("connection lost: {e}"),
            None => break "connection ended".to_owned(),
        }
    };
    let _ = events.send(Event::Closed { conn, detail });
    drop(own_out);
    if !writer_done {
        // A queued close (the 1009 above) still goes out, briefly; a writer stuck on a dead
        // socket is left to fail on its own.
        let _ = tokio::time::timeout(CLOSE_REPLY_WAIT, writer).await;
    }
}
