"""``lastcard play --browser``: a person plays against bots at a table served to their browser.

The person is a seat of the same ``Table`` as every game (``seat.BrowserSeat``, as ``table/human.py`` is in the
terminal); the page shows the legal moves the referee sends and hands back the one chosen (``desk``: the meeting
point of the table's thread and the server's); ``server`` serves the page on this machine; ``session`` plays the
game and stores it as a results folder of one game, which the replay viewer opens afterwards.
"""
