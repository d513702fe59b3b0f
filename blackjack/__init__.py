"""The blackjack engine: pure Python, no Django. Plain data in, plain data out."""
