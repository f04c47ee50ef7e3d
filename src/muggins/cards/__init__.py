"""Card games: card Muggins (the 31-capped adding game) and Cribbage."""
