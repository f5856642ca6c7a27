"""{% fragment value %}…{% endfragment %}: a piece of a template rendered once per ``value``
and then served from memory, so that a page redrawing a list that only grows (a game's log, its
scorings) renders only the entries it has not drawn before, and a move costs the same late in a
game as early.

{% load fragments %}
{% for t in turns %}{% fragment t %}<section>… {{ t.who }} …</section>{% endfragment %}{% endfor %}

The piece must show nothing but ``value``, which must be plain data (dicts, lists, strings,
numbers, None, booleans: what a presenter hands a template): two renderings of equal values
are the same HTML, and whatever else the piece showed would be served as it was first drawn.
The kept pieces are bounded by their size, the oldest used dropped first.
"""

from __future__ import annotations

import hashlib
import io
import itertools
import marshal
import pickle
from collections import OrderedDict
from threading import Lock

from django import template
from django.utils.translation import get_language

from games.settled import Settled, SettledList

register = template.Library()

KEPT_MAX_CHARS = 4_000_000  # about 4-8 MB of HTML; a long game's log is some 30,000 characters

_kept: OrderedDict[tuple[int, str, bytes], str] = OrderedDict()
_kept_chars = 0
_kept_lock = Lock()
_node_numbers = itertools.count()  # never reused, unlike id(): a reloaded template starts afresh


class FragmentNode(template.Node):
    def __init__(self, nodelist: template.NodeList, value: template.base.FilterExpression):
        self.nodelist = nodelist
        self.value = value
        self.number = next(_node_numbers)

    def render(self, context: template.Context) -> str:
        value = self.value.resolve(context)
        # The language too: a fragment's words are said in the language it was drawn in.
        key = (self.number, get_language(), digest(value))
        with _kept_lock:
            html = _kept.get(key)
            if html is not None:
                _kept.move_to_end(key)
                return html
        html = self.nodelist.render(context)
        _keep(key, html)
        return html


def digest(value) -> bytes:
    """What tells a value from every other: its bytes by ``marshal`` for plain data, else by
    ``pickle`` (a dataclass of plain fields, a SafeString), else its repr. Marshal's version 2
    and pickle's fast mode write no references between objects, so that equal values are equal
    bytes however their objects are shared or interned; each is some twice as fast as the repr.
    The tags keep the three kinds of bytes apart. A ``Settled`` value, which never changes, is
    digested once, as the plain dict it equals; a list of them, by their digests."""
    if type(value) is Settled:
        if value.known is None:
            value.known = _digest(dict(value))
        return value.known
    if type(value) in (list, SettledList) and value and all(type(i) is Settled for i in value):
        # A list of settled values (a game's log by turn, a board's rows): known by what each
        # is known by.
        return hashlib.blake2b(b"s" + b"".join(map(digest, value)), digest_size=16).digest()
    return _digest(value)


def _digest(value) -> bytes:
    try:
        data = b"m" + marshal.dumps(value, 2)
    except ValueError:
        try:
            out = io.BytesIO()
            pickler = pickle.Pickler(out, pickle.HIGHEST_PROTOCOL)
            pickler.fast = True
            pickler.dump(value)
            data = b"p" + out.getvalue()
        except (pickle.PicklingError, TypeError, AttributeError, ValueError):
            data = b"r" + repr(value).encode()
    return hashlib.blake2b(data, digest_size=16).digest()


def _keep(key: tuple[int, str, bytes], html: str) -> None:
    global _kept_chars
    with _kept_lock:
        if key in _kept:
            return
        _kept[key] = html
        _kept_chars += len(html)
        while _kept_chars > KEPT_MAX_CHARS:
            _, dropped = _kept.popitem(last=False)
            _kept_chars -= len(dropped)


def forget_fragments() -> None:
    global _kept_chars
    with _kept_lock:
        _kept.clear()
        _kept_chars = 0


def block_of_one_value(
    parser: template.base.Parser, token: template.base.Token, what: str
) -> tuple[template.NodeList, template.base.FilterExpression]:
    """The content and the one value of ``{% name value %}…{% endname %}``; ``what`` names the
    value in the error a template written otherwise gets."""
    bits = token.split_contents()
    if len(bits) != 2:
        raise template.TemplateSyntaxError(f"{{% {bits[0]} %}} takes one value: {what}")
    nodelist = parser.parse((f"end{bits[0]}",))
    parser.delete_first_token()
    return nodelist, parser.compile_filter(bits[1])


@register.tag
def fragment(parser: template.base.Parser, token: template.base.Token) -> FragmentNode:
    """``{% fragment value %}…{% endfragment %}``: see the module's docstring."""
    return FragmentNode(*block_of_one_value(parser, token, "what the piece shows"))
