"""Players among players: chat and its moderation, follows, blocks and presence."""
