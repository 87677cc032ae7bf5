//! The Common Log Format family, as Apache and nginx write it:
//!
//! - `common`: `host ident user [time] "request" status bytes`;
//! - `combined`: the same, then `"referer" "user-agent"`.
//!
//! Fields may follow (many configurations append some); when the last of them is an epoch time
//! within one second of `[time]`, it gives the sub-second time: nginx's `$msec` (seconds, to the
//! millisecond) or Apache's `%{msec}t` or `%{usec}t` (whole milliseconds or microseconds, told
//! by their size as every epoch time is).

use super::fields::{quoted, Fields};
use super::timestamp::{epoch, epoch_seconds, CommonLogCache};
use super::unreadable::Unreadable;

/// What one line says: who asked, and when.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Request<'a> {
    /// `%h` / `$remote_addr`: an IPv4 or IPv6 address, or a host name.
    pub host: &'a str,
    /// Epoch seconds: `$msec` (or `%{msec}t`…) when the line ends with it, else `[time]` (whole
    /// seconds).
    pub time: f64,
}

/// Reads one line; `combined` asks for the referer and user-agent fields too.
pub fn parse<'a>(
    line: &'a str,
    combined: bool,
    cache: &mut CommonLogCache,
) -> Result<Request<'a>, Unreadable> {
    let mut fields = Fields::new(line);
    let host = client(&mut fields).ok_or(Unreadable::NoClient)?;
    fields.bare().ok_or(Unreadable::NoIdent)?;
    fields.bare().ok_or(Unreadable::NoUser)?;
    let stamp = fields
        .enclosed(b'[', b']')
        .map_err(|error| Unreadable::Field {
            part: "time",
            error,
        })?;
    let time = cache.parse(stamp)?;
    fields
        .enclosed(b'"', b'"')
        .map_err(|error| Unreadable::Field {
            part: "request",
            error,
        })?;
    let status = fields.bare().unwrap_or("");
    if status.len() != 3 || !status.bytes().all(|b| b.is_ascii_digit()) {
        return Err(Unreadable::BadStatus {
            status: quoted(status),
        });
    }
    let bytes = fields.bare().unwrap_or("");
    if bytes.is_empty() || (bytes != "-" && !bytes.bytes().all(|b| b.is_ascii_digit())) {
        return Err(Unreadable::BadSize {
            size: quoted(bytes),
        });
    }
    if combined {
        fields
            .enclosed(b'"', b'"')
            .map_err(|error| Unreadable::Field {
                part: "referer",
                error,
            })?;
        fields
            .enclosed(b'"', b'"')
            .map_err(|error| Unreadable::Field {
                part: "user-agent",
                error,
            })?;
    }
    Ok(Request {
        host,
        time: msec(fields.rest(), time).unwrap_or(time),
    })
}

/// The first field: `%h` / `$remote_addr`, or behind a proxy `$http_x_forwarded_for`, a list of
/// addresses (`203.0.113.9, 10.0.0.1`) whose first is the client's, as it says (each proxy adds
/// the address it heard from at the end; the first can be forged by the client, as any address
/// in a header). `None` when the line starts with no address.
fn client<'a>(fields: &mut Fields<'a>) -> Option<&'a str> {
    let first = fields.bare()?;
    // The list's other entries, each after ", ": one field per address.
    let mut last = first;
    while last.ends_with(',') {
        last = fields.bare()?;
    }
    Some(first.split(',').next().unwrap_or(first)).filter(|h| !h.is_empty())
}

/// The epoch time at the end of the extra fields (nginx's `$msec`, Apache's `%{msec}t` or
/// `%{usec}t`), in seconds, if it agrees with `[time]`.
fn msec(extra: &str, whole_seconds: f64) -> Option<f64> {
    let last = extra.rsplit(' ').next()?;
    epoch(last)
        .map(epoch_seconds)
        .filter(|t| (t - whole_seconds).abs() <= 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_x_forwarded_for_list_is_read_as_its_first_address() {
        let line = |client: &str| {
            format!("{client} - - [10/Oct/2000:13:55:36 -0700] \"GET / HTTP/1.1\" 200 512")
        };
        let host = |client: &str| {
            parse(&line(client), false, &mut CommonLogCache::default()).map(|r| r.host.to_owned())
        };
        assert_eq!(host("203.0.113.9"), Ok(String::from("203.0.113.9")));
        assert_eq!(
            host("203.0.113.9, 10.0.0.1"),
            Ok(String::from("203.0.113.9"))
        );
        assert_eq!(
            host("2001:db8::1, 10.0.0.1, 10.0.0.2"),
            Ok(String::from("2001:db8::1"))
        );
        assert_eq!(
            host("203.0.113.9,10.0.0.1"),
            Ok(String::from("203.0.113.9"))
        );
        // No address before the comma, or a list that never ends: refused as before.
        assert_eq!(host(", 10.0.0.1"), Err(Unreadable::NoClient));
        assert_eq!(
            parse("203.0.113.9,", false, &mut CommonLogCache::default()),
            Err(Unreadable::NoClient)
        );
    }

    #[test]
    fn a_trailing_number_is_msec_only_when_it_matches_the_time() {
        let at = 971_211_336.0;
        assert_eq!(msec("971211336.250", at), Some(971_211_336.25));
        assert_eq!(msec("\"x\" 971211336.999", at), Some(971_211_336.999));
        assert_eq!(msec("0.004", at), None, "a request time, not $msec");
        // Apache's %{msec}t and %{usec}t: whole milliseconds and microseconds since 1970.
        assert_eq!(msec("971211336250", at), Some(971_211_336.25));
        assert_eq!(msec("\"x\" 971211336999999", at), Some(971_211_336.999999));
        assert_eq!(
            msec("971211338250", at),
            None,
            "two seconds off: not this line's time"
        );
        assert_eq!(msec("4500", at), None, "%D, microseconds taken: not a time");
        assert_eq!(msec("", at), None);
    }
}
