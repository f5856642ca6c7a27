"""Games kept and read again: records (export and import), replays step by step, and each
player's history of finished games with its CSV."""
