//! The directive parser: what a chapter may write, and the message for each mistake.
use mdbook_bucketlab::directive::{expand, DirectiveError};

fn one(text: &str) -> String {
    let out = expand(text).unwrap_or_else(|e| panic!("{text:?} was refused: {e:?}"));
    assert_eq!(out.elements, 1, "in {text:?}");
    out.text
}

fn refused(text: &str) -> DirectiveError {
    expand(text).expect_err(text)
}

#[test]
fn writes_the_element_with_the_attributes_in_the_order_given() {
    assert_eq!(
        one("{{#bucket-lab capacity=10 refill-rate=2 lang=en}}"),
        "<bucket-lab capacity=\"10\" refill-rate=\"2\" lang=\"en\">\n</bucket-lab>"
    );
    assert_eq!(
        one(
            r#"{{#bucket-lab lang=pt-BR cost=2 tokens=0 capacity=2,5 controls="send time" view=diagram paused}}"#
        ),
        concat!(
            r#"<bucket-lab lang="pt-BR" cost="2" tokens="0" capacity="2,5" controls="send time" view="diagram" paused>"#,
            "\n</bucket-lab>"
        )
    );
    assert_eq!(one("{{#bucket-lab}}"), "<bucket-lab>\n</bucket-lab>");
    // `paused=true`, as the element, embed.html and Hugo take it, is written bare.
    for paused in ["paused=true", "paused=\"true\""] {
        assert_eq!(
            one(&format!("{{{{#bucket-lab {paused} lang=en}}}}")),
            "<bucket-lab paused lang=\"en\">\n</bucket-lab>"
        );
    }
    // `paused=false` lets time run, as the element takes it: left out, as Hugo leaves it.
    for running in ["paused=false", "paused='false'"] {
        assert_eq!(
            one(&format!("{{{{#bucket-lab {running} lang=en}}}}")),
            "<bucket-lab lang=\"en\">\n</bucket-lab>"
        );
    }
}

#[test]
fn keeps_the_text_around_and_expands_every_directive() {
    let text = "# Title\n\nBefore {{#bucket-lab capacity=3}} after.\n\n{{#bucket-lab\n  capacity=4\n  paused\n}}\nEnd\n";
    let out = expand(text).unwrap();
    assert_eq!(out.elements, 2);
    assert_eq!(
        out.text,
        "# Title\n\nBefore <bucket-lab capacity=\"3\"></bucket-lab> after.\n\n<bucket-lab capacity=\"4\" paused>\n</bucket-lab>\nEnd\n"
    );
}

#[test]
fn an_escaped_directive_stays_as_text_without_its_backslash() {
    let out = expand("Write \\{{#bucket-lab capacity=-1}} in a chapter.").unwrap();
    assert_eq!(out.elements, 0);
    assert_eq!(out.text, "Write {{#bucket-lab capacity=-1}} in a chapter.");
}

#[test]
fn a_directive_in_inline_code_or_a_code_block_is_shown_as_written() {
    let text = "Write `{{#bucket-lab capacity=2}}` or ``\\{{#bucket-lab}}``:\n\n\
                ```text\n{{#bucket-lab capacity=-1}}\n```\n\n    {{#bucket-lab view=none}}\n\n\
                {{#bucket-lab capacity=3}}\n";
    let out = expand(text).unwrap_or_else(|e| panic!("code is not checked: {e:?}"));
    assert_eq!(
        out.elements, 1,
        "only the directive outside code: {:?}",
        out.text
    );
    assert_eq!(
        out.text,
        text.replace(
            "{{#bucket-lab capacity=3}}",
            "<bucket-lab capacity=\"3\">\n</bucket-lab>"
        )
    );
}

#[test]
fn text_without_directives_is_unchanged() {
    let text = "{{#include other.md}} and {{#bucket}} and {{#bucket-list}} and {bucket-lab}";
    assert_eq!(
        expand(text).unwrap(),
        mdbook_bucketlab::directive::Expanded {
            text: text.into(),
            elements: 0
        }
    );
}

#[test]
fn bad_numbers_are_refused_with_the_elements_own_message_and_the_line() {
    let cases = [
        (
            "{{#bucket-lab capacity=-1}}",
            "capacity must be a finite number greater than 0, got -1",
        ),
        (
            "{{#bucket-lab capacity=0}}",
            "capacity must be a finite number greater than 0, got 0",
        ),
        (
            "{{#bucket-lab capacity=lots}}",
            "capacity must be a finite number greater than 0, got \"lots\"",
        ),
        (
            "{{#bucket-lab capacity=}}",
            "capacity must be a finite number greater than 0, got \"\"",
        ),
        (
            "{{#bucket-lab capacity=inf}}",
            "capacity must be a finite number greater than 0, got \"inf\"",
        ),
        (
            "{{#bucket-lab refill-rate=-0.5}}",
            "refill-rate must be a finite number of at least 0, got -0.5",
        ),
        (
            "{{#bucket-lab refill-rate=fast}}",
            "refill-rate must be a finite number of at least 0, got \"fast\"",
        ),
        (
            "{{#bucket-lab capacity=10 tokens=11}}",
            "tokens must be a finite number from 0 to 10, got 11",
        ),
        (
            "{{#bucket-lab tokens=6}}",
            "tokens must be a finite number from 0 to 5, got 6",
        ),
        (
            "{{#bucket-lab capacity=4 cost=5}}",
            "cost must be a whole number from 1 to 4, got 5",
        ),
        (
            "{{#bucket-lab cost=1.5}}",
            "cost must be a whole number from 1 to 5, got 1.5",
        ),
        (
            "{{#bucket-lab capacity=2.9 cost=3}}",
            "cost must be a whole number from 1 to 2, got 3",
        ),
    ];
    for (directive, message) in cases {
        let text = format!("# A chapter\n\nSome text.\n{directive}\n");
        assert_eq!(
            refused(&text),
            DirectiveError {
                line: 4,
                message: message.into()
            },
            "{directive}"
        );
    }
}

#[test]
fn bad_words_are_refused_naming_what_is_allowed() {
    let cases = [
        ("{{#bucket-lab lang=fr}}", "lang must be \"pt-BR\", \"en\" or another tag of those languages (en-GB, pt-PT), got \"fr\""),
        ("{{#bucket-lab lang=english}}", "lang must be \"pt-BR\", \"en\" or another tag of those languages (en-GB, pt-PT), got \"english\""),
        ("{{#bucket-lab lang='en-<b>'}}", "lang must be \"pt-BR\", \"en\" or another tag of those languages (en-GB, pt-PT), got \"en-<b>\""),
        ("{{#bucket-lab capacity='3}}", "the value of capacity opens a quote (') and never closes it"),
        ("{{#bucket-lab view=chart}}", "view must be \"diagram\", got \"chart\""),
        ("{{#bucket-lab controls=\"send jump\"}}", "controls must be \"all\", \"none\" or names from send, cost, burst, bucket, traffic, time separated by spaces or commas, got \"send jump\" (unknown control \"jump\")"),
        ("{{#bucket-lab controls=\"\"}}", "controls must be \"all\", \"none\" or names from send, cost, burst, bucket, traffic, time separated by spaces or commas, got \"\" (no control named)"),
        ("{{#bucket-lab colour=red}}", "unknown parameter \"colour\"; known: capacity, refill-rate, cost, tokens, lang, view, controls, paused, theme"),
        ("{{#bucket-lab capacity=1 capacity=2}}", "parameter \"capacity\" is given twice"),
        ("{{#bucket-lab theme=sepia}}", "theme must be \"light\", \"dark\", \"auto\" or absent (the page's colour scheme), got \"sepia\""),
        ("{{#bucket-lab paused=yes}}", "paused is present (just \"paused\", or paused=true), paused=false or absent, got \"paused=yes\""),
        ("{{#bucket-lab paused=false paused}}", "parameter \"paused\" is given twice"),
        ("{{#bucket-lab paused=0}}", "paused is present (just \"paused\", or paused=true), paused=false or absent, got \"paused=0\""),
        ("{{#bucket-lab capacity}}", "capacity needs a value: capacity=…"),
        ("{{#bucket-lab =5}}", "a value without a name: \"=5\""),
        ("{{#bucket-lab controls=\"send}}", "the value of controls opens a quote (\") and never closes it"),
        ("{{#bucket-labs capacity=1}}", "\"{{#bucket-lab\" must be followed by a space or \"}}\", got \"{{#bucket-labs\""),
    ];
    for (directive, message) in cases {
        assert_eq!(
            refused(directive),
            DirectiveError {
                line: 1,
                message: message.into()
            },
            "{directive}"
        );
    }
}

#[test]
fn controls_accept_all_none_and_groups_in_any_case_with_commas() {
    for list in [
        "all",
        "none",
        "send",
        "Send, TIME",
        "ALL",
        "None",
        "send cost burst bucket traffic time",
    ] {
        one(&format!("{{{{#bucket-lab controls=\"{list}\"}}}}"));
    }
}

#[test]
fn lang_takes_any_tag_of_english_or_portuguese_as_the_element_does() {
    for tag in ["en", "pt-BR", "en-GB", "pt-PT", "EN", "pt"] {
        one(&format!("{{{{#bucket-lab lang={tag}}}}}"));
    }
}

#[test]
fn values_may_be_in_single_quotes_as_in_html() {
    let out = expand("{{#bucket-lab capacity='3' controls='send time' lang=\"en\"}}").unwrap();
    assert_eq!(
        out.text,
        "<bucket-lab capacity=\"3\" controls=\"send time\" lang=\"en\">\n</bucket-lab>"
    );
}

#[test]
fn an_unclosed_directive_names_its_line() {
    assert_eq!(
        refused("one\ntwo\n{{#bucket-lab capacity=3\n\nmore text"),
        DirectiveError {
            line: 3,
            message: "{{#bucket-lab is not closed: no \"}}\" after it".into()
        }
    );
}

#[test]
fn a_directive_over_several_lines_names_the_line_of_the_bad_parameter() {
    let text = "# Title\n\n{{#bucket-lab\n  capacity=4\n  lang=en refill-rate=fast\n  paused}}\n";
    assert_eq!(
        refused(text),
        DirectiveError {
            line: 5,
            message: "refill-rate must be a finite number of at least 0, got \"fast\"".into()
        }
    );
    assert_eq!(refused("{{#bucket-lab\n\n colour=red}}").line, 3);
    assert_eq!(refused("{{#bucket-lab capacity=1\ncapacity=2}}").line, 2);
    assert_eq!(refused("{{#bucket-lab\ncontrols=\"send\ntime}}").line, 2);
}

#[test]
fn the_first_bad_directive_of_several_is_reported() {
    let error = refused("{{#bucket-lab}}\n\n{{#bucket-lab lang=de}}\n{{#bucket-lab lang=fr}}");
    assert_eq!(error.line, 3);
}

#[test]
fn in_a_list_item_or_a_quote_the_closing_tag_stays_inside_with_the_opening_one() {
    for (text, expected) in [
        (
            "- item\n\n  {{#bucket-lab lang=en}}\n",
            "- item\n\n  <bucket-lab lang=\"en\">\n  </bucket-lab>\n",
        ),
        (
            "1. {{#bucket-lab lang=en}}\n",
            "1. <bucket-lab lang=\"en\">\n   </bucket-lab>\n",
        ),
        (
            "> {{#bucket-lab lang=en}}\n",
            "> <bucket-lab lang=\"en\">\n> </bucket-lab>\n",
        ),
        (
            "> - {{#bucket-lab lang=en}}\n",
            "> - <bucket-lab lang=\"en\">\n>   </bucket-lab>\n",
        ),
        // After other text on its line, inside a paragraph: it stays on its line.
        (
            "Try {{#bucket-lab lang=en}}\n",
            "Try <bucket-lab lang=\"en\"></bucket-lab>\n",
        ),
    ] {
        assert_eq!(expand(text).unwrap().text, expected, "{text:?}");
    }
}

#[test]
fn in_a_table_row_the_element_stays_on_the_row() {
    // A line break inside a cell would end the row (mdBook warns of an unclosed tag).
    let text = "| small | big |\n|---|---|\n| {{#bucket-lab capacity=3}} | {{#bucket-lab capacity=10}} |\n";
    let out = expand(text).unwrap();
    assert_eq!(out.elements, 2);
    assert_eq!(
        out.text,
        "| small | big |\n|---|---|\n| <bucket-lab capacity=\"3\"></bucket-lab> | <bucket-lab capacity=\"10\"></bucket-lab> |\n"
    );
}

#[test]
fn spaces_after_the_braces_are_a_directive_as_in_mdbooks_own_and_a_near_spelling_is_refused() {
    // mdBook reads `{{ #include …}}` as its own: the same spaces make a diagram.
    let out = expand("{{ #bucket-lab capacity=3 }}\n").unwrap();
    assert_eq!(out.text, "<bucket-lab capacity=\"3\">\n</bucket-lab>\n");
    // A name close to it would be published as text, where readers would see it.
    for (text, written) in [
        ("{{#bucketlab capacity=3}}", "{{#bucketlab"),
        ("\n\n{{ #Bucket_Lab}}", "{{ #Bucket_Lab"),
        ("{{#bucket_lab}}", "{{#bucket_lab"),
    ] {
        let err = expand(text).unwrap_err();
        assert_eq!(
            err.message,
            format!("\"{written}\" is not a directive: write \"{{{{#bucket-lab\" (or \\{written} to show it as text)"),
            "{text}"
        );
        assert_eq!(err.line, text.matches('\n').count() + 1, "{text}");
    }
    // Shown as code, or escaped, it stays text.
    let out = expand("`{{#bucketlab}}` and \\{{#bucketlab}}").unwrap();
    assert_eq!(out.text, "`{{#bucketlab}}` and {{#bucketlab}}");
    // Run together with a parameter, it is named as before.
    let err = expand("{{#bucket-labcapacity=3}}").unwrap_err();
    assert!(
        err.message.contains("must be followed by a space"),
        "{}",
        err.message
    );
}
