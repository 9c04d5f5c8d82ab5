//! The issue of a refused host argument, the one shape every binding's argument error carries.

use wirecontract::wire::Issue;

/// The issue of host argument `name` refused for `message`: its path is the argument's name,
/// so its [`Issue::summary`] (`name: message`) is the error text a binding shows.
pub fn arg_issue(name: &str, message: impl Into<String>) -> Issue {
    Issue::at(name, message)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_argument_names_the_path_and_starts_the_text() {
        let i = arg_issue("run_id", "a str holding a lone surrogate has no UTF-8 form");
        assert_eq!(i.dotted_path(), "run_id");
        assert_eq!(i.summary(), "run_id: a str holding a lone surrogate has no UTF-8 form");
    }
}
