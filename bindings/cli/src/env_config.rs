//! `wirecontract env-config`: the app-session configuration the current environment resolves
//! to, as the contract's core reads it (`SessionConfig::from_env`: `GRAPHMIND_DISABLED`,
//! production detection, `GRAPHMIND_URL`, `GRAPHMIND_LOOP_*`, `GRAPHMIND_HIDE_*`), so a user
//! can see why an instrumented app does not connect or what it hides. One JSON object on
//! stdout; the CLI itself is a viewer and runs no app session.

use std::io::{self, Write};

use wirecontract::graphmind::session::{LoopMode, SessionConfig, ENV_VARS};

use crate::Failure;

/// Prints the resolved configuration of the process environment.
pub fn run() -> Result<(), Failure> {
    let vars: Vec<(String, String)> = std::env::vars_os().filter_map(|(k, v)| Some((k.into_string().ok()?, v.into_string().ok()?))).collect();
    let c = SessionConfig::from_env(vars.iter().map(|(k, v)| (k.as_str(), v.as_str()))).effective();
    let mode = match c.loop_guard.mode {
        LoopMode::Pause => "pause",
        LoopMode::Warn => "warn",
        LoopMode::Off => "off",
    };
    let set: serde_json::Map<String, serde_json::Value> =
        ENV_VARS.iter().filter_map(|name| vars.iter().rev().find(|(k, _)| k == name).map(|(k, v)| (k.clone(), serde_json::Value::String(v.clone())))).collect();
    let report = serde_json::json!({
        "enabled": c.enabled,
        "killSwitch": c.env_floor.disabled,
        "url": c.url,
        "loopThreshold": c.loop_guard.threshold,
        "loopMode": mode,
        "loopAllow": c.loop_guard.allow,
        "hideInputs": c.redaction.hide_inputs,
        "hideOutputs": c.redaction.hide_outputs,
        "hideToolArgs": c.redaction.hide_tool_args,
        "hideToolResults": c.redaction.hide_tool_results,
        "variables": set,
    });
    let mut out = io::stdout().lock();
    writeln!(out, "{report}").and_then(|()| out.flush()).map_err(|e| Failure::from_write(&e))
}
