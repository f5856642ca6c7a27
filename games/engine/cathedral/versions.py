"""The rules versions of the Cathedral engine. A new game is played by ``VERSION``; a stored
game keeps the version it was started on, and each rule that changed reads ``state.version``
(README, "Versions")."""

VERSION = "2"
VERSIONS = ("1", "2")
