"""Response headers the site adds to every page."""

from __future__ import annotations

from django.utils.cache import patch_cache_control, patch_vary_headers


def htmx_caching(get_response):
    """A view answers an HTMX request with a partial of the same URL's page: a cache must keep
    the two apart (``Vary: HX-Request``), and a partial is one player's view, never shared."""

    def middleware(request):
        response = get_response(request)
        patch_vary_headers(response, ["HX-Request"])
        if getattr(request, "htmx", False):
            patch_cache_control(response, private=True)
        return response

    return middleware
