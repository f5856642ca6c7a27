"""``{% url %}`` as Django's, each address worked out once per process: a move's three drawings
(the mover's answer, the opponent's push, the spectators') ask for the same dozen addresses of
their game (its moves, takebacks, resigning, the rules), and Django's ``reverse`` builds each
one afresh, some 30 µs apiece.

A built-in of the template engine (settings ``TEMPLATES``), so that every template's ``{% url %}``
is this one. An address depends only on the view's name, its arguments, the namespace being
served, the URLconf and the script prefix; all five are its key, and a changed URLconf (a test's
``override_settings``) forgets them all. Arguments that are not plain values (a lazy string, a
model) are reversed each time, as Django does.
"""

from __future__ import annotations

from collections import OrderedDict
from threading import Lock

from django import template
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.template.defaulttags import URLNode
from django.template.defaulttags import url as django_url
from django.urls import NoReverseMatch, get_script_prefix, get_urlconf, reverse
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString

register = template.Library()

KEPT_MAX = 8192  # some 40 addresses for each of a few hundred games being played
PLAIN = (int, str, SafeString)  # a template's quoted name is a SafeString

_kept: OrderedDict[tuple, str] = OrderedDict()
_kept_lock = Lock()


class KeptURLNode(URLNode):
    def render(self, context: template.Context) -> str:
        args = [arg.resolve(context) for arg in self.args]
        kwargs = {k: v.resolve(context) for k, v in self.kwargs.items()}
        view_name = self.view_name.resolve(context)
        try:
            current_app = context.request.current_app
        except AttributeError:
            try:
                current_app = context.request.resolver_match.namespace
            except AttributeError:
                current_app = None
        url = ""
        try:
            url = reversed_once(view_name, args, kwargs, current_app)
        except NoReverseMatch:
            if self.asvar is None:
                raise
        if self.asvar:
            context[self.asvar] = url
            return ""
        return conditional_escape(url) if context.autoescape else url


def reversed_once(view_name, args: list, kwargs: dict, current_app: str | None) -> str:
    values = (view_name, *args, *kwargs.values())
    if not all(type(value) in PLAIN for value in values):  # a lazy string, a model
        return reverse(view_name, args=args, kwargs=kwargs, current_app=current_app)
    key = (
        view_name,
        tuple(args),
        tuple(sorted(kwargs.items())),
        current_app,
        get_urlconf(),
        get_script_prefix(),
    )
    with _kept_lock:
        url = _kept.get(key)
        if url is not None:
            _kept.move_to_end(key)
            return url
    url = reverse(view_name, args=args, kwargs=kwargs, current_app=current_app)
    with _kept_lock:
        _kept[key] = url
        while len(_kept) > KEPT_MAX:
            _kept.popitem(last=False)
    return url


@register.tag
def url(parser, token) -> KeptURLNode:
    node = django_url(parser, token)  # Django's parsing and its errors, unchanged
    return KeptURLNode(node.view_name, node.args, node.kwargs, node.asvar)


@receiver(setting_changed)
def forget_addresses(*, setting: str, **_facts) -> None:
    if setting == "ROOT_URLCONF":
        with _kept_lock:
            _kept.clear()
