//! The AsyncAPI 3.0 documents (`asyncapi/<protocol>.v<N>.asyncapi.yaml`), written from the
//! contract's typed registry and its JSON Schema: GraphMind's and Graphorin's with their
//! servers and operations described by hand, and [`keyed_document`] for any other protocol
//! whose frames are told apart by one member (a protocol added by declaration alone).
//!
//! Payload schemas are draft-07 (AsyncAPI's default Schema Object, a draft-07 superset), not
//! the published 2020-12 schema under a `schemaFormat`: the official parser
//! (`@asyncapi/parser`) reads draft-07 and AsyncAPI schemas only. The rendering keeps the set
//! of valid instances: every `$defs` entry becomes a `components/schemas` entry and every
//! `#/$defs/X` reference points there; a `$ref` with sibling keywords becomes
//! `allOf: [{$ref}]` plus the siblings (draft-07 ignores keywords beside `$ref`).

use wirecontract::registry::{Direction, MessageDesc, MessageGroup, Protocol, UnionDesc};
use wirecontract::{graphmind, graphorin};

use crate::examples::example;
use crate::prose;
use crate::yaml::Node;

/// The GraphMind document's server: the viewer's documented default (`DEFAULT_URL`).
const GRAPHMIND_HOST: &str = "127.0.0.1:4747";
/// The GraphMind ingest path.
const GRAPHMIND_PATH: &str = "/ingest";

/// One AsyncAPI message, whatever the protocol. (Channels carry no `address`: the WebSocket
/// path is the server's `pathname`, and one connection carries every message.)
struct Msg {
    /// The key under `components/messages` and the channel's `messages`.
    key: String,
    /// The wire name (`node.started`, `rpc-success`).
    wire: &'static str,
    /// The schema under `components/schemas` the payload references.
    schema: String,
    /// The contract type carrying it.
    rust: &'static str,
    /// Title line.
    title: String,
    /// Description (Markdown).
    description: String,
    /// The protocol registry name, for the example.
    protocol: &'static str,
}

/// `$defs` → `components/schemas`, `$ref` with siblings → `allOf` (see the module doc).
fn draft07(v: &serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    match v {
        Value::Object(o) => {
            let mut out = serde_json::Map::new();
            for (k, x) in o {
                out.insert(k.clone(), draft07(x));
            }
            if let Some(Value::String(r)) = out.get("$ref").cloned() {
                let r = Value::String(r.replacen("#/$defs/", "#/components/schemas/", 1));
                if out.len() == 1 {
                    out.insert("$ref".into(), r);
                } else {
                    out.remove("$ref");
                    out.insert("allOf".into(), Value::Array(vec![serde_json::json!({ "$ref": r })]));
                }
            }
            Value::Object(out)
        }
        Value::Array(a) => Value::Array(a.iter().map(draft07).collect()),
        other => other.clone(),
    }
}

/// The protocol's JSON Schema (2020-12), from its registry entry.
fn json_schema(p: &Protocol) -> serde_json::Value {
    (p.schema)()
}

/// `components/schemas`: every `$defs` entry of the protocol's schema, rendered as draft-07.
fn schemas(p: &Protocol) -> Node {
    Node::Map(schema_entries(&json_schema(p)))
}

/// The entries of [`schemas`] from the protocol's schema, in its order.
fn schema_entries(schema: &serde_json::Value) -> Vec<(String, Node)> {
    let defs = schema.get("$defs").and_then(serde_json::Value::as_object).expect("the schema has $defs");
    defs.iter().map(|(k, v)| (k.clone(), Node::from_json(&draft07(v)))).collect()
}

fn direction_text(p: &Protocol, d: Direction) -> &'static str {
    match (p.name, d) {
        ("graphmind", Direction::ClientToServer) => "app → viewer",
        ("graphmind", Direction::ServerToClient) => "viewer → app",
        (_, Direction::ClientToServer) => "client → server",
        (_, Direction::ServerToClient) => "server → client",
    }
}

/// A message or variant doc comment worth showing before the payload's (not just its wire
/// name), followed by a blank line; empty otherwise.
fn extra_doc(doc: &str, wire: &str) -> String {
    let doc = prose::doc(doc);
    if doc.is_empty() || doc.starts_with(&format!("`{wire}`")) || doc.ends_with(&format!("\"{wire}\"`")) {
        String::new()
    } else {
        format!("{doc}\n\n")
    }
}

/// The message of a registry row: its payload schema under `components/schemas` is `schema`,
/// and `framing` (one sentence) says how the frame carries the payload.
fn registry_message(p: &Protocol, m: &MessageDesc, schema: String, framing: &str) -> Msg {
    Msg {
        key: m.variant.to_owned(),
        wire: m.wire,
        schema,
        rust: m.payload.name,
        title: format!("{} ({})", m.wire, direction_text(p, m.direction)),
        description: format!("{}{}\n\n{framing}", extra_doc(m.doc, m.wire), prose::doc(m.payload.doc)),
        protocol: p.name,
    }
}

fn graphmind_messages(p: &Protocol) -> Vec<Msg> {
    p.messages
        .iter()
        .map(|m| {
            let framing = format!(
                "The frame is the envelope `{{gm, seq, ts, runId, type: \"{}\", payload}}` whose payload is the contract object `{}`.",
                m.wire, m.payload.name
            );
            registry_message(p, m, format!("envelope.{}", m.wire), &framing)
        })
        .collect()
}

fn union_messages(p: &Protocol, u: &UnionDesc) -> Vec<Msg> {
    u.variants
        .iter()
        .map(|v| Msg {
            key: v.name.to_owned(),
            wire: v.wire,
            schema: v.frame.name.to_owned(),
            rust: v.frame.name,
            title: format!("{} ({})", v.wire, direction_text(p, u.direction)),
            description: format!("{}{}\n\nThe contract object is `{}`.", extra_doc(v.doc, v.wire), prose::doc(v.frame.doc), v.frame.name),
            protocol: p.name,
        })
        .collect()
}

/// Every message of the protocol, in registry order.
fn messages(p: &Protocol) -> Vec<Msg> {
    let mut out = graphmind_messages(p);
    for u in p.unions {
        out.extend(union_messages(p, u));
    }
    out
}

fn message_node(m: &Msg) -> Node {
    let ex = example(m.protocol, m.wire);
    let payload = Node::from_json_text(&ex.frame).unwrap_or_else(|e| panic!("example of {}: {e}", m.wire));
    Node::map([
        ("name", Node::str(m.wire)),
        ("title", Node::str(&m.title)),
        ("summary", Node::str(prose::summary(&m.description))),
        ("description", Node::str(&m.description)),
        ("contentType", Node::str("application/json")),
        ("payload", Node::reference(format!("#/components/schemas/{}", m.schema))),
        ("x-contract-type", Node::str(m.rust)),
        ("examples", Node::Seq(vec![Node::map([("name", Node::str(ex.name())), ("summary", Node::str(ex.summary())), ("payload", payload)])])),
    ])
}

/// References to channel messages, by key.
fn message_refs(channel: &str, keys: &[String]) -> Node {
    Node::Seq(keys.iter().map(|k| Node::reference(format!("#/channels/{channel}/messages/{k}"))).collect())
}

/// One operation: `action` on `channel` with `messages`, and an optional reply.
fn operation(action: &str, channel: &str, title: &str, description: &str, keys: &[String], reply: &[String]) -> Node {
    let mut entries = vec![
        ("action".to_owned(), Node::str(action)),
        ("channel".to_owned(), Node::reference(format!("#/channels/{channel}"))),
        ("title".to_owned(), Node::str(title)),
        ("description".to_owned(), Node::str(description)),
        ("messages".to_owned(), message_refs(channel, keys)),
    ];
    if !reply.is_empty() {
        entries
            .push(("reply".to_owned(), Node::map([("channel", Node::reference(format!("#/channels/{channel}"))), ("messages", message_refs(channel, reply))])));
    }
    Node::Map(entries)
}

/// GraphMind operations, from the app's side: one per message group, split by direction; a
/// group with both directions (the handshake) is a `send` whose reply is the other direction.
fn graphmind_operations(p: &Protocol, channel: &str) -> Vec<(String, Node)> {
    let groups =
        [(MessageGroup::Event, "Events", "events"), (MessageGroup::Control, "Controls", "controls"), (MessageGroup::Handshake, "Handshake", "handshake")];
    let mut out = Vec::new();
    for (group, title, id) in groups {
        let keys = |d: Direction| -> Vec<String> { p.messages.iter().filter(|m| m.group == group && m.direction == d).map(|m| m.variant.to_owned()).collect() };
        let (sent, received) = (keys(Direction::ClientToServer), keys(Direction::ServerToClient));
        let wires: Vec<&str> = p.messages.iter().filter(|m| m.group == group).map(|m| m.wire).collect();
        let what = format!("{title}: {}.", wires.iter().map(|w| format!("`{w}`")).collect::<Vec<_>>().join(", "));
        if !sent.is_empty() {
            let reply: &[String] = &received;
            let desc =
                if reply.is_empty() { format!("{what} Sent app → viewer.") } else { format!("{what} The app sends; the viewer replies (viewer → app).") };
            out.push((format!("send{}", capitalize(id)), operation("send", channel, title, &desc, &sent, reply)));
        } else if !received.is_empty() {
            out.push((format!("receive{}", capitalize(id)), operation("receive", channel, title, &format!("{what} Sent viewer → app."), &received, &[])));
        }
    }
    out
}

/// Graphorin operations, from the client's side: one `send` per client message (a request,
/// one with an `id`, has the RPC responses as its reply), and one `receive` for the kinded
/// server frames.
fn graphorin_operations(p: &Protocol, channel: &str) -> Vec<(String, Node)> {
    let mut out = Vec::new();
    let server = p.unions.iter().find(|u| u.direction == Direction::ServerToClient).expect("a server union");
    let client = p.unions.iter().find(|u| u.direction == Direction::ClientToServer).expect("a client union");
    let responses: Vec<String> = server.variants.iter().filter(|v| v.frame.field("id").is_some()).map(|v| v.name.to_owned()).collect();
    for v in client.variants {
        let is_request = v.frame.field("id").is_some();
        let reply: &[String] = if is_request { &responses } else { &[] };
        let desc = if is_request {
            format!("Request `{}`: the server answers with a JSON-RPC response carrying the same `id`.", v.wire)
        } else {
            format!("Notification `{}`: no `id`, no response.", v.wire)
        };
        out.push((format!("send{}", v.name), operation("send", channel, v.wire, &desc, &[v.name.to_owned()], reply)));
    }
    let kinded: Vec<String> = server.variants.iter().filter(|v| v.frame.field("id").is_none()).map(|v| v.name.to_owned()).collect();
    let wires: Vec<String> = server.variants.iter().filter(|v| v.frame.field("id").is_none()).map(|v| format!("`{}`", v.wire)).collect();
    out.push((
        "receiveServerFrames".to_owned(),
        operation(
            "receive",
            channel,
            "Kinded server frames",
            &format!("Frames the server pushes, discriminated on `kind`: {}.", wires.join(", ")),
            &kinded,
            &[],
        ),
    ));
    out
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    c.next().map(|f| f.to_uppercase().collect::<String>() + c.as_str()).unwrap_or_default()
}

/// The header comment of a document.
fn header(p: &Protocol) -> String {
    format!(
        "Generated by scripts/regen from the wirecontract contract crate (registry and JSON Schema). Do not edit.\n\
         AsyncAPI 3.0 description of the {title} wire protocol v{version} (spec {spec}).\n\
         Payload schemas: draft-07, AsyncAPI's default Schema Object (no schemaFormat), rendered from\n\
         generated/schema/{name}.v{version}.schema.json (JSON Schema 2020-12) with the same valid instances:\n\
         $defs become components/schemas, a $ref with sibling keywords becomes allOf [$ref] + siblings.\n\
         Draft-07 because the official parser (@asyncapi/parser) reads draft-07 and AsyncAPI schemas only.\n",
        title = p.title,
        spec = p.spec,
        name = p.name,
        version = p.version.1
    )
}

/// The GraphMind AsyncAPI document.
pub fn graphmind_document() -> String {
    let p = &graphmind::PROTOCOL;
    let channel = "ingest";
    let msgs = messages(p);
    let info = Node::map([
        ("title", Node::str("GraphMind wire protocol")),
        ("version", Node::str(p.version.1)),
        (
            "description",
            Node::str(format!(
                "Frames between an instrumented agent app (the WebSocket client) and the GraphMind viewer (the server), \
                 each a JSON envelope `{{gm, seq, ts, runId, type, payload}}` in one WebSocket text message. \
                 Operations are written from the app's side: it sends events and `hello`, and receives controls and `hello.ack`. \
                 Unknown message types are accepted (verdict `unknown-type`), unknown fields are kept, enums are closed. \
                 Reference: generated/docs/graphmind.v1.md; spec `{}`.",
                p.spec
            )),
        ),
    ]);
    let servers = Node::map([(
        "viewer",
        Node::map([
            ("host", Node::str(GRAPHMIND_HOST)),
            ("protocol", Node::str("ws")),
            ("pathname", Node::str(GRAPHMIND_PATH)),
            ("description", Node::str("The viewer listens; the app connects to its documented default URL `ws://127.0.0.1:4747/ingest`.")),
        ]),
    )]);
    let channels = Node::map([(
        channel,
        Node::map([
            ("title", Node::str("Ingest connection")),
            (
                "description",
                Node::str("One WebSocket connection per app process: events and the handshake app → viewer, controls and the handshake reply viewer → app."),
            ),
            ("servers", Node::Seq(vec![Node::reference("#/servers/viewer")])),
            ("messages", Node::Map(msgs.iter().map(|m| (m.key.clone(), Node::reference(format!("#/components/messages/{}", m.key)))).collect())),
        ]),
    )]);
    let operations = Node::Map(graphmind_operations(p, channel));
    let doc = root(info, servers, channels, operations, &msgs, schemas(p));
    crate::yaml::document(&header(p), &doc)
}

/// The Graphorin AsyncAPI document.
pub fn graphorin_document() -> String {
    let p = &graphorin::PROTOCOL;
    let channel = "frames";
    let msgs = messages(p);
    let info = Node::map([
        ("title", Node::str("Graphorin wire protocol")),
        ("version", Node::str(p.version.1)),
        (
            "description",
            Node::str(format!(
                "Strict JSON-RPC 2.0 style frames between a Graphorin client and server over one WebSocket (subprotocol `{}`), \
                 one JSON object per text message, every frame carrying `\"v\": \"1\"`. Operations are written from the client's side: \
                 it sends requests and notifications and receives RPC responses and kinded frames. Every object is strict. \
                 Reference: generated/docs/graphorin.v1.md; spec `{}`.",
                graphorin::SUBPROTOCOL_NAME,
                p.spec
            )),
        ),
    ]);
    let servers = Node::map([(
        "graphorin",
        Node::map([
            ("host", Node::str("{host}")),
            ("protocol", Node::str("ws")),
            ("pathname", Node::str(graphorin::WS_PATH)),
            (
                "description",
                Node::str(format!(
                    "A Graphorin server. The client offers the subprotocol `{}` (plus `ticket.<value>` under ticket auth).",
                    graphorin::SUBPROTOCOL_NAME
                )),
            ),
            ("variables", Node::map([("host", Node::map([("description", Node::str("The server's host and port; the protocol fixes none."))]))])),
        ]),
    )]);
    let channels = Node::map([(
        channel,
        Node::map([
            ("title", Node::str("Graphorin connection")),
            ("description", Node::str("One WebSocket connection: client requests and notifications, server responses and kinded frames.")),
            ("servers", Node::Seq(vec![Node::reference("#/servers/graphorin")])),
            ("messages", Node::Map(msgs.iter().map(|m| (m.key.clone(), Node::reference(format!("#/components/messages/{}", m.key)))).collect())),
        ]),
    )]);
    let operations = Node::Map(graphorin_operations(p, channel));
    let doc = root(info, servers, channels, operations, &msgs, schemas(p));
    crate::yaml::document(&header(p), &doc)
}

/// The AsyncAPI document of a protocol whose frames are told apart by one member
/// ([`Protocol::key`]), from its registry entry alone: one connection to a server whose host the
/// declaration does not name; operations from the client's side, a `send` of every client →
/// server message and a `receive` of every server → client one; each message's payload the
/// schema's `oneOf` branch for it (`frame.<wire>`: its object plus the key and version
/// members), beside the `$defs`.
pub fn keyed_document(p: &Protocol) -> String {
    let key = p.key.unwrap_or_else(|| panic!("{}: keyed_document needs a protocol told apart by one member", p.name));
    let (vkey, version) = p.version;
    let channel = "frames";
    let schema = json_schema(p);
    let branches = schema.get("oneOf").and_then(serde_json::Value::as_array).unwrap_or_else(|| panic!("{}: the schema has no oneOf", p.name));
    let msgs: Vec<Msg> = p
        .messages
        .iter()
        .map(|m| {
            let framing = format!("The frame is the contract object `{}` with `\"{key}\": \"{}\"` and `\"{vkey}\": \"{version}\"`.", m.payload.name, m.wire);
            registry_message(p, m, format!("frame.{}", m.wire), &framing)
        })
        .collect();
    let mut components = schema_entries(&schema);
    for m in p.messages {
        let branch = branches
            .iter()
            .find(|b| b.pointer(&format!("/properties/{key}/const")).and_then(serde_json::Value::as_str) == Some(m.wire))
            .unwrap_or_else(|| panic!("{}: no oneOf branch for {}", p.name, m.wire));
        components.push((format!("frame.{}", m.wire), Node::from_json(&draft07(branch))));
    }
    let info = Node::map([
        ("title", Node::str(format!("{} wire protocol", p.title))),
        ("version", Node::str(version)),
        (
            "description",
            Node::str(format!(
                "Frames of the {} protocol, one JSON object per WebSocket text message, each carrying `\"{vkey}\": \"{version}\"` and told apart by its `{key}` member. \
                 Operations are written from the client's side. Reference: generated/docs/{}.v{version}.md; spec `{}`.",
                p.title, p.name, p.spec
            )),
        ),
    ]);
    let servers = Node::map([(
        p.name,
        Node::map([
            ("host", Node::str("{host}")),
            ("protocol", Node::str("ws")),
            ("description", Node::str(format!("A {} server.", p.title))),
            ("variables", Node::map([("host", Node::map([("description", Node::str("The server's host and port; the declaration names none."))]))])),
        ]),
    )]);
    let channels = Node::map([(
        channel,
        Node::map([
            ("title", Node::str(format!("{} connection", p.title))),
            ("description", Node::str("One WebSocket connection carrying every message of the protocol.")),
            ("servers", Node::Seq(vec![Node::reference(format!("#/servers/{}", p.name))])),
            ("messages", Node::Map(msgs.iter().map(|m| (m.key.clone(), Node::reference(format!("#/components/messages/{}", m.key)))).collect())),
        ]),
    )]);
    let keys = |d: Direction| -> Vec<String> { p.messages.iter().filter(|m| m.direction == d).map(|m| m.variant.to_owned()).collect() };
    let mut operations = Vec::new();
    for (d, action, id, title) in
        [(Direction::ClientToServer, "send", "sendFrames", "Client frames"), (Direction::ServerToClient, "receive", "receiveFrames", "Server frames")]
    {
        let sent = keys(d);
        if !sent.is_empty() {
            let wires: Vec<String> = p.messages.iter().filter(|m| m.direction == d).map(|m| format!("`{}`", m.wire)).collect();
            let desc = format!("{title} ({}): {}.", direction_text(p, d), wires.join(", "));
            operations.push((id.to_owned(), operation(action, channel, title, &desc, &sent, &[])));
        }
    }
    let doc = root(info, servers, channels, Node::Map(operations), &msgs, Node::Map(components));
    crate::yaml::document(&header(p), &doc)
}

fn root(info: Node, servers: Node, channels: Node, operations: Node, msgs: &[Msg], schemas: Node) -> Node {
    Node::map([
        ("asyncapi", Node::str("3.0.0")),
        ("info", info),
        ("defaultContentType", Node::str("application/json")),
        ("servers", servers),
        ("channels", channels),
        ("operations", operations),
        ("components", Node::map([("messages", Node::Map(msgs.iter().map(|m| (m.key.clone(), message_node(m))).collect())), ("schemas", schemas)])),
    ])
}
