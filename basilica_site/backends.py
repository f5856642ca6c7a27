"""Django's password backend, each request's user read by a query compiled once.

Every request of a signed-in player reads their user's row after their session's; compiling
that query cost several times running it (``games.compiled``). Everything else is Django's
``ModelBackend``: the password check, the permissions, the refusal of an inactive account.

Sessions signed in before this backend name ``django.contrib.auth.backends.ModelBackend``,
which stays in ``AUTHENTICATION_BACKENDS`` after this one so that they stay signed in; a
password this backend refuses is refused for good (``PermissionDenied`` ends Django's
``authenticate``), so that the one after it never checks the same wrong password again.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied

from games.compiled import Compiled

PATH = "basilica_site.backends.PasswordBackend"

_USER = Compiled(lambda pk: get_user_model()._default_manager.filter(pk=pk))


class PasswordBackend(ModelBackend):
    def authenticate(self, request, username=None, password=None, **kwargs):
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is None and password is not None:
            raise PermissionDenied("wrong user name or password")  # said by the login form
        return user

    def get_user(self, user_id):
        if not isinstance(user_id, int):
            return super().get_user(user_id)  # as stored by a session of another shape
        user = _USER.first(user_id)
        return user if user is not None and self.user_can_authenticate(user) else None
