"""收款码 look-alikes: an address is matched over ASCII alone, so a code whose address swaps a letter for
one that only case-folds to it (ı or İ for i, ſ for s, K (Kelvin) for k) is refused with a clear message
and never redrawn; a backup holding one is restored without it, and the restore says so."""

import json

import pytest

from scoring import paycodes
from scoring.models import PayCode
from scoring.records.backup import backup_text, notes
from scoring.records.exports import import_game
from scoring.replay import stored_replay
from tests.helpers import game_url, messages_of
from tests.settle.test_it_paycodes import ALIPAY, WECHAT, screenshot, settled_game, upload


@pytest.fixture
def settled(db):
    return settled_game()


LOOK_ALIKES = [
    "https://qr.alıpay.com/fkx13673gkz2fi4kwuvzjb9",  # ı, dotless i
    "https://qr.alİpay.com/fkx13673gkz2fi4kwuvzjb9",  # İ, dotted capital I
    "httpſ://qr.alipay.com/fkx13673gkz2fi4kwuvzjb9",  # ſ, long s
    "https://qr.alipay.com/f\u212ax13673gkz2fi4kwuvzjb9",  # K, the Kelvin sign
    "https://qr.alipay.com/fkx13673gkz2fi4kwuvzjb9?t=1\u212a",
]


@pytest.mark.parametrize("address", LOOK_ALIKES)
def test_a_look_alike_is_no_paycode(address):
    assert paycodes.kind_of(address) is None
    assert paycodes.look_alike(address)


def test_the_real_codes_still_are():
    assert paycodes.kind_of(ALIPAY) == "alipay"
    assert paycodes.kind_of("HTTPS://QR.ALIPAY.COM/FKX074142EKXD0OIMV8B60") == "alipay"
    assert paycodes.kind_of(WECHAT) == "wechat"
    assert not paycodes.look_alike(ALIPAY)


@pytest.mark.parametrize("address", LOOK_ALIKES)
def test_an_upload_of_a_look_alike_is_refused_saying_why_and_nothing_is_kept(client, settled, address):
    response = upload(client, game_url(settled) + "paycode", screenshot(address))
    (said,) = messages_of(response)
    assert said.startswith("这个二维码的网址里有冒充英文字母的字符（例如 ı、İ、ſ、K），不是真的收款码，没有保存。")
    assert not PayCode.objects.exists()
    assert "支付宝收款码" not in client.get(game_url(settled) + "settle").content.decode()


def test_a_backup_holding_a_look_alike_is_restored_without_it_and_says_so(client, settled):
    upload(client, game_url(settled) + "paycode", screenshot(WECHAT))
    data = json.loads(backup_text(stored_replay(settled, limit=None)))
    data["backup"]["paycodes"].append(
        {"name": "小李", "kind": "alipay", "address": LOOK_ALIKES[0], "created_at": "2026-01-01T20:00:00+08:00"}
    )
    restored = import_game(data)
    assert [(c.name, c.kind) for c in restored.paycodes.all()] == [("老王", "wechat")]
    (note,) = notes(data, restored)
    assert note.startswith("备份里小李的收款码不是真的")
    response = client.post("/import", {"text": json.dumps(data)}, follow=True)
    assert any("备份里小李的收款码不是真的" in m for m in messages_of(response))
