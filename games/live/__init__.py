"""The opponent's page updated at once: the game's group on the channel layer (``announce``),
the websocket consumer, and the partials it pushes to each viewer (``pushes``)."""
