"""{% choosable it %}…{% endchoosable %}: one thing on the game page a player may choose, or the
same thing plain, drawn around its content: a form that sends the action it completes, a link
that picks one more step of a move, or a plain element.

``it`` comes from the presenter (``games.kinds.basilica.choices.Choosable``: choice, classes,
label, data, title, role, plain_role, form_class); ``game``, ``view`` and ``csrf_token`` are the
page's. Written in Python, not as an included template: a player's board and market hold some
forty of them, redrawn for the player who decides on every move, and the two included halves
they were cost some 1.8 ms a move in Django's template engine.

The lines break only inside a tag or between two, never next to the content.
"""

from __future__ import annotations

from django import template
from django.urls import reverse
from django.utils.html import conditional_escape

from games.templatetags.fragments import block_of_one_value

register = template.Library()


def _attribute(name: str, value, before: str = "") -> str:
    """`` name="value"`` when there is a value, else nothing (as ``{% if %}`` around it)."""
    return f'{before}{name}="{conditional_escape(value)}"' if value else ""


def _act_url(context: template.Context, game) -> str:
    """The game's move URL, reversed once per rendering."""
    cache = context.render_context.dicts[0].setdefault(_act_url, {})
    url = cache.get(game.pk)
    if url is None:
        url = cache[game.pk] = reverse("games:act", args=[game.pk])
    return url


def opening(context: template.Context, it) -> str:
    e = conditional_escape
    choice = it.choice
    data = f'data-{e(it.data[0])}="{e(it.data[1])}"'
    title, label = _attribute("title", it.title), _attribute("aria-label", it.label)
    if choice is not None and choice.action:
        url = e(_act_url(context, context["game"]))
        token = context.get("csrf_token")
        csrf = (
            f'<input type="hidden" name="csrfmiddlewaretoken" value="{e(token)}">'
            if token and token != "NOTPROVIDED"
            else ""
        )
        return (
            f'\n<form method="post" action="{url}" hx-post="{url}"\n'
            f'  hx-target="#live" hx-swap="outerHTML" class="{e(it.form_class)}"'
            f"{_attribute('role', it.role, ' ')}>\n"
            f'  {csrf}<input type="hidden" name="action" value="{e(choice.action_json)}">\n'
            f'  <input type="hidden" name="seq" value="{e(context["view"]["seq"])}">\n'
            f'  <button type="submit" class="{e(it.classes)}" {data}\n'
            f"    {title} {label}>"
        )
    if choice:
        query, seq = e(choice.query), e(context["view"]["seq"])
        return (
            f'\n<a href="?{query}" hx-get="?{query}&amp;seq={seq}" hx-target="#play"\n'
            f'  hx-swap="outerHTML" {_attribute("role", it.role)} class="{e(it.classes)}" {data}\n'
            f"  {title} {label}>"
        )
    return (
        f'\n<div {_attribute("role", it.plain_role)} class="{e(it.classes)}" {data}\n'
        f"  {title} {label}>"
    )


def closing(it) -> str:
    if it.choice is not None and it.choice.action:
        return "</button></form>"
    return "</a>" if it.choice else "</div>"


class ChoosableNode(template.Node):
    def __init__(self, nodelist: template.NodeList, it: template.base.FilterExpression):
        self.nodelist = nodelist
        self.it = it

    def render(self, context: template.Context) -> str:
        it = self.it.resolve(context)
        return opening(context, it) + self.nodelist.render(context) + closing(it)


@register.tag
def choosable(parser: template.base.Parser, token: template.base.Token) -> ChoosableNode:
    """``{% choosable it %}content{% endchoosable %}``: see the module's docstring."""
    return ChoosableNode(*block_of_one_value(parser, token, "the Choosable"))
