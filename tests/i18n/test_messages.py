"""``damier.core.messages``: the ICU subset the catalogues are written in, CLDR's plural categories and number
forms of the three languages, against naive readings written here."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from damier.core.messages import (
    LANGUAGES,
    MessageError,
    format_message,
    format_number,
    negotiate,
    parse_message,
    plural_category,
    signature,
    supported,
)


def naive_group(n: int, separator: str, minimum: int) -> str:
    digits = str(abs(n))
    if len(digits) < minimum:
        return ("-" if n < 0 else "") + digits
    out = []
    for k, d in enumerate(reversed(digits)):
        if k and k % 3 == 0:
            out.append(separator)
        out.append(d)
    return ("-" if n < 0 else "") + "".join(reversed(out))


@given(st.integers(-10**12, 10**12))
def test_whole_numbers_are_grouped_as_each_language_writes_them(n: int) -> None:
    assert format_number(n, "en") == naive_group(n, ",", 4)
    assert format_number(n, "es") == naive_group(n, ".", 5)  # CLDR: Spanish groups from five digits
    assert format_number(n, "fr") == naive_group(n, "\u202f", 4)


@given(st.integers(0, 10**7))
def test_plural_categories_follow_cldr(n: int) -> None:
    million = n != 0 and n % 1_000_000 == 0
    assert plural_category(n, "en") == ("one" if n == 1 else "other")
    assert plural_category(n, "es") == ("one" if n == 1 else "many" if million else "other")
    assert plural_category(n, "fr") == ("one" if n in (0, 1) else "many" if million else "other")


MOVES = "{n, plural, =0 {no move} one {# move} other {# moves}}"


@pytest.mark.parametrize(("n", "lang", "text"), [
    (0, "en", "no move"), (1, "en", "1 move"), (2, "en", "2 moves"), (1234, "en", "1,234 moves"),
    (1, "fr", "1 move"), (1_000_000, "fr", "1\u202f000\u202f000 moves"), (12345, "es", "12.345 moves"),
])
def test_a_plural_picks_the_exact_number_then_the_category_then_other(n: int, lang: str, text: str) -> None:
    assert format_message(MOVES, {"n": n}, lang) == text


def test_select_placeholders_quotes_and_missing_parameters() -> None:
    pattern = "{side, select, red {Rouge} other {Argent}} joue {move} ; '{'brace'}' l'adversaire, it''s {gone}"
    assert format_message(pattern, {"side": "red", "move": "e4"}, "fr") == (
        "Rouge joue e4 ; {brace} l'adversaire, it's {gone}")
    assert format_message(pattern, {"side": "blue", "move": "e4"}) .startswith("Argent joue e4")
    nested = "{n, plural, one {# robot by {who}} other {# robots by {who, select, you {you} other {{who}}}}}"
    assert format_message(nested, {"n": 3, "who": "Ana"}) == "3 robots by Ana"
    assert signature(nested) == {"n": "plural", "who": "select"}


@pytest.mark.parametrize("bad", ["{n", "{n, plural, one {x}}", "{n, number}", "a } b", "{n, plural, other x}", "{}"])
def test_a_message_that_does_not_parse_says_why(bad: str) -> None:
    with pytest.raises(MessageError):
        parse_message(bad)


@given(st.text(alphabet=st.characters(blacklist_characters="{}'#"), max_size=40))
def test_text_without_syntax_is_itself(text: str) -> None:
    assert format_message(text, {}, "fr") == text


@pytest.mark.parametrize(("header", "lang"), [
    ("es", "es"), ("fr-CA,fr;q=0.9,en;q=0.8", "fr"), ("de-DE,de;q=0.9,es;q=0.5", "es"), ("pt", "en"),
    ("", "en"), (None, "en"), ("../../etc/passwd", "en"), ("x" * 500, "en"), ("ES_mx", "es"),
    ("fr;q=0.5,es;q=0.9", "es"), ("es;q=0,fr", "fr"), ("de,en;q=0.1,fr;q=0.2", "fr"), ("es;q=zz,fr;q=0.1", "fr"),
])
def test_an_unknown_or_malformed_language_is_english(header: str | None, lang: str) -> None:
    assert negotiate(header) == lang
    assert supported(lang) == lang and lang in LANGUAGES


def test_floats_are_written_in_plain_decimals_as_the_browser_writes_them() -> None:
    assert format_number(1e21, "en") == "1,000,000,000,000,000,000,000"
    assert format_number(2.5e-05, "fr") == "0,000025" and format_number(-0.5, "es") == "-0,5"
    assert format_number(float("nan")) == "NaN" and format_number(float("-inf")) == "-Infinity"
