# The search tree of the native engines' SO-ISMCTS (``muggins.bots.search`` in C): nodes in one growing array,
# each with its children in a list in the order they were added. Inline C only (cimported by the .pyx engines).
from libc.stdlib cimport malloc, realloc
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC


cdef struct Node:
    int actor
    int action
    int first               # first child (-1: none)
    int last_child
    int next                # next sibling
    int visits
    int avail
    double reward


cdef struct Tree:
    Node* nodes
    int size
    int cap


cdef inline int add_node(Tree* t, int parent, int actor, int action) noexcept nogil:
    """A new child of ``parent`` (appended after its siblings); -1 when memory runs out."""
    cdef Node* grown
    cdef int i
    if t.size == t.cap:
        grown = <Node*>realloc(t.nodes, 2 * t.cap * sizeof(Node))
        if grown == NULL:
            return -1
        t.nodes = grown
        t.cap *= 2
    i = t.size
    t.size += 1
    t.nodes[i].actor = actor
    t.nodes[i].action = action
    t.nodes[i].first = -1
    t.nodes[i].last_child = -1
    t.nodes[i].next = -1
    t.nodes[i].visits = 0
    t.nodes[i].avail = 1
    t.nodes[i].reward = 0.0
    if parent >= 0:
        if t.nodes[parent].first < 0:
            t.nodes[parent].first = i
        else:
            t.nodes[t.nodes[parent].last_child].next = i
        t.nodes[parent].last_child = i
    return i


cdef inline int new_tree(Tree* t) noexcept nogil:
    """An empty tree, its root made; -1 when there is no memory."""
    t.cap = 1024
    t.size = 0
    t.nodes = <Node*>malloc(t.cap * sizeof(Node))
    if t.nodes == NULL:
        return -1
    add_node(t, -1, -1, -1)
    return 0


cdef inline int best_child(const Tree* t, int seat) noexcept nogil:
    """The root's most visited move of ``seat`` (the higher reward sum on a tie, else the first); -1: none."""
    cdef int ch = t.nodes[0].first, best = -1
    while ch >= 0:
        if t.nodes[ch].actor == seat and (best < 0 or t.nodes[ch].visits > t.nodes[best].visits or (
                t.nodes[ch].visits == t.nodes[best].visits and t.nodes[ch].reward > t.nodes[best].reward)):
            best = ch
        ch = t.nodes[ch].next
    return best


cdef inline double now_seconds() noexcept nogil:
    """Monotonic seconds (a search's deadline)."""
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9
