import re

from scoring.charts import running_totals, running_totals_svg


def test_running_totals_start_at_zero_and_add_up_each_hand():
    assert running_totals([[42, -14, -14, -14], [-8, 18, -5, -5]]) == [
        [0, 42, 34],
        [0, -14, 4],
        [0, -14, -19],
        [0, -14, -19],
    ]


def test_the_chart_is_plain_svg_with_a_line_and_a_legend_per_player():
    svg = running_totals_svg(["老王", "小李", "阿华", "<b>"], [[42, -14, -14, -14]], "走势")
    assert svg.startswith('<svg class="chart" viewBox=')
    assert svg.count("<polyline") == 4
    assert "老王 +42" in re.sub(r"</?tspan[^>]*>", "", svg)
    assert "&lt;b&gt; −14" in re.sub(r"</?tspan[^>]*>", "", svg)  # names are escaped
    assert "<script" not in svg
    assert " style=" not in svg


def test_the_game_page_loads_the_chart_when_it_is_unfolded(client, game):
    from tests.helpers import game_url, record

    record(client, game, {"outcome": "win", "winner": 0, "win_type": "zimo"})
    html = client.get(game_url(game)).content.decode()
    assert f'hx-get="{game_url(game)}chart" hx-trigger="toggle once"' in html
    svg = client.get(game_url(game) + "chart").content.decode()
    assert svg.startswith('<svg class="chart"')
    assert "老王 +42" in re.sub(r"</?tspan[^>]*>", "", svg)


def test_long_names_are_cut_to_their_slot_of_the_legend():
    from scoring.charts import legend_name

    assert legend_name("老王", 4) == "老王"
    assert legend_name("欧阳娜娜娜娜", 4) == "欧阳娜…"
    assert legend_name("Christopher", 4) == "Christo…"
    assert legend_name("欧阳娜娜娜娜", 2) == "欧阳娜娜娜娜"


def test_the_settle_page_charts_every_counted_hand_not_only_the_latest(client, game, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "hands": 100}  # 21 writes at test speed
    from scoring.engine import score_game
    from tests.helpers import game_url, record, version_of

    hands = [{"outcome": "win", "winner": n % 4, "win_type": "zimo"} for n in range(20)]  # more than a page lists
    for entry in hands:
        record(client, game, entry)
    client.post(
        f"{game_url(game)}hand/3/void",
        {"version": version_of(game), "reason": "记错了", "revision": "0", "confirm": "1"},
    )
    counted = hands[:2] + hands[3:]
    nets = [hand["net"] for hand in score_game({"hands": counted})["hands"]]
    expected = running_totals_svg(game.players, nets, "每人总分走势")
    html = client.get(game_url(game) + "settle").content.decode()
    assert expected in html
    assert client.get(game_url(game) + "chart").content.decode() == expected


def _polyline_points(svg: str) -> list[list[tuple[float, float]]]:
    """Every line's points as numbers: a coordinate SVG cannot read (``971/10``) fails here."""
    lines = re.findall(r'<polyline [^>]*points="([^"]*)"', svg)
    return [[tuple(float(c) for c in point.split(",")) for point in line.split()] for line in lines]


def test_half_points_draw_lines_with_plain_decimal_coordinates():
    from fractions import Fraction

    half = Fraction(1, 2)
    svg = running_totals_svg(["阿强", "阿芳", "老周", "小陈"], [[-half, -1, -half, 2], [3, -1, -1, -1]], "走势")
    lines = _polyline_points(svg)
    assert [len(line) for line in lines] == [3, 3, 3, 3]
    assert "/" not in " ".join(re.findall(r'(?:points|y1|y2|y)="([^"]*)"', svg))
    assert "+2.5" in svg  # the legend keeps the half


def test_a_zhuji_game_with_halves_charts_every_line_on_each_page(client, zhuji_game):
    from tests.helpers import game_url, record

    record(client, zhuji_game, {"outcome": "win", "winner": 3, "discarder": 1, "tai": {"no_caishen": True}})
    record(client, zhuji_game, {"outcome": "win", "winner": 0, "tai": {"shape": "pinghu"}})
    for page in ("chart", "settle"):
        svg = re.search(r'<svg class="chart".*?</svg>', client.get(game_url(zhuji_game) + page).content.decode())
        lines = _polyline_points(svg.group(0))
        assert [len(line) for line in lines] == [3, 3, 3, 3], page


def test_lines_are_told_apart_without_colour_and_the_chart_reads_as_words():
    from django.utils import translation

    with translation.override("zh-hans"):  # the words follow the request's language
        svg = running_totals_svg(["老王", "小李", "阿华", "大刘"], [[42, -14, -14, -14], [-8, 18, -5, -5]], "走势")
    lines = re.findall(r"<polyline [^>]*>", svg)
    dashes = [re.search(r'stroke-dasharray="([^"]*)"', line) for line in lines]
    dashes = [dash.group(1) if dash else "" for dash in dashes]
    assert len(set(dashes)) == 4  # a solid line and three different dash patterns
    marks = re.findall(r"<(circle|rect|polygon) ", svg)
    assert marks.count("circle") == 2  # seat 0's mark at its line's end and in the legend
    assert len(marks) == 8
    label = re.search(r'aria-label="([^"]*)"', svg).group(1)
    assert (
        label
        == "走势，2 局后：老王 +34（最高 +42，最低 0）；小李 +4（最高 +4，最低 −14）；阿华 −19（最高 0，最低 −19）；大刘 −19（最高 0，最低 −19）"
    )
