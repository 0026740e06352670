"""Rewrites one part of an existing docs/benchmarks.md: a section between its markers, and goal rows by prefix, so a
benchmark run alone (streaming, W6) updates its own figures and leaves the rest as its run left it."""

GOALS = "## Goals of BENCHMARKS.md"
# Where a section goes the first time: before the first hand-written section after figure 4, or at the end.
FIRST_PLACE = "\n## Connect unary against ProtoHttp's own routes"


def replace_section(text, begin, end, section):
    if begin in text:
        head, rest = text.split(begin, 1)
        tail = rest.split(end, 1)[1] if end in rest else ""
        return head + section + tail
    if FIRST_PLACE in text:
        return text.replace(FIRST_PLACE, "\n" + section + "\n" + FIRST_PLACE, 1)
    return text.rstrip() + "\n\n" + section + "\n"


def replace_goal_rows(text, prefixes, rows):
    """Drops the goal rows starting with any of prefixes, then adds rows at the end of the goals table."""
    text = "\n".join(line for line in text.split("\n") if not line.startswith(tuple(prefixes)))
    goal_lines = ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    if GOALS in text and goal_lines:
        head, rest = text.split(GOALS, 1)
        body = rest.split("\n")
        # The table ends at its first blank line after the header rows.
        end = next(i for i in range(3, len(body)) if not body[i].startswith("|"))
        body[end:end] = goal_lines
        text = head + GOALS + "\n".join(body)
    return text
