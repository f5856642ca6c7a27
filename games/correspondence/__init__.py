"""Games over days, away from the page: notifications by email ("your turn", "time almost up",
"game over", "rematch offered", the daily digest), decided after a change has committed."""
