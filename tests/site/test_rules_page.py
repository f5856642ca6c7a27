"""The rules page explains every order with a picture the site draws itself, the ranks of the
edition, and a scoring worked out by the engine."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape
from test_headers import inline_code

from games.engine.basilica.components import EDITIONS, ORDER_NAMES, ORDERS, PAID_ORDERS, RANK_NAMES
from games.kinds.basilica import diagrams

pytestmark = pytest.mark.django_db


def rules(edition: str) -> str:
    response = Client().get(reverse("rules-edition", args=[edition]))
    assert response.status_code == 200
    return response.text


def section(page: str, order: str) -> str:
    return page.split(f'id="order-{order}"')[1].split("</section>")[0]


@pytest.mark.parametrize("edition", list(EDITIONS))
def test_every_order_has_its_effect_cost_and_picture(edition):
    page = rules(edition)
    for order in ORDERS:
        text = section(page, order)
        assert ORDER_NAMES[order] in text
        assert "Cost:" in text
        assert "one of your three actions" in text
        assert text.count('<table class="diagram">') == 2
        assert "dg-changed" in text
        assert ("Paid order</strong>" in text) == (order in PAID_ORDERS)
        assert ("Festum Fatuorum" in text) == (order == "altar")


def test_the_pictures_are_drawn_by_the_page_not_fetched():
    page = rules("2022")
    assert "<img" not in page
    assert not re.search(r'src="https?:', page)
    assert inline_code(page) == []


def test_each_edition_lists_its_own_ranks_and_monarch():
    page_2010, page_2022 = rules("2010"), rules("2022")
    ranks_2010 = page_2010.split('id="ranks"')[1].split('id="scoring"')[0]
    ranks_2022 = page_2022.split('id="ranks"')[1].split('id="scoring"')[0]
    for rank in EDITIONS["2010"]["ranks"]:
        assert RANK_NAMES[rank] in ranks_2010
    assert "<dt>" not in ranks_2010.split("Strongman")[1]  # no rank after the Strongman
    assert "Jester" in ranks_2022
    assert escape("The king's track.") in page_2010
    assert escape("The queen's track.") in page_2022


def test_the_scoring_example_shows_the_engines_numbers():
    page = rules("2022")
    example = diagrams.scoring_example()
    table = page.split('class="list scoring-table stacks"')[1].split("</table>")[0]
    for area in example["areas"]:
        assert area["words"] in table
    total = table.split("<tfoot>")[1]
    assert f'<td data-label="Player 1">{example["points"][0]}</td>' in total
    assert f'<td data-label="Player 2">{example["points"][1]}</td>' in total


def test_the_scoring_rules_cover_ties_glass_altars_and_the_end():
    page = rules("2010")
    scoring = page.split('id="scoring"')[1].split('id="symbols"')[0]
    for words in (
        "Strongman in the area wins the tie",
        "+2 for each stained glass",
        "+4 for stained glass on a vault with an altar",
        "1 point for each of their builders",
        "Areas with no builder score nothing",
        "Coins, builders in supply and unused tokens are worth nothing",
        "there is no tie-break",
    ):
        assert words in scoring, words
    assert "Jester" not in scoring
    assert "Jester" in rules("2022").split('id="scoring"')[1].split('id="symbols"')[0]


def test_the_rules_page_shows_the_legend_open():
    page = rules("2022")
    assert '<details class="legend" open>' in page
    assert 'id="help-altar"' in page  # the expansion goes with either edition
