"""{% url %} works each address out once a process (games.templatetags.reversed_once): the links
a page shows are Django's own, under any script prefix, and a missing view is still an error."""

from __future__ import annotations

import pytest
from django.template import engines
from django.urls import NoReverseMatch, reverse, set_script_prefix
from django.utils.functional import lazy

from games.templatetags import reversed_once


def render(source: str, **context) -> str:
    return engines["django"].from_string(source).render(context)


@pytest.fixture(autouse=True)
def no_kept_addresses():
    reversed_once._kept.clear()
    yield
    reversed_once._kept.clear()
    set_script_prefix("/")


def test_an_address_is_djangos_and_is_worked_out_once(monkeypatch):
    # A spy around Django's reverse (this test's only stand-in) counts the work.
    calls = []

    def counted(*args, **kwargs):
        calls.append(args)
        return reverse(*args, **kwargs)

    monkeypatch.setattr(reversed_once, "reverse", counted)
    source = "{% url 'games:act' pk %} {% url 'rules-kind' 'cathedral' %}"
    first = render(source, pk=12)
    assert first == f"{reverse('games:act', args=[12])} {reverse('rules-kind', args=['cathedral'])}"
    assert render(source, pk=12) == first
    assert len(calls) == 2
    assert render(source, pk=13) == f"{reverse('games:act', args=[13])} " + first.split()[1]
    assert len(calls) == 3  # another game, another address


def test_a_site_served_under_a_prefix_links_under_it():
    assert render("{% url 'games:lobby' %}") == "/games/"
    set_script_prefix("/basilica/")
    assert render("{% url 'games:lobby' %}") == "/basilica/games/"


def test_an_argument_that_is_not_a_plain_value_is_reversed_each_time(monkeypatch):
    calls = []
    monkeypatch.setattr(
        reversed_once, "reverse", lambda *a, **k: calls.append(a) or reverse(*a, **k)
    )
    kind = lazy(lambda: "cathedral", str)()
    for _ in range(2):
        assert render("{% url 'rules-kind' kind %}", kind=kind) == "/rules/cathedral/"
    assert len(calls) == 2
    assert not reversed_once._kept


def test_as_a_variable_and_a_missing_view_behave_as_djangos():
    assert render("{% url 'no-such-view' as where %}[{{ where }}]") == "[]"
    with pytest.raises(NoReverseMatch):
        render("{% url 'no-such-view' %}")
    assert render("{% url 'games:act' 5 as act %}{{ act }}") == reverse("games:act", args=[5])
