//! Whatever a binding serializes from host values parses back: opaque values that are valid
//! JSON each may still nest past the reader's depth cap inside a frame, and
//! `try_serialize_*_message` refuses that frame instead of writing it (graphorin-v1 §13).

use wirecontract::graphorin::{self, RawJson, ServerMessage, DEFAULT_MAX_DEPTH};

fn success_with_result(depth: usize) -> ServerMessage {
    let ServerMessage::RpcSuccess(mut f) =
        graphorin::parse::<graphorin::ServerMessage>(r#"{"v":"1","jsonrpc":"2.0","id":"x","result":{}}"#, &graphorin::ParseOptions::default()).unwrap()
    else {
        panic!("rpc-success")
    };
    f.result = RawJson::from_json(&format!("{}{}", "[".repeat(depth), "]".repeat(depth))).unwrap();
    ServerMessage::RpcSuccess(f)
}

#[test]
fn a_frame_nested_past_the_cap_is_refused_and_one_at_the_cap_is_written() {
    // The frame object adds one level: a result of depth cap − 1 makes a frame of depth cap.
    let fits = success_with_result(DEFAULT_MAX_DEPTH - 1);
    let text = graphorin::try_serialize_server_message(&fits).unwrap();
    assert_eq!(text, graphorin::serialize_server_message(&fits));
    assert_eq!(graphorin::parse::<graphorin::ServerMessage>(&text, &graphorin::ParseOptions::default()).unwrap(), fits);

    let deep = success_with_result(DEFAULT_MAX_DEPTH);
    let e = graphorin::try_serialize_server_message(&deep).unwrap_err();
    assert!(e.reason.starts_with("the frame would not parse: nesting exceeds the maximum depth"), "{e}");
    assert!(
        graphorin::parse::<graphorin::ServerMessage>(&graphorin::serialize_server_message(&deep), &graphorin::ParseOptions::default()).is_err(),
        "the unchecked writer documents this case"
    );
}

#[test]
fn client_messages_are_checked_the_same_way() {
    let deep = format!("{}{}", "[".repeat(DEFAULT_MAX_DEPTH), "]".repeat(DEFAULT_MAX_DEPTH));
    let frame = r#"{"v":"1","jsonrpc":"2.0","id":1,"method":"initialize","params":{"clientInfo":{"name":"n","version":"1"},"capabilities":{}}}"#;
    let mut m = graphorin::parse::<graphorin::ClientMessage>(frame, &graphorin::ParseOptions::default()).unwrap();
    assert!(graphorin::try_serialize_client_message(&m).is_ok());
    if let graphorin::ClientMessage::Initialize(f) = &mut m {
        let mut caps = graphorin::OpaqueObject::default();
        caps.0.insert("deep", RawJson::from_json(&deep).unwrap());
        f.params.capabilities = Some(caps);
    } else {
        panic!("initialize")
    }
    assert!(graphorin::try_serialize_client_message(&m).is_err());
}
