"""Ratings: Glicko-2 per player, game kind and speed class; rated and casual games; seeks by
strength; leaderboards and the profile's chart. ``service`` is what the rest of the site calls."""
