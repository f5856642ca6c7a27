"""The site in the browser: views, the game page's context (``presenters``), forms, accounts,
error pages, and the request's guards (validation, rate limits, middleware)."""
