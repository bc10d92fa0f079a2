"""A contest's bots before they play: what a submission folder holds (languages), its build step behind the bot's
walls, the build cache, and the bundle that ships bot folders to another machine."""
