"""Rewrites one generated section of an existing docs/benchmarks.md and its rows in the goals table, leaving the rest
as its run left it (make_report.py --stream-into, --duplex-into)."""

GOALS_ANCHOR = "## Goals of BENCHMARKS.md"
# Where a section not in the report yet goes: before the first hand-written section after figure 4, or at the end.
NEW_SECTION_BEFORE = "\n## Connect unary against ProtoHttp's own routes"


def splice(path, begin, end, section, goal_prefixes, goal_rows):
    """Puts `section` (its text between the markers `begin` and `end`) in the report at `path`, and `goal_rows` in its
    goals table in place of the rows that start with one of `goal_prefixes`."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if begin in text:
        head, rest = text.split(begin, 1)
        tail = rest.split(end, 1)[1] if end in rest else ""
        text = head + section + tail
    elif NEW_SECTION_BEFORE in text:
        text = text.replace(NEW_SECTION_BEFORE, "\n" + section + "\n" + NEW_SECTION_BEFORE, 1)
    else:
        text = text.rstrip() + "\n\n" + section + "\n"
    text = "\n".join(line for line in text.split("\n") if not any(line.startswith("| " + p) for p in goal_prefixes))
    if GOALS_ANCHOR in text and goal_rows:
        head, rest = text.split(GOALS_ANCHOR, 1)
        body = rest.split("\n")
        # The table ends at its first blank line after the header rows.
        stop = next(i for i in range(3, len(body)) if not body[i].startswith("|"))
        body[stop:stop] = ["| " + " | ".join(str(c) for c in row) + " |" for row in goal_rows]
        text = head + GOALS_ANCHOR + "\n".join(body)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text.rstrip() + "\n")
