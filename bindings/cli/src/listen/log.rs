//! The listener's terminal output: peer text made safe to print ([`Peer`]), and the log rate
//! limit (`--log-rate`) that keeps a flood of frames or errors from flooding the terminal.
//!
//! Every field an app or a TCP peer chose (run ids, node ids and names, pause ids, tokens,
//! close reasons, error text) goes through [`Peer`] before it reaches a line, so a newline
//! cannot forge a `==` status line and an ANSI escape never reaches the terminal. The
//! `--record` file is JSON and needs none of this.

use std::fmt::{self, Write as _};
use std::io::{self, Write};
use std::time::Instant;

/// Peer-supplied text for a terminal line: control characters (C0, DEL, C1), the Unicode
/// line and paragraph separators and the bidirectional overrides are written as `\n`, `\t`,
/// `\r` or `\u{…}`, and a backslash as `\\`, so the text stays on its line, changes no
/// terminal state, and reads back unambiguously.
#[derive(Debug, Clone, Copy)]
pub struct Peer<'a>(pub &'a str);

/// Whether `c` must not reach a terminal raw.
fn unsafe_char(c: char) -> bool {
    c.is_control() || matches!(c, '\u{2028}' | '\u{2029}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

impl fmt::Display for Peer<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.0.chars().any(|c| c == '\\' || unsafe_char(c)) {
            return f.write_str(self.0);
        }
        for c in self.0.chars() {
            match c {
                '\\' => f.write_str("\\\\")?,
                '\n' => f.write_str("\\n")?,
                '\r' => f.write_str("\\r")?,
                '\t' => f.write_str("\\t")?,
                c if unsafe_char(c) => write!(f, "\\u{{{:x}}}", u32::from(c))?,
                c => f.write_char(c)?,
            }
        }
        Ok(())
    }
}

/// `text` escaped ([`Peer`]) and cut to `max` characters of the escaped form, on one line.
pub fn one_line(text: &str, max: usize) -> String {
    let escaped = Peer(text).to_string();
    if escaped.chars().count() <= max {
        escaped
    } else {
        let mut cut: String = escaped.chars().take(max).collect();
        cut.push('…');
        cut
    }
}

/// Characters of one peer field shown on a terminal line (ids, names, tokens, reasons).
pub const FIELD_CHARS: usize = 200;

/// A peer field for a terminal line: escaped and cut to [`FIELD_CHARS`].
pub fn field(text: &str) -> String {
    one_line(text, FIELD_CHARS)
}

/// Standard output with a token bucket: `rate` lines a second on average, bursts of up to
/// `rate` lines; lines past it are counted, and the count is printed (at most once a second,
/// and before every line printed with [`Log::always`]) ahead of a line that gets through. A
/// rate of 0 prints everything.
#[derive(Debug)]
pub struct Log {
    rate: u32,
    tokens: f64,
    last: Instant,
    suppressed: u64,
    /// When the last "not shown" count was printed.
    last_note: Option<Instant>,
}

impl Log {
    /// A log allowing `rate` lines a second (0: unlimited).
    pub fn new(rate: u32) -> Self {
        Log { rate, tokens: f64::from(rate), last: Instant::now(), suppressed: 0, last_note: None }
    }

    /// One line (or a block of lines, such as a run tree), unless over the rate.
    pub fn line(&mut self, text: &str) {
        if self.rate > 0 {
            let now = Instant::now();
            let rate = f64::from(self.rate);
            self.tokens = (self.tokens + now.duration_since(self.last).as_secs_f64() * rate).min(rate);
            self.last = now;
            if self.tokens < 1.0 {
                self.suppressed += 1;
                return;
            }
            self.tokens -= 1.0;
            if self.last_note.is_none_or(|t| now.duration_since(t).as_secs() >= 1) {
                self.flush_suppressed();
            }
        }
        write_out(text);
    }

    /// A line that is always printed (the address, the armed state, the summary).
    pub fn always(&mut self, text: &str) {
        self.flush_suppressed();
        write_out(text);
    }

    fn flush_suppressed(&mut self) {
        if self.suppressed > 0 {
            self.last_note = Some(Instant::now());
            write_out(&format!("== {} line(s) not shown: over --log-rate {} lines/s", self.suppressed, self.rate));
            self.suppressed = 0;
        }
    }
}

/// A closed stdout (`| head`) must not stop the listener, so write errors are ignored.
fn write_out(text: &str) {
    let mut out = io::stdout().lock();
    let _ = writeln!(out, "{text}");
    let _ = out.flush();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn peer_text_stays_on_its_line() {
        assert_eq!(Peer("plain run-1 ünï").to_string(), "plain run-1 ünï");
        assert_eq!(Peer("a\n== done: forged\u{1b}[31m\r\t\\").to_string(), "a\\n== done: forged\\u{1b}[31m\\r\\t\\\\");
        assert_eq!(Peer("\u{7f}\u{9b}\u{2028}\u{202e}x\u{2066}").to_string(), "\\u{7f}\\u{9b}\\u{2028}\\u{202e}x\\u{2066}");
        assert_eq!(one_line("ab\ncd", 4), "ab\\n…");
    }

    #[test]
    fn the_rate_limit_drops_and_counts() {
        let mut log = Log::new(5);
        for _ in 0..20 {
            log.line("x");
        }
        assert_eq!(log.suppressed, 15);
        log.always("y");
        assert_eq!(log.suppressed, 0);
    }
}
