"""What every app builds on: forms and list views, columns and exports, money, the gaming day, the
API's conventions, parsers and the environment's settings readers. It imports no app (the one
`layers` contract in pyproject.toml), only the engine (`blackjack`)."""
