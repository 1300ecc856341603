"""Tables of results: HTML in a notebook (escaped, no script), aligned text in a terminal."""
from ncpu_nb.html import Table


def test_a_table_shows_as_html_and_as_aligned_text():
    table = Table("Results", ["task", "seconds"], [["add <b>", 1.5], ["popcount", 12.25]], numeric=(1,),
                  notes=["median 6.9 s"])
    page = table._repr_html_()
    assert "add &lt;b&gt;" in page and "<script" not in page and "median 6.9 s" in page and "class='num'" in page
    assert str(table).splitlines() == ["Results", "task      seconds", "add <b>       1.5", "popcount    12.25", "",
                                       "median 6.9 s"]
