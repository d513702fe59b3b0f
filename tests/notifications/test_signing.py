"""notifications/signing.py: what it signs verifies with the secret, and nothing else does."""

from hypothesis import given
from hypothesis import strategies as st

from notifications.signing import TOLERANCE_SECONDS, parse, sign, verify

SECRETS = st.text(alphabet="0123456789abcdef", min_size=64, max_size=64)
NOW = 1_800_000_000


@given(body=st.binary(max_size=2000), secret=SECRETS)
def test_a_signed_body_verifies(body, secret):
    assert verify(sign(body, [secret], NOW), body, secret, now=NOW)


@given(body=st.binary(min_size=1, max_size=500), secret=SECRETS, data=st.data())
def test_any_byte_changed_fails(body, secret, data):
    header = sign(body, [secret], NOW)
    index = data.draw(st.integers(0, len(body) - 1))
    flip = data.draw(st.integers(1, 255))
    changed = body[:index] + bytes([body[index] ^ flip]) + body[index + 1 :]
    assert not verify(header, changed, secret, now=NOW)


@given(body=st.binary(max_size=200), secret=SECRETS, other=SECRETS)
def test_another_secret_fails(body, secret, other):
    assert verify(sign(body, [secret], NOW), body, other, now=NOW) == (other == secret)


@given(body=st.binary(max_size=200), secret=SECRETS, late=st.integers(TOLERANCE_SECONDS + 1, 10**6))
def test_an_old_or_future_timestamp_is_refused(body, secret, late):
    header = sign(body, [secret], NOW)
    assert not verify(header, body, secret, now=NOW + late)
    assert not verify(header, body, secret, now=NOW - late)
    assert verify(header, body, secret, now=NOW + TOLERANCE_SECONDS)


def test_either_of_two_signatures_verifies_and_the_timestamp_is_signed():
    body = b'{"type":"test"}'
    header = sign(body, ["new-secret", "old-secret"], NOW)
    timestamp, signatures = parse(header)
    assert (timestamp, len(signatures)) == (NOW, 2)
    assert verify(header, body, "new-secret", now=NOW) and verify(header, body, "old-secret", now=NOW)
    assert not verify(header, body, "neither", now=NOW)
    moved = header.replace(f"t={NOW}", f"t={NOW + 1}")
    assert not verify(moved, body, "new-secret", now=NOW)
    for broken in ("", "t=abc,v1=00", f"t={NOW}", "v1=" + signatures[0]):
        assert not verify(broken, body, "new-secret", now=NOW)
