"""The agreed length (打几圈) does not pass silently: once its 圈 are played, every phone shows at the
top of the game page 「1 圈打完了：换位、结算，还是接着打？」 until someone answers. 换位 and 结算 go
to their pages; 接着打 agrees one more 圈 (「共 2 圈」), so the question goes on every phone and comes
back when that round is played. Asked twice (two phones), it adds one round, not two."""

from django.conf import settings
from django.test import Client

from scoring.models import Game
from tests.helpers import game_url, messages_of
from tests.table.test_it_seating_page import seat, text, win


def question(client, game) -> str:
    html = client.get(game_url(game)).content.decode()
    start = html.find('class="col-12 round-question')
    return "" if start < 0 else html[start : html.index("</section>", start)]


def one_round(client, game) -> None:
    for winner in (1, 2, 3, 0):  # the deal goes round the four seats and back to 东
        win(game, winner)


def test_the_end_of_the_agreed_length_stays_asked_until_answered(client, game):
    Game.objects.filter(pk=game.pk).update(round_length=1)
    assert question(client, game) == ""
    one_round(client, game)
    asked = question(client, game)
    assert "1 圈打完了：换位、结算，还是接着打？" in asked
    assert f'href="{game_url(game)}seating"' in asked
    assert f'href="{game_url(game)}settle"' in asked
    assert f'action="{game_url(game)}play-on"' in asked
    html = client.get(game_url(game)).content.decode()
    assert html.index("round-question") < html.index('class="tile')  # at the top, above the totals
    win(game, 1)  # another hand played without answering: still asked
    assert "1 圈打完了" in question(client, game)
    seat(client, game, "小李", "老王", "阿华", "大刘")  # 换位 alone does not answer it
    assert "1 圈打完了" in question(client, game)
    other = Client()  # the view link: told, with nothing to tap
    view = other.get(game_url(game, view=True)).content.decode()
    assert "1 圈打完了" in view
    assert "play-on" not in view

    response = client.post(game_url(game) + "play-on", follow=True)
    assert "接着打：共 2 圈。" in messages_of(response)
    game.refresh_from_db()
    assert game.round_length == 2
    assert question(client, game) == ""
    assert "共 2 圈" in text(client.get(game_url(game)))
    assert "1 圈打完了" not in other.get(game_url(game, view=True)).content.decode()  # gone on every phone


def test_a_second_phone_answering_too_adds_no_second_round(client, game):
    Game.objects.filter(pk=game.pk).update(round_length=1)
    one_round(client, game)
    version = Game.objects.get(pk=game.pk).version
    client.post(game_url(game) + "play-on")
    client.post(game_url(game) + "play-on")  # the other phone, a moment later
    game.refresh_from_db()
    assert game.round_length == 2
    assert game.version == version + 1
    one_round(client, game)  # the extra round played: asked again
    assert "2 圈打完了" in question(client, game)


def test_a_game_with_no_set_length_is_never_asked_and_play_on_changes_nothing(client, game):
    one_round(client, game)
    assert question(client, game) == ""
    client.post(game_url(game) + "play-on")
    game.refresh_from_db()
    assert game.round_length is None


def test_a_view_link_cannot_answer_and_english_reads_it(client, game):
    Game.objects.filter(pk=game.pk).update(round_length=1)
    one_round(client, game)
    assert client.post(game_url(game, view=True) + "play-on").status_code == 403
    assert Game.objects.get(pk=game.pk).round_length == 1
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    asked = question(client, game)
    assert "1 round played" in asked
    assert "Play on" in asked


def test_the_question_shows_on_the_poll_too(client, game):
    Game.objects.filter(pk=game.pk).update(round_length=1)
    version = Game.objects.get(pk=game.pk).version
    one_round(client, game)
    polled = client.get(game_url(game) + f"poll?v={version}").content.decode()
    assert "round-question" in polled
