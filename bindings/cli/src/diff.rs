//! `wirecontract diff`: is a contract change additive or breaking?
//!
//! Compares two JSON Schemas of one contract, either two files or the committed schema file
//! at two git revisions (`git show REV:PATH`), with `wirecontract-schema-diff`, and prints
//! every change with its JSON Pointer and a verdict per direction (old receivers, old
//! senders). Exit codes: 0 no breaking change, 1 breaking change(s), 2 when nothing could be
//! compared: a usage error (with a `--help` hint), or an input that cannot be read, is not
//! JSON or not a JSON Schema, a revision git cannot show, a refused suppression file (the
//! reason only: `--help` would not help), or two schemas not shown to be one protocol (their
//! `$id` hosts differ, compared case-insensitively; or one states no absolute `$id` and
//! `--same-protocol` was not given). With
//! `--policy` the exit code is the versioning policy's instead: 1 only for a breaking change
//! without a protocol-version bump.
//!
//! A breaking change accepted by an entry of the suppression file (`--suppressions FILE`, by
//! default `.wirecontract-evolution.toml` at the repository root when it exists) is reported
//! as accepted, with its reason, and does not fail. `--format` picks the output: `text` (the
//! table, default), `json`, `markdown`, `github` (workflow commands) or `junit`.

use std::io::{self, Write};
use std::path::{Component, Path, PathBuf};
use std::process::{Command, ExitCode};

use clap::{Args, ValueEnum};
use wirecontract_schema_diff::{diff_text, Format, Labels, Options, Review, Suppressions, DEFAULT_FILE};

/// The schema `--git` reads when `--schema` is not given.
const DEFAULT_SCHEMA: &str = "generated/schema/graphmind.v1.schema.json";

/// Arguments of `wirecontract diff`.
#[derive(Debug, Args)]
#[allow(clippy::struct_excessive_bools)] // command-line switches: each one independent of the others
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
    /// The output format.
    #[arg(long, value_enum, value_name = "FORMAT", conflicts_with = "json")]
    format: Option<FormatArg>,
    /// Print the result as JSON instead of a table (same as --format json).
    #[arg(long)]
    json: bool,
    /// The suppression file: breaking changes accepted with a reason (default:
    /// .wirecontract-evolution.toml at the repository root, when it exists).
    #[arg(long, value_name = "FILE")]
    suppressions: Option<PathBuf>,
    /// Apply the versioning policy: exit 1 only when a breaking change comes without a
    /// protocol-version bump, and say so loudly.
    #[arg(long)]
    policy: bool,
    /// The protocol-version property (default: detected, `gm` or `v`).
    #[arg(long, value_name = "NAME")]
    version_field: Option<String>,
    /// Compare even when a schema states no absolute `$id` (hand-written schemas): you vouch
    /// that both describe one protocol. Without it such a pair is refused (exit 2); two `$id`s
    /// naming different hosts are refused either way.
    #[arg(long)]
    same_protocol: bool,
}

/// `--format` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum FormatArg {
    /// The aligned table (default).
    Text,
    /// Pretty-printed JSON for tools.
    Json,
    /// A Markdown changelog for release notes.
    Markdown,
    /// GitHub Actions workflow commands (::error/::warning/::notice per change).
    Github,
    /// JUnit XML: one test case per rule, a failure per breaking change.
    Junit,
}

impl From<FormatArg> for Format {
    fn from(f: FormatArg) -> Format {
        match f {
            FormatArg::Text => Format::Text,
            FormatArg::Json => Format::Json,
            FormatArg::Markdown => Format::Markdown,
            FormatArg::Github => Format::Github,
            FormatArg::Junit => Format::Junit,
        }
    }
}

/// One side of the comparison: its label and its text.
struct Input {
    label: String,
    text: String,
    /// The file, relative to the repository root when possible (for annotations).
    file: String,
}

/// Why `wirecontract diff` compared nothing (exit 2 either way).
#[derive(Debug)]
enum Stop {
    /// The command line itself is wrong: the message and a `--help` hint.
    Usage(String),
    /// An input could not be read or used (a file, a revision, JSON, a schema, the
    /// suppression file): the message only, since the help text would not fix it.
    Input(String),
}

impl From<String> for Stop {
    /// Errors are about inputs unless said otherwise.
    fn from(msg: String) -> Stop {
        Stop::Input(msg)
    }
}

/// Runs `wirecontract diff`; returns the exit code.
pub(crate) fn run(args: &DiffArgs) -> ExitCode {
    let message = match compare(args) {
        Ok(code) => return code,
        Err(Stop::Usage(msg)) => format!("error: {msg}\n\nFor more information, try '--help'."),
        Err(Stop::Input(msg)) => format!("error: {msg}"),
    };
    let _ = writeln!(io::stderr(), "{message}");
    ExitCode::from(2)
}

/// Reads both inputs, compares them and prints the result.
fn compare(args: &DiffArgs) -> Result<ExitCode, Stop> {
    let (old, new) = if args.git {
        let schema = args.schema.as_deref().unwrap_or(Path::new(DEFAULT_SCHEMA));
        let old = git_show(&args.old, schema)?;
        let new = match &args.new {
            Some(rev) => git_show(rev, schema)?,
            None => read_file(schema)?,
        };
        (old, new)
    } else {
        let new = args.new.as_deref().ok_or_else(|| Stop::Usage("NEW is required without --git".to_owned()))?;
        (read_file(Path::new(&args.old))?, read_file(Path::new(new))?)
    };
    let options = Options { version_field: args.version_field.clone(), same_protocol: args.same_protocol };
    let format = if args.json { Format::Json } else { args.format.map_or(Format::Text, Format::from) };
    let suppressions = load_suppressions(args.suppressions.as_deref())?;
    let d = diff_text(&old.text, &new.text, &old.label, &new.label, &options).map_err(|e| e.to_string())?;
    let labels = Labels { old: old.label, new: new.label, file: Some(new.file) };
    let review = Review::new(d, labels, suppressions.as_ref(), args.policy);
    let out = format.render(&review);
    // Text and GitHub output already show unused suppressions; keep the others parseable.
    if !matches!(format, Format::Text | Format::Github) {
        let mut stderr = io::stderr().lock();
        for line in review.unused_lines() {
            let _ = writeln!(stderr, "warning: {line}");
        }
    }
    let mut stdout = io::stdout().lock();
    // A closed stdout (`| head`) is not an error; the verdict is in the exit code.
    let _ = stdout.write_all(out.as_bytes()).and_then(|()| stdout.flush());
    Ok(ExitCode::from(u8::from(review.fails())))
}

/// Reads the suppression file: `file` when given (it must exist), else
/// `.wirecontract-evolution.toml` at the repository root (or the current directory outside
/// a repository) when it exists.
fn load_suppressions(file: Option<&Path>) -> Result<Option<Suppressions>, String> {
    let (path, label) = if let Some(f) = file {
        (f.to_path_buf(), f.display().to_string())
    } else {
        let path = repo_root().unwrap_or_default().join(DEFAULT_FILE);
        if !path.is_file() {
            return Ok(None);
        }
        (path, DEFAULT_FILE.to_owned())
    };
    let text = read_file(&path)?.text;
    Suppressions::parse(&text, &label).map(Some).map_err(|e| format!("refused suppression file:\n{e}"))
}

/// The repository root, when the current directory is in a git work tree.
fn repo_root() -> Option<PathBuf> {
    let top = git(&["rev-parse", "--show-toplevel"]).ok()?;
    Some(PathBuf::from(top.trim()))
}

/// `path` (absolute, or relative to the current directory) relative to the repository root,
/// as GitHub annotations want it; as given when that cannot be worked out.
fn repo_relative(path: &Path) -> String {
    let canon = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    let relative = || {
        let root = canon(&repo_root()?);
        let abs = if path.is_absolute() { path.to_path_buf() } else { canon(&std::env::current_dir().ok()?).join(path) };
        let mut normal = PathBuf::new();
        for part in abs.components() {
            match part {
                Component::CurDir => {}
                Component::ParentDir => {
                    normal.pop();
                }
                other => normal.push(other),
            }
        }
        let rel = canon(&normal).strip_prefix(&root).ok()?.to_path_buf();
        Some(rel.display().to_string())
    };
    relative().unwrap_or_else(|| path.display().to_string())
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
    Ok(Input { label: path.display().to_string(), text, file: repo_relative(path) })
}

/// Reads a schema file as committed at a revision.
fn git_show(rev: &str, path: &Path) -> Result<Input, Stop> {
    if rev.starts_with('-') {
        return Err(Stop::Usage(format!("not a revision: {rev}")));
    }
    let spec = if path.is_absolute() {
        let top = git(&["rev-parse", "--show-toplevel"])?;
        let top = PathBuf::from(top.trim());
        let canon = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
        let rel = path
            .strip_prefix(canon(&top))
            .or_else(|_| path.strip_prefix(&top))
            .map_err(|_| Stop::Usage(format!("--schema {} is not inside the git repository {}", path.display(), top.display())))?;
        format!("{rev}:{}", rel.display())
    } else {
        format!("{rev}:./{}", path.display())
    };
    let text = git(&["show", &spec])?;
    Ok(Input { label: format!("{rev}:{}", path.display()), text, file: repo_relative(path) })
}

/// Runs git; its stderr becomes the error.
fn git(args: &[&str]) -> Result<String, String> {
    let out = Command::new("git").args(args).output().map_err(|e| format!("cannot run git: {e}"))?;
    if !out.status.success() {
        return Err(format!("git {} failed: {}", args.join(" "), String::from_utf8_lossy(&out.stderr).trim()));
    }
    String::from_utf8(out.stdout).map_err(|_| format!("git {} printed non-UTF-8 text", args.join(" ")))
}
