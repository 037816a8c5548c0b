"""规则全文: each ruleset's document (docs/rules/*.md) as a page of the app."""

import re

import pytest

from scoring.engine import all_rulesets
from tests.helpers import game_url


@pytest.mark.parametrize("ruleset", all_rulesets(), ids=lambda r: r.code)
def test_each_document_renders_with_its_section_headings(client, ruleset):
    last = len(re.findall(r"^## §\d+ ", ruleset.rules_document.read_text(encoding="utf-8"), re.MULTILINE))
    assert last >= 5  # a rules document in sections: the table, the dealer, … (docs/rules/)
    response = client.get(f"/rules/{ruleset.code}")
    assert response.status_code == 200
    html = response.content.decode()
    headings = re.findall(r"<h2[^>]*>§(\d+) ", html)
    assert [int(n) for n in headings] == list(range(1, last + 1))
    assert '<table class="table' in html
    assert "style=" not in html  # the CSP forbids inline style
    assert "<script>" not in html
    assert "shared/" not in html  # nothing outside the repository
    assert "Content-Security-Policy" in response.headers


@pytest.mark.parametrize("ruleset", all_rulesets(), ids=lambda r: r.code)
def test_links_between_documents_lead_to_their_pages(client, ruleset):
    text = ruleset.rules_document.read_text(encoding="utf-8")
    html = client.get(f"/rules/{ruleset.code}").content.decode()
    for other in all_rulesets():
        if f"]({other.code}.md" in text:
            assert f'href="/rules/{other.code}"' in html
    assert '.md"' not in html  # no link left to a file the phone cannot open
    assert ".md" not in re.findall(r'href="([^"]*)"', html)


@pytest.mark.parametrize("code", ["nope", "YIWU", "base", "..%2Fshared"])
def test_an_unknown_ruleset_is_404(client, code):
    assert client.get(f"/rules/{code}").status_code == 404


def test_the_games_rules_page_links_to_its_rulesets_document(client, game):
    html = client.get(game_url(game) + "rules").content.decode()
    assert 'href="/rules/yiwu"' in html
    assert "完整规则" in html


def test_the_home_page_links_to_every_rulesets_document(client, db):
    html = client.get("/").content.decode()
    for ruleset in all_rulesets():
        assert f'href="/rules/{ruleset.code}">{ruleset.zh}</a>' in html
