//! Hand-written files with holes: a template under `scripts/gen/templates/` is committed as
//! the text it generates (a `.pyi`, a `.kt`), and only the parts that come from the contract
//! are holes, `{{name}}`, filled by [`fill`]. A hole without a value, a value without a hole
//! and an unclosed `{{` are generator bugs and stop generation with the template's name.

/// `template` with every `{{name}}` replaced by its value in `holes`.
///
/// # Panics
/// When a hole has no value, a value is used by no hole, a name is given twice, or a `{{`
/// is not closed: the template and the generator disagree, and writing anything would hide it.
pub fn fill(what: &str, template: &str, holes: &[(&str, String)]) -> String {
    let mut used = vec![false; holes.len()];
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let Some(end) = after.find("}}") else { panic!("{what}: an unclosed `{{{{` in the template") };
        let name = &after[..end];
        let mut found = holes.iter().enumerate().filter(|(_, (n, _))| *n == name);
        let Some((i, (_, value))) = found.next() else { panic!("{what}: the template's hole `{name}` has no value") };
        assert!(found.next().is_none(), "{what}: the hole `{name}` is given twice");
        used[i] = true;
        out.push_str(value);
        rest = &after[end + 2..];
    }
    out.push_str(rest);
    let unused: Vec<&str> = holes.iter().zip(&used).filter(|(_, u)| !**u).map(|((n, _), _)| *n).collect();
    assert!(unused.is_empty(), "{what}: no hole in the template for {unused:?}");
    out
}

#[cfg(test)]
mod tests {
    use super::fill;

    #[test]
    fn fills_every_hole_and_keeps_the_rest() {
        let out = fill("t", "a {{x}} b {{y}} {{x}} {single} }}", &[("x", "1".into()), ("y", "{{x}}".into())]);
        // A value is inserted as is (not filled again); lone braces and `}}` stay.
        assert_eq!(out, "a 1 b {{x}} 1 {single} }}");
    }

    #[test]
    #[should_panic(expected = "hole `y` has no value")]
    fn a_hole_without_a_value_stops() {
        fill("t", "{{x}} {{y}}", &[("x", String::new())]);
    }

    #[test]
    #[should_panic(expected = "no hole in the template for [\"z\"]")]
    fn a_value_without_a_hole_stops() {
        fill("t", "{{x}}", &[("x", String::new()), ("z", String::new())]);
    }

    #[test]
    #[should_panic(expected = "given twice")]
    fn a_name_given_twice_stops() {
        fill("t", "{{x}}", &[("x", String::new()), ("x", String::new())]);
    }

    #[test]
    #[should_panic(expected = "unclosed")]
    fn an_unclosed_hole_stops() {
        fill("t", "a {{x", &[("x", String::new())]);
    }
}
