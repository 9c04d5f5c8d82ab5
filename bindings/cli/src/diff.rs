//! `wirecontract diff`: is a contract change additive or breaking?
//!
//! Compares two JSON Schemas of one contract, either two files or the committed schema file
//! at two git revisions (`git show REV:PATH`), with `wirecontract-schema-diff`, and prints
//! every change with its JSON Pointer and a verdict per direction (old receivers, old
//! senders). Exit codes: 0 no breaking change, 1 breaking change(s), 2 usage error (including
//! an input that cannot be read or is not a JSON Schema). With `--policy` the exit code is the
//! versioning policy's instead: 1 only for a breaking change without a protocol-version bump.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use clap::Args;
use wirecontract_schema_diff::{diff_text, Options};

/// The schema `--git` reads when `--schema` is not given.
const DEFAULT_SCHEMA: &str = "generated/schema/graphmind.v1.schema.json";

/// Arguments of `wirecontract diff`.
#[derive(Debug, Args)]
pub(crate) struct DiffArgs {
    /// The old schema file; with --git, the old revision.
    #[arg(value_name = "OLD")]
    old: String,
    /// The new schema file; with --git, the new revision (omitted: the working tree's file).
    #[arg(value_name = "NEW", required_unless_present = "git")]
    new: Option<String>,
    /// Read OLD and NEW as git revisions of the schema file (`git show REV:PATH`).
    #[arg(long)]
    git: bool,
    /// The schema file to read at each revision (with --git only).
    #[arg(long, value_name = "PATH", requires = "git")]
    schema: Option<PathBuf>,
    /// Print the result as JSON instead of a table.
    #[arg(long)]
    json: bool,
    /// Apply the versioning policy: exit 1 only when a breaking change comes without a
    /// protocol-version bump, and say so loudly.
    #[arg(long)]
    policy: bool,
    /// The protocol-version property (default: detected, `gm` or `v`).
    #[arg(long, value_name = "NAME")]
    version_field: Option<String>,
}

/// One side of the comparison: its label and its text.
struct Input {
    label: String,
    text: String,
}

/// Runs `wirecontract diff`; returns the exit code.
pub(crate) fn run(args: &DiffArgs) -> ExitCode {
    match compare(args) {
        Ok(code) => code,
        Err(msg) => {
            let _ = writeln!(
                io::stderr(),
                "error: {msg}\n\nFor more information, try '--help'."
            );
            ExitCode::from(2)
        }
    }
}

/// Reads both inputs, compares them and prints the result.
fn compare(args: &DiffArgs) -> Result<ExitCode, String> {
    let (old, new) = if args.git {
        let schema = args.schema.as_deref().unwrap_or(Path::new(DEFAULT_SCHEMA));
        let old = git_show(&args.old, schema)?;
        let new = match &args.new {
            Some(rev) => git_show(rev, schema)?,
            None => read_file(schema)?,
        };
        (old, new)
    } else {
        let new = args.new.as_deref().ok_or("NEW is required without --git")?;
        (read_file(Path::new(&args.old))?, read_file(Path::new(new))?)
    };
    let options = Options {
        version_field: args.version_field.clone(),
    };
    let d = diff_text(&old.text, &new.text, &old.label, &new.label, &options)
        .map_err(|e| e.to_string())?;
    let mut out = String::new();
    if args.json {
        out.push_str(&d.to_json(&old.label, &new.label));
    } else {
        out.push_str(&d.to_table(&old.label, &new.label));
    }
    let code = if args.policy {
        if !args.json {
            out.push('\n');
            out.push_str(&d.policy_text(&protocol_name(&new.label)));
            out.push('\n');
        }
        !d.policy().allowed()
    } else {
        d.is_breaking()
    };
    let mut stdout = io::stdout().lock();
    // A closed stdout (`| head`) is not an error; the verdict is in the exit code.
    let _ = stdout
        .write_all(out.as_bytes())
        .and_then(|()| stdout.flush());
    Ok(ExitCode::from(u8::from(code)))
}

/// Reads a schema file.
fn read_file(path: &Path) -> Result<Input, String> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        if e.kind() == io::ErrorKind::NotFound {
            format!("no such file: {}", path.display())
        } else {
            format!("cannot read {}: {e}", path.display())
        }
    })?;
    Ok(Input {
        label: path.display().to_string(),
        text,
    })
}

/// Reads a schema file as committed at a revision.
fn git_show(rev: &str, path: &Path) -> Result<Input, String> {
    if rev.starts_with('-') {
        return Err(format!("not a revision: {rev}"));
    }
    let spec = if path.is_absolute() {
        let top = git(&["rev-parse", "--show-toplevel"])?;
        let top = PathBuf::from(top.trim());
        let canon = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
        let rel = path
            .strip_prefix(canon(&top))
            .or_else(|_| path.strip_prefix(&top))
            .map_err(|_| {
                format!(
                    "{} is not inside the git repository {}",
                    path.display(),
                    top.display()
                )
            })?;
        format!("{rev}:{}", rel.display())
    } else {
        format!("{rev}:./{}", path.display())
    };
    let text = git(&["show", &spec])?;
    Ok(Input {
        label: format!("{rev}:{}", path.display()),
        text,
    })
}

/// Runs git; its stderr becomes the error.
fn git(args: &[&str]) -> Result<String, String> {
    let out = Command::new("git")
        .args(args)
        .output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "git {} failed: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    String::from_utf8(out.stdout)
        .map_err(|_| format!("git {} printed non-UTF-8 text", args.join(" ")))
}

/// The protocol's name from a schema file name: `graphmind.v1.schema.json` → `graphmind`.
fn protocol_name(label: &str) -> String {
    let file = label.rsplit(['/', ':']).next().unwrap_or(label);
    file.split('.').next().unwrap_or(file).to_owned()
}
