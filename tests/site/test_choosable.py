"""{% choosable %}: what a player can click on the board is a form that posts its move (with the
page's token and seq), a link that picks one more step, or plain; every word in it escaped."""

from types import SimpleNamespace

from django.template import Context, Template

from games.engine.basilica import Action
from games.kinds.basilica.choices import Choice, Choosable

TEMPLATE = Template("{% load choosable %}{% choosable it %}<b>inside</b>{% endchoosable %}")
HOSTILE = '"><script>alert(1)</script>'


def draw(it, **context) -> str:
    page = {"game": SimpleNamespace(pk=42), "view": {"seq": 17}, "it": it, **context}
    return TEMPLATE.render(Context(page))


def test_a_step_that_completes_a_move_is_a_form_posting_it_with_the_token_and_seq():
    action = Action("vault", tile=3, col=1, row=0)
    choice = Choice("at:1,0", "c1r0", action, "tile:3/at:1,0")
    it = Choosable(choice, "cell choosable", ("cell", "1,0"))
    html = draw(it, csrf_token="secret-token")
    assert '<form method="post" action="/games/42/act/" hx-post="/games/42/act/"' in html
    assert 'name="csrfmiddlewaretoken" value="secret-token"' in html
    assert 'name="action" value="{&quot;type&quot;: &quot;vault&quot;, &quot;tile&quot;: 3' in html
    assert '<input type="hidden" name="seq" value="17">' in html
    assert html.endswith("<b>inside</b></button></form>")


def test_a_step_that_does_not_complete_a_move_is_a_link_picking_it():
    it = Choosable(Choice("tile:3", "red", None, "tile:3"), "tile choosable", ("tile", 3))
    html = draw(it)
    assert 'href="?pick=tile%3A3" hx-get="?pick=tile%3A3&amp;seq=17" hx-target="#play"' in html
    assert "<form" not in html
    assert html.endswith("<b>inside</b></a>")


def test_a_thing_that_cannot_be_chosen_is_plain_and_its_words_are_escaped():
    it = Choosable(None, "tile", ("tile", 5), label=HOSTILE, title=HOSTILE, plain_role="img")
    html = draw(it)
    assert html.startswith('\n<div role="img" class="tile" data-tile="5"')
    assert "<script>" not in html
    assert 'title="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"' in html
    assert html.endswith("<b>inside</b></div>")
