"""Each tap of the record flow is a link carrying the answers so far (``step_url``): whatever the
answers, a link holds each of them once, never a one-time field, and the tap's own answers."""

from urllib.parse import parse_qsl, urlencode

from django.http import QueryDict
from django.template import Context, Template
from hypothesis import given
from hypothesis import strategies as st

FIELDS = ["outcome", "winner", "win_type", "discarder", "maizi", "piao_player", "form_token", "next_seq", "名"]
VALUES = st.one_of(st.sampled_from(["", "0", "1", "zimo", "平胡"]), st.text(max_size=6))
ANSWERS = st.lists(st.tuples(st.sampled_from(FIELDS), VALUES), max_size=8)
TAPS = st.dictionaries(st.sampled_from(FIELDS[:6]), st.one_of(st.just(""), VALUES), max_size=3)


def expected(answers: list[tuple[str, str]], tap: dict) -> str:
    """Each answered field once, in the order first answered, with all its values in order."""
    fields = list(dict.fromkeys(k for k, _ in answers))
    grouped = [(k, v) for field in fields for k, v in answers if k == field]
    kept = [(k, v) for k, v in grouped if k not in tap and k not in ("form_token", "next_seq") and v != ""]
    query = urlencode(kept + [(k, v) for k, v in tap.items() if v != ""])
    return f"/g/t/record?{query}" if query else "/g/t/record"


@given(answers=ANSWERS, taps=st.lists(TAPS, min_size=1, max_size=4))
def test_every_link_on_a_step_carries_the_answers_and_its_tap(answers, taps):
    """Several links in one render, as on a step screen, and a second set of answers among them."""
    data = QueryDict(urlencode(answers), mutable=True)
    other = QueryDict("winner=3&outcome=win")
    source = "{% load table %}" + "".join(
        f"{{% step_url url {name} {' '.join(f'{k}=t{i}.{k}' for k in tap)} %}}|"
        for i, tap in enumerate(taps)
        for name in ("data", "other")
    )
    context = {"url": "/g/t/record", "data": data, "other": other, **{f"t{i}": tap for i, tap in enumerate(taps)}}
    links = Template(source).render(Context(context)).split("|")[:-1]
    want = [expected(a, tap) for tap in taps for a in (answers, list(other.items()))]
    assert [link.replace("&amp;", "&") for link in links] == want


def test_a_link_keeps_every_value_of_a_repeated_answer_in_order():
    html = Template("{% load table %}{% step_url '/r' data winner=2 %}").render(
        Context({"data": QueryDict("maizi=1&maizi=3&winner=0")})
    )
    assert parse_qsl(html.split("?")[1].replace("&amp;", "&")) == [("maizi", "1"), ("maizi", "3"), ("winner", "2")]
