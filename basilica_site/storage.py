"""Production's static files: the site's own stylesheets and scripts minified before they are
hashed and compressed, so that a first visit carries no comment or indentation of theirs. The
sources keep both; `make run` (DEBUG) serves them as they are."""

from __future__ import annotations

import rcssmin
import rjsmin
from django.core.files.base import ContentFile
from whitenoise.storage import CompressedManifestStaticFilesStorage

# Files that come minified already, or are not the site's own (django-htmx's htmx, the admin's).
LEFT_AS_THEY_ARE = ("django_htmx/", "admin/")


def minified(name: str, text: str) -> str | None:
    """``text`` minified if ``name`` is one of the site's own stylesheets or scripts, else None."""
    if name.startswith(LEFT_AS_THEY_ARE) or name.endswith((".min.js", ".min.css")):
        return None
    if name.endswith(".css"):
        return rcssmin.cssmin(text)
    if name.endswith(".js"):
        return rjsmin.jsmin(text)
    return None


class MinifiedStaticFilesStorage(CompressedManifestStaticFilesStorage):
    """Minifies the collected copy of each of the site's stylesheets and scripts, then has the
    manifest hash (and whitenoise compress) that copy instead of the source."""

    def post_process(self, paths, dry_run=False, **options):
        if not dry_run:
            paths = dict(paths)
            for name, (storage, path) in list(paths.items()):
                with storage.open(path) as file:
                    small = (
                        minified(name, file.read().decode("utf-8"))
                        if name.endswith((".css", ".js"))
                        else None
                    )
                if small is not None:
                    self.delete(name)
                    self._save(name, ContentFile(small.encode("utf-8")))
                    paths[name] = (self, name)
        yield from super().post_process(paths, dry_run=dry_run, **options)
