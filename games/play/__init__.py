"""Playing a game: the one door through which a game changes (``services``), the states
replayed from its log, its clocks and vacations as a move reads them, series, the referee's
decisions and the computer's moves. Nothing here pushes, emails or renders: a committed change
sends an event (``games.events``) and the rest of the site listens."""
