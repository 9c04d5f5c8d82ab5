//! The Markdown protocol references (`docs/<protocol>.v1.md`), written from the contract's
//! typed registry: every message type with its direction, field table and example frame,
//! every object and enum, the parse outcomes and the session rules. Every type has an explicit
//! anchor ([`message_anchor`], [`object_anchor`], [`enum_anchor`]); links stay inside the
//! document or point at files of the repository.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use wirecontract::registry::{Direction, EnumDesc, MessageGroup, ObjectDesc, Protocol, Ty};
use wirecontract::{graphmind, graphorin};

use crate::examples::example;
use crate::prose;

/// The anchor of a message type or frame variant (`message-node-started`).
pub fn message_anchor(wire: &str) -> String {
    let slug: String = wire.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }).collect();
    format!("message-{slug}")
}

/// The anchor of an object (`object-NodeStarted`).
pub fn object_anchor(name: &str) -> String {
    format!("object-{name}")
}

/// The anchor of an enum (`enum-NodeKind`).
pub fn enum_anchor(name: &str) -> String {
    format!("enum-{name}")
}

/// A field type in Markdown, linked to its object or enum.
fn ty_md(ty: &Ty) -> String {
    match ty {
        Ty::Scalar(s) => s.describe().replace('|', "\\|"),
        Ty::Enum(e) => format!("[`{}`](#{})", e.name, enum_anchor(e.name)),
        Ty::Object(o) => format!("[`{}`](#{})", o.name, object_anchor(o.name)),
        Ty::List(t) => format!("array of {}", ty_md(t)),
    }
}

/// The field table of an object: its constant members, then its fields.
fn field_table(out: &mut String, o: &ObjectDesc) {
    if o.fields.is_empty() && o.literals.is_empty() {
        out.push_str("No fields.\n\n");
        return;
    }
    out.push_str("| Field | Type | Required | Meaning |\n|---|---|---|---|\n");
    for (wire, value) in o.literals {
        let _ = writeln!(out, "| `{wire}` | constant `\"{value}\"` | yes | Always written with this value. |");
    }
    for f in o.fields {
        let _ = writeln!(out, "| `{}` | {} | {} | {} |", f.wire, ty_md(&f.ty), if f.required { "yes" } else { "no" }, prose::one_line(f.doc));
    }
    let rule = if o.strict { "Strict: an undeclared member makes the frame invalid." } else { "Loose: unknown members are kept." };
    let _ = writeln!(out, "\n{rule}\n");
}

/// An object's anchor, heading, doc and field table.
fn object_section(out: &mut String, o: &ObjectDesc, level: &str) {
    let _ = writeln!(out, "<a id=\"{}\"></a>\n\n{level} `{}`\n", object_anchor(o.name), o.name);
    let doc = prose::doc(o.doc);
    if !doc.is_empty() {
        let _ = writeln!(out, "{doc}\n");
    }
    field_table(out, o);
}

/// An enum's anchor, heading, doc and values.
fn enum_section(out: &mut String, e: &EnumDesc) {
    let _ = writeln!(out, "<a id=\"{}\"></a>\n\n### `{}`\n", enum_anchor(e.name), e.name);
    let doc = prose::doc(e.doc);
    if !doc.is_empty() {
        let _ = writeln!(out, "{doc}\n");
    }
    out.push_str("| Value | Meaning |\n|---|---|\n");
    for v in e.values {
        let _ = writeln!(out, "| `{}` | {} |", v.wire, prose::one_line(v.doc));
    }
    out.push('\n');
}

/// The example block of a message.
fn example_block(out: &mut String, protocol: &str, wire: &str) {
    let ex = example(protocol, wire);
    let _ = writeln!(out, "Example ({}):\n\n```json\n{}\n```\n", ex.source_text(), ex.frame);
}

/// One message: anchor, heading, direction, doc, its payload or frame object, example.
fn message_section(out: &mut String, p: &Protocol, wire: &str, direction: &str, doc: &str, object: &ObjectDesc, documented: &mut BTreeSet<&'static str>) {
    let _ = writeln!(out, "<a id=\"{}\"></a>\n\n### `{wire}`\n", message_anchor(wire));
    let _ = writeln!(out, "Direction: {direction}.\n");
    let doc = prose::doc(doc);
    if !doc.is_empty() && doc != format!("`{wire}`") {
        let _ = writeln!(out, "{doc}\n");
    }
    if documented.insert(object.name) {
        object_section(out, object, "####");
    } else {
        let _ = writeln!(out, "Payload: [`{}`](#{}).\n", object.name, object_anchor(object.name));
    }
    example_block(out, p.name, wire);
}

/// Helper objects (not a payload or frame) and enums, in registry order; a section with nothing
/// in it is left out (its heading too: [`sections`] leaves it out of the contents).
fn objects_and_enums(out: &mut String, p: &Protocol, documented: &mut BTreeSet<&'static str>) {
    let helpers: Vec<_> = p.objects().into_iter().filter(|o| !documented.contains(o.name)).collect();
    if !helpers.is_empty() {
        out.push_str("## Objects\n\nObjects used inside payloads and frames (payloads and frames are documented with their message above).\n\n");
    }
    for o in helpers {
        if documented.insert(o.name) {
            object_section(out, o, "###");
        }
    }
    if p.enums().is_empty() {
        return;
    }
    out.push_str("## Enums\n\nEnums are closed: a value not listed makes the frame invalid.\n\n");
    for e in p.enums() {
        enum_section(out, e);
    }
}

/// The contents list.
fn contents(out: &mut String, sections: &[(&str, &str)]) {
    out.push_str("## Contents\n\n");
    for (title, anchor) in sections {
        let _ = writeln!(out, "- [{title}](#{anchor})");
    }
    out.push('\n');
}

/// A list of links to messages.
fn message_links(wires: &[&str]) -> String {
    wires.iter().map(|w| format!("[`{w}`](#{})", message_anchor(w))).collect::<Vec<_>>().join(", ")
}

/// The GraphMind reference.
pub fn graphmind_reference() -> String {
    let p = &graphmind::PROTOCOL;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<!-- Generated by scripts/regen from the wirecontract contract crate's registry. Do not edit. -->\n\n\
         # {} wire protocol v1: reference\n\n\
         Every message type of the protocol, with its direction, fields, an example frame, and the rules a receiver applies. \
         Generated from the contract crate (`wirecontract::registry`); the authority is the spec `{}` (`graphmind-v1.md` in the shared specs). \
         Machine-readable forms: the [JSON Schema](../schema/graphmind.v1.schema.json) (draft 2020-12) and the \
         [AsyncAPI 3.0 document](../asyncapi/graphmind.v1.asyncapi.yaml) (its payload schemas are a draft-07 rendering of the JSON Schema, \
         because the official AsyncAPI parser reads draft-07).\n",
        p.title, p.spec
    );
    contents(
        &mut out,
        &[
            ("Connection", "connection"),
            ("Envelope", "envelope"),
            ("Parse outcomes", "parse-outcomes"),
            ("Session rules", "session-rules"),
            ("Messages", "messages"),
            ("Objects", "objects"),
            ("Enums", "enums"),
        ],
    );
    graphmind_rules(&mut out, p);
    out.push_str("<a id=\"messages\"></a>\n\n## Messages\n\n");
    let groups = [
        (MessageGroup::Event, "Events", "app → viewer"),
        (MessageGroup::Control, "Controls", "viewer → app"),
        (MessageGroup::Handshake, "Handshake", "both directions"),
    ];
    for (group, title, dir) in groups {
        let _ = writeln!(out, "- {title} ({dir}): {}", message_links(&p.message_types_in(group)));
    }
    out.push('\n');
    let mut documented = BTreeSet::new();
    for m in p.messages {
        let group = match m.group {
            MessageGroup::Event => "event",
            MessageGroup::Control => "control",
            MessageGroup::Handshake => "handshake",
        };
        let dir = match m.direction {
            Direction::ClientToServer => "app → viewer",
            Direction::ServerToClient => "viewer → app",
        };
        message_section(&mut out, p, m.wire, &format!("{dir} ({group})"), m.doc, m.payload, &mut documented);
    }
    objects_and_enums(&mut out, p, &mut documented);
    out
}

/// GraphMind's connection, envelope, parse outcomes and session rules.
fn graphmind_rules(out: &mut String, p: &Protocol) {
    let _ = writeln!(
        out,
        "<a id=\"connection\"></a>\n\n## Connection\n\n\
         The instrumented app is the WebSocket client, the viewer the server (default URL `{}`). \
         Each WebSocket text message is one JSON envelope. Events and `hello` go app → viewer; controls and `hello.ack` go viewer → app.\n",
        graphmind::session::DEFAULT_URL
    );
    out.push_str(
        "<a id=\"envelope\"></a>\n\n## Envelope\n\n\
         Every frame is `{gm, seq, ts, runId, type, payload}`; unknown extra members are allowed and kept.\n\n\
         | Field | Type | Required | Meaning |\n|---|---|---|---|\n",
    );
    let _ = writeln!(out, "| `gm` | integer | yes | Protocol version; `{}` is the only one supported. |", graphmind::PROTOCOL_VERSION);
    out.push_str(
        "| `seq` | integer, 0 ≤ x ≤ 2^53 − 1 | yes | Sequence number of the app session (one counter across runs and connections). |\n\
         | `ts` | integer, 0 ≤ x ≤ 2^53 − 1 | yes | Epoch milliseconds. |\n",
    );
    let _ = writeln!(
        out,
        "| `runId` | string | yes | The run; no lone surrogate, no U+0000. `\"{}\"` (wildcard) for the handshake and viewer broadcasts. |\n\
         | `type` | string | yes | The message type: one of the [messages](#messages), or any other string (`unknown-type`). |\n\
         | `payload` | object | yes for known types | The type's payload object; any value (or absent) for an unknown type. |\n",
        graphmind::WILDCARD_RUN_ID
    );
    let _ = writeln!(
        out,
        "<a id=\"parse-outcomes\"></a>\n\n## Parse outcomes\n\n\
         Parsing a frame never fails: every frame gets exactly one verdict.\n\n\
         | Verdict | Meaning |\n|---|---|\n\
         | `ok` | A known type with a valid payload. |\n\
         | `unknown-type` | A structurally valid `gm: {v}` envelope whose `type` is not a known message type; the payload is kept as it came (possibly absent). |\n\
         | `version-mismatch` | A structurally valid envelope with `gm` other than {v}; carries `received` and `supported` ({v}). |\n\
         | `invalid` | Anything else; carries a reason and, except when the frame is not JSON (or too big or too deep), the issues found. |\n\n\
         Decision order (the first step that decides gives the verdict):\n\n\
         1. **JSON**: the frame must be one JSON text (`JSON.parse` semantics: the last duplicate key wins). Frames above {mib} MiB by default, or nested deeper than the depth cap, are `invalid` without issues.\n\
         2. **Envelope**: the structural check of every envelope field at once (`seq`, `ts`, `runId`, `type` a string, an object at the top). Failure: `invalid` with reason \"{not_env}\". This runs before the version check.\n\
         3. **gm**: `gm` ≠ {v} is `version-mismatch`, before the type lookup and any payload check.\n\
         4. **type**: a type that is not one of the {n} known types is `unknown-type`.\n\
         5. **payload**: the payload is checked against its type; failure is `invalid` (`invalid payload for message type \"<type>\"`) with every issue; otherwise `ok`.\n",
        v = graphmind::PROTOCOL_VERSION,
        mib = graphmind::DEFAULT_MAX_FRAME_BYTES / (1024 * 1024),
        not_env = graphmind::REASON_NOT_AN_ENVELOPE,
        n = p.messages.len(),
    );
    out.push_str(
        "<a id=\"session-rules\"></a>\n\n## Session rules\n\n\
         What the two sides do on a connection beyond building and parsing envelopes is specified in the session spec \
         (`graphmind-session.md` in the shared specs) and implemented, sans-IO, by the contract's \
         [session module](../../contract/src/graphmind/session/mod.rs) (`AppSession`, `ViewerSession`); \
         [the session guarantees](../../docs/session.md#guarantees) list what each side may rely on. In short:\n\n\
         - The app opens every connection with [`hello`](#message-hello); the viewer answers each `hello` with one \
         [`hello.ack`](#message-hello-ack) (`runId` `\"*\"`) carrying the full breakpoint set and the mode. The ack is the only way to arm a connection; \
         later changes come as [`breakpoint.set`](#message-breakpoint-set), [`breakpoint.clear`](#message-breakpoint-clear) and [`mode.set`](#message-mode-set).\n\
         - `seq` is one counter per app session (shared across runs and connections); frames are replayed after a reconnect, \
         so a viewer de-duplicates by `(runId, seq)` beyond the connection and assumes neither order nor contiguity. Loss is marked by a \
         [`graph.hint`](#message-graph-hint) with a `gap` member.\n\
         - A pause is open from an [`exec.paused`](#message-exec-paused) until an [`exec.resumed`](#message-exec-resumed) with its `pauseId`; \
         every release of a gate is answered by `exec.resumed`. [`exec.refused`](#message-exec-refused) leaves the pause open. \
         [`exec.resume`](#message-exec-resume) goes to the connection that owns the run.\n\
         - A side that receives `gm` ≠ 1 closes the connection (the viewer with close code 1002).\n\n",
    );
}

/// The Graphorin reference.
pub fn graphorin_reference() -> String {
    let p = &graphorin::PROTOCOL;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<!-- Generated by scripts/regen from the wirecontract contract crate's registry. Do not edit. -->\n\n\
         # {} wire protocol v1: reference\n\n\
         Every frame of the protocol, with its direction, fields, an example, and the rules a receiver applies. \
         Generated from the contract crate (`wirecontract::registry`); the authority is the spec `{}` (`graphorin-v1.md` in the shared specs). \
         Machine-readable forms: the [JSON Schema](../schema/graphorin.v1.schema.json) (draft 2020-12) and the \
         [AsyncAPI 3.0 document](../asyncapi/graphorin.v1.asyncapi.yaml) (its payload schemas are a draft-07 rendering of the JSON Schema, \
         because the official AsyncAPI parser reads draft-07).\n",
        p.title, p.spec
    );
    contents(&mut out, &[("Connection", "connection"), ("Parse outcomes", "parse-outcomes"), ("Frames", "frames"), ("Objects", "objects"), ("Enums", "enums")]);
    let _ = writeln!(
        out,
        "<a id=\"connection\"></a>\n\n## Connection\n\n\
         One WebSocket at path `{path}`, subprotocol `{sub}` (under ticket auth the client also offers `{ticket}<value>`; the server echoes only `{sub}`). \
         One JSON object per text message; no batching. Every frame, in both directions, carries `\"{vk}\": \"{vv}\"`; nothing is negotiated. \
         Every object is strict: an undeclared member makes the frame invalid, except inside the opaque extension points (`result`, `payload`, `data`, `capabilities` values). \
         Strings are non-empty; optional means absent, never `null`. The server closes with the codes of [`CloseReason`](#{close}).\n",
        path = graphorin::WS_PATH,
        sub = graphorin::SUBPROTOCOL_NAME,
        ticket = graphorin::TICKET_SUBPROTOCOL_PREFIX,
        vk = p.version.0,
        vv = p.version.1,
        close = enum_anchor("CloseReason"),
    );
    out.push_str(
        "<a id=\"parse-outcomes\"></a>\n\n## Parse outcomes\n\n\
         A frame is read as a server frame (`parse_server_message`) or a client frame (`parse_client_message`); the outcome is one of:\n\n\
         | Outcome | Meaning |\n|---|---|\n\
         | ok | The frame is exactly one variant of its direction's union (below). |\n\
         | invalid: JSON | Not one JSON text (`JSON.parse` semantics), not UTF-8, or nested beyond the depth cap. No issues. A server answers with a JSON-RPC error -32700 (`id` 0), then closes with 4008. |\n\
         | invalid: schema | JSON, but not a valid frame: a non-object, a wrong `v` or `jsonrpc`, an unknown `kind` or `method`, an undeclared member, a wrong field. Carries coded issues and the best-effort raw `id`. A server answers with -32600 echoing the `id`, then closes with 4008. |\n\n\
         Decision order: JSON first, then the frame schema of the direction as a whole (every issue reported).\n\n",
    );
    out.push_str("<a id=\"frames\"></a>\n\n## Frames\n\n");
    for u in p.unions {
        let _ = writeln!(out, "- `{}` ({}): {}", u.name, dir_text(u.direction), message_links(&u.variants.iter().map(|v| v.wire).collect::<Vec<_>>()));
    }
    out.push('\n');
    let mut documented = BTreeSet::new();
    for u in p.unions {
        let _ = writeln!(out, "<a id=\"union-{}\"></a>\n\n## `{}` ({})\n\n{}\n", u.name, u.name, dir_text(u.direction), prose::doc(u.doc));
        for v in u.variants {
            let requests = if u.direction == Direction::ClientToServer && v.frame.field("id").is_some() {
                "; a request, answered by `rpc-success` or `rpc-failure` with the same `id`"
            } else {
                ""
            };
            message_section(
                &mut out,
                p,
                v.wire,
                &format!("{}, variant `{}` of `{}`{requests}", dir_text(u.direction), v.name, u.name),
                v.doc,
                v.frame,
                &mut documented,
            );
        }
    }
    objects_and_enums(&mut out, p, &mut documented);
    out
}

/// The reference of `p`: GraphMind's and Graphorin's are hand-shaped around their spec
/// (connection, parse outcomes, session rules); any other protocol gets [`generic_reference`].
pub fn reference(p: &Protocol) -> String {
    match p.name {
        "graphmind" => graphmind_reference(),
        "graphorin" => graphorin_reference(),
        _ => generic_reference(p),
    }
}

/// The reference of a protocol without a hand-shaped one, from its registry entry alone: every
/// message type (and union variant) with its direction, object and an example frame accepted
/// by the protocol's own parser, then every helper object and enum.
pub fn generic_reference(p: &Protocol) -> String {
    let base = format!("{}.v{}", p.name, p.version.1);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<!-- Generated by scripts/regen from the wirecontract contract crate's registry. Do not edit. -->\n\n\
         # {} wire protocol v{}: reference\n\n\
         Every message of the protocol, with its direction, fields and an example. \
         Generated from the contract crate (`wirecontract::registry`); the authority is the spec `{}`. \
         Machine-readable form: the [JSON Schema](../schema/{base}.schema.json) (draft 2020-12).\n",
        p.title, p.version.1, p.spec
    );
    contents(&mut out, &sections(p));
    out.push_str("<a id=\"messages\"></a>\n\n## Messages\n\n");
    let wires: Vec<&str> = p.messages.iter().map(|m| m.wire).chain(p.unions.iter().flat_map(|u| u.variants).map(|v| v.wire)).collect();
    let _ = writeln!(out, "{}\n", message_links(&wires));
    let mut documented = BTreeSet::new();
    for m in p.messages {
        let direction = dir_text(m.direction);
        message_section(&mut out, p, m.wire, direction, m.doc, m.payload, &mut documented);
    }
    for u in p.unions {
        for v in u.variants {
            message_section(&mut out, p, v.wire, &format!("{}, variant `{}` of `{}`", dir_text(u.direction), v.name, u.name), v.doc, v.frame, &mut documented);
        }
    }
    objects_and_enums(&mut out, p, &mut documented);
    out
}

/// The generic reference's contents: Messages, then Objects when the protocol has helper
/// objects (any object not a payload or frame) and Enums when it has enums, as
/// [`objects_and_enums`] writes them.
fn sections(p: &Protocol) -> Vec<(&'static str, &'static str)> {
    let roots: Vec<&str> = p.messages.iter().map(|m| m.payload.name).chain(p.unions.iter().flat_map(|u| u.variants).map(|v| v.frame.name)).collect();
    let mut out = vec![("Messages", "messages")];
    if p.objects().iter().any(|o| !roots.contains(&o.name)) {
        out.push(("Objects", "objects"));
    }
    if !p.enums().is_empty() {
        out.push(("Enums", "enums"));
    }
    out
}

fn dir_text(d: Direction) -> &'static str {
    match d {
        Direction::ClientToServer => "client → server",
        Direction::ServerToClient => "server → client",
    }
}

#[cfg(test)]
mod tests {
    /// A protocol without helper objects or enums gets no empty "Objects" or "Enums" section
    /// (nor a contents line pointing at one); GraphMind keeps both.
    #[test]
    fn empty_sections_are_left_out() {
        let tiny = &crate::examples::tests::TINY;
        assert_eq!(super::sections(tiny), vec![("Messages", "messages")]);
        let mut out = String::new();
        super::objects_and_enums(&mut out, tiny, &mut ["ErrorInfo"].into_iter().collect());
        assert_eq!(out, "");
        let gm = &wirecontract::graphmind::PROTOCOL;
        assert_eq!(super::sections(gm), vec![("Messages", "messages"), ("Objects", "objects"), ("Enums", "enums")]);
    }
}
