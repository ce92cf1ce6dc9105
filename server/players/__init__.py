"""Players: names bound to keys, ratings, standings and match histories."""
