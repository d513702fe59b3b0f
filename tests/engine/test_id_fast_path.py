"""The parser's fast path checks ids without building a message (blackjack.document._name); it must
take exactly the ids that id_problem, the one definition of an id, takes."""

from hypothesis import given
from hypothesis import strategies as st

from blackjack.document import MAX_ID_LENGTH, _name, id_problem

id_like = st.text(alphabet=st.sampled_from("Aa9._:-_ /\x00٥é"), max_size=MAX_ID_LENGTH + 2)


@given(st.one_of(id_like, st.text(), st.integers(), st.none()))
def test_the_fast_path_takes_what_id_problem_takes(value):
    assert _name(value) == (id_problem(value) is None)


def test_the_edges_of_an_id():
    for value in ("A", "a-9", "P.1", "...x", "x" * MAX_ID_LENGTH):
        assert _name(value) and id_problem(value) is None
    for value in ("", ".", "...", " ", "x" * (MAX_ID_LENGTH + 1), "P 1", "P/1", "٥", "é", "a\x00"):
        assert not _name(value) and id_problem(value) is not None
