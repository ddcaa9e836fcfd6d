"""Tournaments: the desk's draw and a bracket that fills itself (issue 27).

`players` reads the players' CSV (`name[,seed][,club]`, read and checked as `setup`'s
draw is: host_tools/results/draw.py), `seeding` ranks them (the seeds, then the others
drawn from a recorded seed) and places them (standard bracket positions, snake groups),
`brackets` builds the matches of a single or double elimination or of groups and their
knockout, `advance` fills the bracket from the results (byes, walkovers, corrections),
`store` keeps a tournament in the results database (host_tools/results/db: one
transaction and one audit row a change), `view` prints it (the text and the JSON of
`scoreboard tournament show`), `header` the header a match is queued on a table's box
with, `boxresults` the results database's hook that puts the matches the boxes play into
the bracket in the transaction that stores them. The model is `model`'s.
May import `host_tools.results` (the draw's reading and checks, the database), the
firmware's core and the top-level modules; never the devices, live or the commands.
"""


class TournamentError(Exception):
    """One line: why a tournament cannot be made or changed as asked."""
