"""Tournaments: the desk's draw and a bracket that fills itself (issue 27).

`players` reads the players' CSV (`name[,seed][,club]`, or the club's language's
headers, read and checked as `setup`'s draw is: host_tools/results/draw.py), `naming`
the event's name as the club writes it and the id derived from it, `seeding` ranks
them (the seeds, then the others drawn from a recorded seed) and places them (standard
bracket positions, snake groups), `brackets` builds the matches of a single or double
elimination or of groups and their knockout, `advance` fills the bracket from the
results (byes, walkovers, corrections), `placings` ranks the players by the round they
went out in, `store` keeps a tournament in the results database (host_tools/results/db:
one transaction and one audit row a change), `view` prints it (the text and the JSON of
`scoreboard tournament show`), `header` the header a match is queued on a table's box
with, `boxresults` the bracket a results database is opened with, which puts the matches
the boxes play into the bracket in the transaction that stores them. The model is
`model`'s; what the library says, in the club's language, `says`' (words.py the words).
May import `host_tools.results` (the draw's reading and checks, the database), the
firmware's core and the top-level modules; never the devices, live or the commands.
"""


class TournamentError(Exception):
    """One line: why a tournament cannot be made or changed as asked. Given an English
    template and its arguments (says.Said): `str()` is the English, `said.text(lang)`
    the club's language."""

    def __init__(self, template, *args):
        from host_tools.tournament.says import Said

        self.said = template if isinstance(template, Said) and not args else Said(
            template, *args)
        super().__init__(str(self.said))

    def text(self, lang="en"):
        return self.said.text(lang)
