"""Tournaments: formats, pairings, standings and the manager that runs them, with no Discord in sight.

- ``formats``: the formats, their names, and the table sizes and player counts each allows;
- ``rounds``: the plan fixed at the start and the matches of each next round;
- ``pairings`` and ``standings``: the pure pairing algorithms, and standings with their tiebreaks;
- ``results``: an organiser's result text, scored results, the bracket and who goes through;
- ``views``: the status view, the standings and the JSON export, built from the records;
- ``host``: the ``Host`` protocol, what the manager asks of Discord and tells it, as data;
- ``launcher``: opening a paired match once (claim, thread, game, greeting);
- ``manager``: running tournaments, from registration to the last round, deadlines and catch-up;
- ``errors``: the tournament refusals.
"""
