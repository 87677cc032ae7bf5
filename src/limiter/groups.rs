//! Which groups of the diagram's controls a host shows: the `controls` setting of the element,
//! the iframe, mdBook and Hugo, read by one rule.

/// The groups of controls a host can show, in the order they appear.
pub const CONTROL_GROUPS: [&str; 6] = ["send", "cost", "burst", "bucket", "traffic", "time"];

/// The same names as [`CONTROL_GROUPS`], as one list for messages (a test keeps the two equal;
/// joining at run time would cost code in the wasm).
pub const GROUP_NAMES: &str = "send, cost, burst, bucket, traffic, time";

/// Parses a `controls` list: `all`, `none`, or group names separated by spaces or commas, each
/// in any case; the error says why the list is refused (`unknown control "sned"`).
pub fn parse_groups(list: &str) -> Result<Vec<&'static str>, String> {
    let names: Vec<&str> = list
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|n| !n.is_empty())
        .collect();
    match names.as_slice() {
        [one] if one.eq_ignore_ascii_case("all") => return Ok(CONTROL_GROUPS.to_vec()),
        [one] if one.eq_ignore_ascii_case("none") => return Ok(Vec::new()),
        _ => {}
    }
    let mut shown = Vec::new();
    for name in &names {
        match CONTROL_GROUPS.iter().find(|g| g.eq_ignore_ascii_case(name)) {
            Some(group) => shown.push(*group),
            None => {
                let mut why = String::from("unknown control \"");
                why.push_str(name);
                why.push('"');
                return Err(why);
            }
        }
    }
    if names.is_empty() {
        return Err("no control named".to_owned());
    }
    Ok(shown)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_lists_name_groups_or_all_or_none() {
        assert_eq!(parse_groups("all").unwrap(), CONTROL_GROUPS.to_vec());
        assert_eq!(parse_groups(" none ").unwrap(), Vec::<&str>::new());
        assert_eq!(
            parse_groups("ALL").unwrap(),
            CONTROL_GROUPS.to_vec(),
            "in any case, as the names"
        );
        assert_eq!(parse_groups("None").unwrap(), Vec::<&str>::new());
        assert_eq!(parse_groups("send, Time").unwrap(), vec!["send", "time"]);
        assert_eq!(
            parse_groups("send sned").unwrap_err(),
            "unknown control \"sned\""
        );
        assert!(parse_groups("  ").is_err());
    }

    #[test]
    fn the_message_lists_every_group() {
        assert_eq!(GROUP_NAMES, CONTROL_GROUPS.join(", "));
    }
}
