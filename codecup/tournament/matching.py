"""Edmonds' blossom algorithm: a maximum matching of a graph, one augmenting path at a time.

Written here from the algorithm (no dependency): Swiss pairing (:func:`codecup.tournament.schedule.
matched_pairs`) finds the fewest rematches a round can have as a maximum matching of the players
who have not met, in polynomial time, where a search over pairings took minutes.
"""

from __future__ import annotations


def augment(root: int, adj: list[list[int]], mate: list[int]) -> bool:
    """Grow the matching ``mate`` (-1: alone) by one augmenting path from ``root``, if there is one.

    Edmonds' search: a tree of alternating paths grown breadth first from ``root``; an edge that
    closes an odd cycle of outer vertices shrinks it into one (its vertices' ``base`` set to the
    cycle's top), whose vertices all become outer; reaching an unmatched vertex flips the path.
    """
    m = len(adj)
    base = list(range(m))
    parent = [-1] * m  # an inner vertex's tree parent (an outer one's is its mate)
    outer = [False] * m
    outer[root] = True
    queue = [root]
    for v in queue:  # grows as it goes
        for u in adj[v]:
            if base[v] == base[u] or mate[v] == u:
                continue
            if u == root or (mate[u] != -1 and parent[mate[u]] != -1):  # u is outer: an odd cycle
                top = _common_base(v, u, base, mate, parent)
                shrunk = [False] * m
                _mark_cycle(v, top, u, base, mate, parent, shrunk)
                _mark_cycle(u, top, v, base, mate, parent, shrunk)
                for i in range(m):
                    if shrunk[base[i]]:
                        base[i] = top
                        if not outer[i]:
                            outer[i] = True
                            queue.append(i)
            elif parent[u] == -1:
                parent[u] = v
                if mate[u] == -1:  # an augmenting path: flip it back to the root
                    while u != -1:
                        back = mate[parent[u]]
                        mate[u], mate[parent[u]] = parent[u], u
                        u = back
                    return True
                outer[mate[u]] = True
                queue.append(mate[u])
    return False


def _common_base(a: int, b: int, base: list[int], mate: list[int], parent: list[int]) -> int:
    """The base of the blossom where the tree paths from ``a`` and ``b`` to the root first meet."""
    seen = set()
    while True:
        a = base[a]
        seen.add(a)
        if mate[a] == -1:  # the root
            break
        a = parent[mate[a]]
    while base[b] not in seen:
        b = parent[mate[base[b]]]
    return base[b]


def _mark_cycle(
    v: int, top: int, child: int, base: list[int], mate: list[int], parent: list[int], shrunk: list[bool]
) -> None:
    """Mark the bases on the tree path from ``v`` up to ``top`` as shrunk into one blossom, and
    point the inner vertices on it back across the cycle (so a path can be flipped through it)."""
    while base[v] != top:
        shrunk[base[v]] = shrunk[base[mate[v]]] = True
        parent[v] = child
        child = mate[v]
        v = parent[mate[v]]
