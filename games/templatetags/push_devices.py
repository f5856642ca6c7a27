"""What Settings' "Notifications in this browser" shows (templates/games/_push_devices.html):

{% load push_devices %}{% push_devices_of user as push %}
"""

from __future__ import annotations

from django import template

from games.correspondence import push
from games.models import PushDevice

register = template.Library()


@register.simple_tag
def push_devices_of(user) -> dict:
    """The site's public key (empty if it sends no push) and the player's browsers."""
    return {
        "public_key": push.public_key(),
        "devices": list(PushDevice.objects.filter(user=user)),
    }
