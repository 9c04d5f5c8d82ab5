//! [`HostPath`]: where a host value sits inside the argument a conversion walks, kept as a chain
//! of borrowed segments on the stack and spelled as a dotted path only when an issue is recorded
//! (a conversion that finds nothing wrong allocates no path).

use std::fmt;

/// A position in a host value: the root (an argument name such as `payload`, or empty for the
/// argument itself), a member key under a parent, or an array index under a parent.
#[derive(Clone, Copy, Debug)]
#[must_use]
pub enum HostPath<'a> {
    /// The root: its name, possibly dotted already (`payload`), or empty.
    Root(&'a str),
    /// A member of `parent` named `key`.
    Key(&'a HostPath<'a>, &'a str),
    /// Element `index` of the array at `parent`.
    Index(&'a HostPath<'a>, usize),
}

impl<'a> HostPath<'a> {
    /// The root named `name` (empty for the argument itself).
    pub const fn root(name: &'a str) -> Self {
        HostPath::Root(name)
    }

    /// Member `key` under this position.
    pub fn key(&'a self, key: &'a str) -> HostPath<'a> {
        HostPath::Key(self, key)
    }

    /// Element `index` under this position.
    pub fn index(&'a self, index: usize) -> HostPath<'a> {
        HostPath::Index(self, index)
    }

    /// The dotted spelling: segments joined by `.`, an empty root left out (`payload.deltas.0.v`;
    /// `k` for member `k` of an empty root).
    pub fn dotted(&self) -> String {
        self.to_string()
    }

    fn write_to(&self, f: &mut fmt::Formatter<'_>) -> Result<bool, fmt::Error> {
        // Returns whether anything was written, so that a separator goes only between segments.
        match self {
            HostPath::Root(name) => {
                f.write_str(name)?;
                Ok(!name.is_empty())
            }
            HostPath::Key(parent, key) => {
                let wrote = parent.write_to(f)?;
                if wrote {
                    f.write_str(".")?;
                }
                f.write_str(key)?;
                // An empty key under an empty root writes nothing, as `"" + "."+ ""` was never
                // spelled: the next segment then starts the path.
                Ok(wrote || !key.is_empty())
            }
            HostPath::Index(parent, index) => {
                if parent.write_to(f)? {
                    f.write_str(".")?;
                }
                write!(f, "{index}")?;
                Ok(true)
            }
        }
    }
}

impl fmt::Display for HostPath<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_to(f).map(|_| ())
    }
}

#[cfg(test)]
mod tests {
    use super::HostPath;

    #[test]
    fn spelled_dotted_only_between_segments() {
        let root = HostPath::root("");
        assert_eq!(root.dotted(), "");
        assert_eq!(root.key("k").dotted(), "k");
        let payload = HostPath::root("payload");
        let deltas = payload.key("deltas");
        let first = deltas.index(0);
        assert_eq!(first.key("v").dotted(), "payload.deltas.0.v");
        assert_eq!(root.index(3).dotted(), "3");
        assert_eq!(HostPath::root("a.0").dotted(), "a.0");
        assert_eq!(root.key("").key("x").dotted(), "x");
        assert_eq!(HostPath::root("a").key("").key("x").dotted(), "a..x");
    }
}
