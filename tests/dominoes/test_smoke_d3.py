from tests.helpers import domino_state, play


def test_d3_fosters_sequence() -> None:
    st = domino_state("muggins", hands=[["5-5", "0-0", "0-4", "1-1"], ["5-0", "5-6", "2-2", "3-3"]])
    assert play(st, "5-5", "5-0 on 5-5", "0-0 on 5-0", "5-6 on 5-5", "0-4 on 0-0") == [10, 10, 10, 0, 10]
    assert st.side_scores() == [30, 10]
